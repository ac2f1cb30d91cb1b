"""Host adapters: Claude Code (and, later, Hermes)."""

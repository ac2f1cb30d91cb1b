"""Host adapters: Claude Code, Codex CLI, Gemini CLI and Hermes Agent, over one hook core."""

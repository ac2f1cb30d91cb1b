"""Kept for ``hooks/entry.py``, the hook path of earlier installations (see that file)."""

"""Walking JSON values: rebuild a value with its string leaves transformed.

Host-neutral: the minimal patch is computed by the engine; applying it onto a
complete object (as Claude Code needs) belongs in the host's adapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from redactor.results import JsonPath

__all__ = ["apply_patch", "walk_strings"]


def walk_strings(value: Any, transform: Callable[[JsonPath, str], str],
                 path: JsonPath = ()) -> Any:
    """Return a copy of ``value`` with ``transform(path, leaf)`` applied to every string leaf.

    Dict keys, key order, numbers, booleans and ``None`` are kept as they are; tuples
    come back as lists (their JSON form).
    """
    if isinstance(value, str):
        return transform(path, value)
    if isinstance(value, dict):
        return {key: walk_strings(item, transform, (*path, str(key)))
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [walk_strings(item, transform, (*path, index))
                for index, item in enumerate(value)]
    return value


def apply_patch(original: dict[str, Any], patch: dict[str | int, Any]) -> dict[str, Any]:
    """The complete object with the patched top-level keys replaced, order kept."""
    return {key: patch.get(key, item) for key, item in original.items()}

"""Walking JSON values: rebuild a value with its string leaves transformed.

The walk is iterative, so a value nested as deep as the parser allows never
exhausts the interpreter's stack.  Host-neutral: the minimal patch is computed by
the engine; applying it onto a complete object (as Claude Code needs) belongs in
the host's adapter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final

from redactor.jsonio import MAX_DEPTH, TooDeep
from redactor.results import JsonPath

__all__ = ["apply_patch", "plain_field_name", "unique_key", "walk_json", "walk_strings"]

_END: Final = object()
_FIELD: Final = re.compile(r"[A-Za-z_$@][A-Za-z0-9_$@.-]{0,63}")


def plain_field_name(name: str) -> bool:
    """A key that reads as a program's field name (``stdout``, ``tool_calls``), not as data:
    an identifier-like word with fewer than five digits."""
    return _FIELD.fullmatch(name) is not None and sum(c.isdigit() for c in name) < 5


def _items(value: Any) -> Iterator[tuple[Any, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def unique_key(target: dict[str, Any], key: str) -> str:
    """``key``, or ``key#2``, ``key#3``... when the object already has it."""
    if key not in target:
        return key
    number = 2
    while f"{key}#{number}" in target:
        number += 1
    return f"{key}#{number}"


def walk_json(
    value: Any,
    leaf: Callable[[JsonPath, str], Any],
    *,
    key: Callable[[JsonPath, str], str] | None = None,
    scalar: Callable[[JsonPath, Any], Any] | None = None,
    too_deep: Callable[[JsonPath], Any] | None = None,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Return a copy of ``value`` with every string leaf replaced by ``leaf(path, text)``.

    ``key(path, name)`` renames an object's keys (``path`` is the object's own path; a
    name that collides with one already written gets ``#2``...); ``scalar(path, v)``
    replaces numbers, booleans and ``None``.  Containers nested deeper than
    ``max_depth`` raise :class:`TooDeep`, or are replaced by ``too_deep(path)`` when
    given.  Key order is kept; tuples come back as lists (their JSON form).
    """

    def convert(path: JsonPath, item: Any) -> Any:
        if isinstance(item, str):
            return leaf(path, item)
        return item if scalar is None else scalar(path, item)

    if not isinstance(value, dict | list | tuple):
        return convert((), value)
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Iterator[tuple[Any, Any]], Any, JsonPath]] = [(_items(value), root, ())]
    while stack:
        items, out, path = stack[-1]
        entry: Any = next(items, _END)
        if entry is _END:
            stack.pop()
            continue
        name: Any = entry[0]
        item: Any = entry[1]
        written: Any = name
        if isinstance(out, dict) and key is not None:
            written = unique_key(out, key(path, str(name)))
        # Paths name keys as written, so a key that held a value never shows in one.
        child_path: JsonPath = (*path, str(written) if isinstance(out, dict) else name)
        if isinstance(item, dict | list | tuple):
            if len(stack) >= max_depth:
                if too_deep is None:
                    raise TooDeep(f"JSON nested deeper than {max_depth} levels")
                child: Any = too_deep(child_path)
                nested = False
            else:
                child = {} if isinstance(item, dict) else []
                nested = True
        else:
            child = convert(child_path, item)
            nested = False
        if isinstance(out, dict):
            out[written] = child
        else:
            out.append(child)
        if nested:
            stack.append((_items(item), child, child_path))
    return root


def walk_strings(value: Any, transform: Callable[[JsonPath, str], str],
                 path: JsonPath = ()) -> Any:
    """Return a copy of ``value`` with ``transform(path, leaf)`` applied to every string leaf.

    Dict keys, key order, numbers, booleans and ``None`` are kept as they are; tuples
    come back as lists (their JSON form).  ``path`` is put in front of every path.
    """
    if path:
        return walk_json(value, lambda sub, text: transform((*path, *sub), text))
    return walk_json(value, transform)


def apply_patch(original: dict[str, Any], patch: dict[str | int, Any]) -> dict[str, Any]:
    """The complete object with the patched top-level keys replaced, order kept."""
    return {key: patch.get(key, item) for key, item in original.items()}

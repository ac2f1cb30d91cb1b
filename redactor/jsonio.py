"""JSON in and out of the hooks, safe for any input a host or a crafted tool output can give.

- :func:`loads` reads bytes as UTF-8, keeping bytes that are not UTF-8 as lone
  surrogates (``surrogateescape``) so that the event can still be answered, and
  refuses what is not JSON as the hosts write it: ``NaN``, ``Infinity`` and numbers
  too large for a float (``1e400``) are errors.  Nesting is limited only by the
  parser (``RecursionError`` near 1,000 levels); walks and :func:`dumps` refuse
  values nested deeper than :data:`MAX_DEPTH`.
- :func:`dumps` always gives one line of valid JSON that encodes to UTF-8: lone
  surrogates are written as ``\\uXXXX`` escapes, never as raw bytes, and a value
  that is not JSON (``NaN``) is an error instead of ``NaN`` on stdout.

Only the standard library is imported: the host adapters (:mod:`redactor.hosts`) read
and write every event through this module, in the server's workers and in the
client's slow path.  The light client itself parses no JSON: it hands the raw event
to the server (:mod:`redactor.serve.client`).
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

__all__ = ["DUPLICATE_KEY_MARK", "MAX_DEPTH", "TooDeep", "depth_exceeds", "dumps", "key_name",
           "loads"]

#: Containers nested deeper than this are refused.  Python's own JSON encoder and
#: decoder recurse, so a limit well below the interpreter's recursion limit keeps
#: every later step (walking, rendering) safe whatever the input's shape.
MAX_DEPTH: Final = 400


#: Marks the second and later occurrences of a key in one JSON object (one more of it
#: each; see redactor.batch.loads_keeping_numbers), so that every occurrence is redacted
#: and written back: a private-use character, which no recognizer reads as part of
#: anything.
DUPLICATE_KEY_MARK: Final = "\U0010fffd"


def key_name(key: str) -> str:
    """A key as it was written: without the marks of a repeated key.  The analysis
    reads this name (``key`` given twice is a secret's key both times)."""
    return key.rstrip(DUPLICATE_KEY_MARK)


class TooDeep(ValueError):
    """A JSON value is nested deeper than :data:`MAX_DEPTH`."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too large for a float")
    return value


def depth_exceeds(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when containers in ``value`` are nested deeper than ``limit`` (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list | tuple))
    return False


def loads(raw: bytes | str) -> Any:
    """Parse one JSON document strictly (see the module docstring).

    Raises ``ValueError`` or ``RecursionError`` for input that is not acceptable JSON.
    """
    text = raw.decode("utf-8", errors="surrogateescape") if isinstance(raw, bytes) else raw
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)


def dumps(value: Any) -> str:
    """One line of valid JSON that always encodes to UTF-8.

    Non-ASCII text stays readable; only when the value holds a lone surrogate is the
    whole document written with ASCII escapes.  Raises ``ValueError`` for values
    JSON cannot represent (``NaN``, infinities) and ``TooDeep`` for deep values.
    """
    if depth_exceeds(value):
        raise TooDeep(f"JSON nested deeper than {MAX_DEPTH} levels")
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, allow_nan=False)
    return text

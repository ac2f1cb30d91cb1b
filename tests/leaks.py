"""Whether bytes something received still hold a planted value, in any form.

A value counts as leaked when it appears in the raw bytes, in any string of the JSON
they decode to (escapes undone), or, for a value with digits, as its digits alone
inside one string (``529.982.247-25`` written ``52998224725`` or ``529 982 247 25``).
The answer names the planted value by its index only, so that a failing assertion
prints no protected value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield repr(value)


def leaks(data: bytes, planted: Iterable[str]) -> list[str]:
    """Where each planted value shows in ``data``: ``"planted[i] as ..."`` labels."""
    found: list[str] = []
    try:
        strings = list(_strings(json.loads(data)))
    except (ValueError, RecursionError):
        strings = [data.decode("utf-8", "replace")]
    digit_strings = ["".join(re.findall(r"\d", s)) for s in strings]
    for index, value in enumerate(planted):
        if value.encode("utf-8") in data:
            found.append(f"planted[{index}] as raw bytes")
        if any(value in s for s in strings):
            found.append(f"planted[{index}] in a decoded string")
        digits = "".join(re.findall(r"\d", value))
        if len(digits) >= 8 and any(digits in s for s in digit_strings):
            found.append(f"planted[{index}] as digits only")
    return found

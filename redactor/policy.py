"""Policy rules over tool calls and prompts, shared by every host adapter.

Rule patterns come from configuration files, a project's among them, so matching
is bounded: patterns run on the ``regex`` engine with a deadline shared by all the
rules of one call (:data:`MATCH_SECONDS`).  A search that runs past it counts as
a match: the rule applies, which is the strict side for a deny or ask rule.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from redactor.config import Rule

if TYPE_CHECKING:
    import regex

__all__ = ["MATCH_SECONDS", "match_prompt", "match_tool", "string_leaves"]

#: Time all the rule patterns of one call may take together.
MATCH_SECONDS: Final = 1.0


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern[str]:
    import regex

    return regex.compile(pattern)


class _Deadline:
    def __init__(self, seconds: float = MATCH_SECONDS) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        return max(self.end - time.monotonic(), 0.001)


def string_leaves(value: Any, *, keys: bool = False) -> Iterator[str]:
    """Every string inside a JSON value, depth first; dict keys too with ``keys``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            if keys:
                yield from (key for key in item if isinstance(key, str))
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list | tuple):
            stack.extend(reversed(item))


def _applies(rule: Rule, where: Literal["tool", "prompt"], now: datetime | None = None) -> bool:
    """The rule covers this kind of event and its gates (hours, flag file) are open."""
    if where not in rule.on:
        return False
    if rule.hours is not None:
        start, end = rule.hours
        hour = (now or datetime.now()).hour
        inside = start <= hour < end if start <= end else hour >= start or hour < end
        if not inside:
            return False
    return rule.flag_file is None or Path(rule.flag_file).exists()


def _pattern_hits(rule: Rule, texts: Iterable[str], deadline: _Deadline) -> bool:
    if rule.pattern is None:
        return True
    pattern = _compiled(rule.pattern)
    try:
        return any(pattern.search(text, timeout=deadline.left()) for text in texts)
    except TimeoutError:
        return True


def match_tool(rules: Sequence[Rule], tool_name: str, tool_input: Any,
               now: datetime | None = None) -> Rule | None:
    """The first rule whose tool pattern fits the name and whose pattern is in the input.

    ``deny`` rules are looked at before ``ask`` rules, so the strictest answer wins.
    """
    deadline = _Deadline()
    for action in ("deny", "ask"):
        for rule in rules:
            if rule.action != action or not _applies(rule, "tool", now):
                continue
            try:
                named = _compiled(rule.tools).fullmatch(tool_name, timeout=deadline.left())
            except TimeoutError:
                named = None  # a tool pattern past the deadline covers the call
            else:
                if named is None:
                    continue
            if _pattern_hits(rule, string_leaves(tool_input), deadline):
                return rule
    return None


def match_prompt(rules: Sequence[Rule], prompt: str, now: datetime | None = None) -> Rule | None:
    """The first prompt rule whose gates are open and whose pattern occurs in the prompt."""
    deadline = _Deadline()
    for rule in rules:
        if _applies(rule, "prompt", now) and _pattern_hits(rule, (prompt,), deadline):
            return rule
    return None

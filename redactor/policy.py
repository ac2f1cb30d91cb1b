"""Policy rules over tool calls and prompts, shared by every host adapter."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from redactor.config import Rule

__all__ = ["match_prompt", "match_tool", "string_leaves"]


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def string_leaves(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (dict keys excluded), depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
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


def _pattern_hits(rule: Rule, texts: Iterable[str]) -> bool:
    if rule.pattern is None:
        return True
    pattern = _compiled(rule.pattern)
    return any(pattern.search(text) for text in texts)


def match_tool(rules: Sequence[Rule], tool_name: str, tool_input: Any,
               now: datetime | None = None) -> Rule | None:
    """The first rule whose tool pattern fits the name and whose pattern is in the input.

    ``deny`` rules are looked at before ``ask`` rules, so the strictest answer wins.
    """
    for action in ("deny", "ask"):
        for rule in rules:
            if rule.action != action or not _applies(rule, "tool", now):
                continue
            if not _compiled(rule.tools).fullmatch(tool_name):
                continue
            if _pattern_hits(rule, string_leaves(tool_input)):
                return rule
    return None


def match_prompt(rules: Sequence[Rule], prompt: str, now: datetime | None = None) -> Rule | None:
    """The first prompt rule whose gates are open and whose pattern occurs in the prompt."""
    for rule in rules:
        if _applies(rule, "prompt", now) and _pattern_hits(rule, (prompt,)):
            return rule
    return None

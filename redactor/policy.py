"""Policy rules over tool calls and prompts, shared by every host adapter."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
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


def _applies(rule: Rule, where: Literal["tool", "prompt"]) -> bool:
    return where in rule.on


def match_tool(rules: Sequence[Rule], tool_name: str, tool_input: Any) -> Rule | None:
    """The first rule whose tool pattern fits the name and whose pattern is in the input.

    ``deny`` rules are looked at before ``ask`` rules, so the strictest answer wins.
    """
    for action in ("deny", "ask"):
        for rule in rules:
            if rule.action != action or not _applies(rule, "tool"):
                continue
            if not _compiled(rule.tools).fullmatch(tool_name):
                continue
            pattern = _compiled(rule.pattern)
            if any(pattern.search(leaf) for leaf in string_leaves(tool_input)):
                return rule
    return None


def match_prompt(rules: Sequence[Rule], prompt: str) -> Rule | None:
    """The first prompt rule whose pattern occurs in the prompt."""
    for rule in rules:
        if _applies(rule, "prompt") and _compiled(rule.pattern).search(prompt):
            return rule
    return None

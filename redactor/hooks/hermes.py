"""Hermes Agent adapter: the logic behind the plugin and the ``hermes`` shell hook.

Hermes treats a raising or slow callback as "go on", so every entry point here
catches its own errors and answers with a block or a fully withheld value.
Which Hermes release honours what is in README ("Hermes Agent").
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Literal

from redactor import jsonio, messages
from redactor.config import Settings, load_settings
from redactor.patch import plain_field_name, walk_json
from redactor.policy import match_prompt, match_tool
from redactor.results import JsonPath

__all__ = ["Guard", "blocking", "shell", "user_text", "withheld_messages"]

logger = logging.getLogger("redactor.hermes")

#: Message keys whose strings are structure, not content, in an OpenAI-style request.
#: ``name`` is not among them: in a message it names a participant, which may be a person.
STRUCTURE_KEYS: Final = frozenset({"role", "tool_call_id", "id", "type"})


def user_text(user_message: Any) -> str:
    """The text of a user message: a string, or a list of content parts."""
    if isinstance(user_message, str):
        return user_message
    if isinstance(user_message, list):
        parts = []
        for part in user_message:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return ""


def _is_content(path: JsonPath) -> bool:
    return not any(isinstance(key, str) and key in STRUCTURE_KEYS for key in path[-1:])


def withheld_messages(messages_value: Any, marker: str) -> Any:
    """A copy of chat messages with every content string replaced by ``marker``.

    Any shape: keys other than the structure keys and numbers become ``marker``
    too, and containers past the depth limit collapse into it.
    """
    return walk_json(messages_value, lambda path, text: marker if _is_content(path) else text,
                     key=lambda path, name: name if plain_field_name(name) else marker,
                     scalar=lambda path, item: marker if isinstance(item, int | float)
                     and not isinstance(item, bool) else item,
                     too_deep=lambda path: marker, max_depth=jsonio.MAX_DEPTH - 2)


class Guard:
    """Decisions for one Hermes process: settings are re-read on every call."""

    def __init__(self, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> None:
        self.env = os.environ if env is None else env
        self.cwd = cwd

    def settings(self) -> Settings:
        return load_settings(cwd=self.cwd, env=self.env)

    def engine(self, settings: Settings) -> Any:
        from redactor.api import get_redactor

        return get_redactor(settings, environ=self.env)

    # turns --------------------------------------------------------------------
    def check_turn(self, user_message: Any) -> tuple[str | None, list[str], Settings]:
        """``(rule reason or None, entity types found, settings)`` for a turn's message.

        The text is analysed once; callers pick what blocks (``blocking``).
        """
        settings = self.settings()
        text = user_text(user_message)
        rule = match_prompt(settings.rules, text)
        if rule is not None:
            return rule.reason, [], settings
        found = self.engine(settings).analyze(text)
        return None, [messages.finding_type(f.entity_type, f.recognizer) for f in found], settings


    def redact_text(self, text: str) -> tuple[str, list[str]]:
        settings = self.settings()
        result = self.engine(settings).redact(text)
        return result.text, [f.entity_type for f in result.findings]

    def redact_messages(self, value: Any) -> tuple[Any, list[str]]:
        """Redact the content strings of chat messages (structure keys stay)."""
        settings = self.settings()
        engine = self.engine(settings)
        found: list[str] = []

        def leaf(path: JsonPath, text: str) -> str:
            if not _is_content(path):
                return text
            result = engine.redact(text)
            found.extend(f.entity_type for f in result.findings)
            return str(result.text)

        def key(path: JsonPath, name: str) -> str:
            return name if name in STRUCTURE_KEYS else leaf((), name)

        def number(path: JsonPath, item: Any) -> Any:
            if type(item) is not int or item < 0 or item.bit_length() > 90:
                return item
            redacted = leaf(path, str(item))
            return item if redacted == str(item) else redacted

        return walk_json(value, leaf, key=key, scalar=number), found

    def redact_args(self, args: dict[str, Any]) -> tuple[dict[str, Any], dict[str | int, Any]]:
        """The redacted arguments and the partial patch (changed top-level keys only).

        Numbers that are identifiers and keys that hold one are redacted too; a
        renamed top-level key shows as a patch key missing from ``args`` (a shallow
        merge cannot remove the old one: see :func:`renames_top_level`).
        """
        settings = self.settings()
        result = self.engine(settings).redact_json(args, keys_and_numbers=True,
                                                   entities=settings.input_entities)
        return dict(result.value), dict(result.patch)

    def tool_rule(self, tool_name: str, args: Any) -> tuple[Literal["deny", "ask"], str] | None:
        rule = match_tool(self.settings().rules, tool_name, args)
        return (rule.action, rule.reason) if rule is not None else None


def renames_top_level(args: dict[str, Any], patch: dict[str | int, Any]) -> bool:
    """True when the patch renames a top-level key, which a shallow merge cannot do."""
    return any(key not in args for key in patch)


def blocking(found: list[str], settings: Settings) -> list[str]:
    """The entity types among ``found`` that make a prompt bounce."""
    return messages.prompt_blockers(found, settings)


# ------------------------------------------------------------------ shell hook


def shell(raw: bytes, env: Mapping[str, str] | None = None) -> str:
    """Answer one Hermes shell-hook event (stdin JSON) with one JSON object.

    ``pre_llm_call``: a block naming the entity types (honoured from the release that
    has the block directive; 0.19.0 ignores it, see README).  ``pre_tool_call``: deny
    rules block; personal data gives a ``modify`` with the partial patch.  Anything
    else: ``{}``.  Every failure answers with a block.
    """
    try:
        from redactor.config import MAX_TIME_BUDGET
        from redactor.hooks.claude import time_budget

        with time_budget(MAX_TIME_BUDGET):
            return _shell(raw, env)
    except Exception as exc:  # every failure must fail closed
        from redactor.diagnostics import log_error

        event = _sniff_hermes_event(raw)
        log_error("hook hermes", event, exc, env)
        if event in (None, "pre_llm_call", "pre_tool_call"):
            text = messages.text("fail_prompt" if event == "pre_llm_call" else "fail_tool",
                                 error=type(exc).__name__)
            return jsonio.dumps({"action": "block", "message": text})
        return "{}"


def _sniff_hermes_event(raw: bytes) -> str | None:
    try:
        payload = jsonio.loads(raw)
    except (ValueError, RecursionError):
        return None
    event = payload.get("hook_event_name") if isinstance(payload, dict) else None
    return event if isinstance(event, str) else None


def _shell(raw: bytes, env: Mapping[str, str] | None) -> str:
    payload = jsonio.loads(raw)
    if not isinstance(payload, dict):
        raise ValueError("the hook event is not a JSON object")
    event = payload.get("hook_event_name")
    cwd = payload.get("cwd")
    guard = Guard(env, Path(cwd) if isinstance(cwd, str) and Path(cwd).is_dir() else None)
    extra_value = payload.get("extra")
    extra: dict[str, Any] = extra_value if isinstance(extra_value, dict) else {}
    if env is not None and event in env.get("REDACTOR_TEST_FAULT", "").split(","):
        raise RuntimeError("failure drill")
    if event == "pre_llm_call":
        reason, found, settings = guard.check_turn(extra.get("user_message"))
        found = blocking(found, settings)
        if reason is None and not found:
            return "{}"
        message = reason or messages.prompt_blocked(settings, found)
        return jsonio.dumps({"action": "block", "message": message})
    if event == "pre_tool_call":
        tool_name = payload.get("tool_name")
        args = payload.get("tool_input")
        if not isinstance(tool_name, str) or not isinstance(args, dict):
            return "{}"
        decided = guard.tool_rule(tool_name, args)
        if decided is not None:
            return jsonio.dumps({"action": "block", "message": decided[1]})
        _, patch = guard.redact_args(args)
        if not patch:
            return "{}"
        if renames_top_level(args, patch):
            return jsonio.dumps({"action": "block", "message": messages.text(
                "shape_blocked", guard.settings().language)})
        return jsonio.dumps({"action": "modify", "args": patch})
    return "{}"

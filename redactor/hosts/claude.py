"""Claude Code: ``redactor hook claude``, a thin translation over :mod:`redactor.hosts.core`.

One hook event arrives as JSON on stdin; exactly one JSON object (or nothing) goes
to stdout.  Claude Code fails open on every error of a hook, so this adapter fails
closed on purpose: any internal error or an exceeded time budget turns into the
safe answer for the event (see docs/hosts/claude-code.md).

Claude Code replaces ``tool_input`` and ``tool_response`` whole, so the minimal
patch computed by the engine is emitted applied onto the complete original object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from redactor import jsonio, messages
from redactor.config import Settings
from redactor.hosts.catalogue import events
from redactor.hosts.core import (
    HookTimeout,
    InjectedFault,
    JsonAdapter,
    Outcome,
    check_prompt,
    check_tool_input,
    prompt_notice,
    redact_output,
    redactor_command,
    sniff_event,
    time_budget,
    whole_replacement,
    withheld,
    wrap_bash_command,
)

__all__ = ["ADAPTER", "EVENTS", "HookTimeout", "InjectedFault", "Outcome", "fail_closed",
           "handle", "is_sealed", "redactor_command", "run", "seal_session", "sniff_event",
           "stop_turn", "time_budget", "whole_replacement", "withheld", "wrap_bash_command"]

EVENTS: Final = events("claude")
#: Claude Code's shell tool, whose ``command`` ``hooks.wrap_bash`` wraps.
SHELL_TOOL: Final = "Bash"
_SESSION_SNIFF: Final = re.compile(rb'"session_id"\s*:\s*"([A-Za-z0-9_.-]{1,128})"')


class ClaudeCode(JsonAdapter):
    """Claude Code's events and answers."""

    name = "claude"
    events = frozenset(EVENTS)

    def dispatch(self, event: str, payload: dict[str, Any], settings: Settings,
                 env: Mapping[str, str], engine: Any) -> Outcome:
        if event == "PreToolUse":
            return _pre_tool_use(payload, settings, engine, env)
        if event == "PostToolUse":
            return _post_tool_use(payload, settings, engine, env)
        if event == "PostToolUseFailure":
            return _post_tool_use_failure(payload, settings, engine)
        return _user_prompt_submit(payload, settings, engine, env)

    def fail_closed(self, event: str | None, payload: Any, error: BaseException,
                    language: str = "pt-BR") -> Outcome:
        """The safe answer to an event whose handling failed.  Names no value; never raises."""
        name = type(error).__name__
        try:
            if event == "UserPromptSubmit":
                return Outcome.emit({"decision": "block",
                                     "reason": messages.text("fail_prompt", language, error=name)})
            if event == "PreToolUse":
                # Exit 2 blocks the call whatever stdout holds.
                return Outcome(stderr=messages.text("fail_tool", language, error=name),
                               exit_code=2)
            if event == "PostToolUse" and isinstance(payload, dict) and "tool_response" in payload:
                marker = messages.text("withheld", language)
                return Outcome.emit({"hookSpecificOutput": {
                    "hookEventName": "PostToolUse",
                    "updatedToolOutput": withheld(payload["tool_response"], marker),
                }})
        except Exception:  # noqa: S110 - the answer below needs nothing that can fail
            pass
        # Unreadable input, an unknown event, or a tool output whose shape is unknown.
        return stop_turn(language, name)

    def after_failure(self, raw: bytes, outcome: Outcome, env: Mapping[str, str] | None) -> None:
        if outcome.stops_turn:
            seal_session(raw, env)


def _pre_tool_use(payload: dict[str, Any], settings: Settings, engine: Any,
                  env: Mapping[str, str]) -> Outcome:
    step = check_tool_input("PreToolUse", payload, settings, engine, shell_tool=SHELL_TOOL,
                            host_name="claude", env=env)
    check, updated = step.check, step.updated
    if check.action == "deny":
        return Outcome.emit({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": check.reason,
        }})
    if check.action == "ask":
        # An ask rule hands the call to the person, with the redacted input: what they
        # approve is what runs, so no rule can switch redaction off.
        ask: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                               "permissionDecisionReason": check.reason}
        if step.changed:
            ask["updatedInput"] = updated
        return Outcome.emit({"hookSpecificOutput": ask})
    if not step.changed:
        return Outcome()
    output: dict[str, Any] = {"hookEventName": "PreToolUse", "updatedInput": updated}
    if check.types:
        output["additionalContext"] = messages.text("rewritten", settings.language,
                                                    entities=check.entities)
    if settings.permission_decision != "none":
        output["permissionDecision"] = settings.permission_decision
        output["permissionDecisionReason"] = output.get("additionalContext", "redactor")
    return Outcome.emit({"hookSpecificOutput": output})


def _post_tool_use(payload: dict[str, Any], settings: Settings, engine: Any,
                   env: Mapping[str, str]) -> Outcome:
    if "tool_response" not in payload:
        return Outcome()
    # Claude Code replaces the output whole; a string output is read as a JSON value.
    redacted = redact_output(payload["tool_response"], engine, text_as_json=True,
                             payload=payload, settings=settings, env=env)
    if redacted is None:
        return Outcome()
    return Outcome.emit({"hookSpecificOutput": {
        "hookEventName": "PostToolUse",
        "updatedToolOutput": redacted[0],
    }})


def _post_tool_use_failure(payload: dict[str, Any], settings: Settings, engine: Any) -> Outcome:
    # The failed call's output cannot be replaced; the model is at least warned.
    error = payload.get("error")
    if not isinstance(error, str):
        return Outcome()
    findings = engine.analyze(error)
    if not findings:
        return Outcome()
    return Outcome.emit({"hookSpecificOutput": {
        "hookEventName": "PostToolUseFailure",
        "additionalContext": messages.text(
            "failure_output", settings.language,
            entities=messages.entity_names(f.entity_type for f in findings)),
    }})


def _user_prompt_submit(payload: dict[str, Any], settings: Settings, engine: Any,
                        env: Mapping[str, str]) -> Outcome:
    prompt = payload.get("prompt")
    if not isinstance(prompt, str):
        raise ValueError("UserPromptSubmit without a prompt string")
    if is_sealed(payload.get("session_id"), env):
        return Outcome.emit({"decision": "block",
                             "reason": messages.text("sealed_session", settings.language)})
    gateway = _session_gateway(env)
    if gateway is False:
        return Outcome.emit({"decision": "block",
                             "reason": messages.text("gateway_down", settings.language)})
    reason = check_prompt(prompt, settings, engine, wire_redacts=gateway is True)
    if reason is not None:
        return Outcome.emit({"decision": "block", "reason": reason})
    if settings.pseudonyms:
        from redactor.pseudonyms.hooks import grant_typed

        grant_typed(prompt, payload, settings, env)
    notice = prompt_notice(prompt, settings, engine) if gateway else None
    if notice is None:
        return Outcome()
    return Outcome.emit({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                                "additionalContext": notice}})


#: Set in Claude Code's settings by ``redactor install claude --gateway``: this session's
#: requests must go through the gateway.
GATEWAY_MARK: Final = "REDACTOR_GATEWAY"


def _session_gateway(env: Mapping[str, str]) -> bool | None:
    """True when this session's model endpoint is a live redactor gateway holding this
    user's token; False when the session was set up for one (GATEWAY_MARK) that does
    not answer; None when the session uses no gateway."""
    marked = env.get(GATEWAY_MARK) == "1"
    if not marked and not env.get("ANTHROPIC_BASE_URL") and not env.get("ANTHROPIC_UNIX_SOCKET"):
        return None
    from redactor.gateway.identity import gateway_live

    if gateway_live(env):
        return True
    return False if marked else None


# ------------------------------------------------------------------ failing closed


def stop_turn(language: str, error: str) -> Outcome:
    """The answer for an event that cannot be read at all.

    ``continue: false`` ends Claude Code's turn before the next model request, so a
    tool output it carries never reaches the model; exit 2 with the same notice on
    stderr blocks a tool call or a prompt on its own (verified with the real CLI,
    tests/e2e/test_claude_stop_turn.py).
    """
    notice = messages.text("fail_unreadable", language, error=error)
    return Outcome(stdout=jsonio.dumps({"continue": False, "stopReason": notice}),
                   stderr=notice, exit_code=2, stops_turn=True)


def _sealed_dir(env: Mapping[str, str] | None) -> Path:
    from redactor.diagnostics import log_path

    return log_path(env).parent / "sealed-sessions"


def seal_session(raw: bytes, env: Mapping[str, str] | None = None) -> None:
    """Remember the session of an event whose turn was stopped unread.

    The stop keeps a tool output out of that turn, but Claude Code keeps it in the
    session, and the next prompt (or a ``--resume``) would carry it to the model: the
    next UserPromptSubmit of a sealed session is blocked.  Never raises.
    """
    match = _SESSION_SNIFF.search(raw[:8192])
    if match is None:
        return
    try:
        folder = _sealed_dir(env)
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        (folder / match.group(1).decode("ascii")).touch()
    except OSError:
        pass


def is_sealed(session_id: Any, env: Mapping[str, str] | None = None) -> bool:
    if not isinstance(session_id, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", session_id):
        return False
    return (_sealed_dir(env) / session_id).exists()


ADAPTER: Final = ClaudeCode()
run = ADAPTER.run
handle = ADAPTER.handle
fail_closed = ADAPTER.fail_closed

"""OpenAI Codex CLI: ``redactor hook codex``, a thin translation over :mod:`redactor.hosts.core`.

How Codex 0.171 treats a hook's answer (measured against the real CLI, see
tests/e2e/test_codex_cli.py and docs/hosts/codex.md):

* PreToolUse applies ``updatedInput`` only together with ``permissionDecision:
  "allow"``, which also skips the approval Codex would have asked for.  So a call
  holding data is rewritten and allowed only when the event's ``permission_mode``
  says Codex runs calls without asking anyway; otherwise it is refused.
* Every way of refusing a call (``deny``, ``decision: block``, exit 2) sends the
  original command back to the model with the reason.  A shell call is therefore
  refused by replacing it with a harmless one that prints the reason and fails;
  only other tools (``apply_patch``, MCP tools) get a ``deny``.
* PostToolUse has no ``updatedToolOutput``; ``{"decision": "block", "reason": X}``
  makes the tool result exactly X, which carries the redacted output and says so.
* Output with an unknown key is rejected whole (the hook counts as failed and
  Codex goes on as if it had said nothing), so answers hold only documented keys.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any, Final

from redactor import jsonio, messages
from redactor.config import Settings
from redactor.hosts.catalogue import events
from redactor.hosts.core import (
    JsonAdapter,
    Outcome,
    check_prompt,
    check_tool_input,
    redact_output,
)

__all__ = ["ADAPTER", "EVENTS", "RUNS_WITHOUT_ASKING", "Codex", "refusal_command"]

EVENTS: Final = events("codex")
#: The permission modes in which Codex runs a tool call without asking anyone: only
#: there may a rewrite say "allow" (``codex exec`` reports ``bypassPermissions``).
RUNS_WITHOUT_ASKING: Final = frozenset({"bypassPermissions", "dontAsk"})
#: Codex's name for its shell tool in hook events (the model's ``exec_command``).
SHELL_TOOL: Final = "Bash"


def refusal_command(reason: str) -> str:
    """A shell command that only prints ``reason`` on stderr and fails."""
    return f"printf '%s\\n' {shlex.quote(reason)} >&2; exit 1"


def _pre(output: dict[str, Any]) -> Outcome:
    return Outcome.emit({"hookSpecificOutput": {"hookEventName": "PreToolUse", **output}})


def refuse(tool_name: Any, reason: str) -> Outcome:
    """Refuse a tool call without sending its input back to the model where possible."""
    reason = reason or "redactor"
    if tool_name == SHELL_TOOL:
        return _pre({"permissionDecision": "allow", "permissionDecisionReason": reason,
                     "updatedInput": {"command": refusal_command(reason)}})
    # Codex echoes the input of a denied call; other tools cannot be swapped for a
    # harmless call, so this is the one refusal left (docs/security.md: paths Codex leaves open).
    return _pre({"permissionDecision": "deny", "permissionDecisionReason": reason})


class Codex(JsonAdapter):
    """Codex CLI's events and answers."""

    name = "codex"
    events = frozenset(EVENTS)

    def dispatch(self, event: str, payload: dict[str, Any], settings: Settings,
                 env: Mapping[str, str], engine: Any) -> Outcome:
        if event == "PreToolUse":
            return _pre_tool_use(payload, settings, engine, env)
        if event == "PostToolUse":
            return _post_tool_use(payload, settings, engine, env)
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise ValueError("UserPromptSubmit without a prompt string")
        reason = check_prompt(prompt, settings, engine)
        if reason is None:
            return Outcome()
        return Outcome.emit({"decision": "block", "reason": reason or "redactor"})

    def fail_closed(self, event: str | None, payload: Any, error: BaseException,
                    language: str = "pt-BR") -> Outcome:
        """The safe answer to an event whose handling failed.  Names no value; never raises."""
        name = type(error).__name__
        if event == "UserPromptSubmit":
            return Outcome.emit({"decision": "block",
                                 "reason": messages.text("fail_prompt", language, error=name)})
        if event == "PreToolUse":
            tool = payload.get("tool_name") if isinstance(payload, dict) else None
            return refuse(tool, messages.text("fail_tool", language, error=name))
        if event == "PostToolUse":
            return Outcome.emit({"decision": "block", "reason": messages.text(
                "withheld_output", language, error=name)})
        # Unreadable: this top-level block is honoured by all three events (a tool
        # call is refused, a tool output replaced, a prompt kept from the model).
        return Outcome.emit({"decision": "block", "reason": messages.text(
            "fail_unreadable", language, error=name)})


def _pre_tool_use(payload: dict[str, Any], settings: Settings, engine: Any,
                  env: Mapping[str, str]) -> Outcome:
    unattended = payload.get("permission_mode") in RUNS_WITHOUT_ASKING
    if settings.pseudonyms and not unattended:
        from redactor.pseudonyms.rehydrate import has_tokens

        if has_tokens(payload.get("tool_input")):
            # Codex takes a rewritten input only with "allow": a token can become its
            # value only where Codex runs without asking.
            return refuse(payload.get("tool_name"), messages.text(
                "token_denied", settings.language,
                reason="Codex turns tokens into values only when it runs without asking "
                       "(approval never / bypassPermissions)"))
    # A shell command is wrapped only where the rewrite may say "allow".
    step = check_tool_input("PreToolUse", payload, settings, engine,
                            shell_tool=SHELL_TOOL if unattended else None,
                            host_name="codex" if unattended else None, env=env)
    check = step.check
    if check.action in ("deny", "ask"):
        # Codex has no "ask" a hook can return: a rule that asks refuses with its reason.
        return refuse(step.tool_name, check.reason)
    if check.action == "rewrite" and not unattended:
        return refuse(step.tool_name, messages.text("retry_without_data", settings.language,
                                                    entities=check.entities))
    if not step.changed:
        return Outcome()
    output: dict[str, Any] = {"permissionDecision": "allow", "updatedInput": step.updated,
                              "permissionDecisionReason": "redactor"}
    if check.types:
        note = messages.text("rewritten", settings.language, entities=check.entities)
        output["permissionDecisionReason"] = note
        output["additionalContext"] = note
    return _pre(output)


def _post_tool_use(payload: dict[str, Any], settings: Settings, engine: Any,
                   env: Mapping[str, str]) -> Outcome:
    if "tool_response" not in payload:
        return Outcome()
    redacted = redact_output(payload["tool_response"], engine, payload=payload,
                             settings=settings, env=env)
    if redacted is None:
        return Outcome()
    value, types = redacted
    body = value if isinstance(value, str) else jsonio.dumps(value)
    note = messages.text("output_redacted", settings.language,
                         entities=messages.entity_names(types))
    return Outcome.emit({"decision": "block", "reason": f"{note}\n{body}"})


ADAPTER: Final = Codex()

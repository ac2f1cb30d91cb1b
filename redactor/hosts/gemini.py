"""Google Gemini CLI: ``redactor hook gemini``, a thin translation over :mod:`redactor.hosts.core`.

How Gemini CLI 0.61 treats a hook's answer (measured against the real CLI, see
tests/e2e/test_gemini_cli.py and docs/hosts/gemini.md):

* BeforeAgent ``{"decision": "deny"}``: the prompt never reaches any model (not even
  the model router's call).
* BeforeTool ``hookSpecificOutput.tool_input`` replaces the tool's arguments whole, so
  the complete redacted input is sent; ``deny`` refuses the call without echoing it.
* AfterTool has no replacement: ``deny`` + ``reason`` reaches the model as the tool's
  ``{"error": reason}``, which carries the redacted output and says so.
* BeforeModel ``hookSpecificOutput.llm_request.messages`` replaces the text of the
  conversation's turns in order (all of them must be returned); function calls and
  responses are not shown to it.  A second net for text that got past the others.
* The CLI reads a hook's answer from stdout, else stderr, whatever the exit code;
  a deny answer is printed on stdout with exit 2 and the notice on stderr, so either
  channel blocks.  Crashes, timeouts and garbage fail open.
"""

from __future__ import annotations

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

__all__ = ["ADAPTER", "EVENTS", "Gemini"]

EVENTS: Final = events("gemini")
#: Gemini's shell tool, whose ``command`` ``hooks.wrap_bash`` wraps.
SHELL_TOOL: Final = "run_shell_command"
#: The parts of an AfterTool ``tool_response`` that reach the model.
MODEL_FIELDS: Final = ("llmContent", "error")


def deny(reason: str) -> Outcome:
    """A refusal on both channels: the JSON on stdout, the notice on stderr, exit 2."""
    reason = reason or "redactor"
    return Outcome(stdout=jsonio.dumps({"decision": "deny", "reason": reason}),
                   stderr=reason, exit_code=2)


class Gemini(JsonAdapter):
    """Gemini CLI's events and answers."""

    name = "gemini"
    events = frozenset(EVENTS)

    def dispatch(self, event: str, payload: dict[str, Any], settings: Settings,
                 env: Mapping[str, str], engine: Any) -> Outcome:
        if event == "BeforeAgent":
            prompt = payload.get("prompt")
            if not isinstance(prompt, str):
                raise ValueError("BeforeAgent without a prompt string")
            reason = check_prompt(prompt, settings, engine)
            return Outcome() if reason is None else deny(reason)
        if event == "BeforeTool":
            return _before_tool(payload, settings, engine, env)
        if event == "AfterTool":
            return _after_tool(payload, settings, engine, env)
        return _before_model(payload, settings, engine, env)

    def fail_closed(self, event: str | None, payload: Any, error: BaseException,
                    language: str = "pt-BR") -> Outcome:
        """The safe answer to an event whose handling failed.  Names no value; never raises."""
        name = type(error).__name__
        if event in ("BeforeAgent", "BeforeModel"):
            return deny(messages.text("fail_prompt", language, error=name))
        if event == "BeforeTool":
            return deny(messages.text("fail_tool", language, error=name))
        if event == "AfterTool":
            return deny(messages.text("withheld_output", language, error=name))
        return deny(messages.text("fail_unreadable", language, error=name))


def _before_tool(payload: dict[str, Any], settings: Settings, engine: Any,
                 env: Mapping[str, str]) -> Outcome:
    step = check_tool_input("BeforeTool", payload, settings, engine, shell_tool=SHELL_TOOL,
                            host_name="gemini", env=env)
    if step.check.action in ("deny", "ask"):
        # A hook cannot hand a call to the person here: an ask rule refuses it.
        return deny(step.check.reason)
    if not step.changed:
        return Outcome()
    return Outcome.emit({"hookSpecificOutput": {"hookEventName": "BeforeTool",
                                                "tool_input": step.updated}})


def _after_tool(payload: dict[str, Any], settings: Settings, engine: Any,
                env: Mapping[str, str]) -> Outcome:
    response = payload.get("tool_response")
    if isinstance(response, dict):
        shown = {key: response[key] for key in MODEL_FIELDS if key in response}
    else:
        shown = {"llmContent": response}
    redacted = redact_output(shown, engine, payload=payload, settings=settings, env=env)
    if redacted is None:
        return Outcome()
    value, types = redacted
    if isinstance(value, dict) and list(value) == ["llmContent"]:
        value = value["llmContent"]
    body = value if isinstance(value, str) else jsonio.dumps(value)
    note = messages.text("output_redacted", settings.language,
                         entities=messages.entity_names(types))
    return deny(f"{note}\n{body}")


def _before_model(payload: dict[str, Any], settings: Settings, engine: Any,
                  env: Mapping[str, str]) -> Outcome:
    request = payload.get("llm_request")
    if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
        return Outcome()
    changed = False
    redacted_messages: list[Any] = []
    for message in request["messages"]:
        result = redact_output(message["content"], engine, payload=payload,
                               settings=settings, env=env) \
            if isinstance(message, dict) and "content" in message else None
        if result is not None:
            changed = True
        redacted_messages.append(message if result is None
                                 else {**message, "content": result[0]})
    if not changed:
        return Outcome()
    # Every message goes back: the CLI maps them onto the turns in order.
    return Outcome.emit({"hookSpecificOutput": {"hookEventName": "BeforeModel",
                                                "llm_request": {"messages": redacted_messages}}})


ADAPTER: Final = Gemini()

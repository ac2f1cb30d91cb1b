"""Claude Code hook adapter: ``redactor hook claude``.

One hook event arrives as JSON on stdin; exactly one JSON object (or nothing) goes
to stdout.  Claude Code fails open on every error of a hook, so this adapter fails
closed on purpose: any internal error or an exceeded time budget turns into the
safe answer for the event (see docs in README, "Claude Code").

Claude Code replaces ``tool_input`` and ``tool_response`` whole, so the minimal
patch computed by the engine is emitted applied onto the complete original object.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from redactor import jsonio, messages
from redactor.config import MAX_TIME_BUDGET, Settings, load_settings
from redactor.patch import apply_patch, plain_field_name, walk_json
from redactor.policy import match_prompt, match_tool

__all__ = ["HookTimeout", "Outcome", "fail_closed", "handle", "run", "wrap_bash_command"]

EVENTS: Final = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit")
#: Keys whose string values describe the shape of a tool response, not its content:
#: they survive a withheld replacement so that the host still accepts it.
DISCRIMINATORS: Final = frozenset({"type", "mode"})
_EVENT_SNIFF: Final = re.compile(rb'"hook_event_name"\s*:\s*"([A-Za-z]+)"')
_WORD: Final = re.compile(r"[a-z_]{1,32}")
_SESSION_SNIFF: Final = re.compile(rb'"session_id"\s*:\s*"([A-Za-z0-9_.-]{1,128})"')


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the hook process prints and how it exits."""

    stdout: str | None = None
    stderr: str | None = None
    exit_code: int = 0
    #: The answer stops the turn (see :func:`stop_turn`): the session is sealed.
    stops_turn: bool = False

    @classmethod
    def emit(cls, payload: dict[str, Any]) -> Outcome:
        """One JSON object on stdout: always valid JSON that encodes to UTF-8."""
        return cls(stdout=jsonio.dumps(payload))


class HookTimeout(Exception):
    """The hook ran past its time budget (hooks.time_budget_seconds)."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`HookTimeout` in the main thread when ``seconds`` have passed.

    Budgets nest: inside another one, the earlier deadline holds, and the outer
    budget's timer runs on (less the time spent) when the inner one ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    outer_left = signal.getitimer(signal.ITIMER_REAL)[0]
    started = time.monotonic()

    def on_alarm(signum: int, frame: object) -> None:
        raise HookTimeout(f"over the budget of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer_left) if outer_left else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:
            left = outer_left - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))


def _settings_for(payload: dict[str, Any], env: Mapping[str, str] | None,
                  default_cwd: str | None) -> Settings:
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not Path(cwd).is_dir():
        cwd = default_cwd
    return load_settings(cwd=Path(cwd) if cwd else None, env=env)


def redactor_command() -> str:
    """How a shell runs this very installation of redactor."""
    return f"{shlex.quote(sys.executable)} -m redactor"


def wrap_bash_command(command: str) -> str:
    """Pipe a command's combined output through ``redactor redact``, keeping its exit status.

    ``pipefail`` makes the pipeline report the command's own failure, so a failing
    command still fails, and its output reaches Claude Code already redacted.  Every
    command is wrapped, even one that already looks wrapped: a command can be written
    to look so while running its first lines outside the pipe (redacting twice changes
    nothing).
    """
    return f"set -o pipefail; {{ {command}\n}} 2>&1 | {redactor_command()} redact -q"


def handle(payload: Any, settings: Settings | None = None, env: Mapping[str, str] | None = None,
           default_cwd: str | None = None) -> Outcome:
    """Answer one parsed hook event within the time budget.  Raises on internal errors.

    ``env`` stands for the hook process's environment (the warm server answers for
    clients with their own); ``default_cwd`` is used when the event names none.
    """
    if not isinstance(payload, dict):
        raise ValueError("the hook event is not a JSON object")
    event = payload.get("hook_event_name")
    if event not in EVENTS:
        return Outcome()
    environ = os.environ if env is None else env
    started = time.monotonic()
    if settings is None:
        # Reading the configuration (a project's rules among it) is bounded too.
        with time_budget(MAX_TIME_BUDGET):
            settings = _settings_for(payload, environ, default_cwd)
    left = min(settings.hook_time_budget, MAX_TIME_BUDGET - (time.monotonic() - started))
    with time_budget(max(left, 0.01)):
        return _dispatch(event, payload, settings, environ)


class InjectedFault(RuntimeError):
    """Raised on purpose for the events named in REDACTOR_TEST_FAULT (failure drills)."""


def _dispatch(event: str, payload: dict[str, Any], settings: Settings,
              env: Mapping[str, str]) -> Outcome:
    # Failure drills: prove, against the real host, that an internal error fails closed.
    if event in env.get("REDACTOR_TEST_FAULT", "").split(","):
        raise InjectedFault(event)
    engine = _Engine(settings, env)
    if event == "PreToolUse":
        return _pre_tool_use(payload, settings, engine)
    if event == "PostToolUse":
        return _post_tool_use(payload, settings, engine)
    if event == "PostToolUseFailure":
        return _post_tool_use_failure(payload, settings, engine)
    return _user_prompt_submit(payload, settings, engine, env)


class _Engine:
    """The shared engine for these settings, built on first use only."""

    def __init__(self, settings: Settings, env: Mapping[str, str]) -> None:
        self._settings = settings
        self._env = env

    def __getattr__(self, name: str) -> Any:
        from redactor.api import get_redactor

        return getattr(get_redactor(self._settings, environ=self._env), name)


def _pre_tool_use(payload: dict[str, Any], settings: Settings, engine: Any) -> Outcome:
    tool_name = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool_name, str) or not isinstance(tool_input, dict):
        raise ValueError("PreToolUse without tool_name or a tool_input object")
    rule = match_tool(settings.rules, tool_name, tool_input)
    if rule is not None and rule.action == "deny":
        return Outcome.emit({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": rule.reason,
        }})
    result = engine.redact_json(tool_input, keys_and_numbers=True,
                                entities=settings.input_entities)
    updated = whole_replacement(tool_input, result)
    if settings.wrap_bash and tool_name == "Bash" and isinstance(updated.get("command"), str):
        updated = {**updated, "command": wrap_bash_command(updated["command"])}
    if rule is not None:
        # An ask rule hands the call to the person, with the redacted input: what they
        # approve is what runs, so no rule can switch redaction off.
        ask: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                               "permissionDecisionReason": rule.reason}
        if updated != tool_input:
            ask["updatedInput"] = updated
        return Outcome.emit({"hookSpecificOutput": ask})
    if updated == tool_input:
        return Outcome()
    output: dict[str, Any] = {"hookEventName": "PreToolUse", "updatedInput": updated}
    if result.findings:
        output["additionalContext"] = messages.text(
            "rewritten", settings.language,
            entities=messages.entity_names(f.entity_type for f in result.findings))
    if settings.permission_decision != "none":
        output["permissionDecision"] = settings.permission_decision
        output["permissionDecisionReason"] = output.get("additionalContext", "redactor")
    return Outcome.emit({"hookSpecificOutput": output})


def whole_replacement(original: Any, result: Any) -> Any:
    """The complete replacement Claude Code needs: the original object with only the
    changed top-level values replaced, or the whole new value when keys were renamed."""
    if isinstance(original, dict) and isinstance(result.value, dict) \
            and list(original) == list(result.value):
        return apply_patch(original, result.patch)
    return result.value


def _post_tool_use(payload: dict[str, Any], settings: Settings, engine: Any) -> Outcome:
    if "tool_response" not in payload:
        return Outcome()
    response = payload["tool_response"]
    result = engine.redact_json(response, keys_and_numbers=True)
    if not result.findings:
        return Outcome()
    updated = whole_replacement(response, result)
    return Outcome.emit({"hookSpecificOutput": {
        "hookEventName": "PostToolUse",
        "updatedToolOutput": updated,
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
    rule = match_prompt(settings.rules, prompt)
    if rule is not None:
        return Outcome.emit({"decision": "block", "reason": rule.reason})
    found = messages.prompt_blockers(
        (messages.finding_type(f.entity_type, f.recognizer) for f in engine.analyze(prompt)),
        settings)
    if not found:
        return Outcome()
    return Outcome.emit({"decision": "block", "reason": messages.prompt_blocked(settings, found)})


# ------------------------------------------------------------------ failing closed


def withheld(value: Any, marker: str) -> Any:
    """A copy of a tool response with every content string replaced by ``marker``.

    Works on any shape: iterative, containers nested past the JSON depth limit
    become ``marker`` too, and numbers JSON cannot hold become ``null``.
    """

    def leaf(path: Any, text: str) -> str:
        key = path[-1] if path else None
        return text if key in DISCRIMINATORS and _WORD.fullmatch(text) else marker

    def key(path: Any, name: str) -> str:
        # Field names of a tool's shape are plain words; anything else may be data.
        return name if plain_field_name(name) else marker

    def scalar(path: Any, item: Any) -> Any:
        if isinstance(item, float) and not math.isfinite(item):
            return None
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**7:
            return 0  # may be an identifier written as a number
        return item

    return walk_json(value, leaf, key=key, scalar=scalar, too_deep=lambda path: marker,
                     max_depth=jsonio.MAX_DEPTH - 2)


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


def fail_closed(event: str | None, payload: Any, error: BaseException,
                language: str = "pt-BR") -> Outcome:
    """The safe answer to an event whose handling failed.  Names no value; never raises."""
    name = type(error).__name__
    try:
        if event == "UserPromptSubmit":
            return Outcome.emit({"decision": "block",
                                 "reason": messages.text("fail_prompt", language, error=name)})
        if event == "PreToolUse":
            # Exit 2 blocks the call whatever stdout holds.
            return Outcome(stderr=messages.text("fail_tool", language, error=name), exit_code=2)
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


def sniff_event(raw: bytes) -> str | None:
    """The event name of a payload that could not be parsed, if it is visible."""
    match = _EVENT_SNIFF.search(raw[:4096])
    return match.group(1).decode() if match else None


def run(raw: bytes, settings: Settings | None = None, env: Mapping[str, str] | None = None,
        default_cwd: str | None = None) -> Outcome:
    """Parse and answer one event; every failure becomes :func:`fail_closed`."""
    payload: Any = None
    event: str | None = sniff_event(raw)
    try:
        drills = (os.environ if env is None else env).get("REDACTOR_TEST_FAULT", "")
        if f"unreadable-{event}" in drills.split(","):
            # Failure drill: this event is treated as unreadable input.
            raise InjectedFault("unreadable")
        payload = jsonio.loads(raw)
        if isinstance(payload, dict) and isinstance(payload.get("hook_event_name"), str):
            event = payload["hook_event_name"]
        return handle(payload, settings, env, default_cwd)
    except BaseException as exc:  # every failure must fail closed
        if isinstance(exc, KeyboardInterrupt | SystemExit) and event not in EVENTS:
            raise
        from redactor.diagnostics import log_error

        log_error("hook claude", event, exc, env)
        outcome = fail_closed(event, payload, exc)
        if outcome.stops_turn:
            seal_session(raw, env)
        return outcome

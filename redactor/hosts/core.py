"""The hook core every host adapter shares: event -> policy rules -> redaction -> answer.

An adapter (:mod:`redactor.hosts.claude`, ``codex``, ``gemini``, ``hermes``) only
translates: it reads its host's event JSON, asks the core what to do
(:func:`check_tool`, :func:`check_prompt`, :func:`redact_output`) and writes the
answer in its host's words.  :func:`run` parses the raw event, applies the time
budget and turns every failure into the adapter's safe answer, so a fix here
reaches every host.

Every host fails open when a hook crashes, hangs or prints what it does not
expect; the adapters therefore fail closed on purpose, each with the form its host
honours.  Nothing here names a value: reasons carry entity types only.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from redactor import jsonio, messages
from redactor.config import Settings, for_hooks, load_settings
from redactor.drills import drill
from redactor.hosts.catalogue import HOSTS, host
from redactor.patch import apply_patch
from redactor.policy import match_prompt, match_tool
from redactor.serve.timeouts import MAX_TIME_BUDGET

__all__ = [
    "HOSTS",
    "Adapter",
    "HookTimeout",
    "InjectedFault",
    "JsonAdapter",
    "Outcome",
    "TooLargeToWithhold",
    "ToolCheck",
    "ToolStep",
    "adapter",
    "bounded_copy",
    "check_prompt",
    "check_tool",
    "check_tool_input",
    "redact_output",
    "sniff_event",
    "time_budget",
    "whole_replacement",
    "withheld",
    "wrap_bash_command",
]

#: Keys whose string values describe the shape of a tool response, not its content:
#: they survive a withheld replacement so that the host still accepts it.
DISCRIMINATORS: Final = frozenset({"type", "mode"})
_EVENT_SNIFF: Final = re.compile(rb'"hook_event_name"\s*:\s*"([A-Za-z_]+)"')
_WORD: Final = re.compile(r"[a-z_]{1,32}")
#: A key a withheld copy keeps: a tool shape's field name (``stdout``, ``filePath``,
#: ``structuredPatch``), which starts in lower case and holds no ``@``, ``.`` or more than
#: two digits.  Anything else may be data (a name, an address, an identifier) and the
#: engine that would tell is what failed.
_SHAPE_KEY: Final = re.compile(r"[a-z_][A-Za-z_]*[0-9]{0,2}[A-Za-z_]*")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the hook process prints and how it exits."""

    stdout: str | None = None
    stderr: str | None = None
    exit_code: int = 0
    #: The answer stops the turn (Claude Code): the session is sealed.
    stops_turn: bool = False

    @classmethod
    def emit(cls, payload: dict[str, Any]) -> Outcome:
        """One JSON object on stdout: always valid JSON that encodes to UTF-8."""
        return cls(stdout=jsonio.dumps(payload))

    def encoded(self) -> tuple[int, bytes, bytes]:
        """``(exit code, stdout bytes, stderr bytes)``, each body ending in a newline."""
        out = (self.stdout + "\n").encode() if self.stdout is not None else b""
        err = (self.stderr + "\n").encode() if self.stderr is not None else b""
        return self.exit_code, out, err


class HookTimeout(Exception):
    """The hook ran past its time budget (hooks.time_budget_seconds)."""


class InjectedFault(RuntimeError):
    """Raised on purpose for the events named in REDACTOR_TEST_FAULT (failure drills,
    honoured in test runs only: see :mod:`redactor.drills`)."""


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


def settings_for(payload: dict[str, Any], env: Mapping[str, str] | None,
                 default_cwd: str | None) -> Settings:
    """The settings for an event's working directory (``cwd``), else ``default_cwd``."""
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or not Path(cwd).is_dir():
        cwd = default_cwd
    return load_settings(cwd=Path(cwd) if cwd else None, env=env)


class LazyEngine:
    """The shared engine for these settings, built on first use only."""

    def __init__(self, settings: Settings, env: Mapping[str, str]) -> None:
        # The local account's own login and home folder are left alone by default.
        self._settings = for_hooks(settings, env)
        self._env = env

    def __getattr__(self, name: str) -> Any:
        from redactor.api import get_redactor

        return getattr(get_redactor(self._settings, environ=self._env), name)


def sniff_event(raw: bytes) -> str | None:
    """The event name of a payload that could not be parsed, if it is visible."""
    match = _EVENT_SNIFF.search(raw[:4096])
    return match.group(1).decode() if match else None


# ------------------------------------------------------------------ decisions


@dataclass(frozen=True, slots=True)
class ToolCheck:
    """What the core decided about one tool call.

    ``deny``: a rule refuses it (``reason``).  ``ask``: a rule hands it to the person,
    with ``updated`` when the input held data.  ``rewrite``: the input held data;
    ``updated`` is the complete new input.  ``pass``: nothing to change.
    """

    action: Literal["pass", "rewrite", "ask", "deny"]
    reason: str = ""
    updated: Any = None
    patch: dict[str | int, Any] = field(default_factory=dict)
    types: tuple[str, ...] = ()

    @property
    def entities(self) -> str:
        """The entity labels found, for a message (``CPF, CNPJ``)."""
        return messages.entity_names(self.types)


def whole_replacement(original: Any, result: Any) -> Any:
    """The original object with only the changed top-level values replaced, or the
    whole new value when keys were renamed (hosts that replace an input whole)."""
    if isinstance(original, dict) and isinstance(result.value, dict) \
            and list(original) == list(result.value):
        return apply_patch(original, result.patch)
    return result.value


def check_tool(tool_name: str, tool_input: Any, settings: Settings, engine: Any) -> ToolCheck:
    """Rules first (deny wins), then the redaction of the input's strings, keys and
    identifier-like numbers, restricted to ``hooks.input_entities``."""
    rule = match_tool(settings.rules, tool_name, tool_input)
    if rule is not None and rule.action == "deny":
        return ToolCheck("deny", reason=rule.reason)
    result = engine.redact_json(tool_input, keys_and_numbers=True,
                                entities=settings.input_entities)
    updated = whole_replacement(tool_input, result)
    changed = updated != tool_input
    types = tuple(f.entity_type for f in result.findings)
    patch = dict(result.patch) if changed and isinstance(result.patch, dict) else {}
    if rule is not None:
        return ToolCheck("ask", reason=rule.reason, updated=updated if changed else None,
                         patch=patch, types=types)
    if not changed:
        return ToolCheck("pass")
    return ToolCheck("rewrite", updated=updated, patch=patch, types=types)


def redactor_command() -> str:
    """How a shell runs this very installation of redactor."""
    import shlex
    import sys

    return f"{shlex.quote(sys.executable)} -m redactor"


def wrap_bash_command(command: str, session: str | None = None,
                      call: str | None = None) -> str:
    """Pipe a command's combined output through ``redactor redact``, keeping its exit status.

    ``pipefail`` makes the pipeline report the command's own failure, so a failing
    command still fails, and its output reaches the host already redacted.  Every
    command is wrapped, even one that already looks wrapped: a command can be written
    to look so while running its first lines outside the pipe (redacting twice changes
    nothing).
    """
    # With a session, what the pipe writes as tokens is issued to it (the model reads
    # them); with a call, the values that call got are written as their tokens again.
    import shlex

    prefix = f"REDACTOR_SESSION={shlex.quote(session)} " if session is not None else ""
    if session is not None and call is not None:
        prefix += f"REDACTOR_CALL={shlex.quote(call)} "
    return f"set -o pipefail; {{ {command}\n}} 2>&1 | {prefix}{redactor_command()} redact -q"


@dataclass(frozen=True, slots=True)
class ToolStep:
    """The tool-input step of one call: the call, what the core decided, and the input
    to send on (``updated``: redacted, its shell command wrapped; the original input
    when nothing changed)."""

    tool_name: str
    tool_input: dict[str, Any]
    check: ToolCheck
    updated: dict[str, Any]

    @property
    def changed(self) -> bool:
        return self.updated != self.tool_input


def check_tool_input(event: str, payload: dict[str, Any], settings: Settings, engine: Any,
                     shell_tool: str | None, *, host_name: str | None = None,
                     env: Mapping[str, str] | None = None) -> ToolStep:
    """The tool-input step every host shares: read the event's ``tool_name`` and
    ``tool_input``, check them (:func:`check_tool`), turn tokens into values where the
    pseudonym policy allows (``host_name``: the host whose tool table applies; None:
    none is), wrap the command of ``shell_tool`` when ``hooks.wrap_bash`` is on or its
    tokens became values (None: no tool is wrapped), and keep the result to compare.
    Raises ValueError for an event without them (the caller fails closed)."""
    tool_name = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool_name, str) or not isinstance(tool_input, dict):
        raise ValueError(f"{event} without tool_name or a tool_input object")
    check = check_tool(tool_name, tool_input, settings, engine)
    updated = check.updated if check.updated is not None else tool_input
    rehydrated: tuple[str, ...] | None = None
    if check.action != "deny" and settings.pseudonyms and host_name is not None:
        # After redaction, which left the tokens alone: a value put back here is never
        # redacted again (redactor.pseudonyms.rehydrate).
        from redactor.pseudonyms.hooks import rehydrate_call

        answer = rehydrate_call(host_name, tool_name, updated, payload, settings=settings,
                                env=os.environ if env is None else env)
        if answer.action == "deny":
            denied = ToolCheck("deny", reason=messages.text(
                "token_denied", settings.language, reason=answer.reason))
            return ToolStep(tool_name, tool_input, denied, tool_input)
        if answer.action == "rewrite" and answer.updated is not None:
            updated, rehydrated = answer.updated, answer.digests
    environ = os.environ if env is None else env
    if (settings.wrap_bash or rehydrated is not None) and shell_tool is not None \
            and tool_name == shell_tool and isinstance(updated.get("command"), str):
        # A command given values always runs wrapped: its failure output (which a
        # PostToolUseFailure cannot replace) could echo them, so its own pipe writes
        # the call's values as their tokens again.
        from redactor.pseudonyms.hooks import call_id, session_of

        session = session_of(payload) if settings.pseudonyms else None
        call = call_id(payload) if rehydrated is not None else None
        updated = {**updated, "command": wrap_bash_command(updated["command"], session, call)}
    if rehydrated is not None:
        from redactor.pseudonyms.hooks import remember_call

        remember_call(payload, updated, rehydrated, settings=settings, env=environ)
    return ToolStep(tool_name, tool_input, check, updated)


def check_prompt(prompt: str, settings: Settings, engine: Any,
                 wire_redacts: bool = False) -> str | None:
    """The reason a prompt must not reach the model (a rule, or data of a blocking
    type), or None.

    ``wire_redacts``: a verified redactor gateway carries this session's requests, so
    data it redacts on the wire no longer blocks the prompt; rules and secrets of the
    kinds in ``prompt_block_secrets`` still do (a pasted key should not be in the
    session at all).  :func:`prompt_notice` says what the gateway will replace.
    """
    rule = match_prompt(settings.rules, prompt)
    if rule is not None:
        return rule.reason
    found = messages.prompt_blockers(
        (messages.finding_type(f.entity_type, f.recognizer) for f in engine.analyze(prompt)),
        settings)
    if wire_redacts:
        found = [kind for kind in found if kind.startswith("SECRET:")
                 and kind.partition(":")[2] in settings.prompt_block_secrets]
    return messages.prompt_blocked(settings, found) if found else None


def prompt_notice(prompt: str, settings: Settings, engine: Any) -> str | None:
    """With a verified gateway: the one line telling the model that the prompt's data
    (those types) reach it as placeholders, or None when the prompt holds none."""
    types = sorted({f.entity_type for f in engine.analyze(prompt)})
    if not types:
        return None
    return messages.text("gateway_prompt", settings.language,
                         entities=messages.entity_names(types))


def redact_output(value: Any, engine: Any, text_as_json: bool = False, *,
                  payload: Mapping[str, Any] | None = None, settings: Settings | None = None,
                  env: Mapping[str, str] | None = None
                  ) -> tuple[Any, tuple[str, ...]] | None:
    """A tool output with its data replaced (strings, keys and identifier-like numbers),
    and the entity types found; None when it holds none.  A string output is redacted as
    text, or, with ``text_as_json`` (Claude Code's PostToolUse), as a JSON value like
    any other output.

    With pseudonyms on (``settings``, and the event's ``payload`` for its session and
    call): the values this call got from tokens become those tokens again first, and
    what the redaction writes as tokens is issued to the session.
    """
    original = value
    environ = os.environ if env is None else env
    pseudonyms = (payload, settings) if settings is not None and settings.pseudonyms \
        and payload is not None else None
    if pseudonyms is not None:
        from redactor.pseudonyms.hooks import tokens_again

        value = tokens_again(value, *pseudonyms, environ)
    if isinstance(value, str) and not text_as_json:
        text_result = engine.redact(value)
        found = tuple(f.entity_type for f in text_result.findings)
        new_value, issued = text_result.text, text_result.issued
    else:
        result = engine.redact_json(value, keys_and_numbers=True)
        found = tuple(f.entity_type for f in result.findings)
        new_value, issued = (whole_replacement(value, result) if result.findings else value,
                             result.issued)
    if pseudonyms is not None and issued:
        from redactor.pseudonyms.hooks import record_issued

        record_issued(issued, *pseudonyms, environ)
    if not found and new_value == original:
        return None
    return new_value, found


#: The largest event the safe answer of a failed call parses again (the server's and the
#: client's fallbacks): a larger one gets the host's answer that needs no payload.
FAIL_CLOSED_PARSE_BYTES: Final = 4 << 20
#: The most containers, keys and values a withheld copy visits.  The copy is the safe
#: answer to a call that already ran out of time, so its cost is bounded whatever the
#: size of the output: past this, the caller answers with a fixed form instead.
WITHHELD_NODES: Final = 4096


class TooLargeToWithhold(ValueError):
    """A tool response too large for a bounded withheld copy (WITHHELD_NODES)."""


def withheld(value: Any, marker: str, limit: int = WITHHELD_NODES) -> Any:
    """A copy of a tool response in its shape, with every content string replaced by
    ``marker``.

    The copy keeps what a host checks of the shape: object keys that read as field
    names, the discriminators (``type``, ``mode``), booleans and small numbers.  An
    array keeps only its first item (the shape of its items); a key that may be data
    becomes ``marker``; a container nested past the JSON depth limit becomes
    ``marker``; a number JSON cannot hold becomes ``null`` and one that may be an
    identifier ``0``.  At most ``limit`` nodes are visited: past that it raises
    :class:`TooLargeToWithhold`, so the cost never grows with the output.
    """
    def scalar(key: Any, item: Any) -> Any:
        if isinstance(item, str):
            return item if key in DISCRIMINATORS and _WORD.fullmatch(item) else marker
        if isinstance(item, float) and not math.isfinite(item):
            return None
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10**7:
            return 0  # may be an identifier written as a number
        if isinstance(item, float) and abs(item) >= 1e7 and item.is_integer():
            return 0.0  # the same, written as a float (a column with nulls)
        return item if item is None or isinstance(item, bool | int | float) else marker

    return bounded_copy(value, marker, limit, scalar=scalar,
                        keep_key=lambda name: len(name) <= 64
                        and _SHAPE_KEY.fullmatch(name) is not None)


def bounded_copy(value: Any, marker: str, limit: int, *,
                 scalar: Callable[[Any, Any], Any], keep_key: Callable[[str], bool],
                 whole: Callable[[Any], bool] = lambda name: False,
                 root_whole: bool = False) -> Any:
    """The walk of a withheld copy: containers rebuilt in their shape, each other value
    through ``scalar(key, item)`` (``key`` None in an array), a key kept when
    ``keep_key`` says so and written ``marker``, ``marker#2``... otherwise.  An array
    keeps its first item only, unless ``whole(its key)`` (``root_whole`` for ``value``
    itself); a container past the depth limit becomes ``marker``.  Raises
    :class:`TooLargeToWithhold` past ``limit`` visited nodes, so the cost never grows with
    the value."""
    budget = [limit]

    def spend() -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise TooLargeToWithhold(f"more than {limit} values to withhold")

    def shell(item: Any) -> Any:
        return {} if isinstance(item, dict) else []

    max_depth = jsonio.MAX_DEPTH - 2
    if not isinstance(value, dict | list | tuple):
        spend()
        return scalar(None, value)
    root = shell(value)
    # (source, copy, depth, whether every item of an array is kept)
    stack: list[tuple[Any, Any, int, bool]] = [(value, root, 1, root_whole)]
    while stack:
        source, target, depth, every = stack.pop()
        spend()
        # Lazily: a huge container costs only the items visited before the budget ends.
        children: Iterator[tuple[Any, Any]] = (
            iter(source.items()) if isinstance(source, dict)
            else enumerate(source) if every
            else iter([(0, source[0])] if source else []))
        hidden = 0  # keys that may be data, written as marker, marker#2...
        for name, item in children:
            spend()
            in_object = isinstance(target, dict)
            if isinstance(item, dict | list | tuple):
                child: Any = marker if depth >= max_depth else shell(item)
                if depth < max_depth:
                    stack.append((item, child, depth + 1, in_object and whole(name)))
            else:
                child = scalar(name if in_object else None, item)
            if not in_object:
                target.append(child)
            elif isinstance(name, str) and keep_key(name):
                target[name] = child
            else:
                hidden += 1
                target[marker if hidden == 1 else f"{marker}#{hidden}"] = child
    return root


# ------------------------------------------------------------------ adapters


#: Called with the settings of a call as soon as they are read; may return an earlier
#: deadline (``time.monotonic()``) for the rest of the call.
OnSettings = Callable[[Settings], "float | None"]


class Adapter(Protocol):
    """What the command line, the light client and the warm engine need of a host."""

    name: str

    def run(self, raw: bytes, settings: Settings | None = None,
            env: Mapping[str, str] | None = None, default_cwd: str | None = None,
            deadline: float | None = None, *,
            on_settings: OnSettings | None = None) -> Outcome:
        """Answer one raw event; never raises (every failure is the safe answer).
        ``deadline`` (``time.monotonic()``) ends the time budget earlier when given;
        ``on_settings`` is called with the settings once they are read (see
        :meth:`JsonAdapter.handle`)."""
        ...

    def fail_closed_raw(self, raw: bytes, error: BaseException,
                        env: Mapping[str, str] | None = None, source: str = "",
                        language: str | None = None) -> Outcome:
        """The safe answer to an event nobody could answer (the engine failed); the
        error is logged under ``source`` (who gave up: ``hook client``, ``hook server``).
        In ``language`` when the caller knows the configured one."""
        ...


class JsonAdapter:
    """The shared frame of a host whose events are JSON objects with ``hook_event_name``.

    Subclasses set :attr:`name` and implement :meth:`dispatch` (the translation) and
    :meth:`fail_closed` (the host's safe answer per event).
    """

    name: str = ""
    event_key: str = "hook_event_name"
    #: The events this adapter answers; any other gets :meth:`ignored` at once.
    events: frozenset[str] = frozenset()

    def ignored(self) -> Outcome:
        """The answer to an event this adapter does not handle."""
        return Outcome()

    def dispatch(self, event: str, payload: dict[str, Any], settings: Settings,
                 env: Mapping[str, str], engine: Any) -> Outcome:
        raise NotImplementedError

    def fail_closed(self, event: str | None, payload: Any, error: BaseException,
                    language: str = "pt-BR") -> Outcome:
        raise NotImplementedError

    def after_failure(self, raw: bytes, outcome: Outcome, env: Mapping[str, str] | None) -> None:
        """Called after a fail-closed answer (Claude Code seals the session)."""

    def budget_seconds(self, settings: Settings) -> float:
        return settings.hook_time_budget

    def handle(self, payload: Any, settings: Settings | None = None,
               env: Mapping[str, str] | None = None, default_cwd: str | None = None,
               deadline: float | None = None, *,
               on_settings: OnSettings | None = None) -> Outcome:
        """Answer one parsed event within the time budget (and before ``deadline``, a
        ``time.monotonic()`` value, when given).  Raises on internal errors.

        ``on_settings`` is called with the settings once they are read here, outside
        the time budget's timer; the deadline it returns, if any, ends the call earlier
        (the warm server's worker reports the caller's budget this way, so that the
        configuration is read once per call)."""
        if not isinstance(payload, dict):
            raise ValueError("the hook event is not a JSON object")
        event = payload.get(self.event_key)
        if not isinstance(event, str):
            raise ValueError("the hook event has no name")
        if event not in self.events:
            return self.ignored()
        environ = os.environ if env is None else env
        started = time.monotonic()
        limit = MAX_TIME_BUDGET if deadline is None else min(MAX_TIME_BUDGET, deadline - started)
        if limit <= 0:
            raise HookTimeout("no time left before the caller's deadline")
        if settings is None:
            # Reading the configuration (a project's rules among it) is bounded too.
            with time_budget(limit):
                settings = settings_for(payload, environ, default_cwd)
            if on_settings is not None:
                earlier = on_settings(settings)
                if earlier is not None:
                    limit = min(limit, earlier - started)
        left = min(self.budget_seconds(settings), limit - (time.monotonic() - started))
        with time_budget(max(left, 0.01)):
            # Failure drills: prove, against the real host, that an error fails closed.
            if event in drill(environ, "REDACTOR_TEST_FAULT").split(","):
                raise InjectedFault(event)
            return self.dispatch(event, payload, settings, environ, LazyEngine(settings, environ))

    def run(self, raw: bytes, settings: Settings | None = None,
            env: Mapping[str, str] | None = None, default_cwd: str | None = None,
            deadline: float | None = None, *,
            on_settings: OnSettings | None = None) -> Outcome:
        """Parse and answer one event; every failure becomes :meth:`fail_closed`."""
        payload: Any = None
        event: str | None = sniff_event(raw)
        read: list[Settings] = [] if settings is None else [settings]

        def noted(found: Settings) -> float | None:
            read.append(found)
            return on_settings(found) if on_settings is not None else None

        try:
            drills = drill(os.environ if env is None else env, "REDACTOR_TEST_FAULT")
            if f"unreadable-{event}" in drills.split(","):
                # Failure drill: this event is treated as unreadable input.
                raise InjectedFault("unreadable")
            payload = jsonio.loads(raw)
            if isinstance(payload, dict) and isinstance(payload.get(self.event_key), str):
                event = payload[self.event_key]
            return self.handle(payload, settings, env, default_cwd, deadline, on_settings=noted)
        except BaseException as exc:  # every failure must fail closed
            if isinstance(exc, KeyboardInterrupt | SystemExit) and event not in self.events:
                raise
            # In the configured language when the configuration was read before the
            # failure (the default one otherwise: the configuration may be what failed).
            language = read[-1].language if read else None
            return self._failed(raw, event, payload, exc, env, language=language)

    def fail_closed_raw(self, raw: bytes, error: BaseException,
                        env: Mapping[str, str] | None = None, source: str = "",
                        language: str | None = None) -> Outcome:
        payload: Any = None
        if len(raw) <= FAIL_CLOSED_PARSE_BYTES:
            # A large event is not parsed again here: its answer takes the fixed form
            # that needs no payload, so this answer costs the same for any size.
            with contextlib.suppress(Exception):  # an unreadable event has its own answer
                payload = jsonio.loads(raw)
        named = payload.get(self.event_key) if isinstance(payload, dict) else None
        event = named if isinstance(named, str) else sniff_event(raw)
        return self._failed(raw, event, payload, error, env, source=source, language=language)

    def _failed(self, raw: bytes, event: str | None, payload: Any, error: BaseException,
                env: Mapping[str, str] | None, *, source: str = "",
                language: str | None = None) -> Outcome:
        from redactor.diagnostics import log_error

        # Only a name this host uses: any other is the event's own text, which may be data.
        log_error(source or f"hook {self.name}", event if event in self.events else None,
                  error, env)
        outcome = self.fail_closed(event, payload, error) if language is None \
            else self.fail_closed(event, payload, error, language)
        self.after_failure(raw, outcome, env)
        return outcome


def adapter(name: str) -> Adapter:
    """The adapter of a host in :data:`HOSTS`."""
    module = importlib.import_module(host(name).module)
    found: Adapter = module.ADAPTER
    return found

"""Hermes Agent: the plugin (entry point ``hermes_agent.plugins``) and the ``hermes`` shell hook.

Hermes treats a raising or slow callback as "go on", so every entry point here
catches its own errors and answers with a block or a fully withheld value, and every
plugin callback gives up on its work when ``[hooks] time_budget_seconds`` runs out
(see :class:`HermesPlugin`).

The plugin registers ``pre_llm_call`` (block or redact mode), ``transform_tool_result``,
``pre_tool_call``, ``pre_gateway_dispatch`` and the ``llm_request`` / ``tool_request``
middleware.  Block mode on a Hermes that ignores the block directive (0.19.0 does):
the plugin notices once at registration, logs a warning, and enforces through the
``llm_request`` middleware, which redacts every message on the wire and replaces the
blocked turn's message with the block notice.  A runtime tripwire (a blocked turn
seen by the middleware) logs the same warning if detection was wrong.  Which Hermes
release honours what docs/hosts/hermes.md says.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, Generic, Literal, TypeVar, cast

from redactor import messages
from redactor.config import Settings, load_settings
from redactor.errors import ConfigError
from redactor.hosts import catalogue
from redactor.hosts.core import (
    HookTimeout,
    JsonAdapter,
    Outcome,
    TooLargeToWithhold,
    bounded_copy,
    check_prompt,
    check_tool,
)
from redactor.patch import plain_field_name, walk_json
from redactor.policy import match_prompt, match_tool
from redactor.results import JsonPath
from redactor.serve.timeouts import MAX_TIME_BUDGET

__all__ = ["ADAPTER", "MAX_ABANDONED", "WITHHELD_MESSAGE_NODES", "Guard", "HermesPlugin",
           "HermesShell", "block_supported", "blocking", "modify_supported", "register", "shell",
           "user_text", "withheld_messages"]

logger = logging.getLogger("redactor.hermes")

#: Message keys whose strings are structure, not content, in an OpenAI-style request.
#: ``name`` is not among them: in a message it names a participant, which may be a person.
STRUCTURE_KEYS: Final = frozenset({"role", "tool_call_id", "id", "type"})
_ID_KEYS: Final = frozenset({"tool_call_id", "id"})
_STRUCTURE_WORD: Final = re.compile(r"[a-z_]{1,32}")


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


#: The most containers, keys and values a withheld copy of a request field or of tool
#: arguments visits.  Larger than a tool output's bound (core.WITHHELD_NODES): a request
#: carries every message of a long session.  Past it, the copy takes a fixed form.
WITHHELD_MESSAGE_NODES: Final = 16384


def withheld_messages(messages_value: Any, marker: str,
                      limit: int = WITHHELD_MESSAGE_NODES) -> Any:
    """A copy of chat messages (or of tool arguments) with every content string replaced
    by ``marker``; the safe answer of a request or of arguments that could not be redacted.

    The copy keeps what the provider checks: every message of the list, in order, with
    its structure keys (``role``, ``id``, ``tool_call_id``, ``type``): a role or a type
    kept when it is a plain word, each distinct id replaced by the same stand-in
    (``withheld-1``...) wherever it occurs, and every item of a ``tool_calls`` array (each
    tool message answers one of them by id).  Other arrays inside a message (content
    parts) keep their first item only.  Keys that may be data, numbers and containers
    past the depth limit become ``marker``.  At most ``limit`` nodes are visited: a
    larger value gets the fixed form instead (a list: one user message holding
    ``marker``; an object: ``{}``; anything else: ``marker``), so the cost never grows
    with the conversation.
    """
    try:
        return _withheld_copy(messages_value, marker, limit)
    except TooLargeToWithhold:
        if isinstance(messages_value, list | tuple):
            return [{"role": "user", "content": marker}]
        return {} if isinstance(messages_value, dict) else marker


def _withheld_copy(value: Any, marker: str, limit: int) -> Any:
    """:func:`withheld_messages`' copy, or :class:`TooLargeToWithhold` past ``limit`` nodes."""
    ids: dict[str, str] = {}

    def scalar(key: Any, item: Any) -> Any:
        if isinstance(item, str):
            if key in _ID_KEYS:
                # A call's id pairs it with its tool message: the same stand-in for the
                # same id keeps the pairs, and no id (which could be data) is kept.
                return ids.setdefault(item, f"withheld-{len(ids) + 1}")
            if key in STRUCTURE_KEYS and _STRUCTURE_WORD.fullmatch(item):
                return item  # a role or a type: a plain word
            return marker
        return item if item is None or isinstance(item, bool) else marker

    # Every message of the list and every tool call: the provider pairs them by id.
    return bounded_copy(value, marker, limit, scalar=scalar, keep_key=plain_field_name,
                        whole=lambda name: name == "tool_calls", root_whole=True)


class Guard:
    """Decisions for one Hermes process: settings are read once per callback.

    A plugin callback reads them once (:meth:`settings`, on its work's thread) and pins
    them there (:meth:`pinned`): every decision of that callback uses the same
    settings, and an edit of the configuration applies to the next callback.
    """

    def __init__(self, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> None:
        self.env = os.environ if env is None else env
        self.cwd = cwd
        self._pinned = threading.local()

    def settings(self) -> Settings:
        """The configuration, read from its files."""
        return load_settings(cwd=self.cwd, env=self.env)

    @contextmanager
    def pinned(self, settings: Settings) -> Iterator[None]:
        """Let this thread's decisions use ``settings`` instead of reading them again."""
        self._pinned.settings = settings
        try:
            yield
        finally:
            self._pinned.settings = None

    def current(self) -> Settings:
        """The settings pinned on this thread, else the configuration read now."""
        settings: Settings | None = getattr(self._pinned, "settings", None)
        return settings if settings is not None else self.settings()

    def engine(self, settings: Settings) -> Any:
        from redactor.api import get_redactor

        return get_redactor(settings, environ=self.env)

    # turns --------------------------------------------------------------------
    def check_turn(self, user_message: Any) -> tuple[str | None, list[str], Settings]:
        """``(rule reason or None, entity types found, settings)`` for a turn's message.

        The text is analysed once; callers pick what blocks (``blocking``).
        """
        settings = self.current()
        text = user_text(user_message)
        rule = match_prompt(settings.rules, text)
        if rule is not None:
            return rule.reason, [], settings
        found = self.engine(settings).analyze(text)
        return None, [messages.finding_type(f.entity_type, f.recognizer) for f in found], settings


    def redact_text(self, text: str, call: Mapping[str, Any] | None = None
                    ) -> tuple[str, list[str]]:
        """``text`` redacted.  ``call`` (a tool result's session and call ids), with
        pseudonyms on: the values that call got from tokens become those tokens again
        first, and the tokens written are issued to the session."""
        settings = self.current()
        if call is not None and settings.pseudonyms:
            from redactor.pseudonyms.hooks import record_issued, tokens_again

            text = tokens_again(text, call, settings, self.env)
            result = self.engine(settings).redact(text)
            record_issued(result.issued, call, settings, self.env)
            return result.text, [f.entity_type for f in result.findings]
        result = self.engine(settings).redact(text)
        return result.text, [f.entity_type for f in result.findings]

    def rehydrate_args(self, tool_name: str, args: dict[str, Any],
                       call: Mapping[str, Any], written: dict[str, Any]) -> Any:
        """The pseudonym policy's answer for a tool call's (redacted) arguments;
        ``written``: the arguments as the model wrote them."""
        from redactor.pseudonyms.hooks import rehydrate_call, remember_call

        settings = self.current()
        payload = {**call, "cwd": os.getcwd(), "tool_name": tool_name, "tool_input": written}
        answer = rehydrate_call("hermes", tool_name, args, payload, settings=settings,
                                env=self.env)
        if answer.action == "rewrite" and answer.updated is not None:
            remember_call(payload, answer.updated, answer.digests, settings=settings,
                          env=self.env)
        return answer

    def redact_messages(self, value: Any) -> tuple[Any, list[str]]:
        """Redact the content strings of chat messages (structure keys stay)."""
        settings = self.current()
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
        settings = self.current()
        result = self.engine(settings).redact_json(args, keys_and_numbers=True,
                                                   entities=settings.input_entities)
        return dict(result.value), dict(result.patch)

    def tool_rule(self, tool_name: str, args: Any) -> tuple[Literal["deny", "ask"], str] | None:
        rule = match_tool(self.current().rules, tool_name, args)
        return (rule.action, rule.reason) if rule is not None else None


def renames_top_level(args: dict[str, Any], patch: dict[str | int, Any]) -> bool:
    """True when the patch renames a top-level key, which a shallow merge cannot do."""
    return any(key not in args for key in patch)


def blocking(found: list[str], settings: Settings) -> list[str]:
    """The entity types among ``found`` that make a prompt bounce."""
    return messages.prompt_blockers(found, settings)


# ------------------------------------------------------------------ shell hook


class HermesShell(JsonAdapter):
    """The ``hermes`` shell hook: one event on stdin, one JSON object on stdout.

    ``pre_llm_call``: a block naming the entity types (honoured from the release that
    has the block directive; 0.19.0 ignores it, see docs/hosts/hermes.md).  ``pre_tool_call``: deny
    rules block; personal data gives a ``modify`` with the partial patch.  Anything
    else: ``{}``.  Every failure answers with a block.
    """

    name = "hermes"
    events = frozenset(catalogue.events("hermes"))

    def ignored(self) -> Outcome:
        return Outcome(stdout="{}")

    def dispatch(self, event: str, payload: dict[str, Any], settings: Settings,
                 env: Mapping[str, str], engine: Any) -> Outcome:
        extra_value = payload.get("extra")
        extra: dict[str, Any] = extra_value if isinstance(extra_value, dict) else {}
        if event == "pre_llm_call":
            reason = check_prompt(user_text(extra.get("user_message")), settings, engine)
            if reason is None:
                return self.ignored()
            return Outcome.emit({"action": "block", "message": reason})
        tool_name = payload.get("tool_name")
        args = payload.get("tool_input")
        if not isinstance(tool_name, str) or not isinstance(args, dict):
            return self.ignored()
        check = check_tool(tool_name, args, settings, engine)
        if check.action == "deny":
            return Outcome.emit({"action": "block", "message": check.reason})
        if check.action == "ask":
            # A shell hook cannot ask the person: the call is refused with the reason.
            return Outcome.emit({"action": "block", "message": check.reason})
        if check.action == "pass":
            return self.ignored()
        if renames_top_level(args, check.patch):
            return Outcome.emit({"action": "block", "message": messages.text(
                "shape_blocked", settings.language)})
        return Outcome.emit({"action": "modify", "args": check.patch})

    def fail_closed(self, event: str | None, payload: Any, error: BaseException,
                    language: str = "pt-BR") -> Outcome:
        if event in (None, "pre_llm_call", "pre_tool_call"):
            text = messages.text("fail_prompt" if event == "pre_llm_call" else "fail_tool",
                                 language, error=type(error).__name__)
            return Outcome.emit({"action": "block", "message": text})
        return self.ignored()


ADAPTER: Final = HermesShell()


def shell(raw: bytes, env: Mapping[str, str] | None = None) -> str:
    """Answer one Hermes shell-hook event (stdin JSON) with one JSON object."""
    return ADAPTER.run(raw, env=env).stdout or "{}"


# ------------------------------------------------------------------ plugin

#: The literal that the release with the pre_llm_call block directive writes as the
#: turn's exit reason; absent from 0.19.0.
BLOCK_MARKER: Final = "blocked_by_plugin_pre_llm_call"
#: Request fields that carry conversation text (chat and responses APIs).
REQUEST_TEXT_KEYS: Final = ("messages", "input", "system", "instructions")
CONTEXT_NOTE: Final = {
    "pt-BR": ("Os trechos entre colchetes, como [CPF] ou [USERNAME], são dados pessoais "
              "substituídos pelo redactor; não são os valores reais."),
    "en": ("Bracketed tokens such as [CPF] or [USERNAME] are personal data replaced by "
           "redactor; they are not the real values."),
}


def _module_source(name: str) -> str:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return ""
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return ""
    try:
        return Path(spec.origin).read_text(encoding="utf-8")
    except OSError:
        return ""


def block_supported() -> bool:
    """Does the installed Hermes honour ``{"action": "block"}`` from pre_llm_call?"""
    return BLOCK_MARKER in _module_source("agent.turn_context")


def modify_supported() -> bool:
    """Does the installed Hermes apply ``{"action": "modify"}`` from pre_tool_call?"""
    source = _module_source("hermes_cli.plugins")
    return '"modify"' in source or "'modify'" in source


T = TypeVar("T")

#: Calls that ran past their time budget and whose work is still running, on its own
#: thread, that one plugin lets be at once.  Past it, every callback answers its safe
#: answer at once, without starting more work, until one of them ends.
MAX_ABANDONED: Final = 4


class _Work(threading.Thread, Generic[T]):
    """One callback's work on a thread of its own, so that the callback can stop waiting.

    The work only computes: every change to Hermes' objects (a request or arguments
    rewritten in place, a blocked turn remembered) is made by the callback, after the
    work ended in time.  Work abandoned at the deadline runs on to its end and its
    result is dropped.
    """

    def __init__(self, guard: Any, work: Callable[[Settings], T]) -> None:
        super().__init__(name="redactor-hermes", daemon=True)
        self._guard = guard
        self._work = work
        self.settings: Settings | None = None
        self.result: T | None = None
        self.error: BaseException | None = None
        self.configured = threading.Event()  # the settings were read, or failed
        self.done = threading.Event()

    def run(self) -> None:
        try:
            try:
                settings = self._guard.settings()
                self.settings = settings
            finally:
                self.configured.set()
            pinned = getattr(self._guard, "pinned", None)
            if pinned is None:  # a guard of another kind reads its settings itself
                self.result = self._work(settings)
            else:
                with pinned(settings):
                    self.result = self._work(settings)
        except BaseException as exc:  # handed to the callback, which fails closed
            self.error = exc
        finally:
            self.done.set()


class HermesPlugin:
    """The callbacks; one instance per Hermes process.

    Each callback's work has ``[hooks] time_budget_seconds`` (at most 20 s, counted from
    the call, reading the configuration included); when it runs out, the callback
    answers its safe answer (a block, or a withheld copy that costs a bounded time) and
    the work is abandoned.  The budget is kept on a helper thread, not with SIGALRM:
    Hermes calls plugins from other threads than the main one (the CLI's agent thread,
    the pool that runs tool calls side by side), and in the main thread the alarm is
    the host's (Hermes arms its own), not a plugin's to take.  Abandoned work may still
    use the shared engine, which is thread-safe (one lock around Presidio); at most
    :data:`MAX_ABANDONED` of them run at once.
    """

    def __init__(self, guard: Any = None, *, can_block: bool | None = None,
                 can_modify: bool | None = None) -> None:
        if guard is None:
            guard = Guard()
        self.guard = guard
        self.can_block = block_supported() if can_block is None else can_block
        self.can_modify = modify_supported() if can_modify is None else can_modify
        self._blocked: dict[str, str] = {}  # turn_id -> block notice
        self._denied: dict[str, str] = {}  # tool_call_id -> why its tokens were refused
        self._lock = threading.Lock()
        self._warned = False
        self._tripped = False
        self._abandoned: list[_Work[Any]] = []
        self._known_language = "pt-BR"  # of the last settings read: for the safe answers

    # helpers ------------------------------------------------------------------
    def _language(self) -> str:
        """The language of the last configuration read, without reading it again: a safe
        answer must not wait on the configuration (or fail with it)."""
        return self._known_language

    def _mode(self) -> str:
        return str(self.guard.settings().hermes_mode)

    def _within_budget(self, work: Callable[[Settings], T]) -> T:
        """``work(settings)`` within the time budget, or :class:`HookTimeout` (the work
        goes on, abandoned, on its own thread).  The work's own errors are raised here."""
        started = time.monotonic()
        with self._lock:
            self._abandoned = [w for w in self._abandoned if w.is_alive()]
            if len(self._abandoned) >= MAX_ABANDONED:
                raise HookTimeout(f"{len(self._abandoned)} earlier calls are still running "
                                  "past their time budget")
        job = _Work(self.guard, work)
        job.start()
        finished = False
        try:
            budget = MAX_TIME_BUDGET
            if job.configured.wait(MAX_TIME_BUDGET) and job.settings is not None:
                self._known_language = str(job.settings.language)
                budget = min(float(job.settings.hook_time_budget), MAX_TIME_BUDGET)
            finished = job.done.wait(max(started + budget - time.monotonic(), 0.0))
        finally:
            if not finished:  # the budget ran out (or the wait was interrupted)
                with self._lock:
                    self._abandoned.append(job)
        if not finished:
            raise HookTimeout(f"over the budget of {budget:g} s")
        if job.error is not None:
            raise job.error
        return cast(T, job.result)  # set, as no error was

    def warn_block_unsupported(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(
                "redactor: this Hermes ignores pre_llm_call blocks (%s); block mode is "
                "enforced by redacting every request in the llm_request middleware instead",
                why)

    def _fail(self, where: str, exc: BaseException) -> None:
        """Log a failed callback; a configuration error in Hermes' log too, naming the
        problem (its text is written never to hold data), so that it is not only seen
        as blocked calls."""
        from redactor.diagnostics import log_error

        log_error(f"hermes {where}", where, exc)
        if isinstance(exc, ConfigError):
            logger.warning("redactor: %s answered with its safe answer: %s", where, exc)

    # pre_llm_call -----------------------------------------------------------------
    def pre_llm_call(self, **kwargs: Any) -> Any:
        turn_id = str(kwargs.get("turn_id") or "")
        user_message = kwargs.get("user_message")

        def decide(_: Settings) -> tuple[str | None, list[str], Settings]:
            reason, found, settings = self.guard.check_turn(user_message)
            if settings.hermes_mode == "block" and (reason or blocking(found, settings)):
                return reason or messages.prompt_blocked(settings, blocking(found, settings)), \
                    found, settings
            return None, found, settings

        try:
            notice, found, settings = self._within_budget(decide)
            if notice is not None:
                self._remember(turn_id, notice)
                if not self.can_block:
                    self.warn_block_unsupported("no block directive in agent.turn_context")
                return {"action": "block", "message": notice}
            if settings.hermes_mode == "redact" and found:
                return {"context": CONTEXT_NOTE.get(settings.language, CONTEXT_NOTE["pt-BR"])}
            return None
        except Exception as exc:
            self._fail("pre_llm_call", exc)
            notice = messages.text("fail_prompt", self._language(), error=type(exc).__name__)
            self._remember(turn_id, notice)
            return {"action": "block", "message": notice}

    def _remember(self, turn_id: str, notice: str) -> None:
        if turn_id:
            with self._lock:
                self._blocked[turn_id] = notice
                while len(self._blocked) > 1000:
                    self._blocked.pop(next(iter(self._blocked)))

    # llm_request middleware -------------------------------------------------------
    def llm_request(self, request: Any = None, **kwargs: Any) -> Any:
        if not isinstance(request, dict):
            return None
        keys = [k for k in REQUEST_TEXT_KEYS if k in request]
        if not keys:
            return None
        fields = {k: request[k] for k in keys}
        try:
            redacted = self._within_budget(
                lambda _: {k: self.guard.redact_messages(v)[0] for k, v in fields.items()})
            with self._lock:
                notice = self._blocked.get(str(kwargs.get("turn_id") or ""))
            if notice is not None:
                if not self._tripped:
                    self._tripped = True
                    logger.warning("redactor: a turn blocked in pre_llm_call reached the "
                                   "provider request, so this Hermes ignores blocks; the "
                                   "message was replaced by the block notice on the wire")
                for k in ("messages", "input"):
                    if k in redacted:
                        redacted[k] = _replace_last_user(redacted[k], notice)
            request.update(redacted)  # in place too: later middleware gets the same object
            return {"request": request, "source": "redactor", "reason": "personal data"}
        except Exception as exc:
            self._fail("llm_request", exc)
            marker = messages.text("withheld", self._language())
            for k in keys:
                request[k] = withheld_messages(fields[k], marker)
            return {"request": request, "source": "redactor", "reason": "withheld"}

    # tools ------------------------------------------------------------------------
    def tool_request(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> Any:
        if not isinstance(args, dict):
            return None
        call = _call(kwargs)

        def decide(settings: Settings) -> tuple[dict[str, Any], bool]:
            redacted, patch = self.guard.redact_args(args)
            new = redacted if patch else args
            if settings.pseudonyms:
                # After redaction, which left the tokens alone (redactor.pseudonyms).
                answer = self.guard.rehydrate_args(str(tool_name), new, call, dict(args))
                if answer.action == "rewrite" and answer.updated is not None:
                    return answer.updated, True
                if answer.action == "deny":
                    with self._lock:
                        self._denied[str(call.get("tool_use_id") or "")] = answer.reason
            return new, bool(patch)

        try:
            new_args, changed = self._within_budget(decide)
            if not changed:
                return None
            args.clear()
            args.update(new_args)
            return {"args": args, "source": "redactor", "reason": "personal data"}
        except Exception as exc:
            self._fail("tool_request", exc)
            marker = messages.text("withheld", self._language())
            return {"args": withheld_messages(args, marker), "source": "redactor"}

    def pre_tool_call(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> Any:
        def decide(settings: Settings) -> Any:
            if settings.pseudonyms:
                with self._lock:
                    reason = self._denied.pop(str(_call(kwargs).get("tool_use_id") or ""),
                                              None)
                if reason is not None:
                    # The middleware refused the tokens the model wrote into this call.
                    return {"action": "block", "message": messages.text(
                        "token_denied", settings.language, reason=reason)}
            decided = self.guard.tool_rule(str(tool_name), args if args is not None else {})
            patch = self.guard.redact_args(args)[1] if isinstance(args, dict) else {}
            if decided is not None:
                action, reason = decided
                # Approval cannot carry rewritten arguments: arguments that still hold
                # personal data here (no tool_request middleware redacted them) block.
                if action == "deny" or patch:
                    return {"action": "block", "message": reason}
                return {"action": "approve", "message": reason}
            if patch and isinstance(args, dict):
                if not self.can_modify or renames_top_level(args, patch):
                    # 0.19.0 ignores modify; its tool_request middleware, which runs
                    # first, replaces the arguments whole, so data left here means it
                    # did not run: block rather than let the call go.
                    return {"action": "block",
                            "message": messages.text("shape_blocked", settings.language)}
                return {"action": "modify", "args": patch}
            return None

        try:
            return self._within_budget(decide)
        except Exception as exc:
            self._fail("pre_tool_call", exc)
            return {"action": "block",
                    "message": messages.text("fail_tool", self._language(),
                                             error=type(exc).__name__)}

    def transform_tool_result(self, result: Any = None, **kwargs: Any) -> Any:
        if not isinstance(result, str):
            return None
        call = _call(kwargs)
        try:
            text, found = self._within_budget(lambda _: self.guard.redact_text(result, call))
            return text if found or text != result else None
        except Exception as exc:
            self._fail("transform_tool_result", exc)
            return messages.text("withheld", self._language())

    # gateway ----------------------------------------------------------------------
    def pre_gateway_dispatch(self, event: Any = None, **kwargs: Any) -> Any:
        text = getattr(event, "text", None)
        if not isinstance(text, str) or not text:
            return None

        def decide(settings: Settings) -> Any:
            if settings.hermes_mode != "redact":
                return None
            redacted, found = self.guard.redact_text(text)
            return {"action": "rewrite", "text": redacted} if found else None

        try:
            return self._within_budget(decide)
        except Exception as exc:
            self._fail("pre_gateway_dispatch", exc)
            return {"action": "skip", "reason": "redactor: internal error"}


def _call(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """A tool call's ids as the pseudonym hooks read them (Hermes passes its session id
    and tool call id to its middleware and hooks)."""
    return {"session_id": kwargs.get("session_id") or None,
            "tool_use_id": kwargs.get("tool_call_id") or None}


def _replace_last_user(value: Any, notice: str) -> Any:
    if not isinstance(value, list):
        return value
    for message in reversed(value):
        if isinstance(message, dict) and message.get("role") == "user":
            message["content"] = notice
            break
    return value


def register(ctx: Any) -> None:
    """Hermes calls this with its plugin context."""
    plugin = HermesPlugin()
    ctx.register_hook("pre_llm_call", plugin.pre_llm_call)
    ctx.register_hook("transform_tool_result", plugin.transform_tool_result)
    ctx.register_hook("pre_tool_call", plugin.pre_tool_call)
    ctx.register_hook("pre_gateway_dispatch", plugin.pre_gateway_dispatch)
    if hasattr(ctx, "register_middleware"):
        ctx.register_middleware("llm_request", plugin.llm_request)
        ctx.register_middleware("tool_request", plugin.tool_request)
    elif not plugin.can_block:
        logger.warning("redactor: this Hermes has neither the block directive nor request "
                       "middleware; personal data in prompts cannot be stopped")
    try:
        block_mode = plugin._mode() == "block"
    except Exception as exc:  # every call blocks until the configuration is fixed
        plugin._fail("register", exc)
        block_mode = True
    if block_mode and not plugin.can_block:
        plugin.warn_block_unsupported("no block directive in agent.turn_context")
    # Build the engine now, off the turn's critical path.
    threading.Thread(target=_warm, args=(plugin,), daemon=True).start()


def _warm(plugin: HermesPlugin) -> None:
    try:
        plugin.guard.redact_text("aquecimento")
    except Exception as exc:
        plugin._fail("warm-up", exc)

"""redactor's Hermes Agent plugin (entry point ``hermes_agent.plugins``: ``redactor``).

Registers ``pre_llm_call`` (block or redact mode), ``transform_tool_result``,
``pre_tool_call``, ``pre_gateway_dispatch`` and the ``llm_request`` / ``tool_request``
middleware.  Hermes treats an exception or a hang in a callback as "go on", so each
callback catches everything and answers with a block or a withheld value.

Block mode on a Hermes that ignores the block directive (0.19.0 does): the plugin
notices once at registration, logs a warning, and enforces through the
``llm_request`` middleware, which redacts every message on the wire and replaces the
blocked turn's message with the block notice.  A runtime tripwire (a blocked
turn seen by the middleware) logs the same warning if detection was wrong.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any, Final

from redactor import messages

__all__ = ["HermesPlugin", "block_supported", "modify_supported", "register"]

logger = logging.getLogger("redactor.hermes")

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


class HermesPlugin:
    """The callbacks; one instance per Hermes process."""

    def __init__(self, guard: Any = None, *, can_block: bool | None = None,
                 can_modify: bool | None = None) -> None:
        if guard is None:
            from redactor.hooks.hermes import Guard

            guard = Guard()
        self.guard = guard
        self.can_block = block_supported() if can_block is None else can_block
        self.can_modify = modify_supported() if can_modify is None else can_modify
        self._blocked: dict[str, str] = {}  # turn_id -> block notice
        self._lock = threading.Lock()
        self._warned = False
        self._tripped = False

    # helpers ------------------------------------------------------------------
    def _language(self) -> str:
        try:
            return str(self.guard.settings().language)
        except Exception:  # a broken config must not hide the notice itself
            return "pt-BR"

    def _mode(self) -> str:
        return str(self.guard.settings().hermes_mode)

    def warn_block_unsupported(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(
                "redactor: this Hermes ignores pre_llm_call blocks (%s); block mode is "
                "enforced by redacting every request in the llm_request middleware instead",
                why)

    def _fail(self, where: str, exc: BaseException) -> None:
        from redactor.diagnostics import log_error

        log_error(f"hermes {where}", where, exc)

    # pre_llm_call -----------------------------------------------------------------
    def pre_llm_call(self, **kwargs: Any) -> Any:
        turn_id = str(kwargs.get("turn_id") or "")
        try:
            from redactor.hooks.hermes import blocking

            reason, found, settings = self.guard.check_turn(kwargs.get("user_message"))
            if settings.hermes_mode == "block" and (reason or blocking(found, settings)):
                notice = reason or messages.prompt_blocked(settings, blocking(found, settings))
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
        try:
            redacted = {k: self.guard.redact_messages(request[k])[0] for k in keys}
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
            from redactor.hooks.hermes import withheld_messages

            marker = messages.text("withheld", self._language())
            for k in keys:
                request[k] = withheld_messages(request[k], marker)
            return {"request": request, "source": "redactor", "reason": "withheld"}

    # tools ------------------------------------------------------------------------
    def tool_request(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> Any:
        if not isinstance(args, dict):
            return None
        try:
            redacted, patch = self.guard.redact_args(args)
            if not patch:
                return None
            args.clear()
            args.update(redacted)
            return {"args": args, "source": "redactor", "reason": "personal data"}
        except Exception as exc:
            self._fail("tool_request", exc)
            from redactor.hooks.hermes import withheld_messages

            marker = messages.text("withheld", self._language())
            return {"args": withheld_messages(args, marker), "source": "redactor"}

    def pre_tool_call(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> Any:
        try:
            from redactor.hooks.hermes import renames_top_level

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
                            "message": messages.text("shape_blocked", self._language())}
                return {"action": "modify", "args": patch}
            return None
        except Exception as exc:
            self._fail("pre_tool_call", exc)
            return {"action": "block",
                    "message": messages.text("fail_tool", self._language(),
                                             error=type(exc).__name__)}

    def transform_tool_result(self, result: Any = None, **kwargs: Any) -> Any:
        if not isinstance(result, str):
            return None
        try:
            text, found = self.guard.redact_text(result)
            return text if found else None
        except Exception as exc:
            self._fail("transform_tool_result", exc)
            return messages.text("withheld", self._language())

    # gateway ----------------------------------------------------------------------
    def pre_gateway_dispatch(self, event: Any = None, **kwargs: Any) -> Any:
        text = getattr(event, "text", None)
        if not isinstance(text, str) or not text:
            return None
        try:
            if self._mode() != "redact":
                return None
            redacted, found = self.guard.redact_text(text)
            return {"action": "rewrite", "text": redacted} if found else None
        except Exception as exc:
            self._fail("pre_gateway_dispatch", exc)
            return {"action": "skip", "reason": "redactor: internal error"}


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
    except Exception:  # a broken config shows at the first call, which then blocks
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

"""``redactor gateway``: the local service that redacts what Claude Code sends its model.

An aiohttp application (the ``gateway`` extra).  aiohttp is one library for both sides
of a streaming proxy: its server hands us the request body and a response we can write
chunk by chunk, and its client gives the upstream's body chunk by chunk without
buffering or decompressing it; both speak HTTP over a Unix socket as well as TCP.

Routes (every one but ``hello`` needs the install's token in ``X-Redactor-Token``):

* ``POST /v1/messages``, ``POST /v1/messages/count_tokens``: the body is redacted
  (:mod:`redactor.gateway.wire`) within ``gateway.time_budget_seconds``, then sent to
  the upstream; the answer streams back unchanged.  ``GET /v1/models[/{id}]`` is
  forwarded as it is (it carries no body).
* ``POST /hooks/claude/{event}``: Claude Code's HTTP hooks, answered as the command
  hooks are: in this process when the event is small and the engine its project's
  settings ask for is built already (a thread of its own, given up at the hook's time
  budget with the fail-closed answer), else by the warm engine, whose workers the
  budget's timer can stop.
* ``GET /redactor/v1/hello?nonce=``: proves the token (an HMAC of the nonce).
* ``POST /redactor/v1/dry-run``: the redacted body, never sent upstream (doctor's canary).
* ``GET /redactor/v1/status``: counters, never values.

Anything else is refused with an Anthropic-shaped 404 and never proxied.  When redaction
fails, overruns its budget or meets a shape it does not know, nothing goes upstream: the
client gets an Anthropic-shaped error (500, ``x-should-retry: false``: see FAIL_STATUS)
naming the field, block type or error class, never a value.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import json
import os
import re
import signal
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from aiohttp import ClientSession, ClientTimeout, TCPConnector, web

from redactor import config, messages
from redactor.config import Settings
from redactor.diagnostics import log_error
from redactor.gateway import identity
from redactor.gateway.wire import BlockCache, NotCached, Refused, RequestRedactor
from redactor.serve import timeouts

__all__ = ["FAIL_STATUS", "Gateway", "error_body", "hook_answer", "serve"]

#: The status of a refused request.  Claude Code retries a 503 ten times whatever the
#: headers say, and 2.1.332 sends a 400 again with fewer betas, up to six times; a 500
#: with ``x-should-retry: false`` is shown at once, with the message (verified with
#: both pinned releases).
FAIL_STATUS: Final = 500
_NO_RETRY: Final = {"x-should-retry": "false"}
#: The largest request body read (a long session with images runs to tens of MB).
MAX_BODY: Final = 256 << 20
#: Request headers never forwarded (hop by hop, or ours).
_DROP_REQUEST: Final = frozenset({
    "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te",
    "upgrade", "proxy-authorization", "proxy-connection", identity.HEADER.lower(),
    "x-redactor-base-url",
})
#: Response headers not copied back (aiohttp frames the body itself).
_DROP_RESPONSE: Final = frozenset({
    "transfer-encoding", "connection", "keep-alive", "content-length",
})
_EVENT_NAME: Final = re.compile(r"[A-Za-z]{1,40}")
#: The header Claude Code sends its session id in (both pinned releases): it scopes the
#: tokens shown to the person, never a tool's (that is the hooks' policy).
SESSION_HEADER: Final = "X-Claude-Code-Session-Id"
_FORWARDED_PATHS: Final = ("/v1/messages", "/v1/messages/count_tokens")
#: A body up to this size whose blocks are all in the cache is redacted on the event loop
#: (a cached 500 KB body: about 1.2 ms of lookups and JSON; 2 MB, about 5 ms); a block to
#: compute sends the body to the worker threads.
INLINE_BYTES: Final = 2 << 20
#: Hook events up to this size are answered in this process when its engine fits them
#: (a prompt, a tool's input, a short tool output: a few milliseconds of engine time,
#: which cannot hold up the model traffic for long and which no timer here could stop);
#: larger ones go to the warm engine, whose workers the time budget stops.
HOOK_HERE_BYTES: Final = 32 << 10
#: Threads answering hooks here; when all are busy (a call overrunning its budget keeps
#: its thread), the warm engine answers.
HOOK_THREADS: Final = 2


def error_body(error_type: str, message: str) -> bytes:
    """An Anthropic-shaped error."""
    return json.dumps({"type": "error", "error": {"type": error_type, "message": message}},
                      ensure_ascii=False).encode("utf-8")


def _error(status: int, error_type: str, message: str) -> web.Response:
    return web.Response(status=status, body=error_body(error_type, message),
                        content_type="application/json", headers=_NO_RETRY)


@dataclass
class Counters:
    requests: int = 0
    forwarded: int = 0
    refused: int = 0
    hooks: int = 0
    #: Of the hooks: answered in this process, and by the warm engine.
    hooks_here: int = 0
    hooks_warm: int = 0
    started: float = field(default_factory=time.time)


class Gateway:
    """One gateway: its engine, its block cache, its upstream session, its token."""

    def __init__(self, settings: Settings, env: Mapping[str, str], *, token: str,
                 upstream: str | None = None, engine: Any = None,
                 workers: int = 4, hooks_here: bool = True) -> None:
        self.settings = settings
        self.env = dict(env)
        self.token = token
        self.upstream = (upstream or settings.gateway_upstream).rstrip("/")
        self.budget = settings.gateway_time_budget
        self._engine = engine
        self._cache = BlockCache()
        self._redactor: RequestRedactor | None = None
        self._pool = ThreadPoolExecutor(max_workers=workers,
                                        thread_name_prefix="redactor-gateway")
        self._hook_pool = ThreadPoolExecutor(max_workers=HOOK_THREADS,
                                             thread_name_prefix="redactor-gateway-hook")
        self._hooks_running = 0
        self.hooks_here = hooks_here
        self._session: ClientSession | None = None
        self.counters = Counters()

    # ------------------------------------------------------------------ life

    def build(self) -> None:
        """Build the engine (seconds: Presidio) before the first request arrives."""
        if self._engine is None:
            from redactor.api import get_redactor

            # The shared engine of these settings: the HTTP hooks of a project without
            # settings of its own are answered with it too.
            self._engine = get_redactor(config.for_hooks(self.settings, self.env),
                                        environ=self.env)
        withheld = messages.text("gateway_binary", self.settings.language)
        self._redactor = RequestRedactor(self._engine, binary=self.settings.gateway_binary,
                                         withheld_text=withheld, cache=self._cache,
                                         fingerprint=repr(self.settings).encode())

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get(identity.HELLO_PATH, self.hello)
        app.router.add_get("/redactor/v1/status", self.status)
        app.router.add_post("/redactor/v1/dry-run", self.dry_run)
        app.router.add_post("/hooks/claude/{event}", self.hook)
        for path in _FORWARDED_PATHS:
            app.router.add_post(path, self.messages)
        app.router.add_get("/v1/models", self.models)
        app.router.add_get("/v1/models/{model}", self.models)
        app.router.add_route("*", "/{tail:.*}", self.unknown)
        app.on_startup.append(self._open)
        app.on_cleanup.append(self._close)
        return app

    async def _open(self, _: web.Application) -> None:
        self._session = ClientSession(
            connector=TCPConnector(limit=64, enable_cleanup_closed=True),
            auto_decompress=False, trust_env=True,
            timeout=ClientTimeout(total=None, sock_connect=30, sock_read=900))

    async def _close(self, _: web.Application) -> None:
        if self._session is not None:
            await self._session.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._hook_pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ guards

    def _authorised(self, request: web.Request) -> bool:
        presented = request.headers.get(identity.HEADER, "")
        return hmac.compare_digest(presented.encode("utf-8", "replace"),
                                   self.token.encode("ascii"))

    def _forbidden(self) -> web.Response:
        self.counters.refused += 1
        return _error(403, "permission_error",
                      "redactor gateway: this client did not present the install's token "
                      "(run `redactor install claude --gateway`)")

    # ------------------------------------------------------------------ routes

    async def hello(self, request: web.Request) -> web.Response:
        nonce = request.query.get("nonce", "")
        if not re.fullmatch(r"[0-9a-f]{16,64}", nonce):
            return _error(400, "invalid_request_error", "redactor gateway: bad nonce")
        return web.json_response({"gateway": "redactor",
                                  "proof": identity.proof(self.token, nonce)})

    async def status(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._forbidden()
        counters = self.counters
        return web.json_response({
            "gateway": "redactor", "pid": os.getpid(), "upstream": self.upstream,
            "binary": self.settings.gateway_binary, "requests": counters.requests,
            "forwarded": counters.forwarded, "refused": counters.refused,
            "hooks": counters.hooks, "hooks_here": counters.hooks_here,
            "hooks_warm": counters.hooks_warm, "cached_blocks": len(self._cache),
            "cache_hits": self._cache.hits, "cache_misses": self._cache.misses,
            "uptime_seconds": round(time.time() - counters.started, 1),
        })

    async def unknown(self, request: web.Request) -> web.Response:
        return _error(404, "not_found_error",
                      "redactor gateway: this endpoint is not served (only the Messages API)")

    async def dry_run(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._forbidden()
        raw = await _body(request)
        if raw is None:
            return _too_large()
        try:
            result = await self._redact(raw)
        except Refused as exc:
            return _error(FAIL_STATUS, "api_error", str(exc))
        return web.json_response({"changed": result.changed, "entities": list(result.entities),
                                  "body": json.loads(result.body)})

    async def models(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return self._forbidden()
        return await self._forward(request, None)

    async def messages(self, request: web.Request) -> web.StreamResponse:
        self.counters.requests += 1
        if not self._authorised(request):
            return self._forbidden()
        if request.headers.get("Content-Encoding", "identity").lower() != "identity":
            self.counters.refused += 1
            return _error(FAIL_STATUS, "api_error",
                          "redactor gateway: compressed request bodies are not read")
        raw = await _body(request)
        if raw is None:
            return _too_large()
        pseudonyms = self._pseudonyms(request)
        try:
            shown = None
            if pseudonyms is not None:
                shown = await self._in_pool(pseudonyms.shown_before)
            result = await self._redact(raw, shown)
            values = None
            if pseudonyms is not None:
                values = await self._in_pool(lambda: pseudonyms.settle(result))
        except Refused as exc:
            self.counters.refused += 1
            return _error(FAIL_STATUS, "api_error", str(exc))
        return await self._forward(request, result.body, pseudonyms, values)

    def _pseudonyms(self, request: web.Request) -> Any:
        """The pseudonym work of one request (redactor.gateway.display), or None when
        pseudonyms or the vault are off."""
        if not (self.settings.pseudonyms and self.settings.vault):
            return None
        from redactor.gateway.display import Display

        return Display(self.settings, self.env, request.headers.get(SESSION_HEADER))

    async def _in_pool(self, work: Callable[[], Any]) -> Any:
        """``work`` on a worker thread (the vault's file and lock stay off the loop); a
        failure refuses the request, naming its class only."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool, work), self.budget)
        except Exception as exc:
            log_error("gateway pseudonyms", None, exc, self.env)
            raise Refused(messages.text("gateway_failed", self.settings.language,
                                        error=type(exc).__name__)) from None

    async def _redact(self, raw: bytes, shown: Mapping[str, str] | None = None) -> Any:
        redactor = self._redactor
        if redactor is None:
            raise Refused("redactor gateway: the engine is not ready", status=503,
                          error_type="overloaded_error")
        deadline = time.monotonic() + self.budget
        fault = _drill(self.env)

        def check() -> None:
            if time.monotonic() > deadline:
                raise TimeoutError
            if fault:
                raise RuntimeError("injected gateway fault")

        def work() -> Any:
            return redactor.redact_body(raw, check=check, shown=shown)

        loop = asyncio.get_running_loop()
        try:
            if len(raw) <= INLINE_BYTES:
                # Every block seen before (a turn's history): answered here, without
                # the hand-over to a thread and back, which costs more than the work.
                with contextlib.suppress(NotCached):
                    return redactor.redact_body(raw, check=check, cached_only=True,
                                                shown=shown)
            return await asyncio.wait_for(loop.run_in_executor(self._pool, work), self.budget)
        except Refused:
            raise
        except TimeoutError as exc:
            log_error("gateway", None, exc, self.env)
            raise Refused(messages.text("gateway_failed", self.settings.language,
                                        error="TimeoutError")) from None
        except Exception as exc:
            log_error("gateway", None, exc, self.env)
            raise Refused(messages.text("gateway_failed", self.settings.language,
                                        error=type(exc).__name__)) from None

    async def _forward(self, request: web.Request, body: bytes | None,
                       pseudonyms: Any = None,
                       values: Mapping[str, str] | None = None) -> web.StreamResponse:
        session = self._session
        assert session is not None
        display = pseudonyms is not None and bool(values) and self.settings.pseudonym_display
        drop = _DROP_REQUEST | ({"accept-encoding"} if display else set())
        headers = [(name, value) for name, value in request.headers.items()
                   if name.lower() not in drop]
        if display:
            # The answer is read to show values: it must come uncompressed.
            headers.append(("Accept-Encoding", "identity"))
        url = self.upstream + request.rel_url.path_qs
        try:
            upstream = await session.request(request.method, url, headers=headers, data=body,
                                             allow_redirects=False)
        except Exception as exc:
            log_error("gateway upstream", None, exc, self.env)
            return _error(502, "api_error", "redactor gateway: the upstream is unreachable "
                          f"({type(exc).__name__})")
        self.counters.forwarded += 1
        try:
            response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
            for name, value in upstream.headers.items():
                if name.lower() not in _DROP_RESPONSE:
                    response.headers.add(name, value)
            rewriter = None
            if display and values is not None and upstream.status == 200 and \
                    upstream.headers.get("Content-Encoding", "identity").lower() == "identity":
                from redactor.gateway.stream import SseRewriter, TextRehydrator

                rehydrator = TextRehydrator(values)
                kind = upstream.headers.get("Content-Type", "")
                rewriter = SseRewriter(rehydrator) if kind.startswith("text/event-stream") \
                    else None
                if rewriter is None and kind.startswith("application/json"):
                    return await self._whole(request, response, upstream, rehydrator,
                                             pseudonyms)
            await response.prepare(request)
            async for chunk in upstream.content.iter_any():
                await response.write(rewriter.feed(chunk) if rewriter is not None else chunk)
            if rewriter is not None:
                await response.write(rewriter.close())
                await self._remember(pseudonyms, rewriter.text.shown)
            await response.write_eof()
            return response
        finally:
            upstream.release()

    async def _whole(self, request: web.Request, response: web.StreamResponse, upstream: Any,
                     rehydrator: Any, pseudonyms: Any) -> web.StreamResponse:
        """A whole JSON answer, its text rehydrated for display."""
        from redactor.gateway.stream import rehydrate_message

        data = await upstream.read()
        await response.prepare(request)
        await response.write(rehydrate_message(data, rehydrator))
        await response.write_eof()
        await self._remember(pseudonyms, rehydrator.shown)
        return response

    async def _remember(self, pseudonyms: Any, shown: Mapping[str, str]) -> None:
        """Which values were shown for which tokens: the next request's history writes
        them as those tokens again.  A failure here is logged: the answer is sent."""
        if not shown:
            return
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._pool, lambda: pseudonyms.shown_after(shown))
        except Exception as exc:
            log_error("gateway pseudonyms", None, exc, self.env)

    async def hook(self, request: web.Request) -> web.Response:
        if not self._authorised(request):
            return self._forbidden()
        self.counters.hooks += 1
        raw = await _body(request)
        if raw is None:
            return _too_large()
        event = request.match_info["event"]
        env = {name: value for name, value in self.env.items()
               if name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
               or name.startswith("REDACTOR_")}
        base = request.headers.get("X-Redactor-Base-URL", "")
        if base and not base.startswith("$"):
            env["ANTHROPIC_BASE_URL"] = base
        try:
            code, out, err = await self._hook_answer(raw, env)
        except Exception as exc:  # every failure answers, closed (a 500 is not an answer)
            code, out, err = _hook_failed(raw, exc, env)
        body = hook_answer(event if _EVENT_NAME.fullmatch(event) else "", code, out, err)
        return web.Response(body=body, content_type="application/json")

    async def _hook_answer(self, raw: bytes, env: dict[str, str]) -> tuple[int, bytes, bytes]:
        answer = None
        if self.hooks_here and len(raw) <= HOOK_HERE_BYTES and \
                self._hooks_running < HOOK_THREADS:
            answer = await self._hook_here(raw, env)
        if answer is not None:
            self.counters.hooks_here += 1
            return answer
        self.counters.hooks_warm += 1
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, _ask_engine, raw, env)

    async def _hook_here(self, raw: bytes, env: dict[str, str]) -> tuple[int, bytes, bytes] | None:
        """The hook's answer computed in this process, or None when the warm engine
        should answer (the engine for the project's settings is not built here).  Past
        the caller's time budget (plus the dispatcher's grace) the fail-closed answer
        goes back at once, computed here (it is bounded); the thread's late result is
        dropped."""
        loop = asyncio.get_running_loop()
        read: list[Settings] = []
        future = loop.run_in_executor(self._hook_pool, _answer_here, raw, env, read.append)
        self._hooks_running += 1
        future.add_done_callback(self._hook_done)
        started = loop.time()
        while True:
            budget = read[-1].hook_time_budget if read else timeouts.MAX_TIME_BUDGET
            left = timeouts.dispatcher_wait(budget) - (loop.time() - started)
            if left <= 0:
                break
            try:
                # Short waits while the settings (and so the budget) are not read yet.
                return await asyncio.wait_for(asyncio.shield(future),
                                              left if read else min(left, 0.25))
            except TimeoutError:
                continue
        from redactor.hosts.core import HookTimeout

        return _hook_failed(raw, HookTimeout(f"over the budget of {budget:g} s"), env,
                            read[-1].language if read else None)

    def _hook_done(self, _: Any) -> None:
        self._hooks_running -= 1


def _hook_failed(raw: bytes, error: BaseException, env: dict[str, str],
                 language: str | None = None) -> tuple[int, bytes, bytes]:
    """The command hook's fail-closed answer to ``raw`` (bounded: a large event is not
    parsed again)."""
    from redactor.hosts.core import adapter

    return adapter("claude").fail_closed_raw(raw, error, env=env, source="gateway hook",
                                             language=language).encoded()


def _answer_here(raw: bytes, env: dict[str, str],
                 read: Callable[[Settings], None]) -> tuple[int, bytes, bytes] | None:
    """The command hook's answer to ``raw`` from this process's engine, or None when the
    engine for the event's settings is not built here (building one takes seconds of
    this process; the warm engine builds it in its own).  ``read`` gets the settings
    (the caller's time budget and language) once they are read."""
    from redactor.api import built_redactor
    from redactor.drills import drill
    from redactor.hosts.core import adapter, settings_for

    # The event's own folder decides its settings (settings_for checks it); this
    # process's folder is only the fallback, as for the warm engine.
    default_cwd = os.getcwd()
    claude = adapter("claude")
    try:
        payload = json.loads(raw)
        if not isinstance(payload, dict):
            return None
        settings = settings_for(payload, env, default_cwd)
    except Exception as exc:  # an unreadable event or a broken configuration
        return _hook_failed(raw, exc, env)
    read(settings)
    if built_redactor(config.for_hooks(settings, env), env) is None:
        return None
    delay = drill(env, "REDACTOR_TEST_DELAY")  # failure drills: an engine that hangs
    if delay:
        time.sleep(float(delay))
    return claude.run(raw, settings=settings, env=env, default_cwd=default_cwd).encoded()


def _event_cwd(raw: bytes) -> str | None:
    """The event's working folder when it names one that exists."""
    with contextlib.suppress(ValueError, UnicodeDecodeError, RecursionError):
        payload = json.loads(raw) if len(raw) <= 1 << 22 else None
        if isinstance(payload, dict) and isinstance(payload.get("cwd"), str):
            return payload["cwd"] if os.path.isdir(payload["cwd"]) else None
    return None


async def _body(request: web.Request) -> bytes | None:
    """The request's body, or None past MAX_BODY."""
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        return None


def _too_large() -> web.Response:
    return _error(413, "request_too_large",
                  f"redactor gateway: the request is larger than {MAX_BODY >> 20} MB")


def _drill(env: Mapping[str, str]) -> bool:
    from redactor.drills import drill

    return "gateway" in drill(env, "REDACTOR_TEST_FAULT").split(",")


def _ask_engine(raw: bytes, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """The command hook's answer to ``raw``, from the warm engine (started when it is
    down; this call then answers in process)."""
    from redactor.serve import protocol

    cwd = _event_cwd(raw)
    environ = {name.encode(): value.encode("utf-8", "surrogateescape")
               for name, value in env.items()}
    try:
        request = protocol.build_request(raw, host=b"claude", environ=environ,
                                         cwd=cwd or os.getcwd())
        return protocol.parse_answer(protocol.exchange(request))
    except protocol.Unreachable:
        from redactor.hosts.core import adapter
        from redactor.serve.control import spawn_detached

        with contextlib.suppress(Exception):
            spawn_detached()
        return adapter("claude").run(raw, env=env, default_cwd=cwd).encoded()
    except protocol.Broken as exc:
        from redactor.hosts.core import adapter

        return adapter("claude").fail_closed_raw(raw, exc, env=env,
                                                 source="gateway hook").encoded()


def hook_answer(event: str, code: int, out: bytes, err: bytes) -> bytes:
    """A command hook's answer (exit code, stdout, stderr) as the JSON body of an HTTP
    hook's answer, which has no exit code: exit 2 (block) becomes the event's blocking
    form, with stderr as the reason."""
    answer: dict[str, Any] = {}
    if out.strip():
        try:
            parsed = json.loads(out)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            answer = parsed
    if code == 2:
        # Exit 2 blocks whatever stdout holds: the blocking fields are set, never left
        # to what stdout already said.
        reason = err.decode("utf-8", "replace").strip() or "redactor: blocked"
        if event == "PreToolUse":
            specific = answer.get("hookSpecificOutput")
            answer["hookSpecificOutput"] = {
                **(specific if isinstance(specific, dict) else {}),
                "hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": reason}
        elif event in ("UserPromptSubmit", "PostToolUse", "Stop"):
            answer["decision"] = "block"
            answer.setdefault("reason", reason)
        else:
            answer["continue"] = False
            answer.setdefault("stopReason", reason)
    return json.dumps(answer, ensure_ascii=False).encode("utf-8")


async def _run(gateway: Gateway, host: str | None, port: int | None, unix: str | None,
               ready: Callable[[], None] | None) -> None:
    runner = web.AppRunner(gateway.app(), access_log=None, handle_signals=False)
    await runner.setup()
    sites: list[web.BaseSite] = []
    if host is not None and port is not None:
        sites.append(web.TCPSite(runner, host, port, reuse_address=True))
    if unix is not None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(unix)
        sites.append(web.UnixSite(runner, unix))
    try:
        old = os.umask(0o077)
        try:
            for site in sites:
                await site.start()
        finally:
            os.umask(old)
        if unix is not None:
            os.chmod(unix, 0o600)
        if ready is not None:
            ready()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()
        if unix is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(unix)


def serve(gateway: Gateway, *, host: str | None, port: int | None, unix: str | None,
          ready: Callable[[], None] | None = None) -> None:
    """Serve until SIGTERM or SIGINT (the engine is built first)."""
    gateway.build()
    # The engine's hundreds of thousands of objects live as long as the process: out of
    # the collector's way, so that the full collections a request's parsed body sets off
    # do not walk them (half of a cached request's time otherwise).
    gc.collect()
    gc.freeze()
    asyncio.run(_run(gateway, host, port, unix, ready))

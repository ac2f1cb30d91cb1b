"""redactor gateway over HTTP: a real aiohttp server on 127.0.0.1 in front of a fake
upstream that records what it receives and streams its answer in several chunks.

Every test that sends a planted value checks, at the end, that nothing the upstream
received holds it in any form (tests/leaks.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from redactor import config
from redactor.gateway import identity
from redactor.gateway.app import FAIL_STATUS, Gateway, hook_answer
from tests.e2e.engine import stop_engine
from tests.leaks import leaks

TOKEN = secrets.token_hex(32)
CPF = "529.982.247-25"
CPF_BARE = "52998224725"
EMAIL = "carla.menezes@exemplo.com.br"
PLANTED = (CPF, CPF_BARE, EMAIL)
AUTH = {identity.HEADER: TOKEN}
#: What the upstream streams for /v1/messages, one write each.
CHUNKS = [b"event: message_start\ndata: {\"type\":\"message_start\"}\n\n",
          b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\n",
          b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"n\":2}\n\n",
          b"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"]


@dataclass
class Received:
    method: str
    path_qs: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeUpstream:
    """Records every request; /v1/messages streams CHUNKS, waiting after the first one
    until ``gate`` is set (when a test sets ``hold``)."""

    received: list[Received] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    hold: bool = False
    gate: asyncio.Event | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self.received.append(Received(request.method, request.path_qs,
                                      dict(request.headers), body))
        if request.path == "/v1/messages/count_tokens":
            return web.json_response({"input_tokens": 42})
        if request.path.startswith("/v1/models"):
            return web.json_response({"data": [{"id": "claude-test"}]},
                                     headers={"request-id": "req_models"})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "request-id": "req_1"})
        await response.prepare(request)
        for index, chunk in enumerate(CHUNKS):
            await response.write(chunk)
            self.events.append(f"upstream sent {index}")
            if index == 0 and self.hold:
                assert self.gate is not None
                try:
                    await asyncio.wait_for(self.gate.wait(), 60)
                except TimeoutError:
                    self.events.append("upstream gave up waiting")
            await asyncio.sleep(0.005)
        self.events.append("upstream sent last")
        await response.write_eof()
        return response

    def everything(self) -> bytes:
        """All the upstream received: paths, header values and bodies."""
        parts: list[bytes] = []
        for item in self.received:
            parts.append(item.path_qs.encode())
            parts.extend(v.encode("utf-8", "replace") for v in item.headers.values())
            parts.append(item.body)
        return b"\n".join(parts)


@pytest.fixture(scope="module")
def engine() -> Any:
    from redactor.engine import Redactor

    return Redactor(config.for_hooks(config.Settings(), dict(os.environ)))


Scenario = Callable[[TestClient[Any, Any], FakeUpstream, Gateway], Awaitable[None]]


def serve(scenario: Scenario, engine: Any, *, settings: config.Settings | None = None,
          env: dict[str, str] | None = None, upstream_url: str | None = None,
          hooks_here: bool = True) -> FakeUpstream:
    """Run ``scenario(client, upstream, gateway)`` against a gateway in front of a fresh
    fake upstream; both servers are stopped when it returns.  Checks the upstream
    received no planted value."""
    upstream = FakeUpstream()

    async def main() -> None:
        async with TestServer(upstream.app(), host="127.0.0.1") as up_server:
            url = upstream_url or str(up_server.make_url("")).rstrip("/")
            gateway = Gateway(settings or config.Settings(), env or dict(os.environ),
                              token=TOKEN, upstream=url, engine=engine,
                              hooks_here=hooks_here)
            gateway.build()
            async with TestClient(TestServer(gateway.app(), host="127.0.0.1")) as client:
                await scenario(client, upstream, gateway)

    asyncio.run(main())
    found = leaks(upstream.everything(), PLANTED)
    assert not found  # labels only, never the values
    return upstream


def messages_body(text: str = f"meu CPF é {CPF} e o e-mail {EMAIL}", **extra: Any) -> bytes:
    return json.dumps({"model": "claude-test", "max_tokens": 64, "stream": True, **extra,
                       "messages": [{"role": "user", "content": text}]}).encode()


async def clean_json(response: Any) -> Any:
    """A 200 answer holding no planted value, parsed."""
    assert response.status == 200
    raw = await response.read()
    found = leaks(raw, PLANTED)
    assert not found  # labels only, never the values
    return json.loads(raw)


async def refusal_of(response: Any) -> dict[str, Any]:
    """A refusal: 500 with ``x-should-retry: false``, which Claude Code shows at once
    instead of retrying (see FAIL_STATUS in redactor/gateway/app.py)."""
    assert response.headers.get("x-should-retry") == "false"
    return await error_of(response, FAIL_STATUS)


async def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status == status
    raw = await response.read()
    found = leaks(raw, PLANTED)
    assert not found
    body: dict[str, Any] = json.loads(raw)
    assert body["type"] == "error"
    assert set(body["error"]) == {"type", "message"}
    return body["error"]


# ---------------------------------------------------------------------- the guards

def test_without_the_token_nothing_is_served(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        near = TOKEN[:-1] + ("1" if TOKEN.endswith("0") else "0")  # one digit off
        for headers in ({}, {identity.HEADER: ""}, {identity.HEADER: near},
                        {identity.HEADER: TOKEN + "0"}, {identity.HEADER: "é" * 64}):
            for method, path in (("POST", "/v1/messages"), ("POST", "/v1/messages/count_tokens"),
                                 ("GET", "/v1/models"), ("GET", "/redactor/v1/status"),
                                 ("POST", "/redactor/v1/dry-run"),
                                 ("POST", "/hooks/claude/UserPromptSubmit")):
                response = await client.request(method, path, data=messages_body(),
                                                headers=headers)
                error = await error_of(response, 403)
                assert error["type"] == "permission_error"
        assert upstream.received == []

    serve(scenario, engine)


def test_hello_proves_the_token_without_it(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        nonce = secrets.token_hex(16)
        response = await client.get(identity.HELLO_PATH, params={"nonce": nonce})
        assert response.status == 200
        answer = await response.json()
        assert answer == {"gateway": "redactor", "proof": identity.proof(TOKEN, nonce)}
        assert TOKEN not in json.dumps(answer)
        for bad in ("", "xyz", "ab" * 40, "0123456789ABCDEF"):
            response = await client.get(identity.HELLO_PATH, params={"nonce": bad})
            await error_of(response, 400)
        assert upstream.received == []

    serve(scenario, engine)


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("POST", "/v1/complete"), ("POST", "/v1/messages/batches"),
    ("GET", "/v1/messages"), ("POST", "/v1/files"), ("DELETE", "/v1/models/x"),
    ("POST", "/v1/messages/count_tokens/x"), ("GET", "/%2e%2e/etc/passwd"),
    ("POST", "/V1/MESSAGES"), ("GET", "/redactor/v1/unknown"),
])
def test_an_unknown_endpoint_is_404_and_never_proxied(engine: Any, method: str,
                                                       path: str) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.request(method, path, data=messages_body(), headers=AUTH)
        assert response.status in (404, 405)
        error = await error_of(response, response.status)
        if response.status == 404:
            assert error["type"] == "not_found_error"
        assert upstream.received == []

    serve(scenario, engine)


# ---------------------------------------------------------------------- forwarding

FORWARDED_HEADERS = {
    "x-api-key": "sk-ant-test-AbC123_-xyz",
    "anthropic-version": "2023-06-01",
    "anthropic-beta": "claude-code-20250219,interleaved-thinking-2025-05-14,"
                      "fine-grained-tool-streaming-2025-05-14",
    "authorization": "Bearer tok.With+Odd/Chars==",
}


def test_messages_are_redacted_and_headers_forwarded_as_they_are(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages?beta=true", data=messages_body(),
                                     headers={**AUTH, **FORWARDED_HEADERS,
                                              "content-type": "application/json"})
        assert response.status == 200
        assert response.headers["request-id"] == "req_1"
        assert await response.read() == b"".join(CHUNKS)
        (received,) = upstream.received
        assert received.method == "POST"
        assert received.path_qs == "/v1/messages?beta=true"
        lowered = {k.lower(): v for k, v in received.headers.items()}
        for name, value in FORWARDED_HEADERS.items():
            assert lowered[name] == value
        assert identity.HEADER.lower() not in lowered
        assert TOKEN not in json.dumps(received.headers)
        assert int(lowered["content-length"]) == len(received.body)
        body = json.loads(received.body)
        assert body["messages"][0]["content"] == "meu CPF é [CPF] e o e-mail [EMAIL]"
        assert body["model"] == "claude-test" and body["stream"] is True

    serve(scenario, engine)


def test_a_body_with_nothing_to_redact_reaches_the_upstream_as_claude_code_writes_it(
        engine: Any) -> None:
    # Spaces go; a compact UTF-8 body (JSON.stringify's form) is the same bytes.
    raw = b'{ "model":"claude-test", "max_tokens":64,\n "messages":[{"role":"user",' \
          b'"content":"ol\xc3\xa1, tudo bem?"}] }'
    compact = b'{"model":"claude-test","max_tokens":64,"messages":[{"role":"user",' \
              b'"content":"ol\xc3\xa1, tudo bem?"}]}'

    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        for body in (raw, compact):
            response = await client.post("/v1/messages", data=body, headers=AUTH)
            assert response.status == 200
            await response.read()
        assert [one.body for one in upstream.received] == [compact, compact]

    serve(scenario, engine)


def test_a_repeated_key_reaches_the_upstream_once_as_the_gateway_read_it(engine: Any) -> None:
    body = b'{"messages":[{"role":"user","content":"ok","content":"CPF ' + CPF.encode() + \
        b'"}],"model":"claude-test","model":"claude-test"}'

    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=body, headers=AUTH)
        assert response.status == 200
        await response.read()
        sent = upstream.received[0].body
        assert sent.count(b'"content"') == 1 and sent.count(b'"model"') == 1
        assert json.loads(sent)["messages"][0]["content"].startswith("CPF [")

    serve(scenario, engine)


def test_the_answer_streams_chunk_by_chunk(engine: Any) -> None:
    # The upstream sends its first chunk and then waits until the client has read it:
    # a gateway that buffered the answer would hold that chunk until the upstream gave
    # up waiting, and the events would show it.
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        upstream.hold = True
        upstream.gate = asyncio.Event()
        response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
        assert response.status == 200
        first = await response.content.readany()
        upstream.events.append("client got the first chunk")
        upstream.gate.set()
        rest = await response.read()
        assert first and CHUNKS[0].startswith(first)
        assert first + rest == b"".join(CHUNKS)

    upstream = serve(scenario, engine)
    events = upstream.events
    assert "upstream gave up waiting" not in events
    assert events.index("client got the first chunk") < events.index("upstream sent last")
    assert events.index("upstream sent 0") < events.index("client got the first chunk")


def test_count_tokens_is_redacted_too(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        body = json.dumps({"model": "claude-test", "system": f"cliente {EMAIL}",
                           "messages": [{"role": "user", "content": f"CPF {CPF_BARE}"}]})
        response = await client.post("/v1/messages/count_tokens", data=body, headers=AUTH)
        assert response.status == 200
        assert await response.json() == {"input_tokens": 42}
        (received,) = upstream.received
        assert received.path_qs == "/v1/messages/count_tokens"
        assert json.loads(received.body)["messages"][0]["content"] == "CPF [CPF]"

    serve(scenario, engine)


def test_models_are_forwarded(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        for path in ("/v1/models?limit=5", "/v1/models/claude-test"):
            response = await client.get(path, headers={**AUTH, **FORWARDED_HEADERS})
            assert response.status == 200
            assert response.headers["request-id"] == "req_models"
            assert await response.json() == {"data": [{"id": "claude-test"}]}
        assert [(r.method, r.path_qs) for r in upstream.received] == [
            ("GET", "/v1/models?limit=5"), ("GET", "/v1/models/claude-test")]
        assert all(r.body == b"" for r in upstream.received)

    serve(scenario, engine)


# ---------------------------------------------------------------------- failing closed

def test_a_refused_shape_is_refused_and_nothing_goes_upstream(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        bodies = [b"not json " + CPF.encode(),
                  json.dumps({"messages": [{"role": "user", "content": [
                      {"type": "hologram", "text": CPF}]}]}).encode(),
                  json.dumps({"notes": f"ligar para {CPF}", "messages": []}).encode()]
        for body in bodies:
            response = await client.post("/v1/messages", data=body, headers=AUTH)
            error = await refusal_of(response)
            assert error["type"] == "api_error"
        response = await client.post("/v1/messages", data=messages_body(),
                                     headers={**AUTH, "Content-Encoding": "gzip"})
        await refusal_of(response)
        assert upstream.received == []
        assert gateway.counters.refused == len(bodies) + 1

    serve(scenario, engine)


def test_a_forced_fault_is_refused_and_nothing_goes_upstream(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
        error = await refusal_of(response)
        assert "RuntimeError" in error["message"]
        assert upstream.received == []

    # The session's switch file (tests/conftest.py) turns the drills on.
    assert os.environ.get("REDACTOR_TEST_SWITCHES")
    serve(scenario, engine, env={**os.environ, "REDACTOR_TEST_FAULT": "gateway"})


def test_a_fault_variable_without_the_switch_file_does_nothing(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
        assert response.status == 200
        await response.read()
        assert len(upstream.received) == 1

    env = {**os.environ, "REDACTOR_TEST_FAULT": "gateway"}
    env.pop("REDACTOR_TEST_SWITCHES")
    serve(scenario, engine, env=env)


class StalledEngine:
    """An engine whose ``redact`` waits until the test releases it."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.release = threading.Event()
        self.entered = threading.Event()

    def redact(self, text: str, names: Any = None) -> Any:
        self.entered.set()
        self.release.wait(120)
        return self.real.redact(text, names=names)

    def redact_json(self, value: Any, keys_and_numbers: bool = False) -> Any:
        return self.real.redact_json(value, keys_and_numbers=keys_and_numbers)


def test_a_budget_overrun_is_refused_and_nothing_goes_upstream(engine: Any) -> None:
    stalled = StalledEngine(engine)

    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        try:
            response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
            error = await refusal_of(response)
            assert "TimeoutError" in error["message"]
            assert stalled.entered.is_set()
        finally:
            stalled.release.set()
        assert upstream.received == []

    serve(scenario, stalled, settings=config.Settings().with_overrides(gateway_time_budget=1.0))


def test_an_unreachable_upstream_is_502(engine: Any) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
        error = await error_of(response, 502)
        assert error["type"] == "api_error"

    serve(scenario, engine, upstream_url=f"http://127.0.0.1:{port}")


def test_dry_run_answers_the_redacted_body_and_sends_nothing(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/redactor/v1/dry-run", data=messages_body(),
                                     headers=AUTH)
        answer = await clean_json(response)
        assert answer["changed"] is True
        assert {"BR_CPF", "EMAIL_ADDRESS"} <= set(answer["entities"])
        assert answer["body"]["messages"][0]["content"] == "meu CPF é [CPF] e o e-mail [EMAIL]"
        response = await client.post("/redactor/v1/dry-run", data=b"[1]", headers=AUTH)
        await refusal_of(response)
        assert upstream.received == []

    serve(scenario, engine)


def test_status_counts_and_names_no_value(engine: Any) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=messages_body(), headers=AUTH)
        await response.read()
        response = await client.get("/redactor/v1/status", headers=AUTH)
        raw = await response.read()
        found = leaks(raw, PLANTED)
        assert not found
        status = json.loads(raw)
        assert status["requests"] == 1 and status["forwarded"] == 1
        assert TOKEN not in raw.decode()

    serve(scenario, engine)


# ---------------------------------------------------------------------- hooks

@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A warm engine in a short private runtime folder, started and answering before
    the test (so that the hook route reaches it over its socket and never has to start
    one itself: engines started in the background by several calls could outlive the
    test), and stopped afterwards."""
    from redactor.serve.control import request_status, spawn_detached

    folder = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    os.chmod(folder, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    try:
        spawn_detached()
        until = time.monotonic() + 120  # a bound on the wait, not a measured time
        status = request_status()
        while (status is None or not status.get("ready")) and time.monotonic() < until:
            time.sleep(0.2)
            status = request_status()
        if status is None or not status.get("ready"):
            pytest.fail("the warm engine did not start", pytrace=False)
        yield folder
        after = request_status()
        assert after is not None and after["pid"] == status["pid"]  # the same engine
        assert after["requests"] > 0  # it answered the hook calls
    finally:
        stop_engine(dict(os.environ))
        shutil.rmtree(folder, ignore_errors=True)


def hook_payload(event: str, tmp: str, **extra: Any) -> bytes:
    return json.dumps({"session_id": "gw-test", "transcript_path": f"{tmp}/t.jsonl",
                       "cwd": tmp, "permission_mode": "default", "hook_event_name": event,
                       **extra}).encode()


def test_the_hook_route_answers_from_the_warm_engine(engine: Any, runtime: str,
                                                     tmp_path: Any) -> None:
    # A project with settings of its own: no engine for them in the gateway's process
    # (building one there would stall it for seconds), so the warm engine answers.
    work = str(tmp_path)
    (tmp_path / ".redactor.toml").write_text("[detection]\nscore_threshold = 0.3\n")

    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        prompt = hook_payload("UserPromptSubmit", work, prompt=f"meu CPF é {CPF}")
        response = await client.post("/hooks/claude/UserPromptSubmit", data=prompt,
                                     headers=AUTH)
        answer = await clean_json(response)
        assert answer["decision"] == "block" and "CPF" in answer["reason"]

        tool = hook_payload("PreToolUse", work, tool_name="Bash", tool_use_id="toolu_1",
                            tool_input={"command": f"grep {CPF_BARE} clientes.csv"})
        response = await client.post("/hooks/claude/PreToolUse", data=tool, headers=AUTH)
        output = (await clean_json(response))["hookSpecificOutput"]
        assert output["hookEventName"] == "PreToolUse"
        assert "updatedInput" in output or output.get("permissionDecision") == "deny"

        clean = hook_payload("UserPromptSubmit", work, prompt="olá, tudo bem?")
        response = await client.post("/hooks/claude/UserPromptSubmit", data=clean,
                                     headers=AUTH)
        assert json.loads(await response.read()) == {}
        assert gateway.counters.hooks == 3
        assert (gateway.counters.hooks_here, gateway.counters.hooks_warm) == (0, 3)
        assert upstream.received == []

    serve(scenario, engine)


HOOK_EVENTS: dict[str, dict[str, Any]] = {
    "UserPromptSubmit": {"prompt": f"meu CPF é {CPF}"},
    "UserPromptSubmit-clean": {"prompt": "olá, tudo bem?"},
    "PreToolUse": {"tool_name": "Bash", "tool_use_id": "toolu_1",
                   "tool_input": {"command": f"grep {CPF_BARE} clientes.csv"}},
    "PostToolUse": {"tool_name": "Bash", "tool_use_id": "toolu_1",
                    "tool_input": {"command": "cat clientes.csv"},
                    "tool_response": {"stdout": f"Maria;{CPF};{EMAIL}", "stderr": "",
                                      "interrupted": False}},
    "SessionStart": {"source": "startup"},
}


@pytest.fixture
def private_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A user whose configuration and runtime folders are the test's own (no warm engine
    can be reached or started by accident: its socket would be here)."""
    home = tmp_path / "home"
    (home / ".config" / "redactor").mkdir(parents=True)
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_RUNTIME_DIR": str(runtime)}
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"):
        monkeypatch.setenv(name, env[name])
    return env


def test_hooks_are_answered_in_process_as_the_command_hooks_answer(
        private_home: dict[str, str], tmp_path: Any) -> None:
    from redactor.serve import protocol, worker

    work = tmp_path / "project"
    work.mkdir()
    env = private_home
    hook_env = {k: v for k, v in env.items()
                if k in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME") or k.startswith("REDACTOR_")}

    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        for name, fields in HOOK_EVENTS.items():
            event = name.split("-")[0]
            payload = hook_payload(event, str(work), **fields)
            response = await client.post(f"/hooks/claude/{event}", data=payload, headers=AUTH)
            got = await clean_json(response)
            # What the warm engine's worker answers to the same event (the same request
            # the gateway would send it), translated the same way.
            request = protocol.build_request(
                payload, host=b"claude", cwd=str(work),
                environ={k.encode(): v.encode() for k, v in hook_env.items()})
            expected = hook_answer(event, *protocol.parse_answer(worker.answer(request)))
            assert got == json.loads(expected), name
        assert gateway.counters.hooks_here == len(HOOK_EVENTS)
        assert gateway.counters.hooks_warm == 0
        assert upstream.received == []

    serve(scenario, None, settings=config.load_settings(env=env), env=env)


def test_a_hook_overrunning_its_budget_in_process_fails_closed_at_the_budget(
        private_home: dict[str, str], tmp_path: Any) -> None:
    env = private_home
    (Path(env["XDG_CONFIG_HOME"]) / "redactor" / "config.toml").write_text(
        "[hooks]\ntime_budget_seconds = 0.5\n")
    work = tmp_path / "project"
    work.mkdir()
    stalled = {**env, "REDACTOR_TEST_DELAY": "3"}

    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        payload = hook_payload("PreToolUse", str(work), **HOOK_EVENTS["PreToolUse"])
        response = await client.post("/hooks/claude/PreToolUse", data=payload, headers=AUTH)
        output = (await clean_json(response))["hookSpecificOutput"]
        # Given up at the budget, 1.5 s (the stalled call sleeps on), not answered by it: the
        # fail-closed denial names the timeout's class.
        assert output["permissionDecision"] == "deny"
        assert "HookTimeout" in output["permissionDecisionReason"]
        assert gateway.counters.hooks_here == 1

    serve(scenario, None, settings=config.load_settings(env=stalled), env=stalled)


def test_an_unreadable_hook_event_fails_closed(engine: Any, runtime: str) -> None:
    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/hooks/claude/PreToolUse", data=b"{not json " + CPF.encode(),
                                     headers=AUTH)
        answer = await clean_json(response)
        assert answer.get("continue") is False or \
            answer.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"

    serve(scenario, engine)


@pytest.mark.parametrize(("event", "code", "out", "err", "expected"), [
    ("PreToolUse", 2, b"", b"blocked: CPF\n",
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "blocked: CPF"}}),
    ("UserPromptSubmit", 2, b"", b"no\n", {"decision": "block", "reason": "no"}),
    ("PostToolUse", 2, b"", b"", {"decision": "block", "reason": "redactor: blocked"}),
    ("Stop", 2, b"", b"x", {"decision": "block", "reason": "x"}),
    ("SessionStart", 2, b"", b"why", {"continue": False, "stopReason": "why"}),
    ("", 2, b"", b"why", {"continue": False, "stopReason": "why"}),
    ("PreToolUse", 2, b'{"continue": false, "stopReason": "s"}\n', b"s\n",
     {"continue": False, "stopReason": "s",
      "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "s"}}),
    ("PreToolUse", 0, b'{"hookSpecificOutput": {"hookEventName": "PreToolUse"}}\n', b"",
     {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}),
    ("UserPromptSubmit", 0, b"", b"", {}),
    ("UserPromptSubmit", 0, b"not json\n", b"", {}),
    ("UserPromptSubmit", 0, b"[1, 2]\n", b"", {}),
    ("UserPromptSubmit", 1, b"", b"error\n", {}),
    ("PreToolUse", 2, b"", "motivo: não\n".encode(),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "motivo: não"}}),
])
def test_hook_answer_translates_exit_codes(event: str, code: int, out: bytes, err: bytes,
                                           expected: dict[str, Any]) -> None:
    assert json.loads(hook_answer(event, code, out, err)) == expected


def test_hook_answer_exit_2_denies_even_when_stdout_has_its_own_output() -> None:
    # Exit 2 blocks whatever stdout holds; the HTTP form must deny too.
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                             "additionalContext": "note"}}).encode()
    answer = json.loads(hook_answer("PreToolUse", 2, out, b"blocked"))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    out = json.dumps({"decision": "approve"}).encode()
    answer = json.loads(hook_answer("UserPromptSubmit", 2, out, b"blocked"))
    assert answer["decision"] == "block"


def test_a_body_over_the_limit_is_an_anthropic_shaped_413(engine: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.gateway import app as gateway_app

    monkeypatch.setattr(gateway_app, "MAX_BODY", 4096)

    async def scenario(client: Any, upstream: FakeUpstream, _: Gateway) -> None:
        response = await client.post("/v1/messages", data=messages_body("x" * 8192),
                                     headers=AUTH)
        error = await error_of(response, 413)
        assert error["type"] == "request_too_large"
        assert upstream.received == []

    serve(scenario, engine)


def test_with_every_hook_thread_busy_the_warm_engine_answers(
        private_home: dict[str, str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Calls overrunning their budget keep their threads: the next ones must not queue
    # behind them.  (The warm engine's own answer is tested above; here, only the route.)
    from redactor.gateway import app as module

    asked: list[bytes] = []

    def warm_engine(raw: bytes, env: dict[str, str]) -> tuple[int, bytes, bytes]:
        asked.append(raw)
        return 0, b"{}", b""

    monkeypatch.setattr(module, "_ask_engine", warm_engine)
    work = tmp_path / "project"
    work.mkdir()
    env = private_home

    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        payload = hook_payload("UserPromptSubmit", str(work), prompt="olá")
        gateway._hooks_running = module.HOOK_THREADS
        response = await client.post("/hooks/claude/UserPromptSubmit", data=payload,
                                     headers=AUTH)
        assert json.loads(await response.read()) == {}
        assert asked == [payload]
        gateway._hooks_running = 0
        response = await client.post("/hooks/claude/UserPromptSubmit", data=payload,
                                     headers=AUTH)
        assert json.loads(await response.read()) == {}
        assert asked == [payload]
        assert (gateway.counters.hooks_here, gateway.counters.hooks_warm) == (1, 1)

    serve(scenario, None, settings=config.load_settings(env=env), env=env)


def test_a_failure_in_the_hook_route_is_a_fail_closed_answer_not_a_500(
        private_home: dict[str, str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Claude Code lets an event through on an error status unless onFailure says block.
    from redactor.gateway import app as module

    def broken(*_: Any) -> None:
        raise FileNotFoundError("the working folder is gone")

    monkeypatch.setattr(module, "_answer_here", broken)
    monkeypatch.setattr(module, "_ask_engine", broken)
    work = tmp_path / "project"
    work.mkdir()
    env = private_home

    async def scenario(client: Any, upstream: FakeUpstream, gateway: Gateway) -> None:
        for here in (True, False):
            gateway.hooks_here = here
            payload = hook_payload("PreToolUse", str(work), **HOOK_EVENTS["PreToolUse"])
            response = await client.post("/hooks/claude/PreToolUse", data=payload,
                                         headers=AUTH)
            output = (await clean_json(response))["hookSpecificOutput"]
            assert output["permissionDecision"] == "deny"
            assert "FileNotFoundError" in output["permissionDecisionReason"]
            assert "working folder" not in output["permissionDecisionReason"]

    serve(scenario, None, settings=config.load_settings(env=env), env=env)

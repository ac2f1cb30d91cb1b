"""The gateway with pseudonyms: the upstream gets tokens, the person sees the values in
the streamed answer (a token split across events included), tool calls keep their
tokens, and the next turn's history reaches the upstream with the tokens it wrote."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from redactor import config
from redactor.gateway import identity
from redactor.gateway.app import SESSION_HEADER, Gateway
from tests.leaks import leaks

TOKEN = secrets.token_hex(32)
CPF = "529.982.247-25"
PLANTED = (CPF, "52998224725")
TOKEN_RE = re.compile(r"\[CPF:[0-9a-f]{16}\]")


class EchoUpstream:
    """Answers with the first CPF token of the request, split in the middle, as text,
    and calls a tool with it; records the raw bodies."""

    def __init__(self, stream: bool = True) -> None:
        self.bodies: list[bytes] = []
        self.headers: list[dict[str, str]] = []
        self.stream = stream

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/messages", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        self.bodies.append(raw)
        self.headers.append(dict(request.headers))
        found = TOKEN_RE.findall(raw.decode())
        token = found[0] if found else "[CPF:none]"
        text = f"O cliente {token} está ativo."
        if not self.stream:
            return web.json_response({"type": "message", "content": [
                {"type": "text", "text": text},
                {"type": "tool_use", "id": "t1", "name": "Bash",
                 "input": {"command": f"grep '{token}' f"}}]})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        cut = text.index(token) + 9
        events = [{"type": "message_start", "message": {"id": "m", "content": []}},
                  {"type": "content_block_start", "index": 0,
                   "content_block": {"type": "text", "text": ""}},
                  {"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": text[:cut]}},
                  {"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": text[cut:]}},
                  {"type": "content_block_stop", "index": 0},
                  {"type": "content_block_start", "index": 1, "content_block": {
                      "type": "tool_use", "id": "t1", "name": "Bash", "input": {}}},
                  {"type": "content_block_delta", "index": 1, "delta": {
                      "type": "input_json_delta",
                      "partial_json": json.dumps({"command": f"grep '{token}' f"})}},
                  {"type": "content_block_stop", "index": 1},
                  {"type": "message_stop"}]
        for data in events:
            payload = f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()
            # Written in two pieces: the gateway must frame events itself.
            await response.write(payload[:7])
            await response.write(payload[7:])
        await response.write_eof()
        return response


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_STATE_HOME": str(tmp_path / "state")}


def run(env: dict[str, str], scenario: Any, *, stream: bool = True,
        settings: config.Settings | None = None) -> EchoUpstream:
    from redactor.engine import Redactor

    settings = settings or config.Settings(pseudonyms=True)
    engine = Redactor(config.for_hooks(settings, env), environ=env)
    upstream = EchoUpstream(stream)

    async def main() -> None:
        async with TestServer(upstream.app(), host="127.0.0.1") as up_server:
            gateway = Gateway(settings, env, token=TOKEN, engine=engine,
                              upstream=str(up_server.make_url("")).rstrip("/"))
            gateway.build()
            async with TestClient(TestServer(gateway.app(), host="127.0.0.1")) as client:
                await scenario(client)

    asyncio.run(main())
    for body in upstream.bodies:
        assert not leaks(body, PLANTED)
    return upstream


def body(*messages: dict[str, Any], stream: bool = True) -> bytes:
    return json.dumps({"model": "claude-test", "max_tokens": 64, "stream": stream,
                       "messages": list(messages)}, ensure_ascii=False).encode()


def headers(session: str) -> dict[str, str]:
    return {identity.HEADER: TOKEN, SESSION_HEADER: session}


def deltas(raw: bytes) -> tuple[str, str]:
    text, tool = [], []
    for line in raw.split(b"\n"):
        if line.startswith(b"data: "):
            delta = json.loads(line[6:]).get("delta", {})
            if delta.get("type") == "text_delta":
                text.append(delta["text"])
            if delta.get("type") == "input_json_delta":
                tool.append(delta["partial_json"])
    return "".join(text), "".join(tool)


def test_the_person_sees_the_value_and_the_upstream_only_tokens(env: dict[str, str]) -> None:
    seen: dict[str, str] = {}

    async def scenario(client: Any) -> None:
        prompt = {"role": "user", "content": f"o cliente {CPF} está ativo?"}
        response = await client.post("/v1/messages", data=body(prompt), headers=headers("s1"))
        assert response.status == 200
        seen["text"], seen["tool"] = deltas(await response.read())
        # The next turn: Claude Code sends the answer it showed, values and all.
        answer = {"role": "assistant", "content": [{"type": "text", "text": seen["text"]}]}
        again = await client.post("/v1/messages", headers=headers("s1"), data=body(
            prompt, answer, {"role": "user", "content": "e agora?"}))
        assert again.status == 200
        await again.read()

    upstream = run(env, scenario)
    assert seen["text"] == f"O cliente {CPF} está ativo."
    token = TOKEN_RE.findall(upstream.bodies[0].decode())[0]
    assert token in seen["tool"] and CPF not in seen["tool"]  # tool input keeps its token
    # The history's assistant text is the upstream's own bytes again.
    history = json.loads(upstream.bodies[1])["messages"][1]["content"][0]["text"]
    assert history == f"O cliente {token} está ativo."
    assert upstream.headers[0].get("Accept-Encoding") == "identity"


def test_a_token_from_another_session_is_not_shown(env: dict[str, str]) -> None:
    got: dict[str, str] = {}

    async def scenario(client: Any) -> None:
        prompt = {"role": "user", "content": f"o cliente {CPF} está ativo?"}
        first = await client.post("/v1/messages", data=body(prompt), headers=headers("s1"))
        got["s1"] = deltas(await first.read())[0]

    upstream = run(env, scenario)
    token = TOKEN_RE.findall(upstream.bodies[0].decode())[0]

    async def second(client: Any) -> None:
        other = await client.post("/v1/messages", headers=headers("s2"), data=body(
            {"role": "user", "content": f"e o {token}?"}))
        got["s2"] = deltas(await other.read())[0]

    run(env, second)
    assert CPF in got["s1"] and got["s2"] == f"O cliente {token} está ativo."


def test_a_whole_json_answer_is_shown_with_values(env: dict[str, str]) -> None:
    got: dict[str, Any] = {}

    async def scenario(client: Any) -> None:
        prompt = {"role": "user", "content": f"o cliente {CPF} está ativo?"}
        response = await client.post("/v1/messages", data=body(prompt, stream=False),
                                     headers=headers("s1"))
        got.update(json.loads(await response.read()))

    run(env, scenario, stream=False)
    assert got["content"][0]["text"] == f"O cliente {CPF} está ativo."
    assert TOKEN_RE.search(got["content"][1]["input"]["command"])


def test_display_off_shows_tokens(env: dict[str, str]) -> None:
    got: dict[str, str] = {}

    async def scenario(client: Any) -> None:
        prompt = {"role": "user", "content": f"o cliente {CPF} está ativo?"}
        response = await client.post("/v1/messages", data=body(prompt), headers=headers("s1"))
        got["text"] = deltas(await response.read())[0]

    run(env, scenario, settings=config.Settings(pseudonyms=True, pseudonym_display=False))
    assert CPF not in got["text"] and TOKEN_RE.search(got["text"])

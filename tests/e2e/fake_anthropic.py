"""A scripted stand-in for the Anthropic Messages API, for the real Claude Code CLI.

It listens on 127.0.0.1 (port chosen by the OS), records every request, and answers
statelessly: when the last user message carries a tool_result, the turn ends with
text; otherwise the model "calls" the scripted tool.  Streaming (SSE) and plain JSON
responses are both served.  Used as a context manager, it stops when the block ends.
"""

from __future__ import annotations

import json
import threading
import uuid
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.e2e.loopback import LoopbackServer, running


@dataclass
class Script:
    """What the fake model does: call ``tool`` with ``tool_input``, then say ``final_text``."""

    tool: str | None = "Bash"
    tool_input: dict[str, Any] = field(default_factory=dict)
    final_text: str = "FAKE-MODEL-DONE"
    #: A ``thinking`` block (text, signature) sent before the tool call, when set.
    thinking: tuple[str, str] | None = None


@dataclass
class Recorded:
    method: str
    path: str
    body: Any
    #: The body's bytes as they arrived, and the request headers (names lower-cased).
    raw: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


class FakeAnthropic(LoopbackServer):
    """The server; ``requests`` lists what arrived, ``messages_posts`` the model calls."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._listen()

    @property
    def url(self) -> str:
        return self.origin

    @property
    def messages_posts(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r.body for r in self.requests
                    if r.method == "POST" and r.path.endswith("/v1/messages")]

    @property
    def messages_raw(self) -> list[bytes]:
        """The bodies of the model calls, byte for byte."""
        with self._lock:
            return [r.raw for r in self.requests
                    if r.method == "POST" and r.path.endswith("/v1/messages")]

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks of the last model call (what the model got back)."""
        posts = self.messages_posts
        if not posts:
            return []
        blocks: list[dict[str, Any]] = []
        for message in posts[-1].get("messages", []):
            content = message.get("content")
            if message.get("role") == "user" and isinstance(content, list):
                blocks.extend(b for b in content if b.get("type") == "tool_result")
        return blocks

    # ------------------------------------------------------------------ answers

    def reply_blocks(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        last = users[-1]["content"] if users else []
        has_result = isinstance(last, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in last)
        if has_result or self.script.tool is None or not body.get("tools"):
            return [{"type": "text", "text": self.script.final_text}], "end_turn"
        block = {"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:24]}",
                 "name": self.script.tool, "input": self.script.tool_input}
        if self.script.thinking is not None:
            thought, signature = self.script.thinking
            return [{"type": "thinking", "thinking": thought, "signature": signature},
                    block], "tool_use"
        return [block], "tool_use"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _send(self, status: int, payload: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                with fake._lock:
                    fake.requests.append(Recorded("GET", self.path, None))
                self._send(404, b'{"type":"error"}', "application/json")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                path = self.path.split("?", 1)[0]
                headers = {name.lower(): value for name, value in self.headers.items()}
                with fake._lock:
                    fake.requests.append(Recorded("POST", path, body, raw, headers))
                if path.endswith("/count_tokens"):
                    self._send(200, b'{"input_tokens": 100}', "application/json")
                    return
                if not path.endswith("/v1/messages"):
                    self._send(404, b'{"type":"error"}', "application/json")
                    return
                blocks, stop = fake.reply_blocks(body)
                model = body.get("model", "claude-fake")
                if body.get("stream"):
                    self._send(200, _sse(blocks, stop, model), "text/event-stream")
                else:
                    message = {"id": f"msg_{uuid.uuid4().hex[:20]}", "type": "message",
                               "role": "assistant", "model": model, "content": blocks,
                               "stop_reason": stop, "stop_sequence": None,
                               "usage": {"input_tokens": 10, "output_tokens": 10}}
                    self._send(200, json.dumps(message).encode(), "application/json")

        return Handler


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def _sse(blocks: list[dict[str, Any]], stop: str, model: str) -> bytes:
    parts = [_event("message_start", {"type": "message_start", "message": {
        "id": f"msg_{uuid.uuid4().hex[:20]}", "type": "message", "role": "assistant",
        "model": model, "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0}}}),
        _event("ping", {"type": "ping"})]
    for index, block in enumerate(blocks):
        deltas: list[dict[str, Any]] = []
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        elif block["type"] == "thinking":
            start = {"type": "thinking", "thinking": "", "signature": ""}
            delta = {"type": "thinking_delta", "thinking": block["thinking"]}
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        parts.append(_event("content_block_start", {"type": "content_block_start",
                                                    "index": index, "content_block": start}))
        for one in (delta, *deltas):
            parts.append(_event("content_block_delta", {"type": "content_block_delta",
                                                        "index": index, "delta": one}))
        parts.append(_event("content_block_stop", {"type": "content_block_stop",
                                                   "index": index}))
    parts.append(_event("message_delta", {"type": "message_delta",
                                          "delta": {"stop_reason": stop, "stop_sequence": None},
                                          "usage": {"output_tokens": 10}}))
    parts.append(_event("message_stop", {"type": "message_stop"}))
    return "".join(parts).encode()


def serving(script: Script) -> AbstractContextManager[FakeAnthropic]:
    """Start a fake server for one test and stop it afterwards, whatever happens."""
    return running(FakeAnthropic(script))

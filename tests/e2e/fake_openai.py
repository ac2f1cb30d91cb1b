"""A scripted OpenAI-compatible chat server on 127.0.0.1 for the real hermes-agent.

``/models`` lists one model; ``/chat/completions`` answers, streaming or not: with a
scripted tool call while no ``role: tool`` message is present, with text after.
Every request is recorded.  Used as a context manager, it stops when the block ends.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.e2e.loopback import LoopbackServer, running


@dataclass
class ChatScript:
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    answer: str = "FAKE-MODEL-ANSWER"


class FakeOpenAI(LoopbackServer):
    def __init__(self, script: ChatScript) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._listen()

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    def _reply(self, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        has_tool = any(m.get("role") == "tool" for m in body.get("messages", [])
                       if isinstance(m, dict))
        if self.script.tool and not has_tool and body.get("tools"):
            call = {"id": "call_fake_1", "type": "function",
                    "function": {"name": self.script.tool,
                                 "arguments": json.dumps(self.script.arguments)}}
            return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        return {"role": "assistant", "content": self.script.answer}, "stop"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _json(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                with fake._lock:
                    fake.requests.append({"method": "GET", "path": self.path, "body": None})
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{
                        "id": "fake-model", "object": "model", "owned_by": "fake",
                        "context_length": 128000}]})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?", 1)[0]
                with fake._lock:
                    fake.requests.append({"method": "POST", "path": path, "body": body})
                if not path.endswith("/chat/completions"):
                    self._json(404, {"error": "not found"})
                    return
                message, finish = fake._reply(body)
                usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
                if not body.get("stream"):
                    self._json(200, {"id": "chatcmpl-fake", "object": "chat.completion",
                                     "created": int(time.time()), "model": "fake-model",
                                     "choices": [{"index": 0, "message": message,
                                                  "finish_reason": finish}],
                                     "usage": usage})
                    return
                chunks = [{"role": "assistant", "content": ""}]
                if message.get("tool_calls"):
                    call = dict(message["tool_calls"][0], index=0)
                    chunks.append({"tool_calls": [call]})
                else:
                    chunks.append({"content": message["content"]})
                lines = []
                for delta in chunks:
                    lines.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                                  "created": int(time.time()), "model": "fake-model",
                                  "choices": [{"index": 0, "delta": delta,
                                               "finish_reason": None}]})
                lines.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                              "created": int(time.time()), "model": "fake-model",
                              "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                              "usage": usage})
                data = "".join(f"data: {json.dumps(x)}\n\n" for x in lines) + "data: [DONE]\n\n"
                encoded = data.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(encoded)))
                self.end_headers()
                self.wfile.write(encoded)

        return Handler


def serving(script: ChatScript) -> AbstractContextManager[FakeOpenAI]:
    """Start a fake server for one test and stop it afterwards, whatever happens."""
    return running(FakeOpenAI(script))

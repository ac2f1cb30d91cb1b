"""A scripted stand-in for the OpenAI Responses API, for the real Codex CLI.

Codex talks to a custom model provider with ``wire_api = "responses"``: every model
turn is one ``POST /v1/responses`` answered as a server-sent event stream
(``response.created``, one ``response.output_item.done`` per output item, then
``response.completed``).  This server answers each such request with the next step
of a fixed script: either a function call (by default the ``exec_command`` shell
tool Codex offers the model) or a plain assistant message.  Once the script runs
out, every further request gets the message ``done``.

Every request body is recorded, so a test can check exactly what reached the model.
Codex 0.171 calls nothing else when the provider is set up as in the Codex notes
(``docs/codex-gemini-hooks.md``); ``GET /v1/models`` is still answered with a
one-model list in case a setting makes it ask, and any other path gets a 404.  A
compressed request body is refused (415) rather than recorded unread, so a test
can never pass because it could not see what was sent.
Used through :func:`serving`, the server stops when the ``with`` block ends.
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

MODEL = "fake-model"
"""The model name the fake server reports; use it as ``model`` in Codex's config."""

SHELL_TOOL = "exec_command"
"""The name of the shell tool Codex 0.171 offers the model."""

_OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output"})


@dataclass(frozen=True)
class ToolCall:
    """One model step that calls the tool ``name`` with ``arguments``."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CustomCall:
    """One model step that calls the freeform tool ``name`` with the raw text ``text``.

    Codex offers ``apply_patch`` this way (a ``custom`` tool, not a JSON function)
    when the model's metadata asks for it, e.g. with ``model = "gpt-5.5"``.
    """

    name: str
    text: str


@dataclass(frozen=True)
class Say:
    """One model step that answers with ``text`` and so ends the turn."""

    text: str


Step = ToolCall | CustomCall | Say


def shell(cmd: str) -> ToolCall:
    """A step in which the model asks Codex to run the shell command ``cmd``."""
    return ToolCall(SHELL_TOOL, {"cmd": cmd})


def patch(text: str) -> CustomCall:
    """A step in which the model asks Codex to apply the patch ``text``."""
    return CustomCall("apply_patch", text)


def _sse(event: dict[str, Any]) -> str:
    """Format one event the way the Responses API streams it."""
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"


def _item(step: Step) -> dict[str, Any]:
    """The output item a script step becomes."""
    call_id = f"call_{uuid.uuid4().hex[:24]}"
    if isinstance(step, ToolCall):
        return {"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:24]}",
                "call_id": call_id, "name": step.name,
                "arguments": json.dumps(step.arguments), "status": "completed"}
    if isinstance(step, CustomCall):
        return {"type": "custom_tool_call", "id": f"ctc_{uuid.uuid4().hex[:24]}",
                "call_id": call_id, "name": step.name, "input": step.text,
                "status": "completed"}
    return {"type": "message", "id": f"msg_{uuid.uuid4().hex[:24]}", "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": step.text, "annotations": []}]}


def _stream(step: Step) -> bytes:
    """The whole event stream that answers one request with ``step``."""
    response_id = f"resp_{uuid.uuid4().hex[:24]}"
    item = _item(step)
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 15}
    events: list[dict[str, Any]] = [
        {"type": "response.created",
         "response": {"id": response_id, "object": "response", "status": "in_progress",
                      "model": MODEL, "output": []}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed",
         "response": {"id": response_id, "object": "response", "status": "completed",
                      "model": MODEL, "output": [item], "usage": usage}},
    ]
    return "".join(_sse(event) for event in events).encode()


class FakeResponses(LoopbackServer):
    """The server.  ``requests`` holds the body of every ``POST /v1/responses``."""

    def __init__(self, script: list[Step] | None = None, final_text: str = "done") -> None:
        self._script: list[Step] = list(script or [])
        self._final = Say(final_text)
        self._requests: list[dict[str, Any]] = []
        self._paths: list[str] = []
        self._lock = threading.Lock()
        self._listen()

    @property
    def base_url(self) -> str:
        """The ``base_url`` to give Codex's model provider."""
        return f"{self.origin}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """A copy of the parsed bodies of the model requests, oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def paths(self) -> list[str]:
        """Every ``METHOD path`` that arrived, oldest first, including other endpoints."""
        with self._lock:
            return list(self._paths)

    def all_text(self) -> str:
        """Every model request body as one JSON string, to assert a value never left."""
        return json.dumps(self.requests)

    def tool_outputs(self) -> list[str]:
        """What the model got back from every tool call, across all requests.

        That is the ``output`` of each ``function_call_output`` and
        ``custom_tool_call_output`` item (JSON-encoded if it is not a string).

        Codex resends the whole conversation each turn, so the same output can appear
        once per later request; duplicates (same call id and text) are dropped.
        """
        seen: set[tuple[str, str]] = set()
        outputs: list[str] = []
        for body in self.requests:
            for item in body.get("input", []):
                if not isinstance(item, dict) or item.get("type") not in _OUTPUT_TYPES:
                    continue
                output = item.get("output")
                text = output if isinstance(output, str) else json.dumps(output)
                key = (str(item.get("call_id")), text)
                if key not in seen:
                    seen.add(key)
                    outputs.append(text)
        return outputs

    def _next_step(self, body: dict[str, Any]) -> Step:
        """Record ``body`` and take the step that answers it."""
        with self._lock:
            self._requests.append(body)
            return self._script.pop(0) if self._script else self._final

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _send(self, status: int, content_type: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _note(self) -> str:
                path = self.path.split("?", 1)[0]
                with fake._lock:
                    fake._paths.append(f"{self.command} {path}")
                return path

            def do_GET(self) -> None:
                if self._note().rstrip("/").endswith("/models"):
                    models = {"object": "list", "data": [
                        {"id": MODEL, "object": "model", "created": 0, "owned_by": "fake"}]}
                    self._send(200, "application/json", json.dumps(models).encode())
                else:
                    self._send(404, "application/json", b'{"error": "not found"}')

            def do_POST(self) -> None:
                path = self._note()
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not path.endswith("/responses"):
                    self._send(404, "application/json", b'{"error": "not found"}')
                    return
                if self.headers.get("Content-Encoding", "identity").lower() != "identity":
                    self._send(415, "application/json", b'{"error": "compressed body"}')
                    return
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                step = fake._next_step(body if isinstance(body, dict) else {})
                self._send(200, "text/event-stream", _stream(step))

        return Handler


def serving(
    script: list[Step] | None = None, final_text: str = "done"
) -> AbstractContextManager[FakeResponses]:
    """Start a fake server for one test and stop it afterwards, whatever happens."""
    return running(FakeResponses(script, final_text))

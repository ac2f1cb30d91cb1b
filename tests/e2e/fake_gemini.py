"""A scripted Gemini API server on 127.0.0.1 for the real Gemini CLI.

Point the CLI at it with ``GOOGLE_GEMINI_BASE_URL=<origin>`` and ``GEMINI_API_KEY=dummy``.
Each ``POST /v1beta/models/<model>:streamGenerateContent`` takes the next scripted step and
answers it as server-sent events: a ``functionCall`` (by default of ``run_shell_command`` with
``{"command": ...}``) or a final text.  When the script runs out the answer is ``"done"``.
The non-streaming ``:generateContent`` call the CLI makes to pick a model (its "router", made
only when no model is forced with ``-m``) gets a fixed low-complexity verdict, ``:countTokens``
a small count, and anything else a 404.
Every request is recorded.  Used as a context manager, it stops when the block ends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.e2e.loopback import LoopbackServer, running

SHELL_TOOL = "run_shell_command"
"""The name the Gemini CLI declares for its shell tool; its argument is ``command``."""

FINAL_TEXT = "done"
"""The text answered once every scripted step has been used."""

MODEL_VERSION = "gemini-2.5-flash"


@dataclass(frozen=True)
class ToolCall:
    """A step in which the model calls tool ``name`` with ``args``, after saying ``text``."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class Text:
    """A step in which the model answers ``text`` and ends its turn."""

    text: str


Step = ToolCall | Text


def shell(command: str, text: str = "") -> ToolCall:
    """A step in which the model asks the CLI to run ``command`` in its shell."""
    return ToolCall(SHELL_TOOL, {"command": command}, text)


@dataclass(frozen=True)
class Recorded:
    """One HTTP request the server received: its method, path (without query) and JSON body."""

    method: str
    path: str
    query: str
    body: dict[str, Any]


def _usage() -> dict[str, int]:
    return {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def _candidate(step: Step) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"text": step.text}] if step.text else []
    if isinstance(step, ToolCall):
        parts.append({"functionCall": {"name": step.name, "args": step.args}})
    return {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}


class FakeGemini(LoopbackServer):
    """The scripted server: ``turns`` are answered in order, one per streaming request."""

    def __init__(self, turns: Iterable[Step] = ()) -> None:
        self._turns: list[Step] = list(turns)
        self._next = 0
        self._log: list[Recorded] = []
        self._lock = threading.Lock()
        self._listen()

    @property
    def base_url(self) -> str:
        """The value for ``GOOGLE_GEMINI_BASE_URL``."""
        return self.origin

    @property
    def log(self) -> list[Recorded]:
        """Every request received, in order (a copy)."""
        with self._lock:
            return list(self._log)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The parsed bodies of the ``streamGenerateContent`` requests, in order."""
        return [r.body for r in self.log if r.path.endswith(":streamGenerateContent")]

    @property
    def router_requests(self) -> list[dict[str, Any]]:
        """The parsed bodies of the non-streaming ``generateContent`` requests."""
        return [r.body for r in self.log if r.path.endswith(":generateContent")]

    def all_text(self) -> str:
        """Every request body the server received, as one JSON text to search in."""
        return "\n".join(json.dumps(r.body, ensure_ascii=False) for r in self.log)

    def function_responses(self) -> list[dict[str, Any]]:
        """The ``functionResponse`` parts sent back to the model, in order, without repeats.

        Each later request repeats the whole history, so a part is listed once, the first
        time it appears.
        """
        seen: list[dict[str, Any]] = []
        for body in self.requests:
            for content in body.get("contents", []):
                for part in content.get("parts", []):
                    response = part.get("functionResponse")
                    if isinstance(response, dict) and response not in seen:
                        seen.append(response)
        return seen

    def declared_tools(self) -> dict[str, dict[str, Any]]:
        """The function declarations of the last streaming request, by name."""
        bodies = self.requests
        if not bodies:
            return {}
        return {
            decl["name"]: decl
            for tool in bodies[-1].get("tools", [])
            for decl in tool.get("functionDeclarations", [])
        }

    def _take(self) -> Step:
        with self._lock:
            if self._next < len(self._turns):
                step = self._turns[self._next]
                self._next += 1
                return step
        return Text(FINAL_TEXT)

    def _record(self, method: str, target: str, body: dict[str, Any]) -> str:
        path, _, query = target.partition("?")
        with self._lock:
            self._log.append(Recorded(method, path, query, body))
        return path

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

            def _json(self, status: int, payload: Any) -> None:
                self._send(status, "application/json", json.dumps(payload).encode())

            def _not_found(self) -> None:
                self._json(
                    404, {"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}}
                )

            def do_GET(self) -> None:
                fake._record("GET", self.path, {})
                self._not_found()

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    parsed = json.loads(raw or b"{}")
                except ValueError:
                    parsed = {}
                body = parsed if isinstance(parsed, dict) else {"_": parsed}
                path = fake._record("POST", self.path, body)
                if path.endswith(":streamGenerateContent"):
                    chunk = {
                        "candidates": [_candidate(fake._take())],
                        "usageMetadata": _usage(),
                        "modelVersion": MODEL_VERSION,
                    }
                    data = f"data: {json.dumps(chunk)}\r\n\r\n".encode()
                    self._send(200, "text/event-stream", data)
                elif path.endswith(":generateContent"):
                    # One JSON answer fits the side calls the CLI makes: the model router
                    # reads the complexity keys, the next-speaker check the other two.
                    verdict = {
                        "complexity_reasoning": "simple",
                        "complexity_score": 1,
                        "reasoning": "done",
                        "next_speaker": "user",
                    }
                    self._json(
                        200,
                        {
                            "candidates": [_candidate(Text(json.dumps(verdict)))],
                            "usageMetadata": _usage(),
                            "modelVersion": MODEL_VERSION,
                        },
                    )
                elif path.endswith(":countTokens"):
                    self._json(200, {"totalTokens": 10})
                else:
                    self._not_found()

        return Handler


def serving(turns: Iterable[Step] = ()) -> AbstractContextManager[FakeGemini]:
    """Start a fake Gemini server for one test and stop it afterwards, whatever happens."""
    return running(FakeGemini(turns))

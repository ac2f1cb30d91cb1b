"""Showing the person real values: the model's answer with its tokens turned back into
values, as it streams.

Only the ``text`` of the answer is rewritten (``text_delta`` events of a stream, ``text``
blocks of a whole message).  Tool calls keep their tokens (a tool gets a value only
through the hooks' policy), and thinking, signatures and every other event pass byte for
byte.  A token may arrive split across events: the few characters that could still
begin one are held back, and only those, until the token is complete or cannot be one;
the rest of the stream is never delayed.

The tokens that may resolve are given up front (``values``): those of the request the
answer replies to, issued to its session.  A model can only repeat a token it was
shown, so nothing else needs a lookup while the stream runs.

This module is pure: redactor.gateway.app feeds it the upstream's bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from redactor.pseudonyms.tokens import TOKEN_RE

__all__ = ["MAX_TOKEN_CHARS", "SseRewriter", "TextRehydrator", "rehydrate_message"]

#: The longest token: ``[`` + a 31-character label + ``:`` + 16 + ``]``.
MAX_TOKEN_CHARS: Final = 50
#: What could still become a token if more text came.
_PREFIX: Final = re.compile(r"\[(?:[A-Z](?:[A-Z0-9_]{0,30}(?::[0-9a-f]{0,16})?)?)?")


class TextRehydrator:
    """Turns tokens into values in the text of each content block of one answer;
    ``shown`` collects the tokens it turned (token text → value)."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = values
        self._held: dict[int, str] = {}
        self.shown: dict[str, str] = {}

    def _swap(self, text: str) -> str:
        def one(match: re.Match[str]) -> str:
            value = self._values.get(match.group())
            if value is None:
                return match.group()
            self.shown[match.group()] = value
            return value

        return TOKEN_RE.sub(one, text) if "[" in text else text

    def feed(self, index: int, text: str) -> str:
        """The text of block ``index`` to show now, ``text`` having arrived."""
        pending = self._held.pop(index, "") + text
        cut = _held_from(pending)
        if cut < len(pending):
            self._held[index] = pending[cut:]
        return self._swap(pending[:cut])

    def flush(self, index: int) -> str:
        """What block ``index`` still holds (at its end, or the answer's)."""
        return self._swap(self._held.pop(index, ""))

    def held(self) -> list[int]:
        return sorted(self._held)

    def whole(self, text: str) -> str:
        return self._swap(text)


def _held_from(text: str) -> int:
    """Where the tail that could still begin a token starts (``len(text)``: none)."""
    start = text.rfind("[", max(0, len(text) - MAX_TOKEN_CHARS))
    while start != -1:
        tail = text[start:]
        if _PREFIX.fullmatch(tail):
            return start
        start = text.rfind("[", max(0, len(text) - MAX_TOKEN_CHARS), start)
    return len(text)


class SseRewriter:
    """A Messages event stream, bytes in and bytes out, its text deltas rehydrated."""

    def __init__(self, rehydrator: TextRehydrator) -> None:
        self.text = rehydrator
        self._buffer = b""

    def feed(self, chunk: bytes) -> bytes:
        self._buffer += chunk
        out: list[bytes] = []
        while True:
            end, size = _event_end(self._buffer)
            if end < 0:
                break
            event, self._buffer = self._buffer[:end + size], self._buffer[end + size:]
            out.append(self._event(event))
        return b"".join(out)

    def close(self) -> bytes:
        """The end of the stream: what is left, and any text still held."""
        rest, self._buffer = self._buffer, b""
        tail = [_delta_event(index, self.text.flush(index)) for index in self.text.held()]
        return b"".join(t for t in tail if t) + rest

    def _event(self, raw: bytes) -> bytes:
        data = _data_of(raw)
        if data is None:
            return raw
        kind = data.get("type")
        if kind == "content_block_delta":
            delta = data.get("delta")
            index = data.get("index")
            if isinstance(delta, dict) and delta.get("type") == "text_delta" \
                    and isinstance(delta.get("text"), str) and isinstance(index, int):
                shown = self.text.feed(index, delta["text"])
                if shown == delta["text"]:
                    return raw
                return _delta_event(index, shown, always=True)
            return raw
        if kind == "content_block_stop" and isinstance(data.get("index"), int):
            return _delta_event(data["index"], self.text.flush(data["index"])) + raw
        if kind in ("message_stop", "error"):
            held = [_delta_event(i, self.text.flush(i)) for i in self.text.held()]
            return b"".join(held) + raw
        return raw


def _event_end(buffer: bytes) -> tuple[int, int]:
    """Where the first complete event of ``buffer`` ends, and its separator's length."""
    ends = [(buffer.find(sep), len(sep)) for sep in (b"\n\n", b"\r\n\r\n", b"\r\r")]
    found = [(at, size) for at, size in ends if at >= 0]
    return min(found) if found else (-1, 0)


def _data_of(raw: bytes) -> dict[str, Any] | None:
    lines = raw.replace(b"\r\n", b"\n").split(b"\n")
    data = [line[5:].lstrip(b" ") for line in lines if line.startswith(b"data:")]
    if not data:
        return None
    try:
        value = json.loads(b"\n".join(data))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _delta_event(index: int, text: str, *, always: bool = False) -> bytes:
    if not text and not always:
        return b""
    data = {"type": "content_block_delta", "index": index,
            "delta": {"type": "text_delta", "text": text}}
    return (b"event: content_block_delta\ndata: "
            + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            + b"\n\n")


def rehydrate_message(body: bytes, rehydrator: TextRehydrator) -> bytes:
    """A whole (non-streamed) Messages response with its text blocks rehydrated; the
    bytes unchanged when nothing was."""
    try:
        message = json.loads(body)
    except ValueError:
        return body
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return body
    changed = False
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text" \
                and isinstance(block.get("text"), str):
            new = rehydrator.whole(block["text"])
            if new != block["text"]:
                block["text"], changed = new, True
    if not changed:
        return body
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

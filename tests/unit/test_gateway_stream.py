"""The answer's text rehydrated for display as it streams: a token split anywhere across
events and chunks still turns into its value, only a token's possible beginning is held
back, and everything that is not answer text passes byte for byte."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor.gateway.stream import SseRewriter, TextRehydrator, rehydrate_message

CPF_TOKEN, NAME_TOKEN = "[CPF:0123456789abcdef]", "[NOME:fedcba9876543210]"
VALUES = {CPF_TOKEN: "529.982.247-25", NAME_TOKEN: "Maria Aparecida"}
TEXT = f"O cliente {CPF_TOKEN} ({NAME_TOKEN}) está ativo; [CPF:1111111111111111] não."
SHOWN = ("O cliente 529.982.247-25 (Maria Aparecida) está ativo; "
         "[CPF:1111111111111111] não.")


def event(data: dict[str, object]) -> bytes:
    return f"event: {data['type']}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def stream(pieces: list[str], *, tool_json: str = "") -> list[bytes]:
    events = [event({"type": "message_start", "message": {"id": "m", "content": []}}),
              event({"type": "content_block_start", "index": 0,
                     "content_block": {"type": "text", "text": ""}})]
    events += [event({"type": "content_block_delta", "index": 0,
                      "delta": {"type": "text_delta", "text": piece}}) for piece in pieces]
    events.append(event({"type": "content_block_stop", "index": 0}))
    if tool_json:
        events += [event({"type": "content_block_start", "index": 1, "content_block": {
                       "type": "tool_use", "id": "t", "name": "Bash", "input": {}}}),
                   event({"type": "content_block_delta", "index": 1, "delta": {
                       "type": "input_json_delta", "partial_json": tool_json}}),
                   event({"type": "content_block_stop", "index": 1})]
    events.append(event({"type": "message_stop"}))
    return events


def shown_text(output: bytes) -> tuple[str, str]:
    """The text the client assembles from the deltas, and the tool input JSON."""
    text, tool = [], []
    for raw in output.split(b"\n\n"):
        for line in raw.split(b"\n"):
            if line.startswith(b"data: "):
                data = json.loads(line[6:])
                delta = data.get("delta", {})
                if delta.get("type") == "text_delta":
                    text.append(delta["text"])
                if delta.get("type") == "input_json_delta":
                    tool.append(delta["partial_json"])
    return "".join(text), "".join(tool)


def run(events: list[bytes], chunk: int | None = None) -> bytes:
    rewriter = SseRewriter(TextRehydrator(VALUES))
    data = b"".join(events)
    chunks = [data] if chunk is None else [data[i:i + chunk] for i in range(0, len(data), chunk)]
    return b"".join(rewriter.feed(c) for c in chunks) + rewriter.close()


def test_tokens_of_the_answer_become_values_and_unknown_ones_stay() -> None:
    assert shown_text(run(stream([TEXT])))[0] == SHOWN


@pytest.mark.parametrize("cut", range(1, len(TEXT)))
def test_a_token_split_at_any_offset_still_resolves(cut: int) -> None:
    assert shown_text(run(stream([TEXT[:cut], TEXT[cut:]])))[0] == SHOWN


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, len(TEXT) - 1), max_size=6, unique=True),
       st.integers(1, 97))
def test_any_split_of_events_and_bytes_gives_the_same_text(cuts: list[int],
                                                           chunk: int) -> None:
    points = [0, *sorted(cuts), len(TEXT)]
    pieces = [TEXT[a:b] for a, b in itertools.pairwise(points)]
    assert shown_text(run(stream(pieces), chunk=chunk))[0] == SHOWN


def test_only_a_possible_token_is_held_back() -> None:
    hydrator = TextRehydrator(VALUES)
    assert hydrator.feed(0, "texto comum [sem token] e [CPF:0123") == "texto comum [sem token] e "
    assert hydrator.feed(0, "456789abcdef] fim") == "529.982.247-25 fim"
    assert hydrator.feed(0, "lista [1] e [x") == "lista [1] e [x"


def test_tool_input_thinking_and_other_events_pass_byte_for_byte() -> None:
    events = stream(["ok"], tool_json=json.dumps({"command": f"grep '{CPF_TOKEN}' f"}))
    output = run(events)
    assert output == b"".join(events)
    assert CPF_TOKEN in shown_text(output)[1]


def test_a_stream_cut_short_flushes_what_it_held() -> None:
    rewriter = SseRewriter(TextRehydrator(VALUES))
    partial = b"".join(stream([TEXT[:15]])[:3])
    out = rewriter.feed(partial) + rewriter.close()
    assert shown_text(out)[0] == TEXT[:15]


def test_a_whole_message_is_rehydrated() -> None:
    body = json.dumps({"type": "message", "content": [
        {"type": "text", "text": TEXT},
        {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": CPF_TOKEN}}]})
    out = json.loads(rehydrate_message(body.encode(), TextRehydrator(VALUES)))
    assert out["content"][0]["text"] == SHOWN
    assert out["content"][1]["input"]["command"] == CPF_TOKEN
    untouched = json.dumps({"type": "message", "content": [{"type": "text", "text": "x"}]})
    assert rehydrate_message(untouched.encode(), TextRehydrator(VALUES)) == untouched.encode()

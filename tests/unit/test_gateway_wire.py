"""redactor.gateway.wire: which fields of a Messages request are redacted, which are
left alone byte for byte, how binary content is withheld, that the same history gives
the same bytes every turn, and which bodies are refused.

Most tests walk bodies with a fake engine (``SECRET-<n>`` is its entity; ``Nome: X``
teaches it the name ``X``, which it then redacts wherever it stands alone, like the real
engine's name propagation).  The last group runs the real engine.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactor.gateway.wire import BlockCache, Refused, RequestRedactor, WireResult
from tests.leaks import leaks

WITHHELD = "[binary withheld]"
SECRET = re.compile(r"SECRET-\d+")
TEACH = re.compile(r"Nome: ([A-Z][a-z]+)")
WORD = re.compile(r"[A-Z][a-z]+")


@dataclass(frozen=True)
class FakeFinding:
    entity_type: str


@dataclass
class FakeResult:
    text: str
    findings: tuple[FakeFinding, ...]


@dataclass
class FakeJson:
    value: Any
    findings: tuple[FakeFinding, ...]


class FakeEngine:
    """``SECRET-<n>`` becomes ``[SECRET]``; ``Nome: X`` teaches ``X`` (a person word),
    and a taught word standing alone becomes ``[NOME]``.  Records every text it reads."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.json_values: list[Any] = []

    def redact(self, text: str, names: Any = None) -> FakeResult:
        self.texts.append(text)
        findings: list[FakeFinding] = []

        def secret(_: re.Match[str]) -> str:
            findings.append(FakeFinding("FAKE_SECRET"))
            return "[SECRET]"

        out = SECRET.sub(secret, text)
        if names is not None:
            for match in TEACH.finditer(out):
                names.person_words.add(match.group(1).upper())

            def person(match: re.Match[str]) -> str:
                if match.group(0).upper() in names.person_words:
                    findings.append(FakeFinding("PERSON"))
                    return "[NOME]"
                return match.group(0)

            out = WORD.sub(person, out)
        return FakeResult(out, tuple(findings))

    def redact_json(self, value: Any, keys_and_numbers: bool = False) -> FakeJson:
        self.json_values.append(copy.deepcopy(value))
        findings: list[FakeFinding] = []

        def walk(item: Any) -> Any:
            if isinstance(item, str):
                result = self.redact(item)
                findings.extend(result.findings)
                return result.text
            if isinstance(item, list):
                return [walk(x) for x in item]
            if isinstance(item, dict):
                return {key: walk(x) for key, x in item.items()}
            return item

        return FakeJson(walk(value), tuple(findings))


def wire(binary: str = "block", engine: Any = None,
         cache: BlockCache | None = None) -> RequestRedactor:
    return RequestRedactor(engine if engine is not None else FakeEngine(), binary=binary,
                           withheld_text=WITHHELD, cache=cache)


def run(body: dict[str, Any] | bytes, binary: str = "block",
        engine: Any = None) -> WireResult:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return wire(binary, engine).redact_body(raw)


def redacted(body: dict[str, Any] | bytes, binary: str = "block") -> dict[str, Any]:
    result: dict[str, Any] = json.loads(run(body, binary).body)
    return result


def user(*blocks: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def request(*messages: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-test", "max_tokens": 64, **extra, "messages": list(messages)}


# ---------------------------------------------------------------------- fields redacted

TEXT = {"type": "text", "text": "block SECRET-1"}

#: One body per field the module docstring lists, each planting SECRET-<n> there.
REDACTED_FIELDS: dict[str, dict[str, Any]] = {
    "system string": request(user(TEXT), system="sys SECRET-2"),
    "system blocks": request(user({"type": "text", "text": "hi"}),
                             system=[{"type": "text", "text": "sys SECRET-3"}]),
    "user string content": request({"role": "user", "content": "plain SECRET-4"}),
    "user text block": request(user(TEXT)),
    "tool_result string": request(user({"type": "tool_result", "tool_use_id": "toolu_1",
                                        "content": "out SECRET-5"})),
    "tool_result nested text": request(user({
        "type": "tool_result", "tool_use_id": "toolu_1",
        "content": [{"type": "text", "text": "out SECRET-6"},
                    {"type": "text", "text": "more SECRET-7"}]})),
    "tool_use input": request(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "t",
                                           "input": {"q": "SECRET-8", "l": [{"d": "SECRET-9"}]}}]},
        user({"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"})),
    "server_tool_use input": request(
        {"role": "assistant", "content": [{
            "type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
            "input": {"query": "SECRET-10"}}]}),
    "document text source": request(user({
        "type": "document", "source": {"type": "text", "media_type": "text/plain",
                                       "data": "doc SECRET-11"}})),
    "document title and context": request(user({
        "type": "document", "title": "title SECRET-12", "context": "ctx SECRET-13",
        "source": {"type": "text", "media_type": "text/plain", "data": "plain"}})),
    "document content source (blocks)": request(user({
        "type": "document",
        "source": {"type": "content", "content": [{"type": "text", "text": "c SECRET-14"}]}})),
    "document content source (string)": request(user({
        "type": "document", "source": {"type": "content", "content": "c SECRET-15"}})),
    "search_result": request(user({
        "type": "search_result", "source": "https://example.com/SECRET-16",
        "title": "t SECRET-17", "content": [{"type": "text", "text": "r SECRET-18"}]})),
    "search_result in tool_result": request(user({
        "type": "tool_result", "tool_use_id": "toolu_1", "content": [{
            "type": "search_result", "source": "s", "title": "t",
            "content": [{"type": "text", "text": "r SECRET-19"}]}]})),
    "tool description": request(user(TEXT), tools=[{
        "name": "lookup", "description": "finds SECRET-20",
        "input_schema": {"type": "object", "properties": {}}}]),
    "input_schema descriptions": request(user(TEXT), tools=[{
        "name": "lookup", "input_schema": {
            "type": "object", "description": "schema SECRET-21",
            "properties": {"q": {"type": "string", "description": "q SECRET-22"},
                           "l": {"type": "array", "items": {"type": "object",
                                                            "description": "SECRET-23"}}},
            "anyOf": [{"description": "SECRET-24"}]}}]),
    "role system message": request({"role": "system", "content": "role SECRET-25"}),
    "role system message blocks": request({"role": "system", "content": [
        {"type": "text", "text": "role SECRET-26"}]}),
}


@pytest.mark.parametrize("name", list(REDACTED_FIELDS))
def test_every_text_field_is_redacted(name: str) -> None:
    result = run(REDACTED_FIELDS[name])
    assert result.changed
    assert b"SECRET-" not in result.body
    assert b"[SECRET]" in result.body
    assert "FAKE_SECRET" in result.entities


def test_all_fields_at_once_leave_no_secret() -> None:
    body: dict[str, Any] = request(system="sys SECRET-0")
    body["tools"] = []
    for case in REDACTED_FIELDS.values():
        body["messages"].extend(copy.deepcopy(case["messages"]))
        body["tools"].extend(copy.deepcopy(case.get("tools", [])))
    result = run(body)
    assert not SECRET.search(result.body.decode("ascii"))
    assert result.blocks >= len(REDACTED_FIELDS)


def test_a_redacted_block_keeps_its_keys_order_and_cache_control() -> None:
    block = {"type": "text", "text": "a SECRET-1", "cache_control": {"type": "ephemeral"},
             "citations": None}
    out = redacted(request(user(block)))
    new = out["messages"][0]["content"][0]
    assert list(new) == list(block)
    assert new["cache_control"] == {"type": "ephemeral"}
    assert new["text"] == "a [SECRET]"


# ---------------------------------------------------------------------- untouched

def untouched_body() -> dict[str, Any]:
    """Everything the gateway must forward as it is, each holding a SECRET, next to one
    text block that changes (so that the body is written again)."""
    return {
        "model": "claude-test", "max_tokens": 1024, "temperature": 0.25, "top_p": 0.5,
        "top_k": 7, "stop_sequences": ["STOP-SECRET-90"], "stream": True,
        "metadata": {"user_id": "user_SECRET-91"},
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "tool_choice": {"type": "auto"}, "service_tier": "auto",
        "system": [{"type": "text", "text": "system", "cache_control": {"type": "ephemeral",
                                                                      "ttl": "1h"}}],
        "messages": [
            user({"type": "text", "text": "change SECRET-1",
                  "cache_control": {"type": "ephemeral"}}),
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "thought SECRET-2", "signature": "sig/SECRET-3"},
                {"type": "redacted_thinking", "data": "opaque SECRET-4"},
                {"type": "server_tool_use", "id": "srvtoolu_SECRET-5", "name": "web_search",
                 "input": {"query": "weather"}},
                {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_SECRET-5",
                 "content": [{"type": "web_search_result", "url": "https://e/SECRET-6",
                              "title": "SECRET-7", "encrypted_content": "enc SECRET-8"}]},
                {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_2",
                 "content": {"type": "web_fetch_result", "url": "u",
                             "content": {"type": "document", "source": {
                                 "type": "text", "data": "page SECRET-9"}}}},
                {"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_3",
                 "content": {"type": "code_execution_result", "stdout": "SECRET-10",
                             "stderr": "", "return_code": 0}},
                {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1",
                 "content": [{"type": "text", "text": "mcp SECRET-11"}]},
                {"type": "tool_use", "id": "toolu_SECRET-12", "name": "lookup",
                 "input": {"q": "plain"}, "cache_control": {"type": "ephemeral"}},
            ]},
            user({"type": "tool_result", "tool_use_id": "toolu_SECRET-12", "content": [
                {"type": "tool_reference", "tool_name": "SECRET-13"}]}),
        ],
    }


def test_untouched_fields_are_forwarded_as_they_are() -> None:
    body = untouched_body()
    result = run(body)
    assert result.changed
    out = json.loads(result.body)
    assert out["messages"][0]["content"][0] == {"type": "text", "text": "change [SECRET]",
                                                "cache_control": {"type": "ephemeral"}}
    # Everything else, thinking signatures and server tool results included, is equal.
    out["messages"][0]["content"][0]["text"] = body["messages"][0]["content"][0]["text"]
    assert out == body
    assert list(out) == list(body)


def compact(raw: bytes) -> bytes:
    """``raw`` as Claude Code writes JSON (JSON.stringify): compact UTF-8, keys in order."""
    return json.dumps(json.loads(raw), ensure_ascii=False, separators=(",", ":")).encode()


def test_nothing_to_redact_gives_the_same_value_written_compactly() -> None:
    # Odd spacing, escapes: the body goes out as it was read, written compactly.
    raw = ('{ "model" : "claude-test",\n "max_tokens":64, "messages": [ {"role":"user",'
           '"content":"a\\u00e7\\u00e3o e ação \\/ nada"} ], "metadata":{"user_id":"u"} }'
           ).encode()
    result = wire().redact_body(raw)
    assert not result.changed
    assert result.body == compact(raw)
    assert result.body == ('{"model":"claude-test","max_tokens":64,"messages":[{"role":"user",'
                           '"content":"ação e ação / nada"}],"metadata":{"user_id":"u"}}'
                           ).encode()
    assert result.withheld_binary == 0


def test_a_compact_body_with_nothing_to_redact_is_the_same_bytes() -> None:
    body = untouched_body()
    body["messages"][0]["content"][0]["text"] = "nothing here, ação ✓ \u2028 \x7f"
    raw = compact(json.dumps(body, indent=1).encode())
    result = run(raw)
    assert not result.changed
    assert result.body == raw


@pytest.mark.parametrize(("raw", "sent"), [
    (b'{"messages":[{"role":"user","content":"SECRET-77","content":"fine"}]}', "fine"),
    (b'{"messages":[{"role":"user","content":"fine","content":"SECRET-77"}]}', "[SECRET]"),
    (b'{"system":"SECRET-77","system":"fine","messages":[]}', "fine"),
    (b'{"system":"fine","system":"x SECRET-77","messages":[]}', "x [SECRET]"),
    # The standard library reads this one (a lone surrogate): the same rule.
    (b'{"system":"fine","system":"\\ud800 SECRET-77","messages":[]}', "\ud800 [SECRET]"),
], ids=["first-message", "last-message", "first-top", "last-top", "surrogate"])
def test_a_repeated_key_goes_upstream_once_as_read(raw: bytes, sent: str) -> None:
    # No parser upstream can read the copy this module skipped: it is not sent.
    result = run(raw)
    assert b"SECRET-77" not in result.body
    out = json.loads(result.body)
    held = out["system"] if "system" in out else out["messages"][0]["content"]
    assert held == sent
    assert result.body.count(b'"content"') + result.body.count(b'"system"') == 1
    assert result.changed == (sent != "fine")


# ---------------------------------------------------------------------- binary

CACHE = {"type": "ephemeral"}
BINARY_BLOCKS: dict[str, dict[str, Any]] = {
    "base64 image": {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                 "data": "iVBORw0KGgo="}},
    "base64 pdf": {"type": "document", "source": {"type": "base64",
                                                  "media_type": "application/pdf",
                                                  "data": "JVBERi0xLjQ="}},
    "url image": {"type": "image", "source": {"type": "url",
                                              "url": "https://example.com/a.png"}},
    "file pdf": {"type": "document", "source": {"type": "file", "file_id": "file_1"}},
}


@pytest.mark.parametrize("name", list(BINARY_BLOCKS))
def test_block_mode_withholds_binary_keeping_cache_control(name: str) -> None:
    block = {**BINARY_BLOCKS[name], "cache_control": CACHE}
    result = run(request(user({"type": "text", "text": "see"}, block)))
    assert result.changed
    assert result.withheld_binary == 1
    new = json.loads(result.body)["messages"][0]["content"][1]
    assert new == {"type": "text", "text": WITHHELD, "cache_control": CACHE}


@pytest.mark.parametrize("name", list(BINARY_BLOCKS))
def test_block_mode_withholds_binary_inside_tool_results(name: str) -> None:
    body = request(user({"type": "tool_result", "tool_use_id": "toolu_1",
                         "content": [BINARY_BLOCKS[name]]}))
    new = redacted(body)["messages"][0]["content"][0]["content"][0]
    assert new == {"type": "text", "text": WITHHELD}


@pytest.mark.parametrize("name", list(BINARY_BLOCKS))
def test_pass_mode_forwards_binary_unchanged(name: str) -> None:
    raw = compact(json.dumps(request(user({"type": "text", "text": "see"},
                                          {**BINARY_BLOCKS[name], "cache_control": CACHE}))
                             ).encode())
    result = run(raw, binary="pass")
    assert not result.changed
    assert result.body == raw


def test_pass_mode_still_redacts_a_pdf_title() -> None:
    block = {**BINARY_BLOCKS["base64 pdf"], "title": "t SECRET-1"}
    out = redacted(request(user(block)), binary="pass")
    assert out["messages"][0]["content"][0] == {**block, "title": "t [SECRET]"}


def test_block_mode_does_not_keep_a_withheld_pdf_title() -> None:
    block = {**BINARY_BLOCKS["base64 pdf"], "title": "t SECRET-1"}
    out = redacted(request(user(block)))
    assert out["messages"][0]["content"][0] == {"type": "text", "text": WITHHELD}


def test_binary_modes_do_not_share_cache_entries() -> None:
    cache = BlockCache()
    raw = json.dumps(request(user({"type": "text", "text": "x SECRET-1"},
                                  BINARY_BLOCKS["base64 image"]))).encode()
    blocked = wire("block", cache=cache).redact_body(raw)
    passed = wire("pass", cache=cache).redact_body(raw)
    assert blocked.withheld_binary == 1 and passed.withheld_binary == 0
    assert b"iVBORw0KGgo=" in passed.body and b"iVBORw0KGgo=" not in blocked.body


# ---------------------------------------------------------------------- determinism

def conversation(turns: int) -> dict[str, Any]:
    """A history that grows by one exchange a turn; turn 2 teaches the name Quixada."""
    messages: list[dict[str, Any]] = []
    lines = ["hello SECRET-1, ask Quixada", "Nome: Quixada Borba", "Quixada called again",
             "and Borba too", "bye SECRET-2"]
    for turn in range(turns):
        messages.append(user({"type": "text", "text": lines[turn]}))
        messages.append({"role": "assistant", "content": [{"type": "text", "text": "ok"}]})
    return request(*messages[:-1], system="you help")


def test_same_body_twice_gives_identical_bytes() -> None:
    raw = json.dumps(untouched_body()).encode()
    redactor = wire()
    first = redactor.redact_body(raw)
    second = redactor.redact_body(raw)
    assert first.body == second.body
    assert second.computed == 0


def test_a_redacted_prefix_stays_byte_identical_when_later_blocks_teach_a_name() -> None:
    redactor = wire()
    earlier = redactor.redact_body(json.dumps(conversation(1)).encode())
    later = redactor.redact_body(json.dumps(conversation(3)).encode())
    # Turn 1's block mentions Quixada before anyone taught the name: it keeps it, in
    # turn 3 too, and its bytes are the same (the body ends with the messages list).
    first_block = json.loads(earlier.body)["messages"][0]
    assert first_block == {"role": "user", "content": [
        {"type": "text", "text": "hello [SECRET], ask Quixada"}]}
    assert later.body.startswith(earlier.body[:-2])
    out = json.loads(later.body)["messages"]
    assert out[0] == first_block
    # The name taught in turn 2 applies to the blocks after it.
    assert out[2]["content"][0]["text"] == "Nome: [NOME] Borba"
    assert out[4]["content"][0]["text"] == "[NOME] called again"


def test_an_untouched_turn_and_a_rewritten_turn_share_their_prefix_bytes() -> None:
    # Claude Code writes compact UTF-8 JSON; a turn with nothing to redact goes out as it
    # came, and the next turn, rewritten, writes the same bytes for the same blocks.
    first = request(user({"type": "text", "text": "olá, ação rápida"}), system="você ajuda")
    second = {**first, "messages": [
        *first["messages"], {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
        user({"type": "text", "text": "hello SECRET-1"})]}

    def claude_code_bytes(body: dict[str, Any]) -> bytes:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()

    redactor = wire()
    before = redactor.redact_body(claude_code_bytes(first))
    after = redactor.redact_body(claude_code_bytes(second))
    assert not before.changed and after.changed
    assert after.body.startswith(before.body[:-2])


def test_a_cold_cache_gives_the_same_bytes() -> None:
    warm = wire()
    for turns in range(1, 6):
        warm.redact_body(json.dumps(conversation(turns)).encode())
    raw = json.dumps(conversation(5)).encode()
    assert warm.redact_body(raw).body == wire().redact_body(raw).body


def test_a_cache_hit_still_teaches_the_names_of_its_block() -> None:
    # Turn 3 reuses turn 2's cached blocks: the name they taught must still reach the
    # new block, as it does with a cold cache.
    redactor = wire()
    redactor.redact_body(json.dumps(conversation(2)).encode())
    result = redactor.redact_body(json.dumps(conversation(3)).encode())
    assert json.loads(result.body)["messages"][4]["content"][0]["text"] == "[NOME] called again"


def test_the_cache_computes_only_new_blocks() -> None:
    engine = FakeEngine()
    redactor = wire(engine=engine)
    first = redactor.redact_body(json.dumps(conversation(2)).encode())
    assert first.computed == first.blocks
    engine.texts.clear()
    second = redactor.redact_body(json.dumps(conversation(3)).encode())
    # Turn 3 adds an assistant "ok" and a user line: two new blocks.
    assert second.blocks == first.blocks + 2
    assert second.computed == 2
    assert engine.texts == ["ok", "Quixada called again"]


def test_the_same_block_after_different_names_is_computed_again() -> None:
    engine = FakeEngine()
    redactor = wire(engine=engine)
    later = {"type": "text", "text": "Quixada here"}
    redactor.redact_body(json.dumps(request(user(later))).encode())
    out = redactor.redact_body(json.dumps(request(
        user({"type": "text", "text": "Nome: Quixada"}, later))).encode())
    assert json.loads(out.body)["messages"][0]["content"][1]["text"] == "[NOME] here"


def test_a_shared_cache_never_mixes_engines_with_different_fingerprints() -> None:
    cache = BlockCache()
    one = RequestRedactor(FakeEngine(), withheld_text=WITHHELD, cache=cache, fingerprint=b"a")

    class Other(FakeEngine):
        def redact(self, text: str, names: Any = None) -> FakeResult:
            return FakeResult(text.replace("hello", "[GREETING]"), (FakeFinding("G"),))

    two = RequestRedactor(Other(), withheld_text=WITHHELD, cache=cache, fingerprint=b"b")
    raw = json.dumps(request({"role": "user", "content": "hello"})).encode()
    assert not one.redact_body(raw).changed
    assert b"[GREETING]" in two.redact_body(raw).body


def test_a_tiny_cache_only_costs_time() -> None:
    raw = json.dumps(conversation(5)).encode()
    small = wire(cache=BlockCache(max_bytes=1))
    assert small.redact_body(raw).body == wire().redact_body(raw).body
    assert len(small.cache) <= 1


# ---------------------------------------------------------------------- refusals

CPF = "529.982.247-25"
CPF_BARE = "52998224725"
PLANTED = (CPF, CPF_BARE, "SECRET-77")


def refused(raw: bytes, engine: Any = None) -> Refused:
    with pytest.raises(Refused) as info:
        wire(engine=engine).redact_body(raw)
    assert info.value.status == 400
    found = leaks(str(info.value).encode(), PLANTED)  # labels only: never the values
    assert not found
    return info.value


def deep(depth: int) -> bytes:
    return (b'{"messages":[{"role":"user","content":' + b"[" * depth + b'"SECRET-77"'
            + b"]" * depth + b"}]}")


REFUSED_BODIES: dict[str, bytes] = {
    "not JSON": b"SECRET-77 " + CPF.encode(),
    "truncated JSON": b'{"messages":[{"role":"user","content":"' + CPF.encode(),
    "array": b'[{"role":"user","content":"SECRET-77"}]',
    "string": b'"SECRET-77"',
    "number": CPF_BARE.encode(),
    "NaN": b'{"model":"m","temperature":NaN,"system":"SECRET-77"}',
    "Infinity": b'{"model":"m","temperature":Infinity}',
    "-Infinity": b'{"model":"m","temperature":-Infinity}',
    "nested 100000 deep": deep(100_000),
    "unknown block type": json.dumps(request(user(
        {"type": "hologram", "text": "SECRET-77"}))).encode(),
    "unknown block type named like a CPF": json.dumps(request(user(
        {"type": CPF_BARE, "text": "x"}))).encode(),
    "unknown prose field": json.dumps({**request(), "notes": "call SECRET-77 at home"}).encode(),
    "unknown prose field named like a CPF": json.dumps(
        {**request(), CPF_BARE: "call me at home"}).encode(),
    "unknown nested prose field": json.dumps(
        {**request(), "extra": {"a": ["fine", "two words"]}}).encode(),
    "messages an object": b'{"messages":{"role":"user","content":"SECRET-77"}}',
    "messages a string": b'{"messages":"SECRET-77"}',
    "a message a string": b'{"messages":["SECRET-77"]}',
    "content a number": b'{"messages":[{"role":"user","content":52998224725}]}',
    "system a number": b'{"system":52998224725,"messages":[]}',
    "tools an object": b'{"tools":{"description":"SECRET-77"},"messages":[]}',
    "a text block without text": b'{"messages":[{"role":"user","content":[{"type":"text"}]}]}',
    "a block without type": b'{"messages":[{"role":"user","content":[{"text":"SECRET-77"}]}]}',
    "an image with an unknown source": json.dumps(request(user(
        {"type": "image", "source": {"type": "hologram", "data": "SECRET-77"}}))).encode(),
    "an image without source": json.dumps(request(user({"type": "image"}))).encode(),
    "tool_result inside tool_result": json.dumps(request(user(
        {"type": "tool_result", "tool_use_id": "t", "content": [
            {"type": "tool_result", "tool_use_id": "u", "content": "SECRET-77"}]}))).encode(),
    "a float beyond the range": b'{"temperature":1e999,"system":"SECRET-77","messages":[]}',
    "an integer of 5000 digits": b'{"max_tokens":' + b"9" * 5000 + b',"messages":[]}',
    "Latin-1 bytes": '{"messages":[{"role":"user","content":"ação 529.982.247-25"}]}'
                     .encode("latin-1"),
}


@pytest.mark.parametrize("name", list(REFUSED_BODIES))
def test_refused_bodies(name: str) -> None:
    engine = FakeEngine()
    refused(REFUSED_BODIES[name], engine)


def test_refusals_happen_before_any_block_is_redacted() -> None:
    # A shape error late in the body: nothing was handed back, and the earlier block
    # was read (its result may be cached) but nothing was returned.
    body = request(user({"type": "text", "text": "SECRET-77"}, {"type": "hologram"}))
    refused(json.dumps(body).encode())


def test_an_enum_like_unknown_field_passes_unchanged() -> None:
    body = {**request(user(TEXT)), "x_mode": "fast", "x_ids": ["a-1", "b_2"],
            "x_opts": {"level": 3, "on": True, "name": "v1.2"}}
    out = redacted(body)
    for key in ("x_mode", "x_ids", "x_opts"):
        assert out[key] == body[key]


def test_an_enum_like_unknown_field_is_still_redacted() -> None:
    # An id can be a document number: the field passes, its values redacted.
    body = {**request(user({"type": "text", "text": "hi"})), "x_ref": "SECRET-77",
            "x_more": {"ids": ["SECRET-78", "ok"]}}
    result = run(body)
    assert result.changed
    out = json.loads(result.body)
    assert out["x_ref"] == "[SECRET]"
    assert out["x_more"] == {"ids": ["[SECRET]", "ok"]}
    assert list(out) == list(body)


@pytest.mark.parametrize("raw", [
    json.dumps(request({"role": "user", "content": text})).encode("ascii")
    for text in ("\ud800 SECRET-1", "x \udfff y", "\ud83d", "SECRET-2 \udc00")
] + [
    # A surrogate written as raw (invalid) UTF-8 bytes rather than an escape: Python's
    # json reads bytes with surrogatepass.
    b'{"messages":[{"role":"user","content":"\xed\xa0\x80 SECRET-1"}]}',
], ids=["high", "low-alone", "high-alone", "low", "raw-bytes"])
def test_lone_surrogates_never_crash_and_give_valid_json(raw: bytes) -> None:
    try:
        result = wire().redact_body(raw)
    except Refused:
        return
    assert result.changed == (b"SECRET-" in raw)
    if not result.changed:
        assert json.loads(result.body) == json.loads(raw)
        return
    result.body.decode("utf-8")
    out = json.loads(result.body)
    assert "SECRET-" not in out["messages"][0]["content"]


# ---------------------------------------------------------------------- the real engine

@pytest.fixture(scope="module")
def real() -> Any:
    from redactor import config
    from redactor.engine import Redactor

    return Redactor(config.for_hooks(config.Settings(), dict(os.environ)))


def real_wire(engine: Any, cache: BlockCache | None = None) -> RequestRedactor:
    return RequestRedactor(engine, withheld_text=WITHHELD, cache=cache)


PERSON = "Maria Aparecida Figueiredo"
EMAIL = "carla.menezes@exemplo.com.br"
REAL_PLANTED = (CPF, CPF_BARE, EMAIL, "Figueiredo")


def real_body() -> dict[str, Any]:
    return request(
        user({"type": "text", "text": f"O CPF {CPF} é do cliente"}),
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "Bash",
             "input": {"command": f"grep {CPF_BARE} clientes.csv"}}]},
        user({"type": "tool_result", "tool_use_id": "toolu_1",
              "content": [{"type": "text", "text": f"{CPF_BARE};{EMAIL};A cliente {PERSON}"}]}),
        user({"type": "document", "title": f"ficha de {PERSON}",
              "source": {"type": "text", "media_type": "text/plain",
                         "data": f"e-mail {EMAIL}"}}),
        system=f"O usuário atende a cliente {PERSON}, CPF {CPF}.",
        tools=[{"name": "Bash", "description": f"roda comandos; nunca mostre {CPF}",
                "input_schema": {"type": "object", "properties": {
                    "command": {"type": "string", "description": f"ex.: grep {CPF_BARE}"}}}}])


def test_real_engine_leaves_no_planted_value(real: Any) -> None:
    result = real_wire(real).redact_body(json.dumps(real_body()).encode())
    assert result.changed
    assert not leaks(result.body, REAL_PLANTED)
    assert {"BR_CPF", "EMAIL_ADDRESS", "PERSON"} <= set(result.entities)


def test_real_engine_escaped_digits_are_read_decoded(real: Any) -> None:
    escaped = "".join(f"\\u{ord(c):04x}" for c in CPF)
    raw = ('{"messages":[{"role":"user","content":"CPF ' + escaped + '"}]}').encode()
    result = real_wire(real).redact_body(raw)
    assert result.changed
    assert not leaks(result.body, REAL_PLANTED)


def test_real_engine_prefix_is_stable_when_a_later_block_teaches_a_name(real: Any) -> None:
    before = user({"type": "text", "text": f"ok, Figueiredo confirmou; CPF {CPF}"})
    teach = user({"type": "text", "text": f"A cliente {PERSON} ligou ontem."})
    after = user({"type": "text", "text": "ok, Figueiredo confirmou de novo"})
    redactor = real_wire(real)
    turn1 = redactor.redact_body(json.dumps(request(before)).encode())
    turn2 = redactor.redact_body(json.dumps(request(before, teach, after)).encode())
    assert turn2.body.startswith(turn1.body[:-2])
    out = json.loads(turn2.body)["messages"]
    assert "Figueiredo" in out[0]["content"][0]["text"]  # taught later: not rewritten
    assert "Figueiredo" not in out[2]["content"][0]["text"]
    cold = real_wire(real).redact_body(json.dumps(request(before, teach, after)).encode())
    assert cold.body == turn2.body
    assert turn2.computed == 2


def test_real_engine_lone_surrogates(real: Any) -> None:
    for content in (f"a \ud800 b cpf {CPF}", "x \udfff", [{"type": "tool_use", "id": "t",
                                                          "name": "x",
                                                          "input": {"k": f"\udfff {CPF}"}}]):
        role = "assistant" if isinstance(content, list) else "user"
        raw = json.dumps(request({"role": role, "content": content})).encode("ascii")
        try:
            result = real_wire(real).redact_body(raw)
        except Refused:
            continue
        json.loads(result.body.decode("utf-8"))
        assert not leaks(result.body, (CPF, CPF_BARE))


def test_real_engine_deep_tool_input_is_refused_not_crashed(real: Any) -> None:
    # Parsed fine (below the parser's limit) but deeper than the engine's JSON walk.
    depth = 500
    raw = (b'{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t",'
           b'"name":"x","input":' + b"[" * depth + b'"' + CPF.encode() + b'"'
           + b"]" * depth + b"}]}]}")
    with pytest.raises(Refused) as info:
        real_wire(real).redact_body(raw)
    found = leaks(str(info.value).encode(), (CPF, CPF_BARE))
    assert not found


Check = Callable[[], None]


def test_check_is_called_before_reading_and_before_every_block() -> None:
    calls: list[int] = []
    raw = json.dumps(conversation(3)).encode()

    def check() -> None:
        calls.append(1)

    result = wire().redact_body(raw, check=check)
    assert len(calls) == result.blocks + 1
    wire().redact_body(json.dumps(request()).encode(), check=check)  # no block at all
    assert len(calls) == result.blocks + 2


def test_check_raising_stops_the_walk() -> None:
    class Stop(Exception):
        pass

    def check() -> None:
        raise Stop

    with pytest.raises(Stop):
        wire().redact_body(json.dumps(conversation(2)).encode(), check=check)


def test_real_engine_redacts_an_id_like_unknown_field(real: Any) -> None:
    for value in (CPF, CPF_BARE, EMAIL):
        body = {**request({"role": "user", "content": "oi"}), "x_ref": value}
        result = real_wire(real).redact_body(json.dumps(body).encode())
        found = leaks(result.body, REAL_PLANTED)
        assert not found


@pytest.mark.parametrize(("kind", "echoed"), [
    ("hologram", "'hologram'"), ("web_search_20991231", "'web_search_20991231'"),
    (CPF_BARE, "'?'"), ("x" + CPF_BARE, "'?'"), (CPF, "'?'"), ("a b", "'?'"),
])
def test_a_refusal_names_the_block_type_only_when_it_looks_like_one(kind: str,
                                                                     echoed: str) -> None:
    error = refused(json.dumps(request(user({"type": kind}))).encode())
    assert echoed in str(error)


# ---------------------------------------------------------------------- the two readers

PARITY_BODIES: dict[str, bytes] = {
    "conversation": json.dumps(conversation(4)).encode(),
    "untouched": json.dumps(untouched_body()).encode(),
    "numbers": b'{"max_tokens":1152921504606846976,"temperature":0.7,"top_p":1.0,'
               b'"messages":[{"role":"user","content":"x SECRET-9"}]}',
    "unicode": '{"messages":[{"role":"user","content":"ação \\u2028 \u00e9 SECRET-9"}]}'
               .encode(),
}


@pytest.mark.parametrize("name", list(PARITY_BODIES))
def test_orjson_and_the_standard_library_send_the_same_value(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.gateway import wire as module

    assert module._orjson is not None  # the test extra installs it
    fast = wire().redact_body(PARITY_BODIES[name])
    monkeypatch.setattr(module, "_orjson", None)
    slow = wire().redact_body(PARITY_BODIES[name])
    assert json.loads(fast.body) == json.loads(slow.body)
    assert (fast.changed, fast.entities) == (slow.changed, slow.entities)
    assert fast.body == compact(slow.body)


@pytest.mark.parametrize("raw", [
    b'{"temperature":1e999,"messages":[]}', b'{"temperature":NaN,"messages":[]}',
    b"[" * 5000 + b"]" * 5000, b'{"max_tokens":' + b"9" * 5000 + b',"messages":[]}',
    b'{"messages":[]', b'{"messages":[{"role":"user","content":"\xe7\xe3o"}]}',
])
def test_what_orjson_will_not_read_the_standard_library_refuses(raw: bytes) -> None:
    refused(raw)


# ---------------------------------------------------------------------- found in review

@pytest.mark.parametrize("raw", [
    # Two surrogate halves written as raw bytes: read apart by a lenient reader, they
    # would be one character (an invisible tag the engine strips) to a parser upstream,
    # leaving the digits around them joined for the model and apart for the engine.
    b'{"messages":[{"role":"user","content":"CPF 529982247\xed\xad\x80\xed\xb0\xa025"}]}',
    # An escaped high half and a raw low half.
    b'{"messages":[{"role":"user","content":"CPF 529982247\\udb40\xed\xb0\xa025"}]}',
], ids=["raw-halves", "mixed-halves"])
def test_surrogates_written_as_raw_bytes_are_refused(raw: bytes) -> None:
    refused(raw)


def test_an_integer_beyond_64_bits_in_a_tool_input_is_read_exactly(real: Any) -> None:
    import random

    from benchmarks import synthetic as syn

    number = syn.cnj_number(random.Random(7)).replace("-", "").replace(".", "")
    assert int(number) >= 2 ** 64
    raw = ('{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t",'
           '"name":"Bash","input":{"processo":' + number + '}}]}],"max_tokens":'
           + number + '}').encode()
    result = real_wire(real).redact_body(raw)
    out = json.loads(result.body)
    assert out["messages"][0]["content"][0]["input"] == {"processo": "[PROCESSO]"}
    assert number[:12] not in json.dumps(out["messages"])
    assert out["max_tokens"] == int(number)  # a parameter: exact, not rounded


@pytest.mark.parametrize("where", ["metadata", "input"])
def test_a_value_nested_deeper_than_the_writers_go_is_refused(where: str) -> None:
    deep = "[" * 990 + "]" * 990
    if where == "metadata":
        raw = ('{"metadata":{"x":' + deep + '},"messages":[]}').encode()
    else:
        raw = ('{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t",'
               '"name":"x","input":{"a":' + deep + '}}]}]}').encode()
    refused(raw)


def test_cached_only_answers_from_the_cache_or_says_it_cannot() -> None:
    from redactor.gateway.wire import NotCached

    engine = FakeEngine()
    redactor = wire(engine=engine)
    raw = json.dumps(conversation(3)).encode()
    with pytest.raises(NotCached):
        redactor.redact_body(raw, cached_only=True)
    full = redactor.redact_body(raw)
    calls = len(engine.texts) + len(engine.json_values)
    again = redactor.redact_body(raw, cached_only=True)
    assert again.body == full.body and again.changed == full.changed
    assert len(engine.texts) + len(engine.json_values) == calls  # nothing computed
    longer = json.dumps(conversation(4)).encode()
    with pytest.raises(NotCached):
        redactor.redact_body(longer, cached_only=True)
    assert len(engine.texts) + len(engine.json_values) == calls


# ---------------------------------------------------------------------- fuzzing

_FUZZ = settings(max_examples=200, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# Surrogates, controls, accents; a planted secret stands alone between spaces.
_texts = st.text(st.characters(codec=None), max_size=30)
_leaf_texts = st.one_of(_texts, st.builds(lambda a, b: f"{a} SECRET-7 {b}", _texts, _texts))
_scalars = st.one_of(st.none(), st.booleans(), st.integers(),
                     st.integers(min_value=2 ** 64, max_value=10 ** 30),
                     st.floats(allow_nan=True, allow_infinity=True), _leaf_texts)
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_texts, inner, max_size=4)), max_leaves=12)
_blocks = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, _leaf_texts),
    st.builds(lambda v: {"type": "tool_use", "id": "t", "name": "x", "input": {"v": v}},
              _values),
    st.builds(lambda c: {"type": "tool_result", "tool_use_id": "t", "content": c},
              st.one_of(_leaf_texts, st.lists(st.builds(
                  lambda t: {"type": "text", "text": t}, _leaf_texts), max_size=3))),
    st.builds(lambda v: {"type": "mystery", "v": v}, _values),
    _values)


def _encodings(text: str) -> list[bytes]:
    forms = [text.encode("utf-8", "surrogatepass"), text.encode("ascii", "backslashreplace")]
    with contextlib.suppress(UnicodeEncodeError):
        forms.append(text.encode("latin-1"))
    return forms


@_FUZZ
@given(system=st.one_of(_leaf_texts, _values), blocks=st.lists(_blocks, max_size=4),
       extra=_values, nest=st.integers(0, 1200), ascii_only=st.booleans())
def test_fuzzed_bodies_get_a_redacted_body_or_a_refusal(
        system: Any, blocks: list[Any], extra: Any, nest: int, ascii_only: bool) -> None:
    # Any shape, number, surrogate, encoding or depth: Refused or a body that is JSON,
    # strict UTF-8, with no planted secret; never another exception.
    body = {"system": system, "messages": [{"role": "user", "content": blocks}],
            "x_extra": extra,
            "metadata": {"n": json.loads("[" * nest + "]" * nest) if nest else None}}
    text = json.dumps(body, ensure_ascii=ascii_only)
    for raw in _encodings(text):
        try:
            result = wire().redact_body(raw)
        except Refused:
            continue
        out = result.body.decode("utf-8")
        json.loads(out)
        assert "SECRET-7" not in out


@_FUZZ
@given(st.binary(max_size=200))
def test_fuzzed_bytes_get_a_refusal_or_a_body(raw: bytes) -> None:
    try:
        result = wire().redact_body(b'{"messages":[{"role":"user","content":"' + raw + b'"}]}')
    except Refused:
        return
    json.loads(result.body.decode("utf-8"))

"""The gateway's block cache counts the memory its entries hold (issue 31)."""

from __future__ import annotations

import json
from typing import Any

from redactor.gateway.wire import BlockCache, RequestRedactor
from redactor.results import Finding, JsonRedaction, RedactionResult


class _FakeEngine:
    """Replaces every text with [X] and every tool input with a large redacted value."""

    def redact(self, text: str, names: Any = None) -> RedactionResult:
        return RedactionResult("[X]", (Finding(0, len(text), "BR_CPF", 1.0, "fake"),))

    def redact_json(self, value: Any, keys_and_numbers: bool = True) -> JsonRedaction:
        patch: dict[str | int, Any] = {"content": "y" * 100_000}
        return JsonRedaction(dict(patch), (Finding(0, 1, "BR_CPF", 1.0, "fake"),), patch)


def _body(i: int) -> bytes:
    return json.dumps({"model": "m", "max_tokens": 1, "messages": [
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{i}", "name": "Write",
             "input": {"content": f"file {i}"}}]}]}).encode()


def test_a_redacted_tool_input_counts_what_it_holds() -> None:
    cache = BlockCache()
    RequestRedactor(_FakeEngine(), withheld_text="w", cache=cache).redact_body(_body(0))
    assert len(cache) == 1
    assert cache._bytes > 100_000


def test_the_cache_stays_under_its_bound() -> None:
    cache = BlockCache(max_bytes=1 << 20)
    redactor = RequestRedactor(_FakeEngine(), withheld_text="w", cache=cache)
    for i in range(40):
        assert b"yyyy" in redactor.redact_body(_body(i)).body
    assert cache._bytes <= 1 << 20
    assert 0 < len(cache) < 40


def test_a_short_text_costs_more_than_its_length() -> None:
    cache = BlockCache()
    redactor = RequestRedactor(_FakeEngine(), withheld_text="w", cache=cache)
    redactor.redact_body(b'{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"a"}]}')
    assert cache._bytes >= 256

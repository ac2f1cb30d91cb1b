"""The bytes the gateway sends upstream for a request it redacted."""

from __future__ import annotations

import json
from typing import Any

from redactor.gateway.wire import RequestRedactor

THINKING = {"type": "thinking", "thinking": "verificação rápida — ok ✓",
            "signature": "c2lnbmF0dXJl+/=="}


def body(text: str) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 10, "messages": [
        {"role": "user", "content": [{"type": "text", "text": text}]},
        {"role": "assistant", "content": [THINKING]},
        {"role": "user", "content": "continue"}]}


def test_a_rewritten_body_keeps_untouched_blocks_as_the_client_wrote_them(engine: Any) -> None:
    redactor = RequestRedactor(engine, withheld_text="withheld")
    raw = json.dumps(body("cliente 529.982.247-25"), ensure_ascii=False,
                     separators=(",", ":")).encode("utf-8")
    result = redactor.redact_body(raw)
    assert result.changed
    # UTF-8 and no spaces, as JSON.stringify writes: the thinking block's bytes are the
    # client's own.
    assert json.dumps(THINKING, ensure_ascii=False, separators=(",", ":")).encode() \
        in result.body
    assert json.loads(result.body)["messages"][0]["content"][0]["text"] == "cliente [CPF]"


def test_a_lone_surrogate_is_sent_escaped(engine: Any) -> None:
    redactor = RequestRedactor(engine, withheld_text="withheld")
    raw = b'{"model":"m","messages":[{"role":"user","content":"CPF 529.982.247-25 \\udc80"}]}'
    result = redactor.redact_body(raw)
    assert result.body.isascii()
    assert json.loads(result.body)["messages"][0]["content"] == "CPF [CPF] \udc80"

"""The engine remembers the recognizers' findings of short texts across calls (a JSON
log repeats its keys and many values on every line): the same answers as without the
memory, labels kept apart, and no text kept in it."""

from __future__ import annotations

from typing import Any

from redactor.config import Settings
from redactor.engine import Redactor

CPF = "529.982.247-25"


def fresh(engine: Redactor, text: str, labels: list[str] | None = None) -> Any:
    engine._short_found.clear()
    return engine._spans(text, labels)


def test_remembered_findings_equal_fresh_ones(engine: Redactor) -> None:
    texts = [f"cpf {CPF}", "cache miss", "user=jsilva ok", "Maria Souza", "pedido:4571924865",
             "senha: hunter2hunter2", "10.1.2.3", ""]
    for labels in (None, ["nome"], ["password"], ["user"]):
        for text in texts:
            first = fresh(engine, text, labels)
            again = engine._spans(text, labels)  # from the memory
            assert again == first, (text, labels)


def test_labels_are_part_of_what_is_remembered(engine: Redactor) -> None:
    value = "password: correct horse battery staple"  # a phrase: a secret under its key
    bare = fresh(engine, value, None)
    under_a_secret_key = engine._spans(value, ["password"])  # bare one remembered first
    assert not bare and [s.entity for s in under_a_secret_key] == ["SECRET"]
    assert engine._spans(value, None) == bare


def test_the_memory_keeps_no_text() -> None:
    engine = Redactor(Settings())
    engine.redact_json({"cliente": {"cpf": CPF, "nome": "Maria Souza", "login": "jsilva"}})
    assert engine._short_found, "short values are remembered"
    held = repr(engine._short_found)
    for value in (CPF, "52998224725", "Maria", "jsilva", "cliente"):
        assert value not in held
    assert all(isinstance(key, bytes) and len(key) == 16 for key in engine._short_found)


def test_a_full_memory_starts_again(engine: Redactor, monkeypatch: Any) -> None:
    from redactor.engine import analysis

    monkeypatch.setattr(analysis, "SHORT_CACHE_SIZE", 3)
    engine._short_found.clear()
    for index in range(10):
        engine._spans(f"valor {index}", None)
        assert len(engine._short_found) <= 3
    assert [s.entity for s in engine._spans(f"cpf {CPF}", None)] == ["BR_CPF"]


def test_a_text_holding_the_separator_is_no_other_text_with_labels(engine: Redactor) -> None:
    """A text and its labels are written apart in the key: ``"password: x\\x00y"``
    without labels is not ``"password: x"`` under the label ``y``."""
    from redactor.engine.analysis import _short_key

    assert _short_key("a\x00b", None) != _short_key("a", ["b"])
    assert _short_key("a", ["b", "c"]) != _short_key("a", ["b\x00c"])
    value = "password: correct horse battery staple"
    engine._short_found.clear()
    assert not engine._spans(value + "\x00password", None)
    assert [s.entity for s in engine._spans(value, ["password"])] == ["SECRET"]

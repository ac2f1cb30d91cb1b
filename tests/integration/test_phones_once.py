"""Each Brazilian phone is decided once: where BR_PHONE holds a finding that outranks any
PHONE_NUMBER result, python-phonenumbers does not parse the number again (issue 33)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_analyzer.nlp_engine import NlpEngineProvider

import recognizers
from benchmarks.throughput import corpus
from recognizers.generic import BrPhoneRecognizer
from redactor.config import Settings
from redactor.engine import Redactor

PIECES = ["celular (11) 98765-4321", "tel: 11 3456-7890", "+55 21 99876-5432",
          "+1 415 555 0100", "fone 0800 123 4567", "(21) 2345-6789", "whatsapp 11987654321",
          "11 98765 4321", "ramal 22", "pedido 12345678", "cpf 529.982.247-25", "mobile",
          "+44 20 7946 0958", " ", "\n", "x", "98765-4321", "(11)", "+55", "-", "."]


@pytest.fixture(scope="module")
def engines() -> tuple[Redactor, Redactor]:
    both = dataclasses.replace(Settings(), entities=("BR_PHONE", "PHONE_NUMBER", "BR_CPF"))
    return Redactor(both), Redactor(both, prefilter=False)


def _calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record the ``owned`` argument of every PHONE_NUMBER analysis."""
    seen: list[Any] = []
    original = BrPhoneRecognizer.analyze

    def spy(self: BrPhoneRecognizer, *args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("owned"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BrPhoneRecognizer, "analyze", spy)
    return seen


def test_numbers_br_phone_decides_are_not_parsed_again(
        engines: Redactor, monkeypatch: pytest.MonkeyPatch) -> None:
    prefiltered, unfiltered = engines
    text = "cliente celular (11) 98765-4321 ok\n" * 20 + "ligar +1 415 555 0100\n"
    seen = _calls(monkeypatch)
    found = prefiltered.analyze(text)
    assert found == unfiltered.analyze(text)
    # BR_PHONE holds each keyword-lifted number (score 1.0 > 0.75): passed as owned.
    owned = [spans for spans in seen if spans]
    assert owned and len(owned[0]) == 20
    assert {f.entity_type for f in found} == {"BR_PHONE", "PHONE_NUMBER"}
    assert sum(f.entity_type == "PHONE_NUMBER" for f in found) == 1  # the +1 number


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_deciding_once_changes_no_finding(engines: Redactor, pieces: list[str]) -> None:
    prefiltered, unfiltered = engines
    text = " ".join(pieces)
    assert prefiltered.analyze(text) == unfiltered.analyze(text)


def test_the_log_corpus_gives_the_same_findings(engines: Redactor) -> None:
    prefiltered, unfiltered = engines
    text, _ = corpus(0.3, seed=5)
    found = prefiltered.analyze(text)
    assert any(f.entity_type == "BR_PHONE" for f in found)
    assert found == unfiltered.analyze(text)


def test_phone_number_alone_still_finds_brazilian_numbers() -> None:
    # Without BR_PHONE on, nothing owns the numbers: PHONE_NUMBER reports them.
    alone = Redactor(dataclasses.replace(Settings(), entities=("PHONE_NUMBER",)))
    found = alone.analyze("celular (11) 98765-4321")
    assert [f.entity_type for f in found] == ["PHONE_NUMBER"]


def test_presidio_users_of_the_pack_still_get_phone_number() -> None:
    registry = RecognizerRegistry(supported_languages=["pt"])
    recognizers.register(registry, languages=("pt",))
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "no_op", "models": [{"lang_code": "pt", "model_name": "none"}],
    }).create_engine()
    engine = AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["pt"])
    results = engine.analyze("celular (11) 98765-4321", language="pt",
                             entities=["PHONE_NUMBER"])
    assert [r.entity_type for r in results] == ["PHONE_NUMBER"]
    both = engine.analyze("celular (11) 98765-4321", language="pt",
                          entities=["PHONE_NUMBER", "BR_PHONE"])
    assert {r.entity_type for r in both} == {"PHONE_NUMBER", "BR_PHONE"}

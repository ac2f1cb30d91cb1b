"""The engine's own run of Presidio's analysis steps equals AnalyzerEngine.analyze.

Redactor._detect calls the pack's recognizers and their context scoring directly
instead of one AnalyzerEngine.analyze per text (see its docstring).  These proofs
run both on the same texts and labels and compare every result: span, entity,
score, recognizer and keyword distance.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.accuracy import Generator
from benchmarks.throughput import corpus
from recognizers._text import normalize_for_matching
from redactor.engine import Redactor
from tests.integration.test_prefilter import FIXED, _settings, _texts

#: JSON keys and column names: some are keywords of an entity, some are not.
LABELS = ["cpf", "stdout", "telefone", "user", "content", "cnpj", "conta corrente", "email",
          "output", "renavam", "nome", "login", "cartão", "ip", "tool_response"]


@pytest.fixture(scope="module")
def direct() -> Redactor:
    engine = Redactor(_settings(), prefilter=False)
    assert engine._direct
    return engine


@pytest.fixture(scope="module")
def presidio() -> Redactor:
    engine = Redactor(_settings(), prefilter=False)
    engine._direct = False  # every analysis through AnalyzerEngine.analyze
    return engine


def _same(direct: Redactor, presidio: Redactor, text: str,
          labels: list[str] | None = None) -> None:
    normalized = normalize_for_matching(text)
    entities = list(direct._entities)
    expected = presidio._analyze(normalized, entities, labels)
    got = direct._analyze(normalized, entities, labels)
    assert got == expected


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=_texts(), labels=st.none() | st.lists(st.sampled_from(LABELS), min_size=1,
                                                   max_size=2))
def test_direct_equals_presidio_on_generated_text(
        direct: Redactor, presidio: Redactor, text: str, labels: list[str] | None) -> None:
    _same(direct, presidio, text, labels)


@pytest.mark.parametrize("labels", [None, ["cpf"], ["user"], ["stdout"], ["telefone", "conta"]])
def test_direct_equals_presidio_on_every_fixed_form(
        direct: Redactor, presidio: Redactor, labels: list[str] | None) -> None:
    rng = random.Random(5)
    text = " ".join(rng.choice(FIXED) for _ in range(1500))
    _same(direct, presidio, text, labels)
    assert direct._analyze(normalize_for_matching(text), list(direct._entities), labels)


def test_direct_equals_presidio_on_the_corpora(direct: Redactor, presidio: Redactor) -> None:
    text, planted = corpus(0.5, seed=13)
    _same(direct, presidio, text)
    assert len(direct._analyze(normalize_for_matching(text), list(direct._entities), None)) \
        >= len(planted)
    docs = "\n".join(d.text for d in Generator(8).documents(300))
    _same(direct, presidio, docs)


def test_a_recognizer_from_outside_the_pack_keeps_presidio_in_charge() -> None:
    from redactor.engine.build import direct_analysis_applies

    engine = Redactor(_settings(), prefilter=False)
    assert direct_analysis_applies(engine._analyzer, engine._entities)

    class Foreign:  # a recognizer from outside the pack
        supported_entities = ("BR_CPF",)
        supported_language = "pt"

    engine._analyzer.registry.recognizers.append(Foreign())  # type: ignore[arg-type]
    try:
        assert not direct_analysis_applies(engine._analyzer, ["BR_CPF"])
    finally:
        engine._analyzer.registry.recognizers.pop()

"""The pack registered into a plain Presidio AnalyzerEngine finds what redact() finds."""

from __future__ import annotations

import pytest
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_analyzer.nlp_engine import NlpEngineProvider

import recognizers
from benchmarks.accuracy import Generator
from redactor import Settings
from redactor.engine import Redactor
from redactor.engine.spans import Span, resolve


@pytest.fixture(scope="module")
def plain_engine() -> AnalyzerEngine:
    registry = RecognizerRegistry(supported_languages=["pt", "en"])
    added = recognizers.register(registry)
    assert {type(r).__name__ for r in added} >= {"BrCpfRecognizer", "BrCnpjRecognizer",
                                                 "UsernameRecognizer"}
    assert {r.supported_language for r in added} == {"pt", "en"}
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "no_op",
        "models": [{"lang_code": "pt", "model_name": "none"},
                   {"lang_code": "en", "model_name": "none"}],
    }).create_engine()
    return AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["pt", "en"],
                          default_score_threshold=0.4)


def test_entities_in_step_with_settings() -> None:
    from redactor.config import DEFAULT_ENTITIES

    assert tuple(recognizers.ENTITIES) == DEFAULT_ENTITIES


@pytest.mark.parametrize("language", ["pt", "en"])
def test_plain_presidio_matches_redact(plain_engine: AnalyzerEngine, engine: Redactor,
                                       language: str) -> None:
    docs = Generator(seed=21).documents(400)
    compared = 0
    for doc in docs:
        raw = plain_engine.analyze(doc.text, language=language)
        spans = resolve([Span(r.start, r.end, r.entity_type, r.score, "") for r in raw])
        plain = [(s.start, s.end, s.entity) for s in spans]
        ours = [(f.start, f.end, f.entity_type) for f in engine.analyze(doc.text)]
        # Known-user names exist only in redactor's configured engine.
        ours = [o for o in ours if not (o[2] == "USERNAME" and doc.kind == "prose")]
        plain = [p for p in plain if not (p[2] == "USERNAME" and doc.kind == "prose")]
        assert plain == ours, doc.text
        compared += len(ours)
    assert compared > 300


def test_register_limits_entities_and_rejects_unknown() -> None:
    registry = RecognizerRegistry(supported_languages=["pt"])
    added = recognizers.register(registry, languages=("pt",), entities=["BR_CPF"])
    assert [r.supported_entities for r in added] == [["BR_CPF"]]
    with pytest.raises(ValueError, match="BR_XYZ"):
        recognizers.build(entities=["BR_XYZ"])


def test_known_usernames_through_register(plain_engine: AnalyzerEngine) -> None:
    registry = RecognizerRegistry(supported_languages=["pt"])
    recognizers.register(registry, languages=("pt",), entities=["USERNAME"],
                         known_usernames=["mfernandes"])
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "no_op", "models": [{"lang_code": "pt", "model_name": "none"}],
    }).create_engine()
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["pt"])
    results = analyzer.analyze("MFernandes aprovou", language="pt")
    assert [(r.entity_type, r.start, r.end) for r in results] == [("USERNAME", 0, 10)]
    assert Redactor(Settings(known_users=("mfernandes",))).redact(
        "MFernandes aprovou").text == "[USERNAME] aprovou"

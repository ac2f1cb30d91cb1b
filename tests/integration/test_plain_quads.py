"""A dotted quad alone between separators is asked of the IPv4 pattern whole, without the
windows around it (issue 33, a lean path per finding: an address on every line of a web
log): BrIpRecognizer gives the same results, in the same order, as when every hit is read
through its window, and the analysis the same findings."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from presidio_analyzer import RecognizerResult

from benchmarks import zoo
from recognizers import generic
from recognizers.generic import BrIpRecognizer
from redactor.config import Settings
from redactor.engine import Redactor

PIECES = ("10.1.2.3", "203.0.113.9", "256.1.1.1", "01.2.3.4", "10.0.0.0", "10.0.0.255",
          "1.2.3.4.5", "1.2.3", "127.0.0.1", "255.255.255.0", "0.1.2.3", "999.999.999.999",
          "10.1.2.3/24", "::1", "fe80::1", "2001:db8::7", "::ffff:10.1.2.3", ":", " ", "\n",
          "\t", '"', "'", "=", "(", ")", "[", "]", ",", ";", "|", "/", "-", ".", "x", "é",
          "ip", "host", "IP ", " > ", ".22:", "SRC=", "v", "rv:", "Firefox/", "versão ",
          "-1ubuntu1", "192.168.0.1:8080", "a1.2.3.4", "1.2.3.4a", "１")


def _readings(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    recognizer = BrIpRecognizer()
    engine = Redactor(Settings(entities=("IP_ADDRESS",)))
    scanner = engine._scanner
    assert scanner is not None
    hits = [hit for region in scanner.regions(text).get("IP_ADDRESS", []) for hit in region.hits]

    def described(results: list[RecognizerResult]) -> list[Any]:
        return [(r.entity_type, r.start, r.end, r.score, r.analysis_explanation.pattern_name,
                 r.analysis_explanation.score, r.analysis_explanation.validation_result,
                 r.recognition_metadata) for r in results]

    lean = described(recognizer.analyze(text, ["IP_ADDRESS"], hits=hits))
    with monkeypatch.context() as patched:  # (undone on leaving: the caller's patch stays)
        patched.setattr(generic, "_plain_quads", lambda _text, hits: ([], list(hits)))
        windowed = described(recognizer.analyze(text, ["IP_ADDRESS"], hits=hits))
    return lean, windowed


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=14))
@example(pieces=["10.1.2.3", " ", "fe80::1", " ", "10.1.2.4"])
@example(pieces=["01.2.3.4", " ", "10.1.2.3"])
@example(pieces=["é", " ", "10.1.2.3", " ", "::1"])
def test_the_quads_read_whole_are_the_windows_results(
        pieces: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lean, windowed = _readings("".join(pieces), monkeypatch)
    assert lean == windowed


def test_the_web_and_system_logs_of_the_zoo(monkeypatch: pytest.MonkeyPatch) -> None:
    found = 0
    plain: list[tuple[int, int]] = []
    original = generic._plain_quads

    def counted(text: str, hits: Any) -> Any:
        quads, rest = original(text, hits)
        plain.extend(quads)
        return quads, rest

    monkeypatch.setattr(generic, "_plain_quads", counted)
    for family in ("apache-combined", "syslog", "nginx-json", "postgresql", "django-rails"):
        text = zoo.generate(family, 0.02)[0]
        lean, windowed = _readings(text, monkeypatch)
        assert lean == windowed, family
        found += len(lean)
    assert found > 100
    assert len(plain) > found / 2  # most addresses took the lean way


def test_the_findings_are_the_same() -> None:
    text = zoo.generate("apache-combined", 0.05)[0]
    engine = Redactor(Settings())
    without = Redactor(Settings(), prefilter=False)
    assert engine.analyze(text) == without.analyze(text)
    assert sum(f.entity_type == "IP_ADDRESS" for f in engine.analyze(text)) > 50

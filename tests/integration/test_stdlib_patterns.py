"""The pack's pattern recognizers match with Python's ``re`` (recognizers.base): their
results must be Presidio's own, pattern for pattern, on every kind of text.

``PackPatternRecognizer.analyze`` runs each pattern compiled by ``re``;
``PatternRecognizer.analyze`` (Presidio's, called on the same instance) compiles it with
the ``regex`` module.  Both must give the same results: spans, scores, pattern names and
explanations.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from presidio_analyzer import Pattern, PatternRecognizer, RecognizerResult

from benchmarks import synthetic as syn
from benchmarks.accuracy import Generator
from benchmarks.throughput import corpus, digit_corpus
from recognizers import ALL_RECOGNIZERS
from recognizers.base import FLAGS, PackPatternRecognizer, StdlibPatterns
from recognizers.generic import BrIpRecognizer
from tests.integration.test_prefilter import EXOTIC, FIXED, _texts

PACK = [cls() for classes in ALL_RECOGNIZERS.values() for cls in classes
        if issubclass(cls, PackPatternRecognizer)]
#: Every recognizer analysing with ``re`` (StdlibPatterns): the pack's and IP_ADDRESS.
STDLIB: list[Any] = [*PACK, BrIpRecognizer()]
PEER_VALUES = Path(__file__).resolve().parents[1] / "data" / "peers" / "values.tsv"


def _key(result: RecognizerResult) -> tuple[Any, ...]:
    explanation = result.analysis_explanation
    assert explanation is not None
    return (result.entity_type, result.start, result.end, result.score,
            explanation.pattern_name, explanation.pattern, explanation.original_score,
            explanation.score, explanation.validation_result,
            tuple(sorted(result.recognition_metadata.items())))


def _same(text: str) -> None:
    for recognizer in STDLIB:
        entities = recognizer.supported_entities
        fast = sorted(map(_key, StdlibPatterns.analyze(recognizer, text, entities)))
        presidio = sorted(map(_key, PatternRecognizer.analyze(recognizer, text, entities)))
        assert fast == presidio, (type(recognizer).__name__, text[:200])


def test_the_pack_has_pattern_recognizers_and_re_compiles_most_patterns() -> None:
    assert len(PACK) >= 12
    compiled = [forms[0] for r in PACK for _, forms in r._compiled_patterns(r.patterns)]
    assert sum(c.__class__.__module__ == "re" for c in compiled) >= len(compiled) - 4


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(text=_texts())
@example(text="CPF 529.982.247-25 e CNPJ 12.ABC.345/01DE-35, placa abc1d23")
def test_same_results_as_presidio_on_generated_text(text: str) -> None:
    _same(text)


@pytest.mark.parametrize("fragment", FIXED + EXOTIC)
def test_same_results_as_presidio_on_each_form(fragment: str) -> None:
    _same(fragment)
    _same(f"cpf cnpj placa telefone {fragment} nascimento rg {fragment.upper()}")


def test_same_results_as_presidio_on_the_generated_sets_and_corpora() -> None:
    for doc in Generator(11).documents(400):
        _same(doc.text)
    for text in (corpus(0.15, seed=3)[0], digit_corpus(0.15, seed=3)[0]):
        for start in range(0, len(text), 4000):
            _same(text[start:start + 4000])
    rng = random.Random(5)
    forms = [f for _ in range(30) for f in syn.cnpj_forms(
        syn.random_cnpj(rng, alphanumeric=rng.random() < 0.5)).values()]
    _same(" ".join(forms) + " " + " ".join(f.lower() for f in forms))


def test_same_results_as_presidio_on_the_peers_values() -> None:
    rows = [line.split("\t") for line in PEER_VALUES.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert len(rows) > 100
    for row in rows:
        for cell in row:
            _same(cell)


def test_unicode_classes_and_marks_agree() -> None:
    # Where ``re`` and ``regex`` could read a class differently: other scripts' digits,
    # combining marks, full-width forms, the Kelvin sign, dotless i, non-breaking spaces.
    for text in ("cpf ５２９.９８２.２４７-２５", "cpf ٥٢٩٩٨٢٢٤٧٢٥", "placa ABC1D2\u0301 3",
                 "K\u212a 12.ABC.345/01DE-35 \u0131", "cep\u00a001310-100", "ＣＰＦ 52998224725"):
        _same(text)


IP_FORMS = ["10.0.0.1", "192.168.1.0/24", "10.1.2.3/33", "256.1.1.1", "1.2.3.4.5", "v1.2.3.4",
            "::1", "::", "::/0", "fe80::1%eth0", "2001:db8::8a2e:370:7334",
            "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "::ffff:93.184.216.34",
            "::ffff:0:93.184.216.34/120", "64:ff9b::192.0.2.33", "2001:DB8::1/64",
            "1:2:3:4:5:6:7:8:9", "abcd::12345", "[2001:db8::1]:443", "host:10.0.0.1:80",
            "01.02.03.04", "1.2.3.04", "a1.2.3.4", "1.2.3.4a", "1.2.3.4/", "1.2.3.4/0",
            # beyond ASCII, where re and regex read \b and \w apart: Presidio's way
            "10.20.30.40\u00b2", "10.20.30.40\u2082", "10.20.30.40\u0301",
            "2001:db8::8a2e:370:7334\u0301", "fe80::1%e\u0301", "\u00b910.0.0.1"]


@pytest.mark.parametrize("form", IP_FORMS)
def test_the_ip_patterns_give_presidios_results(form: str) -> None:
    _same(form)
    _same(f"from {form} port 22; ip={form},{form.upper()} ({form})\n{form}")


def test_other_flags_take_presidios_own_way() -> None:
    recognizer = next(r for r in PACK if "BR_CPF" in r.supported_entities)
    text = "cpf 529.982.247-25"
    flags = regex.DOTALL | regex.MULTILINE | regex.IGNORECASE
    got = sorted(map(_key, recognizer.analyze(text, ["BR_CPF"], regex_flags=flags)))
    assert got == sorted(map(_key, PatternRecognizer.analyze(
        recognizer, text, ["BR_CPF"], regex_flags=flags)))
    assert got


def test_a_pattern_re_cannot_compile_falls_back_to_regex() -> None:
    recognizer = next(r for r in PACK if "BR_CPF" in r.supported_entities)
    # A variable-width look-behind: the regex module's syntax only.
    odd = Pattern("odd", r"(?<=cpf:?\s)[0-9]{11}", 0.9)
    patterns = list(recognizer.patterns)
    try:
        recognizer.patterns = [odd]
        (pattern, (compiled, plain, basic)), = recognizer._compiled_patterns(
            recognizer.patterns)
        assert pattern is odd and isinstance(compiled, type(regex.compile("x", FLAGS)))
        assert plain is None and basic is None
        _same("cpf: 52998224725 e cpf 11144477735")
    finally:
        recognizer.patterns = patterns


# --------------------------------------------------------- plain forms of the patterns


def _plain_sample() -> list[str]:
    """Texts without an escape character: every plain form of CPFs and CNPJs, glued to
    their keywords, spaced dashes, the corpora with their escape characters dropped."""
    rng = random.Random(29)
    texts = []
    for _ in range(40):
        cpf = syn.random_cpf(rng)
        cnpj = syn.random_cnpj(rng, alphanumeric=rng.random() < 0.3)
        forms = [*syn.cpf_forms(cpf).values(), *syn.cnpj_forms(cnpj).values()]
        bare_cpf = "".join(c for c in cpf if c.isdigit())
        bare_cnpj = "".join(c for c in cnpj if c.isalnum())
        forms += [f"cpf{bare_cpf}", f"CPF{bare_cpf}", f"cnpj{bare_cnpj}", f"CNPJ{bare_cnpj}",
                  cpf.replace("-", " - "), cpf.replace("-", " -"), f"x{bare_cpf}",
                  f"{bare_cpf}x", f"1{bare_cnpj}"]
        texts.append(" ".join(forms))
    for text in (corpus(0.1, seed=4)[0], digit_corpus(0.1, seed=4)[0]):
        text = text.translate({ord(c): " " for c in "%&\\"})
        texts += [text[start:start + 4000] for start in range(0, len(text), 4000)]
    return texts


def test_plain_forms_give_the_full_patterns_results_without_escapes() -> None:
    """A recognizer runs a pattern's plain form (PLAIN_PATTERNS) on a text with no escape
    character, and its basic form (BASIC_PATTERNS) where no keyword touches a value
    either: the results must be those of the full pattern under Presidio."""
    with_plain = [r for r in PACK if r.PLAIN_PATTERNS]
    assert {type(r).__name__ for r in with_plain} >= {"BrCpfRecognizer", "BrCnpjRecognizer"}
    for recognizer in with_plain:
        names = {p.name for p in recognizer.PATTERNS}
        assert set(recognizer.PLAIN_PATTERNS) <= names
        assert set(recognizer.BASIC_PATTERNS) <= names
        forms = [f for _, f in recognizer._compiled_patterns(recognizer.patterns)]
        assert any(f[1] is not None for f in forms) and any(f[2] is not None for f in forms)
    sample = _plain_sample()
    assert any(r.GLUED is not None and r.GLUED.search(t) for r in with_plain for t in sample)
    assert any(r.GLUED is not None and not r.GLUED.search(t) for r in with_plain for t in sample)
    for text in sample:
        assert not any(c in text for c in "%&\\")
        _same(text)
        # Each value alone too: the basic form runs where no keyword touches a value.
        for word in text.split(" ")[:60]:
            _same(f"valor {word} fim")


def test_the_plain_forms_are_not_used_where_an_escape_may_be() -> None:
    rng = random.Random(30)
    for _ in range(20):
        cpf, cnpj = syn.random_cpf(rng), syn.random_cnpj(rng)
        encoded = [*syn.cpf_encoded_forms(cpf).values(), *syn.cnpj_encoded_forms(cnpj).values()]
        _same(" ".join(encoded))
        for form in encoded:
            _same(f"valor {form} fim")


def test_each_distinct_match_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two of the CPF patterns match the masked form, and the text repeats it: the check
    # digits are asked about once per distinct text within a call (issue 33).
    from recognizers.br_cpf import BrCpfRecognizer

    recognizer = BrCpfRecognizer()
    asked: list[str] = []
    validate, invalidate = recognizer.validate_result, recognizer.invalidate_result

    def spy_validate(text: str) -> bool | None:
        asked.append("validate " + text)
        return validate(text)

    def spy_invalidate(text: str) -> bool | None:
        asked.append("invalidate " + text)
        return invalidate(text)

    monkeypatch.setattr(recognizer, "validate_result", spy_validate)
    monkeypatch.setattr(recognizer, "invalidate_result", spy_invalidate)
    text = "cpf 529.982.247-25; " * 3 + "outro 529.982.247-24"
    found = recognizer.analyze(text, ["BR_CPF"])
    assert sorted(asked) == ["invalidate 529.982.247-24", "invalidate 529.982.247-25",
                             "validate 529.982.247-24", "validate 529.982.247-25"]
    assert [text[r.start:r.end] for r in sorted(found, key=lambda r: r.start)] \
        == ["529.982.247-25"] * 3


@pytest.mark.parametrize("form", [*IP_FORMS, "1.2.3.4%eth0", "fe80::1%25eth0", "1.2.3", "",
                                  "::ffff:1.2.3.4", "2001:db8::/129", " 1.2.3.4"])
def test_the_ip_check_without_a_prefix_is_presidios(form: str) -> None:
    # Without a "/", BrIpRecognizer reads the address parse instead of an interface's.
    from presidio_analyzer.predefined_recognizers import IpRecognizer

    ours, presidio = BrIpRecognizer(), IpRecognizer()
    for text in (form, form.upper(), form.split("/", maxsplit=1)[0]):
        assert ours.invalidate_result(text) == bool(presidio.invalidate_result(text)), text

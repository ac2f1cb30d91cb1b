"""benchmarks/zoo.py: the seeded log families are deterministic, well formed, and hold
their planted values (valid CPFs and CNPJs) on a small share of their lines."""

from __future__ import annotations

import functools
import json
import math
import re
from xml.etree import ElementTree

import pytest

from benchmarks import synthetic as syn
from benchmarks import throughput, zoo

MB = 0.05
NAMES = list(zoo.FAMILIES)
#: Lines a share of planted lines is measured on (long-line families write few per 50 kB).
MIN_LINES = 2000

CPF_SHAPE = re.compile(r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{11}")
CNPJ_SHAPE = re.compile(r"[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}"
                        r"|\d{14}|(?=[0-9A-Z]*[A-Z])[0-9A-Z]{12}\d{2}")
#: Every CPF- or CNPJ-shaped token of a text (the corpora write upper-case CNPJs).
CANDIDATE = re.compile(r"(?<![\w.])(?:" + CNPJ_SHAPE.pattern + "|" + CPF_SHAPE.pattern
                       + r")(?![\w])")


@functools.cache
def text_of(name: str, seed: int = 7, megabytes: float = MB) -> tuple[str, tuple[str, ...]]:
    text, planted = zoo.generate(name, megabytes, seed)
    return text, tuple(planted)


@functools.cache
def sized(name: str) -> float:
    """Megabytes of ``name`` holding at least MIN_LINES lines."""
    return MB * math.ceil(MIN_LINES / text_of(name)[0].count("\n"))


def bare(value: str) -> str:
    return re.sub(r"[.\-/]", "", value)


def is_valid(value: str) -> bool:
    digits = bare(value)
    if CPF_SHAPE.fullmatch(value):
        return syn.cpf_is_valid_reference(digits)
    return syn.cnpj_is_valid_reference(digits)


def test_the_registry() -> None:
    expected = ["apache-combined", "nginx-json", "syslog", "java-spring", "kubernetes-json",
                "postgresql", "sap", "cloudtrail", "windows-event", "django-rails",
                "json-debug"]
    assert NAMES[:len(expected)] == expected
    assert {"section6", "digits"} <= set(NAMES)
    assert len(set(NAMES) - {"section6", "digits"}) >= 11
    for name, family in zoo.FAMILIES.items():
        assert family.name == name
        assert family.extension in (".log", ".jsonl")
        assert family.description and "\n" not in family.description
    assert {n for n, f in zoo.FAMILIES.items() if f.extension == ".jsonl"} == {
        "nginx-json", "kubernetes-json", "cloudtrail", "json-debug"}


def test_the_existing_corpora_are_wrapped() -> None:
    assert zoo.generate("section6", MB) == throughput.corpus(MB)
    assert zoo.generate("digits", MB) == throughput.digit_corpus(MB)


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_sized_and_newline_terminated(name: str) -> None:
    text, planted = text_of(name)
    again, planted_again = zoo.generate(name, MB, 7)
    assert (again, planted_again) == (text, list(planted))
    assert text_of(name, 8)[0] != text
    assert abs(len(text.encode()) - MB * 1e6) <= 0.1 * MB * 1e6
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert all(line.strip() for line in text.splitlines())
    assert max(len(line) for line in text.splitlines()) <= 1200


@pytest.mark.parametrize("name", [n for n, f in zoo.FAMILIES.items() if f.extension == ".jsonl"])
def test_json_lines(name: str) -> None:
    for seed in (7, 8):
        for line in text_of(name, seed)[0].splitlines():
            assert isinstance(json.loads(line), dict)


def test_kubernetes_lines_wrap_one_app_line() -> None:
    for line in text_of("kubernetes-json")[0].splitlines():
        record = json.loads(line)
        assert set(record) == {"log", "stream", "time"}
        assert record["log"].endswith("\n") and record["log"].count("\n") == 1


def test_windows_events_are_xml() -> None:
    namespace = "{http://schemas.microsoft.com/win/2004/08/events/event}"
    for seed in (7, 8):
        for line in text_of("windows-event", seed)[0].splitlines():
            event = ElementTree.fromstring(line)
            assert event.tag == f"{namespace}Event"
            assert event.find(f"{namespace}System/{namespace}EventID") is not None


@pytest.mark.parametrize("name", NAMES)
def test_planted_values_occur_on_a_small_share_of_lines(name: str) -> None:
    for seed in (7, 8):
        text, planted = text_of(name, seed, sized(name))
        assert planted
        assert all(value and value in text for value in planted)
        lines_of = text.splitlines()
        hit = sum(1 for line in lines_of if any(value in line for value in planted))
        assert 0.005 <= hit / len(lines_of) <= 0.05, (seed, hit, len(lines_of))


@pytest.mark.parametrize("name", NAMES)
def test_planted_identifiers_pass_their_checks_and_near_misses_fail(name: str) -> None:
    documents = valid_seen = 0
    near_misses = 0
    for seed in (7, 8):
        text, planted = text_of(name, seed, sized(name))
        for value in planted:
            if CPF_SHAPE.fullmatch(value) or CNPJ_SHAPE.fullmatch(value):
                documents += 1
                assert is_valid(value), value
        # Every CPF/CNPJ-shaped token that passes its check was planted; the others
        # (invalid CPFs and CNPJs, mobile numbers, order ids) are the near misses.
        wanted = set(planted)
        for match in CANDIDATE.finditer(text):
            if is_valid(match.group()):
                valid_seen += 1
                assert match.group() in wanted, match.group()
            else:
                near_misses += 1
    assert documents and valid_seen
    assert near_misses


def test_families_plant_the_documented_mix() -> None:
    planted = [v for name in NAMES for v in text_of(name, 7, 0.3)[1]]
    masked_cpf = [v for v in planted if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}", v)]
    bare_cpf = [v for v in planted if re.fullmatch(r"\d{11}", v)]
    cnpj = [v for v in planted if CNPJ_SHAPE.fullmatch(v)]
    alnum_cnpj = [v for v in cnpj if re.search("[A-Z]", v)]
    emails = [v for v in planted if re.fullmatch(r"[a-z.0-9]+@(?:exemplo\.com\.br|example\.com)",
                                                   v)]
    addresses = [v for v in planted if re.fullmatch(r"(?:192\.0\.2|198\.51\.100|203\.0\.113)"
                                                      r"\.\d{1,3}", v)]
    phones = [v for v in planted if v.startswith(("+55", "("))]
    assert len(masked_cpf) + len(bare_cpf) + len(cnpj) > len(planted) / 2
    assert masked_cpf and bare_cpf and alnum_cnpj and emails and addresses and phones
    assert all("@" not in v or v.endswith(("@exemplo.com.br", "@example.com")) for v in planted)

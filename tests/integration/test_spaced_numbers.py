"""A CPF or CNPJ written with spaces has a space between every group; fields of a log
line that happen to pass the check digits (``107 302 15997``: a haproxy line's byte
count and timers) run some groups together, and need a keyword to count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from benchmarks import synthetic as syn
from recognizers.base import spaced_with_groups_joined
from redactor import Redactor
from tests.strategies import cnpjs, cpfs


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor()


def _entities(engine: Redactor, text: str) -> list[tuple[str, str]]:
    return [(f.entity_type, text[f.start:f.end]) for f in engine.analyze(text)]


def _cpf_fields(cpf: str) -> str:
    return f"{cpf[:3]} {cpf[3:6]} {cpf[6:]}"  # 3-3-5: the last groups joined


def _cnpj_fields(cnpj: str) -> str:
    return f"{cnpj[:5]} {cnpj[5:8]} {cnpj[8:]}"  # 5-3-6


@settings(max_examples=60, deadline=None)
@given(cpfs(), cnpjs(alphanumeric=False))
def test_log_fields_passing_the_check_digits_are_no_identifier(
        engine: Redactor, cpf: str, cnpj: str) -> None:
    line = (f"haproxy[811]: 10.0.0.9:5123 [09/Dec/2024:10:00:00.120] web app/srv1 "
            f"{_cpf_fields(cpf)} - - ---- 1/1/0/0/0 0/0 {_cnpj_fields(cnpj)} \"GET / HTTP/1.1\"")
    found = {e for e, _ in _entities(engine, line)}
    assert not found & {"BR_CPF", "BR_CNPJ"}


@settings(max_examples=60, deadline=None)
@given(cpfs(), cnpjs(alphanumeric=False))
def test_a_keyword_lifts_them(engine: Redactor, cpf: str, cnpj: str) -> None:
    assert ("BR_CPF", _cpf_fields(cpf)) in _entities(engine, f"CPF: {_cpf_fields(cpf)}")
    assert ("BR_CNPJ", _cnpj_fields(cnpj)) in _entities(engine, f"CNPJ {_cnpj_fields(cnpj)}")


@pytest.mark.parametrize("text, written", [
    ("enviado 529 982 247 25 ontem", "529 982 247 25"),
    ("enviado 529.982.247 25 ontem", "529.982.247 25"),
    ("enviado 529.982.247 - 25 ontem", "529.982.247 - 25"),
    ("enviado 529982247-25 ontem", "529982247-25"),
    ("enviado 529%20982%20247%2025 ontem", "529%20982%20247%2025"),
])
def test_every_group_spaced_or_no_space_still_counts_alone(
        engine: Redactor, text: str, written: str) -> None:
    assert ("BR_CPF", written) in _entities(engine, text)


def test_a_cnpj_with_every_group_spaced_counts_alone(engine: Redactor) -> None:
    cnpj = "11222333" + "0001" + syn.cnpj_check_digits("112223330001")
    spaced = f"{cnpj[:2]} {cnpj[2:5]} {cnpj[5:8]} {cnpj[8:12]} {cnpj[12:]}"
    assert ("BR_CNPJ", spaced) in _entities(engine, f"fornecido {spaced} hoje")


CPF_GROUPS, CPF_APART = (3, 6, 9), (9,)
CNPJ_GROUPS, CNPJ_APART = (2, 5, 8, 12), (8, 12)


@pytest.mark.parametrize("written, cnpj, joined", [
    ("107 302 15997", False, True), ("529 982 247 25", False, False),
    ("52998224725", False, False), ("529982247 25", False, False),
    ("529%20982%20247%2025", False, False), ("529982247%2025", False, False),
    ("529 982247 25", False, True), ("45471 200 486047", True, True),
    ("11 222 333 0001 81", True, False), ("11.222.333/0001-81", True, False),
    ("11.222.333 0001-81", True, False), ("11222333 000181", True, False),
    ("11222333 0001 81", True, False), ("112223330001 81", True, False),
    ("11 222333 000181", True, True),
])
def test_which_numbers_run_groups_together(written: str, cnpj: bool, joined: bool) -> None:
    groups, apart = (CNPJ_GROUPS, CNPJ_APART) if cnpj else (CPF_GROUPS, CPF_APART)
    assert spaced_with_groups_joined(written, groups, apart) is joined


@pytest.mark.parametrize("text, entity", [
    ("Documento: 529982247 25", "BR_CPF"), ("enviado 529982247%2025", "BR_CPF"),
    ("recebido 11222333 000181", "BR_CNPJ"), ("recebido 11222333 0001 81", "BR_CNPJ"),
])
def test_a_part_set_apart_still_counts_alone(engine: Redactor, text: str, entity: str) -> None:
    assert entity in [e for e, _ in _entities(engine, text)]


@pytest.mark.parametrize("text", ["107 302 15997", "CPF 107 302 15997"])
def test_the_example_of_the_haproxy_corpus(engine: Redactor, text: str) -> None:
    # 107 302 15997 passes the CPF check digits (it was the corpus's wrong finding).
    assert syn.cpf_check_digits("107302159") == "97"
    found = [e for e, _ in _entities(engine, text)]
    assert ("BR_CPF" in found) is text.startswith("CPF")

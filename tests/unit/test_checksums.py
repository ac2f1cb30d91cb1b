"""Check digits: golden vectors (br-identifiers.md §16), quirks of validate-docbr, properties."""

from __future__ import annotations

import random

import pytest
from brutils import is_valid_cnpj, is_valid_cpf
from hypothesis import given, settings
from hypothesis import strategies as st
from validate_docbr import CNPJ, CPF

from benchmarks import synthetic as syn
from recognizers.checksums import canonical, cnpj_is_valid, cpf_is_valid
from tests.strategies import cnpjs, cpfs

CPF_VALID = ["111.444.777-35", "11144477735", "529.982.247-25", "39053344705", "52513127765",
             "11111111200", "12345678909", "111-444-777-35", "111 444 777 35", "111.444.777/35"]
CPF_INVALID = ["111.444.777-36", "11144477705", "23100299900", "12345678901", "11111111111",
               "00000000000", "9380826044", "949", "111444777350", "1114447773a", ""]
CNPJ_VALID = ["11.222.333/0001-81", "11222333000181", "74600269000145", "34665388000161",
              "16.727.230.0001-97", "12.ABC.345/01DE-35", "12ABC34501DE35", "12ABC345000188",
              "A1B2C3D41A2B62", "ABCDEFGH000195", "12.abc.345/01de-35"]
CNPJ_INVALID = ["11.222.333/0001-80", "11111111111111", "00000000000000", "00.000.000/0000-00",
                "12ABC34501DE34", "12ABC34501DE45", "12ABC34501DE3A", "1122233300018",
                "AAAAAAAAAAAAAA"]


@pytest.mark.parametrize("value", CPF_VALID)
def test_cpf_golden_valid(value: str) -> None:
    assert cpf_is_valid(value)


@pytest.mark.parametrize("value", CPF_INVALID)
def test_cpf_golden_invalid(value: str) -> None:
    assert not cpf_is_valid(value)


@pytest.mark.parametrize("value", CNPJ_VALID)
def test_cnpj_golden_valid(value: str) -> None:
    assert cnpj_is_valid(value)


@pytest.mark.parametrize("value", CNPJ_INVALID)
def test_cnpj_golden_invalid(value: str) -> None:
    assert not cnpj_is_valid(value)


def test_base36_mistake_is_rejected() -> None:
    # Valuing letters A=10..Z=35 gives 45 for the official example; the rule is ASCII - 48.
    assert syn.cnpj_check_digits("12ABC34501DE") == "35"
    assert not cnpj_is_valid("12ABC34501DE45")


def test_fullwidth_digits_fold_to_ascii() -> None:
    assert cpf_is_valid("１１１４４４７７７３５")
    assert canonical("１１１.４４４") == "111444"


def test_validate_docbr_quirks_are_guarded() -> None:
    # validate-docbr zero-pads short input; the guard demands the exact length.
    assert CPF().validate("9380826044") and CPF().validate("949")
    assert not cpf_is_valid("9380826044") and not cpf_is_valid("949")


def test_oracles_disagree_only_where_documented() -> None:
    # brutils rejects masked input and lowercase alphanumeric CNPJs; validate-docbr accepts.
    assert CNPJ().validate("12.abc.345/01de-35") and not is_valid_cnpj("12abc34501de35")
    assert cnpj_is_valid("12.abc.345/01de-35")
    rng = random.Random(5)
    for _ in range(2000):
        digits = "".join(rng.choice("0123456789") for _ in range(11))
        assert cpf_is_valid(digits) == is_valid_cpf(digits) == CPF().validate(digits)
        fourteen = "".join(rng.choice("0123456789") for _ in range(14))
        assert cnpj_is_valid(fourteen) == is_valid_cnpj(fourteen) == CNPJ().validate(fourteen)


def test_generated_values_agree_with_both_libraries() -> None:
    rng = random.Random(11)
    for _ in range(500):
        cpf = syn.random_cpf(rng)
        assert cpf_is_valid(cpf) and is_valid_cpf(cpf) and CPF().validate(cpf)
        cnpj = syn.random_cnpj(rng)
        assert cnpj_is_valid(cnpj) and is_valid_cnpj(cnpj)
        alnum = syn.random_cnpj(rng, alphanumeric=True)
        assert cnpj_is_valid(alnum) and is_valid_cnpj(alnum) and CNPJ().validate(alnum)


@given(cpfs())
@settings(max_examples=300)
def test_generated_cpf_validates_in_every_form(cpf: str) -> None:
    for form in syn.cpf_forms(cpf).values():
        assert cpf_is_valid(form)


@given(cnpjs())
@settings(max_examples=300)
def test_generated_cnpj_validates_in_every_form(cnpj: str) -> None:
    for form in syn.cnpj_forms(cnpj).values():
        assert cnpj_is_valid(form)


@given(cpfs(), st.integers(0, 10), st.integers(1, 9))
@settings(max_examples=500)
def test_single_digit_change_in_cpf(cpf: str, position: int, delta: int) -> None:
    mutated = cpf[:position] + str((int(cpf[position]) + delta) % 10) + cpf[position + 1:]
    if position >= 9:
        # A changed check digit is always caught.
        assert not cpf_is_valid(mutated)
    else:
        # In the base, mod 11 folds remainders 0 and 1 onto the same digit, so a few
        # changes keep both DVs (0.19 % of all single-digit changes, measured); the
        # validator must agree with the algorithm on every one of them.
        assert cpf_is_valid(mutated) == syn.cpf_is_valid_reference(mutated)


@given(cnpjs(), st.integers(0, 13), st.data())
@settings(max_examples=500)
def test_single_character_change_in_cnpj(cnpj: str, position: int, data: st.DataObject) -> None:
    pool = syn.ALNUM if position < 12 else "0123456789"
    replacement = data.draw(st.sampled_from([c for c in pool if c != cnpj[position]]))
    mutated = cnpj[:position] + replacement + cnpj[position + 1:]
    if position >= 12:
        assert not cnpj_is_valid(mutated)
    else:
        # Letters valued ASCII - 48 collide modulo 11 with digits ("V" = 38 = 5 mod 11),
        # so some letter swaps keep the DVs; agreement with the algorithm is what holds.
        assert cnpj_is_valid(mutated) == syn.cnpj_is_valid_reference(mutated)


def test_single_digit_change_in_numeric_cnpj_is_mostly_caught() -> None:
    rng = random.Random(3)
    caught = total = 0
    for _ in range(300):
        cnpj = syn.random_cnpj(rng)
        for position in range(14):
            for digit in "0123456789":
                if digit == cnpj[position]:
                    continue
                total += 1
                caught += not cnpj_is_valid(cnpj[:position] + digit + cnpj[position + 1:])
    assert caught / total > 0.99

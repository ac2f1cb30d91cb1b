"""Check digits of the other Brazilian identifiers: golden vectors, mutations, oracles.

Vectors are br-identifiers.md §16 (documented example values).  validate-docbr is the
validator behind the guards; brutils is the second oracle, and the two differ only where
the document says they do (asserted below).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import synthetic as syn
from recognizers import checksums as c

VALID: dict[str, tuple[Callable[[str], bool], list[str]]] = {
    "cnh": (c.cnh_is_valid, ["02926434554", "029 264 345 54", "65821310502", "77625261946",
                             "82391823700", "10764125809", "82391823702"]),
    "pis": (c.pis_is_valid, ["120.38619.49-4", "12038619494", "12016784018", "12083210826"]),
    "titulo": (c.titulo_is_valid, ["1000 0000 0124", "100000002828", "217633460930",
                                   "123456780396", "123456780191", "356659360141",
                                   "356659360140"]),
    "cns": (c.cns_is_valid, ["898 0000 0004 3208", "737944386427509", "973454502988455",
                             "120386194940008", "250858423910018"]),
    "renavam": (c.renavam_is_valid, ["01993520012", "0199352001-2", "13824652268",
                                     "08543317523"]),
    "rg_sp": (c.rg_sp_is_valid, ["12.345.678-2", "3.021.415-4", "18.006.423-X"]),
    "cnj": (c.cnj_is_valid, ["0000001-54.2014.8.26.0564"]),
    "brcode": (c.brcode_crc_ok, [
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802"
        "BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"]),
}
INVALID: dict[str, list[str]] = {
    "cnh": ["78623161668", "02926434555", "11111111111", "0292643455"],
    "pis": ["12038619493", "11111111215", "00000000000", "1203861949"],
    "titulo": ["100000010000", "123456782992", "100000000125", "111111111111"],
    "cns": ["898000000043209", "398000000043208", "89800000004320"],
    "renavam": ["38872054170", "01993520013", "00000000000"],
    "rg_sp": ["12.345.678-3"],
    "cnj": ["0000001-55.2014.8.26.0564", "0000001-54.2014.8.26.056",
            "0000100-69.2008.0.00.0000"],  # check digits pass; no segment 0 (art. 1º, § 4º)
    "brcode": [
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802"
        "BR5913Fulano de Tal6008BRASILIA62070503***63041D3E"],
}


@pytest.mark.parametrize("kind", sorted(VALID))
def test_golden_vectors(kind: str) -> None:
    check, valid = VALID[kind]
    assert [v for v in valid if not check(v)] == []
    assert [v for v in INVALID[kind] if check(v)] == []


def _mutations(value: str) -> list[tuple[int, str]]:
    return [(i, value[:i] + d + value[i + 1:]) for i, ch in enumerate(value) if ch.isdigit()
            for d in "0123456789" if d != ch]


@pytest.mark.parametrize("kind", ["pis", "renavam", "cnj", "rg_sp"])
def test_every_one_digit_change_is_caught(kind: str) -> None:
    check, valid = VALID[kind]
    for value in valid:
        assert [m for _, m in _mutations(value) if check(m)] == []


def test_cns_misses_changes_only_where_the_weight_is_eleven() -> None:
    # Digit 5 carries weight 11 in the CNS sum: a change there cannot be seen.
    for value in ("898000000043208", "737944386427509", "120386194940008"):
        passing = {i for i, m in _mutations(value) if c.cns_is_valid(m)}
        assert passing <= {4}


@pytest.mark.parametrize("kind", ["cnh", "titulo"])
def test_one_digit_changes_follow_the_two_libraries(kind: str) -> None:
    """CNH and Título accept both libraries' rules; their "10 -> 0" steps let a few
    one-digit changes through in either library.  Ours passes exactly what one of
    them passes, and that stays rare."""
    import brutils
    from validate_docbr import CNH, TituloEleitoral

    docbr, other = ((CNH().validate, brutils.is_valid_cnh) if kind == "cnh"
                    else (TituloEleitoral().validate, brutils.is_valid_voter_id))
    check, valid = VALID[kind]
    total = passing = 0
    for value in valid:
        for _, mutated in _mutations(value.replace(" ", "")):
            total += 1
            expected = bool(docbr(mutated) or other(mutated))
            assert check(mutated) == expected, mutated
            passing += expected
    assert passing / total < 0.03


# ------------------------------------------------------------------ generate, then check

@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_generated_identifiers_pass(seed: int) -> None:
    rng = random.Random(seed)
    assert c.cnh_is_valid(syn.random_cnh(rng))
    assert c.pis_is_valid(syn.random_pis(rng))
    assert c.renavam_is_valid(syn.random_renavam(rng))
    assert c.titulo_is_valid(syn.random_titulo(rng))
    assert c.cns_is_valid(syn.random_cns(rng))
    assert c.rg_sp_is_valid(syn.random_rg_sp(rng))
    assert c.cnj_is_valid(syn.cnj_number(rng))
    assert c.brcode_crc_ok(syn.brcode(syn.random_evp(rng), "Fulano", "RECIFE"))


def test_crc_matches_the_standard_check_value() -> None:
    assert syn.crc16_ccitt_false(b"123456789") == 0x29B1


# ------------------------------------------------------------------ the two oracles

def test_validate_docbr_round_trips() -> None:
    from validate_docbr import CNH, CNS, PIS, RENAVAM, TituloEleitoral

    for cls, check in ((CNH, c.cnh_is_valid), (PIS, c.pis_is_valid), (CNS, c.cns_is_valid),
                       (RENAVAM, c.renavam_is_valid), (TituloEleitoral, c.titulo_is_valid)):
        values = cls().generate_list(300)
        assert [v for v in values if not check(v)] == [], cls.__name__


def test_libraries_differ_only_where_documented() -> None:
    import brutils
    from validate_docbr import CNH, PIS, RENAVAM, TituloEleitoral

    rng = random.Random(5)
    splits: dict[str, set[str]] = {"cnh": set(), "pis": set(), "renavam": set(), "titulo": set()}
    for _ in range(20000):
        digits11 = "".join(rng.choice("0123456789") for _ in range(11))
        digits12 = "".join(rng.choice("0123456789") for _ in range(12))
        if CNH().validate(digits11) != brutils.is_valid_cnh(digits11):
            splits["cnh"].add(digits11)
        if PIS().validate(digits11) != brutils.is_valid_pis(digits11):
            splits["pis"].add(digits11)
        if RENAVAM().validate(digits11) != brutils.is_valid_renavam(digits11):
            splits["renavam"].add(digits11)
        if TituloEleitoral().validate(digits12) != brutils.is_valid_voter_id(digits12):
            splits["titulo"].add(digits12)
    # CNH: only where the first remainder is 10 (validate-docbr's discount rule).
    for value in splits["cnh"]:
        first = sum(int(d) * w for d, w in zip(value[:9], range(9, 0, -1), strict=True)) % 11
        assert first == 10, value
        assert c.cnh_is_valid(value)  # redactor accepts both rules
    # Título: only UF 01/02 with a remainder 0 (the SP/MG exception).
    for value in splits["titulo"]:
        assert value[8:10] in ("01", "02"), value
        assert c.titulo_is_valid(value)
    # PIS and RENAVAM: the libraries agree on random input (they split on 00000000000 only).
    assert splits["pis"] == set() and splits["renavam"] == set()
    assert brutils.is_valid_pis("00000000000") and not PIS().validate("00000000000")
    assert RENAVAM().validate("00000000000") and not brutils.is_valid_renavam("00000000000")
    assert not c.pis_is_valid("00000000000") and not c.renavam_is_valid("00000000000")
    assert brutils.is_valid_cnh("82391823702") and not CNH().validate("82391823702")
    assert CNH().validate("10764125809") and not brutils.is_valid_cnh("10764125809")


def test_cnj_check_digits_against_brutils() -> None:
    # brutils computes 97 - (n*100 mod 97), one less than ISO 7064 mod 97-10 (98 - ...),
    # and also requires the court and forum to be on its own list; redactor follows ISO.
    from brutils.legal_process import _checksum

    rng = random.Random(2)
    for _ in range(200):
        value = syn.cnj_number(rng)
        digits = value.replace("-", "").replace(".", "")
        base = digits[:7] + digits[9:]
        ours = int(digits[7:9])
        assert (int(_checksum(int(base))) - ours) % 97 == 96
        assert c.cnj_is_valid(value)


def test_every_one_character_change_of_a_br_code_breaks_its_crc() -> None:
    (payload,) = VALID["brcode"][1]
    body = payload[:-4]
    alphabet = "0123456789ABCDEFabcdef .*-"
    for index in range(len(body)):
        for char in alphabet:
            if char != body[index]:
                changed = body[:index] + char + body[index + 1:] + payload[-4:]
                assert not c.brcode_crc_ok(changed), (index, char)


def test_dash_and_space_variants_read_as_their_ascii_form() -> None:
    # python-stdnum's example of the alphanumeric CNPJ, with an en dash; the engine maps
    # the dash before matching, and the checks read it the same way on their own.
    assert c.cnpj_is_valid("12. ABC.345 /01DE\u201335")
    assert c.cpf_is_valid("529.982.247\u221225") and c.cpf_is_valid("529\u00a0982\u00a0247\u00a025")
    assert c.canonical("0199352001\u20132") == "01993520012"

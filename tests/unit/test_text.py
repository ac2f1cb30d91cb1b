"""Matching normalisation and raw-text context words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from recognizers._text import ContextWords, fold, normalize_for_matching


@given(st.text())
def test_normalisation_keeps_length(text: str) -> None:
    assert len(normalize_for_matching(text)) == len(text)


def test_normalisation_maps_lookalikes() -> None:
    assert normalize_for_matching("１１１．４４４\u2013７７７\u00a035") == "111.444-777 35"
    assert normalize_for_matching("a\u200bb\u2212c") == "a b-c"


def test_fold() -> None:
    assert fold("Usuário CNPJ Razão") == "usuario cnpj razao"


def test_context_words_both_sides_and_phrases() -> None:
    words = ContextWords(["cpf", "razao social", "c.p.f."])
    text = "valor 12345 do CPF"
    assert words.near(text, 6, 11)  # keyword after the match
    assert words.near("Razão Social: ACME 999", 19, 22)
    assert words.near("C.P.F. 999", 7, 10)
    assert words.near("os CPFs 999", 8, 11)  # plural
    assert not words.near("cpfx 999", 5, 8)
    far = "cpf " + "palavra " * 6 + "999"
    assert not words.near(far, len(far) - 3, len(far))


def test_context_labels() -> None:
    words = ContextWords(["cpf"])
    assert words.in_labels(["cliente", "cpf_titular"])
    assert not words.in_labels(["cliente"])

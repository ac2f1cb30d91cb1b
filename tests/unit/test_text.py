"""Matching normalisation and raw-text context words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers._text import MATCHING_TABLE, ContextWords, fold, normalize_for_matching


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


_PIECES = ["cpf", "CPF", " ", "  ", "conta", "corrente", "-", "_", "x1", "user", "users", ".",
           "é", "agência", "Agencia", "\n", "12", "İ", "ß", "ａ"]


@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.data())
def test_indexed_context_distance_equals_the_slice_by_slice_one(
        pieces: list[str], data: st.DataObject) -> None:
    """Once a text is asked about often, its words come from an index: same answers."""
    import recognizers._text as text_module

    words = ContextWords(["cpf", "conta corrente", "user", "agência"])
    text = "".join(pieces)
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))),
                               min_size=1, max_size=10))
    for a, b in spans:
        start, end = min(a, b), max(a, b)
        text_module._recent.state = None
        by_slices = words.distance(text, start, end)  # first call: slices
        text_module._recent.state = [text, 0, text_module._WordIndex(text)]
        assert words.distance(text, start, end) == by_slices


def test_many_matches_in_one_text_use_the_index() -> None:
    import recognizers._text as text_module

    words = ContextWords(["cpf"])
    text = "cpf 1 " * 100
    answers = [words.distance(text, 4 + 6 * k, 5 + 6 * k) for k in range(40)]
    assert answers == [0] * 40
    assert text_module._recent.state[0] is text and text_module._recent.state[2] is not None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(
    st.characters(max_codepoint=0x17F),
    st.sampled_from("".join(chr(c) for c in sorted(MATCHING_TABLE))),
    st.characters()), max_size=60))
def test_normalizing_equals_the_translation_table(text: str) -> None:
    assert normalize_for_matching(text) == text.translate(MATCHING_TABLE)

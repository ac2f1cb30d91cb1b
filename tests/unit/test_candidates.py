"""The candidate scanner's pieces: trigger helpers, backends, the compiled-database cache."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers._text import fold
from recognizers.prefilter import (
    Prefilter,
    Trigger,
    keyword_triggers,
    literal_pattern,
    outside_trigger_alphabet,
)
from redactor.candidates import Scanner, available_backend

needs_hyperscan = pytest.mark.skipif(available_backend() != "hyperscan",
                                     reason="hyperscan (the fast extra) is not installed")


@pytest.mark.parametrize("spelling", ["usuario", "USUÁRIO", "Usuário", "usua\u0301rio", "ÜSÜÀRÎÖ"])
def test_literal_pattern_matches_every_spelling_that_folds_alike(spelling: str) -> None:
    assert fold(spelling) == "usuario"
    assert re.fullmatch(literal_pattern("usuário"), spelling)


def test_literal_pattern_rejects_other_words() -> None:
    assert not re.search(literal_pattern("cel"), "cal cěx c-e-l")


def test_keyword_triggers_cover_phrases_by_a_word_or_in_order() -> None:
    triggers = keyword_triggers(["cadastro de pessoa fisica", "c.n.p.j.", "tel"], reach=10)
    words, phrases = triggers
    assert re.search(words.pattern, "CADASTRO") and re.search(words.pattern, "Tel:")
    assert words.max_length is not None and phrases.max_length is None
    assert re.search(phrases.pattern, "C. N. P. J.") and not re.search(phrases.pattern, "c n x j")


def test_a_phrase_holding_a_keyword_or_a_word_of_three_letters_needs_no_phrase_trigger() -> None:
    (words,) = keyword_triggers(["cpf", "cpf/mf", "pix key", "sus card"], reach=10)
    for text in ("CPF/MF", "chave pix key", "sus card", "cpfs"):
        assert re.search(words.pattern, text), text
    # Whole words only: a keyword inside a longer word is no hit.
    for text in ("cpfx", "suspenso", "apix"):
        assert not re.search(words.pattern, text), text


def test_texts_outside_the_trigger_alphabet_are_recognised() -> None:
    assert not outside_trigger_alphabet("ação, usuário, naïve, ÿ, — and 日本語")
    for exotic in ("𝟓", "٣", "Ⓐ", "ﬁ", "ー", "a\u0301\u0301\u0301", "＋55"):
        assert outside_trigger_alphabet(exotic), exotic


def _scanner(backend: str) -> Scanner:
    return Scanner([
        Prefilter("A", (Trigger("ab", after=2, name="ab"), Trigger("b+c", name="bc")),
                  margin_before=3, margin_after=3),
        Prefilter("B", (Trigger("c", accept=lambda t, s, e: t[e:e + 1] != "!",
                                name="c"),), margin_before=1, margin_after=1),
    ], backend=backend)


needs_re2 = pytest.mark.skipif(importlib.util.find_spec("re2") is None,
                               reason="google-re2 is not installed")


@pytest.mark.parametrize("backend", ["re", pytest.param("hyperscan", marks=needs_hyperscan),
                                     pytest.param("re2", marks=needs_re2)])
def test_regions_cover_hits_reach_and_margins_and_honour_accept(backend: str) -> None:
    scanner = _scanner(backend)
    text = "xxxxabcxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxc!xx"
    regions = scanner.regions(text)
    assert set(regions) == {"A", "B"}
    (a,) = regions["A"]
    assert a.start == 4 - 3 and a.trust_from == 4 and a.trust_to >= 7  # "abc" + reach
    (b,) = regions["B"]  # only the first "c": the second is followed by "!"
    assert b.start == 5 and b.end == 8 and (b.trust_from, b.trust_to) == (6, 7)


@needs_hyperscan
def test_hyperscan_database_is_cached_and_a_bad_cache_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hyperscan

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _scanner("hyperscan")
    (cached,) = (tmp_path / "redactor").glob("prefilter-*.hsdb")

    def no_compile(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although cached")

    monkeypatch.setattr(hyperscan, "Database", no_compile)
    assert set(_scanner("hyperscan").regions("ab c")) == {"A", "B"}
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached.write_bytes(b"not a database")
    assert set(_scanner("hyperscan").regions("ab c")) == {"A", "B"}


def test_unknown_backend_is_an_error() -> None:
    with pytest.raises(ValueError, match="backend"):
        Scanner([], backend="pcre")


def _outside_by_search(text: str) -> bool:
    """The definition, as one search of the whole text (what the set lookup replaced)."""
    from recognizers.prefilter import _MANY_MARKS, _outside_characters

    pattern = re.compile("[" + "".join(re.escape(c) for c in sorted(_outside_characters()))
                         + "]")
    return not text.isascii() and (pattern.search(text) is not None
                                   or _MANY_MARKS.search(text) is not None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(
    st.characters(max_codepoint=0x24F),
    st.sampled_from("\u0301\u0302\u0303\u0327\u1ab0\u20dd𝐚٣Ⓐ\uff10\u30fc日本語ŀĿ"),
    st.characters()), max_size=40))
def test_the_alphabet_check_equals_a_search_of_the_whole_text(text: str) -> None:
    assert outside_trigger_alphabet(text) == _outside_by_search(text)

"""The candidate scanner's pieces: trigger helpers, backends, the compiled-database cache."""

from __future__ import annotations

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
from redactor.candidates import Scanner

# Skipped without the backend, failed under tests/run.sh instead (tests/needs.py).
needs_hyperscan = pytest.mark.needs("hyperscan")


@pytest.mark.parametrize("spelling", ["usuario", "USUÁRIO", "Usuário", "usua\u0301rio", "ÜSÜÀRÎÖ"])
def test_literal_pattern_matches_every_spelling_that_folds_alike(spelling: str) -> None:
    assert fold(spelling) == "usuario"
    assert re.fullmatch(literal_pattern("usuário"), spelling)


def test_literal_pattern_rejects_other_words() -> None:
    assert not re.search(literal_pattern("cel"), "cal cěx c-e-l")


def test_keyword_triggers_cover_phrases_by_a_word() -> None:
    (words,) = keyword_triggers(["cadastro de pessoa fisica", "c.n.p.j.", "tel"], reach=10)
    assert re.search(words.pattern, "CADASTRO") and re.search(words.pattern, "Tel:")
    assert words.max_length is not None
    # A phrase of one- and two-letter words: its last word, standing alone.
    assert re.search(words.pattern, "C. N. P. J.") and re.search(words.pattern, "c.n.p.j:")
    assert not re.search(words.pattern, "cnpj jx xj j2")


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


needs_re2 = pytest.mark.needs("re2")


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
    # One database per mode: Latin-1 bytes and UTF-8 (the keyword groups are empty).
    cached = sorted((tmp_path / "redactor").glob("prefilter-*.hsdb"))
    assert len(cached) == 2

    def no_compile(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although cached")

    monkeypatch.setattr(hyperscan, "Database", no_compile)
    assert set(_scanner("hyperscan").regions("ab c")) == {"A", "B"}
    assert set(_scanner("hyperscan").regions("ab c \u2014")) == {"A", "B"}  # UTF-8
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for path in cached:
        path.write_bytes(b"not a database")
    assert set(_scanner("hyperscan").regions("ab c")) == {"A", "B"}
    assert set(_scanner("hyperscan").regions("ab c \u2014")) == {"A", "B"}


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


# ----------------------------------------------------------- Latin-1 translation

_LATIN_PATTERNS = [
    "(?:^|[^A-Za-z0-9\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f])"
    "(?:[Uu\u00d9-\u00dc\u00f9-\u00fc\u0168-\u0173][\u0300-\u036f]{0,2}[Ss\u015a-\u0161])"
    "(?:[Ss\u015a-\u0161])?(?:[^A-Za-z0-9]|$)",
    "(?i:rua|av\u00e9|stra\u00dfe)[ \\t]+[0-9]{1,5}",
    "[0-9]{3}[\u2022*]{3}[-.][0-9]{2}",                  # a member beyond U+00FF
    "x\u2022y|z[0-9]+",                                  # a literal beyond U+00FF
    "\\(\\+?[0-9]{2}\\)[ ]?[0-9]{4,5}-[0-9]{4}",
    "\\{[a-z]+\\}|[\\]\\[-]|a{2,3}",
    "[^0-9A-Za-z]\u00e7[\u0300-\u036f]\u00e3o",           # a mark that is not optional
]
_LATIN_TEXT = st.text(alphabet=st.sampled_from(
    "aAuUsSzZxy\u00e7\u00c7\u00e3\u00e9\u00c9\u00fa\u00dc\u00dfrRvV0123456789 \t\n-.*()+{}[]:"
    "\u00aa\u00b5\u00ba\u00ff\u00d7\u00f7"), max_size=60)


@settings(max_examples=200, deadline=None)
@given(text=_LATIN_TEXT)
def test_a_translated_trigger_matches_the_latin1_bytes_where_the_original_matches_the_text(
        text: str) -> None:
    from redactor.candidates import latin1_pattern

    data = text.encode("latin-1")
    for pattern in _LATIN_PATTERNS:
        unicode_spans = [m.span() for m in re.finditer(pattern, text)]
        narrow = re.compile(latin1_pattern(pattern).encode("latin-1"))
        assert [m.span() for m in narrow.finditer(data)] == unicode_spans, pattern


def test_the_translation_drops_what_latin1_text_cannot_hold() -> None:
    from redactor.candidates import latin1_pattern

    assert latin1_pattern("[Aa\u0100\u0101][\u0300-\u036f]{0,2}b") == "[Aa]b"
    assert latin1_pattern("(?i:\u00e9)") == "(?i:[\\xc9\\xe9])"
    assert latin1_pattern("a\u2022") == "a[^\\x00-\\xff]"
    # Lazy and possessive quantifiers of a dropped class go with it; \\xHH is a character.
    assert latin1_pattern("a[\u0300-\u036f]??b[\u0301]*+c") == "abc"
    assert latin1_pattern("\\x41[\\xe0-\\xe2]") == "A[\\xe0-\\xe2]"


@needs_hyperscan
def test_the_pattern_that_matches_nothing_keeps_the_latin1_scan() -> None:
    from recognizers.prefilter import NEVER
    from redactor.candidates import latin1_pattern

    assert latin1_pattern(NEVER) == "[^\\x00-\\xff]"
    scanner = Scanner([Prefilter("A", (Trigger(NEVER, name="none"), Trigger("ab", name="ab")))],
                      backend="hyperscan")
    assert set(scanner.regions("ab")) == {"A"} and not scanner.regions("xx \u00e9")
    cells = dict(zip(scanner._scan.__code__.co_freevars,
                     (c.cell_contents for c in scanner._scan.__closure__ or ()), strict=True))
    assert cells["latin"] is True


@pytest.mark.parametrize("pattern", ["\\w+", "a(?=b)", "(ab", "ab)", "[ab", "\\u2022", "a\\"])
def test_syntax_the_translation_does_not_know_is_refused(pattern: str) -> None:
    from redactor.candidates import latin1_pattern

    with pytest.raises(ValueError):
        latin1_pattern(pattern)


@needs_hyperscan
def test_a_trigger_that_cannot_match_latin1_text_is_left_out_of_its_database() -> None:
    scanner = Scanner([Prefilter("A", (Trigger("x\u2022", name="bullet"),
                                       Trigger("ab", name="ab")))], backend="hyperscan")
    assert set(scanner.regions("ab x")) == {"A"}          # Latin-1: "ab" still hits
    assert [r.start for r in scanner.regions("x\u2022 " + "-" * 200)["A"]] == [0]  # UTF-8


@needs_hyperscan
def test_unknown_syntax_makes_every_text_scan_as_utf8() -> None:
    scanner = Scanner([Prefilter("A", (Trigger("a\\sb", name="s"),))], backend="hyperscan")
    assert set(scanner.regions("xa\tb")) == {"A"}
    assert not scanner.regions("xa_b")


_CACHE_FILES = """
import os, sys
from pathlib import Path
from redactor.config import Settings
from redactor.engine import Redactor
engine = Redactor(Settings(known_users=("jsilva", "maria.souza", "DEV-ADM")), prefilter="hyperscan")
engine.redact("x" * 400)
print(sorted(p.name for p in (Path(os.environ["XDG_CACHE_HOME"]) / "redactor").glob("prefilter-*")))
"""


@needs_hyperscan
def test_two_processes_with_other_hash_seeds_reuse_the_same_databases(tmp_path: Path) -> None:
    """Patterns built from sets must not follow the set's order, which hash randomisation
    changes per process: the cache key would change and the database be compiled (and a
    copy cached) at every engine build."""
    import os
    import subprocess
    import sys

    names = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _CACHE_FILES], env=env, text=True,
                              capture_output=True, check=True, cwd=Path(__file__).parents[2])
        names.append(done.stdout.strip())
    assert names[0] == names[1] == names[2]
    assert "prefilter-" in names[0]


@needs_hyperscan
def test_the_cache_keeps_the_newest_databases_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from redactor import candidates

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "redactor"
    folder.mkdir()
    for index in range(candidates.CACHED_DATABASES + 5):
        old = folder / f"prefilter-{index:032x}.hsdb"
        old.write_bytes(b"old")
        os.utime(old, (1_000_000 + index, 1_000_000 + index))
    other = folder / "words-pt.json"
    other.write_text("{}")
    _scanner("hyperscan")
    kept = sorted(folder.glob("prefilter-*.hsdb"))
    assert len(kept) == candidates.CACHED_DATABASES
    assert other.exists()  # only databases are pruned
    # The newest old ones and the two just written survive.
    assert not (folder / f"prefilter-{0:032x}.hsdb").exists()


def test_regions_keep_their_hits_with_the_trigger_names() -> None:
    # A trigger scanned alone keeps its name; plain triggers in a union are "any".
    scanner = Scanner([Prefilter("E", (
        Trigger("ab", after=5, name="one", alone=True),
        Trigger("cd", after=5, name="two"),
        Trigger("ef", after=5, name="three"),
    ))], "re")
    text = "xx ab yy cd " + " " * 5000 + "ef zz"
    regions = scanner.regions(text)["E"]
    assert [r.hits for r in regions] == [((3, 5, "one"), (9, 11, "any")),
                                         ((5012, 5014, "any"),)]


@needs_hyperscan
def test_hyperscan_reports_a_growing_match_once_at_its_longest() -> None:
    # An unbounded trigger's match grows digit by digit (192.0.2.254 ends at .2, .25
    # and .254): hyperscan reports each end; one hit, the longest, is kept when the
    # trigger has no accept (its window holds the others'), each one when it has.
    quad = "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}"
    plain = Scanner([Prefilter("IP", (Trigger(quad, name="ipv4", alone=True),))],
                    backend="hyperscan")
    text = "de 192.0.2.254 e 10.0.0.1 x"
    assert [(text[s:e], t.name) for _, t, s, e in plain._find(text)] == [
        ("192.0.2.254", "ipv4"), ("10.0.0.1", "ipv4")]
    judged = Scanner([Prefilter("IP", (Trigger(quad, name="ipv4", alone=True,
                                               accept=lambda t, s, e: True),))],
                     backend="hyperscan")
    assert [text[s:e] for _, _, s, e in judged._find(text)] == [
        "192.0.2.2", "192.0.2.25", "192.0.2.254", "10.0.0.1"]
    # The same regions either way.
    def extents(scanner: Scanner) -> list[tuple[int, int, int, int]]:
        return [(r.start, r.end, r.trust_from, r.trust_to) for r in scanner.regions(text)["IP"]]

    assert extents(plain) == extents(judged)

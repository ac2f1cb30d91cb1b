"""Matching normalisation and raw-text context words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers._text import (
    MATCHING_TABLE,
    ContextWords,
    fold,
    normalize_for_matching,
    wide_characters,
)


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
           "é", "agência", "Agencia", "\n", "12", "İ", "ß", "ａ",
           # Letters the triggers do not count as word characters, and marks (review).
           "α", "日", "\u0301", "e\u0301"]


_ASCII_PIECES = ["cpf", "CPF", " ", "  ", "conta", "corrente", "Conta", "-", "_", "x1", "user",
                 "users", "USERS", ".", "=", ":", "12", "\n", "tel", "telex", "agencia", "s"]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(_ASCII_PIECES), max_size=60), st.data(),
       st.integers(0, 6), st.integers(0, 4))
def test_ascii_context_distance_equals_the_slice_by_slice_one(
        pieces: list[str], data: st.DataObject, before: int, after: int) -> None:
    """Where a match's whole reach is ASCII, its words are read once from the reach:
    the same answers as each side sliced, folded and read apart."""
    words = ContextWords(["cpf", "conta corrente", "user", "agência", "tel"],
                         before=before, after=after)
    text = "".join(pieces)
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))),
                               min_size=1, max_size=10))
    for a, b in spans:
        start, end = min(a, b), max(a, b)
        lo, hi = words.reach(len(text), start, end)
        expected = words._sliced_distance(text, lo, hi, start, end)
        if before and words._keyword_right_before(text, lo, start):
            expected = 0
        assert words.distance(text, start, end) == expected


def test_ascii_reaches_take_the_single_reading() -> None:
    from unittest import mock

    words = ContextWords(["cpf"])
    text = "cpf x 1 " * 100
    with mock.patch.object(ContextWords, "_sliced_distance",
                           side_effect=AssertionError("sliced")):
        assert [words.distance(text, 6 + 8 * k, 7 + 8 * k) for k in range(40)] == [0] * 40
    # Beyond ASCII, the sides are sliced and folded.
    wide = "CPF x é 1"
    assert words.distance(wide, 8, 9) == 2
    with mock.patch.object(ContextWords, "_sliced_distance", return_value=None) as sliced:
        assert words.distance(wide, 8, 9) is None
    assert sliced.called


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(
    st.characters(max_codepoint=0x17F),
    st.sampled_from("".join(chr(c) for c in sorted(MATCHING_TABLE))),
    st.characters()), max_size=60))
def test_normalizing_equals_the_translation_table(text: str) -> None:
    assert normalize_for_matching(text) == text.translate(MATCHING_TABLE)


_KEYWORDS = ContextWords(["telefone", "tel", "celular", "número do processo", "straße"])
_KEYWORD_ALPHABET = st.sampled_from([*"telfonsTELÉéêçÇ ºª_-ß\u0301\u0327ﬁ", "ﬀ", "İ"])


@settings(max_examples=400)
@given(text=st.lists(st.one_of(st.sampled_from(["tel", "TELÉFONE", "telefône", "numero",
                                                "número", "strasse", "STRAẞE"]),
                               _KEYWORD_ALPHABET), max_size=12).map("".join))
def test_anywhere_finds_every_keyword_the_fold_holds(text: str) -> None:
    folded = fold(text)
    expected = any(word in folded for word in ("telefone", "tel", "celular", "numero", "strasse"))
    if expected:
        assert _KEYWORDS.anywhere(text)


def test_anywhere_on_text_without_keywords() -> None:
    assert not _KEYWORDS.anywhere("pedido 123 processado em 45 ms; ação concluída")
    assert _KEYWORDS.anywhere("ligue no TELÉFONE 123")
    # A keyword outside ASCII is looked for in the fold of the text.
    assert ContextWords(["ñandú"]).anywhere("o ÑANDÚ correu")


@given(text=st.text(alphabet=st.characters(exclude_categories=()), max_size=40))
def test_wide_characters_are_the_distinct_characters_beyond_ascii(text: str) -> None:
    expected = {char for char in text if ord(char) > 127}
    assert wide_characters(text) == expected
    assert wide_characters(text) == expected  # the remembered answer, asked again
    assert wide_characters(text + "é") == expected | {"é"}


def test_wide_characters_of_a_lone_surrogate() -> None:
    high, low = chr(0xD800), chr(0xDCFF)
    assert wide_characters(f"a{high}b{low} é") == {high, low, "é"}


def test_a_word_cut_by_the_context_window_is_no_keyword() -> None:
    words = ContextWords(["tel"])
    number = "11987654321"
    reach = 24 * words.after  # characters read after the match
    for tail, near in (("telex", False), ("tel", True), ("tel.", True), ("tels", False),
                       ("tel\u0301x", False), ("tel\u0301 x", True)):
        text = number + " " + "x" * (reach - 5) + " " + tail
        assert text[len(number) + reach - 3:len(number) + reach] == "tel"  # the edge
        assert words.near(text, 0, len(number)) is near, tail
    left = 24 * words.before
    for head, near in (("hotel", False), (" tel", True)):
        text = head + " " + "x" * (left - 5) + " " + number
        start = len(text) - len(number)
        assert text[start - left:start - left + 3] == "tel"
        assert words.near(text, start, len(text)) is near, head


def test_a_word_at_the_window_edge_is_cut_alike_in_both_readings() -> None:
    """The single reading of an ASCII reach decides a cut at the window's edge as the
    slices do (a word running on past the edge, into ``α`` or ``x``, is none)."""
    words = ContextWords(["tel"])
    number = "11987654321"
    reach = 24 * words.after
    left = 24 * words.before
    cases = []
    for tail in ("telα", "tel日", "telex", "tel", "tel\u0301x", "tel\u0301 x", "tel_x"):
        text = number + " " + "x" * (reach - 5) + " " + tail
        cases.append((text, 0, len(number)))
    for head in ("αtel", "日tel", "hotel", " tel", "e\u0301tel", "_tel"):
        text = head + " " + "x" * (left - 5) + " " + number
        cases.append((text, len(text) - len(number), len(text)))
    answers = set()
    for text, start, end in cases:
        lo, hi = words.reach(len(text), start, end)
        by_slices = words._sliced_distance(text, lo, hi, start, end)
        assert words.distance(text, start, end) == by_slices, text[-12:]
        answers.add(by_slices)
    assert None in answers and len(answers) > 1


LOGIN_PIECES = ["jsilva", "maria.souza", "svc-app", "app", "x", ".", "-", "_", " ", "\n",
                "@", "=", "/", "1", "é", "JSILVA", "ção", "..", "--"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LOGIN_PIECES), max_size=60),
       st.sets(st.sampled_from(["jsilva", "maria.souza", "svc-app", "app", "x1", "ção"]),
               min_size=1))
def test_each_name_searched_alone_finds_what_one_pass_finds(
        pieces: list[str], names: set[str]) -> None:
    # login_spans searches each of a few names with str.find, and many names in one
    # pass over the text's word chains (username._FIND_NAMES): the two agree.
    from unittest import mock

    from recognizers import username

    text = "".join(pieces)
    with mock.patch.object(username, "_FIND_NAMES", 10**6):
        alone = username.login_spans(text, names, {"jsilva"})
    with mock.patch.object(username, "_FIND_NAMES", 0):
        together = username.login_spans(text, names, {"jsilva"})
    assert alone == together


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*LOGIN_PIECES, "²", "ª", "Ç", "jsilvajsilva", "appapp"]),
                max_size=60),
       st.sets(st.sampled_from(["jsilva", "maria.souza", "svc-app", "app", "x1", "ção", "pp",
                                "appa", "jsilvaj", "ŝ"]), min_size=1),
       st.sets(st.sampled_from(["jsilva", "ção", "app"])),
       st.sampled_from([0, 10**6]))
def test_names_found_in_one_hyperscan_scan_are_those_str_find_finds(
        pieces: list[str], names: set[str], caseless: set[str], find_names: int) -> None:
    # A long Latin-1 text is searched for its names in one hyperscan scan
    # (username._literal_starts): the same spans, in the same order, as str.find per
    # name, overlapping occurrences included (here every text counts as long).
    from unittest import mock

    from recognizers import username

    text = "".join(pieces)
    with mock.patch.object(username, "_FIND_NAMES", find_names), \
            mock.patch.object(username, "_literal_starts", lambda haystack, names: None):
        searched = username.login_spans(text, names, caseless)
    with mock.patch.object(username, "_FIND_NAMES", find_names), \
            mock.patch.object(username, "_SCAN_FROM", 0), \
            mock.patch.object(username, "_COMPILE_FROM", 0):
        scanned = username.login_spans(text, names, caseless)
    assert list(scanned.items()) == list(searched.items())


def test_a_long_text_is_searched_in_one_scan() -> None:
    # The scan is what runs on a long Latin-1 text (a batch block), and it finds
    # overlapping occurrences as str.find does.
    from unittest import mock

    from recognizers import username

    text = ("GET / jsilva " + "x" * 100 + " ana.lima ção\n") * 4000
    names = {f"user{n}" for n in range(40)} | {"jsilva", "ana.lima"}
    calls: list[int] = []
    real = username._literal_starts

    def spy(haystack: str, wanted: object) -> object:
        result = real(haystack, wanted)  # type: ignore[arg-type]
        calls.append(result is not None)
        return result

    with mock.patch.object(username, "_literal_starts", spy):
        found = username.login_spans(text, names)
    assert calls == [True]
    assert len(found[("jsilva", False)]) == 4000
    assert len(found[("ana.lima", False)]) == 4000
    with mock.patch.object(username, "_COMPILE_FROM", 0):
        overlapping = username._literal_starts(("abab" + "x" * 28 + "aaa ") * 2000,
                                               {"aba", "b", "aa"})
    assert overlapping == {"aba": list(range(0, 72000, 36)),
                           "b": sorted([*range(1, 72000, 36), *range(3, 72000, 36)]),
                           "aa": sorted([*range(32, 72000, 36), *range(33, 72000, 36)])}
    # Names standing everywhere: the scan gives up (and the word chains are read).
    with mock.patch.object(username, "_COMPILE_FROM", 0):
        assert username._literal_starts("ab" * 40000, {"aba", "b"}) is username._CROWDED


PRODUCT_PIECES = ["Mozilla/5.0", "Safari/604.1", "Mobile", " ", "(", ")", "; ", ";", "/", "x",
                  "Linux", "Android 14", "rv:132.0", "KHTML, like Gecko", "é", "\n", "1.2",
                  "_", "-", "+", "."]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PRODUCT_PIECES), max_size=30), st.data())
def test_product_searches_from_the_last_space_find_what_the_full_search_finds(
        pieces: list[str], data: st.DataObject) -> None:
    # _in_product searches for a product before a keyword from the last space or "("
    # that can open it; the searches of the whole reach answer the same.
    from recognizers import _text

    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text)))
    lo = data.draw(st.integers(0, start))
    assert _text._product_before(text, lo, start) == (
        _text._PRODUCT_BEFORE.search(text, lo, start) is not None)
    assert _text._comment_before(text, lo, start) == (
        _text._COMMENT_BEFORE.search(text, lo, start) is not None)


def test_products_before_a_keyword_are_found() -> None:
    from recognizers import _text

    comment = "GET / Mozilla/5.0 (Linux; Android 14; "
    assert _text._comment_before(comment, 0, len(comment))
    assert not _text._comment_before(comment.replace("(", "[", 1), 0, len(comment))
    product = "x Chrome/130.0.0.0 "
    assert _text._product_before(product, 0, len(product))
    assert not _text._product_before(product, 0, len(product) - 1)
    assert not _text._product_before("Chrome /130.0 ", 0, 14)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from([p for p in LOGIN_PIECES if p.isascii()]
                                + ["JSilva", "u1", "u12", "a.b", "a-b"]), max_size=60),
       st.sets(st.sampled_from(["jsilva", "maria.souza", "svc-app", "app", "x1", "u1", "u12",
                                "a.b", "a-b", "b"]), min_size=1),
       st.sets(st.sampled_from(["jsilva", "app", "u1"])))
def test_many_names_in_ascii_are_the_word_chains_of_the_pass(
        pieces: list[str], names: set[str], caseless: set[str]) -> None:
    # Past _FIND_NAMES names an ASCII text's tokens are listed as strings and the names
    # among them searched (username._token_spans): the spans, and the order the names are
    # entered in, of the pass over its word chains.
    from unittest import mock

    from recognizers import username

    text = "".join(pieces)

    def chain_pass(haystack: str, wanted: set[str], folded: bool,
                   found: dict[tuple[str, bool], list[tuple[int, int]]]) -> None:
        for match in username._CHAIN.finditer(haystack):
            if match.group() in wanted:
                found.setdefault((match.group(), folded), []).append(match.span())

    expected: dict[tuple[str, bool], list[tuple[int, int]]] = {}
    chain_pass(text, {n for n in names if username._CHAIN.fullmatch(n)}, False, expected)
    chain_pass(text.casefold(), {n for n in caseless if username._CHAIN.fullmatch(n)}, True,
               expected)
    with mock.patch.object(username, "_FIND_NAMES", 0):
        assert list(username.login_spans(text, names, caseless).items()) == \
            list(expected.items())


def test_a_stream_s_growing_names_reuse_the_database_of_the_names_before() -> None:
    # A database compiled for a stream's names serves the next blocks while the names it
    # lacks are few (searched with str.find); many new ones compile a new one.  The
    # spans are those of the pass over word chains, past _FIND_NAMES names too.

    from recognizers import username

    base = [f"user{n}.lima" for n in range(200)]
    text = " ".join(f"x {name} y" for name in base[::3]) * 240 + " novo1 novo2 novo3"
    assert len(text) >= username._SCAN_FROM and text.isascii()

    def chain_pass(names: set[str]) -> list[tuple[tuple[str, bool], list[tuple[int, int]]]]:
        found: dict[tuple[str, bool], list[tuple[int, int]]] = {}
        for match in username._CHAIN.finditer(text):
            if match.group() in names:
                found.setdefault((match.group(), False), []).append(match.span())
        return list(found.items())

    username._LITERAL_DATABASES.clear()
    first = set(base)
    assert list(username.login_spans(text, first).items()) == chain_pass(first)
    assert len(username._LITERAL_DATABASES) == 1
    grown = first | {"novo1", "novo2", "novo3"}
    assert list(username.login_spans(text, grown).items()) == chain_pass(grown)
    assert len(username._LITERAL_DATABASES) == 1  # the names before served: none compiled
    many_more = grown | {f"outro{n}" for n in range(100)}
    assert list(username.login_spans(text, many_more).items()) == chain_pass(many_more)
    assert len(username._LITERAL_DATABASES) == 2


def test_names_written_inside_one_another_everywhere_are_read_in_one_pass() -> None:
    # Carried names that are pieces of one another (a, aa, aaa...) match at nearly every
    # place of a line of a's: the scan gives up past one occurrence per 8 characters
    # and the word chains are read instead (the review of issue 33's fourteenth stop: the
    # scan kept every occurrence, 5.6 GB for a 1 MB block), with the same spans.
    import time
    import tracemalloc

    from recognizers import username

    text = ("a" * 1000 + " ") * 199 + "aaa"
    for names in ({"a" * k for k in range(1, 101)}, {"a" * k for k in range(1, 40)}):
        tracemalloc.start()
        started = time.process_time()
        found = username.login_spans(text, names)
        seconds = time.process_time() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert found == {("aaa", False): [(len(text) - 3, len(text))]}
        assert peak < 50_000_000, peak
        del seconds  # (no wall-clock threshold: the memory bound is what is held)

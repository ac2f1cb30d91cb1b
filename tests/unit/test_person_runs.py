"""The runs of capitalised words read near the prefilter's hits only (issue 33): the
search of each window starts after a character no run holds, so the runs found are the
whole text's, and every run touching a window is among them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers import person

PIECES = ["Maria", "Souza", "da", "de", "E", "J.", "Ávila", "d'Ávila", "Ana-Maria", " ",
          "  ", "\n", " \n  ", "\t", "-", "'", "’", ".", ",", "1", "=", "/", "(", '"',
          "x", "ção", "OS", "Mac", "Mozilla/5.0", "; ", "_", "@"]


def touching(text: str, near: list[tuple[int, int]],
             runs: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(start, chain) for start, chain in runs
            if any(lo < start + len(chain) and start < hi for lo, hi in near)]


def windows(text: str, points: list[int]) -> list[tuple[int, int]]:
    """Windows as PersonRecognizer.spans makes them around hits (HIT_SLACK wide)."""
    return person._near([(p, p + 1) for p in points if p < len(text)])


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=120),
       st.lists(st.integers(0, 700), max_size=8))
def test_runs_near_windows_are_the_whole_texts(pieces: list[str], points: list[int]) -> None:
    text = "".join(pieces)
    near = windows(text, points)
    whole = list(person._chains(text))
    found = list(person._chains(text, near))
    # The same runs as the whole text's (a subsequence of them, in order) ...
    remaining = iter(whole)
    assert all(run in remaining for run in found)
    # ... holding every one that touches a window.
    assert touching(text, near, found) == touching(text, near, whole)


def test_a_run_that_starts_before_its_window_is_found_whole() -> None:
    text = "x; Maria Helena Souza da Silva Pereira 1"
    start = text.index("Pereira")
    found = list(person._chains(text, [(start, start + 3)]))
    assert found == [(3, "Maria Helena Souza da Silva Pereira")]


def test_a_long_run_before_a_window_is_not_cut() -> None:
    # No character outside every run within reach: the search is not moved, and
    # starts where it stood (the text's start).
    text = "Ana " * 40 + "Souza"
    found = list(person._chains(text, [(len(text) - 2, len(text))]))
    assert found == list(person._chains(text))


def test_the_text_between_windows_is_not_searched() -> None:
    line = '10.0.0.1 - - "GET /" 200 "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)"\n'
    text = line * 50 + "Maria Souza\n" + line * 50
    start = text.index("Maria")
    found = list(person._chains(text, [(start, start + 5)]))
    assert found == [(start, "Maria Souza")]
    assert len(list(person._chains(text))) > 100


def test_windows_without_runs_do_not_search_the_same_text_again() -> None:
    # A window holding no run found the next run far ahead, and the next window searched
    # the same stretch again (8,000 windows on 190 kB took seconds).  Each stretch is
    # searched once: counted here by the searches' starting places.
    text = "migracao -- v2 aplicada\n" * 2000 + "Fim"
    near = [(i * 24 + 9, i * 24 + 14) for i in range(2000)]
    searched: list[int] = []
    chain = person._CHAIN

    class Counting:
        def search(self, subject: str, position: int) -> object:
            searched.append(position)
            return chain.search(subject, position)

        def finditer(self, subject: str) -> object:
            return chain.finditer(subject)

    from unittest import mock

    with mock.patch.object(person, "_CHAIN", Counting()):
        found = list(person._chains(text, near))
    assert found == []  # "Fim" touches no window
    assert len(searched) == 1


def test_a_window_past_the_end_of_the_text_is_no_error() -> None:
    # (the engine makes none; a caller of PersonRecognizer.spans could)
    assert set(person._chains("Ana", [(9, 12)])) <= set(person._chains("Ana"))
    assert list(person._chains("", [(9, 9)])) == []


def test_a_name_key_s_values_are_judged_once_each_and_the_memory_stays_bounded() -> None:
    # _names_a_person remembers its answer per value (a Windows event log repeats its
    # attribute names on every record): the same answers as judging each value afresh.
    from unittest import mock

    from recognizers.person import PersonRecognizer

    recognizer = PersonRecognizer()
    values = ["Maria Silva", "TargetUserName", "João", "SubjectDomainName", "Claude Opus 5.5",
              "ana", "Pedro Álvares Cabral", ""]
    expected = [recognizer._value_names_a_person(value) for value in values]
    assert any(expected) and not all(expected)
    assert [recognizer._names_a_person(value) for value in values * 3] == expected * 3
    with mock.patch.object(PersonRecognizer, "VALUES_REMEMBERED", 4):
        small = PersonRecognizer()
        for value in values * 2:
            assert small._names_a_person(value) == small._value_names_a_person(value)
            assert len(small._person_values) <= 4

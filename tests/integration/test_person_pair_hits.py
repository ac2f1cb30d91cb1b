"""PERSON reads the runs next to a pair hit only when the pair's words may name
someone (issue 33).

A region opened by an accepted hit takes in the hits around it unasked; a pair of
capitalised words none of which is a given name or surname, nor two initials, is no
part of a name (the pair trigger's accept refuses it), so the runs next to it are not
read: an SAP system log's ``SAPSYS  VA01 AB0 Run-time`` lines cost nothing more for a
``Sun Nov`` date nearby.  With every hit of the scan, unasked, the names found equal
those found reading every run.
"""

from __future__ import annotations

from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import zoo
from recognizers import person
from recognizers.person import PersonRecognizer
from redactor.candidates import Scanner

_RECOGNIZER = PersonRecognizer()
_SCANNER = Scanner([_RECOGNIZER.prefilter(0.5)])


def _raw_hits(text: str) -> list[tuple[int, int, str]]:
    """Every hit of the scan, no accept asked (a region hands its recognizer so)."""
    return sorted((start, end, trigger.name) for _, trigger, start, end in _SCANNER._find(text))


PIECES = ["Maria", "Silva", "Sun", "Nov", "Wed", "Mon", "SAPSYS", "VA01", "Run-time", "Error",
          "Sales", "Document", "J.", "R.", "Sr.", "Dra.", "da", "de", "Costa", "Pedro",
          "Ana", "Souza", "GmbH", "Ltda", "Mozilla/5.0", "(Windows", "NT)", " ", "  ", ", ",
          "\n", "A ", "M ", ": ", "usuário ", "disse", "cliente ", "nome: ", "- ", "1", "2024"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=40))
def test_names_read_on_the_hits_equal_names_read_everywhere(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _RECOGNIZER.spans(text, _raw_hits(text)) == _RECOGNIZER.spans(text, None), text


def test_the_zoo_families_find_the_same_names_on_their_hits() -> None:
    for family in zoo.FAMILIES:
        text, _ = zoo.generate(family, 0.05)
        assert _RECOGNIZER.spans(text, _raw_hits(text)) == _RECOGNIZER.spans(text, None), family


def test_runs_next_to_a_pair_that_names_nobody_are_not_read() -> None:
    text = ("M Sun Nov 03 10:00:01 2024\n"
            "10:00:02 DIA 003 100 ALEREMOTE    MIGO BZY Unexpected return value 110\n")
    hits = _raw_hits(text)
    assert {text[start:end].strip() for start, end, _ in hits} >= {"Sun Nov", "MIGO BZY"}
    read: list[str] = []
    chain = PersonRecognizer._chain

    def spy(self: PersonRecognizer, text: str, base: int, run: str, *args: object) -> None:
        read.append(run)
        chain(self, text, base, run, *args)  # type: ignore[arg-type]

    with mock.patch.object(PersonRecognizer, "_chain", spy):
        assert _RECOGNIZER.spans(text, hits) == []
    # "Sun Nov" holds a given name: its run is read; "MIGO BZY Unexpected" names nobody.
    assert read and all("Sun" in run for run in read), read
    assert not person._pair_words_may_name(" MIGO BZY ")
    assert person._pair_words_may_name(" Sun Nov ")

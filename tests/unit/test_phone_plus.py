"""PHONE_NUMBER's plus trigger: a plus sign is a hit only where a number can start."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers.generic import _plus_opens_number


@pytest.mark.parametrize("text,opens", [
    ("+55 11 98765-4321", True),
    ("+ (55) 11 3456-7890", True),
    ("++55 11 3456-7890", True),
    ("+1-202-555-0143", True),
    ("Googlebot/2.1; +http://www.google.com/bot.html", False),
    ("a+b", False),
    ("+", False),
    ("+ ", False),
])
def test_a_plus_opens_a_number_only_before_digits(text: str, opens: bool) -> None:
    start = text.index("+")
    assert _plus_opens_number(text, start, start + 1) is opens


@pytest.mark.parametrize("text,opens", [
    ("+55 (11) 98765-4321", True),
    ("+5 5 1", True),  # three digits, a mark apart
    ("+1X2x3", True),  # "x" is a punctuation mark of python-phonenumbers, in any case
    ("+12", False),  # a country code and one digit: no national number parses
    ("fingerprint SHA256:5zmS1sw+4xN3dwZp9wyjO", False),
    ("+18CtkE7G", False),
    ("line ends with +\n2024-11-28T03:00:00", False),
    ("+     123", False),  # five blanks: more than the matcher's four marks
])
def test_a_plus_opens_a_number_only_before_three_digits(text: str, opens: bool) -> None:
    start = text.index("+")
    assert _plus_opens_number(text, start, start + 1) is opens


_PIECES = ["+", "++", "(", ")", "[", " ", "  ", "-", ".", "/", "x", "X", "~", "\u2013", "\u00a0",
           "1", "55", "11", "98765", "4321", "0800", "a", "Z", "\n", "\t", "ext", "#", ";",
           # Whole numbers, their groups apart by two marks or more.
           "+55 (11) 98765-4321", "+ (55) 11 3456-7890", "+55  11  98765 4321", "+1 (202) 555-0143"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_every_number_written_with_a_plus_starts_at_an_accepted_plus(
        pieces: list[str]) -> None:
    """python-phonenumbers' own findings (BR region, every leniency the engine uses):
    each that starts with a plus sign starts where the trigger's accept says yes."""
    import phonenumbers

    text = "".join(pieces)
    for leniency in (phonenumbers.Leniency.POSSIBLE, phonenumbers.Leniency.VALID):
        for match in phonenumbers.PhoneNumberMatcher(text, "BR", leniency=leniency,
                                                     max_tries=1 << 30):
            if text[match.start] == "+":
                assert _plus_opens_number(text, match.start, match.start + 1), text


def test_the_accept_reads_case_as_the_matcher_does() -> None:
    import re

    from phonenumbers import phonenumbermatcher

    from recognizers.generic import _plus_number

    assert phonenumbermatcher._PATTERN.flags & re.IGNORECASE
    assert _plus_number().flags & re.IGNORECASE

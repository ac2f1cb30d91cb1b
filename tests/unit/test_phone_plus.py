"""PHONE_NUMBER's plus trigger: a plus sign is a hit only where a number can start."""

from __future__ import annotations

import pytest

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

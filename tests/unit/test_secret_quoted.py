"""The quoted-value reader of SECRET's assignments (a pattern) answers as the character
walk it replaced, on every string of quotes, backslashes and line breaks."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recognizers.secret.assignments import _quoted
from recognizers.secret.common import MAX_VALUE


def _walk(text: str, start: int) -> tuple[int, int] | None:
    """The reader as it was written first: one character at a time."""
    escaped = text.startswith('\\"', start)
    quote = '\\"' if escaped else text[start]
    inner = start + len(quote)
    position = inner
    limit = min(len(text), inner + MAX_VALUE + 1)
    while position < limit:
        char = text[position]
        if char == "\n":
            return None
        if text.startswith(quote, position) and not (
                not escaped and position > inner and text[position - 1] == "\\"):
            return (inner, position) if position > inner else None
        position += 2 if char == "\\" and not escaped else 1
    return None


def _read(text: str, start: int) -> tuple[int, int] | None:
    value = _quoted(text, start)
    return None if value is None else (value.start, value.end)


PIECES = st.sampled_from(['"', "'", "\\", "\n", "a", "b", " ", '\\"', "\\\\", "é"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=30), st.sampled_from(['"', "'", '\\"']),
       st.integers(min_value=0, max_value=3))
@example(["a", "b", '"'], '"', 0)
@example(["\\", "\\", '"', "x", '"'], '"', 0)
@example(["\\", "\n", "x", "'"], "'", 0)
def test_the_pattern_reads_as_the_walk(pieces: list[str], opening: str, pad: int) -> None:
    text = "k=" * pad + opening + "".join(pieces)
    start = 2 * pad
    assert _read(text, start) == _walk(text, start)


@given(st.sampled_from(['"', "'", '\\"']), st.integers(min_value=-3, max_value=3),
       st.sampled_from(["", "\\", "\n", "x"]))
def test_values_near_the_longest_read_alike(opening: str, shift: int, tail: str) -> None:
    # A closing quote just inside, at or just past MAX_VALUE characters; a backslash
    # whose pair would cross the limit.
    body = "a" * (MAX_VALUE + shift) + tail
    closing = opening[-1] if opening != '\\"' else '\\"'
    for text in (opening + body + closing + " rest", opening + body):
        assert _read(text, 0) == _walk(text, 0)

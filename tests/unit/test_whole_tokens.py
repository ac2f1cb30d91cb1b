"""The tokens a stream's carried user names are looked for among are listed by Python's
``re`` in ASCII text (issue 33: every clean line of a JSON Lines file is asked): the same
tokens as the ``regex`` module's reading, on any text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recognizers import username


@settings(max_examples=2000, deadline=None)
@given(text=st.text(alphabet=st.sampled_from([*"ab9_.-/ \t\n\"'@:=é\u0301ß\x00"]),
                    max_size=60))
@example(text="maria.souza-2 a..b --x _y_ é")
def test_tokens_are_the_regex_modules(text: str) -> None:
    expected = {match.group() for match in username._CHAIN.finditer(text)}
    assert username.whole_tokens(text) == expected
    ascii_only = text.encode("ascii", "ignore").decode()
    assert username.whole_tokens(ascii_only) == {
        match.group() for match in username._CHAIN.finditer(ascii_only)}

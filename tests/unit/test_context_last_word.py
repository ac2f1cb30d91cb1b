"""Context scoring answers "the word right before the match is a keyword" without
counting words (issue 33: ``user=alice`` on every line of a PostgreSQL log): the
distance must be the one the full count gives, on any text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers._text import ContextWords

WORDS = ["user", "users", "usuário", "usuario", "login", "cpf", "conta corrente", "x", "User",
         "USER", "superuser", "user_", "_user", "é", "ção", "\u0301", "ﬁ", "℃", "123", "a1",
         " ", "  ", "=", ": ", "\n", "\t", "'", '"', "-", "/", "é=", "º", "user\u0301"]
KEYWORDS = ContextWords(["user", "usuario", "login", "conta corrente", "cpf"])


def _full(text: str, start: int, end: int, monkeypatch: pytest.MonkeyPatch) -> int | None:
    with monkeypatch.context() as patch:
        patch.setattr(ContextWords, "_keyword_right_before", lambda *args: False)
        return KEYWORDS.distance(text, start, end)


@settings(max_examples=600, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(before=st.lists(st.sampled_from(WORDS), max_size=30),
       value=st.sampled_from([*WORDS[:12], "alice"]),
       after=st.lists(st.sampled_from(WORDS), max_size=6))
@example(before=["x user", "="], value="alice", after=[])
@example(before=["x ℃", "user", "="], value="alice", after=[])
@example(before=["x é", "user"], value="123", after=[])
def test_the_shortcut_gives_the_full_count(before: list[str], value: str, after: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    head = "".join(before)
    text = head + value + "".join(after)
    start, end = len(head), len(head) + len(value)
    assert KEYWORDS.distance(text, start, end) == _full(text, start, end, monkeypatch)


def test_a_keyword_right_before_is_read_without_counting() -> None:
    assert KEYWORDS._keyword_right_before("db=x user=alice", 0, 10)
    assert KEYWORDS._keyword_right_before("x logins: alice", 0, 10)  # plural
    assert not KEYWORDS._keyword_right_before("superuser=alice", 0, 10)
    assert not KEYWORDS._keyword_right_before("x usuário=alice", 0, 10)  # not ASCII: counted
    assert KEYWORDS.distance("x usuário=alice", 10, 15) == 0


def test_a_word_the_window_edge_cuts_is_left_to_the_full_count() -> None:
    # One word before the match, read within 24 characters: the window starts inside
    # "superuser", and the slice's words drop the cut "user" (no keyword).
    near = ContextWords(["user"], before=1)
    head = "super" + "user" + " " * 19 + "="
    text = head + "alice"
    start = len(head)
    assert start - 24 * near.before == head.index("user")
    assert near.distance(text, start, start + 5) is None


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="ab9Z_ =:\t\n.-é\u00a0\U0001f600", max_size=70), st.data())
def test_the_last_word_read_backwards_is_the_pattern_s(text: str, data: st.DataObject) -> None:
    # _keyword_right_before reads the last word before a match backwards (last_word):
    # the word _LAST_WORD's search of the same stretch finds, or none where it finds none.
    from recognizers._text import _LAST_WORD, last_word

    high = data.draw(st.integers(0, len(text)))
    low = data.draw(st.integers(0, high))
    found = _LAST_WORD.search(text, low, high)
    assert last_word(text, low, high) == (None if found is None else found.span(1))

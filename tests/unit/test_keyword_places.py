"""Context scoring of many matches in one text finds where its keywords stand in one
read (issue 33: ``ip`` in every iPhone user agent of a web server's log, no address
near one): ``KeywordPlaces.may_be_near`` may say no only where ``distance`` is None."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers._text import ContextWords

WORDS = ["ip", "ips", "iPhone", "zip", "IP", "ipv4", "host", "hosts", "hostname", "x",
         "endereco ip", "endereco", "servidor", "a1", "123", "s", " ", "  ", "=", ": ",
         "\n", "\t", "'", '"', "-", "/", "_", ";", "(", ")", "Mobile/15E148", "user"]
SCORED = [ContextWords(["ip", "ipv4", "ipv6", "endereco ip", "host", "servidor"]),
          ContextWords(["ip", "host"], before=1, after=1),
          ContextWords(["user", "usuario", "login"], before=2, after=0)]


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), max_size=60),
       spans=st.lists(st.tuples(st.integers(0, 400), st.integers(1, 20)), max_size=8),
       which=st.integers(0, len(SCORED) - 1))
@example(words=["ip", "s", "=", "10"], spans=[(6, 2)], which=0)
@example(words=["super", "host", " " * 19, "="], spans=[(24, 3)], which=1)
def test_no_place_means_no_distance(words: list[str], spans: list[tuple[int, int]],
                                    which: int) -> None:
    context = SCORED[which]
    text = "".join(words)
    places = context.places(text)
    assert places is not None  # ASCII
    for start, length in spans:
        start = min(start, len(text))
        end = min(len(text), start + length)
        if not places.may_be_near(start, end):
            assert context.distance(text, start, end) is None, (text, start, end)


def test_a_keyword_inside_a_word_is_no_place() -> None:
    context = SCORED[0]
    text = "10.0.0.7 GET / (iPhone; CPU iPhone OS 17_6)"
    places = context.places(text)
    assert places is not None
    assert not places.may_be_near(0, 8)
    assert context.distance(text, 0, 8) is None


def test_a_keyword_near_is_a_place() -> None:
    context = SCORED[0]
    for text, start in (("ip=10.0.0.7", 3), ("hosts: 10.0.0.7", 7), ("10.0.0.7 (ip)", 0)):
        places = context.places(text)
        assert places is not None
        assert places.may_be_near(start, start + 8)
        assert context.distance(text, start, start + 8) is not None


def test_a_text_beyond_ascii_has_no_places() -> None:
    assert SCORED[0].places("endereço 10.0.0.7") is None

"""Context scoring asks once whether a keyword is anywhere in a text with many matches
(issue 33, dense findings): the scores must be those of asking match by match."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers import base
from recognizers.br_cpf import BrCpfRecognizer

PIECES = ["529.982.247-25", "52998224725", " ", "\n", "; ", "CPF", "cpf:", "Cpf", "titular",
          "c.p.f.", "contribuinte", "ção", "é", "ÇPF", "ﬁ", "Ⅷ", "x", "-", "—", "\u0301",
          "cadastro de pessoa", "física", "cadastro de pessoa fisica", "12345678909"]


def _scores(text: str) -> list[tuple[int, int, float, object]]:
    recognizer = BrCpfRecognizer()
    raw = recognizer.analyze(text, ["BR_CPF"])
    enhanced = recognizer.enhance_using_context(text, raw, [], None, None)
    return sorted((r.start, r.end, r.score,
                   (r.recognition_metadata or {}).get(base.CONTEXT_DISTANCE_KEY))
                  for r in enhanced)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=120))
@example(["529.982.247-25", " "] * 20)
@example(["529.982.247-25", " "] * 20 + ["cpf"])
def test_one_read_gives_the_scores_of_one_window_per_match(
        pieces: list[str]) -> None:
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(base, "_MANY_MATCHES", 1 << 30)
        one_by_one = _scores(text)
    assert _scores(text) == one_by_one


def test_the_text_is_read_once_when_no_keyword_is_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    recognizer = BrCpfRecognizer()
    text = "529.982.247-25 " * 40
    raw = recognizer.analyze(text, ["BR_CPF"])
    assert len(raw) == 40
    windows: list[int] = []
    distance = type(recognizer.context_words).distance

    def spy(self: object, text: str, start: int, end: int) -> int | None:
        windows.append(start)
        return distance(self, text, start, end)  # type: ignore[arg-type]

    monkeypatch.setattr(type(recognizer.context_words), "distance", spy)
    recognizer.enhance_using_context(text, raw, [], None, None)
    assert windows == []
    # A keyword at the end: the first sixteen matches are read, each far from it; then
    # only the matches it may stand near (KeywordPlaces: the five whose reach, 72
    # characters after, holds it); the last is near it.
    enhanced = recognizer.enhance_using_context(text + " cpf", raw, [], None, None)
    assert windows == [match.start for match in raw[:16] + raw[-5:]]
    near = [r for r in enhanced if base.CONTEXT_DISTANCE_KEY in (r.recognition_metadata or {})]
    assert [r.start for r in near] == windows[-1:]

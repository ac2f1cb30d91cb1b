"""The scanner's memory of its triggers' accepts' answers (candidates.Answers)."""

from __future__ import annotations

from unittest import mock

from recognizers.prefilter import Trigger
from redactor.candidates import Answers


def _counting() -> tuple[Trigger, list[tuple[str, int, int]]]:
    asked: list[tuple[str, int, int]] = []

    def accept(text: str, start: int, end: int) -> bool:
        asked.append((text, start, end))
        return text[start:end] == "yes"

    return Trigger("yes|no", name="t", accept=accept), asked


def test_a_short_text_is_judged_once_and_a_long_one_each_time() -> None:
    trigger, asked = _counting()
    answers = Answers()
    assert [answers.ask(trigger, "a yes", 2, 5) for _ in range(3)] == [True] * 3
    assert answers.ask(trigger, "a no", 2, 4) is False
    assert answers.ask(trigger, "a no", 2, 4) is False
    assert asked == [("a yes", 2, 5), ("a no", 2, 4)]
    long = "x" * Answers.TEXT + " yes"
    assert [answers.ask(trigger, long, len(long) - 3, len(long)) for _ in range(2)] == [True] * 2
    assert len(asked) == 4  # (never remembered: a big text is not kept alive)


def test_the_answers_of_two_triggers_are_kept_apart() -> None:
    first, _ = _counting()
    second = Trigger("yes", name="u", accept=lambda text, start, end: False)
    answers = Answers()
    assert answers.ask(first, "yes", 0, 3) is True
    assert answers.ask(second, "yes", 0, 3) is False


def test_the_memory_is_bounded() -> None:
    trigger, asked = _counting()
    answers = Answers()
    with mock.patch.object(Answers, "MEMORY", 4):
        for k in range(10):
            answers.ask(trigger, f"yes {k}", 0, 3)
        assert len(answers._known) <= 4
    assert len(asked) == 10

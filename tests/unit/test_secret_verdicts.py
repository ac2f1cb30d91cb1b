"""A key's value is judged once per (key, value) text (issue 33): the prefilter's key
trigger and the recognizer ask about the same values, and logs repeat them.  The
findings must be those of judging every time."""

from __future__ import annotations

from benchmarks import zoo
from recognizers.secret import assignments
from recognizers.secret.finder import find_secrets
from recognizers.secret.recognizer import _accept_key_word


def _fresh(text: str) -> list[tuple[int, int, str, float]]:
    assignments._verdict.cache_clear()
    return find_secrets(text)


def test_remembered_verdicts_give_the_same_findings() -> None:
    for family in ("json-debug", "java-spring", "cloudtrail"):
        text, _ = zoo.generate(family, 0.05, seed=3)
        assignments._verdict.cache_clear()
        first = find_secrets(text)
        assert first, family
        # Asked again with every verdict remembered, and line by line with none.
        assert find_secrets(text) == first
        lines = text.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        one_by_one = sorted((offsets[i] + s, offsets[i] + e, kind, score)
                            for i, line in enumerate(lines)
                            for s, e, kind, score in _fresh(line))
        assert one_by_one == first


def test_the_trigger_and_the_recognizer_share_a_verdict() -> None:
    text = 'level=debug "session_key": "Zq8v3LrT9xW2mK7pB4nY6cJ1" user=x\n'
    start = text.index("key")
    assignments._verdict.cache_clear()
    assert _accept_key_word(text, start, start + 3)
    assert assignments._verdict.cache_info().misses == 1
    assert [kind for *_, kind, _ in find_secrets(text)] == ["high_entropy"]
    assert assignments._verdict.cache_info().hits >= 1
    assert assignments._verdict.cache_info().misses == 1

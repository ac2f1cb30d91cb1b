"""recognizers.base.remove_duplicates skips Presidio's work when no two results overlap
(issue 33, dense findings): it must return what EntityRecognizer.remove_duplicates
returns, the same objects in the same order, on any list."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from presidio_analyzer import EntityRecognizer, RecognizerResult

from recognizers.base import remove_duplicates

RESULT = st.builds(
    lambda entity, start, length, score: RecognizerResult(entity, start, start + length, score),
    st.sampled_from(["BR_CPF", "BR_CNPJ"]), st.integers(0, 60), st.integers(0, 12),
    st.sampled_from([0.0, 0.3, 0.65, 0.65, 0.85, 1.0]))


@settings(max_examples=2000, deadline=None)
@given(st.lists(RESULT, max_size=12))
def test_same_results_as_presidio(results: list[RecognizerResult]) -> None:
    expected = EntityRecognizer.remove_duplicates(list(results))
    assert [id(r) for r in remove_duplicates(list(results))] == [id(r) for r in expected]


def test_disjoint_results_are_kept_and_ranked_without_presidio_s_pass() -> None:
    results = [RecognizerResult("BR_CPF", start, start + 14, 1.0 if start % 30 else 0.85)
               for start in range(0, 300, 15)]
    results.append(RecognizerResult("BR_CPF", 400, 414, 0.0))
    kept = remove_duplicates(list(reversed(results)))
    assert [r.start for r in kept] == [s for s in range(0, 300, 15) if s % 30] + list(
        range(0, 300, 30))

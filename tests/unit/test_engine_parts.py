"""Pure parts of the engine: chunk planning and overlap resolution."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from redactor.engine.spans import Span, chunks, resolve


@given(st.integers(0, 5000), st.integers(50, 400), st.integers(2, 40))
def test_chunks_cover_everything_once(length: int, size: int, overlap: int) -> None:
    overlap = min(overlap * 2, size // 2)
    keep: list[tuple[int, int]] = []
    for start, end, keep_from, keep_to in chunks(length, size, overlap):
        assert 0 <= start <= keep_from <= keep_to <= end <= length
        assert end - start <= size
        keep.append((keep_from, keep_to))
    assert keep[0][0] == 0 and keep[-1][1] == length
    for (_, previous_to), (next_from, _) in itertools.pairwise(keep):
        assert previous_to == next_from


spans = st.builds(lambda s, n, score, e: Span(s, s + n, e, score, "r"),
                  st.integers(0, 60), st.integers(1, 15), st.sampled_from([0.4, 0.6, 0.85, 1.0]),
                  st.sampled_from(["A", "B"]))


@given(st.lists(spans, max_size=12))
def test_resolution_is_disjoint_and_covers_the_union(items: list[Span]) -> None:
    resolved = resolve(items)
    covered_before = {i for s in items for i in range(s.start, s.end)}
    covered_after = [i for s in resolved for i in range(s.start, s.end)]
    assert len(covered_after) == len(set(covered_after))  # disjoint
    assert set(covered_after) == covered_before  # nothing dropped


def test_higher_score_wins_and_loser_keeps_its_rest() -> None:
    resolved = resolve([Span(0, 10, "PHONE", 0.4, "p"), Span(2, 8, "CPF", 1.0, "c")])
    assert [(s.start, s.end, s.entity) for s in resolved] == [
        (0, 2, "PHONE"), (2, 8, "CPF"), (8, 10, "PHONE")]

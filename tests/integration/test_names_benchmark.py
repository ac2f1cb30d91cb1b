"""People's names on the fixed-seed names benchmark (benchmarks/names.py)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any, cast

import pytest

from benchmarks.names import (
    INTACT_TARGET,
    KINDS,
    PARTICLES,
    RECALL_TARGET,
    SUFFIXES,
    NameDoc,
    documents,
    lookalike_vocabulary,
    measure,
)
from recognizers.names import fold_name, given_names, surnames
from redactor.config import Settings
from redactor.engine import Redactor

if TYPE_CHECKING:
    from collections.abc import Callable

SEED = 7
DOCS = 300


@pytest.fixture(scope="module")
def corpus() -> list[NameDoc]:
    return documents(SEED, DOCS)


@pytest.fixture(scope="module")
def result(corpus: list[NameDoc]) -> dict[str, Any]:
    return measure(corpus, Redactor(Settings()))


def test_name_recall_and_lookalikes_intact(result: dict[str, Any]) -> None:
    summary = {k: result[k] for k in ("name_recall", "names_missed", "names_partial",
                                      "lookalikes_intact", "false_hits")}
    assert result["names"] > 500, summary
    assert result["lookalikes"] > 1000, summary
    assert result["name_recall"] >= RECALL_TARGET, summary
    assert result["lookalikes_intact"] >= INTACT_TARGET, summary
    assert set(result["kinds"]) == set(KINDS)


def test_generator_is_deterministic(corpus: list[NameDoc]) -> None:
    assert documents(SEED, DOCS) == corpus
    assert documents(SEED + 1, 50) != corpus[:50]
    assert documents(SEED, 50) == corpus[:50]  # a shorter run is a prefix
    assert {d.kind for d in corpus} == set(KINDS)


def test_planted_spans_are_what_was_planted(corpus: list[NameDoc]) -> None:
    name_words = (set(given_names()) | surnames()
                  | {fold_name(w) for w in (*PARTICLES, *SUFFIXES)})
    vocabulary = lookalike_vocabulary()
    for doc in corpus:
        assert len(doc.lookalikes) == len(doc.categories)
        taken: list[tuple[int, int]] = []
        for start, end in doc.names:
            value = doc.text[start:end]
            assert value and value == value.strip(), (doc.kind, value)
            words = value.split()
            assert words and all(fold_name(w) in name_words for w in words), (doc.kind, value)
            assert 1 <= sum(1 for w in words if w.lower() not in PARTICLES) <= 4, value
            taken.append((start, end))
        for start, end in doc.lookalikes:
            value = doc.text[start:end]
            assert value and value == value.strip(), (doc.kind, value)
            assert fold_name(value) in vocabulary, (doc.kind, value)
            taken.append((start, end))
        taken.sort()
        assert all(a[1] <= b[0] for a, b in pairwise(taken)), doc.text
        # Spans start and end on word boundaries.
        for start, end in taken:
            assert start == 0 or not doc.text[start - 1].isalnum(), doc.text
            assert end == len(doc.text) or not doc.text[end].isalnum(), doc.text
        if doc.kind == "json":
            for line in doc.text.splitlines():
                values = set(json.loads(line).values())
                assert any(doc.text[s:e] in values for s, e in doc.names), line
    assert sum(1 for d in corpus if d.kind == "prose" and not d.names) == DOCS // len(KINDS)


@dataclass(frozen=True)
class _Finding:
    start: int
    end: int
    entity_type: str


@dataclass(frozen=True)
class _Result:
    findings: tuple[_Finding, ...]


class _FakeRedactor:
    def __init__(self, spans: Callable[[str], list[tuple[int, int]]]) -> None:
        self.spans = spans

    def redact(self, text: str) -> _Result:
        return _Result(tuple(_Finding(s, e, "PERSON") for s, e in self.spans(text)))


def test_measure_counts_misses_and_false_hits(corpus: list[NameDoc]) -> None:
    docs = corpus[:60]
    nothing = measure(docs, cast("Redactor", _FakeRedactor(lambda text: [])))
    assert nothing["name_recall"] == 0 and nothing["lookalikes_intact"] == 1
    assert nothing["names_missed"] == nothing["names"]
    everything = measure(docs, cast("Redactor", _FakeRedactor(lambda text: [(0, len(text))])))
    assert everything["name_recall"] == 1 and everything["lookalikes_intact"] == 0
    # A finding that covers every word but the last leaves the name partly exposed.
    by_text = {d.text: d for d in docs}

    def all_but_last_word(text: str) -> list[tuple[int, int]]:
        spans = []
        for start, end in by_text[text].names:
            words = list(re.finditer(r"[^\W\d_]+", text[start:end]))
            if len(words) > 1:
                spans.append((start, start + words[-2].end()))
        return spans

    partial = measure(docs, cast("Redactor", _FakeRedactor(all_but_last_word)), verbose=True)
    assert partial["name_recall"] == 0 and partial["lookalikes_intact"] == 1
    assert partial["names_partial"] > 0
    example = next(iter(partial["misses"].values()))["examples"][0]
    assert example["planted"] in example["line"]

"""Accuracy on the fixed-seed benchmark corpus (benchmarks/accuracy.py)."""

from __future__ import annotations

from benchmarks.accuracy import CHECKED, MEASURED, Generator, evaluate, run
from redactor import Settings
from redactor.engine import Redactor


def test_accuracy_targets_on_fixed_seed() -> None:
    result = run(seed=7, docs=3000)
    metrics = result["entities"]
    for entity in ("BR_CPF", "BR_CNPJ"):
        assert metrics[entity]["planted"] > 400
        assert metrics[entity]["recall"] >= 0.999, metrics[entity]
        assert metrics[entity]["precision"] >= 0.99, metrics[entity]
        assert metrics[entity]["leaked"] == 0
    # The other identifiers: 0.98 with a check digit, 0.90 for context-only ones.
    for entity in MEASURED:
        if entity in ("BR_CPF", "BR_CNPJ", "USERNAME"):
            continue
        target = 0.98 if entity in CHECKED else 0.90
        assert metrics[entity]["planted"] >= 30, metrics[entity]
        assert metrics[entity]["recall"] >= target, (entity, metrics[entity])
        assert metrics[entity]["precision"] >= target, (entity, metrics[entity])
    assert metrics["USERNAME"]["planted"] > 900
    assert metrics["USERNAME"]["recall"] >= 0.95, metrics["USERNAME"]
    assert metrics["USERNAME"]["precision"] >= 0.95, metrics["USERNAME"]


def test_evaluation_counts_misses_and_false_positives() -> None:
    # The scorer itself: a detector that finds nothing has recall 0 and leaks everything.
    docs = Generator(seed=1).documents(200)
    nothing = evaluate(docs, lambda text: [])
    assert nothing["BR_CPF"]["recall"] == 0 and nothing["BR_CPF"]["leaked"] > 0
    engine = Redactor(Settings())
    noisy = evaluate(docs, lambda text: [*engine.analyze(text),
                                         *engine.analyze("x " + text)])  # shifted copies
    assert noisy["BR_CPF"]["precision"] < 0.6

"""People's names on LeNER-Br's test split: overlap recall and precision of PERSON.

LeNER-Br (``benchmarks/data/lener-br``, MIT) is Portuguese legal text annotated by hand.
Each document's tokens are joined by spaces and its sentences by line breaks; the gold
spans are its PESSOA entities.  A gold name counts as found when some PERSON finding
overlaps it, and a finding counts as right when it overlaps some gold name: for
redaction, a name partly covered is mostly gone, and a finding on a name is no false
alarm.  Documents are analysed whole, so the engine's propagation of a given name
found in full stays inside one court decision.

    python benchmarks/lener.py [--errors N]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DATA = Path(__file__).resolve().parent / "data" / "lener-br" / "test"
GOLD_TAG = "PESSOA"


@dataclass(frozen=True)
class LenerDoc:
    name: str
    text: str
    gold: tuple[tuple[int, int], ...]


def read_doc(path: Path, tag: str = GOLD_TAG) -> LenerDoc:
    """One CoNLL document: its text and the character spans of ``tag`` entities."""
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    position = 0
    current: list[int] | None = None
    line_start = True
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            if current is not None:
                spans.append((current[0], current[1]))
                current = None
            if not line_start:
                pieces.append("\n")
                position += 1
            line_start = True
            continue
        token, label = raw.rsplit(" ", 1)
        if not line_start:
            pieces.append(" ")
            position += 1
        start = position
        pieces.append(token)
        position += len(token)
        line_start = False
        if label == f"B-{tag}" or (label == f"I-{tag}" and current is None):
            if current is not None:
                spans.append((current[0], current[1]))
            current = [start, position]
        elif label == f"I-{tag}" and current is not None:
            current[1] = position
        elif current is not None:
            spans.append((current[0], current[1]))
            current = None
    if current is not None:
        spans.append((current[0], current[1]))
    return LenerDoc(path.name, "".join(pieces), tuple(spans))


def documents() -> list[LenerDoc]:
    return [read_doc(path) for path in sorted(DATA.glob("*.conll"))]


@dataclass
class Score:
    gold: int = 0
    found: int = 0
    predicted: int = 0
    right: int = 0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 0.0


def evaluate(engine: object, docs: list[LenerDoc] | None = None,
             misses: list[str] | None = None) -> Score:
    """Overlap recall and precision of ``engine``'s PERSON findings (a redactor.engine.Redactor)."""
    score = Score()
    for doc in documents() if docs is None else docs:
        found = [(f.start, f.end) for f in engine.analyze(doc.text)  # type: ignore[attr-defined]
                 if f.entity_type == "PERSON"]
        for start, end in doc.gold:
            score.gold += 1
            if any(s < end and start < e for s, e in found):
                score.found += 1
            elif misses is not None:
                misses.append(f"missed  {doc.text[max(0, start - 40):start]!r} "
                              f"[[{doc.text[start:end]}]]")
        for start, end in found:
            score.predicted += 1
            if any(s < end and start < e for s, e in doc.gold):
                score.right += 1
            elif misses is not None:
                misses.append(f"extra   {doc.text[max(0, start - 40):start]!r} "
                              f"[[{doc.text[start:end]}]]")
    return score


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", type=int, default=0, help="print this many errors")
    args = parser.parse_args()
    from redactor.config import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    errors: list[str] = []
    score = evaluate(engine, misses=errors)
    print(f"LeNER-Br test, PESSOA: {score.gold} names, overlap recall {score.recall:.3f}; "
          f"{score.predicted} PERSON findings, overlap precision {score.precision:.3f}")
    for line in errors[:args.errors]:
        print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What one entity costs the batch path: the throughput corpus with and without it.

Redacts the corpus of ``benchmarks/throughput.py`` in 1 MB blocks with the default
engine and with the same engine minus the given entities, alternating the two for
``--rounds`` rounds in one process (so that both see the same moments of a noisy
machine), and prints the best MB/s of each (in CPU time of this process, which other
processes disturb less than wall time) and the relative drop.

    python benchmarks/entity_cost.py [--mb 10] [--rounds 3] [--without PERSON ...]
        [--corpus logs|digits]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.throughput import corpus, digit_corpus

BLOCK = 1 << 20


def _rate(engine: object, text: str) -> float:
    started = time.process_time()
    from redactor.engine import StreamNames

    names = StreamNames()
    for start in range(0, len(text), BLOCK):
        cut = text.rfind("\n", start, start + BLOCK) + 1 if start + BLOCK < len(text) else 0
        end = cut if cut > start else min(len(text), start + BLOCK)
        engine.redact(text[start:end], names=names)  # type: ignore[attr-defined]
    return len(text.encode()) / 1e6 / (time.process_time() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--without", nargs="+", default=["PERSON"])
    parser.add_argument("--corpus", choices=("logs", "digits"), default="logs")
    args = parser.parse_args()
    from redactor.config import DEFAULT_ENTITIES, Settings
    from redactor.engine import Redactor

    lines, _ = (digit_corpus if args.corpus == "digits" else corpus)(args.mb)
    text = lines if isinstance(lines, str) else "\n".join(lines)
    full = Redactor(Settings())
    lean = Redactor(Settings(entities=tuple(e for e in DEFAULT_ENTITIES
                                            if e not in args.without)))
    full.redact("warm up: Maria Souza"), lean.redact("warm up")
    best = {"with": 0.0, "without": 0.0}
    for _ in range(args.rounds):
        best["without"] = max(best["without"], _rate(lean, text))
        best["with"] = max(best["with"], _rate(full, text))
    drop = 1 - best["with"] / best["without"]
    print(f"{len(text.encode()) / 1e6:.1f} MB, best of {args.rounds}: every default entity "
          f"{best['with']:.2f} MB/s, without {' '.join(args.without)} {best['without']:.2f} "
          f"MB/s; drop {100 * drop:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""In-process batch speed of this tree against an earlier revision, interleaved.

The machines this runs on are small and noisy (the same run can vary by 20 %), so two
figures taken minutes apart cannot show a 5 % difference.  This benchmark keeps one
worker process per tree alive, each with its engine built and warm, and times them in
turns on the same corpus (written once by this tree's generators), alternating which
goes first; noise then hits both alike, and the minimum and quartiles over the rounds
are compared.

    python -m benchmarks.ab REV [--corpus digits|logs] [--mb 4] [--rounds 20]

REV is any git revision; its tree is exported with ``git archive`` into a temporary
folder (nothing in the working tree changes).  Each round is ``Redactor().redact`` over
the corpus in 1 MiB blocks cut at line breaks (what ``redactor redact`` reads), CPU time
of the worker.  Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
BLOCK = 1 << 20

#: The worker: imports the tree given first on sys.path, reads the corpus, answers
#: each line on stdin with the CPU seconds of one pass.
WORKER = """
import sys, time
tree, corpus_path, block = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, tree)
from redactor.engine import Redactor
text = open(corpus_path, encoding="utf-8").read()
blocks, i = [], 0
while i < len(text):
    j = text.rfind("\\n", i, i + block)
    j = len(text) if j <= i or i + block >= len(text) else j + 1
    blocks.append(text[i:j])
    i = j
engine = Redactor()
for b in blocks:
    engine.redact(b)
print("ready", engine.__class__.__module__, sys.modules["redactor"].__file__, flush=True)
for _ in sys.stdin:
    started = time.process_time()
    for b in blocks:
        engine.redact(b)
    print(time.process_time() - started, flush=True)
"""


def export(revision: str, target: Path) -> Path:
    """The tree of ``revision`` unpacked under ``target``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target


def interleave(trees: dict[str, Path], corpus: Path, rounds: int) -> dict[str, list[float]]:
    workers = {}
    for name, tree in trees.items():
        workers[name] = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tree), str(corpus), str(BLOCK)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree)
    try:
        for name, worker in workers.items():
            assert worker.stdout is not None
            ready = worker.stdout.readline().split()
            if not ready or ready[0] != "ready":
                raise RuntimeError(f"the worker of {name} did not start")
            if not ready[-1].startswith(str(trees[name])):
                raise RuntimeError(f"the worker of {name} imported {ready[-1]}")
        times: dict[str, list[float]] = {name: [] for name in workers}
        order = list(workers)
        for round_ in range(rounds):
            for name in order if round_ % 2 == 0 else order[::-1]:
                worker = workers[name]
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write("go\n")
                worker.stdin.flush()
                times[name].append(float(worker.stdout.readline()))
        return times
    finally:
        for worker in workers.values():
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("revision", help="the earlier revision (any git revision)")
    parser.add_argument("--corpus", choices=("digits", "logs"), default="digits")
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)

    from benchmarks import throughput

    make = throughput.digit_corpus if args.corpus == "digits" else throughput.corpus
    text, _ = make(args.mb)
    with tempfile.TemporaryDirectory(prefix="redactor-ab-") as scratch:
        corpus = Path(scratch) / "corpus.txt"
        corpus.write_text(text, encoding="utf-8")
        earlier = export(args.revision, Path(scratch) / "earlier")
        times = interleave({args.revision: earlier, "this tree": ROOT}, corpus, args.rounds)
    size = len(text.encode()) / 1e6
    print(f"{args.corpus} corpus, {size:.1f} MB, {args.rounds} interleaved rounds, CPU time")
    summary = {}
    for name, values in times.items():
        values.sort()
        summary[name] = (values[0], values[len(values) // 4], statistics.median(values))
        low, quartile, median = summary[name]
        print(f"  {name:>12}: min {low * 1000:7.1f} ms ({size / low:5.2f} MB/s)  "
              f"q1 {quartile * 1000:7.1f}  median {median * 1000:7.1f} ms")
    before, after = summary[args.revision], summary["this tree"]
    print("  this tree / earlier: " + "  ".join(
        f"{label} {b / a:.3f}" for label, a, b in zip(("min", "q1", "median"), before, after,
                                                     strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

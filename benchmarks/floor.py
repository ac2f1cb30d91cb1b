"""What any redactor built the way this one must be pays per family of the log zoo.

Issue 33 asks ``redactor redact`` to run, on every family of the zoo, at least as fast
as the plain-``re`` CPF+CNPJ reference (benchmarks/throughput.py).  This module prices
the work no design of this product can skip, each piece timed alone in this process
(the CPython, Presidio and validate-docbr the project runs on):

- **JSON** (JSON Lines families): each line parsed and written back (``json.loads`` and
  ``json.dumps``, compact), as a redactor that reads values by their keys must;
- **scan**: one pass of the compiled trigger scanner over the text (hyperscan with
  the ``fast`` extra), its hits handed to Python as the hyperscan binding does, one call
  each, and nothing else done with them;
- **objects**: per finding of redactor's own run, one Presidio ``RecognizerResult`` and
  one Presidio ``Replace`` operation (findings are Presidio results and replacement goes
  through Presidio operators);
- **check digits**: validate-docbr on each distinct value the reference's own pattern
  takes (the reference checks them with a hand-written loop).

The sum is the floor; what the reference's time leaves over it, divided by the findings,
is the budget per finding for everything else: deciding which candidate is a finding
(context words, name lists, the other checks), the per-line loop, the writes.  A
negative budget means the family cannot reach 1.0x the reference this way.  The scan is
priced with the trigger patterns as they stand (a leaner set might scan faster), so the
budget is printed a second time as if the scan were free.  Figures are
printed, nothing is asserted.

    python -m benchmarks.floor [--mb 2] [--family NAME ...]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import zoo
from benchmarks.throughput import REFERENCE, reference_redact

#: Size of the blocks the scan reads (as batch reads a file).
BLOCK: int = 1 << 20


def best_of(run: Callable[[], object], repeat: int = 3) -> float:
    """The shortest of ``repeat`` runs of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def json_cost(text: str) -> float:
    """Seconds to parse every line of ``text`` and write it back compact."""
    lines = text.splitlines()

    def run() -> None:
        for line in lines:
            try:
                value = json.loads(line)
            except ValueError:
                continue
            json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    return best_of(run)


def scan_cost(engine: object, text: str) -> tuple[float, int]:
    """Seconds of one trigger scan of ``text`` in 1 MiB blocks, each hit handed to a
    Python callback that only keeps it (the least the hyperscan binding costs: what the
    scanner then does with a hit is left out), and the hits.  Without hyperscan, the
    scanner's own search (hits sorted out included)."""
    from recognizers._text import normalize_for_matching

    scanner = getattr(engine, "_scanner", None)
    if scanner is None:
        return 0.0, 0
    blocks = [normalize_for_matching(text[at:at + BLOCK]) for at in range(0, len(text), BLOCK)]
    if scanner.backend != "hyperscan":
        hits = sum(len(scanner._find(block)) for block in blocks)
        return best_of(lambda: [scanner._find(block) for block in blocks]), hits
    # The compiled databases and scratches, as the scanner's search holds them.
    search = scanner._scan
    held = dict(zip(search.__code__.co_freevars,
                    (cell.cell_contents for cell in search.__closure__ or ()), strict=True))
    raw: list[tuple[int, int, int]] = []

    def keep(ident: int, start: int, end: int, flags: int, context: object) -> None:
        raw.append((ident, start, end))

    def run() -> None:
        raw.clear()
        for block in blocks:
            try:
                data, mode = block.encode("latin-1"), "latin-1"
            except UnicodeEncodeError:
                data, mode = block.encode("utf-8", "surrogatepass"), "utf-8"
            for database, scratch in held["scratches_for"](mode):
                database.scan(data, match_event_handler=keep, scratch=scratch)

    seconds = best_of(run)
    return seconds, len(raw)


def object_cost(findings: int) -> float:
    """Seconds for ``findings`` Presidio results and Presidio replacements."""
    from presidio_analyzer import RecognizerResult
    from presidio_anonymizer.operators import Replace

    replace = Replace()
    params = {"new_value": "[CPF]"}

    def run() -> None:
        for index in range(findings):
            RecognizerResult("CPF", index, index + 14, 0.85)
            replace.operate("529.982.247-25", params)

    return best_of(run)


def check_cost(text: str) -> float:
    """Seconds for validate-docbr to check each distinct value the reference takes."""
    from validate_docbr import CNPJ, CPF

    cpf, cnpj = CPF(), CNPJ()
    values = {match.group() for match in REFERENCE.finditer(text)}
    digits = [("".join(c for c in value if c.isdigit())) for value in values]

    def run() -> None:
        for value in digits:
            (cpf if len(value) == 11 else cnpj).validate(value)

    return best_of(run)


def redactor_run(engine: object, data: bytes, fmt: str) -> tuple[float, int]:
    """Seconds of batch.redact_stream on ``data`` (as ``redactor redact`` reads a file,
    the engine warm) and the findings it made."""
    from redactor import batch

    findings = 0

    def run() -> None:
        nonlocal findings
        report = batch.FileReport("zoo")
        batch.redact_stream(engine, io.BytesIO(data), io.BytesIO(), fmt,  # type: ignore[arg-type]
                            report)
        findings = sum(report.counts.values())

    run()  # word lists, phone metadata: loaded outside the timing
    seconds = best_of(run, 2)
    return seconds, findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0, help="MB per family (default 2)")
    parser.add_argument("--family", action="append", choices=sorted(zoo.FAMILIES),
                        help="only this family (repeatable)")
    args = parser.parse_args(argv)
    from redactor import batch
    from redactor.config import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    engine.redact("aquecimento " * 400)  # the scanner compiled outside the timings
    batch.want_settled_heap()
    print(f"scanner backend: {engine.prefilter_backend}; ms per MB, in process")
    print(f"{'family':<16} {'ref':>6} {'redactor':>9} {'finds/MB':>9} {'json':>6} "
          f"{'scan':>6} {'hits/MB':>8} {'objects':>8} {'checks':>7} {'floor':>6} {'floor/ref':>9} "
          f"{'µs left/finding':>16} {'(scan free)':>12}")
    lefts: list[float] = []
    for name in args.family or list(zoo.FAMILIES):
        family = zoo.FAMILIES[name]
        text, _ = zoo.generate(name, args.mb)
        data = text.encode()
        megabytes = len(data) / 1e6
        fmt = "jsonl" if family.extension == ".jsonl" else "text"
        batch.settle_heap()
        reference = best_of(lambda text=text: reference_redact(text))  # type: ignore[misc]
        seconds, findings = redactor_run(engine, data, fmt)
        scan, hits = scan_cost(engine, text)
        parts = [json_cost(text) if fmt == "jsonl" else 0.0, scan,
                 object_cost(findings), check_cost(text)]
        floor = sum(parts)
        left = (reference - floor) / findings * 1e6 if findings else float("inf")
        unscanned = (reference - floor + scan) / findings * 1e6 if findings else float("inf")
        lefts.append(left)
        per_mb = [1000 * part / megabytes for part in parts]
        print(f"{name:<16} {1000 * reference / megabytes:6.1f} "
              f"{1000 * seconds / megabytes:9.1f} {findings / megabytes:9.0f} "
              f"{per_mb[0]:6.1f} {per_mb[1]:6.1f} {hits / megabytes:8.0f} "
              f"{per_mb[2]:8.1f} {per_mb[3]:7.1f} "
              f"{1000 * floor / megabytes:6.1f} {floor / reference:9.2f} {left:16.2f} "
              f"{unscanned:12.2f}",
              flush=True)
    finite = [left for left in lefts if left != float("inf")]
    if finite:
        print(f"µs left per finding: least {min(finite):.2f}, median "
              f"{statistics.median(finite):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Spark throughput: the batch corpus through Spark ``local[1]`` and ``local[2]``, next to
``redactor redact`` with one and two processes, in the same run.

The corpus is the one of ``benchmarks/throughput.py`` (``--corpus logs``, the default,
or ``digits``), written as ``--parts`` files.  Each Spark master runs in a child process
of its own (a fresh JVM, as a user gets) that reports:

- session start-up: ``spark_session(master)``, JVM and SparkContext;
- the configuration read and checked on the driver (``job_settings``: one engine build);
- warm-up jobs on two small files: Python workers start and build their engines;
- then, in each of ``--rounds`` rounds, one after the other so that the machine's
  drift touches all alike: ``redactor redact --jobs N`` (N = the master's cores) end to
  end and on a 7 KB input (its start-up), the same per-file redaction in the driver on
  its warm engine (one core), ``redact_files`` (what ``redactor redact --engine spark``
  runs) and ``redact_text_files`` (the DataFrame path: lines in Arrow batches).

Each figure is the best of its rounds.  The per-core overhead of Spark is
``local MB/s / Spark MB/s - 1`` at the same number of cores, the local command taken
without its start-up (target <= 25 %).  Outputs are checked: ``redact_files`` writes
the local command's bytes, the DataFrame path writes the local command's lines (in its
own order), and no planted value is left in it.
Figures are printed, nothing is asserted.

    python benchmarks/spark_throughput.py [--mb 40] [--parts 8] [--corpus logs|digits]
        [--masters local[1],local[2]] [--rounds 3] [--cli]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.throughput import corpus, digit_corpus, timed_redactor


def _digest_tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _cores(master: str) -> int:
    found = re.fullmatch(r"local\[(\d+)\]", master)
    return int(found.group(1)) if found else os.cpu_count() or 1


def _child(master: str, work: Path, rounds: int) -> dict[str, Any]:
    """Runs in its own process: the figures for one master, as a JSON object."""
    from redactor import batch
    from redactor.spark import _engine, job_settings, redact_files, redact_text_files, spark_session

    cores = _cores(master)
    figures: dict[str, Any] = {"master": master, "cores": cores}
    started = time.perf_counter()
    session = spark_session(master, app_name="redactor-benchmark")
    figures["session_start"] = time.perf_counter() - started
    try:
        started = time.perf_counter()
        shipped = job_settings()
        figures["driver_config"] = time.perf_counter() - started

        def files_job(source: Path, output: Path) -> float:
            shutil.rmtree(output, ignore_errors=True)
            jobs = batch.plan([source], "*", output, in_place=False, scan=False,
                              requested=None)
            began = time.perf_counter()
            reports = redact_files(jobs, settings=shipped, spark=session)
            took = time.perf_counter() - began
            failed = [r.error for r in reports if r.error]
            if failed:
                raise SystemExit(f"redact_files failed: {failed[0]}")
            return took

        def text_job(source: Path, output: Path) -> float:
            shutil.rmtree(output, ignore_errors=True)
            began = time.perf_counter()
            redact_text_files(session, str(source), str(output), settings=shipped)
            return time.perf_counter() - began

        def in_process(output: Path) -> float:
            jobs = batch.plan([work / "in"], "*", output, in_place=False, scan=False,
                              requested=None)
            engine = _engine(shipped)
            began = time.perf_counter()
            for job in jobs:
                batch.process_file(engine, job.source, job.destination, job.fmt)
            return time.perf_counter() - began

        def local(source: Path, output: Path) -> float:
            shutil.rmtree(output, ignore_errors=True)
            return timed_redactor(source, output, cores)[0]

        figures["warm_up"] = (files_job(work / "small", work / f"small-{master}")
                              + text_job(work / "small", work / f"small-text-{master}"))
        for key in ("startup", "local", "in_process", "files", "text_files"):
            figures[key] = []
        out = work / f"files-{master}"
        text_out = work / f"text-{master}"
        for _ in range(rounds):
            figures["startup"].append(local(work / "small", work / "local-small"))
            figures["local"].append(local(work / "in", work / f"local-{master}"))
            figures["in_process"].append(in_process(work / f"driver-{master}"))
            figures["files"].append(files_job(work / "in", out))
            figures["text_files"].append(text_job(work / "in", text_out))
        figures["same_bytes"] = _digest_tree(out) == _digest_tree(work / f"local-{master}")
        figures["text_parts"] = len(list(text_out.glob("part-*")))
        figures["text_out"] = str(text_out)
    finally:
        session.stop()
    return figures


def _run_child(master: str, work: Path, rounds: int) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--child", master, "--work", str(work),
                           "--rounds", str(rounds)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"the Spark run on {master} failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _lines(folder: Path) -> Counter[bytes]:
    """The lines of every file under ``folder`` (part files or the local command's)."""
    counted: Counter[bytes] = Counter()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.startswith(("_", ".")):
            counted.update(path.read_bytes().splitlines())
    return counted


def _left(lines: Counter[bytes], planted: list[str]) -> int:
    """Planted values still in ``lines``: each value-shaped token's substrings of a
    planted value's length looked up in a set (a substring search per value would
    take minutes on 100 MB)."""
    values = {v.encode() for v in planted}
    lengths = sorted({len(v) for v in values})
    token = re.compile(rb"[0-9A-Za-z./-]{%d,}" % lengths[0]) if lengths else None
    found: set[bytes] = set()
    for line in lines:
        for match in token.finditer(line) if token else ():
            word = match.group()
            for size in lengths:
                found.update(word[i:i + size] for i in range(len(word) - size + 1)
                             if word[i:i + size] in values)
    return len(found)


def _rate(megabytes: float, seconds: float) -> float:
    return megabytes / seconds if seconds > 0 else float("inf")


def _runs(times: list[float]) -> str:
    return ", ".join(f"{t:.1f}" for t in times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=40.0)
    parser.add_argument("--parts", type=int, default=8, help="input files the corpus is cut into")
    parser.add_argument("--corpus", choices=("logs", "digits"), default="logs")
    parser.add_argument("--masters", default="local[1],local[2]")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timed runs of each job; the best is reported (noisy machines)")
    parser.add_argument("--cli", action="store_true",
                        help="also time 'redactor redact --engine spark' end to end on "
                             "the last master")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.work, args.rounds)))
        return 0

    from redactor.spark import java_runtime

    print(f"java: {java_runtime() or 'none found'}; {os.cpu_count()} CPU(s)", flush=True)
    text, planted = (digit_corpus if args.corpus == "digits" else corpus)(args.mb)
    megabytes = len(text.encode()) / 1e6
    print(f"corpus ({args.corpus}): {megabytes:.1f} MB in {args.parts} files, "
          f"{len(planted)} planted values; best of {args.rounds} rounds", flush=True)
    with tempfile.TemporaryDirectory(prefix="rdx-spark-bench") as folder:
        work = Path(folder)
        (work / "in").mkdir()
        lines = text.splitlines(keepends=True)
        del text
        step = len(lines) // args.parts + 1
        for index in range(args.parts):
            (work / "in" / f"part{index}.log").write_text(
                "".join(lines[index * step:(index + 1) * step]), encoding="utf-8")
        del lines
        (work / "small").mkdir()
        for index in range(2):
            (work / "small" / f"s{index}.log").write_text("nada pessoal aqui\n" * 400,
                                                          encoding="utf-8")

        for master in args.masters.split(","):
            f = _run_child(master, work, args.rounds)
            cores = f["cores"]
            startup = min(f["startup"])
            local_rate = _rate(megabytes, min(f["local"]) - startup)
            rates = {"redact_files": _rate(megabytes, min(f["files"])),
                     "redact_text_files": _rate(megabytes, min(f["text_files"]))}
            warm = _rate(megabytes, min(f["in_process"]))
            print(f"spark {master}: session start-up {f['session_start']:.2f} s, "
                  f"configuration checked on the driver {f['driver_config']:.2f} s, "
                  f"warm-up jobs (workers start, engines built) {f['warm_up']:.2f} s")
            print(f"  redactor redact --jobs {cores}: {local_rate:.2f} MB/s without start-up "
                  f"(runs: {_runs(f['local'])} s; start-up on 7 KB: {_runs(f['startup'])} s)")
            print(f"  the same redaction on the driver's warm engine, one core: {warm:.2f} "
                  f"MB/s (runs: {_runs(f['in_process'])} s)")
            print(f"  redact_files (--engine spark): {rates['redact_files']:.2f} MB/s (runs: "
                  f"{_runs(f['files'])} s); same bytes as the local command: "
                  f"{'yes' if f['same_bytes'] else 'NO'}")
            text_lines = _lines(Path(f["text_out"]))
            same_lines = text_lines == _lines(work / f"local-{master}")
            print(f"  redact_text_files (DataFrame, Arrow batches): "
                  f"{rates['redact_text_files']:.2f} MB/s (runs: {_runs(f['text_files'])} s, "
                  f"{f['text_parts']} part files); the local command's lines: "
                  f"{'yes' if same_lines else 'NO'}; planted values left: "
                  f"{_left(text_lines, planted)}")
            for name, rate in rates.items():
                print(f"  per-core overhead of {name}: {100 * (local_rate / rate - 1):+.1f} % "
                      f"against redactor redact --jobs {cores}, "
                      f"{100 * (cores * warm / rate - 1):+.1f} % against {cores} x the warm "
                      "engine (target <= 25 %)", flush=True)

        if args.cli:
            master = args.masters.split(",")[-1]
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "redactor", "redact", "-q", "--engine",
                            "spark", "--master", master, "--output", str(work / "cli"),
                            str(work / "in")], check=True)
            seconds = time.perf_counter() - started
            same = _digest_tree(work / "cli") == _digest_tree(work / f"local-{master}")
            print(f"redactor redact --engine spark --master {master}: {seconds:.1f} s end to "
                  f"end ({_rate(megabytes, seconds):.2f} MB/s with the session start-up); "
                  f"same bytes: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

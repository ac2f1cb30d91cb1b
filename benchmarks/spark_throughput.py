"""Spark throughput: the batch corpus through Spark ``local[1]`` and ``local[2]``, next to
``redactor redact`` with one and two processes, in the same run.

The corpus is the one of ``benchmarks/throughput.py`` (``--corpus logs``, the default,
or ``digits``), written as ``--parts`` files.  Each Spark master runs in a child process
of its own (a fresh JVM, as a user gets) that reports:

- session start-up: ``spark_session(master)``, JVM and SparkContext;
- the configuration read and checked on the driver (``job_settings``: one engine build);
- a warm-up job on two small files: each executor's Python worker builds its engine;
- ``redact_files`` (what ``redactor redact --engine spark`` runs: one task per file,
  the local command's per-file redaction) on the corpus, and a second time;
- ``redact_text_files`` (the DataFrame path: lines in Arrow batches) on the corpus.

The local command is timed end to end and on a 7 KB input (its start-up), so both
sides are compared without start-up: the per-core overhead of Spark is
``local MB/s / Spark MB/s - 1`` for the same number of cores (target <= 25 %).
Outputs are checked: ``redact_files`` writes the local command's bytes, and no planted
value is left in the DataFrame path's output.  Figures are printed, nothing asserted.

    python benchmarks/spark_throughput.py [--mb 40] [--parts 8] [--corpus logs|digits]
        [--masters local[1],local[2]] [--cli]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.throughput import corpus, digit_corpus, timed_redactor


def _digest_tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _child(master: str, work: Path, rounds: int) -> dict[str, Any]:
    """Runs in its own process: the Spark figures for one master, as a JSON object."""
    from redactor import batch
    from redactor.spark import _engine, job_settings, redact_files, redact_text_files, spark_session

    figures: dict[str, Any] = {"master": master}
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
            """The local command's per-file redaction here, on the driver's warm engine."""
            jobs = batch.plan([work / "in"], "*", output, in_place=False, scan=False,
                              requested=None)
            engine = _engine(shipped)
            began = time.perf_counter()
            for job in jobs:
                batch.process_file(engine, job.source, job.destination, job.fmt)
            return time.perf_counter() - began

        # The first job of each kind starts Python workers, builds their engines and
        # warms the JVM: timed apart, on the small files.
        figures["warm_up"] = (files_job(work / "small", work / f"small-{master}")
                              + text_job(work / "small", work / f"small-text-{master}"))
        for key in ("files", "text_files", "in_process"):
            figures[key] = []
        out = work / f"files-{master}"
        text_out = work / f"text-{master}"
        for _ in range(rounds):
            figures["in_process"].append(in_process(work / f"driver-{master}"))
            figures["files"].append(files_job(work / "in", out))
            figures["text_files"].append(text_job(work / "in", text_out))
        figures["files_digest"] = _digest_tree(out)
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


def _left(folder: Path, planted: list[str]) -> int:
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("part-*")))
    return sum(1 for value in set(planted) if value in text)


def _rate(megabytes: float, seconds: float) -> float:
    return megabytes / seconds if seconds > 0 else float("inf")


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
          f"{len(planted)} planted values; best of {args.rounds} runs each", flush=True)
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

        def best_cli(source: Path, jobs: int) -> float:
            times = []
            for run in range(args.rounds):
                out = work / f"local-{source.name}-{jobs}-{run}"
                times.append(timed_redactor(source, out, jobs)[0])
            return min(times)

        startup = best_cli(work / "small", 1)
        local = {jobs: best_cli(work / "in", jobs) for jobs in (1, 2)}
        local_rate = {jobs: _rate(megabytes, seconds - startup)
                      for jobs, seconds in local.items()}
        reference = _digest_tree(work / "local-in-1-0")
        print(f"redactor redact start-up: {startup:.2f} s (7 KB input)")
        for jobs, seconds in local.items():
            print(f"redactor redact --jobs {jobs}: {_rate(megabytes, seconds):.2f} MB/s end "
                  f"to end ({seconds:.1f} s), {local_rate[jobs]:.2f} MB/s without start-up",
                  flush=True)

        one_core: float | None = None
        for master in args.masters.split(","):
            cores = {"local[1]": 1, "local[2]": 2}.get(master)
            figures = _run_child(master, work, args.rounds)
            same = figures["files_digest"] == reference
            files_rate = _rate(megabytes, min(figures["files"]))
            text_rate = _rate(megabytes, min(figures["text_files"]))
            driver_rate = _rate(megabytes, min(figures["in_process"]))
            one_core = driver_rate if one_core is None else max(one_core, driver_rate)
            print(f"spark {master}: session start-up {figures['session_start']:.2f} s, "
                  f"configuration checked on the driver {figures['driver_config']:.2f} s, "
                  f"warm-up jobs (workers start, engines built) {figures['warm_up']:.2f} s")
            print(f"  redact_files (--engine spark): {files_rate:.2f} MB/s "
                  f"(runs: {', '.join(f'{t:.1f}' for t in figures['files'])} s); "
                  f"same bytes as the local command: {'yes' if same else 'NO'}")
            print(f"  redact_text_files (DataFrame, Arrow batches): {text_rate:.2f} MB/s "
                  f"(runs: {', '.join(f'{t:.1f}' for t in figures['text_files'])} s, "
                  f"{figures['text_parts']} part files); planted values left: "
                  f"{_left(Path(figures['text_out']), planted)}")
            print(f"  the same per-file redaction on the driver, warm engine, one core: "
                  f"{driver_rate:.2f} MB/s (runs: "
                  f"{', '.join(f'{t:.1f}' for t in figures['in_process'])} s)")
            if cores is not None:
                against = {"redactor redact --jobs " + str(cores): local_rate[cores],
                           f"{cores} x the warm one-core rate": cores * one_core}
                for label, rate in against.items():
                    print(f"  per-core overhead against {label} ({rate:.2f} MB/s): "
                          f"redact_files {100 * (rate / files_rate - 1):+.1f} %, "
                          f"redact_text_files {100 * (rate / text_rate - 1):+.1f} % "
                          "(target <= 25 %)", flush=True)

        if args.cli:
            master = args.masters.split(",")[-1]
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "redactor", "redact", "-q", "--engine",
                            "spark", "--master", master, "--output", str(work / "cli"),
                            str(work / "in")], check=True)
            seconds = time.perf_counter() - started
            print(f"redactor redact --engine spark --master {master}: {seconds:.1f} s end to "
                  f"end ({_rate(megabytes, seconds):.2f} MB/s with the session start-up); "
                  f"same bytes: {'yes' if _digest_tree(work / 'cli') == reference else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

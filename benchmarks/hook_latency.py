"""Hook latency: the hook command exactly as ``redactor install claude`` writes it.

Each timed call is a whole process run through ``sh -c`` (as Claude Code runs hooks),
fed a 2 KB PreToolUse event holding one CPF, against a warm ``redactor serve``.  It
is paired run for run with ``sh -c '<same python> -c pass'``; the ratio printed is
the median of the per-pair ratios, so machine drift cancels.  Also measured: the
cold first call (no server yet), requests per second and p99 latency with 8
concurrent hook processes, and the server's RSS (dispatcher plus engine workers) over
many socket requests.

Prints figures only; nothing is asserted.

    python benchmarks/hook_latency.py [--runs 40] [--requests 100000]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from redactor.install import default_hook_command
from redactor.serve import protocol as client


def payload() -> bytes:
    event: dict[str, Any] = {
        "session_id": "0f6f1d1e-bench", "transcript_path": "/tmp/bench.jsonl", "cwd": os.getcwd(),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "psql -h db01 -c \"SELECT * FROM clientes WHERE cpf = "
                                  "'529.982.247-25'\"", "timeout": 60000,
                       "description": "Consulta o cadastro do cliente no banco de homologação"},
        "tool_use_id": "toolu_bench",
    }
    body = json.dumps(event)
    event["tool_input"]["description"] += " " + "x" * (2048 - len(body) - 1)
    raw = json.dumps(event).encode()
    assert len(raw) == 2048, len(raw)
    return raw


def timed(command: str, data: bytes, env: dict[str, str]) -> tuple[float, bytes]:
    started = time.perf_counter()
    done = subprocess.run(["/bin/sh", "-c", command], input=data, capture_output=True,
                          env=env, check=True)
    return time.perf_counter() - started, done.stdout


def rss_parts(status: dict[str, Any]) -> str:
    """The dispatcher's and each engine worker's share of the server's total RSS."""
    workers = status.get("workers", [])
    return (f"dispatcher {status.get('dispatcher_rss', 0) / 2**20:.1f} MiB, "
            f"{len(workers)} workers " + " + ".join(f"{w['rss'] / 2**20:.1f}" for w in workers)
            + " MiB")


def control(verb: bytes, env_path: str) -> bytes:
    return client.exchange(client.build_request(b"", control=verb), path=env_path,
                           timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--concurrent-calls", type=int, default=400)
    parser.add_argument("--requests", type=int, default=100_000)
    args = parser.parse_args(argv)

    runtime = tempfile.mkdtemp(prefix="rdxb", dir="/tmp")
    env = {**os.environ, "XDG_RUNTIME_DIR": runtime}
    os.environ["XDG_RUNTIME_DIR"] = runtime
    sock = client.socket_path()
    hook = default_hook_command()
    bare = f"{sys.executable} -c pass"
    data = payload()
    try:
        # Cold: no server; the call answers in process and starts one.
        cold, out = timed(hook, data, env)
        assert b"[CPF]" in out and b"529.982.247-25" not in out
        deadline = time.monotonic() + 60
        while not Path(sock).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        for _ in range(5):  # warm-up
            timed(hook, data, env)
            timed(bare, b"", env)
        hooks: list[float] = []
        bases: list[float] = []
        ratios: list[float] = []
        for _ in range(args.runs):
            h, out = timed(hook, data, env)
            b, _ = timed(bare, b"", env)
            assert b"[CPF]" in out
            hooks.append(h)
            bases.append(b)
            ratios.append(h / b)
        print(f"hook command: {hook}")
        print(f"warm hook call (sh -c, 2 KB PreToolUse, 1 CPF): median "
              f"{statistics.median(hooks) * 1000:.1f} ms over {args.runs} runs")
        print(f"bare start (sh -c '{bare}'): median {statistics.median(bases) * 1000:.1f} ms")
        print(f"ratio hook / bare start: median of pairs {statistics.median(ratios):.2f}")
        print(f"cold first call (no server; answers in process, starts one): {cold:.2f} s")

        latencies: list[float] = []

        def one(_: int) -> None:
            elapsed, result = timed(hook, data, env)
            assert b"[CPF]" in result
            latencies.append(elapsed)

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(one, range(args.concurrent_calls)))
        wall = time.perf_counter() - started
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"8 concurrent hook processes: {args.concurrent_calls / wall:.0f} calls/s, "
              f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")

        request = client.build_request(data)
        before: dict[str, Any] = json.loads(client.parse_answer(control(b"status", sock))[1])
        marks = {args.requests // 10, args.requests}

        def direct(_: int) -> None:
            code, out, _err = client.parse_answer(client.exchange(request, path=sock))
            assert code == 0 and b"[CPF]" in out

        started = time.perf_counter()
        done = 0
        with ThreadPoolExecutor(max_workers=8) as pool:
            while done < args.requests:
                step = min(5_000, args.requests - done)
                list(pool.map(direct, range(step)))
                done += step
                if done in marks or done % 20_000 == 0:
                    status = json.loads(client.parse_answer(control(b"status", sock))[1])
                    print(f"  after {done:>7} socket requests: server RSS "
                          f"{status['rss'] / 2**20:.1f} MiB ({rss_parts(status)})")
        wall = time.perf_counter() - started
        print(f"server RSS warm before the run: {before['rss'] / 2**20:.1f} MiB "
              f"({rss_parts(before)}); {args.requests} socket requests at "
              f"{args.requests / wall:.0f} requests/s")
    finally:
        with contextlib.suppress(client.Unreachable, client.Broken):
            control(b"stop", sock)
        time.sleep(0.5)
        shutil.rmtree(runtime, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

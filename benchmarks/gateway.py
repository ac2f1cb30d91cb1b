"""Gateway figures (issue 31): what ``redactor gateway`` adds to a Claude Code request.

The gateway runs as a real process (``python -m redactor gateway run``, HOME and
XDG_RUNTIME_DIR in a temporary folder) in front of a fake upstream in another process
(an aiohttp server on 127.0.0.1 answering ``/v1/messages`` with a short SSE stream).
Requests look like Claude Code's: system text blocks, 20 tool definitions, a history of
turns with ``tool_use`` and ``tool_result`` blocks holding log text with synthetic CPFs
and names.

1. Added latency, 500 KB request whose blocks were all seen before: gateway round trip
   minus direct round trip, same body, interleaved (target p50 <= 5 ms).
2. The same with one new 50 KB tool_result appended, next to the engine's ``redact()``
   time for such a text, in process (target: redact + <= 2 ms).
3. Upstream's first streamed byte to the client's first byte (the upstream stamps
   ``time.monotonic()``, shared by the processes of one machine; target <= 2 ms added).
4. Throughput, 100 KB requests with cached history, 8 concurrent keep-alive clients
   (target >= 200 requests/s), with each process's CPU share.
5. ``--soak [SECONDS]``: 8 clients, histories growing turn by turn with fresh values,
   the gateway's RSS sampled every 30 s (target < 400 MB).

``--profile 1|2`` runs figure 1's or 2's body through ``RequestRedactor.redact_body``
in process under cProfile and prints the top functions.  Prints figures; asserts nothing.

    python -m benchmarks.gateway [--figures 1,2,3,4] [--runs 60] [--json FILE]
    python -m benchmarks.gateway --soak 1800
    python -m benchmarks.gateway --profile 1
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import cProfile
import http.client
import json
import os
import pstats
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------- synthetic data

_GIVEN = ("Ana", "Bruno", "Carla", "Diego", "Eduarda", "Fábio", "Gabriela", "Heitor",
          "Isabela", "João", "Larissa", "Marcelo", "Natália", "Otávio", "Paula", "Rafael",
          "Sílvia", "Thiago", "Vanessa", "Wagner")
_FAMILY = ("Almeida", "Barbosa", "Cardoso", "Duarte", "Esteves", "Ferreira", "Gonçalves",
           "Henriques", "Lacerda", "Magalhães", "Nogueira", "Pereira", "Queiroz", "Rezende",
           "Siqueira", "Teixeira", "Vasconcelos")
_SERVICES = ("cadastro-api", "billing-worker", "auth-gateway", "relatorios", "notificacoes")
_WORDS = ("request", "processed", "timeout", "retry", "upstream", "queue", "batch", "commit",
          "cache", "session", "payload", "validated", "rejected", "scheduled", "finished")


def cpf(rng: random.Random) -> str:
    """A CPF that passes the check digits (formatted)."""
    while True:
        digits = [rng.randrange(10) for _ in range(9)]
        if len(set(digits)) > 1:
            break
    for weight_start in (10, 11):
        total = sum(d * (weight_start - i) for i, d in enumerate(digits))
        digits.append(total * 10 % 11 % 10)
    s = "".join(map(str, digits))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


def person(rng: random.Random) -> str:
    return f"{rng.choice(_GIVEN)} {rng.choice(_FAMILY)} {rng.choice(_FAMILY)}"


def log_text(rng: random.Random, size: int) -> str:
    """Application log lines, one in five naming a client with a CPF."""
    lines: list[str] = []
    total = 0
    while total < size:
        stamp = (f"2026-11-{rng.randrange(1, 29):02d}T{rng.randrange(24):02d}:"
                 f"{rng.randrange(60):02d}:{rng.randrange(60):02d}.{rng.randrange(1000):03d}Z")
        level = rng.choice(("INFO", "INFO", "INFO", "WARN", "DEBUG", "ERROR"))
        service = rng.choice(_SERVICES)
        if rng.random() < 0.2:
            line = (f"{stamp} {level} [{service}] cliente {person(rng)} cpf={cpf(rng)} "
                    f"pedido={rng.randrange(10**6, 10**7)} status={rng.choice(_WORDS)}")
        else:
            words = " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(4, 10)))
            line = (f"{stamp} {level} [{service}] {words} id={rng.getrandbits(48):012x} "
                    f"elapsed_ms={rng.randrange(1, 900)}")
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def _tools(rng: random.Random) -> list[dict[str, Any]]:
    tools = []
    for i in range(20):
        description = " ".join(
            f"Use this tool to {rng.choice(_WORDS)} the {rng.choice(_WORDS)} of a file or "
            f"command; it returns the {rng.choice(_WORDS)} output and never changes state "
            f"unless asked." for _ in range(rng.randrange(4, 12)))
        tools.append({
            "name": f"Tool{i}", "description": description,
            "input_schema": {
                "type": "object", "additionalProperties": False,
                "$schema": "http://json-schema.org/draft-07/schema#",
                "required": ["command"],
                "properties": {
                    "command": {"type": "string", "description": "The command to run"},
                    "timeout": {"type": "number",
                                "description": "Optional timeout in milliseconds (max 600000)"},
                    "description": {"type": "string", "description":
                                    "Clear, concise description of what this command does in "
                                    "5-10 words, in active voice."},
                }}})
    return tools


def _system(rng: random.Random) -> list[dict[str, Any]]:
    intro = ("You are Claude Code, Anthropic's official CLI for Claude. You are an interactive "
             "CLI tool that helps users with software engineering tasks. ")
    rules = " ".join(f"Rule {i}: prefer {rng.choice(_WORDS)} over {rng.choice(_WORDS)} when "
                     f"the {rng.choice(_WORDS)} is unclear." for i in range(120))
    return [{"type": "text", "text": intro},
            {"type": "text", "text": rules, "cache_control": {"type": "ephemeral"}}]


@dataclass
class Session:
    """One Claude Code-like conversation that grows turn by turn."""

    seed: int
    rng: random.Random = field(init=False)
    head: dict[str, Any] = field(init=False)
    messages: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        shared = random.Random(0)  # the same tools and system prompt in every session
        self.head = {"model": "claude-sonnet-4-5", "max_tokens": 32000, "stream": True,
                     "system": _system(shared), "tools": _tools(shared),
                     "metadata": {"user_id": "user_bench_session"}}
        self.messages.append({"role": "user", "content": [
            {"type": "text", "text": "Veja por que o pedido do cliente falhou nos logs de "
                                     "ontem e corrija o serviço."}]})

    def turn(self, result_size: int) -> None:
        """The assistant calls a tool; the user turn carries its result."""
        rng = self.rng
        self.turns += 1
        tool_id = f"toolu_{self.seed:04d}_{self.turns:05d}"
        self.messages.append({"role": "assistant", "content": [
            {"type": "text", "text": f"Vou olhar o log do serviço {rng.choice(_SERVICES)}."},
            {"type": "tool_use", "id": tool_id, "name": "Tool0",
             "input": {"command": f"grep -n {cpf(rng)} /var/log/app/{rng.choice(_SERVICES)}.log"
                                  " | tail -200", "description": "Procura o cliente no log"}}]})
        self.messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id,
             "content": log_text(rng, result_size)}]})

    def grow_to(self, size: int, result_size: int = 8000) -> None:
        while len(self.body()) < size:
            self.turn(result_size)

    def body(self, extra: list[dict[str, Any]] | None = None) -> bytes:
        request = {**self.head, "messages": self.messages + (extra or [])}
        return json.dumps(request, ensure_ascii=False).encode("utf-8")

    def with_new_result(self, size: int) -> bytes:
        """The body plus one turn whose 50 KB-ish result was never sent (not kept)."""
        rng = self.rng
        tool_id = f"toolu_new_{rng.getrandbits(40):010x}"
        extra = [{"role": "assistant", "content": [
                     {"type": "tool_use", "id": tool_id, "name": "Tool0",
                      "input": {"command": "cat /var/log/app/relatorios.log"}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                               "content": log_text(rng, size)}]}]
        return self.body(extra)


# ---------------------------------------------------------------- fake upstream

def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def upstream_main(port_file: str) -> None:
    """The fake upstream (its own process).  Header ``x-bench-pause-ms``: after the
    first SSE event, stamp time.monotonic(), wait, and send the stamp in the next."""
    import asyncio

    from aiohttp import web

    async def messages(request: web.Request) -> web.StreamResponse:
        await request.read()
        pause = float(request.headers.get("x-bench-pause-ms", "0")) / 1000
        response = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await response.prepare(request)
        await response.write(_sse("message_start", {"type": "message_start", "message": {
            "id": "msg_bench", "type": "message", "role": "assistant", "content": [],
            "model": "claude-sonnet-4-5", "usage": {"input_tokens": 10, "output_tokens": 1}}}))
        first = time.monotonic()
        if pause:
            await asyncio.sleep(pause)
        await response.write(_sse("content_block_start", {
            "type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}, "bench_first": first}))
        await response.write(_sse("content_block_delta", {
            "type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": "Certo."}}))
        await response.write(_sse("content_block_stop", {"type": "content_block_stop",
                                                         "index": 0}))
        await response.write(_sse("message_stop", {"type": "message_stop"}))
        await response.write_eof()
        return response

    async def run() -> None:
        app = web.Application(client_max_size=64 << 20)
        app.router.add_post("/v1/messages", messages)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        await web.SockSite(runner, listener).start()
        Path(port_file + ".tmp").write_text(str(port))
        os.replace(port_file + ".tmp", port_file)
        await asyncio.Event().wait()

    asyncio.run(run())


# ---------------------------------------------------------------- processes

@dataclass
class Stack:
    folder: Path
    upstream: subprocess.Popen[bytes]
    upstream_port: int
    gateway: subprocess.Popen[bytes]
    gateway_port: int
    token: str
    env: dict[str, str]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path} did not appear")
        time.sleep(0.05)


@contextlib.contextmanager
def stack() -> Iterator[Stack]:
    folder = Path(tempfile.mkdtemp(prefix="rdxgw", dir="/tmp"))
    home, runtime = folder / "home", folder / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and not k.startswith(("XDG_", "REDACTOR_"))}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(runtime))
    port_file = folder / "upstream.port"
    upstream = subprocess.Popen([sys.executable, "-m", "benchmarks.gateway",
                                 "--upstream-server", str(port_file)], env=env)
    gateway: subprocess.Popen[bytes] | None = None
    try:
        _wait_for(port_file, 30)
        upstream_port = int(port_file.read_text())
        port = _free_port()
        gateway = subprocess.Popen(
            [sys.executable, "-m", "redactor", "gateway", "run", "--port", str(port),
             "--socket", str(folder / "g.sock"), "--upstream",
             f"http://127.0.0.1:{upstream_port}"],
            env=env, stderr=subprocess.PIPE)
        assert gateway.stderr is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = gateway.stderr.readline()
            if not line:
                raise RuntimeError("the gateway exited before listening")
            if b"listening" in line:
                break
        stderr = gateway.stderr
        threading.Thread(target=lambda: shutil.copyfileobj(stderr, sys.stderr.buffer),
                         daemon=True).start()
        token = (home / ".config" / "redactor" / "gateway-token").read_text().strip()
        yield Stack(folder, upstream, upstream_port, gateway, port, token, env)
    finally:
        for process in (gateway, upstream):
            if process is not None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(10)
                if process.poll() is None:
                    process.kill()
                    process.wait()
        shutil.rmtree(folder, ignore_errors=True)


class Client:
    """A keep-alive HTTP client to the gateway or straight to the upstream."""

    def __init__(self, port: int, token: str | None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"content-type": "application/json", "anthropic-version": "2023-06-01",
                        "x-api-key": "sk-bench-not-a-key"}
        if token is not None:
            self.headers["X-Redactor-Token"] = token

    def post(self, body: bytes, extra: dict[str, str] | None = None) -> bytes:
        self.connection.request("POST", "/v1/messages", body,
                                {**self.headers, **(extra or {})})
        response = self.connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"status {response.status}: {data[:300]!r}")
        return data

    def first_byte(self, body: bytes, pause_ms: int) -> tuple[float, float]:
        """(upstream's stamp after its first event, this client's first body byte)."""
        self.connection.request("POST", "/v1/messages", body,
                                {**self.headers, "x-bench-pause-ms": str(pause_ms)})
        response = self.connection.getresponse()
        first = response.read1(65536)
        arrived = time.monotonic()
        rest = first + response.read()
        for line in rest.splitlines():
            if line.startswith(b"data: ") and b"bench_first" in line:
                return float(json.loads(line[6:])["bench_first"]), arrived
        raise RuntimeError("no stamp in the stream")

    def close(self) -> None:
        self.connection.close()


def timed(post: Callable[[], object]) -> float:
    started = time.perf_counter()
    post()
    return time.perf_counter() - started


# ---------------------------------------------------------------- figures

def summary(values: list[float], scale: float = 1000.0) -> dict[str, float]:
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * scale

    return {"p50": pick(0.5), "p90": pick(0.9), "p99": pick(0.99), "n": len(values)}


def line(label: str, values: list[float], unit: str = "ms") -> dict[str, float]:
    s = summary(values)
    print(f"  {label:<44} p50 {s['p50']:8.2f} {unit}  p90 {s['p90']:8.2f}  "
          f"p99 {s['p99']:8.2f}  n {int(s['n'])}")
    return s


def pairs(gateway: Client, direct: Client, bodies: Iterator[bytes],
          runs: int) -> tuple[list[float], list[float], list[float]]:
    """Interleaved round trips of the same body, order alternating."""
    through: list[float] = []
    straight: list[float] = []
    for i, body in zip(range(runs), bodies, strict=False):
        if i % 2:
            d = timed(lambda: direct.post(body))  # noqa: B023 - called at once
            g = timed(lambda: gateway.post(body))  # noqa: B023
        else:
            g = timed(lambda: gateway.post(body))  # noqa: B023
            d = timed(lambda: direct.post(body))  # noqa: B023
        through.append(g)
        straight.append(d)
    return through, straight, [g - d for g, d in zip(through, straight, strict=True)]


def figure_1(s: Stack, runs: int) -> dict[str, Any]:
    session = Session(1)
    session.grow_to(500_000)
    body = session.body()
    gateway, direct = Client(s.gateway_port, s.token), Client(s.upstream_port, None)
    for _ in range(5):  # the first computes every block; the rest warm both paths
        gateway.post(body)
        direct.post(body)
    through, straight, added = pairs(gateway, direct, (body for _ in range(runs)), runs)
    print(f"1. {len(body) / 1000:.0f} KB request, every block seen before "
          f"({len(session.messages)} messages)")
    out = {"body_bytes": len(body), "gateway": line("gateway round trip", through),
           "direct": line("direct round trip", straight),
           "added": line("added (target p50 <= 5 ms)", added)}
    gateway.close()
    direct.close()
    return out


def _engine() -> Any:
    from redactor import config
    from redactor.config import Settings
    from redactor.engine import Redactor

    return Redactor(config.for_hooks(Settings(), dict(os.environ)))


def figure_2(s: Stack, runs: int, engine: Any) -> dict[str, Any]:
    session = Session(2)
    session.grow_to(500_000)
    history = session.body()
    gateway, direct = Client(s.gateway_port, s.token), Client(s.upstream_port, None)
    for _ in range(3):
        gateway.post(history)
        direct.post(history)
        gateway.post(session.with_new_result(50_000))
    bodies = [session.with_new_result(50_000) for _ in range(runs)]
    texts = [json.loads(body)["messages"][-1]["content"][-1]["content"] for body in bodies]
    # The engine's redact() of exactly those texts, in process, with the names the
    # history taught (the gateway redacts the new block with them).
    engine.redact(texts[0])
    taught = _history_names(engine, session)
    # Each new body right after the history alone (every block cached) and next to the
    # in-process redact() of its new text: the machine's speed drifts over minutes, so
    # the increment is taken run by run.
    through, straight, added, cached, redact = [], [], [], [], []
    for body, text in zip(bodies, texts, strict=True):
        _, _, one = pairs(gateway, direct, iter([history]), 1)
        cached.extend(one)
        g, d, two = pairs(gateway, direct, iter([body]), 1)
        through.extend(g)
        straight.extend(d)
        added.extend(two)
        names = copy.deepcopy(taught)
        redact.append(timed(lambda: engine.redact(text, names=names)))  # noqa: B023
    beyond = [a - c - r for a, c, r in zip(added, cached, redact, strict=True)]
    print("2. the same history plus one new 50 KB tool_result")
    out: dict[str, Any] = {
        "gateway": line("gateway round trip", through),
        "direct": line("direct round trip", straight),
        "added": line("added", added),
        "cached": line("added, the history alone (figure 1's case)", cached),
        "redact": line(f"engine redact() of the new text, in process, with the history's "
                       f"{_count(taught)} names", redact)}
    out["added_minus_redact"] = line("added minus redact(), run by run",
                                     [a - r for a, r in zip(added, redact, strict=True)])
    out["beyond_redact"] = line("the new block beyond its redact() (added minus the "
                                "history's added minus redact(), run by run; target <= 2 ms)",
                                beyond)
    gateway.close()
    direct.close()
    return out


def _history_names(engine: Any, session: Session) -> Any:
    """The names the gateway has learned from the session's blocks before the new one."""
    from redactor.engine import StreamNames

    names = StreamNames()
    for message in session.messages:
        for block in message["content"]:
            if block["type"] == "text":
                engine.redact(block["text"], names=names)
            elif block["type"] == "tool_result":
                engine.redact(block["content"], names=names)
    return names


def _count(names: Any) -> int:
    return len(names.usernames) + len(names.caseless_usernames) + len(names.person_words)


def figure_3(s: Stack, runs: int) -> dict[str, Any]:
    session = Session(3)
    session.grow_to(20_000)
    body = session.body()
    results: dict[str, Any] = {}
    print("3. upstream's first streamed byte to the client's first byte (upstream pauses "
          "50 ms after it)")
    for name, client in (("gateway", Client(s.gateway_port, s.token)),
                         ("direct", Client(s.upstream_port, None))):
        client.post(body)
        delays = []
        for _ in range(runs):
            stamp, arrived = client.first_byte(body, 50)
            delays.append(arrived - stamp)
        client.close()
        results[name] = line(f"{name}", delays)
    results["added_p50"] = results["gateway"]["p50"] - results["direct"]["p50"]
    print(f"  added, p50: {results['added_p50']:.2f} ms (target <= 2 ms)")
    return results


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for text in Path(f"/proc/{pid}/status").read_text().splitlines():
        if text.startswith("VmRSS:"):
            return int(text.split()[1]) / 1024
    return 0.0


def figure_4(s: Stack, seconds: float, clients: int = 8) -> dict[str, Any]:
    bodies = []
    for i in range(clients):
        session = Session(40 + i)
        session.grow_to(100_000)
        bodies.append(session.body())
    warm = Client(s.gateway_port, s.token)
    for body in bodies:
        warm.post(body)
    warm.close()
    done = [0] * clients
    latencies: list[list[float]] = [[] for _ in range(clients)]
    stop = threading.Event()
    begin = threading.Barrier(clients + 1)

    def worker(i: int) -> None:
        client = Client(s.gateway_port, s.token)
        client.post(bodies[i])
        begin.wait()
        while not stop.is_set():
            latencies[i].append(timed(lambda: client.post(bodies[i])))
            done[i] += 1
        client.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    begin.wait()
    cpu = {"gateway": _cpu_seconds(s.gateway.pid), "upstream": _cpu_seconds(s.upstream.pid),
           "client": time.process_time()}
    started = time.monotonic()
    time.sleep(seconds)
    stop.set()
    wall = time.monotonic() - started
    total = sum(done)
    cpu_after = {"gateway": _cpu_seconds(s.gateway.pid),
                 "upstream": _cpu_seconds(s.upstream.pid), "client": time.process_time()}
    for thread in threads:
        thread.join()
    shares = {name: (cpu_after[name] - cpu[name]) / wall for name in cpu}
    rate = total / wall
    print(f"4. throughput, {len(bodies[0]) / 1000:.0f} KB requests with cached history, "
          f"{clients} keep-alive clients, {wall:.1f} s")
    print(f"  {rate:.1f} requests/s (target >= 200)")
    lat = line("latency under load", [x for part in latencies for x in part])
    print("  CPU, cores busy: " + ", ".join(f"{name} {share:.2f}"
                                            for name, share in shares.items())
          + f" (of {os.cpu_count()})")
    return {"requests_per_second": rate, "requests": total, "seconds": wall,
            "latency": lat, "cpu_cores": shares}


def soak(s: Stack, seconds: float, clients: int = 8, every: float = 30.0) -> dict[str, Any]:
    """Clients whose histories grow turn by turn (new results, fresh values); a session
    past 600 KB starts over with a new seed, so the cache keeps growing; one request in
    ten is a retry of the last body (all cached)."""
    stop = threading.Event()
    counts = [0] * clients
    errors: list[str] = []

    def worker(i: int) -> None:
        client = Client(s.gateway_port, s.token)
        seed = 1000 + i
        session = Session(seed)
        body = session.body()
        while not stop.is_set():
            if session.rng.random() >= 0.1:
                session.turn(session.rng.choice((2000, 4000, 8000, 16000)))
                body = session.body()
            try:
                client.post(body)
            except Exception as exc:  # report, reconnect, go on
                errors.append(type(exc).__name__)
                client.close()
                client = Client(s.gateway_port, s.token)
            counts[i] += 1
            if len(body) > 600_000:
                seed += clients
                session = Session(seed)
                body = session.body()
        client.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    series = [(0.0, rss_mib(s.gateway.pid), 0)]
    print(f"5. soak, {seconds:.0f} s, {clients} clients; gateway RSS every {every:.0f} s")
    print(f"  {0:7.0f} s  {series[0][1]:7.1f} MiB  {0:7d} requests", flush=True)
    for thread in threads:
        thread.start()
    try:
        while time.monotonic() - started < seconds:
            time.sleep(min(every, max(0.0, seconds - (time.monotonic() - started))))
            sample = (time.monotonic() - started, rss_mib(s.gateway.pid), sum(counts))
            series.append(sample)
            print(f"  {sample[0]:7.0f} s  {sample[1]:7.1f} MiB  {sample[2]:7d} requests",
                  flush=True)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    status = _status(s)
    peak = max(rss for _, rss, _ in series)
    print(f"  peak {peak:.1f} MiB (target < 400 MB = 381 MiB); {sum(counts)} requests, "
          f"{len(errors)} errors; gateway: {status.get('cached_blocks')} cached blocks, "
          f"{status.get('cache_hits')} hits, {status.get('cache_misses')} misses")
    return {"series": [{"seconds": t, "rss_mib": r, "requests": n} for t, r, n in series],
            "peak_mib": peak, "errors": len(errors), "status": status}


def _status(s: Stack) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", s.gateway_port, timeout=30)
    connection.request("GET", "/redactor/v1/status", headers={"X-Redactor-Token": s.token})
    answer: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return answer


# ---------------------------------------------------------------- profile

def profile(figure: int, runs: int) -> None:
    from redactor.gateway.wire import BlockCache, RequestRedactor

    session = Session(figure)
    session.grow_to(500_000)
    engine = _engine()
    redactor = RequestRedactor(engine, withheld_text="[withheld]", cache=BlockCache())
    body = session.body()
    redactor.redact_body(body)
    bodies = [session.with_new_result(50_000) if figure == 2 else body for _ in range(runs)]
    if figure == 2:
        for other in bodies[:2]:  # warm the engine's code paths on new text
            redactor.redact_body(other)
        bodies = [session.with_new_result(50_000) for _ in range(runs)]
    times = []
    profiler = cProfile.Profile()
    for one in bodies:
        started = time.perf_counter()
        profiler.enable()
        redactor.redact_body(one)
        profiler.disable()
        times.append(time.perf_counter() - started)
    print(f"redact_body, figure {figure}'s body ({len(bodies[0]) / 1000:.0f} KB), in process, "
          "under cProfile")
    line("redact_body (profiled)", times)
    plain = [timed(lambda: redactor.redact_body(one)) for one in (  # noqa: B023
        [body] * runs if figure == 1 else [session.with_new_result(50_000)
                                          for _ in range(runs)])]
    line("redact_body (not profiled)", plain)
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(20)


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", default="1,2,3,4",
                        help="which of figures 1-4 to measure (comma-separated; '' for none)")
    parser.add_argument("--runs", type=int, default=60, help="round trips per figure")
    parser.add_argument("--throughput-seconds", type=float, default=20.0)
    parser.add_argument("--soak", type=float, nargs="?", const=1800.0, default=None,
                        metavar="SECONDS", help="run the soak (default 1800 s) instead")
    parser.add_argument("--profile", type=int, choices=(1, 2),
                        help="profile figure 1's or 2's redaction in process, nothing else")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--upstream-server", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.upstream_server:
        upstream_main(args.upstream_server)
        return 0
    if args.profile:
        profile(args.profile, args.runs)
        return 0
    figures = {int(f) for f in args.figures.split(",") if f.strip()}
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count()}
    engine = _engine() if 2 in figures and args.soak is None else None
    with stack() as s:
        print(f"gateway pid {s.gateway.pid}, RSS {rss_mib(s.gateway.pid):.1f} MiB at start")
        results["rss_start_mib"] = rss_mib(s.gateway.pid)
        if args.soak is not None:
            results["soak"] = soak(s, args.soak)
        else:
            if 1 in figures:
                results["1"] = figure_1(s, args.runs)
            if 2 in figures:
                results["2"] = figure_2(s, args.runs, engine)
            if 3 in figures:
                results["3"] = figure_3(s, args.runs)
            if 4 in figures:
                results["4"] = figure_4(s, args.throughput_seconds)
            results["rss_end_mib"] = rss_mib(s.gateway.pid)
            print(f"gateway RSS at the end: {results['rss_end_mib']:.1f} MiB")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

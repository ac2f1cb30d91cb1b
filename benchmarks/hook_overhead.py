"""Hook overhead of a whole ``claude -p`` session: command hooks, HTTP hooks, none.

The real Claude Code CLI runs one scripted session offline against the fake Messages
API of the end-to-end tests (the model calls Bash ``echo ok``, then ends the turn), so
the hooks run on UserPromptSubmit, PreToolUse and PostToolUse.  Each mode is measured
as pairs: the same session with the mode's hooks and with no hooks at all, back to
back, the order alternating from pair to pair; the overhead of a pair is the hooked
run's time minus the bare run's.  Modes:

* ``command``: ``redactor install claude --user`` (command hooks, warm engine).
* ``http``: ``redactor install claude --user --gateway --http-hooks`` (HTTP hooks
  served by a gateway this script starts), including the SessionStart hook that
  install writes (a command hook running ``redactor gateway start``).
* ``http-only``: the same without that SessionStart hook: the HTTP hooks alone.
* ``http-null``: the HTTP hooks of ``http-only`` sent to a server that answers ``{}`` at
  once (a thread of this script): Claude Code's own cost of three HTTP hooks, the
  floor under any server's.
* ``route``: no hooks; the session's model requests go through the gateway (as
  install writes the settings: its private socket) against direct to the fake.

In every hook mode the model requests go straight to the fake (the settings' gateway
routing is taken out), so only the hooks' cost differs within a pair; the HTTP hooks'
``X-Redactor-Base-URL`` header names the gateway, as it would in a real gateway
session.  Each arm runs once unmeasured first (warm engine and gateway warm).

Three measures are printed for each mode: the wall clock of the ``claude``
process, the ``duration_ms`` of its JSON result, and (hooked runs only) the sum of
the hook durations Claude Code writes to its ``--debug-file``; ``route`` adds the
result's ``duration_api_ms`` per model request.  Figures only; nothing is asserted.

    python -m benchmarks.hook_overhead [--pairs 20]
        [--modes command,http,http-only,http-null,route]
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.e2e.engine import stop_engine
from tests.e2e.fake_anthropic import FakeAnthropic, Script, serving

REPO = Path(__file__).resolve().parents[1]
MODES = ("command", "http", "http-only", "http-null", "route")
#: Claude Code's debug line for a finished hook: "Hooks: PreToolUse:Bash [...] ... (12ms)".
_HOOK_LINE = re.compile(r"\] Hooks: (\w+)(?::\w+)? .*?\((\d+)ms\)\s*$", re.MULTILINE)
#: An HTTP hook's two lines (millisecond timestamps): the POST, then the response.
_HTTP_LINE = re.compile(r"^(\S+) \[DEBUG\] Hooks: HTTP hook (?:POST to \S+/hooks/claude/(\w+)"
                        r"|response status)", re.MULTILINE)
_ROUTING = ("ANTHROPIC_BASE_URL", "ANTHROPIC_UNIX_SOCKET", "ANTHROPIC_CUSTOM_HEADERS")


def default_claude() -> Path:
    for root in (REPO, Path("/work/main")):
        binary = root / ".cache" / "claude-code-2.1.332" / "node_modules" / ".bin" / "claude"
        if binary.is_file():
            return binary
    return Path("claude")


@dataclass
class Sample:
    wall_ms: float
    duration_ms: float
    api_ms: float
    posts: int
    hooks_ms: dict[str, int] = field(default_factory=dict)


@dataclass
class Arm:
    """One configuration of Claude Code: its config folder and process environment."""

    name: str
    home: Path
    env: dict[str, str]

    @property
    def settings_file(self) -> Path:
        return self.home / ".claude" / "settings.json"

    def settings(self) -> dict[str, Any]:
        if not self.settings_file.exists():
            return {}
        data: dict[str, Any] = json.loads(self.settings_file.read_text(encoding="utf-8"))
        return data

    def save(self, settings: dict[str, Any]) -> None:
        self.settings_file.write_text(json.dumps(settings, indent=2), encoding="utf-8")


class SessionFailed(Exception):
    """A session that did not end as the fake model scripted it."""


class Bench:
    def __init__(self, root: Path, claude: Path, fake: FakeAnthropic) -> None:
        self.root = root
        self.claude = claude
        self.fake = fake
        self.project = root / "project"
        self.project.mkdir()
        # Short: AF_UNIX paths are limited.
        self.runtime = tempfile.mkdtemp(prefix="rdxo", dir="/tmp")
        self.gateway: subprocess.Popen[bytes] | None = None
        self.port = free_port()
        self._count = 0
        self.keep = False
        self._null: http.server.ThreadingHTTPServer | None = None

    def arm(self, name: str) -> Arm:
        home = self.root / name
        (home / ".claude").mkdir(parents=True)
        # Outside the temporary home: that holds .claude, a project marker, which would
        # make a config file under it a project's (tighten-only; gateway.port refused).
        config = self.root / f"{name}-config" / "redactor"
        config.mkdir(parents=True)
        (config / "config.toml").write_text(f"[gateway]\nport = {self.port}\n", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env.update({
            "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "XDG_RUNTIME_DIR": self.runtime, "XDG_STATE_HOME": str(home / "state"),
            "XDG_CONFIG_HOME": str(config.parent),
            "ANTHROPIC_API_KEY": "sk-ant-dummy-offline", "ANTHROPIC_BASE_URL": self.fake.url,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
            "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p),
        })
        return Arm(name, home, env)

    def redactor(self, arm: Arm, *args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "redactor", *args], env=arm.env,
                              capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise SystemExit(f"redactor {' '.join(args)}: {done.stderr.strip()}")
        return done.stderr

    def install(self, arm: Arm, *extra: str) -> None:
        said = self.redactor(arm, "install", "claude", "--user", "--claude-bin",
                             str(self.claude), *extra)
        if "--http-hooks" in extra and "HTTP hooks" not in said:
            raise SystemExit(f"install fell back to command hooks: {said.strip()}")

    def start_gateway(self, arm: Arm) -> None:
        if self.gateway is not None:
            return
        self.gateway = subprocess.Popen(
            [sys.executable, "-m", "redactor", "gateway", "run", "--port", str(self.port),
             "--upstream", self.fake.url], env=arm.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert self.gateway.stderr is not None
        said = []
        for raw in self.gateway.stderr:
            said.append(raw.decode("utf-8", "replace").strip())
            if "listening" in said[-1]:
                return
        raise SystemExit(f"the gateway did not start: {' / '.join(said)[-500:]}")

    def start_engine(self, arm: Arm) -> None:
        subprocess.run([sys.executable, "-c", "from redactor.serve.control import "
                        "spawn_detached; spawn_detached()"], env=arm.env, check=True, timeout=60)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status = subprocess.run([sys.executable, "-m", "redactor", "serve", "--status"],
                                    env=arm.env, capture_output=True, timeout=60, check=False)
            if status.returncode == 0:
                return
            time.sleep(0.5)
        raise SystemExit("the warm engine did not start")

    def warm(self, arm: Arm, tries: int = 4) -> None:
        """Unmeasured runs until one ends as scripted (the warm engine's workers build
        their engines on their first calls, which can overrun the hook budget)."""
        for attempt in range(tries):
            try:
                self.run(arm)
                return
            except SessionFailed:
                if attempt == tries - 1:
                    raise

    def run(self, arm: Arm) -> Sample:
        self._count += 1
        debug = self.root / f"debug-{self._count}.log"
        before = len(self.fake.messages_posts)
        started = time.perf_counter()
        done = subprocess.run(
            [str(self.claude), "-p", "run echo ok", "--output-format", "json",
             "--allowedTools", "Bash", "--max-turns", "4", "--debug-file", str(debug)],
            cwd=self.project, env=arm.env, capture_output=True, text=True, timeout=180,
            stdin=subprocess.DEVNULL, check=False)
        wall = (time.perf_counter() - started) * 1000
        try:
            result = json.loads(done.stdout)
        except ValueError:
            raise SystemExit(f"{arm.name}: no JSON result: {done.stderr[-500:]}") from None
        if result.get("is_error") or result.get("result") != "FAKE-MODEL-DONE":
            raise SessionFailed(f"{arm.name}: the session did not end as scripted: "
                             f"{str(result.get('result'))[:300]}")
        hooks: dict[str, int] = {}
        text = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
        for event, ms in _HOOK_LINE.findall(text):
            hooks[event] = hooks.get(event, 0) + int(ms)
        posted: list[tuple[str, datetime]] = []
        for stamp, event in _HTTP_LINE.findall(text):
            at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            if event:
                posted.append((event, at))
            elif posted:
                name, sent = posted.pop(0)
                ms = round((at - sent).total_seconds() * 1000)
                hooks[name] = hooks.get(name, 0) + ms
        if not self.keep:
            debug.unlink(missing_ok=True)
        return Sample(wall, float(result.get("duration_ms", 0)),
                      float(result.get("duration_api_ms", 0)),
                      len(self.fake.messages_posts) - before, hooks)

    def gateway_status(self, arm: Arm) -> dict[str, Any]:
        import urllib.request

        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/redactor/v1/status",
            headers={"X-Redactor-Token": arm.env.get("REDACTOR_GATEWAY_TOKEN", "")})
        with urllib.request.urlopen(request, timeout=10) as response:
            status: dict[str, Any] = json.loads(response.read())
            return status

    def null_server(self) -> str:
        """A server answering ``{}`` to every POST, in a thread; its base URL."""
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NullHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._null = server
        return f"http://127.0.0.1:{server.server_address[1]}"

    def close(self) -> None:
        if self._null is not None:
            self._null.shutdown()
            self._null.server_close()
        if self.gateway is not None:
            self.gateway.send_signal(signal.SIGTERM)
            try:
                self.gateway.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.gateway.kill()
                self.gateway.wait()
        stop_engine({**os.environ, "XDG_RUNTIME_DIR": self.runtime})
        shutil.rmtree(self.runtime, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def direct(arm: Arm, gateway_url: str | None = None) -> None:
    """Take the gateway routing out of the arm's settings (requests go to the fake);
    ``gateway_url``: the HTTP hooks' base-URL header names it."""
    settings = arm.settings()
    env = settings.get("env", {})
    for name in _ROUTING:
        env.pop(name, None)
    if gateway_url is not None:
        for groups in settings.get("hooks", {}).values():
            for group in groups:
                for hook in group.get("hooks", []):
                    if hook.get("type") == "http":
                        hook["headers"]["X-Redactor-Base-URL"] = gateway_url
    arm.save(settings)


def to_null_server(arm: Arm, url: str) -> None:
    """Point the arm's HTTP hooks at ``url`` (same paths)."""
    settings = arm.settings()
    for groups in settings.get("hooks", {}).values():
        for group in groups:
            for hook in group.get("hooks", []):
                if hook.get("type") == "http":
                    hook["url"] = url + hook["url"][hook["url"].index("/hooks/"):]
    arm.save(settings)


class _NullHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def without_session_start(arm: Arm) -> None:
    settings = arm.settings()
    settings.get("hooks", {}).pop("SessionStart", None)
    arm.save(settings)


def setup(bench: Bench, mode: str) -> tuple[Arm, Arm]:
    """The hooked (or routed) arm and the bare arm of a mode."""
    hooked, bare = bench.arm(f"{mode}-hooks"), bench.arm(f"{mode}-bare")
    gateway_url = f"http://127.0.0.1:{bench.port}"
    if mode == "command":
        bench.install(hooked)
    elif mode in ("http", "http-only", "http-null"):
        bench.install(hooked, "--gateway", "--http-hooks")
        bench.start_gateway(hooked)
        direct(hooked, gateway_url)
        if mode in ("http-only", "http-null"):
            without_session_start(hooked)
        if mode == "http-null":
            to_null_server(hooked, bench.null_server())
        hooked.env["REDACTOR_GATEWAY_TOKEN"] = hooked.settings()["env"]["REDACTOR_GATEWAY_TOKEN"]
    elif mode == "route":
        bench.install(hooked, "--gateway")
        bench.start_gateway(hooked)
        settings = hooked.settings()
        settings.pop("hooks", None)  # routing only
        hooked.save(settings)
        hooked.env.update({name: settings["env"][name] for name in _ROUTING
                           if name in settings["env"]})
    bench.start_engine(hooked)
    return hooked, bare


@dataclass
class Spread:
    values: list[float]

    def __str__(self) -> str:
        ordered = sorted(self.values)
        n = len(ordered)
        if n == 0:
            return "n=0"

        def at(q: float) -> float:
            return ordered[min(n - 1, max(0, round(q * (n - 1))))]

        return (f"median {statistics.median(ordered):7.1f} ms  p10 {at(0.1):7.1f}  "
                f"p90 {at(0.9):7.1f}  min {ordered[0]:7.1f}  max {ordered[-1]:7.1f}  n={n}")


def measure(bench: Bench, mode: str, pairs: int) -> list[tuple[Sample, Sample]]:
    hooked, bare = setup(bench, mode)
    bench.warm(hooked)  # unmeasured: warms the engine, the gateway, the page cache
    bench.warm(bare)
    out: list[tuple[Sample, Sample]] = []
    for index in range(pairs):
        if index % 2 == 0:
            h = bench.run(hooked)
            b = bench.run(bare)
        else:
            b = bench.run(bare)
            h = bench.run(hooked)
        out.append((h, b))
    if mode in ("http", "http-only"):
        status = bench.gateway_status(hooked)
        print(f"  gateway, {mode}: {status.get('hooks_here')} hooks answered in its process, "
              f"{status.get('hooks_warm')} by the warm engine")
    return out


def report(mode: str, pairs: list[tuple[Sample, Sample]]) -> None:
    print(f"\n== {mode} ({len(pairs)} pairs)")
    print(f"  overhead, wall clock      {Spread([h.wall_ms - b.wall_ms for h, b in pairs])}")
    durations = Spread([h.duration_ms - b.duration_ms for h, b in pairs])
    print(f"  overhead, duration_ms     {durations}")
    print(f"  bare run, wall clock      {Spread([b.wall_ms for _, b in pairs])}")
    print(f"  bare run, duration_ms     {Spread([b.duration_ms for _, b in pairs])}")
    events = sorted({event for h, _ in pairs for event in h.hooks_ms})
    if events:
        print(f"  hooks, debug log, total   {Spread([sum(h.hooks_ms.values()) for h, _ in pairs])}")
        for event in events:
            print(f"    {event:<22}  {Spread([h.hooks_ms.get(event, 0) for h, _ in pairs])}")
    if mode == "route":
        per = [(h.api_ms / max(h.posts, 1)) - (b.api_ms / max(b.posts, 1)) for h, b in pairs]
        print(f"  model requests per run    {statistics.median([h.posts for h, _ in pairs])}")
        print(f"  per request, api time     {Spread(per)}")
        per_wall = [(h.wall_ms - b.wall_ms) / max(h.posts, 1) for h, b in pairs]
        print(f"  per request, wall clock   {Spread(per_wall)}")


@contextlib.contextmanager
def bench_in(root: Path, claude: Path) -> Iterator[Bench]:
    script = Script("Bash", {"command": "echo ok", "description": "Say ok", "timeout": 60000})
    with serving(script) as fake:
        bench = Bench(root, claude, fake)
        try:
            yield bench
        finally:
            bench.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--claude-bin", type=Path, default=default_claude())
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary folders and Claude Code's debug logs")
    parser.add_argument("--raw", type=Path, default=None,
                        help="also write every sample as JSON lines here")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes: {', '.join(sorted(unknown))}")
    version = subprocess.run([str(args.claude_bin), "--version"], capture_output=True,
                             text=True, check=False).stdout.strip()
    print(f"claude: {args.claude_bin} ({version}); {os.cpu_count()} CPUs; "
          f"load {os.getloadavg()[0]:.2f}")
    for mode in modes:
        root = Path(tempfile.mkdtemp(prefix=f"hook-overhead-{mode}-"))
        try:
            with bench_in(root, args.claude_bin) as bench:
                bench.keep = args.keep
                pairs = measure(bench, mode, args.pairs)
            report(mode, pairs)
            if args.raw is not None:
                with args.raw.open("a", encoding="utf-8") as out:
                    for h, b in pairs:
                        out.write(json.dumps({"mode": mode, "hooked": h.__dict__,
                                              "bare": b.__dict__}) + "\n")
        finally:
            if args.keep:
                print(f"  kept {root}")
            else:
                shutil.rmtree(root, ignore_errors=True)
        print(f"  (load {os.getloadavg()[0]:.2f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

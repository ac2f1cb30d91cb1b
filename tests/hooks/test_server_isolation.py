"""One caller cannot hold up another: the warm server's engine workers and time budgets.

A real ``redactor serve`` runs in a private runtime folder.  The stalls come from the
failure drill ``REDACTOR_TEST_DELAY`` (the worker sleeps outside the hook's own timer,
like a computation the timer cannot interrupt, so only the dispatcher can end it) and
from a catastrophic project rule.  Each "project" is a working folder; the slow
callers bring their own user configuration (``XDG_CONFIG_HOME``) with a small
``[hooks] time_budget_seconds``.  Timings are liveness limits only.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import redactor.serve.protocol as client_module

CLIENT = str(Path(client_module.__file__).resolve().with_name("entry.py"))
CPF = "529.982.247-25"
OTHER_CPFS = ("111.444.777-35", "390.533.447-05", "275.484.389-23")
LIVENESS = 60.0


@dataclass
class Rig:
    runtime: Path
    home: Path
    vars: dict[str, str]
    server: subprocess.Popen[bytes] | None = None
    budgets: dict[float, Path] = field(default_factory=dict)

    @property
    def socket(self) -> str:
        return str(self.runtime / "redactor" / f"engine-{client_module.install_id()}.sock")

    def project(self, name: str, config: str | None = None) -> Path:
        folder = self.home / name
        folder.mkdir(exist_ok=True)
        if config is not None:
            (folder / ".redactor.toml").write_text(config, encoding="utf-8")
        return folder

    def budget(self, seconds: float) -> dict[str, str]:
        """The environment of a caller whose user configuration sets this budget."""
        if seconds not in self.budgets:
            folder = self.home / f"config-{seconds:g}"
            (folder / "redactor").mkdir(parents=True)
            (folder / "redactor" / "config.toml").write_text(
                f"[hooks]\ntime_budget_seconds = {seconds}\n", encoding="utf-8")
            self.budgets[seconds] = folder
        return {"XDG_CONFIG_HOME": str(self.budgets[seconds])}

    def hook(self, event: dict[str, Any], cwd: Path, extra: dict[str, str] | None = None,
             host: str = "claude") -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-I", "-S", CLIENT, host],
                              input=json.dumps(event).encode(), capture_output=True,
                              env={**self.vars, **(extra or {})}, cwd=cwd,
                              timeout=LIVENESS, check=False)

    def status(self) -> dict[str, Any] | None:
        request = client_module.build_request(b"", control=b"status")
        try:
            answer = client_module.exchange(request, path=self.socket, timeout=10)
            _, out, _ = client_module.parse_answer(answer)
        except (client_module.Unreachable, client_module.Broken):
            return None
        status: dict[str, Any] = json.loads(out)
        return status

    def wait_for(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + LIVENESS
        while time.monotonic() < deadline:
            status = self.status()
            if status is not None and check(status):
                return status
            time.sleep(0.1)
        raise AssertionError(f"the server never reached the expected state: {self.status()}")

    def start(self, *args: str, ready: bool = True) -> dict[str, Any]:
        self.server = subprocess.Popen([sys.executable, "-m", "redactor", "serve", *args],
                                       env=self.vars, cwd=self.home,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if ready:
            return self.wait_for(lambda s: s["ready"] == len(s["workers"]) == 2)
        return self.wait_for(lambda s: True)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    # AF_UNIX paths are limited to about 100 bytes: keep the runtime folder short.
    runtime = Path(tempfile.mkdtemp(prefix="rdi", dir="/tmp"))
    os.chmod(runtime, 0o700)
    variables = {**os.environ, "XDG_RUNTIME_DIR": str(runtime),
                 "XDG_STATE_HOME": str(tmp_path / "state"),
                 "XDG_CONFIG_HOME": str(tmp_path / "no-config")}
    for name in ("REDACTOR_TEST_FAULT", "REDACTOR_TEST_DELAY", "REDACTOR_HOOK_TIMEOUT",
                 "REDACTOR_CONFIG"):
        variables.pop(name, None)
    setup = Rig(runtime, tmp_path, variables)
    try:
        yield setup
    finally:
        # Whatever server answers here now: ours, or one a client started after a
        # restart (an edit of the code during the test).
        status = setup.status() or {}
        pids = [status.get("pid")] + [w["pid"] for w in status.get("workers", [])]
        if setup.server is not None:
            setup.server.kill()  # its workers end with it (parent-death signal)
            setup.server.wait(timeout=LIVENESS)
        for pid in pids:
            if isinstance(pid, int):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        shutil.rmtree(runtime, ignore_errors=True)


def pre(command: str, cwd: Path) -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(cwd),
            "tool_input": {"command": command}}


def redacted_command(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 0, done.stderr
    command: str = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    return command


def in_background(call: Callable[[], subprocess.CompletedProcess[bytes]]
                  ) -> tuple[threading.Thread, dict[str, subprocess.CompletedProcess[bytes]]]:
    result: dict[str, subprocess.CompletedProcess[bytes]] = {}
    thread = threading.Thread(target=lambda: result.setdefault("done", call()))
    thread.start()
    return thread, result


def running(pid: int) -> bool:
    """False once a process is gone or a zombie (whoever reaps it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stream:
            return stream.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def busy(status: dict[str, Any]) -> bool:
    return any(worker["state"] == "busy" for worker in status["workers"])


def test_a_stalled_call_fails_closed_alone_and_its_worker_is_replaced(rig: Rig) -> None:
    first = rig.start()
    slow_project, other_project = rig.project("a"), rig.project("b")
    # Budget 8 s: the stall lasts that long (plus a grace), time enough to show that
    # another project's calls are answered meanwhile.
    slow, result = in_background(lambda: rig.hook(
        pre(f"echo {CPF}", slow_project), slow_project,
        {**rig.budget(8), "REDACTOR_TEST_DELAY": "300"}))
    stalled = rig.wait_for(busy)
    stalled_pid = next(w["pid"] for w in stalled["workers"] if w["state"] == "busy")
    for cpf in OTHER_CPFS:
        done = rig.hook(pre(f"grep {cpf} clientes.csv", other_project), other_project)
        assert redacted_command(done) == "grep [CPF] clientes.csv"
    assert slow.is_alive()  # all answered during the stall
    slow.join(timeout=LIVENESS)
    done = result["done"]
    assert done.returncode == 2
    assert b"HookTimeout" in done.stderr
    assert CPF.encode() not in done.stdout + done.stderr
    log = (rig.home / "state" / "redactor" / "redactor.log").read_text(encoding="utf-8")
    assert "hook server event=PreToolUse error=HookTimeout" in log and CPF not in log

    after = rig.wait_for(lambda s: s["replaced"] >= 1 and s["ready"] == 2
                         and stalled_pid not in {w["pid"] for w in s["workers"]})
    assert after["pid"] == first["pid"]
    assert not running(stalled_pid)
    done = rig.hook(pre(f"echo {CPF}", slow_project), slow_project)
    assert redacted_command(done) == "echo [CPF]"


def test_a_small_budget_withholds_a_stalled_output_and_blocks_hermes(rig: Rig) -> None:
    rig.start()
    project = rig.project("a")
    drill = {**rig.budget(1), "REDACTOR_TEST_DELAY": "300"}
    post: dict[str, Any] = {
        "hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": str(project),
        "tool_input": {"command": "cat clientes.csv"},
        "tool_response": {"stdout": f"cliente {CPF}", "stderr": "", "interrupted": False}}
    done = rig.hook(post, project, drill)
    assert done.returncode == 0, done.stderr
    assert CPF.encode() not in done.stdout + done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PostToolUse"
    assert output["updatedToolOutput"]["stdout"] != post["tool_response"]["stdout"]

    tool_call = {"hook_event_name": "pre_tool_call", "tool_name": "terminal", "cwd": str(project),
                 "tool_input": {"command": f"echo {CPF}"}}
    done = rig.hook(tool_call, project, drill, host="hermes")
    assert json.loads(done.stdout)["action"] == "block"
    assert CPF.encode() not in done.stdout + done.stderr

    # Two workers were killed; the server replaced them and answers as before.
    rig.wait_for(lambda s: s["replaced"] >= 2 and s["ready"] == 2)
    assert redacted_command(rig.hook(pre(f"echo {CPF}", project), project)) == "echo [CPF]"


def test_a_catastrophic_project_rule_only_blocks_its_own_project(rig: Rig) -> None:
    rig.start()
    hostile = rig.project("hostile", '[[rules]]\nname = "lento"\npattern = "(a+)+$"\n'
                                     'reason = "regra do projeto"\n')
    other = rig.project("other")
    # Backtracks for far longer than any budget, on re and on the regex module alike.
    command = f"echo {CPF} " + "a" * 30 + "!" + "a" * 3000 + "!"
    slow, result = in_background(lambda: rig.hook(pre(command, hostile), hostile, rig.budget(1)))
    for cpf in OTHER_CPFS:
        done = rig.hook(pre(f"grep {cpf} clientes.csv", other), other)
        assert redacted_command(done) == "grep [CPF] clientes.csv"
    slow.join(timeout=LIVENESS)
    done = result["done"]
    # Cut off by the hook's budget (fail closed), or by the rule engine's own limit
    # (which counts as a match): either way the call does not go through.
    assert CPF.encode() not in done.stdout + done.stderr
    if done.returncode != 0:
        assert done.returncode == 2 and b"HookTimeout" in done.stderr
    else:
        decision = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]
        assert decision == "deny"
    done = rig.hook(pre(f"echo {CPF}", other), other)
    assert redacted_command(done) == "echo [CPF]"


def test_the_first_call_waits_for_a_warming_worker(rig: Rig) -> None:
    rig.start(ready=False)
    project = rig.project("a")
    assert redacted_command(rig.hook(pre(f"echo {CPF}", project), project)) == "echo [CPF]"
    status = rig.status()
    assert status is not None and status["replaced"] == 0


def test_status_reports_the_workers(rig: Rig) -> None:
    status = rig.start()
    project = rig.project("a")
    for _ in range(3):
        rig.hook(pre(f"echo {CPF}", project), project)
    status = rig.wait_for(lambda s: sum(w["requests"] for w in s["workers"]) == 3)
    assert status["dispatcher_rss"] > 0
    assert status["rss"] == status["dispatcher_rss"] + sum(w["rss"] for w in status["workers"])
    for worker in status["workers"]:
        assert worker["pid"] != status["pid"] and worker["rss"] > 0
        assert worker["state"] == "idle"
    done = subprocess.run([sys.executable, "-m", "redactor", "serve", "--status"],
                          env=rig.vars, capture_output=True, timeout=LIVENESS, check=True)
    assert {w["pid"] for w in json.loads(done.stdout)["workers"]} == {
        w["pid"] for w in status["workers"]}


def test_stopping_the_server_ends_its_workers(rig: Rig) -> None:
    status = rig.start()
    assert rig.server is not None
    subprocess.run([sys.executable, "-m", "redactor", "serve", "--stop"], env=rig.vars,
                   capture_output=True, timeout=LIVENESS, check=True)
    assert rig.server.wait(timeout=LIVENESS) == 0
    assert not any(running(worker["pid"]) for worker in status["workers"])


def test_workers_die_with_a_killed_server(rig: Rig) -> None:
    status = rig.start()
    assert rig.server is not None
    rig.server.kill()
    rig.server.wait(timeout=LIVENESS)
    deadline = time.monotonic() + LIVENESS
    alive = {w["pid"] for w in status["workers"]}
    while alive and time.monotonic() < deadline:
        alive = {pid for pid in alive if running(pid)}
        time.sleep(0.1)
    assert not alive


def test_the_dispatcher_imports_no_engine(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from redactor.serve import server\n"
        "from redactor.hosts.core import HookTimeout\n"
        "assert server.parse_settings_frame(b'SETTINGS 1.5 en') == (1.5, 'en')\n"
        "payload = b'{\"hook_event_name\": \"PreToolUse\", \"tool_input\": {}}'\n"
        "answer = server.fail_closed_answer('claude', payload, HookTimeout(), {})\n"
        "assert answer.startswith(b'RDX1 2 '), answer\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in\n"
        "         ('presidio_analyzer', 'presidio_anonymizer', 'spacy', 'redactor.api')\n"
        "         or m in ('redactor.api', 'redactor.engine')]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, timeout=LIVENESS,
                   env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})


def test_a_stalled_output_of_many_rows_gets_a_bounded_answer(rig: Rig) -> None:
    """Issue 29, item 6: the dispatcher's safe answer does not walk every row again."""
    rig.start()
    project = rig.project("a")
    drill = {**rig.budget(1), "REDACTOR_TEST_DELAY": "300"}
    table = [{"id": i, "cpf": CPF, "ativo": True} for i in range(60_000)]
    event: dict[str, Any] = {"hook_event_name": "PostToolUse", "session_id": "s-rows",
                             "tool_name": "mcp__db__query", "cwd": str(project),
                             "tool_input": {"sql": "select"}, "tool_response": {"rows": table}}
    done = rig.hook(event, project, drill)
    assert done.returncode == 0, done.stderr
    assert CPF.encode() not in done.stdout + done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]["updatedToolOutput"]
    assert list(output) == ["rows"] and len(output["rows"]) == 1
    assert output["rows"][0]["cpf"] != CPF and output["rows"][0]["ativo"] is True

    # Past the size the fallbacks parse again: the answer that needs no payload.
    event["tool_response"] = {"rows": table * 3}
    done = rig.hook(event, project, drill)
    assert done.returncode == 2
    assert json.loads(done.stdout)["continue"] is False
    assert CPF.encode() not in done.stdout + done.stderr

"""The warm engine server and the import-light hook client, as separate processes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import redactor.serve.protocol as client_module
from benchmarks import synthetic as syn

CLIENT = str(Path(client_module.__file__).resolve().with_name("entry.py"))
CPF = "529.982.247-25"


@dataclass
class Env:
    runtime: Path
    vars: dict[str, str]
    work: Path

    @property
    def socket(self) -> Path:
        return self.runtime / "redactor" / f"engine-{client_module.install_id()}.sock"

    def hook(self, event: dict[str, Any], extra: dict[str, str] | None = None,
             timeout: float = 120, cwd: Path | None = None,
             flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-I", "-S", *flags, CLIENT, "claude"],
                              input=json.dumps(event).encode(), capture_output=True,
                              env={**self.vars, **(extra or {})}, cwd=cwd or self.work,
                              timeout=timeout, check=False)

    def start_server(self, *args: str, ready: bool = True) -> subprocess.Popen[bytes]:
        """Start a server; with ``ready``, wait until its engine workers are warm (a call
        that comes earlier waits for them within its own time budget)."""
        process = subprocess.Popen([sys.executable, "-m", "redactor", "serve", *args],
                                   env=self.vars, cwd=self.work, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        assert self.wait_up(ready=ready), process.stderr.read() if process.stderr else b""
        return process

    def status(self) -> dict[str, Any] | None:
        done = subprocess.run([sys.executable, "-m", "redactor", "serve", "--status"],
                              env=self.vars, capture_output=True, timeout=60, check=False)
        return json.loads(done.stdout) if done.returncode == 0 else None

    def wait_up(self, seconds: float = 60, ready: bool = False) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            status = self.status() if self.socket.exists() else None
            if status is not None and (not ready or status["ready"] == len(status["workers"])
                                       == 2):
                return True
            time.sleep(0.2)
        return False

    def stop(self) -> None:
        subprocess.run([sys.executable, "-m", "redactor", "serve", "--stop"], env=self.vars,
                       capture_output=True, timeout=60, check=False)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    # AF_UNIX paths are limited to about 100 bytes: keep the runtime folder short.
    runtime = Path(tempfile.mkdtemp(prefix="rdx", dir="/tmp"))
    os.chmod(runtime, 0o700)
    work = tmp_path / "work"
    work.mkdir()
    variables = {**os.environ, "XDG_RUNTIME_DIR": str(runtime),
                 "XDG_STATE_HOME": str(tmp_path / "state")}
    variables.pop("REDACTOR_TEST_FAULT", None)
    environment = Env(runtime, variables, work)
    try:
        yield environment
    finally:
        environment.stop()
        # Any server still running in this runtime folder is ended by its pid.
        if environment.socket.exists():
            status = environment.status()
            if status:
                os.kill(status["pid"], signal.SIGKILL)
        shutil.rmtree(runtime, ignore_errors=True)


def pre(command: str, cwd: Path, **extra: Any) -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(cwd),
            "tool_input": {"command": command, **extra}}


def updated(done: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]
    return result


def test_the_hook_entry_imports_almost_nothing(env: Env) -> None:
    server = env.start_server()
    done = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", CLIENT, "claude"],
                          input=json.dumps(pre(f"echo {CPF}", env.work)).encode(),
                          capture_output=True, env=env.vars, timeout=60, check=False)
    assert updated(done) == {"command": "echo [CPF]"}
    imported = {line.split("|")[-1].strip().split(".")[0]
                for line in done.stderr.decode().splitlines() if line.startswith("import time:")}
    imported.discard("imported package")
    for heavy in ("presidio_analyzer", "presidio_anonymizer", "spacy", "numpy", "re", "json",
                  "argparse", "click", "site", "socket", "subprocess", "typing", "tomllib"):
        assert heavy not in imported, heavy
    assert "_socket" in imported
    ours = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
            if "redactor" in line}
    assert ours == {"redactor", "redactor.serve", "redactor.serve.client",
                    "redactor.serve.protocol", "redactor.serve.timeouts", "redactor.hosts",
                    "redactor.hosts.catalogue"}
    assert server.poll() is None  # the answer came from the running server


def test_cold_call_answers_in_process_and_starts_a_server(env: Env) -> None:
    assert env.status() is None
    done = env.hook(pre(f"echo {CPF}", env.work))
    assert updated(done) == {"command": "echo [CPF]"}
    assert env.wait_up()
    status = env.status()
    assert status is not None and status["version"]
    warm = env.hook(pre(f"echo {CPF}", env.work))
    assert updated(warm) == {"command": "echo [CPF]"}
    assert (env.status() or {}).get("requests", 0) >= 1


def test_socket_and_folder_are_private(env: Env) -> None:
    env.start_server()
    assert (env.socket.stat().st_mode & 0o777) == 0o600
    assert (env.socket.parent.stat().st_mode & 0o777) == 0o700


def test_fifty_concurrent_clients_get_their_own_answers(env: Env) -> None:
    import random

    env.start_server()
    rng = random.Random(4)
    cases = [(i, syn.cpf_forms(syn.random_cpf(rng))["masked"]) for i in range(50)]

    def call(case: tuple[int, str]) -> tuple[int, dict[str, Any]]:
        index, cpf = case
        done = env.hook(pre(f"grep {cpf} clientes.csv # {index}", env.work,
                            description=f"chamada {index}"))
        return index, updated(done)

    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = dict(pool.map(call, cases))
    for index, _ in cases:
        assert answers[index] == {"command": f"grep [CPF] clientes.csv # {index}",
                                  "description": f"chamada {index}"}


def test_a_config_edit_is_picked_up_on_the_next_call(env: Env) -> None:
    env.start_server()
    config = env.work / ".redactor.toml"
    config.write_text('[operators.BR_CPF]\nplaceholder = "[DOC_A]"\n', encoding="utf-8")
    assert updated(env.hook(pre(f"echo {CPF}", env.work)))["command"] == "echo [DOC_A]"
    config.write_text('[operators.BR_CPF]\nplaceholder = "[DOC_B]"\n', encoding="utf-8")
    assert updated(env.hook(pre(f"echo {CPF}", env.work)))["command"] == "echo [DOC_B]"
    config.write_text("[detection\n", encoding="utf-8")
    broken = env.hook(pre(f"echo {CPF}", env.work))
    assert broken.returncode == 2 and CPF.encode() not in broken.stdout + broken.stderr


def test_the_client_environment_is_honoured(env: Env, tmp_path: Path) -> None:
    env.start_server()
    other = tmp_path / "other.toml"
    other.write_text('[operators.BR_CPF]\nplaceholder = "[VIA_ENV]"\n', encoding="utf-8")
    done = env.hook(pre(f"echo {CPF}", env.work), {"REDACTOR_CONFIG": str(other)})
    assert updated(done)["command"] == "echo [VIA_ENV]"
    faulty = env.hook(pre(f"echo {CPF}", env.work), {"REDACTOR_TEST_FAULT": "PreToolUse"})
    assert faulty.returncode == 2 and b"InjectedFault" in faulty.stderr
    # Without the test run's switch file (redactor.drills), a drill is a project's
    # variable like any other: ignored.
    for drill in ({"REDACTOR_TEST_FAULT": "PreToolUse"}, {"REDACTOR_TEST_DELAY": "300"}):
        done = env.hook(pre(f"echo {CPF}", env.work), {**drill, "REDACTOR_TEST_SWITCHES": ""})
        assert updated(done)["command"] == "echo [CPF]"


def test_a_relative_redactor_config_is_read_from_the_callers_folder(env: Env,
                                                                    tmp_path: Path) -> None:
    # The server started in env.work; a caller elsewhere names its own file.
    (env.work / "strict.toml").write_text('[operators.BR_CPF]\nplaceholder = "[SERVER]"\n')
    caller = tmp_path / "caller"
    caller.mkdir()
    (caller / "strict.toml").write_text('[operators.BR_CPF]\nplaceholder = "[CALLER]"\n')
    env.start_server()
    done = env.hook(pre(f"echo {CPF}", caller), {"REDACTOR_CONFIG": "strict.toml"},
                    cwd=caller, flags=("-X", "importtime"))
    assert b"redactor.config" not in done.stderr  # answered by the server, not in process
    assert json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"] \
        == "echo [CALLER]"


def test_a_request_that_names_no_callers_folder_fails_closed(tmp_path: Path) -> None:
    # Such a request would be answered for the server's own folder: refused instead.
    from redactor.serve import worker

    event = json.dumps(pre(f"echo {CPF}", tmp_path)).encode()
    for head in (b"RDX1\nstamp 0\nhost claude\n\n", b"RDX1\nstamp 0\nhost claude\ncwd x\n\n"):
        code, out, err = client_module.parse_answer(worker.answer(head + event))
        assert code == 2 and CPF.encode() not in out + err


def test_a_server_killed_mid_request_fails_closed(env: Env) -> None:
    # Killed after the retry window: no time is left to answer in process.
    server = env.start_server()
    result: dict[str, subprocess.CompletedProcess[bytes]] = {}
    thread = threading.Thread(target=lambda: result.setdefault("done", env.hook(
        pre(f"echo {CPF}", env.work), {"REDACTOR_TEST_DELAY": "20"})))
    thread.start()
    time.sleep(client_module.RETRY_WINDOW + 1)
    server.kill()
    thread.join(timeout=120)
    done = result["done"]
    assert done.returncode == 2
    assert done.stdout == b"" and CPF.encode() not in done.stderr
    assert b"bloqueada" in done.stderr
    log = (Path(env.vars["XDG_STATE_HOME"]) / "redactor" / "redactor.log").read_text()
    assert "hook client" in log and "Broken" in log


def test_a_server_dying_early_leaves_the_answer_to_the_client(env: Env) -> None:
    server = env.start_server()
    result: dict[str, subprocess.CompletedProcess[bytes]] = {}
    thread = threading.Thread(target=lambda: result.setdefault("done", env.hook(
        pre(f"echo {CPF}", env.work), {"REDACTOR_TEST_DELAY": "4"})))
    thread.start()
    time.sleep(1.0)
    server.kill()
    thread.join(timeout=120)
    assert updated(result["done"]) == {"command": "echo [CPF]"}  # answered in process


def test_a_hung_server_fails_closed_in_time(env: Env) -> None:
    # The server sleeps far longer than the client's answer timeout; the hook call must
    # come back on its own (the 60 s subprocess limit would raise otherwise) and block.
    env.start_server()
    prompt = {"hook_event_name": "UserPromptSubmit", "cwd": str(env.work), "prompt": "oi"}
    done = env.hook(prompt, {"REDACTOR_TEST_DELAY": "300", "REDACTOR_HOOK_TIMEOUT": "1"},
                    timeout=60)
    assert json.loads(done.stdout)["decision"] == "block"


def test_a_stale_socket_is_replaced(env: Env) -> None:
    directory = env.runtime / "redactor"
    directory.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(env.socket))
    stale.close()  # the file stays, nothing listens
    assert env.socket.exists()
    done = env.hook(pre(f"echo {CPF}", env.work))
    assert updated(done) == {"command": "echo [CPF]"}
    assert env.wait_up()


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_a_socket_owned_by_another_user_is_refused(env: Env) -> None:
    directory = env.runtime / "redactor"
    directory.mkdir(mode=0o700)
    foreign = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    foreign.bind(str(env.socket))
    foreign.listen()
    os.chown(env.socket, 65534, 65534)
    try:
        foreign.settimeout(0.5)
        done = env.hook(pre(f"echo {CPF}", env.work))
        assert updated(done) == {"command": "echo [CPF]"}  # answered in process
        with pytest.raises(TimeoutError):
            foreign.accept()  # the client never connected to it
        time.sleep(2)
        assert env.socket.stat().st_uid == 65534  # and no server replaced it
        assert env.status() is None
    finally:
        foreign.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a folder's owner needs root")
def test_a_runtime_folder_owned_by_another_user_is_refused(env: Env) -> None:
    directory = env.runtime / "redactor"
    directory.mkdir(mode=0o700)
    os.chown(directory, 65534, 65534)
    done = env.hook(pre(f"echo {CPF}", env.work))
    assert updated(done) == {"command": "echo [CPF]"}
    serve = subprocess.run([sys.executable, "-m", "redactor", "serve"], env=env.vars,
                           capture_output=True, timeout=60, check=False)
    assert serve.returncode != 0 and b"owned by another user" in serve.stderr


def test_another_code_version_restarts_the_server(env: Env) -> None:
    server = env.start_server()
    request = client_module.build_request(json.dumps(pre("echo x", env.work)).encode(),
                                          stamp=12345)
    path = str(env.socket)
    answer = client_module.exchange(request, path=path)
    assert answer == b"RDX1 RESTART\n"
    assert server.wait(timeout=30) == 0
    done = env.hook(pre(f"echo {CPF}", env.work))
    assert updated(done) == {"command": "echo [CPF]"}
    assert env.wait_up()
    assert (env.status() or {}).get("pid") != server.pid


def test_idle_and_request_limits_end_the_server(env: Env) -> None:
    # Not waiting for the workers: status requests would count against both limits.
    idle = env.start_server("--idle", "1", ready=False)
    assert idle.wait(timeout=30) == 0
    limited = env.start_server("--max-requests", "3", ready=False)
    for _ in range(3):
        env.hook(pre("echo x", env.work))
    assert limited.wait(timeout=30) == 0


def test_doctor_reports_a_live_guard(env: Env) -> None:
    subprocess.run([sys.executable, "-m", "redactor", "install", "claude", "--project",
                    str(env.work)], env=env.vars, check=True, capture_output=True)
    env.start_server()
    done = subprocess.run([sys.executable, "-m", "redactor", "doctor"], env=env.vars,
                          cwd=env.work, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout
    assert "[ok] self-test: canary CPF redacted" in done.stdout
    assert "[ok] warm engine: pid" in done.stdout
    from redactor.candidates import available_backend

    expected = {"hyperscan": "hyperscan", "re2": "google-re2"}.get(available_backend(),
                                                                  "Python re")
    assert f"[ok] prefilter: {expected}" in done.stdout
    assert CPF not in done.stdout


def test_the_warmed_engine_is_the_one_the_hooks_use(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker warms the engine of the hooks' settings (the own account kept), so the
    # first hook call builds nothing within its time budget.
    from redactor import api
    from redactor.hosts import claude
    from redactor.serve import worker

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home" / "tcarvalho"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    api._cache.clear()
    from recognizers import lexicon

    lexicon._portuguese_adjectives.cache_clear()
    worker.warm()
    built = dict(api._cache)
    assert len(built) == 1
    # The word lists a user-name cue reads are loaded too (most of a second, built).
    assert lexicon._portuguese_adjectives.cache_info().currsize == 1
    event = {**{"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": str(tmp_path)},
             "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "t1",
             "tool_input": {"command": "cat /home/tcarvalho/notas.txt /home/jsilva/x"}}
    outcome = claude.run(json.dumps(event).encode())
    assert outcome.stdout is not None and "jsilva" not in outcome.stdout
    assert "/home/tcarvalho/notas.txt" in outcome.stdout
    assert api._cache == built

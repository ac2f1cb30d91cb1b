"""The host side of issue 30: one host catalogue, the wire format in the protocol module,
control verbs in their own header, failures a maintainer can find (the configured
language in a fail-closed answer, frame locations in the log, loud configuration
errors), and Hermes' settings read once per callback."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from redactor import cli, config, diagnostics, install
from redactor.config import Settings
from redactor.errors import ConfigError, UsageError
from redactor.hosts import catalogue, claude, hermes
from redactor.hosts.hermes import Guard, HermesPlugin
from redactor.serve import client, protocol, server, worker

CPF = "529.982.247-25"


def log_text(state: Path) -> str:
    return (state / "redactor" / "redactor.log").read_text(encoding="utf-8")


@pytest.fixture
def warm_engine() -> None:
    """The shared engine built before the callback, as the plugin's warm-up does: a
    callback's time budget counts the engine it builds."""
    from redactor.api import get_redactor

    get_redactor(Settings())


# ------------------------------------------------------------------ the catalogue


@pytest.mark.parametrize("row", catalogue.CATALOGUE, ids=lambda row: row.name)
def test_each_host_is_its_adapter_its_events_and_its_installer(row: catalogue.Host) -> None:
    adapter = importlib.import_module(row.module).ADAPTER
    assert adapter.name == row.name
    assert adapter.events == frozenset(row.events)
    assert callable(getattr(install, row.installer))


def test_the_command_line_the_client_and_the_installer_read_the_catalogue() -> None:
    parser = cli._parser()
    assert protocol.HOSTS == catalogue.HOSTS
    for name in catalogue.HOSTS:
        assert install.is_our_command(install.default_hook_command(name), name)
        assert parser.parse_args(["install", name]).host == name
        assert parser.parse_args(["hook", name]).host == name
    with pytest.raises(UsageError, match="invalid choice"):
        parser.parse_args(["hook", "nobody"])
    assert catalogue.host("claude").events == install.CLAUDE_EVENTS
    assert catalogue.host("codex").events == install.CODEX_EVENTS
    assert catalogue.host("gemini").events == install.GEMINI_EVENTS
    assert catalogue.events("hermes") == install.HERMES_SHELL_EVENTS
    assert client.main(["nobody"]) == 2
    with pytest.raises(ValueError, match="unknown host"):
        catalogue.host("nobody")


def test_one_snake_case_for_codex_event_names() -> None:
    assert [catalogue.snake_case(e) for e in catalogue.events("codex")] == [
        "pre_tool_use", "post_tool_use", "user_prompt_submit"]


def test_the_catalogue_and_the_timeouts_import_nothing() -> None:
    for module in (catalogue, importlib.import_module("redactor.serve.timeouts")):
        tree = ast.parse(inspect.getsource(module))
        assert not [node for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom)], module.__name__


def test_the_light_client_loads_only_the_catalogue_and_the_timeouts_besides_itself() -> None:
    import subprocess
    import sys

    root = str(Path(protocol.__file__).parents[2])
    code = ("import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules)\n"
            "import redactor.serve.client\n"
            "print(' '.join(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code, root], capture_output=True,
                         text=True, check=True).stdout.split()
    assert set(out) <= {"_socket", "redactor", "redactor.hosts", "redactor.hosts.catalogue",
                        "redactor.serve", "redactor.serve.client", "redactor.serve.protocol",
                        "redactor.serve.timeouts"}, out


# ------------------------------------------------------------------ the wire format


def test_the_worker_does_not_import_the_server() -> None:
    tree = ast.parse(inspect.getsource(worker))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert "redactor.serve.server" not in imported
    assert "redactor.serve.protocol" in imported


def test_a_request_and_an_answer_round_trip_in_the_protocol_module() -> None:
    request = protocol.build_request(b'{"x": 1}', host=b"codex", stamp=7,
                                     environ={b"HOME": b"/home/u", b"PATH": b"/bin"}, cwd="/w")
    fields, env, payload = protocol.parse_request(request)
    assert fields == {"stamp": "7", "host": "codex", "cwd": "/w"}
    assert env == {"HOME": "/home/u"} and payload == b'{"x": 1}'
    answer = protocol.encode_answer(2, b"out", b"err")
    assert protocol.parse_answer(answer) == (2, b"out", b"err")
    assert server.parse_request is protocol.parse_request
    assert server.encode_answer is protocol.encode_answer


def test_control_verbs_travel_in_their_own_header() -> None:
    fields, _, _ = protocol.parse_request(
        protocol.build_request(b"", control=b"status", environ={}, cwd="/"))
    assert fields.get("control") == "status" and "host" not in fields
    folder = tempfile.mkdtemp(prefix="rdx-")
    engine_server = server.EngineServer(folder + "/engine.sock", workers=1)
    try:
        code, out, _ = protocol.parse_answer(engine_server.respond(
            protocol.build_request(b"", control=b"status", environ={}, cwd="/"),
            time.monotonic()))
        assert code == 0 and json.loads(out)["pid"] > 0
        # A verb in the host line is no longer a verb.
        code, _, err = protocol.parse_answer(engine_server.respond(
            protocol.build_request(b"", host=b"status", stamp=engine_server.stamp,
                                   environ={}, cwd="/"), time.monotonic()))
        assert code == 2 and b"unknown host" in err
        code, _, err = protocol.parse_answer(engine_server.respond(
            protocol.build_request(b"", control=b"reboot", environ={}, cwd="/"),
            time.monotonic()))
        assert code == 2 and b"unknown control" in err
    finally:
        engine_server.server_close()
        engine_server.pool.close()


# ------------------------------------------------------------------ failures


def pre_tool_use(cwd: Path) -> bytes:
    return json.dumps({"hook_event_name": "PreToolUse", "session_id": "s-1", "cwd": str(cwd),
                       "tool_name": "Bash", "tool_input": {"command": f"echo {CPF}"}}).encode()


def test_a_forced_failure_answers_in_the_configured_language(tmp_path: Path) -> None:
    import os

    (tmp_path / "xdg" / "redactor").mkdir(parents=True)
    (tmp_path / "xdg" / "redactor" / "config.toml").write_text(
        '[messages]\nlanguage = "en"\n', encoding="utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "REDACTOR_TEST_FAULT": "PreToolUse"}
    outcome = claude.ADAPTER.run(pre_tool_use(tmp_path), env=env, default_cwd=str(tmp_path))
    assert outcome.exit_code == 2
    assert (outcome.stderr or "").startswith("redactor: call blocked for safety")
    assert "InjectedFault" in (outcome.stderr or "") and CPF not in (outcome.stderr or "")


def test_the_log_names_the_frames_and_never_the_message(tmp_path: Path) -> None:
    def parse_customer(value: str) -> None:
        raise KeyError(f"no customer {value}")

    try:
        parse_customer(CPF)
    except KeyError as exc:
        diagnostics.log_error("hook test", "PreToolUse", exc, {"XDG_STATE_HOME": str(tmp_path)})
    line = log_text(tmp_path)
    assert "error=KeyError at=" in line
    assert "hooks/test_hosts_house.py:" in line and ":parse_customer" in line
    assert ":test_the_log_names_the_frames_and_never_the_message>" in line
    assert CPF not in line and "no customer" not in line
    assert str(tmp_path) not in line  # only a file's own folder and name


def test_an_adapters_failure_is_logged_with_where_it_happened(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"),
           "REDACTOR_TEST_FAULT": "PreToolUse"}
    claude.ADAPTER.run(pre_tool_use(tmp_path), env=env, default_cwd=str(tmp_path))
    line = log_text(tmp_path / "state")
    assert "error=InjectedFault at=" in line and "hosts/core.py:" in line
    assert ":handle" in line and CPF not in line


@pytest.mark.usefixtures("warm_engine")
def test_the_configuration_is_read_once_per_call_by_the_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.hosts import core

    (tmp_path / "xdg" / "redactor").mkdir(parents=True)
    (tmp_path / "xdg" / "redactor" / "config.toml").write_text(
        '[hooks]\ntime_budget_seconds = 19\n[messages]\nlanguage = "en"\n', encoding="utf-8")
    reads: list[Path | None] = []
    real = core.load_settings

    def counted(cwd: Path | None = None, env: Any = None) -> Settings:
        reads.append(cwd)
        return real(cwd=cwd, env=env)

    monkeypatch.setattr(core, "load_settings", counted)
    monkeypatch.setattr(config, "load_settings", counted)
    arrived = time.monotonic()
    request = protocol.with_deadline(protocol.build_request(
        pre_tool_use(tmp_path), environ={b"XDG_CONFIG_HOME": str(tmp_path / "xdg").encode(),
                                         b"XDG_STATE_HOME": str(tmp_path / "state").encode()},
        cwd=str(tmp_path)), arrived + 19.5, arrived=arrived)
    frames: list[bytes] = []
    code, out, _ = protocol.parse_answer(worker.answer(request, frames.append))
    assert len(reads) == 1
    assert frames == [worker.settings_frame(19.0, "en")]
    assert worker.parse_settings_frame(frames[0]) == (19.0, "en")
    assert code == 0 and CPF not in out.decode()


class FakeWorker:
    """A worker's pipe ends: it says its settings, then stays silent."""

    def __init__(self, frames: list[bytes | None]) -> None:
        self.frames = frames
        self.deadlines: list[float] = []

    def send(self, body: bytes, deadline: float) -> bool:
        return True

    def receive(self, deadline: float) -> bytes | None:
        self.deadlines.append(deadline)
        return self.frames.pop(0)


def test_the_dispatcher_waits_the_budget_its_worker_reports() -> None:
    from redactor.serve import timeouts

    fake = FakeWorker([worker.settings_frame(2.0, "en"), None])
    learned: dict[str, Any] = {}
    arrived = 1000.0
    first = arrived + timeouts.dispatcher_wait(timeouts.MAX_TIME_BUDGET)
    answer = server.WorkerPool._exchange(fake, b"request", arrived, first,  # type: ignore[arg-type]
                                         learned)
    assert answer is None  # overran: the caller fails closed
    assert fake.deadlines == [first, arrived + timeouts.dispatcher_wait(2.0)]
    assert learned == {"language": "en"}


def test_the_dispatchers_safe_answer_is_in_the_language_its_worker_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.hosts.core import HookTimeout

    class Pool:
        def ask(self, raw: bytes, arrived: float, learned: dict[str, Any]) -> bytes:
            learned["language"] = "en"
            raise HookTimeout("the engine worker overran the time budget")

        def close(self) -> None:
            pass

    loaded: list[int] = []
    monkeypatch.setattr(config, "load_settings", lambda *a, **k: loaded.append(1))
    folder = tempfile.mkdtemp(prefix="rdx-")
    engine_server = server.EngineServer(folder + "/engine.sock", workers=1)
    engine_server.pool = Pool()  # type: ignore[assignment]
    try:
        request = protocol.build_request(
            pre_tool_use(tmp_path), stamp=engine_server.stamp, cwd=str(tmp_path),
            environ={b"XDG_STATE_HOME": str(tmp_path / "state").encode()})
        code, _, err = protocol.parse_answer(engine_server.respond(request, time.monotonic()))
    finally:
        engine_server.server_close()
    assert code == 2 and err.decode().startswith("redactor: call blocked for safety")
    assert loaded == []  # the dispatcher read no configuration


def test_logging_an_unreadable_event_name_never_raises(tmp_path: Path) -> None:
    raw = b'{"hook_event_name": "\x80PreToolUse", "tool_name": "Bash", "tool_input": {}}'
    outcome = claude.ADAPTER.fail_closed_raw(raw, KeyError("x"),
                                             env={"XDG_STATE_HOME": str(tmp_path)})
    assert outcome.stops_turn
    assert "event=? error=KeyError" in log_text(tmp_path)
    # Another name is the event's own text: never logged.
    raw = json.dumps({"hook_event_name": CPF, "tool_input": {}}).encode()
    claude.ADAPTER.fail_closed_raw(raw, KeyError("x"), env={"XDG_STATE_HOME": str(tmp_path)})
    assert CPF not in log_text(tmp_path)


# ------------------------------------------------------------------ Hermes


class CountingGuard(Guard):
    """Settings given by the test, counting how often they are read."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(env={})
        self._fixed = settings
        self.reads = 0

    def settings(self) -> Settings:
        self.reads += 1
        return self._fixed


class BrokenConfigGuard(Guard):
    def settings(self) -> Settings:
        raise ConfigError("config.toml: [hooks] time_budget_seconds must be a number")


@pytest.mark.usefixtures("warm_engine")
def test_hermes_reads_its_settings_once_per_callback() -> None:
    from redactor.config import Rule

    # A rule and the arguments' redaction: two decisions, one reading.
    rules = (Rule(name="qas", pattern="QAS", reason="Confirme QAS", action="ask"),)
    guard = CountingGuard(Settings(hermes_mode="redact", rules=rules))
    plugin = HermesPlugin(guard, can_block=True, can_modify=True)
    answer = plugin.pre_tool_call(tool_name="read_file", args={"path": f"QAS {CPF}"})
    assert answer == {"action": "block", "message": "Confirme QAS"}
    assert guard.reads == 1
    plugin.pre_llm_call(user_message=f"CPF {CPF}", turn_id="t1")
    assert guard.reads == 2
    plugin.transform_tool_result(result=f"CPF {CPF}")
    assert guard.reads == 3


def test_a_hermes_configuration_error_is_loud(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    plugin = HermesPlugin(BrokenConfigGuard(env={}), can_block=True, can_modify=True)
    with caplog.at_level(logging.WARNING, logger="redactor.hermes"):
        answer: Any = plugin.pre_tool_call(tool_name="x", args={"a": CPF})
    assert answer["action"] == "block"
    assert "time_budget_seconds must be a number" in caplog.text
    assert "time_budget_seconds must be a number" in log_text(tmp_path)


def test_a_configuration_error_at_registration_is_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "xdg" / "redactor").mkdir(parents=True)
    (tmp_path / "xdg" / "redactor" / "config.toml").write_text(
        '[hermes]\nmode = "loud"\n', encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(hermes, "_warm", lambda plugin: None)

    class Ctx:
        def register_hook(self, name: str, callback: Any) -> None:
            pass

    with caplog.at_level(logging.WARNING, logger="redactor.hermes"):
        hermes.register(Ctx())
    line = log_text(tmp_path / "state")
    assert "hermes register" in line and "error=ConfigError" in line
    assert "register" in caplog.text


def test_the_configs_budget_limit_is_the_chains() -> None:
    from redactor.serve import timeouts

    assert config.MAX_TIME_BUDGET == timeouts.MAX_TIME_BUDGET

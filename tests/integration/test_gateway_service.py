"""``redactor gateway`` as a process: start, status, doctor's checks against it, and stop.

The upstream is the fake Messages server of the end-to-end tests; nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from redactor import doctor
from tests.e2e.fake_anthropic import FakeAnthropic, Script, serving

REPO = Path(__file__).resolve().parents[2]
CPF = "529.982.247-25"

pytest.importorskip("aiohttp")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[dict[str, str], int, FakeAnthropic]]:
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    home = tmp_path / "home"
    port = free_port()
    with serving(Script(tool=None, final_text="ok")) as fake:
        config = home / ".config/redactor/config.toml"
        config.parent.mkdir(parents=True)
        config.write_text(f'[gateway]\nport = {port}\nupstream = "{fake.url}"\n')
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "CLAUDE", "XDG_"))}
        env.update(HOME=str(home), XDG_RUNTIME_DIR=runtime,
                   CLAUDE_CONFIG_DIR=str(home / ".claude"))
        try:
            yield env, port, fake
        finally:
            subprocess.run([sys.executable, "-m", "redactor", "gateway", "stop"], env=env,
                           cwd=REPO, capture_output=True, timeout=60, check=False)
            shutil.rmtree(runtime, ignore_errors=True)


def redactor(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "redactor", *args], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=180, check=False)


def test_start_status_doctor_stop(world: tuple[dict[str, str], int, FakeAnthropic],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    env, port, fake = world
    assert redactor(env, "gateway", "status").returncode == 1
    started = redactor(env, "gateway", "start")
    assert started.returncode == 0, started.stderr
    assert f"127.0.0.1:{port}" in started.stderr
    assert redactor(env, "gateway", "start").returncode == 0  # already up: returns at once
    assert redactor(env, "gateway", "status").returncode == 0
    socket_file = next(Path(env["XDG_RUNTIME_DIR"]).glob("redactor/gateway-*.sock"))
    assert (socket_file.stat().st_mode & 0o777) == 0o600

    installed = redactor(env, "install", "claude", "--user", "--gateway")
    assert installed.returncode == 0, installed.stderr
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    checks = {c.name: c for c in doctor.gateway_checks(cwd=Path(env["HOME"]), env=env)}
    assert checks["gateway"].ok, checks["gateway"].detail
    assert checks["gateway upstream"].ok, checks["gateway upstream"].detail
    assert checks["gateway canary"].ok, checks["gateway canary"].detail
    assert '"block"' in checks["gateway binary"].detail
    assert not fake.requests, "the dry run must not reach the upstream"

    stopped = redactor(env, "gateway", "stop")
    assert "stopped" in stopped.stderr
    assert redactor(env, "gateway", "status").returncode == 1
    checks = {c.name: c for c in doctor.gateway_checks(cwd=Path(env["HOME"]), env=env)}
    assert not checks["gateway"].ok
    assert "redactor gateway start" in checks["gateway"].detail


def test_without_a_gateway_install_doctor_says_it_is_not_in_use(
        world: tuple[dict[str, str], int, FakeAnthropic]) -> None:
    env, _, _ = world
    [check] = doctor.gateway_checks(cwd=Path(env["HOME"]), env=env)
    assert check.ok and check.warning and "not in use" in check.detail


def test_a_remote_address_needs_allow_remote(
        world: tuple[dict[str, str], int, FakeAnthropic]) -> None:
    env, _, _ = world
    done = redactor(env, "gateway", "run", "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "--allow-remote" in done.stderr


def test_a_bad_upstream_flag_is_a_loud_error(
        world: tuple[dict[str, str], int, FakeAnthropic]) -> None:
    env, _, _ = world
    done = redactor(env, "gateway", "run", "--upstream", "http://llm.example.com")
    assert done.returncode == 2
    assert "https" in done.stderr
    assert json.dumps(done.stderr)  # one readable message, no traceback
    assert "Traceback" not in done.stderr

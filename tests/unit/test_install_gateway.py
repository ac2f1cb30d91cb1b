"""``redactor install claude --gateway``: the settings it writes, where the token goes, and
what it refuses (the CLI as a process, with a temporary home)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from redactor import install

REPO = Path(__file__).resolve().parents[2]
TOKEN = "ab" * 32


def run_install(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update(HOME=str(home), CLAUDE_CONFIG_DIR=str(home / ".claude"),
               XDG_RUNTIME_DIR=str(tmp_path / "run"), PATH="/usr/bin:/bin")
    env.pop("XDG_CONFIG_HOME", None)
    (tmp_path / "run").mkdir(mode=0o700, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "redactor", "install", "claude", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
                          check=False)


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_user_install_points_claude_code_at_the_gateway(tmp_path: Path) -> None:
    done = run_install(tmp_path, "--user", "--gateway")
    assert done.returncode == 0, done.stderr
    settings = read(tmp_path / "home/.claude/settings.json")
    env = settings["env"]
    token = (tmp_path / "home/.config/redactor/gateway-token").read_text().strip()
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:47821"
    assert env["ANTHROPIC_UNIX_SOCKET"].endswith(".sock")
    assert env["ANTHROPIC_CUSTOM_HEADERS"] == f"X-Redactor-Token: {token}"
    assert env["REDACTOR_GATEWAY"] == "1"
    assert env["ENABLE_TOOL_SEARCH"] == "true"
    assert token not in done.stderr and token not in done.stdout
    start = settings["hooks"]["SessionStart"][0]["hooks"][0]
    assert start["command"].endswith("/redactor/gateway/entry.py")
    assert " -I -S " in start["command"]
    for event in ("PreToolUse", "PostToolUse", "UserPromptSubmit"):
        entries = [h for g in settings["hooks"][event] for h in g["hooks"]]
        assert [h["type"] for h in entries] == ["command"]
    mode = stat.S_IMODE((tmp_path / "home/.config/redactor/gateway-token").stat().st_mode)
    assert mode == 0o600


def test_a_project_install_keeps_the_token_out_of_the_committed_file(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    done = run_install(tmp_path, "--project", str(project), "--gateway")
    assert done.returncode == 0, done.stderr
    committed = (project / ".claude/settings.json").read_text()
    local = project / ".claude/settings.local.json"
    token = (tmp_path / "home/.config/redactor/gateway-token").read_text().strip()
    assert token not in committed and "env" not in read(project / ".claude/settings.json")
    assert token in local.read_text()
    assert stat.S_IMODE(local.stat().st_mode) == 0o600
    assert not list(project.glob(".claude/settings.local.json.bak-*"))


def test_installing_twice_changes_nothing(tmp_path: Path) -> None:
    assert run_install(tmp_path, "--user", "--gateway").returncode == 0
    before = (tmp_path / "home/.claude/settings.json").read_text()
    again = run_install(tmp_path, "--user", "--gateway")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "home/.claude/settings.json").read_text() == before


def test_dry_run_shows_no_token_and_writes_nothing(tmp_path: Path) -> None:
    done = run_install(tmp_path, "--user", "--gateway", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "<token>" in done.stdout
    assert not (tmp_path / "home/.claude/settings.json").exists()
    assert not (tmp_path / "home/.config/redactor/gateway-token").exists()


def test_someone_elses_base_url_is_not_overwritten(tmp_path: Path) -> None:
    settings = tmp_path / "home/.claude/settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"env": {"ANTHROPIC_BASE_URL": "https://llm.corp.example"}}))
    done = run_install(tmp_path, "--user", "--gateway")
    assert done.returncode == 2
    assert "gateway.upstream" in done.stderr
    assert read(settings)["env"] == {"ANTHROPIC_BASE_URL": "https://llm.corp.example"}


def test_http_hooks_need_the_gateway(tmp_path: Path) -> None:
    done = run_install(tmp_path, "--user", "--http-hooks")
    assert done.returncode == 2
    assert "--gateway" in done.stderr


def test_http_hooks_without_on_failure_fall_back_to_command_hooks(tmp_path: Path) -> None:
    # No claude on PATH: its version is unknown, so onFailure "block" cannot be relied on.
    done = run_install(tmp_path, "--user", "--gateway", "--http-hooks")
    assert done.returncode == 0, done.stderr
    assert "installing command hooks instead" in done.stderr
    hooks = read(tmp_path / "home/.claude/settings.json")["hooks"]
    assert all(h["type"] == "command" for g in hooks["PreToolUse"] for h in g["hooks"])
    assert "REDACTOR_GATEWAY_TOKEN" not in read(tmp_path / "home/.claude/settings.json")["env"]


def test_http_hooks_replace_command_hooks_and_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "my-own-check"}]}]}}))
    for http_hooks in (False, True, False, True):
        install.install_claude_gateway(path, path, "/venv/bin/python -I -S "
                                       "/x/redactor/serve/entry.py claude", port=47821,
                                       token=TOKEN, http_hooks=http_hooks,
                                       block_on_failure=True)
    hooks = read(path)["hooks"]
    for event in ("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit"):
        ours = [h for g in hooks[event] for h in g["hooks"] if h.get("type") == "http"
                or "entry.py" in h.get("command", "")]
        assert len(ours) == 1 and ours[0]["type"] == "http"
        assert ours[0]["url"] == f"http://127.0.0.1:47821/hooks/claude/{event}"
        assert ours[0]["onFailure"] == "block"
        assert TOKEN not in json.dumps(ours[0])
        assert ours[0]["allowedEnvVars"] == ["REDACTOR_GATEWAY_TOKEN", "ANTHROPIC_BASE_URL"]
    assert {"type": "command", "command": "my-own-check"} in hooks["PreToolUse"][0]["hooks"]
    assert len(hooks["SessionStart"]) == 1
    assert read(path)["env"]["REDACTOR_GATEWAY_TOKEN"] == TOKEN


@pytest.mark.parametrize("headers", ["X-Team: a", "X-Team: a\nX-Redactor-Token: old"])
def test_other_custom_headers_are_kept(tmp_path: Path, headers: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"env": {"ANTHROPIC_CUSTOM_HEADERS": headers}}))
    install.install_claude_gateway(path, path, "cmd", port=47821, token=TOKEN)
    assert read(path)["env"]["ANTHROPIC_CUSTOM_HEADERS"] == f"X-Team: a\nX-Redactor-Token: {TOKEN}"

"""``redactor hook claude`` and ``redactor install claude`` as processes, as the host runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CPF = "529.982.247-25"


def hook(stdin: bytes, tmp_path: Path, env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "redactor", "hook", "claude"], input=stdin,
                          capture_output=True, timeout=300, cwd=tmp_path, check=False,
                          env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"),
                               **(env or {})})


@pytest.mark.parametrize("stdin", [b"", b"garbage \x00\xff", b"{]"])
def test_garbage_or_empty_stdin_stops_the_turn(stdin: bytes, tmp_path: Path) -> None:
    # An event that cannot be read: exit 2 (a tool call or prompt is blocked) and
    # continue:false (a turn stops before a tool output reaches the model); see
    # tests/e2e/test_claude_stop_turn.py for the real CLI's behaviour.
    done = hook(stdin, tmp_path)
    assert done.returncode == 2
    assert json.loads(done.stdout)["continue"] is False
    assert b"interrompido" in done.stderr


def test_one_json_object_on_stdout(tmp_path: Path) -> None:
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
             "tool_input": {"command": f"echo {CPF}", "timeout": 1000}}
    done = hook(json.dumps(event).encode(), tmp_path)
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode().strip().splitlines()
    assert len(lines) == 1
    body = json.loads(lines[0])
    assert body["hookSpecificOutput"]["updatedInput"] == {"command": "echo [CPF]",
                                                          "timeout": 1000}


def test_a_20_megabyte_tool_response(tmp_path: Path) -> None:
    line = "2026-11-27 08:31:12 INFO c.e.o.Service - pedido processado com sucesso no lote\n"
    body = line * (20_000_000 // len(line))
    secret_at = len(body) // 2
    stdout = body[:secret_at] + f"cliente CPF {CPF}\n" + body[secret_at:]
    response = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False,
                "noOutputExpected": False}
    event = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": str(tmp_path),
             "tool_input": {"command": "cat big.log"}, "tool_response": response}
    (tmp_path / ".redactor.toml").write_text("", encoding="utf-8")
    done = hook(json.dumps(event).encode(), tmp_path)
    out = done.stdout.decode()
    assert CPF not in out and "52998224725" not in out
    updated: dict[str, Any] = json.loads(out)["hookSpecificOutput"]["updatedToolOutput"]
    assert list(updated) == list(response)
    # Within the time budget the text is redacted; past it the output is withheld.
    # Either way it is a complete object and the value is gone.
    assert "cliente CPF [CPF]" in updated["stdout"] or updated["stdout"].startswith(
        "[saída retida")


def test_install_creates_settings_with_every_event(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "redactor", "install", "claude", "--project",
                           str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    settings = json.loads((tmp_path / ".claude/settings.json").read_text(encoding="utf-8"))
    for event in ("PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit"):
        [group] = settings["hooks"][event]
        [entry] = group["hooks"]
        assert entry["type"] == "command" and entry["timeout"] == 30
        assert entry["command"].endswith("redactor/serve/entry.py claude")
        assert group.get("matcher") == (None if event == "UserPromptSubmit" else "*")

"""Pseudonyms through the Gemini CLI and Codex adapters, in process: tokens from a tool's
output turn into values in a later search of the same session, that search's output gets
the same token again, and what the host cannot rewrite (Codex asking the person) is
refused rather than run with tokens."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from redactor import Settings
from redactor.hosts import codex, gemini

CPF = "529.982.247-25"
SETTINGS = Settings(pseudonyms=True)
TOKEN = re.compile(r"\[CPF:[0-9a-f]{16}\]")


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    return project.resolve(), env


def run(adapter: Any, payload: dict[str, Any], env: dict[str, str]) -> tuple[Any, str]:
    outcome = adapter.run(json.dumps(payload).encode(), SETTINGS, env=env)
    text = outcome.stdout or ""
    return (json.loads(text) if text else None), text + (outcome.stderr or "")


def test_gemini_search_gets_the_value_and_its_output_the_token(
        world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    base = {"session_id": "g1", "cwd": str(project)}
    out, shown = run(gemini.ADAPTER, {**base, "hook_event_name": "AfterTool",
                                      "tool_name": "read_file",
                                      "tool_input": {"file_path": "c.csv"},
                                      "tool_response": {"llmContent": f"0;{CPF};ativo"}}, env)
    assert CPF not in shown
    token = TOKEN.findall(out["reason"])[0]
    tool_input = {"pattern": token, "dir_path": str(project)}
    out, _ = run(gemini.ADAPTER, {**base, "hook_event_name": "BeforeTool",
                                  "tool_name": "grep_search", "tool_input": tool_input}, env)
    ran = out["hookSpecificOutput"]["tool_input"]
    assert ran == {"pattern": r"529\.982\.247-25", "dir_path": str(project)}
    # Gemini has no call id: the output pairs with the call by the input that ran.
    out, shown = run(gemini.ADAPTER, {**base, "hook_event_name": "AfterTool",
                                      "tool_name": "grep_search", "tool_input": ran,
                                      "tool_response": {"llmContent": f"c.csv:1:x{CPF}x"}},
                     env)
    assert CPF not in shown and f"c.csv:1:x{token}x" in out["reason"]


def test_gemini_web_fetch_with_a_token_is_denied(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    base = {"session_id": "g1", "cwd": str(project)}
    out, _ = run(gemini.ADAPTER, {**base, "hook_event_name": "AfterTool",
                                  "tool_name": "read_file", "tool_input": {"file_path": "c"},
                                  "tool_response": {"llmContent": f"cpf {CPF}"}}, env)
    token = TOKEN.findall(out["reason"])[0]
    out, shown = run(gemini.ADAPTER, {**base, "hook_event_name": "BeforeTool",
                                      "tool_name": "web_fetch",
                                      "tool_input": {"prompt": f"https://x.invalid/{token}"}},
                     env)
    assert out["decision"] == "deny" and CPF not in shown


def codex_issue(project: Path, env: dict[str, str]) -> str:
    out, shown = run(codex.ADAPTER, {"hook_event_name": "PostToolUse", "session_id": "c1",
                                     "cwd": str(project), "tool_name": "Bash",
                                     "tool_input": {"command": "cat c.csv"},
                                     "tool_response": f"0;{CPF};ativo"}, env)
    assert CPF not in shown
    return str(TOKEN.findall(out["reason"])[0])


def test_codex_running_unattended_gets_the_value(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    token = codex_issue(project, env)
    out, _ = run(codex.ADAPTER, {"hook_event_name": "PreToolUse", "session_id": "c1",
                                 "cwd": str(project), "tool_name": "Bash",
                                 "permission_mode": "bypassPermissions",
                                 "tool_input": {"command": f"grep '{token}' c.csv"}}, env)
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert "529\\.982\\.247-25" in specific["updatedInput"]["command"]


def test_codex_asking_the_person_refuses_a_token(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    token = codex_issue(project, env)
    _, shown = run(codex.ADAPTER, {"hook_event_name": "PreToolUse", "session_id": "c1",
                                   "cwd": str(project), "tool_name": "Bash",
                                   "permission_mode": "default",
                                   "tool_input": {"command": f"grep '{token}' c.csv"}}, env)
    assert CPF not in shown and "529\\.982" not in shown
    assert "without asking" in shown


def test_gemini_shell_output_pairs_with_its_wrapped_command(
        world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    base = {"session_id": "g1", "cwd": str(project)}
    out, _ = run(gemini.ADAPTER, {**base, "hook_event_name": "AfterTool",
                                  "tool_name": "read_file", "tool_input": {"file_path": "c"},
                                  "tool_response": {"llmContent": f"cpf {CPF}"}}, env)
    token = TOKEN.findall(out["reason"])[0]
    out, _ = run(gemini.ADAPTER, {**base, "hook_event_name": "BeforeTool",
                                  "tool_name": "run_shell_command",
                                  "tool_input": {"command": f"grep '{token}' c.csv"}}, env)
    ran = out["hookSpecificOutput"]["tool_input"]
    assert ran["command"].startswith("set -o pipefail")  # wrapped
    out, shown = run(gemini.ADAPTER, {**base, "hook_event_name": "AfterTool",
                                      "tool_name": "run_shell_command", "tool_input": ran,
                                      "tool_response": {"llmContent": f"x{CPF}x"}}, env)
    assert CPF not in shown and f"x{token}x" in out["reason"]

"""Which hook answer stops Claude Code when a hook cannot read its own input.

A PostToolUse hook that cannot parse its input cannot build the "withheld"
``updatedToolOutput`` (that needs the tool's output shape), and a hook that cannot even
read ``hook_event_name`` does not know which event it is answering.  These tests pin
what the real CLI (2.1.197 and 2.1.332, offline, fake Messages API) does with answers
that need neither.  Each stand-in hook is a fixed script: it reads stdin, prints a fixed
answer, and exits with a fixed code.

Verified:

* PostToolUse ``{"continue": false, "stopReason": …}`` (exit 0 or 2) ends the turn before
  the tool's output is sent: no request follows the tool call.  Exit 2 alone, or
  ``decision: "block"``, still send the output.
* PreToolUse: with exit 2 the command does not run (2.1.197: a deny, the model gets the
  exit-2 stderr and the turn goes on; 2.1.332: the turn ends there).  With exit 0
  ``continue: false`` lets the command run.
* UserPromptSubmit: ``continue: false`` sends no request and does not echo the prompt.
* So the universal answer is that JSON **with exit 2** and a fixed stderr, and no
  ``hookSpecificOutput`` (a wrong ``hookEventName`` makes the whole answer fail open).
* Known gaps: the output stays in the session; the next prompt of the session
  (``--resume``) sends it.  PostToolUseFailure ignores ``continue: false``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.fake_anthropic import FakeAnthropic, Script, serving
from tests.e2e.test_claude_cli import (  # claude_release: each test runs on every pin
    CPF,
    _claude,
    claude,
    claude_release,  # noqa: F401
    offline_env,
    release,
)

STOP_REASON = "Turno interrompido pelo redactor: entrada do hook ilegível"
STDERR = "redactor: entrada do hook ilegível"
STOP = {"continue": False, "stopReason": STOP_REASON}

HOOK = """\
import sys
sys.stdin.read()
sys.stdout.write({stdout!r})
sys.stderr.write({stderr!r})
sys.exit({code})
"""

# The command leaves a trace, so a test can tell whether it ran.
CAT = Script("Bash", {"command": "cat data.txt; touch ran.txt", "description": "Show data",
                      "timeout": 60000})


@dataclass
class Run:
    posts: list[dict[str, Any]]
    tool_results: list[dict[str, Any]]
    result: dict[str, Any]
    project: Path
    home: Path
    debug_log: str

    def cpf_sent(self) -> bool:
        return CPF in json.dumps(self.posts, ensure_ascii=False)

    def posts_after_the_tool(self) -> int:
        return sum(1 for post in self.posts if _tool_results(post))

    def ran(self) -> bool:
        return (self.project / "ran.txt").exists()

    def transcript(self) -> str:
        files = sorted((self.home / ".claude" / "projects").glob("*/*.jsonl"))
        return "".join(f.read_text(encoding="utf-8") for f in files)


def _tool_results(post: dict[str, Any]) -> list[dict[str, Any]]:
    return [block for message in post.get("messages", [])
            if message.get("role") == "user" and isinstance(message.get("content"), list)
            for block in message["content"] if block.get("type") == "tool_result"]


def stand_in_project(tmp_path: Path, event: str, answer: dict[str, Any] | None,
                     code: int, stderr: str = "") -> Path:
    """A project whose only hook, for ``event``, prints ``answer`` and exits ``code``."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    hook = tmp_path / "hook.py"
    stdout = json.dumps(answer) if answer is not None else ""
    hook.write_text(HOOK.format(stdout=stdout, stderr=stderr, code=code), encoding="utf-8")
    entry: dict[str, Any] = {"hooks": [{
        "type": "command", "timeout": 30,
        "command": f"{shlex.quote(sys.executable)} {shlex.quote(str(hook))}"}]}
    if event != "UserPromptSubmit":
        entry["matcher"] = "*"
    settings = {"hooks": {event: [entry]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return project


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}


def _run(tmp_path: Path, project: Path, script: Script, prompt: str = "mostre os dados") -> Run:
    (tmp_path / "home" / ".claude").mkdir(parents=True, exist_ok=True)
    with serving(script) as fake:
        done, debug = _claude(tmp_path, project, prompt, allowed="Bash Read", env=_env(),
                              fake=fake, extra_env=None)
        return _collect(tmp_path, project, fake, done.stdout, debug)


def _collect(tmp_path: Path, project: Path, fake: FakeAnthropic, stdout: str,
             debug: Path) -> Run:
    try:
        result = json.loads(stdout)
    except ValueError:
        result = {"unparsed_stdout": stdout}
    debug_text = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
    return Run(fake.messages_posts, fake.tool_results(), result, project, tmp_path / "home",
               debug_text)


def _resume(tmp_path: Path, project: Path, session_id: str, prompt: str) -> Run:
    """A second prompt in the same session (``claude -p --resume``), same hooks."""
    debug = tmp_path / "debug-resume.log"
    with serving(Script(tool=None)) as fake:
        env = {**_env(), **offline_env(tmp_path, fake.url)}
        done = subprocess.run(
            [str(claude()), "-p", prompt, "--resume", session_id, "--output-format", "json",
             "--max-turns", "2", "--debug-file", str(debug)],
            cwd=project, env=env, capture_output=True, text=True, timeout=180,
            stdin=subprocess.DEVNULL, check=False)
        return _collect(tmp_path, project, fake, done.stdout, debug)


def _assert_stopped_before_the_output_was_sent(run: Run) -> None:
    assert len(run.posts) == 1  # the call that asked for the tool; nothing after it
    assert run.posts_after_the_tool() == 0
    assert not run.cpf_sent()
    assert run.result.get("terminal_reason") == "hook_stopped"
    assert run.result.get("stop_reason") == "tool_use"
    assert run.result.get("result") == ""
    assert run.result.get("is_error") is False
    assert CPF not in json.dumps(run.result, ensure_ascii=False)
    assert "requested preventContinuation" in run.debug_log


# ------------------------------------------------------------------ PostToolUse


@pytest.mark.parametrize("code", [0, 2], ids=["exit0", "exit2"])
def test_post_tool_use_continue_false_keeps_bash_output_from_the_model(
        tmp_path: Path, code: int) -> None:
    project = stand_in_project(tmp_path, "PostToolUse", STOP, code, STDERR if code else "")
    run = _run(tmp_path, project, CAT)
    assert run.ran()  # PostToolUse comes after the command; it ran
    _assert_stopped_before_the_output_was_sent(run)


def test_post_tool_use_continue_false_keeps_read_output_from_the_model(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path, "PostToolUse", STOP, 2, STDERR)
    run = _run(tmp_path, project, Script("Read", {"file_path": str(project / "data.txt")}))
    _assert_stopped_before_the_output_was_sent(run)


def test_post_tool_use_continue_false_wins_over_an_ignored_string_replacement(
        tmp_path: Path) -> None:
    answer = {**STOP, "hookSpecificOutput": {"hookEventName": "PostToolUse",
                                             "updatedToolOutput": "[saída retida]"}}
    project = stand_in_project(tmp_path, "PostToolUse", answer, 0)
    run = _run(tmp_path, project, CAT)
    _assert_stopped_before_the_output_was_sent(run)
    assert "does not match Bash's output shape" in run.debug_log


@pytest.mark.parametrize(("answer", "code"), [
    (None, 2),
    ({"decision": "block", "reason": "redactor: saída retida"}, 0),
    ({"suppressOutput": True}, 0),
    ({"systemMessage": "redactor: aviso"}, 0),
], ids=["exit2-alone", "decision-block", "suppressOutput", "systemMessage"])
def test_post_tool_use_answers_without_continue_false_still_send_the_output(
        tmp_path: Path, answer: dict[str, Any] | None, code: int) -> None:
    project = stand_in_project(tmp_path, "PostToolUse", answer, code, STDERR if code else "")
    run = _run(tmp_path, project, CAT)
    assert run.posts_after_the_tool() == 1
    assert CPF in json.dumps(run.tool_results, ensure_ascii=False)
    assert run.result.get("terminal_reason") == "completed"


def test_the_stopped_output_stays_in_the_session_and_the_next_prompt_sends_it(
        tmp_path: Path) -> None:
    # Known gap: the stop keeps the output out of *this* turn only.  The tool_result is
    # in the transcript, and the next prompt of the session carries it to the model.
    project = stand_in_project(tmp_path, "PostToolUse", STOP, 2, STDERR)
    first = _run(tmp_path, project, CAT)
    _assert_stopped_before_the_output_was_sent(first)
    assert CPF in first.transcript()
    assert "hook_stopped_continuation" in first.transcript()
    second = _resume(tmp_path, project, first.result["session_id"], "e agora?")
    assert len(second.posts) == 1
    assert CPF in json.dumps(second.tool_results, ensure_ascii=False)
    assert f"hook stopped continuation: {STOP_REASON}" in json.dumps(
        second.posts, ensure_ascii=False)


def test_post_tool_use_failure_ignores_continue_false(tmp_path: Path) -> None:
    # Known gap: a failing command goes to PostToolUseFailure, where the stop request is
    # logged but not applied; the raw output reaches the model.
    project = stand_in_project(tmp_path, "PostToolUseFailure", STOP, 2, STDERR)
    script = Script("Bash", {"command": "cat data.txt; exit 3", "description": "Fail",
                             "timeout": 60000})
    run = _run(tmp_path, project, script)
    assert "requested preventContinuation" in run.debug_log
    assert CPF in json.dumps(run.tool_results, ensure_ascii=False)
    assert run.result.get("terminal_reason") == "completed"


# ------------------------------------------------- the universal answer, other events


def test_universal_answer_on_pre_tool_use_blocks_the_command(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path, "PreToolUse", STOP, 2, STDERR)
    run = _run(tmp_path, project, CAT)
    assert not run.ran()
    assert not run.cpf_sent()
    assert [d["tool_name"] for d in run.result.get("permission_denials", [])] == ["Bash"]
    if release() >= (2, 1, 332):
        # Newer releases honour continue:false with exit 2 too: the call is denied and
        # the turn ends there, nothing more goes to the model.
        assert len(run.posts) == 1 and run.tool_results == []
        assert run.result.get("terminal_reason") == "hook_stopped"
        return
    # 2.1.197: a deny; the model gets the fixed stderr (with the hook command line) and
    # the turn goes on.
    assert len(run.tool_results) == 1 and run.tool_results[0].get("is_error") is True
    assert STDERR in run.tool_results[0]["content"]
    assert "PreToolUse:Bash hook error" in run.tool_results[0]["content"]


def test_continue_false_with_exit_0_on_pre_tool_use_lets_the_command_run(tmp_path: Path) -> None:
    # Why the universal answer needs exit 2: with exit 0 the command runs first (its side
    # effects happen); only then does the turn stop, before the output is sent.
    project = stand_in_project(tmp_path, "PreToolUse", STOP, 0)
    run = _run(tmp_path, project, CAT)
    assert run.ran()
    _assert_stopped_before_the_output_was_sent(run)


@pytest.mark.parametrize("code", [0, 2], ids=["exit0", "exit2"])
def test_universal_answer_on_user_prompt_submit_sends_nothing(tmp_path: Path, code: int) -> None:
    project = stand_in_project(tmp_path, "UserPromptSubmit", STOP, code, STDERR if code else "")
    run = _run(tmp_path, project, CAT, prompt=f"rode o comando para o cliente CPF {CPF}")
    assert run.posts == []
    assert not run.ran()
    assert run.result.get("result") == f"Operation stopped by hook: {STOP_REASON}"
    assert run.result.get("num_turns") == 0
    assert CPF not in json.dumps(run.result, ensure_ascii=False)  # the prompt is not echoed


def test_hook_specific_output_naming_another_event_fails_open(tmp_path: Path) -> None:
    # Why the universal answer carries no hookSpecificOutput: a hookEventName that is not
    # the event's makes Claude Code drop the whole answer, continue:false included.
    answer = {**STOP, "hookSpecificOutput": {"hookEventName": "PostToolUse",
                                             "updatedToolOutput": "[saída retida]"}}
    project = stand_in_project(tmp_path, "UserPromptSubmit", answer, 0)
    run = _run(tmp_path, project, CAT, prompt=f"rode o comando para o cliente CPF {CPF}")
    assert "Hook returned incorrect event name" in run.debug_log
    assert run.posts and run.cpf_sent()

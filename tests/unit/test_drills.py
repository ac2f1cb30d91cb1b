"""Failure drills (REDACTOR_TEST_FAULT, REDACTOR_TEST_DELAY) are honoured in test runs only.

A project can set any environment variable through a host's project settings, so the
drills need a switch file that a test run creates and a repository cannot provide.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from redactor import Settings
from redactor.drills import SWITCH_TEXT, SWITCHES_ENV, drill, switch_problem
from redactor.hosts import claude

CPF = "529.982.247-25"
EVENT = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
         "tool_input": {"command": f"echo {CPF}"}}


def switch(folder: Path, text: bytes = SWITCH_TEXT) -> Path:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    path = folder / "switch"
    path.write_bytes(text)
    path.chmod(0o600)
    return path


def test_a_fault_set_by_a_project_alone_is_ignored() -> None:
    raw = json.dumps(EVENT).encode()
    ignored = claude.ADAPTER.run(raw, Settings(), env={"REDACTOR_TEST_FAULT": "PreToolUse"})
    assert ignored.exit_code == 0 and ignored.stdout is not None
    assert json.loads(ignored.stdout)["hookSpecificOutput"]["updatedInput"]["command"] \
        == "echo [CPF]"
    on = {"REDACTOR_TEST_FAULT": "PreToolUse", SWITCHES_ENV: os.environ[SWITCHES_ENV]}
    drilled = claude.ADAPTER.run(raw, Settings(), env=on)
    assert drilled.exit_code == 2 and CPF not in (drilled.stdout or "") + (drilled.stderr or "")
    unreadable = {**on, "REDACTOR_TEST_FAULT": "unreadable-PreToolUse"}
    assert claude.ADAPTER.run(raw, Settings(), env=unreadable).exit_code == 2
    assert claude.ADAPTER.run(raw, Settings(), env={
        "REDACTOR_TEST_FAULT": "unreadable-PreToolUse"}).exit_code == 0


def test_only_a_private_switch_file_outside_any_project_turns_the_drills_on(
        tmp_path: Path) -> None:
    good = switch(tmp_path / "private")
    assert switch_problem({SWITCHES_ENV: str(good)}) is None
    assert drill({SWITCHES_ENV: str(good), "REDACTOR_TEST_DELAY": "9"},
                 "REDACTOR_TEST_DELAY") == "9"
    link = tmp_path / "private" / "link"
    link.symlink_to(good)
    bad: dict[str, str] = {
        "relative": "private/switch",
        "a link": str(link),
        "wrong text": str(switch(tmp_path / "other", b"anything\n")),
        "in a repository": str(switch(tmp_path / "repo" / "tests")),
    }
    (tmp_path / "repo" / ".git").mkdir()
    shared = switch(tmp_path / "shared")
    (tmp_path / "shared").chmod(0o755)  # a cloned repository's folders, by the usual umask
    bad["a folder others may enter"] = str(shared)
    writable = switch(tmp_path / "writable")
    writable.chmod(0o666)
    bad["a file others may write"] = str(writable)
    if os.getuid() == 0:
        foreign = switch(tmp_path / "foreign")
        os.chown(foreign, 4242, 4242)
        bad["another user's file"] = str(foreign)
    for why, named in bad.items():
        env = {SWITCHES_ENV: named, "REDACTOR_TEST_DELAY": "9"}
        assert switch_problem(env) is not None, why
        assert drill(env, "REDACTOR_TEST_DELAY") == "", why
    assert drill({"REDACTOR_TEST_DELAY": "9"}, "REDACTOR_TEST_DELAY") == ""

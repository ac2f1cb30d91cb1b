"""Eight ``redactor hook claude`` processes at once, as a host fires them: each files the
same customers' tokens under its own session and resolves one of them; every one gets the
value, none waits on another past its budget, and the vault holds each customer once."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.engine import stop_engine

CPFS = ("529.982.247-25", "390.533.447-05", "111.444.777-35")
PROCESSES = 8
TOKEN = re.compile(r"\[CPF:[0-9a-f]{16}\]")


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    config = tmp_path / "config" / "redactor"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[pseudonyms]\nenabled = true\n", encoding="utf-8")
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("REDACTOR_")}
    environ.update({"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                    "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_RUNTIME_DIR": runtime})
    try:
        yield environ
    finally:
        stop_engine(environ)
        shutil.rmtree(runtime, ignore_errors=True)


def event(project: Path, session: str, name: str, **fields: Any) -> bytes:
    return json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": name,
                       "transcript_path": "/tmp/t.jsonl", "tool_use_id": f"{session}-1",
                       **fields}).encode()


SCRIPT = """
import json, re, subprocess, sys
post, pre_template = sys.argv[1].encode(), sys.argv[2]
hook = [sys.executable, "-m", "redactor", "hook", "claude"]
first = subprocess.run(hook, input=post, capture_output=True, timeout=120)
shown = json.loads(first.stdout)["hookSpecificOutput"]["updatedToolOutput"]
token = re.findall(r"\\[CPF:[0-9a-f]{16}\\]", json.dumps(shown))[0]
second = subprocess.run(hook, input=pre_template.replace("TOKEN", token).encode(),
                        capture_output=True, timeout=120)
print(json.dumps({"post": first.returncode, "pre": second.returncode, "token": token,
                  "answer": second.stdout.decode()}))
"""


def test_eight_hook_processes_issue_and_resolve_the_same_tokens(env: dict[str, str],
                                                                  tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    content = "".join(f"{i};{cpf};ativo\n" for i, cpf in enumerate(CPFS))
    # One call first starts the warm engine (seconds); then the eight race.
    warm = subprocess.run([sys.executable, "-m", "redactor", "hook", "claude"], env=env,
                          input=event(project, "warm", "UserPromptSubmit", prompt="oi"),
                          capture_output=True, timeout=300, check=False)
    assert warm.returncode == 0, warm.stderr
    runs = []
    for n in range(PROCESSES):
        session = f"sess{n}"
        post = event(project, session, "PostToolUse", tool_name="Read",
                     tool_input={"file_path": str(project / "c.csv")},
                     tool_response={"type": "text", "file": {"content": content}})
        pre = event(project, session, "PreToolUse", tool_name="Grep",
                    tool_input={"pattern": "TOKEN", "path": str(project)})
        runs.append(subprocess.Popen([sys.executable, "-c", SCRIPT, post, pre.decode()],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    results = []
    for process in runs:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out))
    assert {r["token"] for r in results} == {results[0]["token"]}  # one token everywhere
    for result in results:
        assert (result["post"], result["pre"]) == (0, 0)
        answer = json.loads(result["answer"])["hookSpecificOutput"]
        assert answer["updatedInput"]["pattern"] == r"529\.982\.247\-25"
    stats = subprocess.run([sys.executable, "-m", "redactor", "vault", "stats"], env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    assert f"BR_CPF\t{len(CPFS)}" in stats.stdout, stats.stderr

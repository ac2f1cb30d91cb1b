"""The Claude Code plugin: its manifests, and its hook script with and without redactor.

The script is what Claude Code runs from the plugin folder; these tests run it the same
way (a shell command, an event on stdin) with fake and real redactor programs on PATH.
The real CLI installing and running the plugin is tests/e2e/test_claude_plugin.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import redactor
from redactor.install import CLAUDE_EVENTS, CLAUDE_PLUGIN
from tests.e2e.engine import stop_engine

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "plugins" / "redactor"
SCRIPT = PLUGIN / "hooks" / "redactor-hook"
CPF = "529.982.247-25"
PROMPT = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": "/tmp",
          "prompt": f"cliente CPF {CPF}"}
BASE_PATH = "/usr/bin:/bin"


def test_the_marketplace_lists_the_plugin_folder_at_this_version() -> None:
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    [entry] = market["plugins"]
    assert entry["name"] == manifest["name"] == market["name"] == CLAUDE_PLUGIN
    assert (REPO / entry["source"]).resolve() == PLUGIN
    assert entry["version"] == manifest["version"] == redactor.__version__


def test_the_plugin_hooks_cover_the_installer_events_with_on_failure_block() -> None:
    hooks = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == set(CLAUDE_EVENTS)
    for event, matcher in CLAUDE_EVENTS.items():
        [group] = hooks[event]
        assert group.get("matcher") == matcher
        [handler] = group["hooks"]
        assert handler == {"type": "command", "timeout": 30, "onFailure": "block",
                           "command": '"${CLAUDE_PLUGIN_ROOT}/hooks/redactor-hook"'}
    assert os.access(SCRIPT, os.X_OK)


def run_script(event: dict[str, object], path: str, home: Path,
               **env: str) -> subprocess.CompletedProcess[str]:
    variables = {"PATH": path, "HOME": str(home), **env}
    return subprocess.run([str(SCRIPT)], input=json.dumps(event), capture_output=True,
                          text=True, env=variables, timeout=120, check=False)


def assert_blocked(done: subprocess.CompletedProcess[str], why: str) -> None:
    answer = json.loads(done.stdout)
    assert done.returncode == 2
    assert answer["continue"] is False and why in answer["stopReason"]
    assert "pip install redactor-br" in answer["stopReason"]
    assert answer["stopReason"] in done.stderr
    assert CPF not in done.stdout + done.stderr


def test_without_redactor_every_event_is_blocked(tmp_path: Path) -> None:
    for event in ({**PROMPT}, {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                "tool_input": {"command": f"echo {CPF}"}}):
        assert_blocked(run_script(event, BASE_PATH, tmp_path), "redactor is not installed")


def fake_program(folder: Path, name: str, body: str, interpreter: str = "/bin/sh") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text(f"#!{interpreter}\n" + body, encoding="utf-8")
    program.chmod(0o755)
    return program


@pytest.mark.parametrize("body", [
    "exit 1\n",                      # Python could not import redactor
    "kill -9 $$\n",                  # killed
    "exit 127\n",                    # what a missing interpreter gives
])
def test_a_redactor_that_does_not_run_is_a_block(tmp_path: Path, body: str) -> None:
    fake_program(tmp_path, "redactor-hook", body)
    assert_blocked(run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path), "redactor did not run")


def test_a_named_program_that_is_missing_is_a_block(tmp_path: Path) -> None:
    fake_program(tmp_path, "redactor-hook", "echo '{}'\n")  # on PATH, but not the one named
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path,
                      REDACTOR_HOOK_BIN=str(tmp_path / "gone"))
    assert_blocked(done, "redactor did not run (exit 127)")


def run_named(program: Path | str, home: Path, cwd: Path | None = None,
              **env: str) -> subprocess.CompletedProcess[str]:
    variables = {"PATH": BASE_PATH, "HOME": str(home), "REDACTOR_HOOK_BIN": str(program), **env}
    return subprocess.run([str(SCRIPT)], input=json.dumps(PROMPT), capture_output=True,
                          text=True, env=variables, cwd=cwd, timeout=120, check=False)


def test_a_named_program_a_project_could_have_put_there_is_refused(tmp_path: Path) -> None:
    # Claude Code takes environment variables from a project's settings ("env"): the
    # program REDACTOR_HOOK_BIN names must not come from the project.
    answering = "cat >/dev/null; echo '{\"ran\": true}'\n"
    project = tmp_path / "project"
    planted = fake_program(project / "tools", "redactor-hook", answering)
    mine = fake_program(tmp_path / "venv" / "bin", "redactor-hook", answering)
    inside = "REDACTOR_HOOK_BIN lies inside the project folder"
    assert_blocked(run_named(planted, tmp_path, CLAUDE_PROJECT_DIR=str(project)), inside)
    assert_blocked(run_named(planted, tmp_path, cwd=project / "tools"), inside)
    # Through a link that lies outside, it is still the project's program.
    link = tmp_path / "looks-like-mine"
    link.symlink_to(planted)
    assert_blocked(run_named(link, tmp_path, CLAUDE_PROJECT_DIR=str(project)), inside)
    assert_blocked(run_named("tools/redactor-hook", tmp_path, cwd=project),
                   "REDACTOR_HOOK_BIN is not an absolute path")
    # The user's own program outside the project runs; so does any program when the
    # folder is the home folder or above it ("/" here), which holds the user's own files.
    assert run_named(mine, tmp_path, cwd=project, CLAUDE_PROJECT_DIR=str(project)).stdout \
        == '{"ran": true}\n'
    assert run_named(planted, tmp_path, cwd=Path("/"), CLAUDE_PROJECT_DIR="/").stdout \
        == '{"ran": true}\n'
    # A program others may write is refused (so is another user's: root only can test).
    mine.chmod(0o775)
    assert_blocked(run_named(mine, tmp_path, cwd=project),
                   "REDACTOR_HOOK_BIN is not owned by you or root, or others may write it")
    mine.chmod(0o755)
    if os.getuid() == 0:
        os.chown(mine, 4242, 4242)
        assert_blocked(run_named(mine, tmp_path, cwd=project), "is not owned by you or root")


def test_a_named_program_must_be_a_redactor_hook(tmp_path: Path) -> None:
    """Any other program of the user's (/bin/true, a shell that would run a project file
    named ``claude``) would pass every event: refused, whatever the link named."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "claude").write_text("echo '{}'\n")
    wrong = "REDACTOR_HOOK_BIN does not name a redactor-hook program"
    for program in ("/bin/true", "/bin/sh"):
        assert_blocked(run_named(program, tmp_path, cwd=project,
                                 CLAUDE_PROJECT_DIR=str(project)), wrong)
    disguised = tmp_path / "bin" / "redactor-hook"
    disguised.parent.mkdir()
    disguised.symlink_to("/bin/true")
    assert_blocked(run_named(disguised, tmp_path, cwd=project), wrong)


def test_answers_of_the_program_pass_through_with_their_exit_code(tmp_path: Path) -> None:
    # The light client first, the event on its stdin and "claude" as its argument.
    fake_program(tmp_path, "redactor-hook",
                 'read -r line; printf \'{"seen": "%s", "arg": "%s"}\' "${#line}" "$1"\n')
    fake_program(tmp_path, "redactor", "echo full; exit 0\n")
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path)
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"seen": str(len(json.dumps(PROMPT))), "arg": "claude"}
    (tmp_path / "redactor-hook").unlink()
    fake_program(tmp_path, "redactor", 'cat >/dev/null; echo "$*" >&2; echo \'{"a": 1}\'; exit 2\n')
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, '{"a": 1}\n', "hook claude\n")


def test_an_exit_2_without_an_answer_becomes_a_stop(tmp_path: Path) -> None:
    # Exit 2 alone would let a PostToolUse output through; the stop withholds it.
    fake_program(tmp_path, "redactor-hook", 'cat >/dev/null; echo "no JSON" >&2; exit 2\n')
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path)
    assert done.returncode == 2 and done.stderr == "no JSON\n"
    assert json.loads(done.stdout) == {"continue": False, "stopReason": "Blocked by redactor."}
    # So does an exit 2 whose output is not a JSON object.
    fake_program(tmp_path, "redactor-hook", f"cat >/dev/null; echo 'Traceback {CPF}'; exit 2\n")
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path)
    assert done.returncode == 2 and CPF not in done.stdout
    assert json.loads(done.stdout)["continue"] is False


def locating_program(tmp_path: Path) -> tuple[Path, Path, Path, Path, str]:
    """A fake Python answering the fast form, and a ``redactor-hook`` under it that
    locates (``--locate``) and answers slowly: (log, entry, python, program, PATH)."""
    log = tmp_path / "log"
    entry = tmp_path / "entry.py"
    entry.write_text("")
    python = fake_program(tmp_path / "py", "python", FAST.format(log=log))
    program = fake_program(tmp_path / "bin", "redactor-hook", LOCATING.format(
        python=python, entry=entry, log=log), interpreter=str(python))
    return log, entry, python, program, f"{program.parent}:{BASE_PATH}"


def test_a_cache_someone_else_can_write_is_not_believed(tmp_path: Path) -> None:
    path = locating_program(tmp_path)[-1]
    assert run_script(PROMPT, path, tmp_path).stdout == '{"slow": true}\n'
    folder = tmp_path / ".cache" / "redactor"
    folder.chmod(0o777)
    assert run_script(PROMPT, path, tmp_path).stdout == '{"slow": true}\n'
    folder.chmod(0o700)
    assert run_script(PROMPT, path, tmp_path).stdout == '{"fast": true}\n'


def test_output_followed_by_a_crash_gives_only_the_refusal(tmp_path: Path) -> None:
    fake_program(tmp_path, "redactor-hook",
                 f"cat >/dev/null; echo '{{\"out\": \"{CPF}\"}}'; exit 1\n")
    done = run_script(PROMPT, f"{tmp_path}:{BASE_PATH}", tmp_path)
    assert_blocked(done, "redactor did not run (exit 1)")


def test_the_script_needs_no_home_and_writes_no_cache_without_an_absolute_one(
        tmp_path: Path) -> None:
    program = fake_program(tmp_path / "bin", "redactor-hook",
                           'if [ "$1" = --locate ]; then echo located; exit 0; fi\n'
                           "cat >/dev/null; echo '{}'\n")
    work = tmp_path / "work"
    work.mkdir()
    for env in ({"PATH": f"{program.parent}:{BASE_PATH}"},
                {"PATH": f"{program.parent}:{BASE_PATH}", "HOME": "relative",
                 "XDG_CACHE_HOME": "cache"}):
        done = subprocess.run([str(SCRIPT)], input="{}", capture_output=True, text=True,
                              env=env, cwd=work, timeout=60, check=False)
        assert (done.returncode, done.stdout, done.stderr) == (0, "{}\n", "")
    assert list(work.iterdir()) == []
    assert not Path("/.cache/redactor/claude-plugin-hook").exists()


def test_with_the_installed_redactor_the_prompt_is_blocked_by_redactor(tmp_path: Path) -> None:
    bindir = Path(sys.executable).parent
    if not (bindir / "redactor-hook").exists():
        pytest.fail("redactor-hook is not installed next to this Python: run tests/run.sh "
                    "(pip install -e .)", pytrace=False)
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env = {"XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    try:
        first = run_script(PROMPT, f"{bindir}:{BASE_PATH}", tmp_path, **env)
        # The second call takes the cached fast form (python -I -S .../entry.py).
        done = run_script(PROMPT, f"{bindir}:{BASE_PATH}", tmp_path, **env)
    finally:
        stop_engine({**os.environ, **env})
    assert (tmp_path / ".cache" / "redactor" / "claude-plugin-hook").read_text().splitlines() \
        == [str(bindir / "redactor-hook"), sys.executable,
            str(REPO / "redactor" / "serve" / "entry.py")]
    for call in (first, done):
        answer = json.loads(call.stdout)
        assert call.returncode == 0
        assert answer["decision"] == "block" and "CPF" in answer["reason"]
        assert CPF not in call.stdout + call.stderr


LOCATING = """\
if [ "$1" = --locate ]; then printf '%s\\n' {python} {entry}; exit 0; fi
cat >/dev/null; echo slow >> {log}; echo '{{"slow": true}}'
"""
# The fake Python answers the fast form itself and runs the program (its shebang
# names this Python) with sh otherwise.
FAST = """\
if [ "$1" != -I ]; then exec /bin/sh "$@"; fi
cat >/dev/null; echo "fast $*" >> {log}; echo '{{"fast": true}}'
"""


def test_the_fast_form_is_cached_and_refreshed_when_stale(tmp_path: Path) -> None:
    log, entry, python, program, path = locating_program(tmp_path)

    def call() -> str:
        done = run_script(PROMPT, path, tmp_path)
        assert done.returncode == 0
        return done.stdout.strip()

    assert call() == '{"slow": true}'
    assert call() == '{"fast": true}'
    assert log.read_text().splitlines() == ["slow", f"fast -I -S {entry} claude"]
    cache = tmp_path / ".cache" / "redactor" / "claude-plugin-hook"
    # A newer program (an upgrade) is asked again; so is a cache whose entry is gone.
    os.utime(program, (cache.stat().st_mtime + 10,) * 2)
    assert call() == '{"slow": true}'
    os.utime(cache, (program.stat().st_mtime + 10,) * 2)
    assert call() == '{"fast": true}'
    entry.unlink()
    assert call() == '{"slow": true}'
    # The same path now holding another program (a wrapper put in its place) with an
    # older time is not taken for the cached one: its first line names no cached Python.
    entry.write_text("")
    os.utime(cache, (program.stat().st_mtime + 10,) * 2)
    assert call() == '{"fast": true}'
    program.write_text(f"#!/bin/sh\n{LOCATING.format(python=python, entry=entry, log=log)}")
    os.utime(program, (cache.stat().st_mtime - 10,) * 2)
    assert call() == '{"slow": true}'
    # Another program named by REDACTOR_HOOK_BIN does not reuse the first one's cache.
    other = fake_program(tmp_path / "other", "redactor-hook", "cat >/dev/null; echo '{}'\n")
    os.utime(cache, (other.stat().st_mtime + 10,) * 2)
    assert run_script(PROMPT, path, tmp_path, REDACTOR_HOOK_BIN=str(other)).stdout == "{}\n"

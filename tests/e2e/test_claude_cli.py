"""End to end with the real Claude Code CLI, offline, against a fake Messages API.

The CLI (npm @anthropic-ai/claude-code, pinned in tests/run.sh) runs ``claude -p``
in a temporary project whose hooks were registered by ``redactor install claude
--project``.  Assertions look at what executed (side-effect files, the tool input a
recording hook saw) and at what the model received (tool_result blocks of the last
request), never at the exit code.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.engine import stop_engine
from tests.e2e.fake_anthropic import FakeAnthropic, Script, serving
from tests.needs import require_npm_cli

REPO = Path(__file__).resolve().parents[2]
#: The Claude Code releases the adapter is proven on, each pinned and installed by
#: tests/run.sh: the long-standing pin first, then the newest when issue 15 was built.
CLAUDE_VERSIONS = ("2.1.197", "2.1.332")
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"


def claude_binary(version: str) -> Path:
    folder = "claude-code" if version == CLAUDE_VERSIONS[0] else f"claude-code-{version}"
    return REPO / ".cache" / folder / "node_modules" / ".bin" / "claude"


_ACTIVE: list[tuple[str, Path]] = []


@pytest.fixture(autouse=True, params=CLAUDE_VERSIONS, ids=lambda v: f"claude-{v}")
def claude_release(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test of a module that uses this runs once per pinned Claude Code release."""
    version: str = request.param
    # Skipped when the release is not installed (failed under tests/run.sh: tests/needs.py).
    folder = claude_binary(version).parents[2].relative_to(REPO)
    require_npm_cli(f"Claude Code {version}", claude_binary(version).is_file(),
                    f"@anthropic-ai/claude-code@{version}", str(folder))
    _ACTIVE.append((version, claude_binary(version)))
    try:
        yield version
    finally:
        _ACTIVE.pop()


def claude() -> Path:
    """The Claude Code binary of the running test's release."""
    return _ACTIVE[-1][1]


def release() -> tuple[int, ...]:
    """The running test's Claude Code release, as numbers."""
    return tuple(int(part) for part in _ACTIVE[-1][0].split("."))


RECORDER = """\
import sys, pathlib
data = sys.stdin.read()
with open(pathlib.Path(sys.argv[1]), "a", encoding="utf-8") as f:
    f.write(data.replace("\\n", " ") + "\\n")
"""


@dataclass
class Run:
    fake: FakeAnthropic
    result: dict[str, Any]
    project: Path
    recorded: list[dict[str, Any]]
    debug_log: str

    def post_tool_inputs(self) -> list[dict[str, Any]]:
        return [e["tool_input"] for e in self.recorded if e.get("hook_event_name") == "PostToolUse"]

    def model_got(self) -> str:
        return json.dumps(self.fake.tool_results(), ensure_ascii=False)


def make_project(tmp_path: Path, config: str | None = None,
                 project: Path | None = None) -> Path:
    project = tmp_path / "project" if project is None else project
    project.mkdir()
    if config is not None:
        (project / ".redactor.toml").write_text(config, encoding="utf-8")
    install = subprocess.run(
        [sys.executable, "-m", "redactor", "install", "claude", "--project", str(project),
         "--claude-bin", str(claude())],
        capture_output=True, text=True, timeout=60, check=False)
    assert install.returncode == 0, install.stderr
    # A second, read-only hook records what Claude Code passed to PostToolUse (the
    # input that actually ran).  It prints nothing, so it rewrites nothing.
    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER, encoding="utf-8")
    settings_file = project / ".claude" / "settings.json"
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    settings["hooks"]["PostToolUse"].append({"matcher": "*", "hooks": [{
        "type": "command", "timeout": 30,
        "command": f"{sys.executable} {recorder} {tmp_path / 'recorded.jsonl'}"}]})
    settings_file.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return project


def run_claude(tmp_path: Path, project: Path, prompt: str, script: Script,
               *, allowed: str = "Bash Read", extra_env: dict[str, str] | None = None) -> Run:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    # The hook client starts a warm engine on its first call; it gets a runtime folder
    # of its own (short: AF_UNIX paths are limited) and is stopped below.
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env["XDG_RUNTIME_DIR"] = runtime
    try:
        with serving(script) as fake:
            done, debug = _claude(tmp_path, project, prompt, allowed=allowed, env=env, fake=fake,
                                  extra_env=extra_env)
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
    try:
        result = json.loads(done.stdout)
    except ValueError:
        result = {"unparsed_stdout": done.stdout, "stderr": done.stderr[-2000:]}
    recorded_file = tmp_path / "recorded.jsonl"
    recorded = [json.loads(line) for line in recorded_file.read_text().splitlines()] \
        if recorded_file.exists() else []
    debug_text = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
    return Run(fake, result, project, recorded, debug_text)


def offline_env(tmp_path: Path, fake_url: str) -> dict[str, str]:
    """The variables that keep ``claude`` offline, on the fake server, in a test's home."""
    home = tmp_path / "home"
    return {
        "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "ANTHROPIC_API_KEY": "sk-ant-dummy-offline", "ANTHROPIC_BASE_URL": fake_url,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }


def _claude(tmp_path: Path, project: Path, prompt: str, *, allowed: str, env: dict[str, str],
            fake: FakeAnthropic, extra_env: dict[str, str] | None,
            ) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run ``claude -p`` once against the fake server; returns the process and debug log."""
    env.update({**offline_env(tmp_path, fake.url), **(extra_env or {})})
    debug = tmp_path / "debug.log"
    done = subprocess.run(
        [str(claude()), "-p", prompt, "--output-format", "json", "--allowedTools", allowed,
         "--max-turns", "4", "--debug-file", str(debug)],
        cwd=project, env=env, capture_output=True, text=True, timeout=180,
        stdin=subprocess.DEVNULL, check=False)
    return done, debug


def test_baseline_without_hooks_the_model_sees_the_cpf(tmp_path: Path) -> None:
    # The control: with no hook installed the fake model receives the raw value.
    project = tmp_path / "project"
    project.mkdir()
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt", "description": "Show data",
                             "timeout": 60000})
    run = run_claude(tmp_path, project, "mostre os dados", script)
    assert CPF in run.model_got()


def test_a_bash_command_with_a_cpf_runs_with_the_placeholder(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    script = Script("Bash", {"command": f"echo 'cliente CPF {CPF}' > out.txt",
                             "description": "Save the customer line", "timeout": 60000})
    run = run_claude(tmp_path, project, "salve a linha do cliente", script)
    assert (project / "out.txt").read_text(encoding="utf-8") == "cliente CPF [CPF]\n"
    ran = run.post_tool_inputs()
    assert ran == [{"command": "echo 'cliente CPF [CPF]' > out.txt",
                    "description": "Save the customer line", "timeout": 60000}]


def test_bash_output_with_a_cpf_reaches_the_model_redacted(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF} ok\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt", "description": "Show data",
                             "timeout": 60000})
    run = run_claude(tmp_path, project, "mostre os dados", script)
    got = run.model_got()
    assert "cliente CPF [CPF] ok" in got
    assert CPF not in got and "52998224725" not in got
    assert "does not match" not in run.debug_log  # the replacement was not ignored


def test_a_read_of_a_file_with_a_cnpj_reaches_the_model_redacted(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    data = project / "fornecedores.csv"
    data.write_text(f"razao;cnpj\nACME LTDA;{CNPJ}\n", encoding="utf-8")
    script = Script("Read", {"file_path": str(data)})
    run = run_claude(tmp_path, project, "leia o arquivo", script)
    got = run.model_got()
    assert "ACME LTDA;[CNPJ]" in got
    assert CNPJ not in got


def test_a_prompt_with_a_cpf_never_reaches_the_server(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_claude(tmp_path, project, f"rode o comando para o cliente CPF {CPF}",
                     Script(tool=None))
    assert run.fake.messages_posts == []
    assert "Mensagem bloqueada pelo redactor" in json.dumps(run.result, ensure_ascii=False)
    assert "CPF" in run.result.get("result", "")


def test_a_deny_rule_stops_a_prd_command_and_the_model_gets_the_reason(tmp_path: Path) -> None:
    reason = "Regra: nenhuma ação automatizada em QAS ou PRD"
    project = make_project(tmp_path, config=f"""
[[rules]]
name = "no-qas-prd"
pattern = "(?i)\\\\b(?:PRD|QAS|sapprd\\\\d+|sapqas\\\\d+)\\\\b"
reason = "{reason}"
""")
    script = Script("Bash", {"command": "ssh sapprd01 'stopsap r3' && touch ran.txt",
                             "description": "Stop PRD", "timeout": 60000})
    run = run_claude(tmp_path, project, "pare o sistema", script)
    assert not (project / "ran.txt").exists()
    results = run.fake.tool_results()
    assert results and results[0].get("is_error") is True
    assert reason in json.dumps(results, ensure_ascii=False)


def test_a_forced_internal_error_fails_closed(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    script = Script("Bash", {"command": f"echo 'CPF {CPF}' > leaked.txt",
                             "description": "Write", "timeout": 60000})
    run = run_claude(tmp_path, project, "escreva o arquivo", script,
                     extra_env={"REDACTOR_TEST_FAULT": "PreToolUse,PostToolUse"})
    assert not (project / "leaked.txt").exists()
    results = run.fake.tool_results()
    got = json.dumps(results, ensure_ascii=False)
    assert results and results[0].get("is_error") is True
    assert "bloqueada por segurança" in got and "InjectedFault" in got
    assert CPF not in got
    log = (tmp_path / "state" / "redactor" / "redactor.log").read_text(encoding="utf-8")
    assert "event=PreToolUse error=InjectedFault" in log


def test_a_failing_post_hook_withholds_the_output(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt", "description": "Show",
                             "timeout": 60000})
    run = run_claude(tmp_path, project, "mostre", script,
                     extra_env={"REDACTOR_TEST_FAULT": "PostToolUse"})
    got = run.model_got()
    assert CPF not in got
    assert "saída retida pelo redactor" in got


def test_a_broken_configuration_blocks_the_prompt(tmp_path: Path) -> None:
    project = make_project(tmp_path, config="[detection\n")
    script = Script("Bash", {"command": "touch ran.txt", "description": "x", "timeout": 60000})
    run = run_claude(tmp_path, project, "rode", script)
    assert run.fake.messages_posts == []
    assert not (project / "ran.txt").exists()
    assert "ConfigError" in run.result.get("result", "")
    log = (tmp_path / "state" / "redactor" / "redactor.log").read_text(encoding="utf-8")
    assert "ConfigError" in log and ".redactor.toml" in log


def test_without_wrapping_a_failing_command_leaks_and_the_model_is_warned(tmp_path: Path) -> None:
    # Documented gap: PostToolUseFailure cannot rewrite; the hook can only warn.
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"CPF {CPF}\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt; exit 3", "description": "Fail",
                             "timeout": 60000})
    run = run_claude(tmp_path, project, "rode", script)
    posts = json.dumps(run.fake.messages_posts[-1], ensure_ascii=False)
    assert CPF in run.model_got()
    assert "Aviso do redactor" in posts


def test_bash_wrapping_scrubs_failing_commands_and_keeps_the_exit_status(tmp_path: Path) -> None:
    project = make_project(tmp_path, config="[hooks]\nwrap_bash = true\n")
    (project / "data.txt").write_text(f"CPF {CPF}\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt; echo erro >&2; exit 3",
                             "description": "Fail", "timeout": 60000})
    run = run_claude(tmp_path, project, "rode", script)
    results = run.fake.tool_results()
    got = json.dumps(results, ensure_ascii=False)
    assert CPF not in got
    assert "CPF [CPF]" in got and "erro" in got
    assert results[0].get("is_error") is True and "Exit code 3" in got


def test_an_unreadable_post_tool_use_stops_the_turn_and_seals_the_session(
        tmp_path: Path) -> None:
    # The drill makes the hook treat the PostToolUse event as unreadable input: no
    # withheld replacement can be built without the tool's shape, so the turn stops
    # (continue:false) before the output reaches the model.
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    script = Script("Bash", {"command": "cat data.txt", "description": "Show",
                             "timeout": 60000})
    run = run_claude(tmp_path, project, "mostre", script,
                     extra_env={"REDACTOR_TEST_FAULT": "unreadable-PostToolUse"})
    assert CPF not in json.dumps(run.fake.messages_posts, ensure_ascii=False)
    assert len(run.fake.messages_posts) == 1  # only the request that asked for the tool
    assert run.result.get("terminal_reason") == "hook_stopped"
    # Claude Code keeps the raw output in the session: the next prompt of that session
    # would carry it to the model, so redactor blocks it.
    session = run.result["session_id"]
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env["XDG_RUNTIME_DIR"] = runtime
    try:
        with serving(Script(tool=None)) as fake:
            env.update(offline_env(tmp_path, fake.url))
            done = subprocess.run(
                [str(claude()), "-p", "e agora?", "--resume", session, "--output-format", "json",
                 "--max-turns", "2"], cwd=project, env=env, capture_output=True, text=True,
                timeout=180, stdin=subprocess.DEVNULL, check=False)
            assert fake.messages_posts == []
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
    assert "sessão foi selada" in done.stdout
    assert CPF not in done.stdout


def test_a_hook_that_cannot_start_blocks_where_claude_knows_on_failure(tmp_path: Path) -> None:
    # The installer asks the Claude Code it is installing for: 2.1.295 and later get
    # onFailure "block", so a hook process that cannot even start (here: its Python is
    # gone) stops the prompt; older releases let the call through (README: paths open).
    project = tmp_path / "project"
    project.mkdir()
    gone = "/nonexistent/bin/python -I -S /nonexistent/redactor/serve/entry.py claude"
    install = subprocess.run(
        [sys.executable, "-m", "redactor", "install", "claude", "--project", str(project),
         "--claude-bin", str(claude()), "--command", gone],
        capture_output=True, text=True, timeout=60, check=False)
    assert install.returncode == 0, install.stderr
    hooks = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    handlers = [h for groups in hooks.values() for g in groups for h in g["hooks"]]
    script = Script("Bash", {"command": "touch ran.txt", "description": "x", "timeout": 60000})
    run = run_claude(tmp_path, project, "rode", script)
    if release() >= (2, 1, 295):
        assert all(h.get("onFailure") == "block" for h in handlers)
        assert run.fake.messages_posts == []
        assert not (project / "ran.txt").exists()
    else:
        assert not any("onFailure" in h for h in handlers)
        assert "onFailure" in install.stderr  # the installer said what is missing
        assert (project / "ran.txt").exists()


@pytest.fixture
def login_home() -> Iterator[Path]:
    """A home folder with a login-shaped name right under /home, removed afterwards."""
    import secrets

    if not os.access("/home", os.W_OK):
        pytest.skip("/home is not writable here, so no home folder can be made for the test")
    name = "tcarvalho" + "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(4))
    home = Path("/home") / name
    home.mkdir()
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_a_project_in_the_users_own_home_can_be_read_by_absolute_path(
        tmp_path: Path, login_home: Path) -> None:
    # Claude Code's Read takes absolute paths: under /home/<login> the hook must not
    # turn the login into a placeholder (a path that names no file).
    project = make_project(tmp_path, project=login_home / "projeto")
    readme = project / "README.md"
    readme.write_text("Projeto interno: relatorio mensal\n", encoding="utf-8")
    script = Script("Read", {"file_path": str(readme)})
    run = run_claude(tmp_path, project, "leia o README", script,
                     extra_env={"HOME": str(login_home)})
    got = run.model_got()
    assert "relatorio mensal" in got
    assert "[USERNAME]" not in got
    assert run.post_tool_inputs() == [{"file_path": str(readme)}]

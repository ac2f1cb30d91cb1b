"""End to end with the real Codex CLI, offline, against a fake Responses API.

The CLI (npm @openai/codex, pinned in tests/run.sh) runs ``codex exec`` in a temporary
project with hooks registered by ``redactor install codex``, trusted by the hashes
the installer computed (no ``--dangerously-bypass-hook-trust``: a wrong hash would
make Codex skip the hooks silently, and these tests fail).  Assertions look at what
executed (side-effect files) and at what the fake model server received; Codex
prints the original output for display, so its own output proves nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.engine import stop_engine
from tests.e2e.fake_responses import MODEL, FakeResponses, Step, serving, shell
from tests.needs import require_npm_cli

REPO = Path(__file__).resolve().parents[2]
CODEX_VERSION = "0.171.0"
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"


def codex_binary() -> Path | None:
    explicit = os.environ.get("REDACTOR_CODEX_BIN")
    candidates = [Path(explicit)] if explicit else []
    candidates.append(REPO / ".cache" / "codex" / "node_modules" / ".bin" / "codex")
    return next((c for c in candidates if c.is_file()), None)


CODEX = codex_binary()


@pytest.fixture(autouse=True)
def codex_installed() -> None:
    """Skipped without the pinned CLI (failed under tests/run.sh: tests/needs.py)."""
    require_npm_cli("the Codex CLI", CODEX is not None, f"@openai/codex@{CODEX_VERSION}",
                    ".cache/codex")


CONFIG = """\
model = "{model}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false

[model_providers.fake]
name = "Fake"
base_url = "{url}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
"""


@dataclass
class Run:
    fake: FakeResponses
    done: subprocess.CompletedProcess[str]
    project: Path
    state: Path

    def outputs(self) -> str:
        return json.dumps(self.fake.tool_outputs(), ensure_ascii=False)

    def log(self) -> str:
        path = self.state / "redactor" / "redactor.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""


def make_project(tmp_path: Path, config: str | None = None) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    if config is not None:
        (project / ".redactor.toml").write_text(config, encoding="utf-8")
    return project


def install(tmp_path: Path, *args: str) -> None:
    env = {**os.environ, "HOME": str(tmp_path / "home"),
           "CODEX_HOME": str(tmp_path / "home" / ".codex")}
    done = subprocess.run([sys.executable, "-m", "redactor", "install", "codex", *args],
                          capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stderr


def run_codex(tmp_path: Path, project: Path, prompt: str, script: list[Step], *,
              where: tuple[str, ...] = ("--user",), flags: tuple[str, ...] = (),
              extra_env: dict[str, str] | None = None) -> Run:
    assert CODEX is not None
    home = tmp_path / "home"
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update({"HOME": str(home), "CODEX_HOME": str(codex_home), "XDG_RUNTIME_DIR": runtime,
                "XDG_STATE_HOME": str(tmp_path / "state"), **(extra_env or {})})
    try:
        with serving(script) as fake:
            (codex_home / "config.toml").write_text(
                CONFIG.format(model=MODEL, url=fake.base_url), encoding="utf-8")
            if where:
                install(tmp_path, *where)
            done = subprocess.run(
                [str(CODEX), "exec", "--skip-git-repo-check", *flags, prompt],
                cwd=project, env=env, capture_output=True, text=True, timeout=240,
                stdin=subprocess.DEVNULL, check=False)
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
    return Run(fake, done, project, tmp_path / "state")


def test_baseline_without_hooks_the_model_sees_the_values(tmp_path: Path) -> None:
    # The control: with no hook installed the fake model receives the raw values.
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF} fornecedor {CNPJ}\n", "utf-8")
    run = run_codex(tmp_path, project, "mostre os dados", [shell("cat data.txt")], where=())
    assert CPF in run.outputs() and CNPJ in run.outputs()


def test_shell_output_with_a_cpf_and_a_cnpj_never_reaches_the_server(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF} fornecedor {CNPJ}\n", "utf-8")
    run = run_codex(tmp_path, project, "mostre os dados", [shell("cat data.txt")])
    outputs = run.outputs()
    assert "cliente CPF [CPF] fornecedor [CNPJ]" in outputs
    assert "executou normalmente" in outputs  # says redacted, not failed
    everything = run.fake.all_text()
    assert CPF not in everything and CNPJ not in everything
    assert "52998224725" not in everything


def test_a_command_with_a_cpf_runs_with_the_placeholder_when_codex_asks_nobody(
        tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_codex(tmp_path, project, "salve a linha",
                    [shell(f"echo 'cliente CPF {CPF}' > out.txt")])
    assert (project / "out.txt").read_text(encoding="utf-8") == "cliente CPF [CPF]\n"
    assert CPF not in run.outputs()


def test_a_command_with_a_cpf_is_refused_when_codex_would_ask(tmp_path: Path) -> None:
    # --approve-for-me: the event says permission_mode "default"; an "allow" would skip
    # the approval, so the call is replaced by one that only prints the refusal.
    project = make_project(tmp_path)
    run = run_codex(tmp_path, project, "salve a linha",
                    [shell(f"echo 'cliente CPF {CPF}' > out.txt")], flags=("--approve-for-me",))
    assert not (project / "out.txt").exists()
    outputs = run.outputs()
    assert "chamada recusada" in outputs and "CPF" in outputs
    assert CPF not in outputs  # the refusal does not echo the command back


def test_a_prompt_with_a_cpf_makes_no_model_request(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_codex(tmp_path, project, f"rode o comando para o cliente CPF {CPF}",
                    [shell("touch ran.txt")])
    assert run.fake.requests == []
    assert not (project / "ran.txt").exists()


def test_a_deny_rule_stops_the_command_and_the_reason_holds_no_value(tmp_path: Path) -> None:
    reason = "Regra: nenhuma ação automatizada em QAS ou PRD"
    project = make_project(tmp_path, config=f"""
[[rules]]
name = "no-qas-prd"
pattern = "(?i)\\\\b(?:PRD|QAS|sapprd\\\\d+)\\\\b"
reason = "{reason}"
""")
    run = run_codex(tmp_path, project, "pare o sistema",
                    [shell(f"ssh sapprd01 'stopsap r3 {CPF}' ; touch ran.txt")])
    assert not (project / "ran.txt").exists()
    outputs = run.outputs()
    assert reason in outputs
    assert CPF not in outputs


def test_a_forced_internal_error_does_not_run_the_call(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_codex(tmp_path, project, "escreva o arquivo",
                    [shell(f"echo 'CPF {CPF}' > leaked.txt")],
                    extra_env={"REDACTOR_TEST_FAULT": "PreToolUse"})
    assert not (project / "leaked.txt").exists()
    outputs = run.outputs()
    assert "bloqueada por segurança" in outputs and CPF not in outputs
    assert "event=PreToolUse error=InjectedFault" in run.log()


def test_a_failing_post_hook_withholds_the_output(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    run = run_codex(tmp_path, project, "mostre", [shell("cat data.txt")],
                    extra_env={"REDACTOR_TEST_FAULT": "PostToolUse"})
    assert CPF not in run.fake.all_text()
    assert "saída desta ferramenta foi retida" in run.outputs()


def test_a_stalled_engine_withholds_the_output(tmp_path: Path) -> None:
    # The engine hangs past the time budget: the warm server answers for it, closed.
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    config = tmp_path / "home" / ".config" / "redactor"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[hooks]\ntime_budget_seconds = 6\n", "utf-8")
    run = run_codex(tmp_path, project, "mostre", [shell("cat data.txt")],
                    extra_env={"REDACTOR_TEST_DELAY": "15",
                               "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")})
    # The first call may be answered in process while the server starts (no stall
    # there); whichever hook the stall hits, the value stays out.
    assert CPF not in run.fake.all_text()
    outputs = run.outputs()
    assert "bloqueada por segurança" in outputs or "foi retida" in outputs
    assert "hook server event=" in run.log() and "error=HookTimeout" in run.log()


def test_project_hooks_run_once_installed_and_trusted(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    run = run_codex(tmp_path, project, "mostre", [shell("cat data.txt")],
                    where=("--project", str(project)))
    assert (project / ".codex" / "hooks.json").exists()
    assert "cliente CPF [CPF]" in run.outputs()
    assert CPF not in run.fake.all_text()


def test_the_installer_hashes_match_what_codex_reports(tmp_path: Path) -> None:
    assert CODEX is not None
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    install(tmp_path, "--user")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env.update({"HOME": str(home), "CODEX_HOME": str(home / ".codex")})
    lines = [
        {"id": 1, "method": "initialize",
         "params": {"clientInfo": {"name": "redactor-tests", "version": "0"}}},
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(tmp_path)]}},
    ]
    process = subprocess.Popen([str(CODEX), "app-server"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=env, cwd=tmp_path)
    assert process.stdin is not None and process.stdout is not None
    try:
        for line in lines:
            process.stdin.write(json.dumps(line) + "\n")
            process.stdin.flush()
        answer: dict[str, object] = {}
        for raw in process.stdout:
            message = json.loads(raw)
            if message.get("id") == 2:
                answer = message
                break
    finally:
        process.kill()
        process.wait(timeout=30)
    text = json.dumps(answer)
    assert '"trustStatus": "trusted"' in text
    assert "untrusted" not in text and "modified" not in text

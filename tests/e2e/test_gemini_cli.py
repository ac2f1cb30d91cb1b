"""End to end with the real Gemini CLI, offline, against a fake Gemini API.

The CLI (npm @google/gemini-cli, pinned in tests/run.sh) runs headless (``-p``,
``--yolo`` so that its shell tool is offered, ``--skip-trust``) with hooks registered
in the user's settings by ``redactor install gemini``.  Assertions look at what
executed (side-effect files) and at what the fake model server received, never at
the CLI's own output.
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
from tests.e2e.fake_gemini import FakeGemini, Step, serving, shell
from tests.needs import require_npm_cli

REPO = Path(__file__).resolve().parents[2]
GEMINI_VERSION = "0.61.0"
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"
MODEL = "gemini-2.5-flash"


def gemini_binary() -> Path | None:
    explicit = os.environ.get("REDACTOR_GEMINI_BIN")
    candidates = [Path(explicit)] if explicit else []
    candidates.append(REPO / ".cache" / "gemini-cli" / "node_modules" / ".bin" / "gemini")
    return next((c for c in candidates if c.is_file()), None)


GEMINI = gemini_binary()


@pytest.fixture(autouse=True)
def gemini_installed() -> None:
    """Skipped without the pinned CLI (failed under tests/run.sh: tests/needs.py)."""
    require_npm_cli("the Gemini CLI", GEMINI is not None,
                    f"@google/gemini-cli@{GEMINI_VERSION}", ".cache/gemini-cli")


SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False},
}


@dataclass
class Run:
    fake: FakeGemini
    done: subprocess.CompletedProcess[str]
    project: Path
    state: Path

    def responses(self) -> str:
        return json.dumps(self.fake.function_responses(), ensure_ascii=False)

    def log(self) -> str:
        path = self.state / "redactor" / "redactor.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""


def make_project(tmp_path: Path, config: str | None = None) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    if config is not None:
        (project / ".redactor.toml").write_text(config, encoding="utf-8")
    return project


def run_gemini(tmp_path: Path, project: Path, prompt: str, script: list[Step], *,
               hooks: bool = True, model: str | None = MODEL,
               extra_env: dict[str, str] | None = None) -> Run:
    assert GEMINI is not None
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "GOOGLE_"))}
    env.update({"HOME": str(home), "GEMINI_CLI_HOME": str(home), "XDG_RUNTIME_DIR": runtime,
                "XDG_STATE_HOME": str(tmp_path / "state"), "GEMINI_API_KEY": "dummy-offline",
                **(extra_env or {})})
    if hooks:
        done = subprocess.run([sys.executable, "-m", "redactor", "install", "gemini", "--user"],
                              capture_output=True, text=True, timeout=60, env=env, check=False)
        assert done.returncode == 0, done.stderr
    try:
        with serving(script) as fake:
            env["GOOGLE_GEMINI_BASE_URL"] = fake.origin
            command = [str(GEMINI), "--yolo", "--skip-trust", "-p", prompt]
            if model:
                command[1:1] = ["-m", model]
            done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True,
                                  timeout=240, stdin=subprocess.DEVNULL, check=False)
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
    return Run(fake, done, project, tmp_path / "state")


def test_baseline_without_hooks_the_model_sees_the_values(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF} fornecedor {CNPJ}\n", "utf-8")
    run = run_gemini(tmp_path, project, "mostre os dados", [shell("cat data.txt")],
                     hooks=False)
    assert CPF in run.responses() and CNPJ in run.responses()


def test_shell_output_with_a_cpf_and_a_cnpj_never_reaches_the_server(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF} fornecedor {CNPJ}\n", "utf-8")
    run = run_gemini(tmp_path, project, "mostre os dados", [shell("cat data.txt")])
    responses = run.responses()
    assert "cliente CPF [CPF] fornecedor [CNPJ]" in responses
    assert "executou normalmente" in responses
    everything = run.fake.all_text()
    assert CPF not in everything and CNPJ not in everything
    assert "52998224725" not in everything


def test_a_command_with_a_cpf_runs_with_the_placeholder(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_gemini(tmp_path, project, "salve a linha",
                     [shell(f"echo 'cliente CPF {CPF}' > out.txt")])
    assert (project / "out.txt").read_text(encoding="utf-8") == "cliente CPF [CPF]\n"
    assert CPF not in run.responses()


def test_a_prompt_with_a_cpf_makes_no_model_request_at_all(tmp_path: Path) -> None:
    # No -m: the CLI's model router would be called first; BeforeAgent stops it too.
    project = make_project(tmp_path)
    run = run_gemini(tmp_path, project, f"rode o comando para o cliente CPF {CPF}",
                     [shell("touch ran.txt")], model=None)
    assert run.fake.log == []
    assert not (project / "ran.txt").exists()


def test_before_model_redacts_prompt_text_that_does_not_block(tmp_path: Path) -> None:
    # An e-mail address does not bounce the prompt; the model gets the placeholder.
    project = make_project(tmp_path)
    address = "fulano.tal@example.com"
    run = run_gemini(tmp_path, project, f"escreva um e-mail para {address}", [])
    assert run.fake.requests
    everything = run.fake.all_text()
    assert address not in everything
    assert "[EMAIL]" in everything or "[EMAIL_ADDRESS]" in everything


def test_a_deny_rule_stops_the_command_and_the_reason_holds_no_value(tmp_path: Path) -> None:
    reason = "Regra: nenhuma ação automatizada em QAS ou PRD"
    project = make_project(tmp_path, config=f"""
[[rules]]
name = "no-qas-prd"
pattern = "(?i)\\\\b(?:PRD|QAS|sapprd\\\\d+)\\\\b"
reason = "{reason}"
""")
    run = run_gemini(tmp_path, project, "pare o sistema",
                     [shell(f"ssh sapprd01 'stopsap r3 {CPF}' ; touch ran.txt")])
    assert not (project / "ran.txt").exists()
    responses = run.responses()
    assert reason in responses
    assert CPF not in responses


def test_a_forced_internal_error_does_not_run_the_call(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    run = run_gemini(tmp_path, project, "escreva o arquivo",
                     [shell(f"echo 'CPF {CPF}' > leaked.txt")],
                     extra_env={"REDACTOR_TEST_FAULT": "BeforeTool"})
    assert not (project / "leaked.txt").exists()
    responses = run.responses()
    assert "bloqueada por segurança" in responses and CPF not in responses
    assert "event=BeforeTool error=InjectedFault" in run.log()


def test_a_failing_after_tool_hook_withholds_the_output(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    run = run_gemini(tmp_path, project, "mostre", [shell("cat data.txt")],
                     extra_env={"REDACTOR_TEST_FAULT": "AfterTool"})
    assert CPF not in run.fake.all_text()
    assert "saída desta ferramenta foi retida" in run.responses()


def test_a_stalled_engine_refuses_the_call(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "data.txt").write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    config = tmp_path / "home" / ".config" / "redactor"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[hooks]\ntime_budget_seconds = 6\n", "utf-8")
    run = run_gemini(tmp_path, project, "mostre", [shell("cat data.txt")],
                     extra_env={"REDACTOR_TEST_DELAY": "15",
                                "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")})
    assert CPF not in run.fake.all_text()
    assert "hook server event=" in run.log() and "HookTimeout" in run.log()

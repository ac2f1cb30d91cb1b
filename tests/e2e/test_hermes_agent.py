"""End to end with the real hermes-agent 0.19.0 against a fake OpenAI server on 127.0.0.1.

Each scenario runs one Hermes turn in its own process (HERMES_HOME and the plugin
manager are process-global): tests/e2e/hermes_driver.py discovers plugins (ours
through its ``hermes_agent.plugins`` entry point, enabled by ``redactor install
hermes``), registers shell hooks the way the CLI does (without a terminal), and runs
``AIAgent.run_conversation``.  Assertions read what the fake server received and
the session database.
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
from typing import Any

import pytest

from tests.e2e.engine import stop_engine
from tests.e2e.fake_openai import ChatScript, FakeOpenAI, serving

# Skipped without hermes-agent (failed under tests/run.sh: tests/needs.py).
pytestmark = pytest.mark.needs("hermes_cli")

DRIVER = Path(__file__).with_name("hermes_driver.py")
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"
PRD_REASON = "Regra: nenhuma ação automatizada em QAS ou PRD"
PRD_RULE = ('[[rules]]\nname = "prd"\npattern = "(?i)prd"\ntools = "read_file"\n'
            f'reason = "{PRD_REASON}"\n')


@dataclass
class Turn:
    fake: FakeOpenAI
    result: dict[str, Any]
    stderr: str
    home: Path

    def wire(self) -> str:
        """Everything the provider received, as one string."""
        return json.dumps(self.fake.chat_requests(), ensure_ascii=False)

    def agent_log(self) -> str:
        log = self.home / "logs" / "agent.log"
        return log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""


def setup_home(tmp_path: Path, *, shell: bool = False, plugin: bool = True, config: str = "",
               files: dict[str, str] | None = None) -> tuple[Path, Path, dict[str, str]]:
    home, cwd, xdg = tmp_path / "home", tmp_path / "cwd", tmp_path / "xdg"
    for folder in (home, cwd, xdg / "redactor"):
        folder.mkdir(parents=True)
    (home / "config.yaml").write_text(
        "# operator settings\n"
        "model: {provider: custom, base_url: 'http://127.0.0.1:1/v1', default: fake-model,"
        " api_key: dummy-key}\n"
        "security: {tirith_enabled: false, allow_lazy_installs: false}\n"
        "hooks_auto_accept: false\n", encoding="utf-8")
    (xdg / "redactor" / "config.toml").write_text(config, encoding="utf-8")
    for name, content in (files or {}).items():
        (cwd / name).write_text(content, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "REDACTOR_"))}
    env.update({"HERMES_HOME": str(home), "HERMES_DISABLE_LAZY_INSTALLS": "1",
                "XDG_CONFIG_HOME": str(xdg), "XDG_STATE_HOME": str(tmp_path / "state")})
    args = ["install", "hermes", "--home", str(home)] + (["--shell"] if shell else [])
    subprocess.run([sys.executable, "-m", "redactor", *args], env=env, check=True,
                   capture_output=True, timeout=60)
    if not plugin:  # shell hook alone: take the plugin back out
        text = (home / "config.yaml").read_text(encoding="utf-8")
        (home / "config.yaml").write_text(text.replace("  - redactor\n", ""), encoding="utf-8")
    return home, cwd, env


def run_turn(tmp_path: Path, message: str, script: ChatScript, *, toolsets: str = "",
             **options: Any) -> Turn:
    home, cwd, env = setup_home(tmp_path, **options)
    runtime = tempfile.mkdtemp(prefix="rdxh", dir="/tmp")
    env["XDG_RUNTIME_DIR"] = runtime
    try:
        with serving(script) as fake:
            done = subprocess.run([sys.executable, str(DRIVER), fake.base_url, message,
                                   toolsets], env=env, cwd=cwd, capture_output=True, text=True,
                                  timeout=300, check=False)
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return Turn(fake, json.loads(done.stdout.strip().splitlines()[-1]), done.stderr, home)


def test_baseline_without_the_plugin_the_cpf_reaches_the_provider(tmp_path: Path) -> None:
    turn = run_turn(tmp_path, f"Meu CPF é {CPF}", ChatScript(), plugin=False)
    assert CPF in turn.wire()
    assert "pre_llm_call" not in turn.result["hooks"]


def test_redact_mode_the_model_sees_placeholders(tmp_path: Path) -> None:
    turn = run_turn(tmp_path, f"Cliente com CPF {CPF} e telefone (11) 98765-4321 ligou",
                    ChatScript(), config='[hermes]\nmode = "redact"\n')
    wire = turn.wire()
    assert "redactor" in turn.result["plugins"]
    assert CPF not in wire and "98765-4321" not in wire
    assert "Cliente com CPF [CPF] e telefone [PHONE] ligou" in wire
    assert "são dados pessoais substituídos pelo redactor" in wire  # the context note
    assert turn.result["api_calls"] == 1


def test_block_mode_on_0_19_falls_back_and_warns(tmp_path: Path) -> None:
    turn = run_turn(tmp_path, f"Ticket: CPF {CPF}, CNPJ {CNPJ}", ChatScript())
    wire = turn.wire()
    assert CPF not in wire and CNPJ not in wire
    assert "Mensagem bloqueada pelo redactor" in wire and "CNPJ, CPF" in wire
    # 0.19.0 ignores the block directive: the turn still makes a (clean) request.
    assert turn.result["turn_exit_reason"] != "blocked_by_plugin_pre_llm_call"
    assert "ignores pre_llm_call blocks" in turn.stderr + turn.agent_log()
    assert "replaced by the block notice on the wire" in turn.agent_log()


def test_a_tool_result_with_a_cnpj_reaches_the_provider_redacted(tmp_path: Path) -> None:
    script = ChatScript(tool="read_file", arguments={"path": "fornecedores.csv"})
    turn = run_turn(tmp_path, "leia o arquivo de fornecedores", script, toolsets="file",
                    files={"fornecedores.csv": f"razao;cnpj\nACME LTDA;{CNPJ}\n"})
    requests = turn.fake.chat_requests()
    assert len(requests) == 2
    tool_messages = [m for m in requests[-1]["messages"] if m.get("role") == "tool"]
    assert tool_messages and "ACME LTDA;[CNPJ]" in json.dumps(tool_messages,
                                                               ensure_ascii=False)
    assert CNPJ not in turn.wire()
    stored = json.dumps(turn.result["rows"], ensure_ascii=False)
    assert "[CNPJ]" in stored and CNPJ not in stored  # the transcript's tool row too


def test_a_deny_rule_blocks_a_tool_call(tmp_path: Path) -> None:
    reason = PRD_REASON
    config = PRD_RULE
    script = ChatScript(tool="read_file", arguments={"path": "prd-senhas.txt"})
    turn = run_turn(tmp_path, "leia o arquivo do PRD", script, toolsets="file", config=config,
                    files={"prd-senhas.txt": "segredo-do-prd\n"})
    wire = turn.wire()
    assert reason in wire
    assert "segredo-do-prd" not in wire


def test_the_shell_hook_runs_with_the_installers_consent_entry(tmp_path: Path) -> None:
    reason = PRD_REASON
    config = PRD_RULE
    script = ChatScript(tool="read_file", arguments={"path": "prd-senhas.txt"})
    turn = run_turn(tmp_path, "leia o arquivo do PRD", script, toolsets="file", config=config,
                    shell=True, plugin=False, files={"prd-senhas.txt": "segredo-do-prd\n"})
    # Only the shell hooks are live: the plugin's own hooks are absent.
    assert "transform_tool_result" not in turn.result["hooks"]
    assert "pre_tool_call" in turn.result["hooks"]  # registered without a terminal
    assert "not allowlisted" not in turn.stderr + turn.agent_log()
    wire = turn.wire()
    assert reason in wire and "segredo-do-prd" not in wire
    allowlist = json.loads((turn.home / "shell-hooks-allowlist.json").read_text())
    assert {a["event"] for a in allowlist["approvals"]} == {"pre_llm_call", "pre_tool_call"}

"""The Claude Code plugin, installed by the real CLI from this repository's marketplace.

``claude plugin marketplace add <repo>`` and ``claude plugin install redactor@redactor``
run in a temporary home on every pinned release; ``claude -p`` then runs offline against
the fake Messages API with no hook in any settings file, so whatever is redacted or
blocked was done by the plugin's hook.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.e2e.engine import stop_engine
from tests.e2e.fake_anthropic import Script, serving
from tests.e2e.test_claude_cli import (  # claude_release: each test runs on every pin
    CNPJ,
    CPF,
    REPO,
    _claude,
    claude,
    claude_release,  # noqa: F401
)

BIN = Path(sys.executable).parent


def claude_cmd(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "CLAUDE_CONFIG_DIR": str(home / ".claude"), "DISABLE_AUTOUPDATER": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1"}
    return subprocess.run([str(claude()), *args], env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, check=False)


def install_plugin(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    for step in (("plugin", "marketplace", "add", str(REPO)),
                 ("plugin", "install", "redactor@redactor")):
        done = claude_cmd(home, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert settings["enabledPlugins"] == {"redactor@redactor": True}
    assert "hooks" not in settings
    return home


def path_without_redactor() -> str:
    """This PATH minus every folder that holds a redactor program."""
    keep = [folder for folder in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if folder and not any((Path(folder) / name).exists()
                                  for name in ("redactor", "redactor-hook"))]
    return os.pathsep.join(keep)


def run(tmp_path: Path, project: Path, prompt: str, script: Script,
        path: str) -> tuple[list[dict[str, object]], str, str]:
    """One ``claude -p``: (requests the fake model got, their tool results, stdout)."""
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    env.update({"PATH": path, "XDG_RUNTIME_DIR": runtime})
    try:
        with serving(script) as fake:
            done, _ = _claude(tmp_path, project, prompt, allowed="Bash Read", env=env,
                              fake=fake, extra_env=None)
            return (fake.messages_posts, json.dumps(fake.tool_results(), ensure_ascii=False),
                    done.stdout)
    finally:
        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)


def test_the_marketplace_and_plugin_validate_strictly() -> None:
    for target in (REPO, REPO / "plugins" / "redactor"):
        done = subprocess.run([str(claude()), "plugin", "validate", "--strict", str(target)],
                              capture_output=True, text=True, timeout=120, check=False,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Validation passed" in done.stdout


def test_the_installed_plugin_redacts_output_and_blocks_a_prompt(tmp_path: Path) -> None:
    install_plugin(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / "data.txt").write_text(f"cliente CPF {CPF} fornecedor {CNPJ}\n",
                                      encoding="utf-8")
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"
    script = Script("Bash", {"command": "cat data.txt", "description": "Show data",
                             "timeout": 60000})
    posts, results, _ = run(tmp_path, project, "mostre os dados", script, path)
    assert "cliente CPF [CPF] fornecedor [CNPJ]" in results
    sent = json.dumps(posts, ensure_ascii=False)
    assert CPF not in sent and CNPJ not in sent
    posts, _, stdout = run(tmp_path, project, f"rode para o cliente CPF {CPF}",
                           Script(tool=None), path)
    assert posts == []  # the model got nothing; the CLI shows the user their own prompt
    assert "Mensagem bloqueada pelo redactor" in stdout


def test_without_redactor_the_plugin_blocks_and_nothing_is_sent(tmp_path: Path) -> None:
    install_plugin(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    script = Script("Bash", {"command": "touch ran.txt", "description": "x", "timeout": 60000})
    posts, _, stdout = run(tmp_path, project, "liste os arquivos", script,
                           path_without_redactor())
    assert posts == []
    assert not (project / "ran.txt").exists()
    assert "redactor is not installed" in stdout and "pip install redactor" in stdout

"""``redactor doctor`` on Codex, Gemini CLI and the Claude Code plugin.

Each test builds a host's configuration in a temporary home with the real installers,
then reads the checks; the self-tests run the registered command for real (``python -m
redactor hook HOST`` answers in process, the plugin script through the warm engine).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from redactor.doctor import Check, run_checks
from redactor.install import install_claude, install_codex, install_gemini
from tests.e2e.engine import stop_engine

REPO = Path(__file__).resolve().parents[2]
CPF = "529.982.247-25"


def command(host: str) -> str:
    return f"{shlex.quote(sys.executable)} -m redactor hook {host}"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home with no host configured, and a runtime folder of its own for the engine."""
    home = tmp_path / "home"
    home.mkdir()
    runtime = tempfile.mkdtemp(prefix="rdx", dir="/tmp")
    for name, value in {"HOME": home, "CLAUDE_CONFIG_DIR": home / ".claude",
                        "CODEX_HOME": home / ".codex", "GEMINI_CLI_HOME": home,
                        "HERMES_HOME": home / ".hermes", "XDG_RUNTIME_DIR": runtime}.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.delenv("REDACTOR_HOOK_BIN", raising=False)
    (tmp_path / "project").mkdir()
    try:
        yield home
    finally:
        stop_engine(dict(os.environ))


def by_name(checks: list[Check], prefix: str) -> list[Check]:
    return [c for c in checks if c.name.startswith(prefix)]


def test_codex_hooks_trusted_and_working_then_untrusted_after_an_edit(
        home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    install_codex(project, command=command("codex"))
    checks = run_checks(project)
    [hooks] = by_name(checks, "Codex hooks (project)")
    assert hooks.ok, hooks.detail
    [self_test] = by_name(checks, "Codex self-test")
    assert self_test.ok and "canary CPF redacted" in self_test.detail
    [open_paths] = by_name(checks, "Codex: paths left open")
    assert open_paths.warning and "exec_command" in open_paths.detail
    assert all(c.ok for c in checks), [c for c in checks if not c.ok]
    # Editing a handler by hand revokes Codex's trust: doctor says so, and which event.
    hooks_file = project / ".codex" / "hooks.json"
    data = json.loads(hooks_file.read_text(encoding="utf-8"))
    data["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"] = 31
    hooks_file.write_text(json.dumps(data), encoding="utf-8")
    [hooks] = by_name(run_checks(project), "Codex hooks (project)")
    assert not hooks.ok and "not trusted" in hooks.detail and "post_tool_use" in hooks.detail


def test_gemini_hooks_working_and_the_router_gap_named_until_a_model_is_fixed(
        home: Path, tmp_path: Path) -> None:
    install_gemini(command=command("gemini"))
    checks = run_checks(tmp_path / "project")
    [hooks] = by_name(checks, "Gemini CLI hooks (user)")
    assert hooks.ok, hooks.detail
    [self_test] = by_name(checks, "Gemini CLI self-test")
    assert self_test.ok, self_test.detail
    [open_paths] = by_name(checks, "Gemini CLI: paths left open")
    assert "router" in open_paths.detail
    settings = home / ".gemini" / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["model"] = {"name": "gemini-2.5-flash"}
    del data["hooks"]["BeforeModel"]
    settings.write_text(json.dumps(data), encoding="utf-8")
    checks = run_checks(tmp_path / "project")
    [hooks] = by_name(checks, "Gemini CLI hooks (user)")
    assert not hooks.ok and "missing BeforeModel" in hooks.detail
    [open_paths] = by_name(checks, "Gemini CLI: paths left open")
    assert "router" not in open_paths.detail and "--skip-trust" in open_paths.detail


def enable_plugin(home: Path) -> None:
    config = home / ".claude"
    (config / "plugins").mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps(
        {"enabledPlugins": {"redactor@redactor": True}}), encoding="utf-8")
    (config / "plugins" / "installed_plugins.json").write_text(json.dumps(
        {"version": 2, "plugins": {"redactor@redactor": [
            {"scope": "user", "installPath": str(REPO / "plugins" / "redactor")}]}}),
        encoding="utf-8")


def test_the_plugin_counts_as_the_claude_guard_and_is_self_tested(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enable_plugin(home)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:/usr/bin:/bin")
    checks = run_checks(tmp_path / "project")
    [plugin] = by_name(checks, "Claude Code plugin")
    assert plugin.ok and "redactor-hook" in plugin.detail
    [self_test] = by_name(checks, "plugin self-test")
    assert self_test.ok, self_test.detail
    assert not by_name(checks, "Claude Code hooks")  # the plugin is the guard
    # Settings hooks next to the plugin: both run, doctor warns.
    install_claude(tmp_path / "project" / ".claude" / "settings.json", command("claude"))
    warnings = [c for c in by_name(run_checks(tmp_path / "project"), "Claude Code plugin")
                if c.warning]
    assert len(warnings) == 1 and "both run" in warnings[0].detail


def test_a_plugin_without_redactor_on_path_fails(home: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    enable_plugin(home)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    checks = run_checks(tmp_path / "project")
    [plugin] = by_name(checks, "Claude Code plugin")
    assert not plugin.ok and "blocks every call" in plugin.detail
    [self_test] = by_name(checks, "plugin self-test")
    assert not self_test.ok  # the script blocked: no rewritten command came back
    assert CPF not in json.dumps([c.detail for c in checks])
    # A REDACTOR_HOOK_BIN that names no executable file is a failure too.
    named = tmp_path / "redactor-hook"
    named.write_text("#!/bin/sh\n")
    monkeypatch.setenv("REDACTOR_HOOK_BIN", str(named))
    [plugin] = by_name(run_checks(tmp_path / "project"), "Claude Code plugin")
    assert not plugin.ok and "REDACTOR_HOOK_BIN names no executable" in plugin.detail
    # A project's local settings that disable the plugin win over the user's.
    local = tmp_path / "project" / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text(json.dumps({"enabledPlugins": {"redactor@redactor": False}}))
    assert not by_name(run_checks(tmp_path / "project"), "Claude Code plugin")


def test_a_plugin_program_named_from_inside_the_project_fails(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.doctor import claude_plugin_checks

    enable_plugin(home)
    project = tmp_path / "project"
    planted = project / "bin" / "redactor-hook"
    planted.parent.mkdir()
    planted.write_text("#!/bin/sh\ncat >/dev/null; echo '{}'\n")
    planted.chmod(0o755)
    monkeypatch.setenv("REDACTOR_HOOK_BIN", str(planted))
    plugin = claude_plugin_checks(project)[0]
    assert not plugin.ok
    assert f"REDACTOR_HOOK_BIN lies inside the project folder {project}" in plugin.detail
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))  # as Claude Code sets it for hooks
    assert "inside the project folder" in claude_plugin_checks(elsewhere)[0].detail
    monkeypatch.delenv("CLAUDE_PROJECT_DIR")
    planted.chmod(0o777)
    assert "others may write it" in claude_plugin_checks(elsewhere)[0].detail
    planted.chmod(0o755)
    assert claude_plugin_checks(elsewhere)[0].ok


def test_doctor_says_which_user_file_is_read_as_a_project_file_and_which_drills_are_ignored(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir()
    named = project / "redactor.toml"
    named.write_text('[messages]\nlanguage = "en"\n')
    monkeypatch.setenv("REDACTOR_CONFIG", str(named))
    monkeypatch.setenv("REDACTOR_TEST_FAULT", "PreToolUse")
    monkeypatch.delenv("REDACTOR_TEST_SWITCHES")
    checks = run_checks(project)
    [loaded, note] = by_name(checks, "configuration")
    assert loaded.ok and not loaded.warning and str(named) in loaded.detail
    assert note.warning and note.detail == (
        f"{named} (REDACTOR_CONFIG) is inside the project folder {project}: read as a "
        "project file (tighten-only)")
    [drills] = by_name(checks, "failure drills")
    assert drills.warning and drills.detail.startswith("REDACTOR_TEST_FAULT ignored: ")
    # A loosening key there is the error, and the error says why.
    named.write_text('[allowlist]\nvalues = ["x"]\n')
    [failed] = by_name(run_checks(project), "configuration")
    assert not failed.ok and "allowlist.values" in failed.detail
    assert "read as a project file" in failed.detail


# ----------------------------------------------------------------------- Spark check

def fake_java(root: Path, banner: str, code: int = 0) -> Path:
    """A JAVA_HOME whose ``bin/java -version`` prints BANNER on stderr."""
    java = root / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho '{banner}' >&2\nexit {code}\n")
    java.chmod(0o755)
    return root


def pyspark_installed() -> bool:
    from importlib.util import find_spec

    return find_spec("pyspark") is not None


def test_spark_absent_is_no_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from redactor.doctor import spark_check

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyspark" else real(name, *a))
    check = spark_check()
    assert check.ok and not check.warning
    assert "not installed" in check.detail and "redactor-br[spark]" in check.detail


@pytest.mark.skipif(not pyspark_installed(), reason="PySpark is not installed")
def test_spark_without_java_or_with_an_old_one_is_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.doctor import spark_check

    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    missing = spark_check()
    assert missing.ok and missing.warning and "no Java runtime" in missing.detail

    monkeypatch.setenv("JAVA_HOME", str(fake_java(tmp_path / "jdk11",
                                                  'openjdk version "11.0.2" 2019-01-15')))
    old = spark_check()
    assert old.warning and "too old" in old.detail and "11.0.2" in old.detail

    # A banner line before the version (JAVA_TOOL_OPTIONS set) is read past.
    monkeypatch.setenv("JAVA_HOME", str(fake_java(
        tmp_path / "jdk11-opts", 'Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "11.0.2"')))
    assert "too old" in spark_check().detail

    monkeypatch.setenv("JAVA_HOME", str(fake_java(tmp_path / "broken", "crash", code=1)))
    broken = spark_check()
    assert broken.warning and "no Java runtime" in broken.detail

    monkeypatch.setenv("JAVA_HOME", str(fake_java(tmp_path / "jdk21",
                                                  'openjdk version "21.0.4" 2024-07-16')))
    fine = spark_check()
    assert fine.ok and not fine.warning and "21.0.4" in fine.detail


def test_the_spark_check_in_doctor_does_not_import_pyspark(home: Path) -> None:
    code = ("import sys; from redactor.doctor import run_checks; "
            "[c] = [c for c in run_checks() if c.name == 'Spark']; "
            "print(c.ok, 'pyspark' in sys.modules, c.detail.split(',')[0])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True, cwd=home)
    ok, imported, first = done.stdout.split(" ", 2)
    assert (ok, imported) == ("True", "False")
    assert first.startswith("PySpark") and (pyspark_installed() == ("not installed" not in first))


def test_doctor_names_the_baseline_keys_source_and_id_never_the_key(tmp_path: Path) -> None:
    from redactor.baseline import baseline_key
    from redactor.doctor import baseline_key_check

    team = "k" * 8 + "team-secret-0123456789"
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    none = baseline_key_check(env)
    assert none.ok and "none" in none.detail and "baseline.key" in none.detail
    named = baseline_key_check({**env, "REDACTOR_BASELINE_KEY": team})
    key = baseline_key({**env, "REDACTOR_BASELINE_KEY": team})
    assert key is not None and named.ok
    assert named.detail == f"key id {key.key_id}, from REDACTOR_BASELINE_KEY"
    assert team not in named.detail and key.key.hex() not in named.detail
    short = baseline_key_check({**env, "REDACTOR_BASELINE_KEY": "q7z-secret"})
    assert not short.ok and "shorter than 16" in short.detail
    assert "q7z" not in short.detail
    folder = tmp_path / "config" / "redactor"
    folder.mkdir(parents=True)
    (folder / "baseline.key").write_text("ab" * 32 + "\n", encoding="utf-8")
    os.chmod(folder / "baseline.key", 0o644)
    loose = baseline_key_check(env)
    assert not loose.ok and "chmod 600" in loose.detail


def test_doctor_names_the_pseudonym_key_and_vault_never_a_value(tmp_path: Path) -> None:
    from redactor import Settings
    from redactor.doctor import pseudonym_checks
    from redactor.pseudonyms.record import VaultWriter
    from redactor.pseudonyms.tokens import digest
    from redactor.results import Issued

    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    on = Settings(pseudonyms=True)
    assert pseudonym_checks(Settings(), env) == []
    [none] = pseudonym_checks(on, env)
    assert none.ok and "none yet" in none.detail
    assert not (tmp_path / "config" / "redactor" / "baseline.key").exists()  # not created
    writer = VaultWriter(on, env)
    writer(Issued(digest(b"k" * 32, "BR_CPF", "52998224725"), "BR_CPF", "52998224725"))
    writer.close()
    key, vault = pseudonym_checks(on, env)
    assert key.ok and "key id" in key.detail and vault.ok and "1 tokens" in vault.detail
    assert "52998224725" not in key.detail + vault.detail
    (tmp_path / "state" / "redactor" / "vault.db").chmod(0o644)
    _, loose = pseudonym_checks(on, env)
    assert not loose.ok and "chmod" in loose.detail

"""Merging hook entries into Claude Code's settings.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redactor.errors import ConfigError
from redactor.install import claude_settings_path, install_claude

COMMAND = "/opt/venv/bin/python -m redactor hook claude"

EXISTING = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                      "command": "~/bin/audit.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def settings_file(tmp_path: Path, content: object | str) -> Path:
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content),
                    encoding="utf-8")
    return path


def test_merge_keeps_everything_and_adds_our_entries(tmp_path: Path) -> None:
    path = settings_file(tmp_path, EXISTING)
    result = install_claude(path, COMMAND)
    assert result.changed and result.backup is not None
    assert json.loads(result.backup.read_text(encoding="utf-8")) == EXISTING
    merged = json.loads(path.read_text(encoding="utf-8"))
    assert merged["model"] == "opus" and merged["permissions"] == EXISTING["permissions"]
    assert merged["hooks"]["Stop"] == EXISTING["hooks"]["Stop"]
    assert merged["hooks"]["PreToolUse"][0] == EXISTING["hooks"]["PreToolUse"][0]
    assert merged["hooks"]["PreToolUse"][1] == {
        "matcher": "*", "hooks": [{"type": "command", "command": COMMAND, "timeout": 30}]}
    assert set(merged["hooks"]) == {"PreToolUse", "PostToolUse", "PostToolUseFailure",
                                    "UserPromptSubmit", "Stop"}


def test_install_is_idempotent_and_updates_a_moved_command(tmp_path: Path) -> None:
    path = settings_file(tmp_path, EXISTING)
    install_claude(path, COMMAND)
    first = path.read_text(encoding="utf-8")
    again = install_claude(path, COMMAND)
    assert not again.changed and again.backup is None
    assert path.read_text(encoding="utf-8") == first
    moved = install_claude(path, "/new/python -m redactor hook claude")
    assert moved.changed
    merged = json.loads(path.read_text(encoding="utf-8"))
    ours = [h for g in merged["hooks"]["PreToolUse"] for h in g["hooks"]
            if "redactor hook claude" in h["command"]]
    assert ours == [{"type": "command", "command": "/new/python -m redactor hook claude",
                     "timeout": 30}]


def test_dry_run_shows_the_change_and_writes_nothing(tmp_path: Path) -> None:
    path = settings_file(tmp_path, EXISTING)
    before = path.read_text(encoding="utf-8")
    result = install_claude(path, COMMAND, dry_run=True)
    assert result.changed and "+" in result.diff and COMMAND in result.diff
    assert path.read_text(encoding="utf-8") == before
    assert list(path.parent.iterdir()) == [path]


def test_invalid_settings_are_refused_with_file_and_line(tmp_path: Path) -> None:
    path = settings_file(tmp_path, '{\n  "model": "opus",\n  "hooks": {,\n}\n')
    before = path.read_text(encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        install_claude(path, COMMAND)
    assert str(path) in str(info.value) and "line 3" in str(info.value)
    assert path.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("content", ['["a"]', '{"hooks": []}', '{"hooks": {"PreToolUse": {}}}'])
def test_unexpected_shapes_are_refused(tmp_path: Path, content: str) -> None:
    with pytest.raises(ConfigError):
        install_claude(settings_file(tmp_path, content), COMMAND)


def test_new_file_and_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = claude_settings_path(tmp_path)
    assert path == tmp_path / ".claude" / "settings.json"
    assert install_claude(path, COMMAND).backup is None
    assert path.exists() and (path.stat().st_mode & 0o777) == 0o644
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert claude_settings_path(user=True) == tmp_path / "cfg" / "settings.json"


# ---------------------------------------------------------------------- Codex, Gemini

OLD_CODEX = "/opt/venv/bin/python -I -S /opt/venv/lib/redactor/hooks/entry.py codex"
NEW_CODEX = "/opt/venv2/bin/python -I -S /opt/venv2/lib/redactor/serve/entry.py codex"


def codex_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def test_codex_trust_hash_is_the_canonical_handler_digest() -> None:
    import hashlib

    from redactor.install import codex_trust_hash

    handler = {"type": "command", "command": "x", "timeout": 30}
    expected = json.dumps({"event_name": "pre_tool_use", "hooks": [
        {"async": False, "command": "x", "timeout": 30, "type": "command"}]},
        sort_keys=True, separators=(",", ":"))
    assert codex_trust_hash("PreToolUse", {"hooks": [handler]}, handler) == \
        "sha256:" + hashlib.sha256(expected.encode()).hexdigest()
    # A matcher counts, except on UserPromptSubmit; a missing timeout is Codex's 600.
    with_matcher = codex_trust_hash("PreToolUse", {"matcher": "Bash"}, handler)
    assert with_matcher != codex_trust_hash("PreToolUse", {}, handler)
    assert codex_trust_hash("UserPromptSubmit", {"matcher": "x"}, handler) == \
        codex_trust_hash("UserPromptSubmit", {}, handler)
    assert codex_trust_hash("PostToolUse", {}, {"command": "x"}) == \
        codex_trust_hash("PostToolUse", {}, {"type": "command", "command": "x", "timeout": 600})


def test_codex_install_trusts_its_handlers_and_keeps_the_config(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from redactor.install import codex_trust_entries, install_codex

    home = codex_env(tmp_path, monkeypatch)
    (home / "config.toml").write_text('# mine\nmodel = "o4"\n\n[features]\nplugins = false\n',
                                      encoding="utf-8")
    results = install_codex(user=True, command=OLD_CODEX)
    assert all(r.changed for r in results)
    text = (home / "config.toml").read_text(encoding="utf-8")
    assert text.startswith('# mine\nmodel = "o4"\n')
    config = tomllib.loads(text)
    hooks = json.loads((home / "hooks.json").read_text(encoding="utf-8"))
    trust = codex_trust_entries(home / "hooks.json", hooks)
    assert len(trust) == 3
    for key, digest in trust.items():
        assert config["hooks"]["state"][key]["trusted_hash"] == digest
    assert "projects" not in config
    # Installing again changes nothing; an upgrade moves the command and re-trusts it.
    assert not any(r.changed for r in install_codex(user=True, command=OLD_CODEX))
    install_codex(user=True, command=NEW_CODEX)
    hooks = json.loads((home / "hooks.json").read_text(encoding="utf-8"))
    commands = [h["command"] for groups in hooks["hooks"].values() for g in groups
                for h in g["hooks"]]
    assert commands == [NEW_CODEX] * 3
    config = tomllib.loads((home / "config.toml").read_text(encoding="utf-8"))
    for key, digest in codex_trust_entries(home / "hooks.json", hooks).items():
        assert config["hooks"]["state"][key]["trusted_hash"] == digest
    assert list(home.glob("config.toml.bak-*")) and list(home.glob("hooks.json.bak-*"))


def test_codex_project_install_trusts_the_project(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from redactor.install import install_codex

    home = codex_env(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    install_codex(project, command=NEW_CODEX)
    config = tomllib.loads((home / "config.toml").read_text(encoding="utf-8"))
    assert config["projects"][str(project.resolve())]["trust_level"] == "trusted"
    keys = list(config["hooks"]["state"])
    assert all(k.startswith(f"{project.resolve()}/.codex/hooks.json:") for k in keys)


def test_codex_install_refuses_an_untrusted_project_and_broken_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.install import install_codex

    home = codex_env(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    (home / "config.toml").write_text(
        f'[projects."{project.resolve()}"]\ntrust_level = "untrusted"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="untrusted"):
        install_codex(project, command=NEW_CODEX)
    (home / "config.toml").write_text("[broken\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid TOML"):
        install_codex(user=True, command=NEW_CODEX)
    (home / "config.toml").unlink()
    (home / "hooks.json").write_text("{", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid JSON"):
        install_codex(user=True, command=NEW_CODEX)


def test_codex_dry_run_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.install import install_codex

    home = codex_env(tmp_path, monkeypatch)
    results = install_codex(user=True, command=NEW_CODEX, dry_run=True)
    assert all(r.changed and r.diff for r in results)
    assert list(home.iterdir()) == []


def test_gemini_install_goes_to_the_user_settings_and_keeps_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.install import GEMINI_EVENTS, install_gemini

    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path))
    path = tmp_path / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"model": {"name": "gemini-2.5-pro"}, "hooks": {
        "BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command",
                                                            "command": "audit"}]}]}}),
                    encoding="utf-8")
    old = "/x/bin/python -I -S /x/redactor/hooks/entry.py gemini"
    assert install_gemini(command=old).changed
    assert not install_gemini(command=old).changed
    install_gemini(command=NEW_CODEX.replace("codex", "gemini"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["model"] == {"name": "gemini-2.5-pro"}
    assert data["hooks"]["BeforeTool"][0]["hooks"][0]["command"] == "audit"
    for event in GEMINI_EVENTS:
        ours = [h for g in data["hooks"][event] for h in g["hooks"]
                if "entry.py gemini" in h["command"]]
        assert len(ours) == 1 and ours[0]["timeout"] == 30_000
        assert "serve/entry.py" in ours[0]["command"]


# ---------------------------------------------------------------- Claude Code extras


def fake_claude(tmp_path: Path, output: str, code: int = 0) -> Path:
    program = tmp_path / "bin" / "claude"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f"#!/bin/sh\nprintf '%s\\n' '{output}'\nexit {code}\n", encoding="utf-8")
    program.chmod(0o755)
    return program


@pytest.mark.parametrize(("output", "code", "expected"), [
    ("2.1.332 (Claude Code)", 0, (2, 1, 332)),
    ("2.1.197 (Claude Code)", 0, (2, 1, 197)),
    ("not a version", 0, None),
    ("2.1.332 (Claude Code)", 1, None),
])
def test_claude_version_is_read_from_the_program(
        tmp_path: Path, output: str, code: int, expected: tuple[int, int, int] | None) -> None:
    from redactor.install import claude_version

    assert claude_version(fake_claude(tmp_path, output, code)) == expected
    assert claude_version(tmp_path / "missing") is None


def test_on_failure_block_only_for_a_claude_that_knows_it(tmp_path: Path) -> None:
    from redactor.install import claude_blocks_on_failure

    assert claude_blocks_on_failure((2, 1, 295)) and claude_blocks_on_failure((2, 2, 0))
    assert not claude_blocks_on_failure((2, 1, 294)) and not claude_blocks_on_failure(None)
    path = tmp_path / ".claude" / "settings.json"
    install_claude(path, COMMAND, block_on_failure=True)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    ours = [h for groups in hooks.values() for g in groups for h in g["hooks"]]
    assert len(ours) == 4 and all(h["onFailure"] == "block" for h in ours)
    older = tmp_path / "older" / "settings.json"
    install_claude(older, COMMAND)
    text = older.read_text(encoding="utf-8")
    assert "onFailure" not in text
    # Upgrading Claude Code and installing again adds the key to the same entries.
    assert install_claude(older, COMMAND, block_on_failure=True).changed
    again = json.loads(older.read_text(encoding="utf-8"))["hooks"]
    assert [len(g) for g in again.values()] == [1, 1, 1, 1]


def test_install_cli_sets_on_failure_by_the_claude_version(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str],
                                                           ) -> None:
    from redactor.cli import main
    from redactor.errors import UsageError

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    new = fake_claude(tmp_path / "new", "2.1.332 (Claude Code)")
    old = fake_claude(tmp_path / "old", "2.1.197 (Claude Code)")
    assert main(["install", "claude", "--project", str(tmp_path / "a"),
                 "--claude-bin", str(new), "--command", COMMAND]) == 0
    assert '"onFailure": "block"' in (tmp_path / "a" / ".claude" / "settings.json").read_text()
    assert main(["install", "claude", "--project", str(tmp_path / "b"),
                 "--claude-bin", str(old), "--command", COMMAND]) == 0
    assert "onFailure" not in (tmp_path / "b" / ".claude" / "settings.json").read_text()
    assert "needs Claude Code 2.1.295 or later" in capsys.readouterr().err
    assert main(["install", "claude", "--project", str(tmp_path / "c"),
                 "--claude-bin", str(tmp_path / "nothing"), "--command", COMMAND]) \
        == UsageError.exit_code
    assert "did not report a version" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_install_warns_when_the_plugin_is_enabled_too(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from redactor.cli import main
    from redactor.install import claude_plugin_enabled

    user = tmp_path / "user"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(user))
    user.mkdir()
    (user / "settings.json").write_text(json.dumps(
        {"enabledPlugins": {"redactor@redactor": True, "other@x": True}}), encoding="utf-8")
    off = tmp_path / "off.json"
    off.write_text(json.dumps({"enabledPlugins": {"redactor@redactor": False}}))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert claude_plugin_enabled([off, user / "settings.json", broken,
                                  tmp_path / "absent.json"]) == [user / "settings.json"]
    # Claude Code's order: the last file that sets the key wins (a local false disables).
    assert claude_plugin_enabled([user / "settings.json", off]) == []
    assert claude_plugin_enabled([user / "settings.json", off, user / "settings.json"]) \
        == [user / "settings.json"]
    assert main(["install", "claude", "--project", str(tmp_path / "p"), "--claude-bin",
                 str(fake_claude(tmp_path, "2.1.332 (Claude Code)")), "--command", COMMAND]) == 0
    err = capsys.readouterr().err
    assert "also enables the redactor plugin" in err and str(user / "settings.json") in err


#: The distribution's name on PyPI: ``redactor`` there is an unrelated project, so a
#: hint telling users to ``pip install redactor`` installs somebody else's code.
DISTRIBUTION = "redactor-br"
_REPO = Path(__file__).resolve().parents[2]
_WRONG_HINT = __import__("re").compile(
    r"""pip3? install +['"]?redactor(?![-\w])|(?<![-\w])redactor\[""")


def test_the_distribution_name_is_ours_and_every_install_hint_uses_it() -> None:
    import tomllib

    project = tomllib.loads((_REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION
    assert "redactor" in project["scripts"]  # the command keeps its name
    shipped = [_REPO / "README.md", *(_REPO / "plugins").rglob("*"),
               *(_REPO / "redactor").rglob("*.py"), *(_REPO / "docs").rglob("*.md")]
    offenders = []
    for path in shipped:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(_REPO)}: {m.group()}" for m in _WRONG_HINT.finditer(text)]
    assert offenders == []
    hook = (_REPO / "plugins" / "redactor" / "hooks" / "redactor-hook").read_text(encoding="utf-8")
    assert f"pip install {DISTRIBUTION}" in hook

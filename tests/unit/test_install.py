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

"""Registering redactor's hooks in a host's settings, without disturbing anything else."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from redactor.errors import ConfigError

__all__ = ["CLAUDE_EVENTS", "InstallResult", "claude_settings_path", "default_hook_command",
           "install_claude", "merge_claude_hooks"]

#: Event -> matcher (None: the event takes no matcher).
CLAUDE_EVENTS: Final[dict[str, str | None]] = {
    "PreToolUse": "*",
    "PostToolUse": "*",
    "PostToolUseFailure": "*",
    "UserPromptSubmit": None,
}
#: Seconds Claude Code waits for the hook; redactor's own budget stays below it.
CLAUDE_TIMEOUT: Final = 30
#: Substrings that identify redactor's own hook commands, old and new.
_MARKERS: Final = ("redactor hook claude", "redactor/hooks/client.py claude",
                    "redactor/hooks/entry.py claude")


@dataclass(frozen=True, slots=True)
class InstallResult:
    """What an install did (or, with dry_run, would do)."""

    path: Path
    changed: bool
    diff: str
    backup: Path | None = None


def claude_settings_path(project: Path | None = None, user: bool = False) -> Path:
    """``DIR/.claude/settings.json`` for a project, or the user's own settings.json."""
    if user:
        base = os.environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
        return Path(base) / "settings.json"
    return (project or Path.cwd()) / ".claude" / "settings.json"


def default_hook_command() -> str:
    """The import-light client of this installation, as Claude Code should run it.

    ``-I -S``: no site initialisation and no environment-driven imports, so a call
    costs less than a bare ``python -c pass`` plus one round trip to the warm engine.
    """
    import shlex
    import sys

    from redactor.hooks import client

    script = Path(client.__file__).resolve().with_name("entry.py")
    return f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(script))} claude"


def _is_ours(hook: Any) -> bool:
    command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
    return any(marker in command for marker in _MARKERS)


def merge_claude_hooks(settings: dict[str, Any], command: str, path: Path) -> dict[str, Any]:
    """A copy of a settings object with redactor's hook in every event it needs.

    Existing settings and hooks are kept as they are.  An earlier redactor entry is
    updated in place (command and timeout), so installing twice changes nothing.
    """
    merged: dict[str, Any] = json.loads(json.dumps(settings))
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: 'hooks' is not an object; fix it by hand first")
    entry = {"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT}
    for event, matcher in CLAUDE_EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ConfigError(f"{path}: 'hooks.{event}' is not a list; fix it by hand first")
        found = False
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            for index, hook in enumerate(group["hooks"]):
                if _is_ours(hook):
                    if not found:
                        group["hooks"][index] = {**hook, **entry}
                    found = True
        if not found:
            group = {"hooks": [entry]} if matcher is None else {"matcher": matcher,
                                                                "hooks": [entry]}
            groups.append(group)
    return merged


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({type(exc).__name__}); nothing was "
                          "changed") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno} "
                          f"({exc.msg}); fix the file, nothing was changed") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level is not a JSON object; nothing was changed")
    return data


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def install_claude(path: Path, command: str, *, dry_run: bool = False) -> InstallResult:
    """Merge the hook entries into ``path``; back the old file up before changing it."""
    data = _read(path)
    merged = merge_claude_hooks(data, command, path)
    new_text = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    if merged == data:
        return InstallResult(path, changed=False, diff="")
    before = json.dumps(data, indent=2, ensure_ascii=False) + "\n" if data else ""
    diff = "".join(difflib.unified_diff(before.splitlines(keepends=True),
                                        new_text.splitlines(keepends=True),
                                        fromfile=str(path), tofile=f"{path} (redactor)"))
    if dry_run:
        return InstallResult(path, changed=True, diff=diff)
    backup = None
    if path.exists():
        backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%dT%H%M%S')}")
        shutil.copy2(path, backup)
    _write_atomically(path, new_text)
    return InstallResult(path, changed=True, diff=diff, backup=backup)

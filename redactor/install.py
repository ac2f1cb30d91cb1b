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

__all__ = [
    "CLAUDE_EVENTS",
    "InstallResult",
    "claude_settings_path",
    "default_hook_command",
    "hermes_home",
    "hermes_hook_command",
    "install_claude",
    "install_hermes",
    "merge_claude_hooks",
]

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
    if merged == data:
        return InstallResult(path, changed=False, diff="")
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    after = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    return _finish(path, before, after, dry_run)


# ---------------------------------------------------------------------- Hermes

HERMES_PLUGIN: Final = "redactor"
HERMES_SHELL_EVENTS: Final = ("pre_llm_call", "pre_tool_call")
#: Seconds Hermes waits for a shell hook (it fails open past them): above redactor's
#: own budget (at most 20 s) and the light client's 25 s, like Claude Code's 30 s.
HERMES_SHELL_TIMEOUT: Final = 30
_HERMES_MARKER: Final = "redactor/hooks/entry.py hermes"


def hermes_home(home: Path | None = None) -> Path:
    """The Hermes profile folder: ``--home``, ``$HERMES_HOME`` or ``~/.hermes``."""
    if home is not None:
        return home
    return Path(os.environ.get("HERMES_HOME") or Path.home() / ".hermes")


def hermes_hook_command() -> str:
    """The import-light entry, as Hermes' shell-hook runner should run it (no shell)."""
    return default_hook_command().rsplit(" ", 1)[0] + " hermes"


def _script_mtime_iso(command: str) -> str | None:
    """The same script path and time format Hermes records in its allowlist."""
    import datetime as dt
    import shlex

    parts = shlex.split(command)
    script = next((p for p in parts if p.lower().endswith((".py", ".sh"))), parts[0])
    try:
        stamp = Path(script).expanduser().stat().st_mtime
    except OSError:
        return None
    return dt.datetime.fromtimestamp(stamp, tz=dt.UTC).isoformat().replace("+00:00", "Z")


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    return yaml


def _merge_hermes_config(data: Any, path: Path, *, shell: bool, command: str) -> Any:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level is not a mapping; nothing was changed")
    plugins = data.setdefault("plugins", {})
    if not isinstance(plugins, dict):
        raise ConfigError(f"{path}: 'plugins' is not a mapping; fix it by hand first")
    enabled = plugins.setdefault("enabled", [])
    if not isinstance(enabled, list):
        raise ConfigError(f"{path}: 'plugins.enabled' is not a list; fix it by hand first")
    if HERMES_PLUGIN not in enabled:
        enabled.append(HERMES_PLUGIN)
    disabled = plugins.get("disabled")
    if isinstance(disabled, list) and HERMES_PLUGIN in disabled:
        disabled.remove(HERMES_PLUGIN)
    if shell:
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise ConfigError(f"{path}: 'hooks' is not a mapping; fix it by hand first")
        for event in HERMES_SHELL_EVENTS:
            entries = hooks.setdefault(event, [])
            if not isinstance(entries, list):
                raise ConfigError(f"{path}: 'hooks.{event}' is not a list; fix it by hand")
            entry: dict[str, Any] = {"command": command, "timeout": HERMES_SHELL_TIMEOUT}
            if event == "pre_tool_call":
                entry["fail_closed"] = True  # honoured on releases newer than 0.19.0
            ours = [i for i, e in enumerate(entries)
                    if isinstance(e, dict) and _HERMES_MARKER in str(e.get("command", ""))]
            if ours:
                current = entries[ours[0]]
                for key, value in entry.items():
                    if current.get(key) != value:
                        current[key] = value
            else:
                entries.append(entry)
    return data


def _merge_allowlist(data: Any, path: Path, command: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        data = {}
    approvals = data.get("approvals", [])
    if not isinstance(approvals, list):
        raise ConfigError(f"{path}: 'approvals' is not a list; fix it by hand first")
    merged = dict(data)
    kept = [a for a in approvals if not (isinstance(a, dict) and a.get("command") == command
                                          and a.get("event") in HERMES_SHELL_EVENTS)]
    existing = {a.get("event"): a for a in approvals
                if isinstance(a, dict) and a.get("command") == command}
    import datetime as dt

    now = dt.datetime.now(tz=dt.UTC).isoformat().replace("+00:00", "Z")
    for event in HERMES_SHELL_EVENTS:
        previous = existing.get(event)
        mtime = _script_mtime_iso(command)
        if previous is not None and previous.get("script_mtime_at_approval") == mtime:
            kept.append(previous)
        else:
            kept.append({"event": event, "command": command, "approved_at": now,
                         "script_mtime_at_approval": mtime})
    merged["approvals"] = kept
    return merged


def _finish(path: Path, before: str, after: str, dry_run: bool) -> InstallResult:
    if before == after:
        return InstallResult(path, changed=False, diff="")
    diff = "".join(difflib.unified_diff(before.splitlines(keepends=True),
                                        after.splitlines(keepends=True),
                                        fromfile=str(path), tofile=f"{path} (redactor)"))
    if dry_run:
        return InstallResult(path, changed=True, diff=diff)
    backup = None
    if path.exists():
        backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%dT%H%M%S')}")
        shutil.copy2(path, backup)
    _write_atomically(path, after)
    return InstallResult(path, changed=True, diff=diff, backup=backup)


def install_hermes(home: Path | None = None, *, shell: bool = False,
                   dry_run: bool = False) -> list[InstallResult]:
    """Enable the plugin in ``config.yaml``; with ``shell``, add the shell hooks and the
    consent entries Hermes needs to run them without a terminal."""
    import io

    folder = hermes_home(home)
    config_path = folder / "config.yaml"
    before = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    yaml = _yaml()
    try:
        data = yaml.load(before) if before.strip() else None
    except Exception as exc:  # ruamel raises many types; all mean "not valid YAML"
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        where = f" at line {line + 1}" if line is not None else ""
        raise ConfigError(f"{config_path}: invalid YAML{where}; fix the file, nothing was "
                          "changed") from None
    command = hermes_hook_command()
    merged = _merge_hermes_config(data, config_path, shell=shell, command=command)
    stream = io.StringIO()
    yaml.dump(merged, stream)
    results = [_finish(config_path, before, stream.getvalue(), dry_run)]
    if shell:
        allow_path = folder / "shell-hooks-allowlist.json"
        allow_before = allow_path.read_text(encoding="utf-8") if allow_path.exists() else ""
        try:
            allow_data = json.loads(allow_before) if allow_before.strip() else {}
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{allow_path}: invalid JSON at line {exc.lineno}; nothing was "
                              "changed") from None
        allow_after = _merge_allowlist(allow_data, allow_path, command)
        after_text = json.dumps(allow_after, indent=2) + "\n"
        if allow_data == allow_after:
            after_text = allow_before
        results.append(_finish(allow_path, allow_before, after_text, dry_run))
    return results

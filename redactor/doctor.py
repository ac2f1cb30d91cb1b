"""``redactor doctor``: is the guard live?  Hooks registered, engine reachable, canary redacted."""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from redactor.errors import RedactorError

__all__ = ["Check", "run_checks"]

CANARY = "529.982.247-25"  # a documented example CPF, never a person's


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


def _registered(path: Path) -> tuple[list[str], str | None]:
    from redactor.install import CLAUDE_EVENTS, _is_ours

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [], None
    events: list[str] = []
    command: str | None = None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for event in CLAUDE_EVENTS:
        groups = hooks.get(event, []) if isinstance(hooks, dict) else []
        for group in groups if isinstance(groups, list) else []:
            for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                if _is_ours(hook):
                    events.append(event)
                    command = command or str(hook.get("command"))
    return sorted(set(events)), command


def _self_test(command: str) -> Check:
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(Path.cwd()),
             "tool_input": {"command": f"echo {CANARY}", "description": "redactor doctor"}}
    started = time.perf_counter()
    try:
        done = subprocess.run(["/bin/sh", "-c", command],  # noqa: S603 - the user's own hook
                              input=json.dumps(event).encode(), capture_output=True,
                              timeout=60, check=False)
    except subprocess.TimeoutExpired:
        return Check("self-test", False, "the hook command did not answer within 60 s")
    elapsed = (time.perf_counter() - started) * 1000
    out = done.stdout.decode("utf-8", "replace")
    if CANARY in out or CANARY in done.stderr.decode("utf-8", "replace"):
        return Check("self-test", False, "the canary CPF came back unredacted")
    try:
        updated = json.loads(out)["hookSpecificOutput"]["updatedInput"]["command"]
    except (ValueError, KeyError, TypeError):
        return Check("self-test", False, f"unexpected answer (exit {done.returncode})")
    ok = updated == "echo [CPF]"
    return Check("self-test", ok, f"canary CPF redacted by the hook command in {elapsed:.0f} ms"
                 if ok else "the canary was not replaced by [CPF]")


def run_checks(cwd: Path | None = None) -> list[Check]:
    """Every check, in order; none raises."""
    from redactor.config import load_settings
    from redactor.install import claude_settings_path, default_hook_command
    from redactor.serve import control as server

    checks: list[Check] = []
    try:
        settings = load_settings(cwd=cwd)
        sources = ", ".join(str(p) for p in settings.sources) or "defaults only"
        checks.append(Check("configuration", True, sources))
    except RedactorError as exc:
        checks.append(Check("configuration", False, str(exc)))

    command: str | None = None
    found_any = False
    for label, path in (("project", claude_settings_path(cwd)),
                        ("user", claude_settings_path(user=True))):
        events, registered = _registered(path)
        if events:
            found_any = True
            command = command or registered
            missing = {"PreToolUse", "PostToolUse", "UserPromptSubmit"} - set(events)
            detail = f"{path}: {', '.join(events)}"
            checks.append(Check(f"Claude Code hooks ({label})", not missing,
                                detail + (f"; missing {', '.join(sorted(missing))}"
                                          if missing else "")))
    if not found_any:
        checks.append(Check("Claude Code hooks", False, "not registered: run "
                            "'redactor install claude --project .' or '--user'"))
    command = command or default_hook_command()
    executable = shlex.split(command)[0]
    checks.append(Check("hook command", Path(executable).exists(), command))

    status = server.request_status()
    if status is None:
        checks.append(Check("warm engine", True, f"not running at {server.socket_file()}; "
                            "the next hook call starts it"))
    else:
        checks.append(Check("warm engine", True, f"pid {status['pid']}, version "
                            f"{status['version']}, {status['requests']} requests, up "
                            f"{status['uptime']} s, {status['rss'] // 2**20} MiB"))
    checks.append(_self_test(command))
    checks.append(_prefilter_check())
    checks.extend(hermes_checks())
    return checks


def _prefilter_check() -> Check:
    """Which backend finds batch candidates (informational: both give the same output)."""
    from redactor.candidates import available_backend

    backend = available_backend()
    if backend == "hyperscan":
        return Check("prefilter", True, "hyperscan (batch candidates found in one pass)")
    if backend == "re2":
        return Check("prefilter", True, "google-re2")
    return Check("prefilter", True, "Python re; install redactor[fast] (hyperscan on x86-64, "
                 "google-re2 elsewhere) for faster batch runs")


def hermes_checks(home: Path | None = None) -> list[Check]:
    """The Hermes plugin and shell hooks, when a Hermes profile exists."""
    from redactor.install import HERMES_PLUGIN, hermes_home, is_our_command

    folder = hermes_home(home)
    config_path = folder / "config.yaml"
    if not config_path.exists():
        return []
    try:
        from ruamel.yaml import YAML

        data = YAML(typ="safe").load(config_path.read_text(encoding="utf-8")) or {}
    except Exception as exc:  # any parse failure is reported, never raised
        return [Check("Hermes config", False, f"{config_path}: {type(exc).__name__}")]
    checks: list[Check] = []
    plugins = data.get("plugins") if isinstance(data, dict) else None
    enabled = plugins.get("enabled", []) if isinstance(plugins, dict) else []
    disabled = plugins.get("disabled", []) if isinstance(plugins, dict) else []
    on = HERMES_PLUGIN in (enabled or []) and HERMES_PLUGIN not in (disabled or [])
    hooks = data.get("hooks") if isinstance(data, dict) else None
    ours = [(event, entry.get("command")) for event, entries in (hooks or {}).items()
            if isinstance(entries, list) for entry in entries
            if isinstance(entry, dict) and is_our_command(entry.get("command"), "hermes")]
    checks.append(Check("Hermes plugin", on or bool(ours),
                        f"{config_path}: plugin {'enabled' if on else 'not enabled'}"
                        + ("" if on or ours else "; run 'redactor install hermes'")))
    if ours:
        auto = bool(data.get("hooks_auto_accept")) if isinstance(data, dict) else False
        try:
            allow = json.loads((folder / "shell-hooks-allowlist.json").read_text("utf-8"))
            approved = {(a.get("event"), a.get("command")) for a in allow.get("approvals", [])}
        except (OSError, ValueError, AttributeError):
            approved = set()
        skipped = [event for event, cmd in ours if (event, cmd) not in approved]
        checks.append(Check("Hermes shell hooks", auto or not skipped,
                            "allowlisted" if not skipped else
                            f"{', '.join(skipped)} not allowlisted: without a terminal Hermes "
                            "skips them with only a warning; run 'redactor install hermes "
                            "--shell'"))
    return checks

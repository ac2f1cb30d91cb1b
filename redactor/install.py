"""Registering redactor's hooks in a host's settings, without disturbing anything else."""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from redactor.errors import ConfigError
from redactor.hosts.catalogue import HOSTS, host, snake_case
from redactor.serve.timeouts import HOST_TIMEOUT_MS, HOST_TIMEOUT_SECONDS

__all__ = [
    "CLAUDE_EVENTS",
    "CLAUDE_ON_FAILURE_SINCE",
    "CLAUDE_PLUGIN",
    "CODEX_EVENTS",
    "GEMINI_EVENTS",
    "InstallResult",
    "claude_blocks_on_failure",
    "claude_plugin_enabled",
    "claude_settings_path",
    "claude_version",
    "codex_hooks_path",
    "codex_trust_hash",
    "default_hook_command",
    "gemini_settings_path",
    "hermes_home",
    "hermes_hook_command",
    "install_claude",
    "install_claude_gateway",
    "install_codex",
    "install_gemini",
    "install_hermes",
    "is_our_command",
    "merge_claude_hooks",
    "merge_hooks",
]

#: Event -> matcher (None: the event takes no matcher).
CLAUDE_EVENTS: Final[dict[str, str | None]] = host("claude").events
#: Seconds Claude Code waits for the hook; redactor's own budget stays below it.
CLAUDE_TIMEOUT: Final = HOST_TIMEOUT_SECONDS
#: redactor's own hook commands, old and new, for a host (``(?P=host)``): the CLI, the
#: light client's first home, the entry shim kept for earlier installations, the entry.
_OURS: Final = re.compile(r"(?:redactor hook|redactor/hooks/client\.py|redactor/hooks/entry\.py"
                          r"|redactor/serve/entry\.py) (" + "|".join(HOSTS) + r")\b")


def is_our_command(command: object, host: str) -> bool:
    """Is ``command`` a redactor hook command for ``host`` (any release's form)?"""
    return isinstance(command, str) and any(
        match.group(1) == host for match in _OURS.finditer(command))


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


def default_hook_command(host: str = "claude") -> str:
    """The import-light client of this installation, as a host should run it.

    ``-I -S``: no site initialisation and no environment-driven imports, so a call
    costs less than a bare ``python -c pass`` plus one round trip to the warm engine.
    """
    import shlex
    import sys

    from redactor.serve import protocol

    script = Path(protocol.__file__).resolve().with_name("entry.py")
    return f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(script))} {host}"


def _is_ours(hook: Any, host: str = "claude") -> bool:
    return isinstance(hook, dict) and is_our_command(hook.get("command"), host)


def merge_hooks(settings: dict[str, Any], entry: dict[str, Any],
                events: dict[str, str | None], path: Path, host: str) -> dict[str, Any]:
    """A copy of a Claude-style settings object with ``entry`` in every event it needs.

    Existing settings and hooks are kept as they are.  An earlier redactor entry for
    ``host`` (any release's command) is updated in place, so installing twice changes
    nothing and an upgrade moves the hook to this installation's command.
    """
    merged: dict[str, Any] = json.loads(json.dumps(settings))
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: 'hooks' is not an object; fix it by hand first")
    for event, matcher in events.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ConfigError(f"{path}: 'hooks.{event}' is not a list; fix it by hand first")
        found = False
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            for index, hook in enumerate(group["hooks"]):
                if _is_ours(hook, host):
                    if not found:
                        group["hooks"][index] = {**hook, **entry}
                    found = True
        if not found:
            group = {"hooks": [entry]} if matcher is None else {"matcher": matcher,
                                                                "hooks": [entry]}
            groups.append(group)
    return merged


#: The first Claude Code release with ``onFailure: "block"`` on command hooks (a hook
#: that cannot start, times out or exits with another code than 0 or 2 blocks).
CLAUDE_ON_FAILURE_SINCE: Final = (2, 1, 295)
_VERSION: Final = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def claude_version(binary: str | Path | None = None) -> tuple[int, int, int] | None:
    """The version ``claude --version`` reports (``binary`` or the one on PATH), if any."""
    import subprocess

    program = str(binary) if binary is not None else shutil.which("claude")
    if program is None:
        return None
    try:
        done = subprocess.run(  # noqa: S603 - the user's own claude, asked its version
            [program, "--version"], capture_output=True, text=True,
            timeout=30, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    match = _VERSION.search(done.stdout) if done.returncode == 0 else None
    if match is None:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def claude_blocks_on_failure(version: tuple[int, int, int] | None) -> bool:
    """Does this Claude Code release understand ``onFailure: "block"``?"""
    return version is not None and version >= CLAUDE_ON_FAILURE_SINCE


def merge_claude_hooks(settings: dict[str, Any], command: str, path: Path,
                       *, block_on_failure: bool = False) -> dict[str, Any]:
    """Claude Code's settings with redactor's hook in every event it needs.

    ``block_on_failure`` adds ``onFailure: "block"`` (only for a Claude Code that knows
    it): a hook process that cannot even start then blocks instead of letting data by.
    """
    entry: dict[str, Any] = {"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT}
    if block_on_failure:
        entry["onFailure"] = "block"
    return merge_hooks(settings, entry, CLAUDE_EVENTS, path, "claude")


#: The plugin's name in this repository's marketplace (``.claude-plugin/``).
CLAUDE_PLUGIN: Final = "redactor"


def claude_plugin_enabled(paths: list[Path]) -> list[Path]:
    """The settings files among ``paths`` whose setting enables redactor's Claude Code
    plugin, ``paths`` in Claude Code's order (user, project, local): for each plugin key
    the last file that sets it wins, so a later ``false`` disables an earlier ``true``.

    Its hooks and settings hooks both run (Claude Code does not merge them), so a
    plugin next to an installed hook doubles every call.
    """
    final: dict[str, tuple[bool, Path]] = {}
    for path in paths:
        try:
            enabled = _read(path).get("enabledPlugins")
        except ConfigError:
            continue
        if not isinstance(enabled, dict):
            continue
        for key, value in enabled.items():
            if isinstance(key, str) and key.split("@", 1)[0] == CLAUDE_PLUGIN:
                final[key] = (value is True, path)
    found: list[Path] = []
    for on, path in final.values():
        if on and path not in found:
            found.append(path)
    return found


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


def install_claude(path: Path, command: str, *, dry_run: bool = False,
                   block_on_failure: bool = False) -> InstallResult:
    """Merge the hook entries into ``path``; back the old file up before changing it."""
    data = _read(path)
    merged = merge_claude_hooks(data, command, path, block_on_failure=block_on_failure)
    if merged == data:
        return InstallResult(path, changed=False, diff="")
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    after = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    return _finish(path, before, after, dry_run)


# ---------------------------------------------------------------------- gateway

#: The settings keys ``install claude --gateway`` writes into Claude Code's ``env``.
GATEWAY_ENV_KEYS: Final = ("ANTHROPIC_BASE_URL", "ANTHROPIC_UNIX_SOCKET",
                           "ANTHROPIC_CUSTOM_HEADERS", "REDACTOR_GATEWAY",
                           "REDACTOR_GATEWAY_TOKEN", "ENABLE_TOOL_SEARCH")
#: Seconds Claude Code waits for the SessionStart hook that starts the gateway (the
#: engine takes a few seconds to build on a cold machine).
GATEWAY_START_TIMEOUT: Final = 120
_GATEWAY_START: Final = re.compile(r"-m redactor gateway start\b|redactor/gateway/entry\.py\b")


def gateway_start_command() -> str:
    """The SessionStart command: start this installation's gateway unless it answers
    (``gateway/entry.py`` with ``-I -S``: a session whose gateway runs pays an
    interpreter start and one hello, not the CLI's imports)."""
    import shlex
    import sys

    from redactor.gateway import entry

    return f"{shlex.quote(sys.executable)} -I -S {shlex.quote(str(Path(entry.__file__).resolve()))}"


def _without_ours(hooks: dict[str, Any], event: str, path: Path) -> list[Any]:
    """The event's hook groups with every redactor entry (command, HTTP, gateway start)
    taken out, and groups left empty by that dropped."""
    groups = hooks.get(event, [])
    if not isinstance(groups, list):
        raise ConfigError(f"{path}: 'hooks.{event}' is not a list; fix it by hand first")
    kept = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            kept.append(group)
            continue
        entries = [hook for hook in group["hooks"] if not (
            _is_ours(hook) or _is_our_http(hook) or (isinstance(hook, dict) and isinstance(
                hook.get("command"), str) and _GATEWAY_START.search(hook["command"])))]
        if entries:
            kept.append({**group, "hooks": entries})
    return kept


def _is_our_http(hook: Any) -> bool:
    return isinstance(hook, dict) and hook.get("type") == "http" and isinstance(
        hook.get("url"), str) and "/hooks/claude/" in hook["url"]


def merge_gateway_hooks(settings: dict[str, Any], command: str, path: Path, *, port: int,
                        http_hooks: bool, block_on_failure: bool) -> dict[str, Any]:
    """Claude Code's hook settings for a gateway install: SessionStart starts the gateway,
    and the four events go to redactor as command hooks or, with ``http_hooks``, as HTTP
    hooks served by the gateway (the token comes from the environment, never written
    into this file)."""
    merged: dict[str, Any] = json.loads(json.dumps(settings))
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: 'hooks' is not an object; fix it by hand first")
    start = {"type": "command", "command": gateway_start_command(),
             "timeout": GATEWAY_START_TIMEOUT}
    hooks["SessionStart"] = [*_without_ours(hooks, "SessionStart", path),
                             {"hooks": [start]}]
    for event, matcher in CLAUDE_EVENTS.items():
        if http_hooks:
            entry: dict[str, Any] = {
                "type": "http", "url": f"http://127.0.0.1:{port}/hooks/claude/{event}",
                "headers": {"X-Redactor-Token": "$REDACTOR_GATEWAY_TOKEN",
                            "X-Redactor-Base-URL": "$ANTHROPIC_BASE_URL"},
                "allowedEnvVars": ["REDACTOR_GATEWAY_TOKEN", "ANTHROPIC_BASE_URL"],
                "timeout": CLAUDE_TIMEOUT}
        else:
            entry = {"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT}
        if block_on_failure:
            entry["onFailure"] = "block"
        group = {"hooks": [entry]} if matcher is None else {"matcher": matcher, "hooks": [entry]}
        hooks[event] = [*_without_ours(hooks, event, path), group]
    return merged


def merge_gateway_env(settings: dict[str, Any], path: Path, *, port: int, token: str,
                      http_hooks: bool, unix_socket: str | None = None) -> dict[str, Any]:
    """Claude Code's ``env`` pointing the session at the gateway, with the token as a
    custom header.  A base URL of someone else's is a loud error, never overwritten.

    ``unix_socket``: the gateway's private socket, which both pinned Claude Code releases
    use for every model request when ``ANTHROPIC_UNIX_SOCKET`` is set (no port, no other
    local user); the base URL then names the same gateway's loopback port, which a
    release that ignored the socket would use instead."""
    from redactor.gateway.identity import HEADER

    merged: dict[str, Any] = json.loads(json.dumps(settings))
    env = merged.setdefault("env", {})
    if not isinstance(env, dict):
        raise ConfigError(f"{path}: 'env' is not an object; fix it by hand first")
    url = f"http://127.0.0.1:{port}"
    current = env.get("ANTHROPIC_BASE_URL")
    if current not in (None, url) and env.get("REDACTOR_GATEWAY") != "1":
        raise ConfigError(f"{path}: env.ANTHROPIC_BASE_URL already points elsewhere; set "
                          "gateway.upstream in ~/.config/redactor/config.toml to that URL and "
                          "remove it from this file, then run this again")
    headers = [line for line in str(env.get("ANTHROPIC_CUSTOM_HEADERS", "")).split("\n")
               if line.strip() and not line.lower().startswith(HEADER.lower() + ":")]
    env["ANTHROPIC_BASE_URL"] = url
    if unix_socket is not None:
        env["ANTHROPIC_UNIX_SOCKET"] = unix_socket
    else:
        env.pop("ANTHROPIC_UNIX_SOCKET", None)
    env["ANTHROPIC_CUSTOM_HEADERS"] = "\n".join([*headers, f"{HEADER}: {token}"])
    env["REDACTOR_GATEWAY"] = "1"
    # Claude Code turns MCP tool search off behind a base URL that is not Anthropic's;
    # the gateway forwards tool_reference blocks unchanged, so it may stay on.
    env.setdefault("ENABLE_TOOL_SEARCH", "true")
    if http_hooks:
        env["REDACTOR_GATEWAY_TOKEN"] = token
    else:
        env.pop("REDACTOR_GATEWAY_TOKEN", None)
    return merged


def install_claude_gateway(hooks_path: Path, env_path: Path, command: str, *, port: int,
                           token: str, http_hooks: bool = False, block_on_failure: bool = False,
                           unix_socket: str | None = None,
                           dry_run: bool = False) -> list[InstallResult]:
    """``redactor install claude --gateway``: the hooks into ``hooks_path``, the base URL
    and the token into ``env_path`` (the user's settings, or a project's
    ``settings.local.json``, which is not committed; created with mode 0600).  Printed
    diffs show ``<token>`` instead of the token."""
    results = []
    for path in dict.fromkeys((hooks_path, env_path)):
        data = _read(path)
        merged = data
        if path == hooks_path:
            merged = merge_gateway_hooks(merged, command, path, port=port,
                                         http_hooks=http_hooks,
                                         block_on_failure=block_on_failure)
        if path == env_path:
            merged = merge_gateway_env(merged, path, port=port, token=token,
                                       http_hooks=http_hooks, unix_socket=unix_socket)
        if merged == data:
            results.append(InstallResult(path, changed=False, diff=""))
            continue
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        after = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
        if path == env_path and not path.exists() and not dry_run:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        result = _finish(path, before, after, dry_run)
        backup = result.backup
        if not dry_run and path == env_path:
            os.chmod(path, 0o600)  # it holds the token
            if backup is not None and not before:
                backup.unlink()  # the empty file created just above
                backup = None
        results.append(InstallResult(result.path, result.changed,
                                     result.diff.replace(token, "<token>"), backup))
    return results


# ---------------------------------------------------------------------- Hermes

HERMES_PLUGIN: Final = "redactor"
HERMES_SHELL_EVENTS: Final = tuple(host("hermes").events)
#: Seconds Hermes waits for a shell hook (it fails open past them), like Claude Code.
HERMES_SHELL_TIMEOUT: Final = HOST_TIMEOUT_SECONDS


def hermes_home(home: Path | None = None) -> Path:
    """The Hermes profile folder: ``--home``, ``$HERMES_HOME`` or ``~/.hermes``."""
    if home is not None:
        return home
    return Path(os.environ.get("HERMES_HOME") or Path.home() / ".hermes")


def hermes_hook_command() -> str:
    """The import-light entry, as Hermes' shell-hook runner should run it (no shell)."""
    return default_hook_command("hermes")


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
                    if isinstance(e, dict) and is_our_command(e.get("command"), "hermes")]
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


# ---------------------------------------------------------------------- Codex CLI

#: Codex events redactor answers, with the matcher of the group it adds (None: none,
#: which Codex reads as every tool).
CODEX_EVENTS: Final[dict[str, str | None]] = host("codex").events
#: Seconds Codex waits for a hook (it fails open past them); as for Claude Code.
CODEX_TIMEOUT: Final = HOST_TIMEOUT_SECONDS
#: Codex's default handler timeout, which its trust hash uses when none is set.
CODEX_DEFAULT_TIMEOUT: Final = 600


def codex_home() -> Path:
    """``$CODEX_HOME``, else ``~/.codex``: Codex's user folder (config.toml, hooks.json)."""
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def codex_hooks_path(project: Path | None = None, user: bool = False) -> Path:
    """``DIR/.codex/hooks.json`` for a project (absolute), or the user's own hooks.json."""
    if user:
        return codex_home() / "hooks.json"
    return (project or Path.cwd()).resolve() / ".codex" / "hooks.json"


def codex_trust_hash(event: str, group: dict[str, Any], handler: dict[str, Any]) -> str:
    """The ``trusted_hash`` Codex records for one handler of one group.

    SHA-256 over the canonical JSON (sorted keys, no spaces) of the event in snake
    case, the group's matcher when it has one (never for UserPromptSubmit and Stop),
    and the handler alone with Codex's defaults filled in.  Checked against what
    ``codex app-server`` reports (tests/e2e/test_codex_cli.py).
    """
    import hashlib

    canonical_handler: dict[str, Any] = {
        "type": handler.get("type", "command"),
        "command": handler.get("command"),
        "timeout": handler.get("timeout", CODEX_DEFAULT_TIMEOUT),
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        canonical_handler["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": snake_case(event), "hooks": [canonical_handler]}
    if "matcher" in group and event not in ("UserPromptSubmit", "Stop"):
        identity["matcher"] = group["matcher"]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def codex_trust_entries(hooks_path: Path, data: dict[str, Any],
                        host: str = "codex") -> dict[str, str]:
    """``{state key: trusted_hash}`` for redactor's handlers in a hooks.json object."""
    entries: dict[str, str] = {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in (hooks.items() if isinstance(hooks, dict) else ()):
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                if _is_ours(handler, host):
                    key = f"{hooks_path}:{snake_case(event)}:{g}:{h}"
                    entries[key] = codex_trust_hash(event, group, handler)
    return entries


def _toml_document(path: Path) -> Any:
    import tomlkit

    if not path.exists():
        return tomlkit.document()
    try:
        return tomlkit.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({type(exc).__name__}); nothing was "
                          "changed") from None
    except Exception as exc:  # tomlkit raises its own parse errors
        line = getattr(exc, "line", None)
        where = f" at line {line}" if line else ""
        raise ConfigError(f"{path}: invalid TOML{where}; fix the file, nothing was "
                          "changed") from None


def _table(parent: Any, key: str, path: Path, where: str) -> Any:
    import tomlkit

    if key not in parent:
        parent[key] = tomlkit.table(is_super_table=True)
    value = parent[key]
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: '{where}' is not a table; fix it by hand first")
    return value


def merge_codex_config(document: Any, path: Path, trust: dict[str, str],
                       project: Path | None) -> Any:
    """Record the trust of redactor's handlers (and of the project, for project hooks)
    in Codex's config.toml document, keeping everything else as it is."""
    import tomlkit

    hooks = _table(document, "hooks", path, "hooks")
    state = _table(hooks, "state", path, "hooks.state")
    for key, digest in trust.items():
        entry = state.get(key)
        if isinstance(entry, dict):
            if entry.get("trusted_hash") != digest:
                entry["trusted_hash"] = digest
        else:
            table = tomlkit.table()
            table["trusted_hash"] = digest
            state[key] = table
    if project is not None:
        projects = _table(document, "projects", path, "projects")
        name = str(project)
        current = projects.get(name)
        if isinstance(current, dict):
            level = current.get("trust_level")
            if level not in (None, "trusted"):
                raise ConfigError(f"{path}: the project {name} is marked trust_level = "
                                  f"'{level}'; Codex runs no project hook there. Trust it "
                                  "yourself or install with --user")
            if level is None:
                current["trust_level"] = "trusted"
        else:
            table = tomlkit.table()
            table["trust_level"] = "trusted"
            projects[name] = table
    return document


def install_codex(project: Path | None = None, *, user: bool = False, command: str | None = None,
                  dry_run: bool = False) -> list[InstallResult]:
    """Register redactor in Codex's hooks.json and trust its handlers in config.toml.

    A project install also marks the project trusted (Codex loads no project hook
    otherwise).  Idempotent; a changed command (an upgrade) is re-trusted.
    """
    import tomlkit

    command = command or default_hook_command("codex")
    hooks_path = codex_hooks_path(project, user)
    data = _read(hooks_path)
    entry = {"type": "command", "command": command, "timeout": CODEX_TIMEOUT}
    merged = merge_hooks(data, entry, CODEX_EVENTS, hooks_path, "codex")
    before = hooks_path.read_text(encoding="utf-8") if hooks_path.exists() else ""
    after = before if merged == data else json.dumps(merged, indent=2,
                                                      ensure_ascii=False) + "\n"
    results = [_finish(hooks_path, before, after, dry_run)]
    config_path = codex_home() / "config.toml"
    document = _toml_document(config_path)
    config_before = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    trust = codex_trust_entries(hooks_path, merged)
    project_dir = None if user else hooks_path.parent.parent
    merge_codex_config(document, config_path, trust, project_dir)
    config_after = tomlkit.dumps(document)
    results.append(_finish(config_path, config_before, config_after, dry_run))
    return results


# ---------------------------------------------------------------------- Gemini CLI

#: Gemini events redactor answers, with the matcher of the group it adds.
GEMINI_EVENTS: Final[dict[str, str | None]] = host("gemini").events
#: Milliseconds Gemini waits for a hook (it fails open past them).
GEMINI_TIMEOUT_MS: Final = HOST_TIMEOUT_MS


def gemini_settings_path(project: Path | None = None, user: bool = True) -> Path:
    """The user's ``settings.json`` (under ``$GEMINI_CLI_HOME`` when set), or a
    project's ``DIR/.gemini/settings.json``."""
    if project is not None and not user:
        return project.resolve() / ".gemini" / "settings.json"
    base = os.environ.get("GEMINI_CLI_HOME")
    return (Path(base) if base else Path.home()) / ".gemini" / "settings.json"


def install_gemini(project: Path | None = None, *, command: str | None = None,
                   dry_run: bool = False) -> InstallResult:
    """Register redactor's hooks in Gemini CLI's settings.json: the user's by default
    (headless runs with ``--skip-trust`` skip project hooks), or a project's."""
    path = gemini_settings_path(project, user=project is None)
    data = _read(path)
    entry = {"type": "command", "name": "redactor",
             "command": command or default_hook_command("gemini"),
             "timeout": GEMINI_TIMEOUT_MS}
    merged = merge_hooks(data, entry, GEMINI_EVENTS, path, "gemini")
    if merged == data:
        return InstallResult(path, changed=False, diff="")
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    after = json.dumps(merged, indent=2, ensure_ascii=False) + "\n"
    return _finish(path, before, after, dry_run)

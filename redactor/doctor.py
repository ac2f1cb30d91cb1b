"""``redactor doctor``: is the guard live?  Hooks registered, engine reachable, canary redacted."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from redactor.errors import ConfigError, RedactorError

__all__ = ["Check", "baseline_key_check", "claude_plugin_checks", "drill_checks",
           "hook_bin_problem", "run_checks"]

CANARY = "529.982.247-25"  # a documented example CPF, never a person's


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    #: Not a failure, but something to know (a path a host leaves open).
    warning: bool = False


def _registered(path: Path) -> tuple[list[str], str | None]:
    from redactor.install import CLAUDE_EVENTS, _is_our_http, _is_ours

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
                elif _is_our_http(hook):
                    events.append(event)
    return sorted(set(events)), command


#: Per host: the canary tool event, and where its answer holds the rewritten command.
_CANARIES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "claude": ({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": f"echo {CANARY}", "description": "redactor doctor"}},
               ("hookSpecificOutput", "updatedInput", "command")),
    "codex": ({"hook_event_name": "PreToolUse", "tool_name": "Bash",
               "permission_mode": "bypassPermissions",
               "tool_input": {"command": f"echo {CANARY}"}},
              ("hookSpecificOutput", "updatedInput", "command")),
    "gemini": ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": f"echo {CANARY}"}},
               ("hookSpecificOutput", "tool_input", "command")),
}


def _self_test(command: str, host: str = "claude", name: str = "self-test") -> Check:
    event, where = _CANARIES[host]
    event = {**event, "cwd": str(Path.cwd())}
    started = time.perf_counter()
    try:
        done = subprocess.run(["/bin/sh", "-c", command],  # noqa: S603 - the user's own hook
                              input=json.dumps(event).encode(), capture_output=True,
                              timeout=60, check=False)
    except subprocess.TimeoutExpired:
        return Check(name, False, "the hook command did not answer within 60 s")
    elapsed = (time.perf_counter() - started) * 1000
    out = done.stdout.decode("utf-8", "replace")
    if CANARY in out or CANARY in done.stderr.decode("utf-8", "replace"):
        return Check(name, False, "the canary CPF came back unredacted")
    try:
        updated: Any = json.loads(out)
        for key in where:
            updated = updated[key]
    except (ValueError, KeyError, TypeError):
        return Check(name, False, f"unexpected answer (exit {done.returncode})")
    ok = updated == "echo [CPF]"
    return Check(name, ok, f"canary CPF redacted by the hook command in {elapsed:.0f} ms"
                 if ok else "the canary was not replaced by [CPF]")


def run_checks(cwd: Path | None = None) -> list[Check]:
    """Every check, in order; none raises."""
    from redactor.config import config_notes, load_settings
    from redactor.install import claude_settings_path, default_hook_command
    from redactor.serve import control as server

    checks: list[Check] = []
    try:
        settings = load_settings(cwd=cwd)
        sources = ", ".join(str(p) for p in settings.sources) or "defaults only"
        checks.append(Check("configuration", True, sources))
        # A user file or REDACTOR_CONFIG inside the project folder: tighten-only.
        checks.extend(Check("configuration", True, note, warning=True)
                      for note in config_notes(cwd))
    except RedactorError as exc:
        checks.append(Check("configuration", False, str(exc)))
    checks.extend(drill_checks())
    checks.append(baseline_key_check())
    with contextlib.suppress(RedactorError):
        checks.extend(pseudonym_checks(load_settings(cwd=cwd)))

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
    plugin = claude_plugin_checks(cwd, hooks_registered=found_any)
    found_any = found_any or any(c.name == "Claude Code plugin" and c.ok for c in plugin)
    others = [*plugin, *hermes_checks(), *codex_checks(cwd), *gemini_checks(cwd)]
    if not found_any:
        # Claude Code's hooks missing is a failure only when no other host is guarded.
        guarded = any(c.name.startswith(("Codex hooks (", "Gemini CLI hooks (", "Hermes"))
                      for c in others)
        checks.append(Check("Claude Code hooks", guarded, "not registered: run "
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
    checks.extend(gateway_checks(cwd))
    checks.append(_prefilter_check())
    checks.append(spark_check())
    checks.extend(others)
    return checks


def _plugin_folders(config_dir: Path) -> list[Path]:
    """Where Claude Code installed redactor's plugin (``installed_plugins.json``)."""
    from redactor.install import CLAUDE_PLUGIN

    try:
        data = json.loads((config_dir / "plugins" / "installed_plugins.json")
                          .read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    plugins = data.get("plugins") if isinstance(data, dict) else None
    folders = []
    for key, installs in (plugins or {}).items() if isinstance(plugins, dict) else ():
        if isinstance(key, str) and key.split("@", 1)[0] == CLAUDE_PLUGIN \
                and isinstance(installs, list):
            folders += [Path(i["installPath"]) for i in installs
                        if isinstance(i, dict) and isinstance(i.get("installPath"), str)]
    return folders


def claude_plugin_checks(cwd: Path | None = None, *,
                         hooks_registered: bool = False) -> list[Check]:
    """redactor's Claude Code plugin, when a settings file enables it."""
    from redactor.install import claude_plugin_enabled, claude_settings_path

    user = claude_settings_path(user=True)
    project = claude_settings_path(cwd)
    enabled = claude_plugin_enabled([user, project, project.with_name("settings.local.json")])
    if not enabled:
        return []
    where = ", ".join(str(p) for p in enabled)
    named = os.environ.get("REDACTOR_HOOK_BIN")
    if named:
        problem = hook_bin_problem(named, cwd)
        checks = [Check("Claude Code plugin", problem is None,
                        f"enabled in {where}; its hook runs {named} (REDACTOR_HOOK_BIN)"
                        if problem is None else f"enabled in {where}, but REDACTOR_HOOK_BIN "
                        f"{problem}: the plugin's hook refuses it and blocks every call")]
    else:
        program = shutil.which("redactor-hook") or shutil.which("redactor")
        checks = [Check("Claude Code plugin", program is not None,
                        f"enabled in {where}; its hook runs {program}" if program else
                        f"enabled in {where}, but neither redactor-hook nor redactor is on "
                        "PATH: the plugin's hook blocks every call")]
    scripts = [folder / "hooks" / "redactor-hook" for folder in _plugin_folders(user.parent)]
    for script in scripts:
        if script.is_file():
            checks.append(_self_test(shlex.quote(str(script)), "claude", "plugin self-test"))
            break
    if hooks_registered:
        checks.append(Check("Claude Code plugin", True, "redactor's hooks are in the settings "
                            "too: both run on every call; keep one (claude plugin disable "
                            "redactor@redactor, or remove the settings hooks)", warning=True))
    return checks


def hook_bin_problem(named: str, cwd: Path | None = None) -> str | None:
    """Why the plugin's script refuses the program ``REDACTOR_HOOK_BIN`` names (the same
    rules as ``plugins/redactor/hooks/redactor-hook``), or None."""
    from redactor.config import account_home

    if not os.path.isabs(named):
        return "is not an absolute path"
    if not (os.path.isfile(named) and os.access(named, os.X_OK)):
        return "names no executable file"
    real = Path(os.path.realpath(named))
    if real.name != "redactor-hook":
        return "does not name a redactor-hook program"
    home = account_home()
    for folder in (os.environ.get("CLAUDE_PROJECT_DIR"), str(cwd or Path.cwd())):
        if not folder:
            continue
        top = Path(folder).resolve()
        if home is not None and home.is_relative_to(top):
            continue  # the home folder and above hold the user's own programs
        if real.is_relative_to(top):
            return f"lies inside the project folder {top}, where a project could have put it"
    info = real.stat()
    if info.st_uid not in (os.getuid(), 0) or info.st_mode & 0o022:
        return "is not owned by you or root, or others may write it"
    return None


def drill_checks(env: dict[str, str] | None = None) -> list[Check]:
    """A failure drill variable set outside a test run: ignored, or (with a switch file)
    honoured, so that hooks fail on purpose.  Either way, something to know."""
    from redactor.drills import DRILLS, SWITCHES_ENV, switch_problem

    environ = dict(os.environ) if env is None else env
    named = [name for name in DRILLS if environ.get(name)]
    if not named:
        return []
    problem = switch_problem(environ)
    if problem is None:
        return [Check("failure drills", True, f"{', '.join(named)} honoured ({SWITCHES_ENV} "
                      "names a switch file): hooks fail or stall on purpose", warning=True)]
    return [Check("failure drills", True, f"{', '.join(named)} ignored: {problem}; the drills "
                  "work in redactor's test runs only", warning=True)]


def baseline_key_check(env: dict[str, str] | None = None) -> Check:
    """Where ``redactor scan --baseline`` takes its key from, and its id (never the key)."""
    from redactor.baseline import KEY_ENV, baseline_key, user_key_file

    environ = dict(os.environ) if env is None else env
    try:
        key = baseline_key(environ)
    except ConfigError as exc:
        return Check("baseline key", False, str(exc))
    if key is None:
        return Check("baseline key", True, f"none: set {KEY_ENV} to the team key, or "
                     f"--write-baseline creates {user_key_file(environ)}")
    return Check("baseline key", True, f"key id {key.key_id}, from {key.source}")


def pseudonym_checks(settings: Any, env: Mapping[str, str] | None = None) -> list[Check]:
    """With [pseudonyms] on: the key (never created here) and the vault (opened, its
    counts; never a value).  Nothing when pseudonyms are off."""
    if not settings.pseudonyms:
        return []
    from redactor.pseudonyms.keys import pseudonym_key

    env = os.environ if env is None else env
    try:
        key = pseudonym_key(settings, env, create=False)
    except RedactorError as exc:
        return [Check("pseudonym key", False, str(exc))]
    if key is None:
        return [Check("pseudonym key", True, "none yet: the first token creates "
                      "~/.config/redactor/baseline.key (mode 600)")]
    checks = [Check("pseudonym key", True, f"key id {key.key_id}, from {key.source}")]
    if not settings.vault:
        return [*checks, Check("pseudonym vault", True, "off: tokens only, irreversible")]
    from redactor.pseudonyms.vault import Vault, default_path

    path = default_path(env)
    if not path.exists():
        return [*checks, Check("pseudonym vault", True, f"{path}: not created yet")]
    try:
        with Vault.open(path, key.vault_key, key.key_id) as vault:
            counts = vault.stats()
    except RedactorError as exc:
        return [*checks, Check("pseudonym vault", False, str(exc))]
    return [*checks, Check("pseudonym vault", True, f"{path}: {sum(counts.values())} tokens, "
                           f"entries purged after {settings.vault_expiry_days:g} days unused")]


def _prefilter_check() -> Check:
    """Which backend finds batch candidates (informational: both give the same output)."""
    from redactor.candidates import available_backend

    backend = available_backend()
    if backend == "hyperscan":
        return Check("prefilter", True, "hyperscan (batch candidates found in one pass)")
    if backend == "re2":
        return Check("prefilter", True, "google-re2")
    return Check("prefilter", True, "Python re; install redactor-br[fast] (hyperscan on x86-64, "
                 "google-re2 elsewhere) for faster batch runs")


_JAVA_MAJOR = re.compile(r'version "(?:1\.)?(\d+)')


def spark_check() -> Check:
    """Can ``redactor redact --engine spark`` run here?  Informational: Spark is an
    optional extra, so its absence is no failure; PySpark without a usable Java is a
    warning.  PySpark is looked up, not imported (importing it costs seconds)."""
    from importlib.metadata import PackageNotFoundError, version
    from importlib.util import find_spec

    if find_spec("pyspark") is None:
        return Check("Spark", True, "PySpark not installed; pip install 'redactor-br[spark]' "
                     "for --engine spark")
    try:
        release = version("pyspark")
    except PackageNotFoundError:
        release = "unknown release"
    from redactor.spark import java_runtime

    java = java_runtime()
    if java is None:
        return Check("Spark", True, f"PySpark {release}, but no Java runtime runs from "
                     "JAVA_HOME or PATH: --engine spark will fail (Spark 4 needs Java 17 "
                     "or 21)", warning=True)
    found = _JAVA_MAJOR.search(java)
    if found and int(found.group(1)) < 17:
        return Check("Spark", True, f"PySpark {release}, but Java is too old ({java}): "
                     "Spark 4 needs Java 17 or 21", warning=True)
    return Check("Spark", True, f"PySpark {release}, Java: {java}")


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


# ---------------------------------------------------------------------- Codex CLI

CODEX_OPEN: Final = (
    "Codex leaves open: output a still-running command returns early (exec_command's "
    "first chunk) reaches the model without PostToolUse; a refused non-shell call "
    "(apply_patch, MCP) is echoed back to the model by Codex; a hook Codex does not trust "
    "is skipped silently (re-run 'redactor install codex' after editing hooks.json)"
)


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def codex_checks(cwd: Path | None = None) -> list[Check]:
    """Codex's hooks: registered for every event, trusted by the current hash, working."""
    from redactor.hosts.catalogue import snake_case
    from redactor.install import (
        CODEX_EVENTS,
        codex_home,
        codex_hooks_path,
        codex_trust_entries,
    )

    checks: list[Check] = []
    config_path = codex_home() / "config.toml"
    try:
        import tomllib

        config = tomllib.loads(config_path.read_text(encoding="utf-8")) \
            if config_path.exists() else {}
    except (OSError, ValueError) as exc:
        return [Check("Codex config", False, f"{config_path}: {type(exc).__name__}")]
    state = config.get("hooks", {}).get("state", {}) if isinstance(config.get("hooks"), dict) \
        else {}
    command: str | None = None
    for label, path in (("project", codex_hooks_path(cwd)), ("user", codex_hooks_path(user=True))):
        data = _load_json(path)
        trust = codex_trust_entries(path, data) if isinstance(data, dict) else {}
        if not trust:
            continue
        events = {key.rsplit(":", 3)[1] for key in trust}
        missing = [e for e in CODEX_EVENTS if snake_case(e) not in events]
        untrusted = [key.rsplit(":", 3)[1] for key, digest in trust.items()
                     if not isinstance(state.get(key), dict)
                     or state[key].get("trusted_hash") != digest]
        problems = []
        if missing:
            problems.append("missing " + ", ".join(missing))
        if untrusted:
            problems.append("not trusted (Codex skips them silently): "
                            + ", ".join(sorted(set(untrusted)))
                            + "; run 'redactor install codex' again")
        if label == "project":
            level = config.get("projects", {}).get(str(path.parent.parent), {})
            if not isinstance(level, dict) or level.get("trust_level") != "trusted":
                problems.append("the project is not trusted, so Codex loads no project hook")
        checks.append(Check(f"Codex hooks ({label})", not problems,
                            f"{path}" + ("; " + "; ".join(problems) if problems else "")))
        hooks = data.get("hooks", {})
        command = command or next(
            (h.get("command") for groups in hooks.values() if isinstance(groups, list)
             for g in groups if isinstance(g, dict)
             for h in g.get("hooks", []) if isinstance(h, dict)
             and isinstance(h.get("command"), str) and "codex" in h["command"]), None)
    if not checks:
        if codex_home().exists():
            checks.append(Check("Codex hooks", True, f"{codex_home()} exists but redactor's "
                                "hooks are not registered: run 'redactor install codex "
                                "--project .' or '--user'", warning=True))
        return checks
    if command:
        checks.append(_self_test(command, "codex", "Codex self-test"))
    checks.append(Check("Codex: paths left open", True, CODEX_OPEN, warning=True))
    return checks


# ---------------------------------------------------------------------- Gemini CLI

GEMINI_OPEN: Final = (
    "Gemini CLI leaves open: without a fixed model (-m or model.name) its model router "
    "gets the prompt before BeforeModel can redact it (prompts with blocking types are "
    "stopped earlier, by BeforeAgent); project hooks are skipped under --skip-trust"
)


def gemini_checks(cwd: Path | None = None) -> list[Check]:
    """Gemini CLI's hooks: registered for every event, working; open paths named."""
    from redactor.install import GEMINI_EVENTS, gemini_settings_path, is_our_command

    checks: list[Check] = []
    command: str | None = None
    fixed_model = False
    places = [("user", gemini_settings_path())]
    if cwd is not None or Path.cwd() != Path.home():
        places.insert(0, ("project", gemini_settings_path(cwd or Path.cwd(), user=False)))
    for label, path in places:
        data = _load_json(path)
        if not isinstance(data, dict):
            continue
        model = data.get("model")
        fixed_model = fixed_model or (isinstance(model, dict) and bool(model.get("name")))
        hooks = data.get("hooks")
        found = {event for event, groups in (hooks.items() if isinstance(hooks, dict) else ())
                 if isinstance(groups, list) for g in groups if isinstance(g, dict)
                 for h in g.get("hooks", []) if isinstance(h, dict)
                 and is_our_command(h.get("command"), "gemini")}
        if not found or not isinstance(hooks, dict):
            continue
        for groups in hooks.values():
            for g in groups if isinstance(groups, list) else ():
                for h in g.get("hooks", []) if isinstance(g, dict) else ():
                    if isinstance(h, dict) and is_our_command(h.get("command"), "gemini"):
                        command = command or h["command"]
        missing = [e for e in GEMINI_EVENTS if e not in found]
        checks.append(Check(f"Gemini CLI hooks ({label})", not missing,
                            f"{path}" + (f"; missing {', '.join(missing)}" if missing else "")))
    if not checks:
        if gemini_settings_path().parent.exists():
            checks.append(Check("Gemini CLI hooks", True, f"{gemini_settings_path().parent} "
                                "exists but redactor's hooks are not registered: run "
                                "'redactor install gemini'", warning=True))
        return checks
    if command:
        checks.append(_self_test(command, "gemini", "Gemini CLI self-test"))
    open_paths = GEMINI_OPEN if not fixed_model else GEMINI_OPEN.split(": ", 1)[0] + ": " + \
        GEMINI_OPEN.split("; ", 1)[1]
    checks.append(Check("Gemini CLI: paths left open", True, open_paths, warning=True))
    return checks


def gateway_checks(cwd: Path | None = None, env: dict[str, str] | None = None) -> list[Check]:
    """When Claude Code's settings send the model requests to redactor gateway: that it
    answers with this user's token, what it does with images, that its upstream can be
    reached, and a canary through its dry run (redacted, never sent upstream)."""
    from redactor.config import load_settings
    from redactor.install import claude_settings_path

    environ = dict(os.environ) if env is None else env
    project = claude_settings_path(cwd)
    session: dict[str, str] = {}
    for path in (claude_settings_path(user=True), project,
                 project.with_name("settings.local.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found = data.get("env") if isinstance(data, dict) else None
        if isinstance(found, dict):
            session.update({k: v for k, v in found.items() if isinstance(v, str)})
    if session.get("REDACTOR_GATEWAY") != "1":
        return [Check("gateway", True, "not in use: prompts with personal data are blocked, "
                      "not redacted ('redactor install claude --gateway' sends every request "
                      "through it)", warning=True)]
    from redactor.gateway.control import GATEWAY_CWD

    try:
        settings = load_settings(cwd=GATEWAY_CWD, env=environ)
    except RedactorError as exc:
        return [Check("gateway", False, str(exc))]
    base = session.get("ANTHROPIC_BASE_URL", "")
    checks = [Check("gateway binary", True, f'images and PDFs: "{settings.gateway_binary}" ('
                    + ("withheld: the model gets a note instead" if settings.gateway_binary
                       == "block" else "sent as they are: the gateway cannot read them")
                    + ")", warning=settings.gateway_binary == "pass")]
    from redactor.gateway import identity

    probe = {**environ, "ANTHROPIC_BASE_URL": base}
    probe.pop("ANTHROPIC_UNIX_SOCKET", None)
    if not identity.gateway_live(probe, remember=False):
        checks.insert(0, Check("gateway", False, f"the settings send requests to {base}, but no "
                               "redactor gateway with your token answers there: run "
                               "'redactor gateway start'"))
        return checks
    token = identity.read_token(environ) or ""
    status = _gateway_get(base, "/redactor/v1/status", token)
    upstream = str(status.get("upstream", "")) if isinstance(status, dict) else ""
    checks.insert(0, Check("gateway", True, f"answering at {base} (pid "
                           f"{status.get('pid') if isinstance(status, dict) else '?'}), "
                           f"upstream {upstream or '?'}"))
    checks.append(_upstream_check(upstream))
    checks.append(_gateway_canary(base, token))
    return checks


def _gateway_get(base: str, path: str, token: str, body: bytes | None = None) -> Any:
    import http.client
    from urllib.parse import urlsplit

    from redactor.gateway.identity import HEADER

    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80,
                                            timeout=30)
    try:
        connection.request("POST" if body is not None else "GET", path, body=body,
                           headers={HEADER: token, "content-type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
        return json.loads(payload) if response.status == 200 else None
    except (OSError, ValueError):
        return None
    finally:
        connection.close()


def _upstream_check(upstream: str) -> Check:
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(upstream)
        if not parts.hostname:
            raise ValueError("no host")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((parts.hostname or "", port), timeout=5):
            pass
    except (OSError, ValueError) as exc:
        return Check("gateway upstream", False, f"{upstream or '?'} cannot be reached "
                     f"({type(exc).__name__}): the gateway has nowhere to send requests")
    return Check("gateway upstream", True, f"{upstream} reachable")


def _gateway_canary(base: str, token: str) -> Check:
    body = json.dumps({"model": "redactor-doctor", "max_tokens": 1, "messages": [
        {"role": "user", "content": [{"type": "text", "text": f"cliente CPF {CANARY}"}]}]})
    answer = _gateway_get(base, "/redactor/v1/dry-run", token, body.encode())
    if not isinstance(answer, dict) or "body" not in answer:
        return Check("gateway canary", False, "the gateway's dry run did not answer")
    sent = json.dumps(answer["body"])
    digits = "".join(ch for ch in CANARY if ch.isdigit())
    if CANARY in sent or digits in "".join(ch for ch in sent if ch.isdigit()):
        return Check("gateway canary", False, "the canary CPF would have reached the model")
    return Check("gateway canary", True, "canary CPF redacted on the wire (dry run: nothing "
                 "was sent upstream)")

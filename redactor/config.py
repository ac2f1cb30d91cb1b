"""Settings and their loading from TOML files.

Layers, each applied over the one before:

1. built-in defaults;
2. the user file, ``$XDG_CONFIG_HOME/redactor/config.toml`` (``~/.config/...``);
3. the file named by ``REDACTOR_CONFIG`` (trusted like the user file; it must exist;
   a relative name is taken from the caller's working directory);
4. the project file ``.redactor.toml``, the nearest one from the working directory
   upwards.  A project file may come from a repository the user does not control,
   so it may only tighten: add entities and known users, lower the threshold, turn
   the service-account allowlist off, choose placeholders.  Anything that would
   loosen detection is an error naming the key.

Where a file lies decides its trust, not how it was named: a host may set
environment variables from a project's own files (Claude Code's project ``env``,
Gemini CLI's ``.env``), so a user file or ``REDACTOR_CONFIG`` inside the project
folder (see :func:`project_folder`) is read as a project file, tighten-only.

A broken file, an unknown key or a wrong type is a :class:`ConfigError` naming the
file, the key and the fix.  Nothing falls back to defaults silently.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import functools
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

from recognizers.catalogue import CATALOGUE
from recognizers.secret.kinds import KINDS
from redactor.errors import ConfigError
from redactor.serve import timeouts

__all__ = [
    "DEFAULT_ENTITIES",
    "DEFAULT_PROMPT_BLOCK",
    "DEFAULT_PROMPT_BLOCK_SECRETS",
    "ENTITY_LABELS",
    "KEYS",
    "KNOWN_ENTITIES",
    "SECRET_KINDS",
    "KeyRow",
    "OperatorSpec",
    "Rule",
    "Settings",
    "account_home",
    "config_files",
    "config_notes",
    "for_hooks",
    "load_settings",
    "own_account_names",
    "project_folder",
    "settings_from_toml",
]

#: Entities detected by default, in the stable order of recognizers.ENTITIES.  This table
#: and the ones below are read from the pack's catalogue (recognizers.catalogue), which
#: imports no Presidio, so that loading settings stays light.
DEFAULT_ENTITIES: Final = tuple(e.entity for e in CATALOGUE if e.on_by_default)
#: Every entity a configuration may name (those off by default too).
KNOWN_ENTITIES: Final = tuple(e.entity for e in CATALOGUE)

#: The short label each entity gets in placeholders: ``[CPF]``, ``[USERNAME]``.
ENTITY_LABELS: Final[Mapping[str, str]] = {e.entity: e.label for e in CATALOGUE}

#: The kinds a SECRET finding carries (in its recognizer name, ``SecretRecognizer:jwt``),
#: declared once in recognizers.secret.kinds (no Presidio, no patterns compiled).
SECRET_KINDS: Final = KINDS
#: Secret kinds that make a prompt bounce (the others are redacted where the host can
#: rewrite a prompt): a private key pasted into a chat is never a description of work.
DEFAULT_PROMPT_BLOCK_SECRETS: Final = ("private_key",)

#: Entities the hooks redact in tool input (a Bash command, a file an agent writes, a
#: commit).  Left alone there: free text, where rewriting a person's name or address
#: corrupts the user's work, and secrets, as the agent can only hold a credential that
#: reached it already and a command whose password became [SECRET] fails.
DEFAULT_INPUT_ENTITIES: Final = tuple(e.entity for e in CATALOGUE
                                      if e.on_by_default and e.in_tool_input)

#: Entities that make a prompt bounce in the prompt hooks (the others are redacted in
#: tool traffic but may appear in what a person types about their own work).
DEFAULT_PROMPT_BLOCK: Final = tuple(e.entity for e in CATALOGUE if e.blocks_prompt)

OperatorKind = Literal["replace", "mask", "redact", "hash", "pseudonym"]
#: The kinds a configuration's [operators] may name; ``pseudonym`` is set by
#: [pseudonyms] alone, one place deciding which entities become reversible tokens.
OPERATOR_KINDS: Final = ("replace", "mask", "redact", "hash")
#: What [pseudonyms] turns into tokens by default: the identifiers an agent's work goes
#: by (a customer's CPF or CNPJ, a user to lock, a person); the rest stay placeholders.
DEFAULT_PSEUDONYM_ENTITIES: Final = ("BR_CPF", "BR_CNPJ", "USERNAME", "PERSON")
#: Days a vault entry lives after its last use.
DEFAULT_VAULT_EXPIRY_DAYS: Final = 30.0
LANGUAGES: Final = ("pt-BR", "en")
#: The model gateway's defaults: a loopback port, and the Anthropic API.
DEFAULT_GATEWAY_PORT: Final = 47821
DEFAULT_GATEWAY_UPSTREAM: Final = "https://api.anthropic.com"
#: The longest a gateway request may take to redact before it fails closed.
MAX_GATEWAY_BUDGET: Final = 600.0
DEFAULT_HASH_KEY_ENV: Final = "REDACTOR_HASH_KEY"
PROJECT_FILE: Final = ".redactor.toml"
#: What marks a project's top folder: a repository, redactor's own project file, and
#: the files through which a host takes environment variables from a project (Claude
#: Code's ``.claude/settings.json`` ``env``, Gemini CLI's ``.gemini/.env`` and ``.env``).
PROJECT_MARKERS: Final = (".git", PROJECT_FILE, ".claude", ".gemini", ".env")
#: The markers of a repository itself, by which a configuration file is judged where it
#: lies: ``.claude``, ``.gemini`` and ``.env`` are also found in a home folder of a user
#: of those tools (a test's, or one named by ``$HOME``).
REPOSITORY_MARKERS: Final = (".git", PROJECT_FILE)
#: The longest a hook call may work before failing closed: the timeout chain
#: (redactor.serve.timeouts) keeps it below the client's and the host's timeouts.
MAX_TIME_BUDGET: Final = timeouts.MAX_TIME_BUDGET
#: Size caps for the files the configuration names.
MAX_CONFIG_BYTES: Final = 1 << 20
MAX_KNOWN_USERS_BYTES: Final = 16 << 20
MAX_KEY_FILE_BYTES: Final = 64 << 10

# A rendered placeholder: ASCII, in brackets, no space or shell metacharacter inside.
_PLACEHOLDER_RE: Final = re.compile(r"\[[A-Za-z0-9_.:-]{1,80}\]")
_TEMPLATE_FIELDS: Final = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class OperatorSpec:
    """How findings of one entity are replaced.

    ``replace`` puts a placeholder; ``hash`` a placeholder with a keyed HMAC of the
    value (same value, same token, across calls and processes); ``pseudonym`` (set by
    [pseudonyms]) the same token, its value kept in the user's vault; ``mask`` overwrites
    every character with ``mask_char``; ``redact`` removes the value.
    Placeholder templates may use ``{label}`` (``CPF``), ``{entity}`` (``BR_CPF``)
    and, for ``hash``, ``{hash}``.
    """

    kind: OperatorKind = "replace"
    placeholder: str | None = None
    mask_char: str = "*"

    def template(self) -> str:
        """The placeholder template in effect."""
        if self.placeholder is not None:
            return self.placeholder
        return "[{label}:{hash}]" if self.kind in ("hash", "pseudonym") else "[{label}]"

    def render(self, entity: str, digest: str = "") -> str:
        """The placeholder for one finding (``digest`` only matters for ``hash``)."""
        label = ENTITY_LABELS.get(entity, entity.removeprefix("BR_"))
        return self.template().format(label=label, entity=entity, hash=digest)


_PSEUDONYM: Final = OperatorSpec("pseudonym")


@dataclass(frozen=True, slots=True)
class Rule:
    """A policy rule: stop a tool call or a prompt that mentions something forbidden.

    ``pattern`` is searched in every string of a tool's input (and in the prompt);
    ``tools`` must fully match the tool name.  ``deny`` stops the call, ``ask`` hands
    it to the person; on a prompt both block it.  ``reason`` is shown as written.

    Gates: ``hours`` (``"HH-HH"``, local time, may wrap midnight) limits the rule to a
    window, and ``flag_file`` to while that file exists (a quota flag another job
    sets).  Every condition given must hold; a rule with only gates matches every
    call in its window, which makes a cost gate.
    """

    name: str
    reason: str
    pattern: str | None = None
    action: Literal["deny", "ask"] = "deny"
    tools: str = ".*"
    on: tuple[Literal["tool", "prompt"], ...] = ("tool", "prompt")
    hours: tuple[int, int] | None = None
    flag_file: str | None = None


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that decides what is detected and how it is replaced.  Immutable."""

    entities: tuple[str, ...] = DEFAULT_ENTITIES
    score_threshold: float = 0.4
    default_operator: OperatorSpec = OperatorSpec()
    operators: tuple[tuple[str, OperatorSpec], ...] = ()
    known_users_files: tuple[Path, ...] = ()
    known_users: tuple[str, ...] = ()
    service_accounts: tuple[str, ...] = ()
    builtin_service_accounts: bool = True
    allow_values: tuple[str, ...] = ()
    hash_key_env: str = DEFAULT_HASH_KEY_ENV
    hash_key_file: Path | None = None
    language: str = "pt-BR"
    prompt_blocked_message: str | None = None
    spacy_model: str | None = None
    rules: tuple[Rule, ...] = ()
    prompt_block_entities: tuple[str, ...] = DEFAULT_PROMPT_BLOCK
    #: SECRET kinds that block a prompt (``private_key``...), besides the entities above.
    prompt_block_secrets: tuple[str, ...] = DEFAULT_PROMPT_BLOCK_SECRETS
    #: Entities the hooks redact in tool input (tool output gets every entity).
    input_entities: tuple[str, ...] = DEFAULT_INPUT_ENTITIES
    permission_decision: Literal["none", "allow", "ask"] = "none"
    wrap_bash: bool = False
    hook_time_budget: float = 20.0
    hermes_mode: Literal["block", "redact"] = "block"
    #: The hooks leave the local account's own login and home folder name alone
    #: (``hooks.own_account = "keep"``): they are not someone else's data to hide from
    #: the person's own agent, and a redacted home path names no file.
    keep_own_account: bool = True
    #: The model gateway (``redactor gateway``): its loopback port, where it forwards
    #: requests, what it does with images and PDFs it cannot read, and its time budget.
    gateway_port: int = DEFAULT_GATEWAY_PORT
    gateway_upstream: str = DEFAULT_GATEWAY_UPSTREAM
    gateway_binary: Literal["block", "pass"] = "block"
    gateway_time_budget: float = 60.0
    #: Pseudonym mode ([pseudonyms]): these entities become tokens that the user's vault
    #: (unless ``vault`` is false) can turn back into their values under the policy.
    pseudonyms: bool = False
    pseudonym_entities: tuple[str, ...] = DEFAULT_PSEUDONYM_ENTITIES
    vault: bool = True
    vault_expiry_days: float = DEFAULT_VAULT_EXPIRY_DAYS
    #: The gateway shows the person the model's answers with values in place of tokens.
    pseudonym_display: bool = True
    #: ``[[pseudonyms.allow]]``: (MCP server, tool, argument path) that get values.
    pseudonym_mcp_allow: tuple[tuple[str, str, str], ...] = ()
    sources: tuple[Path, ...] = field(default=(), compare=False)

    def operator_for(self, entity: str) -> OperatorSpec:
        """The operator configured for an entity, or the default one (a pseudonym for
        the entities of an enabled [pseudonyms])."""
        if self.pseudonyms and entity in self.pseudonym_entities:
            return _PSEUDONYM
        for name, spec in self.operators:
            if name == entity:
                return spec
        return self.default_operator

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with some fields changed (for flags and tests)."""
        return replace(self, **changes)


def own_account_names(env: Mapping[str, str]) -> tuple[str, ...]:
    """The local account's login (from the system's user database) and the name of its
    home folder (from ``$HOME``): what a home path or a prompt on this machine shows."""
    import pwd

    names: list[str] = []
    with contextlib.suppress(KeyError, OSError):
        names.append(pwd.getpwuid(os.getuid()).pw_name)
    home = env.get("HOME")
    if home:
        leaf = Path(home).name
        if leaf and leaf not in (".", ".."):
            names.append(leaf)
    return tuple(dict.fromkeys(name for name in names if name.strip()))


def for_hooks(settings: Settings, env: Mapping[str, str]) -> Settings:
    """The settings the hooks' engine is built with: with ``hooks.own_account = "keep"``
    the local login and home folder name join the service accounts, never redacted."""
    if not settings.keep_own_account:
        return settings
    own = [name for name in own_account_names(env) if name not in settings.service_accounts]
    if not own:
        return settings
    return replace(settings, service_accounts=(*settings.service_accounts, *own))


# --------------------------------------------------------------------------- loading


def user_config_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/redactor`` (``~/.config/redactor``): the user's own files."""
    base = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME") or Path.home()) / ".config")
    return Path(base) / "redactor"


def _user_config_file(env: Mapping[str, str]) -> Path:
    return user_config_dir(env) / "config.toml"


def _project_config_file(cwd: Path) -> Path | None:
    for directory in (cwd, *cwd.parents):
        candidate = directory / PROJECT_FILE
        if candidate.is_file():
            owner = candidate.stat().st_uid
            if owner not in (os.getuid(), 0):
                # Another user's file above the working folder (say /tmp/.redactor.toml)
                # is not this user's project: refuse it loudly rather than obey or skip it.
                raise ConfigError(f"{candidate}: the project file belongs to another user "
                                  f"(uid {owner}); remove it or run from another folder")
            return candidate
    return None


@functools.cache
def account_home() -> Path | None:
    """This account's home folder from the system's user database (real path), not from
    ``$HOME``: a project's environment settings could point ``$HOME`` into the project."""
    import pwd

    try:
        home = pwd.getpwuid(os.getuid()).pw_dir
    except (KeyError, OSError):
        return None
    return Path(home).resolve() if home else None


def project_folder(cwd: Path, markers: tuple[str, ...] = PROJECT_MARKERS) -> Path | None:
    """The top folder (real path) of the project ``cwd`` is in: the nearest folder from
    ``cwd`` upwards holding one of :data:`PROJECT_MARKERS`.

    None when there is no marker below the account's home folder.  The home folder and
    the folders above it are never a project's: they hold the user's own files (a home
    kept in git for its dotfiles, an agent run from ``~``, ``~/.claude``), so the user
    file ``~/.config/redactor/config.toml`` never counts as a project's because of them.
    """
    home = account_home()
    below = None if home is None else str(home).rstrip("/") + "/"
    directory = os.path.realpath(cwd)  # strings: this runs on every hook call
    while True:
        if below is not None and below.startswith(directory.rstrip("/") + "/"):
            return None  # the home folder or above
        prefix = directory.rstrip("/") + "/"
        if any(os.access(prefix + marker, os.F_OK) for marker in markers):
            return Path(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _own_user_file(path: Path) -> bool:
    """Is ``path`` the account's own ``~/.config/redactor/config.toml`` (from the user
    database; its folders resolved, the file itself as named: a link the user made from
    there into a repository is still the user's choice)?"""
    home = account_home()
    if home is None or path.name != "config.toml":
        return False
    try:
        return path.parent.resolve() == (home / ".config" / "redactor").resolve()
    except OSError:
        return False


_Layer = tuple[Path, Literal["user", "project"], str | None]


def _layers(cwd: Path | None, env: Mapping[str, str] | None) -> list[_Layer]:
    """The files to read, in order, each with its trust and, for a file read at a lower
    trust than its name gives, why."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    named: list[tuple[Path, str]] = []
    user = _user_config_file(env)
    if user.is_file():
        named.append((user, "the user file"))
    explicit = env.get("REDACTOR_CONFIG")
    if explicit:
        # A relative name is the caller's: taken from the working directory the settings
        # are read for (a hook event's cwd, else the hook client's), never from the folder
        # a long-running server was started in.
        path = cwd / Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(
                f"REDACTOR_CONFIG names {path}, which is not a readable file; "
                "fix the path or unset the variable"
            )
        named.append((path, "REDACTOR_CONFIG"))
    found: list[_Layer] = []
    folder = project_folder(cwd) if named else None
    for path, what in named:
        real = path.resolve()
        # The project the caller works in, or any project the file itself lies in (a
        # subfolder with a marker of its own, or a caller outside every project, must
        # not make a repository's file the user's).
        owner = None if _own_user_file(path) else (
            folder if folder is not None and real.is_relative_to(folder)
            else project_folder(real.parent, REPOSITORY_MARKERS))
        if owner is not None:
            # Whoever controls the project controls this file (and may have named it
            # through the host's project environment settings): it may only tighten.
            found.append((path, "project", f"{path} ({what}) is inside the project folder "
                          f"{owner}: read as a project file (tighten-only)"))
        else:
            found.append((path, "user", None))
    project = _project_config_file(cwd)
    if project is not None:
        found.append((project, "project", None))
    return found


def config_files(
    cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> list[tuple[Path, Literal["user", "project"]]]:
    """The files that :func:`load_settings` reads, in order, with the trust each is read
    with: a user file or ``REDACTOR_CONFIG`` inside the project folder gets "project"."""
    return [(path, trust) for path, trust, _ in _layers(cwd, env)]


def config_notes(cwd: Path | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """Why a file of :func:`config_files` is read as a project file though named as the
    user's (for ``redactor doctor``)."""
    return [note for _, _, note in _layers(cwd, env) if note]


def load_settings(
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    files: Iterable[tuple[Path, Literal["user", "project"]]] | None = None,
) -> Settings:
    """Read the configuration layers (see the module docstring) into Settings."""
    layers = _layers(cwd, env) if files is None else [(p, t, None) for p, t in files]
    settings = Settings()
    for path, trust, note in layers:
        try:
            settings = _apply_file(settings, path, trust)
        except ConfigError as exc:
            if note is None:
                raise
            raise ConfigError(f"{exc} ({note}; keep your own configuration outside the "
                              "project)") from None
    return settings


def read_regular_file(path: Path, limit: int, what: str, fix: str, *,
                      private: bool = False) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or a ConfigError.

    Opened without blocking and checked before reading, so a FIFO, a device such as
    ``/dev/zero`` or a folder named by a configuration is a clear error, not a hang
    or an exhausted memory.  ``private`` (a key file): the file must be no symbolic
    link, belong to the user and be closed to group and others (checked on the open
    file, so it cannot be swapped between the check and the read).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_NOFOLLOW if private else 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ConfigError(f"{path}: the {what} does not exist; {fix}") from None
    except OSError as exc:
        if private and exc.errno == errno.ELOOP:
            raise ConfigError(f"{path}: the {what} is a symbolic link; replace it with the "
                              "file itself (mode 600)") from None
        raise ConfigError(f"{path}: the {what} cannot be read ({exc.strerror}); {fix}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: the {what} is not a regular file; {fix}")
        if private and info.st_uid != os.getuid():
            raise ConfigError(f"{path}: the {what} belongs to another user (uid "
                              f"{info.st_uid}); use a key file of your own")
        if private and info.st_mode & 0o077:
            raise ConfigError(f"{path}: the {what} is open to group or others (mode "
                              f"{stat.S_IMODE(info.st_mode):03o}); run chmod 600 {path}")
        if info.st_size > limit:
            raise ConfigError(f"{path}: the {what} is larger than {limit} bytes; {fix}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise ConfigError(f"{path}: the {what} is larger than {limit} bytes; {fix}")
        return b"".join(chunks)
    except OSError as exc:
        raise ConfigError(f"{path}: the {what} cannot be read ({exc.strerror}); {fix}") from None
    finally:
        os.close(fd)


def tokenised(settings: Settings) -> tuple[str, ...]:
    """The entities written as keyed tokens (``hash`` or ``pseudonym``): the engine
    needs the pseudonym key for them (redactor.pseudonyms.keys)."""
    return tuple(e for e in settings.entities
                 if settings.operator_for(e).kind in ("hash", "pseudonym"))


def read_known_users(files: Iterable[Path]) -> list[str]:
    """The user names listed in the known-users files, one a line (``#`` comments and
    blank lines left out); a ConfigError for a file that cannot be read or is no UTF-8."""
    names: list[str] = []
    for path in files:
        raw = read_regular_file(path, MAX_KNOWN_USERS_BYTES, "known-users file",
                                "fix usernames.known_users_file")
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: the known-users file is not UTF-8 text") from None
        for line in content.splitlines():
            entry = line.strip()
            if entry and not entry.startswith("#"):
                names.append(entry)
    return names


def _read_toml(path: Path) -> dict[str, Any]:
    raw = read_regular_file(path, MAX_CONFIG_BYTES, "configuration file",
                            "fix its permissions, shorten it or remove it")
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: is not UTF-8 text; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}; fix the syntax at that line") from None


_RULE_KEYS: Final = {"name": "short identifier", "pattern": "regular expression",
                     "reason": "text shown to the model and the person",
                     "action": "deny or ask", "tools": "regular expression for tool names",
                     "on": 'list of "tool" and "prompt"',
                     "hours": 'active window "HH-HH" in local time',
                     "flag_file": "path of a file whose presence activates the rule"}
_OPERATOR_KEYS: Final = {"type": "replace, mask, redact or hash",
                         "placeholder": "template such as \"[{label}]\"",
                         "mask_char": "one character"}


def _suggest(key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(known), n=1)
    return f"did you mean '{close[0]}'? " if close else ""


def _fail(path: Path, key: str, problem: str, fix: str) -> ConfigError:
    return ConfigError(f"{path}: key '{key}' {problem}; {fix}")


def _string_list(path: Path, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        short = key.rsplit(".", maxsplit=1)[-1]
        raise _fail(path, key, "must be a list of strings", f'write it as {short} = ["a", "b"]')
    return tuple(value)


def _entity_list(path: Path, key: str, value: Any) -> tuple[str, ...]:
    names = _string_list(path, key, value)
    for name in names:
        if name not in KNOWN_ENTITIES:
            raise _fail(path, key, f"names an unknown entity '{name}'",
                        f"{_suggest(name, KNOWN_ENTITIES)}known entities: "
                        f"{', '.join(KNOWN_ENTITIES)}")
    return names


def _relative_path(path: Path, key: str, value: Any) -> Path:
    if not isinstance(value, str) or not value:
        raise _fail(path, key, "must be a non-empty path string", "write it as a quoted path")
    candidate = Path(value).expanduser()
    return candidate if candidate.is_absolute() else path.parent / candidate


def _operator(path: Path, key: str, value: Any, project: bool) -> OperatorSpec:
    if not isinstance(value, dict):
        raise _fail(path, key, "must be a table", f'write it as {key} = {{ type = "replace" }}')
    for sub in value:
        if sub not in _OPERATOR_KEYS:
            raise _fail(path, f"{key}.{sub}", "is unknown",
                        f"{_suggest(sub, _OPERATOR_KEYS)}known keys: {', '.join(_OPERATOR_KEYS)}")
    kind = value.get("type", "replace")
    if kind not in OPERATOR_KINDS:
        raise _fail(path, f"{key}.type", f"has the unknown operator '{kind}'",
                    f"use one of {', '.join(OPERATOR_KINDS)}")
    placeholder = value.get("placeholder")
    if placeholder is not None:
        _check_template(path, f"{key}.placeholder", placeholder, kind)
    mask_char = value.get("mask_char", "*")
    if not isinstance(mask_char, str) or len(mask_char) != 1 or not mask_char.isascii() \
            or mask_char.isalnum():
        raise _fail(path, f"{key}.mask_char", "must be one ASCII character that is not a letter "
                    "or digit", 'use for example "*" or "#"')
    if project and "mask_char" in value:
        raise _fail(path, f"{key}.mask_char", "cannot be set by a project file",
                    "set it in your user configuration")
    return OperatorSpec(kind=kind, placeholder=placeholder, mask_char=mask_char)


def _check_template(path: Path, key: str, template: Any, kind: str) -> None:
    if not isinstance(template, str):
        raise _fail(path, key, "must be a string", 'write it as placeholder = "[{label}]"')
    fields = set(_TEMPLATE_FIELDS.findall(template))
    allowed = {"label", "entity"} | ({"hash"} if kind == "hash" else set())
    if not fields <= allowed:
        raise _fail(path, key, f"uses unknown fields {sorted(fields - allowed)}",
                    f"use only {{{'}, {'.join(sorted(allowed))}}}")
    if kind == "hash" and "hash" not in fields:
        raise _fail(path, key, "has no {hash} field", 'a hash placeholder needs it, e.g. '
                    '"[{label}:{hash}]"')
    sample = template.format(label="CREDIT_CARD", entity="EMAIL_ADDRESS", hash="0" * 16)
    if not _PLACEHOLDER_RE.fullmatch(sample):
        raise _fail(path, key, "does not give a safe placeholder",
                    "it must be ASCII letters, digits, _ . : - inside square brackets, "
                    'such as "[{label}]"')


def settings_from_toml(text: str, *, base: Path | None = None,
                       over: Settings | None = None) -> Settings:
    """Settings from TOML text, trusted like the user file, applied over ``over`` (default:
    the built-in defaults).  Relative paths in it resolve against ``base`` (default: the
    working directory); errors name ``<settings text>`` there."""
    where = (Path.cwd() if base is None else base) / "<settings text>"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: invalid TOML: {exc}; fix the syntax at that line") from None
    return _apply_data(Settings() if over is None else over, where, data, "user")


def _apply_file(settings: Settings, path: Path, trust: Literal["user", "project"]) -> Settings:
    return _apply_data(settings, path, _read_toml(path), trust)


def _apply_data(settings: Settings, path: Path, data: dict[str, Any],
                trust: Literal["user", "project"]) -> Settings:
    project = trust == "project"
    changes: dict[str, Any] = {}
    for section, body in data.items():
        if section not in _SCHEMA:
            raise _fail(path, section, "is an unknown section",
                        f"{_suggest(section, _SCHEMA)}known sections: {', '.join(_SCHEMA)}")
        if section == "rules":
            changes["rules"] = (*settings.rules, *_rules(path, body))
            continue
        if not isinstance(body, dict):
            raise _fail(path, section, "must be a table", f"write it as [{section}]")
        if section == "operators":
            _apply_operators(settings, path, body, project, changes)
            continue
        for key, value in body.items():
            dotted = f"{section}.{key}"
            if key not in _SCHEMA[section]:
                raise _fail(path, dotted, "is unknown",
                            f"{_suggest(key, _SCHEMA[section])}known keys in [{section}]: "
                            f"{', '.join(_SCHEMA[section])}")
            _apply_key(settings, path, dotted, value, project=project, changes=changes)
    result = replace(settings, sources=(*settings.sources, path), **changes)
    if result.pseudonyms:
        both = [name for name, _ in result.operators if name in result.pseudonym_entities]
        if both:
            raise _fail(path, "pseudonyms.entities", f"lists {both[0]}, which also has its own "
                        "[operators] table", f"remove {both[0]} from one of the two")
    return result


def _rules(path: Path, body: Any) -> list[Rule]:
    """Parse ``[[rules]]``; every layer adds its rules (a project may add, never remove)."""
    if not isinstance(body, list):
        raise _fail(path, "rules", "must be an array of tables", "write each rule as [[rules]]")
    rules: list[Rule] = []
    for index, item in enumerate(body):
        key = f"rules[{index}]"
        if not isinstance(item, dict):
            raise _fail(path, key, "must be a table", "write it as [[rules]]")
        for sub in item:
            if sub not in _RULE_KEYS:
                raise _fail(path, f"{key}.{sub}", "is unknown",
                            f"{_suggest(sub, _RULE_KEYS)}known keys: {', '.join(_RULE_KEYS)}")
        for required in ("name", "reason"):
            if not isinstance(item.get(required), str) or not item[required].strip():
                raise _fail(path, f"{key}.{required}", "is missing or empty",
                            f"every rule needs {required} = \"...\"")
        if not any(k in item for k in ("pattern", "hours", "flag_file")):
            raise _fail(path, key, "has no condition", "give it a pattern, hours or flag_file")
        hours = None
        if "hours" in item:
            match = re.fullmatch(r"([01]?[0-9]|2[0-3])-([01]?[0-9]|2[0-4])", str(item["hours"]))
            if not isinstance(item["hours"], str) or match is None:
                raise _fail(path, f"{key}.hours", "must be a window like \"22-06\"",
                            "use two hours from 0 to 24 separated by a dash")
            hours = (int(match.group(1)), int(match.group(2)))
        flag_file = None
        if "flag_file" in item:
            flag_file = str(_relative_path(path, f"{key}.flag_file", item["flag_file"]))
        for regex_key in ("pattern", "tools"):
            if regex_key in item:
                import regex  # rule patterns run on it (see redactor.policy)

                try:
                    regex.compile(item[regex_key])
                except (regex.error, TypeError) as exc:
                    raise _fail(path, f"{key}.{regex_key}", f"is not a valid regular expression "
                                f"({exc})", "fix the expression") from None
        action = item.get("action", "deny")
        if action not in ("deny", "ask"):
            raise _fail(path, f"{key}.action", f"has the unknown action {action!r}",
                        'use "deny" or "ask"')
        on = item.get("on", ["tool", "prompt"])
        if not isinstance(on, list) or not on or not set(on) <= {"tool", "prompt"}:
            raise _fail(path, f"{key}.on", 'must list "tool" and/or "prompt"',
                        'for example on = ["tool"]')
        rules.append(Rule(name=item["name"], pattern=item.get("pattern"), reason=item["reason"],
                          action=action, tools=item.get("tools", ".*"), on=tuple(on),
                          hours=hours, flag_file=flag_file))
    return rules


def _apply_operators(settings: Settings, path: Path, body: dict[str, Any], project: bool,
                     changes: dict[str, Any]) -> None:
    operators = dict(settings.operators)
    for name, value in body.items():
        key = f"operators.{name}"
        if name == "default":
            changes["default_operator"] = _operator(path, key, value, project)
        elif name in KNOWN_ENTITIES:
            operators[name] = _operator(path, key, value, project)
        else:
            raise _fail(path, key, "names an unknown entity",
                        f"{_suggest(name, KNOWN_ENTITIES)}use 'default' or one of "
                        f"{', '.join(KNOWN_ENTITIES)}")
    changes["operators"] = tuple(sorted(operators.items()))


# ---------------------------------------------------------------- configuration keys
#
# Every key of the plain sections is one row of KEYS: its name, the Settings field it
# sets, what a value is, the validator, and how a project file may change it.  The
# tighten-only rule for project files lives in the ``project`` column alone (tests walk
# every row); [operators] and [[rules]] have their own parsers above.

#: How a project file may change a key.  A project file may come from a repository the
#: user does not control, so it may only tighten:
#:
#: ``refused``  it may not set the key at all (the key could loosen the policy, or load
#:              code or secrets the repository chose);
#: ``adds``     its list is added to what the earlier layers set, never replacing it;
#: ``lowers``   it may lower the number, never raise it;
#: ``tightens`` it may move the value towards the end of the row's ``order`` (the
#:              tightest choice last), never back;
#: ``free``     it sets the key like the user file does (wording, nothing detected).
ProjectRule = Literal["refused", "adds", "lowers", "tightens", "free"]
Parse = Callable[[Path, str, Any], Any]


def _replaced(current: Any, value: Any) -> Any:
    return value


def _added(current: tuple[Any, ...], value: tuple[Any, ...]) -> tuple[Any, ...]:
    return (*current, *(item for item in value if item not in current))


def _appended(current: tuple[Any, ...], value: tuple[Any, ...]) -> tuple[Any, ...]:
    return (*current, *value)


def _removed(current: tuple[Any, ...], value: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(item for item in current if item not in value)


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One configuration key: ``[section] name = value``.

    ``parse(path, key, value)`` checks a value and gives what the Settings ``field``
    holds, or raises the ConfigError naming the key and the fix.  A user layer joins it
    to the current value with ``join`` (replacing it unless said otherwise); a project
    file follows ``project`` (see :data:`ProjectRule`): ``adds`` joins with ``merge``,
    ``project_parse`` (when given) checks a project file's value instead of ``parse``,
    and ``refusal`` is the problem and the fix of the error when a project file would
    loosen a ``lowers`` or ``tightens`` key (``{current}`` is the value in force).
    """

    key: str
    field: str
    kind: str
    parse: Parse
    project: ProjectRule
    order: tuple[Any, ...] = ()
    refusal: tuple[str, str] = ("", "")
    join: Callable[[Any, Any], Any] = _replaced
    merge: Callable[[Any, Any], Any] = _added
    project_parse: Parse | None = None

    @property
    def section(self) -> str:
        return self.key.partition(".")[0]

    @property
    def name(self) -> str:
        return self.key.partition(".")[2]

    def loosens(self, current: Any, value: Any) -> bool:
        """Would a project file loosen the policy by setting ``value`` over ``current``?"""
        if self.project == "lowers":
            return bool(value > current)
        if self.project == "tightens":
            return self.order.index(value) < self.order.index(current)
        return False


def _boolean(path: Path, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, key, "must be true or false", "write it without quotes")
    return value


def _threshold(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise _fail(path, key, "must be a number between 0 and 1", "for example 0.4")
    return float(value)


def _time_budget(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 0.5 <= value <= MAX_TIME_BUDGET:
        raise _fail(path, key, f"must be a number of seconds from 0.5 to {MAX_TIME_BUDGET:g}",
                    "the host stops waiting at 30 s and the hook client at 25 s; e.g. 20")
    return float(value)


def _port(path: Path, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1024 <= value <= 65535:
        raise _fail(path, key, "must be a port number from 1024 to 65535", "e.g. 47821")
    return value


def _upstream(path: Path, key: str, value: Any) -> str:
    """An https URL, or http to this machine (a test server or another local proxy)."""
    from urllib.parse import urlsplit

    if not isinstance(value, str):
        raise _fail(path, key, "must be a URL", f'e.g. "{DEFAULT_GATEWAY_UPSTREAM}"')
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        raise _fail(path, key, "is not a URL", f'e.g. "{DEFAULT_GATEWAY_UPSTREAM}"') from None
    local = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if not parts.hostname or parts.query or parts.fragment or parts.username or not (
            parts.scheme == "https" or (parts.scheme == "http" and local)):
        raise _fail(path, key, "must be an https URL without credentials or query (plain "
                    "http only to 127.0.0.1)", f'e.g. "{DEFAULT_GATEWAY_UPSTREAM}"')
    return value.rstrip("/")


def _gateway_budget(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 1 <= value <= MAX_GATEWAY_BUDGET:
        raise _fail(path, key, f"must be a number of seconds from 1 to {MAX_GATEWAY_BUDGET:g}",
                    "e.g. 60")
    return float(value)


def _expiry_days(path: Path, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 1 <= value <= 3650:
        raise _fail(path, key, "must be a number of days from 1 to 3650", "e.g. 30")
    return float(value)


def _mcp_allow(path: Path, key: str, value: Any) -> tuple[tuple[str, str, str], ...]:
    fix = ('write each as [[pseudonyms.allow]] with server = "sap", tool = "lock_user", '
           'argument = "user" (a dotted path for a nested one)')
    if not isinstance(value, list):
        raise _fail(path, key, "must be an array of tables", fix)
    entries: list[tuple[str, str, str]] = []
    for index, item in enumerate(value):
        where = f"{key}[{index}]"
        if not isinstance(item, dict) or set(item) != {"server", "tool", "argument"}:
            raise _fail(path, where, "must have exactly server, tool and argument", fix)
        if not all(isinstance(item[k], str) and re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", item[k])
                   for k in ("server", "tool", "argument")):
            raise _fail(path, where, "must name server, tool and argument in plain letters, "
                        "digits, _ . -", fix)
        entries.append((item["server"], item["tool"], item["argument"]))
    return tuple(entries)


def _model(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(path, key, "must be a model name or path", 'e.g. "pt_core_news_sm"')
    return value


def _env_name(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise _fail(path, key, "must be an environment variable name",
                    'e.g. "REDACTOR_HASH_KEY"')
    return value


def _message(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, key, "must be a non-empty string", "write the message in quotes")
    return value


def _secret_kinds(path: Path, key: str, value: Any) -> tuple[str, ...]:
    kinds = _string_list(path, key, value)
    for kind in kinds:
        if kind not in SECRET_KINDS:
            raise _fail(path, key, f"names an unknown secret kind '{kind}'",
                        f"{_suggest(kind, SECRET_KINDS)}known kinds: {', '.join(SECRET_KINDS)}")
    return kinds


def _known_users_file(path: Path, key: str, value: Any) -> tuple[Path, ...]:
    return (_relative_path(path, key, value),)


def _project_known_users_file(path: Path, key: str, value: Any) -> tuple[Path, ...]:
    """A project's known-users file: only one of its own files, never /etc/shadow or a
    user's home through a link."""
    file = _relative_path(path, key, value)
    root = path.parent.resolve()
    if not file.resolve().is_relative_to(root):
        raise _fail(path, key, f"points outside the project folder {root}", "keep the "
                    "known-users file inside the project, or set it in your user configuration")
    return (file.resolve(),)


def _choice(values: tuple[str, ...], what: str, fix: str,
            to: Callable[[str], Any] = str) -> Parse:
    """A validator for one of ``values`` (``to`` converts it for the Settings field)."""
    def parse(path: Path, key: str, value: Any) -> Any:
        if value not in values:
            raise _fail(path, key, f"has the unknown {what} {value!r}", fix)
        return to(value)

    return parse


#: Every key of the sections [detection], [usernames], [allowlist], [hash], [messages],
#: [hooks], [gateway], [pseudonyms] and [hermes], in the order the error messages list
#: them.
KEYS: Final[tuple[KeyRow, ...]] = (
    KeyRow("detection.entities", "entities", "list of entity names", _entity_list, "adds"),
    KeyRow("detection.disabled_entities", "entities", "list of entity names", _entity_list,
           "refused", join=_removed),
    KeyRow("detection.score_threshold", "score_threshold", "number between 0 and 1",
           _threshold, "lowers", refusal=("would raise the threshold above {current}",
                                          "a project file may only lower it")),
    KeyRow("detection.spacy_model", "spacy_model", "name or path of an installed spaCy model",
           _model, "refused"),
    KeyRow("usernames.known_users_file", "known_users_files",
           "path to a file with one user name per line", _known_users_file, "adds",
           merge=_appended, project_parse=_project_known_users_file),
    KeyRow("usernames.service_accounts", "service_accounts",
           "list of account names never redacted", _string_list, "refused"),
    KeyRow("usernames.builtin_service_accounts", "builtin_service_accounts", "true or false",
           _boolean, "tightens", order=(True, False),
           refusal=("cannot turn the allowlist back on", "a project file may only set it to "
                    "false")),
    KeyRow("allowlist.values", "allow_values", "list of values never redacted", _string_list,
           "refused"),
    KeyRow("hash.key_env", "hash_key_env",
           "name of the environment variable holding the HMAC key", _env_name, "refused"),
    KeyRow("hash.key_file", "hash_key_file", "path to a file holding the HMAC key",
           _relative_path, "refused"),
    KeyRow("messages.language", "language", "pt-BR or en",
           _choice(LANGUAGES, "language", f"use one of {', '.join(LANGUAGES)}"), "free"),
    KeyRow("messages.prompt_blocked", "prompt_blocked_message",
           "text shown when a prompt is blocked; {entities} names the types", _message, "free"),
    KeyRow("hooks.prompt_block_entities", "prompt_block_entities",
           "list of entity names that block a prompt", _entity_list, "adds"),
    KeyRow("hooks.prompt_block_secrets", "prompt_block_secrets",
           "list of secret kinds that block a prompt (e.g. private_key)", _secret_kinds,
           "adds"),
    KeyRow("hooks.input_entities", "input_entities",
           "list of entity names redacted in tool input", _entity_list, "adds"),
    KeyRow("hooks.permission_decision", "permission_decision",
           "none, allow or ask (sent with a rewritten tool call)",
           _choice(("none", "allow", "ask"), "value", 'use "none", "allow" or "ask"; "none" '
                   "keeps your own permission rules in charge"), "refused"),
    KeyRow("hooks.wrap_bash", "wrap_bash",
           "true or false: pipe Bash output through redactor, failures included", _boolean,
           "tightens", order=(False, True),
           refusal=("cannot switch wrapping off", "a project file may only switch it on")),
    KeyRow("hooks.time_budget_seconds", "hook_time_budget",
           "number of seconds a hook call may take before failing closed", _time_budget,
           "refused"),
    KeyRow("hooks.own_account", "keep_own_account",
           "keep or redact: the local login and home folder name in tool input and output",
           _choice(("keep", "redact"), "value", 'use "keep" (the default) or "redact" (for '
                   "transcripts that others will read)", to=lambda value: value == "keep"),
           "tightens", order=(True, False),
           refusal=("cannot keep what the user redacts", "a project file may only choose "
                    "redact")),
    KeyRow("gateway.port", "gateway_port", "loopback port of redactor gateway", _port,
           "refused"),
    KeyRow("gateway.upstream", "gateway_upstream",
           "URL the gateway forwards to (https, or http to 127.0.0.1)", _upstream, "refused"),
    KeyRow("gateway.binary", "gateway_binary",
           "block or pass: images and PDFs the gateway cannot read",
           _choice(("block", "pass"), "value", 'use "block" (the default) or "pass"'),
           "tightens", order=("pass", "block"),
           refusal=("cannot let images through", 'a project file may only choose "block"')),
    KeyRow("gateway.time_budget_seconds", "gateway_time_budget",
           "seconds the gateway may take to redact one request before refusing it",
           _gateway_budget, "refused"),
    KeyRow("pseudonyms.enabled", "pseudonyms",
           "true or false: stable tokens the vault can turn back into values", _boolean,
           "refused"),
    KeyRow("pseudonyms.entities", "pseudonym_entities",
           "list of entity names written as tokens when pseudonyms are enabled",
           _entity_list, "refused"),
    KeyRow("pseudonyms.vault", "vault",
           "true or false: keep each token's value in the local vault", _boolean,
           "tightens", order=(True, False),
           refusal=("cannot switch the vault on", "a project file may only set it to false")),
    KeyRow("pseudonyms.expiry_days", "vault_expiry_days",
           "days a vault entry lives after its last use", _expiry_days, "lowers",
           refusal=("would keep values longer than {current} days",
                    "a project file may only shorten it")),
    KeyRow("pseudonyms.display", "pseudonym_display",
           "true or false: the gateway shows the model's answers with real values",
           _boolean, "tightens", order=(True, False),
           refusal=("cannot show values the user hides",
                    "a project file may only set it to false")),
    KeyRow("pseudonyms.allow", "pseudonym_mcp_allow",
           "array of tables: the MCP server, tool and argument that may get a token's value",
           _mcp_allow, "refused"),
    KeyRow("hermes.mode", "hermes_mode",
           "block (stop a turn holding personal data) or redact (go on with placeholders)",
           _choice(("block", "redact"), "mode", 'use "block" or "redact"'), "tightens",
           order=("redact", "block"),
           refusal=("cannot switch block mode to redact", "a project file may only choose "
                    "block")),
)

_ROWS: Final[Mapping[str, KeyRow]] = {row.key: row for row in KEYS}
#: Section -> key -> what a value is; [operators] (entity name or "default" -> table)
#: and [[rules]] (an array of tables) are parsed apart.
_SCHEMA: Final[dict[str, dict[str, str]]] = {
    section: {row.name: row.kind for row in KEYS if row.section == section}
    for section in ("detection", "operators", "usernames", "allowlist", "hash", "messages",
                    "hooks", "gateway", "pseudonyms", "hermes", "rules")
}


def _apply_key(settings: Settings, path: Path, key: str, value: Any, *, project: bool,
               changes: dict[str, Any]) -> None:
    """Check ``value`` by its row of KEYS and record the field it sets in ``changes``."""
    row = _ROWS[key]
    if project and row.project == "refused":
        raise _fail(path, key, "cannot be set by a project file (it could loosen your "
                    "policy)", "move it to your user configuration")
    parse = row.project_parse if project and row.project_parse is not None else row.parse
    parsed = parse(path, key, value)
    current = changes.get(row.field, getattr(settings, row.field))
    if not project:
        changes[row.field] = row.join(current, parsed)
    elif row.project == "adds":
        changes[row.field] = row.merge(current, parsed)
    else:
        in_force = getattr(settings, row.field)
        if row.loosens(in_force, parsed):
            problem, fix = row.refusal
            raise _fail(path, key, problem.format(current=in_force), fix)
        changes[row.field] = parsed

"""Accepted findings for ``redactor scan``: a baseline file of keyed hashes, never values.

A repository whose test fixtures hold synthetic personal data (names, CPFs) records
them once with ``redactor scan --write-baseline .redactor-baseline.json tests/``; later
``redactor scan --baseline .redactor-baseline.json`` (the pre-commit hook, the CI)
counts only findings that are not in it.  Each accepted finding is stored as an
HMAC-SHA256 of the file's random salt, its entity and its value.

The HMAC key never enters the file, which is meant to be committed: a CPF is one of
10^9, so whoever holds the key can test every candidate of a written form in about an
hour and a half on one core in plain Python.  The key is derived (HKDF-SHA256, fixed
labels) from a team secret, in this order:

1. the environment variable ``REDACTOR_BASELINE_KEY`` (a CI secret; at least 16
   characters);
2. the user key file ``$XDG_CONFIG_HOME/redactor/baseline.key``
   (``~/.config/redactor/baseline.key``): the same kind of text, in a file of the
   user's own with mode 600; ``--write-baseline`` creates it, 32 random bytes in
   hexadecimal, when neither exists.

The file records a key id (an HMAC of a fixed label under the key), so a baseline read
under another key, or with none, is a :class:`ConfigError` that says so rather than a
scan that silently accepts nothing.  What a committed file shows without the key: how
many findings it accepts, its key id and salt, and from its history when they change;
no digest can be checked against a guess.

Version 1 files held their key; they are still read, with a warning on how to migrate
(re-record with ``--write-baseline``).  Writing always produces version 2.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from redactor.errors import ConfigError

__all__ = [
    "FORMAT_VERSION",
    "KEY_ENV",
    "Baseline",
    "BaselineKey",
    "baseline_key",
    "legacy_warning",
    "new_baseline",
    "read_baseline",
    "recording_key",
    "user_key_file",
    "write_baseline",
]

FORMAT_VERSION: Final = 2
#: The version whose files hold their own key: read with a warning, never written.
LEGACY_VERSION: Final = 1
#: Hex characters kept of each HMAC (128 bits).
DIGEST_CHARS: Final = 32
#: Hex characters of the key id.
KEY_ID_CHARS: Final = 16
#: Bytes of the per-file salt.
SALT_BYTES: Final = 16
#: The environment variable holding the team key (a CI secret).
KEY_ENV: Final = "REDACTOR_BASELINE_KEY"
#: The shortest team key accepted, in bytes of its UTF-8 text.
MIN_SECRET_BYTES: Final = 16
KEY_FILE_NAME: Final = "baseline.key"
_HEX: Final = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class BaselineKey:
    """The HMAC key derived from a team secret, its id and where the secret came from."""

    key: bytes
    key_id: str
    source: str  # "REDACTOR_BASELINE_KEY" or the key file's path
    created: bool = False

    def __repr__(self) -> str:  # never the key
        return f"BaselineKey(key_id={self.key_id!r}, source={self.source!r})"


@dataclass(frozen=True)
class Baseline:
    """A key, the file's salt and the digests of the accepted findings."""

    key: bytes = field(repr=False)
    accepted: frozenset[str] = field(default=frozenset(), repr=False)
    #: Record the digest of every finding in ``seen`` (``--write-baseline``).
    recording: bool = False
    seen: set[str] = field(default_factory=set, compare=False, repr=False)
    salt: bytes = b""
    #: A version 1 file: the key was read from the file itself.
    key_in_file: bool = False

    def digest(self, entity: str, value: str) -> str:
        message = self.salt + f"{entity}\x00{value}".encode("utf-8", "surrogatepass")
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()[:DIGEST_CHARS]

    def keeps(self, entity: str, value: str) -> bool:
        """False when the baseline accepts this finding (recorded when recording)."""
        digest = self.digest(entity, value)
        if self.recording:
            self.seen.add(digest)
        return digest not in self.accepted


# --------------------------------------------------------------------------- the key


def derive_key(secret: bytes) -> bytes:
    """The 32-byte HMAC key for a team secret (HKDF-SHA256 with fixed labels, one block)."""
    extracted = hmac.new(b"redactor baseline v2 salt", secret, hashlib.sha256).digest()
    return hmac.new(extracted, b"redactor baseline v2 hmac key\x01", hashlib.sha256).digest()


def key_id(key: bytes) -> str:
    """What the file records of its key: enough to tell two keys apart, not to use one."""
    return hmac.new(key, b"redactor baseline key id", hashlib.sha256).hexdigest()[:KEY_ID_CHARS]


def user_key_file(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/redactor/baseline.key`` (``~/.config/redactor/baseline.key``)."""
    from redactor.config import user_config_dir

    return user_config_dir(os.environ if env is None else env) / KEY_FILE_NAME


def _from_secret(secret: bytes, source: str, *, created: bool = False) -> BaselineKey:
    key = derive_key(secret)
    return BaselineKey(key, key_id(key), source, created)


def _checked_secret(secret: bytes, where: str) -> bytes:
    secret = secret.strip()
    if len(secret) < MIN_SECRET_BYTES:
        # The length only, never the value.
        raise ConfigError(f"{where}: the baseline key is shorter than {MIN_SECRET_BYTES} "
                          "characters; use a longer random one (for example: "
                          "openssl rand -hex 32)")
    return secret


def user_secret(env: Mapping[str, str] | None = None, *,
                create: bool = False) -> tuple[bytes, str, bool] | None:
    """The user's secret, where it came from, and whether it was created now:
    ``REDACTOR_BASELINE_KEY``, else the user key file, which ``create`` writes (32
    random bytes in hexadecimal, mode 600) when there is none; else None.

    One secret, several keys: the baseline's HMAC key and the pseudonyms' keys are
    derived from it under their own labels (redactor.pseudonyms.keys).
    """
    env = os.environ if env is None else env
    value = env.get(KEY_ENV)
    if value is not None:  # set but empty is an error, not "unset"
        return _checked_secret(value.encode("utf-8", "surrogateescape"), KEY_ENV), KEY_ENV, False
    path = user_key_file(env)
    created = False
    if not os.path.lexists(path):
        if not create:
            return None
        created = _create_key_file(path)
    return _read_key_file(path), str(path), created


def baseline_key(env: Mapping[str, str] | None = None) -> BaselineKey | None:
    """The key of ``REDACTOR_BASELINE_KEY``, else of the user key file; None when
    neither exists."""
    found = user_secret(env)
    return None if found is None else _from_secret(found[0], found[1])


def recording_key(env: Mapping[str, str] | None = None) -> BaselineKey:
    """The key of :func:`baseline_key`, the user key file being created when there is
    none."""
    found = user_secret(env, create=True)
    assert found is not None  # created when missing
    secret, source, created = found
    return _from_secret(secret, source, created=created)


def _read_key_file(path: Path) -> bytes:
    from redactor.config import MAX_KEY_FILE_BYTES, read_regular_file

    raw = read_regular_file(path, MAX_KEY_FILE_BYTES, "baseline key file",
                            f"fix it or remove it (or set {KEY_ENV})", private=True)
    return _checked_secret(raw, str(path))


def _create_key_file(path: Path) -> bool:
    """Write a new random key to ``path`` atomically, mode 600: written to a private
    temporary file, then linked into place, so a reader never sees a partial key and a
    key created meanwhile by another process is kept.  False when one was there first."""
    text = secrets.token_hex(32).encode("ascii") + b"\n"
    folder = path.parent
    temporary = folder / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                     | os.O_NOFOLLOW, 0o600)
        try:
            os.fchmod(fd, 0o600)  # whatever the umask
            os.write(fd, text)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
    except OSError as exc:
        raise ConfigError(f"{path}: the baseline key file cannot be created "
                          f"({exc.strerror}); create it yourself (mode 600) or set "
                          f"{KEY_ENV}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return True


# --------------------------------------------------------------------------- the file


#: The largest baseline read (a million accepted findings take about 36 MB).
MAX_BASELINE_BYTES: Final = 256 << 20


def _load(path: Path) -> dict[str, Any]:
    from redactor.config import read_regular_file

    if not path.exists():
        raise ConfigError(f"baseline {path}: no such file (write one with "
                          "--write-baseline)")
    # A regular file of bounded size: a FIFO or a device named as the baseline is an
    # error, not a hang or an exhausted memory.
    raw = read_regular_file(path, MAX_BASELINE_BYTES, "baseline file",
                            "name the baseline file written by --write-baseline")
    try:
        data: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"baseline {path}: cannot be read ({type(exc).__name__})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if type(version) is not int or version not in (LEGACY_VERSION, FORMAT_VERSION):
        raise ConfigError(f"baseline {path}: not a version {LEGACY_VERSION} or "
                          f"{FORMAT_VERSION} baseline file")
    loaded: dict[str, Any] = data
    return loaded


def _hex_field(path: Path, data: Mapping[str, Any], name: str, length: int) -> str:
    value = data.get(name)
    if not (isinstance(value, str) and len(value) == length and set(value) <= _HEX):
        raise ConfigError(f"baseline {path}: needs a '{name}' of {length} lower-case "
                          "hexadecimal characters")
    return value


def _digests(path: Path, data: Mapping[str, Any]) -> frozenset[str]:
    accepted = data.get("accepted")
    if not isinstance(accepted, list):
        raise ConfigError(f"baseline {path}: needs an 'accepted' list")
    digests = set()
    for entry in accepted:
        if not (isinstance(entry, str) and len(entry) == DIGEST_CHARS and set(entry) <= _HEX):
            raise ConfigError(f"baseline {path}: 'accepted' holds something that is not a "
                              f"{DIGEST_CHARS}-character digest")
        digests.add(entry)
    return frozenset(digests)


def read_baseline(path: Path, env: Mapping[str, str] | None = None) -> Baseline:
    """The baseline in ``path`` under the key of :func:`baseline_key`; a file that is not
    well formed, or a version 2 file whose key is not the one available, is a ConfigError.
    A version 1 file brings its own key (``key_in_file``: see :func:`legacy_warning`)."""
    data = _load(path)
    env_now = os.environ if env is None else env
    if data["version"] == LEGACY_VERSION and env_now.get(KEY_ENV) is not None:
        # A team that set its key has migrated: a file carrying its own key could
        # otherwise accept whatever its writer chose.
        raise ConfigError(f"baseline {path}: a version {LEGACY_VERSION} file (its key inside "
                          f"it) is not read while {KEY_ENV} is set; re-record it with "
                          f"redactor scan --write-baseline {path} ...")
    if data["version"] == LEGACY_VERSION:
        if not isinstance(data.get("key"), str):
            raise ConfigError(f"baseline {path}: needs a 'key' string and an 'accepted' list")
        try:
            raw_key = bytes.fromhex(data["key"])
        except ValueError:
            raise ConfigError(f"baseline {path}: 'key' is not hexadecimal") from None
        digests = _digests(path, data)
        if len(raw_key) < 16:
            raise ConfigError(f"baseline {path}: 'key' is shorter than 16 bytes")
        return Baseline(raw_key, digests, key_in_file=True)
    if "key" in data:
        raise ConfigError(f"baseline {path}: a version {FORMAT_VERSION} file holds no key; "
                          "remove the 'key' field and re-record it with --write-baseline")
    recorded = _hex_field(path, data, "key_id", KEY_ID_CHARS)
    salt = bytes.fromhex(_hex_field(path, data, "salt", 2 * SALT_BYTES))
    digests = _digests(path, data)
    key = baseline_key(env)
    fix = (f"set {KEY_ENV} to the team key it was recorded with (or put that key in "
           f"{user_key_file(env)}), or re-record it with redactor scan --write-baseline "
           f"{path} ...")
    if key is None:
        raise ConfigError(f"baseline {path}: recorded under key id {recorded}, and no "
                          f"baseline key is set: {fix}")
    if key.key_id != recorded:
        raise ConfigError(f"baseline {path}: recorded under key id {recorded}, but the key "
                          f"from {key.source} has key id {key.key_id}: {fix}")
    return Baseline(key.key, digests, salt=salt)


def legacy_warning(path: Path) -> str:
    """The one-line warning for a version 1 file, which holds its own key."""
    return (f"redactor: warning: baseline {path} holds its own HMAC key, so anyone who reads "
            f"it can test guesses of what it accepts; re-record it with redactor scan "
            f"--write-baseline {path} ... (with {KEY_ENV} set to a team key, or with the "
            f"user key file) and commit the new file")


def recorded_key_id(path: Path) -> str | None:
    """The key id a version 2 file at ``path`` was recorded with; None for anything else."""
    with contextlib.suppress(ConfigError):
        data = _load(path)
        value = data.get("key_id")
        if data["version"] == FORMAT_VERSION and isinstance(value, str):
            return value
    return None


def _recorded_salt(path: Path) -> bytes | None:
    with contextlib.suppress(ConfigError, ValueError):
        data = _load(path)
        if data["version"] == FORMAT_VERSION:
            return bytes.fromhex(_hex_field(path, data, "salt", 2 * SALT_BYTES))
    return None


def new_baseline(path: Path, key: BaselineKey) -> Baseline:
    """A baseline to record into under ``key``: with the salt of the version 2 file at
    ``path`` if there is one (so that unchanged findings keep their digests in review),
    else a new random salt."""
    check_writable(path)
    salt = _recorded_salt(path) if path.exists() else None
    return Baseline(key.key, recording=True,
                    salt=salt if salt is not None else secrets.token_bytes(SALT_BYTES))


def check_writable(path: Path) -> None:
    """A ConfigError now, before a long scan, when ``path`` cannot be written."""
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK) or (
            path.exists() and (path.is_dir() or not os.access(path, os.W_OK))):
        raise ConfigError(f"baseline {path}: cannot be written there")


def write_baseline(path: Path, baseline: Baseline) -> int:
    """Write the digests seen into ``path`` (atomically, version 2: the key id, never the
    key); returns how many."""
    if baseline.key_in_file:
        raise ConfigError(f"baseline {path}: a version {LEGACY_VERSION} key is never "
                          "written again")
    text = json.dumps({"version": FORMAT_VERSION, "key_id": key_id(baseline.key),
                       "salt": baseline.salt.hex(), "accepted": sorted(baseline.seen)},
                      indent=1) + "\n"
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        raise ConfigError(f"baseline {path}: cannot be written ({type(exc).__name__})") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return len(baseline.seen)

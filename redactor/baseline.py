"""Accepted findings for ``redactor scan``: a baseline file of keyed hashes, never values.

A repository whose test fixtures hold synthetic personal data (names, CPFs) records
them once with ``redactor scan --write-baseline .redactor-baseline.json tests/``; later
``redactor scan --baseline .redactor-baseline.json`` (the pre-commit hook) counts only
findings that are not in it.  Each accepted finding is stored as an HMAC-SHA256 of
its entity and value under a random key kept in the same file: the file holds no
value, and the same value accepted in another repository has another digest there.
The key being in the file, whoever can read it can test guesses (a CPF is one of
10^9, a name one of the listed ones): it accepts fixtures that the repository already
holds in clear, it does not hide them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from redactor.errors import ConfigError

__all__ = ["FORMAT_VERSION", "Baseline", "read_baseline", "write_baseline"]

FORMAT_VERSION: Final = 1
#: Hex characters kept of each HMAC (128 bits).
DIGEST_CHARS: Final = 32


@dataclass(frozen=True)
class Baseline:
    """A key and the digests of the accepted findings."""

    key: bytes
    accepted: frozenset[str] = frozenset()
    #: Record the digest of every finding in ``seen`` (``--write-baseline``).
    recording: bool = False
    seen: set[str] = field(default_factory=set, compare=False)

    def digest(self, entity: str, value: str) -> str:
        message = f"{entity}\x00{value}".encode("utf-8", "surrogatepass")
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()[:DIGEST_CHARS]

    def keeps(self, entity: str, value: str) -> bool:
        """False when the baseline accepts this finding (recorded when recording)."""
        digest = self.digest(entity, value)
        if self.recording:
            self.seen.add(digest)
        return digest not in self.accepted


def read_baseline(path: Path) -> Baseline:
    """The baseline in ``path``; anything but a well-formed file is a ConfigError."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"baseline {path}: no such file (write one with "
                          "--write-baseline)") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"baseline {path}: cannot be read ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise ConfigError(f"baseline {path}: not a version {FORMAT_VERSION} baseline file")
    key, accepted = data.get("key"), data.get("accepted")
    if not isinstance(key, str) or not isinstance(accepted, list):
        raise ConfigError(f"baseline {path}: needs a 'key' string and an 'accepted' list")
    try:
        raw_key = bytes.fromhex(key)
    except ValueError:
        raise ConfigError(f"baseline {path}: 'key' is not hexadecimal") from None
    digests = set()
    for entry in accepted:
        if not (isinstance(entry, str) and len(entry) == DIGEST_CHARS
                and all(c in "0123456789abcdef" for c in entry)):
            raise ConfigError(f"baseline {path}: 'accepted' holds something that is not a "
                              f"{DIGEST_CHARS}-character digest")
        digests.add(entry)
    if len(raw_key) < 16:
        raise ConfigError(f"baseline {path}: 'key' is shorter than 16 bytes")
    return Baseline(raw_key, frozenset(digests))


def new_baseline(path: Path) -> Baseline:
    """A baseline to record into: the key of the file at ``path`` if there is one (so
    that digests stay comparable in review), else a new random key."""
    check_writable(path)
    key = read_baseline(path).key if path.exists() else secrets.token_bytes(32)
    return Baseline(key, recording=True)


def check_writable(path: Path) -> None:
    """A ConfigError now, before a long scan, when ``path`` cannot be written."""
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK) or (
            path.exists() and (path.is_dir() or not os.access(path, os.W_OK))):
        raise ConfigError(f"baseline {path}: cannot be written there")


def write_baseline(path: Path, baseline: Baseline) -> int:
    """Write the digests seen into ``path`` (atomically); returns how many."""
    text = json.dumps({"version": FORMAT_VERSION, "key": baseline.key.hex(),
                       "accepted": sorted(baseline.seen)}, indent=1) + "\n"
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

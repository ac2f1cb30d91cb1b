"""The keys of pseudonyms: one user secret, two keys derived from it.

Where the secret comes from, first found wins:

1. ``[hash] key_file`` (read only when private to the user: mode 600, owned, no link),
   else the variable named by ``[hash] key_env`` (``REDACTOR_HASH_KEY``) — the ``hash``
   operator's key before pseudonyms existed.  Used as the token key itself, as the
   operator always used it, so the 12-character tokens it wrote are the first 12
   characters of the new ones (for identifiers; see tokens.canonical).
2. the user's secret of redactor.baseline: ``REDACTOR_BASELINE_KEY``, else
   ``~/.config/redactor/baseline.key``, created (mode 600) on first use.  The token key
   is derived from it under its own label, as the baseline's key is under another.

The vault's AES key is always derived, never the token key itself: a token proves
nothing about the key that encrypts values.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from redactor.errors import ConfigError

if TYPE_CHECKING:
    from redactor.config import Settings

__all__ = ["PseudonymKey", "pseudonym_key", "token_key_of"]

#: Hexadecimal characters of a key id: enough to tell two keys apart, not to use one.
KEY_ID_CHARS: Final = 16
#: The shortest secret accepted, in bytes.
MIN_KEY_BYTES: Final = 16


@dataclass(frozen=True)
class PseudonymKey:
    """The token key, the vault key, the key id and where the secret came from."""

    token_key: bytes = field(repr=False)
    vault_key: bytes = field(repr=False)
    key_id: str
    source: str
    created: bool = False


def _derive(secret: bytes, label: bytes) -> bytes:
    """HKDF-SHA256 (RFC 5869) with a fixed salt, one 32-byte block of ``label``."""
    extracted = hmac.new(b"redactor pseudonyms v1 salt", secret, hashlib.sha256).digest()
    return hmac.new(extracted, label + b"\x01", hashlib.sha256).digest()


def _key(token_key: bytes, secret: bytes, source: str, created: bool) -> PseudonymKey:
    vault_key = _derive(secret, b"redactor vault v1 aes-256-gcm key")
    key_id = hmac.new(vault_key, b"redactor vault key id", hashlib.sha256).hexdigest()
    return PseudonymKey(token_key, vault_key, key_id[:KEY_ID_CHARS], source, created)


def token_key_of(secret: bytes, *, legacy: bool) -> bytes:
    """The token key of a secret: itself for the ``hash`` operator's key, else derived."""
    return secret if legacy else _derive(secret, b"redactor pseudonyms v1 token key")


def pseudonym_key(settings: Settings, environ: Mapping[str, str], *,
                  create: bool = True) -> PseudonymKey | None:
    """The key in force (see the module's docstring); None only when ``create`` is False
    and no secret exists yet.  A ConfigError for a key file open to others, a link, or a
    secret shorter than 16 bytes — never a silent fallback to another source."""
    from redactor import baseline
    from redactor.config import MAX_KEY_FILE_BYTES, read_regular_file

    if settings.hash_key_file is not None:
        path = settings.hash_key_file
        secret = read_regular_file(path, MAX_KEY_FILE_BYTES, "hash key file",
                                   "fix the path in [hash] key_file", private=True).strip()
        return _key(token_key_of(_checked(secret, str(path)), legacy=True), secret,
                    str(path), False)
    value = environ.get(settings.hash_key_env, "")
    if value:
        secret = _checked(value.encode("utf-8", "surrogateescape"), settings.hash_key_env)
        return _key(token_key_of(secret, legacy=True), secret, settings.hash_key_env, False)
    found = baseline.user_secret(environ, create=create)
    if found is None:
        return None
    secret, source, created = found
    return _key(token_key_of(secret, legacy=False), secret, source, created)


def _checked(secret: bytes, where: str) -> bytes:
    if len(secret) < MIN_KEY_BYTES:
        # The length only, never the value.
        raise ConfigError(f"{where}: the pseudonym key is shorter than {MIN_KEY_BYTES} bytes; "
                          "use a longer random key (for example: openssl rand -hex 32)")
    return secret

"""Writing issued tokens to the vault: the part every redacting path shares.

A hook records what one call wrote (a handful of values, one transaction); a batch run
records as it goes, a file's distinct values at a time, so memory stays bounded by what a
flush holds, not by the size of the input.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from redactor.errors import ConfigError

if TYPE_CHECKING:
    from redactor.config import Settings
    from redactor.pseudonyms.vault import Vault
    from redactor.results import Issued

__all__ = ["VaultWriter", "open_vault", "record"]

#: Set by a hook on the shell command it wraps (hosts.core.wrap_bash_command).
SESSION_ENV: Final = "REDACTOR_SESSION"
_SESSION: Final = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
#: Distinct values a writer holds before it writes them.
FLUSH_EVERY: Final = 50_000


def open_vault(settings: Settings, environ: Mapping[str, str], *,
               busy_timeout: float = 2.0) -> Vault:
    """The user's vault, under the pseudonym key in force (created on first use)."""
    from redactor.pseudonyms.keys import pseudonym_key
    from redactor.pseudonyms.vault import Vault, default_path

    key = pseudonym_key(settings, environ, create=True)
    if key is None:  # pragma: no cover - create=True always finds or makes one
        raise ConfigError("no pseudonym key could be read or created")
    return Vault.open(default_path(environ), key.vault_key, key.key_id,
                      busy_timeout=busy_timeout)


def record(vault: Vault, issued: Iterable[Issued], *, session: str | None = None,
           expiry_days: float | None = None) -> int:
    """Write ``issued`` (one transaction); the number of distinct tokens.  With
    ``expiry_days``, entries unused that long are purged first, once a day at most."""
    distinct = {item.digest: item for item in issued}
    if distinct and expiry_days is not None:
        vault.expire_due(expiry_days)
    if distinct:
        vault.put_many(((i.digest, i.entity, i.value) for i in distinct.values()),
                       session=session,
                       legacy={i.digest: i.legacy for i in distinct.values() if i.legacy})
    return len(distinct)


class VaultWriter:
    """An engine's ``issued_sink`` for a batch run: distinct values, written every
    :data:`FLUSH_EVERY` and when closed."""

    def __init__(self, settings: Settings, environ: Mapping[str, str] | None = None) -> None:
        self._settings = settings
        self._environ = os.environ if environ is None else environ
        # A hook's wrapped shell command names its session: the model reads these tokens.
        session = self._environ.get(SESSION_ENV, "")
        self._session = session if _SESSION.fullmatch(session) else None
        self._vault: Vault | None = None
        self._pending: dict[str, Issued] = {}
        self.written = 0

    def __call__(self, item: Issued) -> None:
        self._pending[item.digest] = item
        if len(self._pending) >= FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        if self._vault is None:
            # A batch run waits longer for the lock than a hook may.
            self._vault = open_vault(self._settings, self._environ, busy_timeout=30.0)
        self.written += record(self._vault, self._pending.values(), session=self._session,
                               expiry_days=self._settings.vault_expiry_days)
        self._pending.clear()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self._vault is not None:
                self._vault.close()
                self._vault = None

    def __repr__(self) -> str:  # never a value
        return f"VaultWriter(pending={len(self._pending)}, written={self.written})"

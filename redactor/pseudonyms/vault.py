"""The pseudonym vault: token -> encrypted value, on the user's machine only.

Pseudonym mode writes ``[CPF:0123456789abcdef]`` where a value was; the 16 hex are the
token.  A hook may later turn a token back into its value, so the vault keeps each
token's value in a SQLite file, ``$XDG_STATE_HOME/redactor/vault.db``
(``~/.local/state/redactor/vault.db``), encrypted with AES-256-GCM under a key derived
elsewhere.  The file holds no value in clear: a copied vault, its WAL or a backup of
the folder shows tokens, entity types, timestamps and session ids, nothing more.

Each ciphertext is bound to its row (its token and entity, and for a session's form
its session too) by the associated data, so a ciphertext moved to another row does not
decrypt: that, like a vault written under another key, is a :class:`ConfigError`, never
a silent "unknown token".  The key itself is never stored; the ``meta`` table records
the key id given at creation, and a vault opened under another key id is refused.

The first form seen of a value is the one stored (``529.982.247-25``); a session that
saw another form (``52998224725``) has it recorded, encrypted, and gets it back.

Several processes (one per hook call) share the file: WAL mode, a busy timeout, every
write in ``BEGIN IMMEDIATE`` (a deferred transaction upgraded from read to write in WAL
mode can fail at once with SQLITE_BUSY, whatever the timeout).  ``last_used`` is
refreshed at most once a day per token so that reading stays mostly read-only; tokens
unused for :data:`DEFAULT_EXPIRY_DAYS` are dropped by :meth:`Vault.expire`.
``secure_delete`` zeroes what is deleted, and a purge truncates the WAL.

Errors name the file, never a value.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from redactor.errors import ConfigError, EngineError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["DEFAULT_EXPIRY_DAYS", "Entry", "Vault", "default_path"]

#: Days a token may go unused before :meth:`Vault.expire` drops it.
DEFAULT_EXPIRY_DAYS: Final = 30
#: The schema written and read (``PRAGMA user_version``).
SCHEMA_VERSION: Final = 1
#: Hex characters of a token, and of a token of the earlier 12-hex format.
TOKEN_CHARS: Final = 16
LEGACY_CHARS: Final = 12
#: How long the tokens rehydrated for one tool call are remembered.
CALL_SECONDS: Final = 86400.0
#: How far ahead a lasting call row is dated (see Vault.record_call).
LASTING_SECONDS: Final = 100 * 365 * 86400.0
#: ``last_used`` is refreshed at most this often per token (writes are the cost).
TOUCH_SECONDS: Final = 86400.0
KEY_BYTES: Final = 32
NONCE_BYTES: Final = 12
TAG_BYTES: Final = 16
_HEX: Final = "0123456789abcdef"
_AAD_VALUE: Final = b"redactor-vault v1\0"
_AAD_FORM: Final = b"redactor-vault v1 session form\0"
#: SQLite's primary result codes for "another connection holds the lock".
_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6

_SCHEMA: Final = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE tokens ("
    " token TEXT PRIMARY KEY,"
    " entity TEXT NOT NULL,"
    " value BLOB NOT NULL,"  # nonce || AES-GCM ciphertext of the first form seen
    " legacy TEXT,"  # the 12-hex token of the earlier format, when known
    " created REAL NOT NULL,"
    " last_used REAL NOT NULL) WITHOUT ROWID",
    "CREATE INDEX tokens_legacy ON tokens (legacy) WHERE legacy IS NOT NULL",
    "CREATE INDEX tokens_last_used ON tokens (last_used)",
    "CREATE TABLE sessions ("
    " session TEXT NOT NULL,"
    " token TEXT NOT NULL REFERENCES tokens (token) ON DELETE CASCADE,"
    " form BLOB,"  # the session's own form, encrypted; NULL: the stored value
    " issued REAL NOT NULL,"
    " PRIMARY KEY (session, token)) WITHOUT ROWID",
    "CREATE INDEX sessions_token ON sessions (token)",
    "CREATE TABLE calls ("
    " id INTEGER PRIMARY KEY,"
    " session TEXT NOT NULL,"
    " call_id TEXT NOT NULL,"
    " token TEXT NOT NULL REFERENCES tokens (token) ON DELETE CASCADE,"
    " created REAL NOT NULL,"
    " UNIQUE (session, call_id, token))",
    "CREATE INDEX calls_token ON calls (token)",
    "CREATE INDEX calls_created ON calls (created)",
)


def default_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/redactor/vault.db`` (``~/.local/state/redactor/vault.db``).

    A relative ``$XDG_STATE_HOME`` is ignored, as the XDG specification asks: the vault
    must not move with the working folder."""
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(base):
        base = str(Path(env.get("HOME") or Path.home()) / ".local" / "state")
    return Path(base) / "redactor" / "vault.db"


@dataclass(frozen=True)
class Entry:
    """A stored token: its 16 hex, its entity and its value (the first form stored, or
    the form the asking session saw); the value is never in the repr."""

    token: str
    entity: str
    value: str = field(repr=False)


def _is_hex(text: object, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and not text.strip(_HEX)


def _value_aad(token: str, entity: str) -> bytes:
    return _AAD_VALUE + token.encode("ascii") + b"\0" + entity.encode("utf-8", "surrogatepass")


def _form_aad(session: str, token: str, entity: str) -> bytes:
    return (_AAD_FORM + session.encode("utf-8", "surrogatepass") + b"\0"
            + token.encode("ascii") + b"\0" + entity.encode("utf-8", "surrogatepass"))


# --------------------------------------------------------------------------- the files


def _make_folders(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each mode 700 whatever the umask."""
    missing: list[Path] = []
    current = folder
    while not os.path.lexists(current) and current.parent != current:
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            continue  # made meanwhile by another process: checked below like any other
        except OSError as exc:
            raise ConfigError(f"{directory}: the vault's folder cannot be created "
                              f"({exc.strerror})") from None
        os.chmod(directory, 0o700)  # the umask may have taken bits, even the owner's


def _check_folder(folder: Path) -> None:
    """The vault's folder: a real folder of this user that no one else may write to
    (others could replace the vault or its WAL)."""
    try:
        info = os.lstat(folder)
    except OSError as exc:
        raise ConfigError(f"{folder}: the vault's folder cannot be read "
                          f"({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        raise ConfigError(f"{folder}: the vault's folder is a symbolic link; replace it "
                          "with a folder of your own (mode 700)")
    if not stat.S_ISDIR(info.st_mode):
        raise ConfigError(f"{folder}: the vault's folder is not a folder; move it away")
    if info.st_uid != os.getuid():
        raise ConfigError(f"{folder}: the vault's folder belongs to another user (uid "
                          f"{info.st_uid}); set XDG_STATE_HOME to a folder of your own")
    if info.st_mode & 0o022:
        raise ConfigError(f"{folder}: the vault's folder may be written by group or others "
                          f"(mode {stat.S_IMODE(info.st_mode):03o}); run chmod 700 {folder}")


def _create_file(path: Path) -> None:
    """Create the database file mode 600 (whatever the umask) before SQLite opens it,
    which would otherwise create it with the umask's mode; kept when it exists."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise ConfigError(f"{path}: the vault cannot be created ({exc.strerror})") from None
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def _check_file(path: Path, what: str, *, required: bool) -> None:
    """A file of the vault (the database, its WAL or shared memory): no symbolic link,
    a regular file of this user, closed to group and others."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        if required:
            raise ConfigError(f"{path}: the {what} does not exist") from None
        return
    except OSError as exc:
        raise ConfigError(f"{path}: the {what} cannot be read ({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        raise ConfigError(f"{path}: the {what} is a symbolic link; replace it with the file "
                          "itself (mode 600)")
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"{path}: the {what} is not a regular file; move it away")
    if info.st_uid != os.getuid():
        raise ConfigError(f"{path}: the {what} belongs to another user (uid {info.st_uid}); "
                          "use a vault of your own")
    if info.st_mode & 0o077:
        raise ConfigError(f"{path}: the {what} is open to group or others (mode "
                          f"{stat.S_IMODE(info.st_mode):03o}); run chmod 600 {path}")


def _database_error(path: Path, exc: sqlite3.Error, busy_timeout: float) -> Exception:
    """What an SQLite failure becomes: named by its file and SQLite's code only (the
    statements bind their values, so no message holds one, but nothing is left to
    chance)."""
    code = getattr(exc, "sqlite_errorcode", None)
    name = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
    if isinstance(code, int) and code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return EngineError(f"{path}: the vault stayed locked by another process for "
                           f"{busy_timeout:g} s; try again")
    return ConfigError(f"{path}: the vault cannot be used ({name}); if it is damaged or "
                       "not a vault, move it away and a new one is started")


# --------------------------------------------------------------------------- the vault


class Vault:
    """One connection to a vault file; safe to share between threads (a lock guards it).

    Open with :meth:`Vault.open`; close with :meth:`close` or a ``with`` block."""

    def __init__(self, path: Path, connection: sqlite3.Connection, aes_key: bytes,
                 key_id: str, *, busy_timeout: float, clock: Callable[[], float]) -> None:
        self._path = path
        self._connection: sqlite3.Connection | None = connection
        self._key = aes_key
        self._key_id = key_id
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._aead: AESGCM | None = None

    @classmethod
    def open(cls, path: Path, aes_key: bytes, key_id: str, *, busy_timeout: float = 2.0,
             clock: Callable[[], float] = time.time) -> Vault:
        """The vault at ``path``, created (folder 700, file 600) when there is none.

        A ConfigError when the folder or a file of the vault is not private, when the
        file is no vault or a newer one, or when it was written under another key id."""
        if not (isinstance(aes_key, bytes) and len(aes_key) == KEY_BYTES):
            raise ValueError(f"the vault key must be {KEY_BYTES} bytes")
        if not (isinstance(key_id, str) and key_id):
            raise ValueError("the vault key id must be a non-empty string")
        path = Path(path)
        _make_folders(path.parent)
        _check_folder(path.parent)
        _create_file(path)
        _check_file(path, "vault", required=True)
        for suffix in ("-wal", "-shm"):
            sidecar = path.with_name(path.name + suffix)
            _check_file(sidecar, f"vault's {suffix[1:].upper()} file", required=False)
        try:
            connection = sqlite3.connect(os.fspath(path), timeout=busy_timeout,
                                         isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise _database_error(path, exc, busy_timeout) from None
        try:
            _prepare(connection, path, key_id)
        except sqlite3.Error as exc:
            connection.close()
            raise _database_error(path, exc, busy_timeout) from None
        except BaseException:
            connection.close()
            raise
        return cls(path, connection, aes_key, key_id, busy_timeout=busy_timeout, clock=clock)

    # ----------------------------------------------------------------- plumbing

    @property
    def path(self) -> Path:
        return self._path

    def __repr__(self) -> str:  # the path only: never the key, never a value
        state = "closed" if self._connection is None else "open"
        return f"<Vault {str(self._path)!r} {state}>"

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL when it is the last one)."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextlib.contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, its failures told as redactor errors."""
        with self._lock:
            if self._connection is None:
                raise ValueError("the vault is closed")
            try:
                yield self._connection
            except sqlite3.Error as exc:
                raise _database_error(self._path, exc, self._busy_timeout) from None

    def _cipher(self) -> AESGCM:
        if self._aead is None:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM

            self._aead = AESGCM(self._key)
        return self._aead

    def _seal(self, text: str, aad: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._cipher().encrypt(nonce, text.encode("utf-8", "surrogatepass"), aad)

    def _unseal(self, blob: object, aad: bytes) -> str:
        from cryptography.exceptions import InvalidTag

        if not isinstance(blob, bytes) or len(blob) < NONCE_BYTES + TAG_BYTES:
            raise self._damaged()
        try:
            plain = self._cipher().decrypt(blob[:NONCE_BYTES], blob[NONCE_BYTES:], aad)
            return plain.decode("utf-8", "surrogatepass")
        except (InvalidTag, UnicodeDecodeError):
            raise self._damaged() from None

    def _damaged(self) -> ConfigError:
        return ConfigError(f"{self._path}: a value of the vault does not decrypt: the vault "
                           "is damaged or was written under another key; move it away and "
                           "a new one is started (its tokens can then no longer be turned "
                           "back)")

    # ----------------------------------------------------------------- writing

    def put_many(self, items: Iterable[tuple[str, str, str]], *, session: str | None = None,
                 legacy: Mapping[str, str] | None = None) -> None:
        """Store ``(token, entity, value)`` items in one transaction.

        A token already stored keeps its value (the first form seen wins) and has its
        ``last_used`` refreshed (at most daily).  With ``session``: the session is
        recorded as issued each token, with the form it saw when the token was already
        stored (its first form in that session wins too).  ``legacy`` maps tokens to
        their 12-hex tokens of the earlier format, so that those still resolve."""
        batch: list[tuple[str, str, str]] = []
        for index, item in enumerate(items):
            token, entity, value = item
            if not _is_hex(token, TOKEN_CHARS):
                raise ValueError(f"vault item {index}: the token is not {TOKEN_CHARS} "
                                 "lower-case hexadecimal characters")
            if not (isinstance(entity, str) and entity) or not isinstance(value, str):
                raise ValueError(f"vault item {index}: the entity or the value is no text")
            batch.append((token, entity, value))
        old_tokens = dict(legacy or {})
        for token, old in old_tokens.items():
            if not (_is_hex(token, TOKEN_CHARS) and _is_hex(old, LEGACY_CHARS)):
                raise ValueError(f"vault legacy map: not a {TOKEN_CHARS}-hex token to a "
                                 f"{LEGACY_CHARS}-hex one")
        if session is not None and not isinstance(session, str):
            raise ValueError("the session is no text")
        if not batch and not old_tokens:
            return
        now = self._clock()
        with self._using() as db, _immediate(db):
            for token, entity, value in batch:
                row = db.execute("SELECT last_used, entity FROM tokens WHERE token = ?",
                                 (token,)).fetchone()
                stored_now = row is None
                if stored_now:
                    db.execute("INSERT INTO tokens (token, entity, value, legacy, created, "
                               "last_used) VALUES (?, ?, ?, ?, ?, ?)",
                               (token, entity, self._seal(value, _value_aad(token, entity)),
                                old_tokens.get(token), now, now))
                elif now - row[0] >= TOUCH_SECONDS:
                    db.execute("UPDATE tokens SET last_used = ? WHERE token = ?", (now, token))
                if session is None or db.execute(
                        "SELECT 1 FROM sessions WHERE session = ? AND token = ?",
                        (session, token)).fetchone() is not None:
                    continue
                # A token stored by this very call has this form as its value: NULL
                # says so without a second ciphertext.  Otherwise the form is kept,
                # bound to the session, the token and the stored entity.
                form = None if stored_now else self._seal(
                    value, _form_aad(session, token, row[1]))
                db.execute("INSERT INTO sessions (session, token, form, issued) "
                           "VALUES (?, ?, ?, ?)", (session, token, form, now))
            for token, old in old_tokens.items():
                db.execute("UPDATE tokens SET legacy = ? WHERE token = ? AND legacy IS NOT ?",
                           (old, token, old))

    def grant(self, token: str, session: str) -> bool:
        """Let ``session`` resolve a stored token it was not issued (the person typed it
        into that session); False when the token is unknown."""
        now = self._clock()
        with self._using() as db, _immediate(db):
            row = _find(db, token)
            if row is None:
                return False
            db.execute("INSERT OR IGNORE INTO sessions (session, token, form, issued) "
                       "VALUES (?, ?, NULL, ?)", (session, row[0], now))
        return True

    def record_call(self, session: str, call_id: str, tokens: Iterable[str], *,
                    lasting: bool = False) -> None:
        """Remember the tokens a tool call had turned back into values (to turn its
        output into tokens again); forgotten after a day, or with ``lasting`` only when
        their token expires (what the gateway showed a session's person: a resumed
        session's history holds those values for as long as the session lives).  Tokens
        are recorded as their 16 hex (a 12-hex one as the token it resolves to); unknown
        ones are skipped: with no value stored, there is nothing to turn back."""
        wanted = list(tokens)
        now = self._clock()
        # A lasting row is dated far ahead: the daily cleanup never reaches it, the
        # purge of its token does.
        created = now + LASTING_SECONDS if lasting else now
        with self._using() as db, _immediate(db):
            db.execute("DELETE FROM calls WHERE created < ?", (now - CALL_SECONDS,))
            for token in wanted:
                row = _find(db, token)
                if row is not None:
                    db.execute("INSERT OR IGNORE INTO calls (session, call_id, token, created) "
                               "VALUES (?, ?, ?, ?)", (session, call_id, row[0], created))

    def purge(self, *, older_than_days: float | None = None) -> int:
        """Delete every token (``None``), or those unused for longer than the given days,
        with their sessions' rows and calls; then truncate the WAL.  The number of tokens
        deleted."""
        if older_than_days is not None and not older_than_days >= 0:  # NaN too
            raise ValueError("older_than_days must be a number of days, 0 or more")
        now = self._clock()
        with self._using() as db:
            with _immediate(db):
                if older_than_days is None:
                    db.execute("DELETE FROM calls")
                    db.execute("DELETE FROM sessions")
                    deleted = db.execute("DELETE FROM tokens").rowcount
                else:
                    cutoff = now - older_than_days * 86400.0
                    db.execute("DELETE FROM calls WHERE created < ? OR token IN "
                               "(SELECT token FROM tokens WHERE last_used < ?)",
                               (now - CALL_SECONDS, cutoff))
                    db.execute("DELETE FROM sessions WHERE token IN "
                               "(SELECT token FROM tokens WHERE last_used < ?)", (cutoff,))
                    deleted = db.execute("DELETE FROM tokens WHERE last_used < ?",
                                         (cutoff,)).rowcount
            # Pages of deleted rows stay in the WAL until checkpointed (secure_delete
            # zeroes them in the database file itself).
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        return int(deleted)

    def expire(self, days: float = DEFAULT_EXPIRY_DAYS) -> int:
        """Delete the tokens unused for more than ``days``; the number deleted."""
        return self.purge(older_than_days=days)

    def expire_due(self, days: float = DEFAULT_EXPIRY_DAYS, *,
                   every: float = 86400.0) -> int | None:
        """:meth:`expire`, when the last expiry (recorded in the file) is more than
        ``every`` seconds old: what a writer calls, so that expiry needs no scheduler.
        None when it was not due."""
        now = self._clock()
        with self._using() as db, _immediate(db):
            row = db.execute("SELECT value FROM meta WHERE key = 'expired'").fetchone()
            try:
                last = float(row[0]) if row is not None else 0.0
            except ValueError:
                last = 0.0
            if 0 <= now - last < every:
                return None
            db.execute("INSERT INTO meta (key, value) VALUES ('expired', ?) ON CONFLICT(key) "
                       "DO UPDATE SET value = excluded.value", (repr(now),))
        return self.expire(days)

    # ----------------------------------------------------------------- reading

    def get(self, token: str, *, session: str | None = None) -> Entry | None:
        """The entry of a token: 16 hex, or 12 hex of the earlier format (its recorded
        legacy token, else the only stored token it begins), else None.  With
        ``session``, the form that session saw when one was recorded."""
        with self._using() as db:
            row = _find(db, token)
            if row is None:
                return None
            found, entity, blob, last_used = row
            value: str | None = None
            if session is not None:
                own = db.execute("SELECT form FROM sessions WHERE session = ? AND token = ?",
                                 (session, found)).fetchone()
                if own is not None and own[0] is not None:
                    value = self._unseal(own[0], _form_aad(session, found, entity))
            if value is None:
                value = self._unseal(blob, _value_aad(found, entity))
            now = self._clock()
            if now - last_used >= TOUCH_SECONDS:
                with _immediate(db):
                    db.execute("UPDATE tokens SET last_used = ? WHERE token = ? "
                               "AND last_used < ?", (now, found, now))
        return Entry(found, entity, value)

    def issued_in(self, token: str, session: str) -> bool:
        """Whether ``session`` was issued this token (12 hex resolved as by :meth:`get`)."""
        with self._using() as db:
            row = _find(db, token)
            return row is not None and db.execute(
                "SELECT 1 FROM sessions WHERE session = ? AND token = ?",
                (session, row[0])).fetchone() is not None

    def call_tokens(self, session: str, call_id: str) -> list[str]:
        """The tokens :meth:`record_call` recorded for this call in the last day, in
        the order recorded."""
        since = self._clock() - CALL_SECONDS
        with self._using() as db:
            rows = db.execute("SELECT token FROM calls WHERE session = ? AND call_id = ? "
                              "AND created >= ? ORDER BY id", (session, call_id, since))
            return [str(token) for (token,) in rows]

    def stats(self) -> dict[str, int]:
        """How many tokens each entity has (counts only)."""
        with self._using() as db:
            rows = db.execute("SELECT entity, count(*) FROM tokens GROUP BY entity "
                              "ORDER BY entity")
            return {str(entity): int(count) for entity, count in rows}


# --------------------------------------------------------------------------- SQL helpers


@contextlib.contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction that takes the write lock at its start (waiting up to the
    busy timeout), so it never has to upgrade a read lock."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _find(db: sqlite3.Connection, token: str) -> tuple[str, str, Any, float] | None:
    """``(token, entity, ciphertext, last_used)`` of a 16-hex token, or of a 12-hex
    one: its recorded legacy token, else the stored token it begins; None when none
    or more than one matches, or when ``token`` is neither."""
    columns = "SELECT token, entity, value, last_used FROM tokens"
    if _is_hex(token, TOKEN_CHARS):
        rows = db.execute(f"{columns} WHERE token = ?", (token,)).fetchall()
    elif _is_hex(token, LEGACY_CHARS):
        rows = db.execute(f"{columns} WHERE legacy = ? LIMIT 2", (token,)).fetchall()
        if not rows:
            # Tokens are lower-case hex, and "g" sorts after "f": the range is the prefix.
            rows = db.execute(f"{columns} WHERE token >= ? AND token < ? LIMIT 2",
                              (token, token + "g")).fetchall()
    else:
        return None
    if len(rows) != 1:
        return None
    found, entity, blob, last_used = rows[0]
    return str(found), str(entity), blob, float(last_used)


def _prepare(db: sqlite3.Connection, path: Path, key_id: str) -> None:
    """Set the connection's pragmas; create the schema in a new file; check the schema
    version and the key id of an existing one."""
    db.execute("PRAGMA journal_mode = WAL").fetchall()
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA secure_delete = ON")
    db.execute("PRAGMA foreign_keys = ON")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == 0:
        with _immediate(db):
            # Another process may have created it since the first look.
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                if db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
                    raise ConfigError(f"{path}: a database but no redactor vault; move it "
                                      "away or set XDG_STATE_HOME elsewhere")
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute("INSERT INTO meta (key, value) VALUES ('key_id', ?)", (key_id,))
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                version = SCHEMA_VERSION
    if version != SCHEMA_VERSION:
        raise ConfigError(f"{path}: a vault of schema version {version}, this redactor "
                          f"reads version {SCHEMA_VERSION}; upgrade redactor")
    row = db.execute("SELECT value FROM meta WHERE key = 'key_id'").fetchone()
    if row is None:
        raise ConfigError(f"{path}: the vault records no key id: it is damaged; move it "
                          "away and a new one is started")
    if row[0] != key_id:
        raise ConfigError(f"{path}: the vault was written under another key (key id "
                          f"{row[0]}, not {key_id}); use that key, or move the vault away "
                          "and a new one is started")

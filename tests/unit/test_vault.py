"""The pseudonym vault (redactor.pseudonyms.vault): values encrypted and bound to their
rows, private files, first form wins with each session's own form, legacy 12-hex
tokens, expiry, several processes at once, and no value in clear anywhere on disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactor.errors import ConfigError, EngineError
from redactor.pseudonyms.vault import DEFAULT_EXPIRY_DAYS, Entry, Vault, default_path

KEY = bytes(range(32))
KEY_ID = "0123456789abcdef"
DAY = 86400.0
CPF = "529.982.247-25"
CPF_DIGITS = "52998224725"
NAME = "Zebulon Quixadá"
ROOT = Path(__file__).resolve().parents[2]


def tok(n: int) -> str:
    return f"{n:016x}"


class Clock:
    """An injected clock: expiry is tested without sleeping."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, days: float) -> None:
        self.now += days * DAY


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "redactor" / "vault.db"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def vault(path: Path, clock: Clock) -> Iterator[Vault]:
    with Vault.open(path, KEY, KEY_ID, clock=clock) as opened:
        yield opened


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to the file, to tamper with it or count rows (closed after:
    sqlite3's own context manager only commits)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        yield db
    finally:
        db.close()


def count(path: Path, table: str) -> int:
    with raw(path) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


# --------------------------------------------------------------------------- storing


def test_round_trip(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME),
                    (tok(3), "BR_CPF", "111.444.777-35")])
    assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)
    assert vault.get(tok(2)) == Entry(tok(2), "PERSON", NAME)
    assert vault.get(tok(3)) == Entry(tok(3), "BR_CPF", "111.444.777-35")
    assert vault.get(tok(4)) is None
    assert vault.stats() == {"BR_CPF": 2, "PERSON": 1}


def test_values_survive_reopening(path: Path) -> None:
    with Vault.open(path, KEY, KEY_ID) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)], session="s1")
    with Vault.open(path, KEY, KEY_ID) as vault:
        entry = vault.get(tok(1))
        assert entry is not None and entry.value == CPF
        assert vault.issued_in(tok(1), "s1")


def test_lone_surrogates_and_empty_values_round_trip(vault: Vault) -> None:
    vault.put_many([(tok(1), "PERSON", "a\ud800b"), (tok(2), "PERSON", "")])
    assert vault.get(tok(1)) == Entry(tok(1), "PERSON", "a\ud800b")
    assert vault.get(tok(2)) == Entry(tok(2), "PERSON", "")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entity=st.sampled_from(["BR_CPF", "PERSON", "EMAIL_ADDRESS", "USUÁRIO"]),
       value=st.text(max_size=80), session=st.none() | st.text(min_size=1, max_size=10))
def test_any_text_round_trips(vault: Vault, entity: str, value: str,
                              session: str | None) -> None:
    token = hashlib.sha256(f"{entity}\0{value}".encode()).hexdigest()[:16]
    vault.put_many([(token, entity, value)], session=session)
    assert vault.get(token, session=session) == Entry(token, entity, value)
    assert vault.get(token) == Entry(token, entity, value)


def test_first_form_wins_and_each_session_gets_its_own(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)], session="a")
    vault.put_many([(tok(1), "BR_CPF", CPF_DIGITS)], session="b")
    vault.put_many([(tok(1), "BR_CPF", "529 982 247 25")])  # no session: nothing recorded
    assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)
    assert vault.get(tok(1), session="a") == Entry(tok(1), "BR_CPF", CPF)
    assert vault.get(tok(1), session="b") == Entry(tok(1), "BR_CPF", CPF_DIGITS)
    assert vault.get(tok(1), session="c") == Entry(tok(1), "BR_CPF", CPF)
    # A session's first form wins too.
    vault.put_many([(tok(1), "BR_CPF", "52998224725 ")], session="b")
    assert vault.get(tok(1), session="b") == Entry(tok(1), "BR_CPF", CPF_DIGITS)


def test_first_form_wins_within_one_batch(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(1), "BR_CPF", CPF_DIGITS)], session="a")
    assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)
    assert vault.get(tok(1), session="a") == Entry(tok(1), "BR_CPF", CPF)
    assert vault.stats() == {"BR_CPF": 1}


def test_issued_in_is_per_session(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)], session="a")
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)], session="b")
    vault.put_many([(tok(3), "PERSON", "Outra Pessoa")])
    assert vault.issued_in(tok(1), "a") and vault.issued_in(tok(1), "b")
    assert not vault.issued_in(tok(2), "a")
    assert vault.issued_in(tok(2), "b")
    assert not vault.issued_in(tok(3), "a") and not vault.issued_in(tok(3), "b")
    assert not vault.issued_in(tok(9), "a")
    assert not vault.issued_in("not a token", "a")


def test_invalid_items_are_refused_without_their_value(vault: Vault) -> None:
    for item in [(CPF, "BR_CPF", CPF), (tok(0xABC).upper(), "BR_CPF", CPF),
                 (tok(1)[:12], "BR_CPF", CPF), (tok(1), "", CPF)]:
        with pytest.raises(ValueError) as info:
            vault.put_many([(tok(2), "BR_CPF", CPF), item])
        assert CPF not in str(info.value)
    with pytest.raises(ValueError):
        vault.put_many([(tok(2), "BR_CPF", CPF)], legacy={tok(2): "xyz"})
    assert vault.stats() == {}  # checked before the transaction: nothing stored


# --------------------------------------------------------------------------- legacy tokens


def test_legacy_tokens_resolve(vault: Vault) -> None:
    first, second = "aaaaaaaaaaaa0001", "bbbbbbbbbbbb0001"
    vault.put_many([(first, "BR_CPF", CPF), (second, "PERSON", NAME)],
                   legacy={first: "0123456789ab"})
    assert vault.get("0123456789ab") == Entry(first, "BR_CPF", CPF)
    # No legacy token recorded: the only stored token beginning with the 12 hex.
    assert vault.get("bbbbbbbbbbbb") == Entry(second, "PERSON", NAME)
    assert vault.get("fedcba987654") is None
    assert vault.issued_in("0123456789ab", "none") is False


def test_an_ambiguous_legacy_prefix_resolves_to_nothing(vault: Vault) -> None:
    first, second = "aaaaaaaaaaaa0001", "aaaaaaaaaaaa0002"
    vault.put_many([(first, "BR_CPF", CPF), (second, "PERSON", NAME)])
    assert vault.get("aaaaaaaaaaaa") is None
    assert vault.get(first) is not None and vault.get(second) is not None
    # A recorded legacy token is exact: it wins over the ambiguous prefix.
    vault.put_many([], legacy={second: "aaaaaaaaaaaa"})
    assert vault.get("aaaaaaaaaaaa") == Entry(second, "PERSON", NAME)


def test_an_ambiguous_legacy_column_resolves_to_nothing(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)],
                   legacy={tok(1): "0123456789ab", tok(2): "0123456789ab"})
    assert vault.get("0123456789ab") is None


def test_a_legacy_token_may_be_added_later(vault: Vault) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    assert vault.get("0123456789ab") is None
    vault.put_many([(tok(1), "BR_CPF", CPF_DIGITS)], legacy={tok(1): "0123456789ab"})
    assert vault.get("0123456789ab") == Entry(tok(1), "BR_CPF", CPF)


@pytest.mark.parametrize("token", [
    "", "0000000000000001".upper().replace("0", "A"), "000000000000001", "00000000000000001",
    "[CPF:0000000000000001]", "000000000000000g", "00000000000", "0000000000001 ",
    "00000000000G"])
def test_anything_else_resolves_to_nothing(vault: Vault, token: str) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)], legacy={tok(1): "00000000000a"})
    assert vault.get(token) is None


# --------------------------------------------------------------------------- encryption


def test_a_ciphertext_moved_to_another_row_does_not_decrypt(vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "BR_CPF", "111.444.777-35")])
    with raw(path) as db:
        one, two = (db.execute("SELECT value FROM tokens WHERE token = ?", (t,)).fetchone()[0]
                    for t in (tok(1), tok(2)))
        db.execute("UPDATE tokens SET value = ? WHERE token = ?", (two, tok(1)))
        db.execute("UPDATE tokens SET value = ? WHERE token = ?", (one, tok(2)))
    for token in (tok(1), tok(2)):
        with pytest.raises(ConfigError) as info:
            vault.get(token)
        message = str(info.value)
        assert str(path) in message and "another key" in message
        assert CPF not in message and "111.444.777-35" not in message


def test_an_entity_changed_in_place_does_not_decrypt(vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    with raw(path) as db:
        db.execute("UPDATE tokens SET entity = 'PERSON'")
    with pytest.raises(ConfigError):
        vault.get(tok(1))


def test_a_session_form_moved_to_another_session_does_not_decrypt(
        vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    vault.put_many([(tok(1), "BR_CPF", CPF_DIGITS)], session="a")
    vault.put_many([(tok(1), "BR_CPF", "529 982 247 25")], session="b")
    assert vault.get(tok(1), session="b") == Entry(tok(1), "BR_CPF", "529 982 247 25")
    with raw(path) as db:
        db.execute("UPDATE sessions SET form = (SELECT form FROM sessions WHERE session = 'a')"
                   " WHERE session = 'b'")
    with pytest.raises(ConfigError):
        vault.get(tok(1), session="b")
    assert vault.get(tok(1), session="a") == Entry(tok(1), "BR_CPF", CPF_DIGITS)


@pytest.mark.parametrize("blob", [b"", b"short", os.urandom(40)])
def test_a_damaged_ciphertext_is_an_error(vault: Vault, path: Path, blob: bytes) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    with raw(path) as db:
        db.execute("UPDATE tokens SET value = ?", (blob,))
    with pytest.raises(ConfigError, match="damaged"):
        vault.get(tok(1))


def test_each_encryption_has_its_own_nonce(vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "BR_CPF", CPF)])
    with raw(path) as db:
        blobs = [row[0] for row in db.execute("SELECT value FROM tokens")]
    assert len(blobs) == 2 and blobs[0][:12] != blobs[1][:12] and blobs[0] != blobs[1]
    assert all(len(blob) == 12 + len(CPF.encode()) + 16 for blob in blobs)


def test_another_key_id_is_refused(path: Path) -> None:
    with Vault.open(path, KEY, KEY_ID) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)])
    with pytest.raises(ConfigError, match="another key") as info:
        Vault.open(path, KEY, "fedcba9876543210")
    assert str(path) in str(info.value)
    with raw(path) as db:  # the key id is recorded, never the key
        assert db.execute("SELECT key, value FROM meta").fetchall() == [("key_id", KEY_ID)]
    assert KEY not in path.read_bytes() and KEY.hex().encode() not in path.read_bytes()


def test_another_key_under_the_same_id_fails_loudly(path: Path) -> None:
    with Vault.open(path, KEY, KEY_ID) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)])
    with Vault.open(path, bytes(32), KEY_ID) as vault, \
            pytest.raises(ConfigError, match="another key") as info:
        vault.get(tok(1))
    assert CPF not in str(info.value)


def test_a_key_of_the_wrong_size_is_refused(path: Path) -> None:
    with pytest.raises(ValueError):
        Vault.open(path, KEY[:16], KEY_ID)
    with pytest.raises(ValueError):
        Vault.open(path, KEY, "")


# --------------------------------------------------------------------------- files


def test_created_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "redactor" / "vault.db"
    previous = os.umask(0)
    try:
        with Vault.open(path, KEY, KEY_ID) as vault:
            vault.put_many([(tok(1), "BR_CPF", CPF)], session="s")
            for folder in (tmp_path / "a", tmp_path / "a" / "b", path.parent):
                assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
            for name in ("vault.db", "vault.db-wal", "vault.db-shm"):
                assert stat.S_IMODE((path.parent / name).stat().st_mode) == 0o600, name
    finally:
        os.umask(previous)


def test_a_restrictive_umask_still_gives_a_usable_vault(tmp_path: Path) -> None:
    path = tmp_path / "a" / "vault.db"
    previous = os.umask(0o777)
    try:
        with Vault.open(path, KEY, KEY_ID) as vault:
            vault.put_many([(tok(1), "BR_CPF", CPF)])
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o755)  # readable by others, writable by the owner only: accepted
    with Vault.open(folder / "vault.db", KEY, KEY_ID) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)])
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755


def _made(path: Path) -> None:
    with Vault.open(path, KEY, KEY_ID) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)])


def test_an_open_database_file_is_refused(path: Path) -> None:
    _made(path)
    path.chmod(0o644)
    with pytest.raises(ConfigError, match="chmod 600") as info:
        Vault.open(path, KEY, KEY_ID)
    assert str(path) in str(info.value) and "644" in str(info.value)


def test_a_folder_others_may_write_is_refused(path: Path) -> None:
    _made(path)
    path.parent.chmod(0o777)
    with pytest.raises(ConfigError, match="chmod 700"):
        Vault.open(path, KEY, KEY_ID)
    path.parent.chmod(0o770)
    with pytest.raises(ConfigError, match="chmod 700"):
        Vault.open(path, KEY, KEY_ID)


def test_a_symbolic_link_as_the_database_is_refused(path: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.db"
    _made(target)
    path.parent.mkdir(parents=True, mode=0o700)
    path.symlink_to(target)
    with pytest.raises(ConfigError, match="symbolic link"):
        Vault.open(path, KEY, KEY_ID)


def test_a_dangling_symbolic_link_as_the_database_is_refused(
        path: Path, tmp_path: Path) -> None:
    path.parent.mkdir(parents=True, mode=0o700)
    path.symlink_to(tmp_path / "nowhere.db")
    with pytest.raises(ConfigError, match="symbolic link"):
        Vault.open(path, KEY, KEY_ID)
    assert not (tmp_path / "nowhere.db").exists()


def test_a_symbolic_link_as_the_folder_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(ConfigError, match="symbolic link"):
        Vault.open(tmp_path / "link" / "vault.db", KEY, KEY_ID)
    assert not (real / "vault.db").exists()


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("problem", ["mode", "symlink", "folder"])
def test_an_unsafe_wal_or_shm_file_is_refused(path: Path, tmp_path: Path, suffix: str,
                                              problem: str) -> None:
    _made(path)
    sidecar = path.with_name(path.name + suffix)
    assert not sidecar.exists()  # removed at the last close
    if problem == "mode":
        sidecar.write_bytes(b"")
        sidecar.chmod(0o644)
    elif problem == "symlink":
        target = tmp_path / "target"
        target.write_bytes(b"")
        target.chmod(0o600)
        sidecar.symlink_to(target)
    else:
        sidecar.mkdir()
    with pytest.raises(ConfigError) as info:
        Vault.open(path, KEY, KEY_ID)
    assert str(sidecar) in str(info.value)


@pytest.mark.parametrize("target", ["folder", "db", "-wal"])
def test_files_of_another_user_are_refused(path: Path, monkeypatch: pytest.MonkeyPatch,
                                           target: str) -> None:
    _made(path)
    named = {"folder": path.parent, "db": path, "-wal": path.with_name(path.name + "-wal")}
    foreign = named[target]
    if target == "-wal":
        foreign.write_bytes(b"")
        foreign.chmod(0o600)
    real_lstat = os.lstat

    def lstat(name: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        info = real_lstat(name, *args, **kwargs)
        if os.fspath(name) != os.fspath(foreign):
            return info
        fields = list(info[:10])
        fields[4] = os.getuid() + 1  # st_uid
        return os.stat_result(fields)

    monkeypatch.setattr(os, "lstat", lstat)
    with pytest.raises(ConfigError, match="another user") as info:
        Vault.open(path, KEY, KEY_ID)
    assert str(foreign) in str(info.value)


def test_a_file_that_is_no_database_is_refused(path: Path) -> None:
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_bytes(b"no database here, only text\n" * 200)
    path.chmod(0o600)
    with pytest.raises(ConfigError) as info:
        Vault.open(path, KEY, KEY_ID)
    assert str(path) in str(info.value)


def test_another_database_is_refused(path: Path) -> None:
    path.parent.mkdir(parents=True, mode=0o700)
    with raw(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    path.chmod(0o600)
    with pytest.raises(ConfigError, match="no redactor vault"):
        Vault.open(path, KEY, KEY_ID)


def test_a_newer_vault_is_refused(path: Path) -> None:
    _made(path)
    with raw(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(ConfigError, match="version 99"):
        Vault.open(path, KEY, KEY_ID)


def test_default_path() -> None:
    assert default_path({"HOME": "/home/ana"}) == \
        Path("/home/ana/.local/state/redactor/vault.db")
    assert default_path({"HOME": "/home/ana", "XDG_STATE_HOME": "/var/st"}) == \
        Path("/var/st/redactor/vault.db")
    assert default_path({"HOME": "/home/ana", "XDG_STATE_HOME": "rel"}) == \
        Path("/home/ana/.local/state/redactor/vault.db")


# --------------------------------------------------------------------------- locking


def test_a_vault_locked_too_long_is_an_engine_error(path: Path) -> None:
    with Vault.open(path, KEY, KEY_ID, busy_timeout=0.1) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF)])
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(EngineError) as info:
                vault.put_many([(tok(2), "PERSON", NAME)])
            assert str(path) in str(info.value) and NAME not in str(info.value)
            # Readers are not blocked by a writer (WAL), and reading writes nothing
            # within a day.
            assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)
        finally:
            other.execute("ROLLBACK")
            other.close()
        vault.put_many([(tok(2), "PERSON", NAME)])
        assert vault.get(tok(2)) == Entry(tok(2), "PERSON", NAME)


def test_a_closed_vault_refuses_to_work(path: Path) -> None:
    vault = Vault.open(path, KEY, KEY_ID)
    vault.close()
    vault.close()  # twice is fine
    with pytest.raises(ValueError, match="closed"):
        vault.get(tok(1))
    assert "closed" in repr(vault)


def test_threads_share_one_vault(vault: Vault) -> None:
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            for n in range(40):
                vault.put_many([(tok(n), "BR_CPF", f"v{n}")], session=f"t{index}")
                entry = vault.get(tok(n), session=f"t{index}")
                assert entry is not None and entry.value == f"v{n}"
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert vault.stats() == {"BR_CPF": 40}


WORKER = r"""
import sys, time
from pathlib import Path
from redactor.pseudonyms.vault import Vault

path, key, index, go = sys.argv[1], bytes.fromhex(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
session = f"s{index}"
# Odd processes see the digits-only form: whichever process stores a token first sets its
# value, and each session gets its own form back.
items = [(f"{n:016x}", "BR_CPF", (f"{n:011d}" if index % 2 else f"cpf {n}")) for n in range(50)]
deadline = time.monotonic() + 60
while not Path(go).exists():
    assert time.monotonic() < deadline
    time.sleep(0.001)
with Vault.open(Path(path), key, "k") as vault:
    for round in range(3):
        for start in range(0, 50, 5):
            vault.put_many(items[start:start + 5], session=session)
            for token, entity, value in items[:start + 5]:
                own = vault.get(token, session=session)
                assert own is not None and own.value == value and own.entity == entity
                plain = vault.get(token)
                n = int(token, 16)
                assert plain is not None and plain.value in (f"{n:011d}", f"cpf {n}")
                assert vault.issued_in(token, session)
print("ok", flush=True)
"""


def test_eight_processes_share_one_vault(tmp_path: Path) -> None:
    path = tmp_path / "state" / "vault.db"
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(path), KEY.hex(), str(i),
                                 str(go)], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for i in range(8)]
    go.write_text("go")
    results = [worker.communicate(timeout=180) for worker in workers]
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0 and out.strip() == "ok", err[-2000:]
    with Vault.open(path, KEY, "k") as vault:
        assert vault.stats() == {"BR_CPF": 50}
        for n in range(50):
            token = f"{n:016x}"
            plain = vault.get(token)
            assert plain is not None and plain.value in (f"{n:011d}", f"cpf {n}")
            for index in range(8):
                own = vault.get(token, session=f"s{index}")
                assert own is not None
                assert own.value == (f"{n:011d}" if index % 2 else f"cpf {n}")


# --------------------------------------------------------------------------- expiry


def test_expiry_keeps_used_tokens_and_drops_idle_ones(vault: Vault, clock: Clock) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)], session="s")
    clock.advance(20)
    assert vault.get(tok(1)) is not None  # used: last_used moves on
    clock.advance(DEFAULT_EXPIRY_DAYS - 10)  # tok(2) idle for 40 days, tok(1) for 20
    assert vault.expire() == 1
    assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)
    assert vault.get(tok(2)) is None
    assert not vault.issued_in(tok(2), "s") and vault.issued_in(tok(1), "s")
    assert vault.stats() == {"BR_CPF": 1}
    clock.advance(DEFAULT_EXPIRY_DAYS + 1)
    assert vault.expire() == 1 and vault.stats() == {}


def test_put_refreshes_a_stored_token(vault: Vault, clock: Clock) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)])
    clock.advance(25)
    vault.put_many([(tok(1), "BR_CPF", CPF_DIGITS)])
    clock.advance(10)
    assert vault.expire(30) == 1
    assert vault.get(tok(1)) == Entry(tok(1), "BR_CPF", CPF)


def test_last_used_is_written_at_most_daily(vault: Vault, clock: Clock, path: Path) -> None:
    def last_used() -> float:
        with raw(path) as db:
            return float(db.execute("SELECT last_used FROM tokens").fetchone()[0])

    vault.put_many([(tok(1), "BR_CPF", CPF)])
    start = last_used()
    clock.advance(0.5)
    vault.get(tok(1))
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    assert last_used() == start
    clock.advance(0.6)
    vault.get(tok(1))
    assert last_used() == clock.now


def test_purge_all(vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)], session="s")
    vault.record_call("s", "call-1", [tok(1)])
    assert vault.purge() == 2
    assert vault.stats() == {} and vault.get(tok(1)) is None
    assert not vault.issued_in(tok(1), "s") and vault.call_tokens("s", "call-1") == []
    for table in ("tokens", "sessions", "calls"):
        assert count(path, table) == 0
    assert vault.purge() == 0


def test_purge_drops_the_rows_of_the_tokens_it_deletes(
        vault: Vault, clock: Clock, path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)], session="a")
    vault.put_many([(tok(2), "PERSON", "Zebulon")], session="b")
    vault.record_call("a", "c", [tok(1), tok(2)])
    clock.advance(0.5)
    vault.put_many([(tok(3), "PERSON", "Terceira")], session="a")
    clock.advance(0.1)
    assert vault.purge(older_than_days=0.3) == 2
    assert count(path, "sessions") == 1 and count(path, "calls") == 0
    assert vault.get(tok(3), session="a") == Entry(tok(3), "PERSON", "Terceira")
    with pytest.raises(ValueError):
        vault.purge(older_than_days=-1)
    with pytest.raises(ValueError):
        vault.purge(older_than_days=float("nan"))


def test_stats_count_tokens_per_entity(vault: Vault) -> None:
    assert vault.stats() == {}
    vault.put_many([(tok(n), "BR_CPF", f"c{n}") for n in range(5)], session="a")
    vault.put_many([(tok(n), "BR_CPF", f"c{n}") for n in range(3)], session="b")
    vault.put_many([(tok(10 + n), "PERSON", f"p{n}") for n in range(2)])
    assert vault.stats() == {"BR_CPF": 5, "PERSON": 2}


# --------------------------------------------------------------------------- tool calls


def test_calls_remember_their_tokens_for_a_day(vault: Vault, clock: Clock,
                                               path: Path) -> None:
    vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME)],
                   legacy={tok(2): "0123456789ab"})
    vault.record_call("s", "c1", [tok(2), tok(1), tok(2), tok(9)])  # tok(9): unknown
    vault.record_call("s", "c2", ["0123456789ab"])
    vault.record_call("s", "c1", [tok(1)])
    assert vault.call_tokens("s", "c1") == [tok(2), tok(1)]
    assert vault.call_tokens("s", "c2") == [tok(2)]
    assert vault.call_tokens("other", "c1") == [] and vault.call_tokens("s", "c3") == []
    clock.advance(23 / 24)
    assert vault.call_tokens("s", "c1") == [tok(2), tok(1)]
    clock.advance(2 / 24)
    assert vault.call_tokens("s", "c1") == []
    assert count(path, "calls") == 3  # expired rows are deleted by the next write
    vault.record_call("s", "c3", [tok(1)])
    assert count(path, "calls") == 1 and vault.call_tokens("s", "c3") == [tok(1)]


# --------------------------------------------------------------------------- no value in clear


def _forms(value: str) -> list[bytes]:
    forms = [value.encode("utf-8"), value.encode("utf-16-le"), value.encode("utf-16-be")]
    with_latin = value.encode("latin-1", "ignore")
    if with_latin.decode("latin-1") == value:
        forms.append(with_latin)
    return forms


def _leaks(folder: Path, planted: list[str]) -> list[str]:
    """Which planted values (by index) show in which file of the folder."""
    found = []
    for file in sorted(folder.iterdir()):
        data = file.read_bytes()
        for index, value in enumerate(planted):
            if any(form in data for form in _forms(value)):
                found.append(f"planted[{index}] in {file.name}")
    return found


def test_no_value_is_stored_in_clear(path: Path, clock: Clock) -> None:
    planted = [CPF, CPF_DIGITS, NAME, "Quixadá", "zebulon.quixada@exemplo.com.br",
               "11.222.333/0001-81"]
    with Vault.open(path, KEY, KEY_ID, clock=clock) as vault:
        vault.put_many([(tok(1), "BR_CPF", CPF), (tok(2), "PERSON", NAME),
                        (tok(3), "EMAIL_ADDRESS", planted[4]), (tok(5), "PERSON", planted[3]),
                        (tok(4), "BR_CNPJ", planted[5])], session="a",
                       legacy={tok(1): "0123456789ab"})
        vault.put_many([(tok(1), "BR_CPF", CPF_DIGITS), (tok(2), "PERSON", NAME.upper())],
                       session="b")
        assert vault.get(tok(1), session="b") == Entry(tok(1), "BR_CPF", CPF_DIGITS)
        vault.record_call("b", "call", [tok(1), tok(2)])
        assert path.with_name("vault.db-wal").stat().st_size > 0
        assert _leaks(path.parent, [*planted, NAME.upper()]) == []
        clock.advance(1)
        assert vault.purge(older_than_days=365) == 0  # checkpoint: pages move to the db
        assert _leaks(path.parent, [*planted, NAME.upper()]) == []
        vault.purge()
        assert _leaks(path.parent, [*planted, NAME.upper()]) == []
    assert _leaks(path.parent, [*planted, NAME.upper()]) == []
    # The scan itself can fail: a value stored in clear is found.
    with raw(path) as db:
        db.execute("INSERT INTO meta (key, value) VALUES ('probe', ?)", (NAME,))
    assert _leaks(path.parent, [NAME]) != []


@pytest.mark.parametrize("everything", [True, False])
def test_purged_ciphertexts_are_zeroed(vault: Vault, path: Path, clock: Clock,
                                       everything: bool) -> None:
    vault.put_many([(tok(n), "PERSON", f"Pessoa Número {n}") for n in range(30)],
                   session="s")
    clock.advance(40)
    vault.put_many([(tok(100), "BR_CPF", CPF)])  # kept by a partial purge
    with raw(path) as db:
        gone = [bytes(blob) for (blob,) in
                db.execute("SELECT value FROM tokens WHERE token != ?", (tok(100),))]
    assert vault.purge(older_than_days=None if everything else 30) == (31 if everything else 30)
    data = b"".join(file.read_bytes() for file in path.parent.iterdir())
    assert len(gone) == 30 and not any(blob in data for blob in gone)
    assert vault.get(tok(100)) == (None if everything else Entry(tok(100), "BR_CPF", CPF))


def test_reprs_hold_no_value(vault: Vault, path: Path) -> None:
    vault.put_many([(tok(1), "PERSON", NAME)])
    entry = vault.get(tok(1))
    assert entry is not None and entry.value == NAME
    for text in (repr(entry), str(entry), repr(vault), str(vault), f"{entry}", f"{vault!r}"):
        assert NAME not in text and "Zebulon" not in text
        assert KEY.hex() not in text
    assert tok(1) in repr(entry) and str(path) in repr(vault)


def test_a_temporary_directory_vault_needs_no_home(monkeypatch: pytest.MonkeyPatch) -> None:
    with tempfile.TemporaryDirectory() as folder:
        monkeypatch.setenv("XDG_STATE_HOME", folder)
        path = default_path()
        assert path == Path(folder) / "redactor" / "vault.db"
        with Vault.open(path, KEY, KEY_ID) as vault:
            vault.put_many([(tok(1), "BR_CPF", CPF)])
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_cryptography_is_imported_only_to_encrypt_or_decrypt(tmp_path: Path) -> None:
    code = ("import sys; from pathlib import Path; from redactor.pseudonyms.vault import Vault;"
            f"v = Vault.open(Path({str(tmp_path / 'v.db')!r}), bytes(32), 'k');"
            "v.issued_in('0' * 16, 's'); v.stats(); v.call_tokens('s', 'c');"
            "print('cryptography' in sys.modules); v.put_many([('0' * 16, 'PERSON', 'x')]);"
            "print('cryptography' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    assert out.stdout.split() == ["False", "True"]


def test_expiry_runs_by_itself_once_a_day(vault: Vault, clock: Clock) -> None:
    """A writer purges entries unused past the expiry when the last expiry is a day old:
    no scheduler is needed, and a busy vault does not purge on every write."""
    vault.put_many([(tok(1), "BR_CPF", CPF)])
    assert vault.expire_due(30) == 0  # first call: due, nothing old yet
    clock.advance(31)
    vault.put_many([(tok(2), "BR_CPF", CPF_DIGITS)])
    assert vault.expire_due(30) == 1  # the first one, unused for 31 days
    assert vault.get(tok(1)) is None and vault.get(tok(2)) is not None
    clock.advance(0.5)
    assert vault.expire_due(30) is None  # not due again within the day


def test_a_lasting_call_outlives_the_day_but_not_its_token(vault: Vault, clock: Clock) -> None:
    vault.put_many([(tok(1), "PERSON", NAME), (tok(2), "BR_CPF", CPF)], session="s")
    vault.record_call("s", "shown", [tok(1)], lasting=True)
    vault.record_call("s", "call", [tok(2)])
    clock.advance(2)
    vault.record_call("s", "other", [tok(2)])  # the daily cleanup runs here
    assert vault.call_tokens("s", "shown") == [tok(1)]
    assert vault.call_tokens("s", "call") == []
    clock.advance(29)
    vault.get(tok(2))  # used: kept
    clock.advance(1.5)
    vault.expire(30)
    assert vault.call_tokens("s", "shown") == []  # gone with its token

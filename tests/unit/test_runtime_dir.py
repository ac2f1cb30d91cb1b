"""Issue 29, item 13: without $XDG_RUNTIME_DIR, another local user creating
/tmp/redactor-<uid> first made every hook call answer in process (the server never
started).  The folder is refused, and a private one under the user's cache is used."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from redactor.serve import control, protocol


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A short private folder: pytest's own (``/tmp/pytest-of-<user>/pytest-<run>/<test>``)
    grows with its run counter, and a socket path must fit in 107 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="rdr", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(protocol, "SHARED_TMP", str(tmp))
    return tmp / f"redactor-{os.getuid()}"


def _env(tmp_path: Path, cache: str | None = None) -> dict[bytes, bytes]:
    env = {b"HOME": str(tmp_path / "home").encode()}
    if cache is not None:
        env[b"XDG_CACHE_HOME"] = cache.encode()
    return env


def test_the_shared_folder_is_used_when_absent_or_ours(shared: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert protocol.runtime_dir(env) == str(shared)
    shared.mkdir(mode=0o700)
    assert protocol.runtime_dir(env) == str(shared)
    assert protocol.runtime_dir({**env, b"XDG_RUNTIME_DIR": b"/run/user/7"}) == \
        "/run/user/7/redactor"


@pytest.mark.parametrize("squat", ["mode", "owner"])
def test_a_squatted_shared_folder_falls_back_to_a_private_one(
        shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, squat: str,
        foreign_owner: Callable[..., int]) -> None:
    shared.mkdir(mode=0o700)
    if squat == "mode":
        os.chmod(shared, 0o777)
    elif os.getuid() == 0:
        os.chown(shared, 54321, -1)
    else:
        foreign_owner(shared)  # without root, the owner the checks see (tests/conftest.py)
    env = _env(tmp_path)
    folder = protocol.runtime_dir(env)
    assert folder == str(tmp_path / "home" / ".cache" / "redactor" / "run")
    monkeypatch.setattr(os, "environ", {k.decode(): v.decode() for k, v in env.items()})
    monkeypatch.setattr(protocol.posix, "environ", env)
    made = control.prepare_runtime_dir()
    assert made == folder and stat.S_IMODE(os.stat(made).st_mode) == 0o700
    assert len(protocol.socket_path(made).encode()) <= protocol.SOCKET_PATH_MAX
    cache = tmp_path / "xdg-cache"
    assert protocol.runtime_dir(_env(tmp_path, str(cache))) == str(cache / "redactor" / "run")


def test_no_fallback_when_its_socket_path_would_not_fit(shared: Path, tmp_path: Path) -> None:
    shared.mkdir(mode=0o700)
    os.chmod(shared, 0o777)
    long_cache = "/" + "x" * 120
    assert protocol.runtime_dir(_env(tmp_path, long_cache)) == str(shared)
    assert protocol.runtime_dir(_env(tmp_path, "relative/cache")) == str(shared)
    with pytest.raises(control.ServerError, match="refusing the runtime folder"):
        control.prepare_runtime_dir(str(shared))


def test_network_file_systems_are_told_apart(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\nserver:/home /home nfs4 rw 0 0\n"
                      "x /home/a\\040b fuse.sshfs rw 0 0\n")
    real_open = protocol.posix.open

    def fake_open(path: str, flags: int) -> int:
        return real_open(str(mounts) if path == "/proc/self/mounts" else path, flags)

    monkeypatch.setattr(protocol.posix, "open", fake_open)
    assert protocol._file_system("/home/u/.cache/redactor/run") == "nfs4"
    assert protocol._file_system("/home/a b/.cache") == "fuse.sshfs"
    assert protocol._file_system("/var/tmp") == "ext4"
    assert protocol._own_runtime_dir({b"HOME": b"/home/u"}) is None
    assert protocol._own_runtime_dir({b"HOME": b"/root"}) == "/root/.cache/redactor/run"

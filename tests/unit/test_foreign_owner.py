"""A socket or runtime folder owned by another user is refused, by the hook client and the
server, and these checks run without root.

tests/hooks/test_warm_engine.py proves the same end to end with real ``chown`` (as root
only); here the ``foreign_owner`` fixture (tests/conftest.py) makes the file system report
another owner for one path, and the real checks of redactor.serve decide on it.
"""

from __future__ import annotations

import io
import posix
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from redactor.serve import client, control, protocol, server


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private ``$XDG_RUNTIME_DIR`` (short: a socket path must fit in 107 bytes), the
    only variable the client and server see."""
    base = Path(tempfile.mkdtemp(prefix="rdo", dir="/tmp"))
    base.chmod(0o700)
    monkeypatch.setattr(posix, "environ", {b"XDG_RUNTIME_DIR": str(base).encode()})
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def listener(runtime: Path) -> Iterator[tuple[Path, socket.socket]]:
    """A listening socket where the server's would be, in a private runtime folder."""
    folder = runtime / "redactor"
    folder.mkdir(mode=0o700)
    path = Path(protocol.socket_path(str(folder)))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.listen()
    sock.setblocking(False)
    try:
        yield path, sock
    finally:
        sock.close()


def _never_connected(sock: socket.socket) -> None:
    with pytest.raises(BlockingIOError):
        sock.accept()


def test_our_own_socket_is_accepted(listener: tuple[Path, socket.socket]) -> None:
    """The control case: without the fixture's help the same paths pass the checks."""
    path, _ = listener
    protocol.check_private(str(path.parent), want_socket=False)
    protocol.check_private(str(path), want_socket=True)


@pytest.mark.parametrize("which", ["socket", "folder"])
def test_the_client_does_not_connect_to_what_another_user_owns(
        listener: tuple[Path, socket.socket], foreign_owner: Callable[..., int],
        which: str) -> None:
    path, sock = listener
    foreign_owner(path if which == "socket" else path.parent)
    with pytest.raises(protocol.Unreachable, match="owned by another user"):
        protocol.exchange(protocol.build_request(b"{}", stamp=1), path=str(path), timeout=5)
    _never_connected(sock)


def test_the_hook_answers_in_process_when_the_socket_is_another_users(
        listener: tuple[Path, socket.socket], foreign_owner: Callable[..., int],
        monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path, sock = listener
    foreign_owner(path)
    calls: list[tuple[bytes, str]] = []

    def in_process(raw: bytes, host: str = "claude", spawn: bool = True,
                   deadline: float | None = None) -> tuple[int, bytes, bytes]:
        calls.append((raw, host))
        return 0, b"answered here\n", b""

    def no_fail_closed(raw: bytes, error: BaseException,
                       host: str = "claude") -> tuple[int, bytes, bytes]:
        raise AssertionError(f"failed closed: {error!r}")

    monkeypatch.setattr(client, "answer_in_process", in_process)
    monkeypatch.setattr(client, "fail_closed", no_fail_closed)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"x": 1}')))
    assert client.main(["claude"]) == 0
    assert calls == [(b'{"x": 1}', "claude")]
    assert capsysbinary.readouterr().out == b"answered here\n"
    _never_connected(sock)


def test_the_server_does_not_remove_another_users_socket(
        listener: tuple[Path, socket.socket], foreign_owner: Callable[..., int]) -> None:
    path, _ = listener
    foreign_owner(path)
    with pytest.raises(control.ServerError, match=r"refusing the socket: .* owned by another"):
        server._remove_stale_socket(str(path))
    assert path.exists()


def test_the_server_refuses_a_runtime_folder_another_user_owns(
        runtime: Path, foreign_owner: Callable[..., int]) -> None:
    folder = runtime / "redactor"
    folder.mkdir(mode=0o700)
    foreign_owner(folder)
    with pytest.raises(control.ServerError,
                       match=r"refusing the runtime folder: .* owned by another user"):
        control.prepare_runtime_dir()
    with pytest.raises(control.ServerError, match="owned by another user"):
        server.serve(workers=1)  # `redactor serve` stops there, before binding anything
    assert list(folder.iterdir()) == []

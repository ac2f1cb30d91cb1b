"""Starting, asking and stopping the warm engine from outside it.

Used by the light client's slow path (start a server for the next call), by
``redactor serve --status/--stop``, by ``redactor doctor`` and by tests.  It talks to
the server only through :mod:`redactor.serve.protocol`, so the client and the server
never import each other.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from redactor.errors import RedactorError
from redactor.serve import protocol
from redactor.serve.timeouts import CONTROL_TIMEOUT

__all__ = ["ServerError", "prepare_runtime_dir", "request_status", "request_stop",
           "socket_file", "spawn_detached", "take_lock", "wait_until_up"]


class ServerError(RedactorError):
    """The warm engine could not be started or reached safely."""

    exit_code = 4


def prepare_runtime_dir(directory: str | None = None) -> str:
    """Create the private runtime folder if needed and check that it is ours and 0700."""
    directory = directory or protocol.runtime_dir()
    if directory.endswith("/redactor/run"):
        # The fallback under the user's own cache folder: its parents may not exist yet.
        with contextlib.suppress(OSError):
            os.makedirs(os.path.dirname(directory), 0o700, exist_ok=True)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise ServerError(f"{directory}: cannot be created ({exc.strerror})") from None
    try:
        protocol.check_private(directory, want_socket=False)
    except OSError as exc:
        raise ServerError(f"refusing the runtime folder: {exc}") from None
    return directory


def take_lock(path: str) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def spawn_detached(cwd: str | None = None) -> bool:
    """Start ``redactor serve`` in the background unless one runs or is starting."""
    directory = prepare_runtime_dir()
    lock = take_lock(f"{directory}/spawn-{protocol.install_id()}.lock")
    if lock is None:
        return False
    try:
        if request_status() is not None:
            return False
        # -P and PYTHONPATH: the server imports the installation the client belongs to,
        # never a "redactor" folder that happens to be in the working directory.
        root = protocol.package_root()
        python_path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        subprocess.Popen(
            [sys.executable, "-P", "-m", "redactor", "serve"],
            cwd=cwd or os.getcwd(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
            env={**os.environ, "PYTHONPATH": python_path})
        return True
    finally:
        os.close(lock)


def _control(verb: bytes) -> bytes | None:
    try:
        answer = protocol.exchange(protocol.build_request(b"", control=verb),
                                   timeout=CONTROL_TIMEOUT)
        _, out, _ = protocol.parse_answer(answer)
    except (protocol.Unreachable, protocol.Broken):
        return None
    return out


def request_status() -> dict[str, Any] | None:
    """The running server's status, or None when none answers."""
    out = _control(b"status")
    if out is None:
        return None
    try:
        status: dict[str, Any] = json.loads(out)
    except ValueError:
        return None
    return status


def request_stop() -> bool:
    """Ask the running server to exit; True when one answered."""
    return _control(b"stop") is not None


def wait_until_up(seconds: float = 30.0) -> dict[str, Any] | None:
    """Poll for a server's status for up to ``seconds`` (used by doctor and tests)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = request_status()
        if status is not None:
            return status
        time.sleep(0.1)
    return None


def socket_file() -> Path:
    """Where this user's server listens."""
    return Path(protocol.socket_path())

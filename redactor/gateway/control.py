"""Starting, finding and stopping this user's gateway.  Standard library only.

The gateway listens on ``127.0.0.1:<gateway.port>`` and on a Unix socket in the warm
engine's private runtime folder (``gateway-<install>.sock``, mode 0600).  Its pid file
lies beside the socket.  ``start`` is what ``redactor gateway start`` and the Claude
Code ``SessionStart`` hook run: it returns at once when a gateway already answers with
this user's token, and otherwise starts one detached and waits until it answers (the
engine takes a few seconds to build), so the session's first request finds it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from redactor.gateway import identity

__all__ = ["GATEWAY_CWD", "base_url", "is_live", "pid_file", "socket_file", "start", "stop"]

#: Where the gateway's configuration is read from: the root, so that only the user's
#: own configuration applies (it serves every project of the user, and reads none).
GATEWAY_CWD: Final = Path("/")
#: How long ``start`` waits for a new gateway to answer.
START_WAIT: Final = 90.0


def socket_file() -> Path:
    from redactor.serve import protocol

    return Path(protocol.runtime_dir()) / f"gateway-{protocol.install_id()}.sock"


def pid_file() -> Path:
    return socket_file().with_suffix(".pid")


def base_url(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def is_live(env: Mapping[str, str], port: int, *, unix: bool = False) -> bool:
    """Does a gateway holding this user's token answer on the port (or the socket)?"""
    probe = dict(env)
    probe.pop("ANTHROPIC_UNIX_SOCKET", None)
    if unix:
        probe["ANTHROPIC_UNIX_SOCKET"] = str(socket_file())
    probe["ANTHROPIC_BASE_URL"] = base_url(port)
    return identity.gateway_live(probe, timeout=1.0, remember=False)


def _log_file(env: Mapping[str, str]) -> Path:
    from redactor.diagnostics import log_path

    return log_path(env).with_name("gateway.log")


def start(env: Mapping[str, str], port: int, wait: float = START_WAIT) -> bool:
    """Make sure a gateway runs; True when one answers (already, or within ``wait``)."""
    if is_live(env, port):
        return True
    from redactor.serve.control import prepare_runtime_dir, take_lock
    from redactor.serve.protocol import install_id, package_root

    directory = prepare_runtime_dir()
    lock = take_lock(f"{directory}/gateway-spawn-{install_id()}.lock")
    if lock is not None:
        try:
            if not is_live(env, port):
                identity.ensure_token(env)
                log = _log_file(env)
                log.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                python_path = os.pathsep.join(
                    p for p in (package_root(), os.environ.get("PYTHONPATH")) if p)
                with open(log, "ab") as out:
                    subprocess.Popen(
                        [sys.executable, "-P", "-m", "redactor", "gateway", "run"],
                        cwd=str(Path(env.get("HOME") or Path.home())),
                        stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                        start_new_session=True, close_fds=True,
                        env={**os.environ, **env, "PYTHONPATH": python_path})
        finally:
            os.close(lock)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if is_live(env, port):
            return True
        time.sleep(0.2)
    return False


def stop(wait: float = 10.0) -> bool:
    """Stop the gateway whose pid file lies in the runtime folder; True when one ran."""
    path = pid_file()
    try:
        pid = int(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        with contextlib.suppress(OSError):
            path.unlink()
        return False
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        path.unlink()
    return True

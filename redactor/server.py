"""``redactor serve``: one warm engine process per user, behind a private Unix socket.

Hooks run as a new process per tool call; importing Presidio costs about a second
of CPU each time.  The server pays it once.  It listens on
``$XDG_RUNTIME_DIR/redactor/engine.sock`` (or ``/tmp/redactor-<uid>/``), a folder of
mode 0700 and a socket of mode 0600 that must belong to the user; it answers each
client for the client's own working directory and environment, re-reads the
configuration files on every request (an edit applies to the next call), and exits
after an idle time, after a number of requests (bounding memory over long runs),
or when a client runs other code (the client then starts a new one).

The wire format is described in :mod:`redactor.hooks.client`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Final

from redactor import __version__
from redactor.errors import RedactorError
from redactor.hooks import client

__all__ = ["EngineServer", "prepare_runtime_dir", "request_status", "request_stop", "serve",
           "spawn_detached"]

DEFAULT_IDLE: Final = 900.0
DEFAULT_MAX_REQUESTS: Final = 200_000
MAX_REQUEST_BYTES: Final = 128 << 20
READ_TIMEOUT: Final = 30.0


class ServerError(RedactorError):
    """The warm engine could not be started or reached safely."""

    exit_code = 4


def prepare_runtime_dir(directory: str | None = None) -> str:
    """Create the private runtime folder if needed and check that it is ours and 0700."""
    directory = directory or client.runtime_dir()
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise ServerError(f"{directory}: cannot be created ({exc.strerror})") from None
    try:
        client.check_private(directory, want_socket=False)
    except OSError as exc:
        raise ServerError(f"refusing the runtime folder: {exc}") from None
    return directory


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as stream:
            return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Handler(socketserver.BaseRequestHandler):
    server: EngineServer

    def handle(self) -> None:
        server = self.server
        server.begin()
        try:
            self.request.settimeout(READ_TIMEOUT)
            raw = self._read_all()
            self.request.sendall(server.respond(raw))
        except OSError:
            pass  # the client went away; it fails closed on its side
        finally:
            server.end()

    def _read_all(self) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = self.request.recv(1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_REQUEST_BYTES:
                raise OSError("request too large")
            chunks.append(chunk)


class EngineServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """The socket server; see the module docstring."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, path: str, *, idle: float = DEFAULT_IDLE,
                 max_requests: int = DEFAULT_MAX_REQUESTS) -> None:
        self.stamp = client.code_stamp()
        self.idle = idle
        self.max_requests = max_requests
        self.started = time.time()
        self.requests = 0
        self._active = 0
        self._last = time.monotonic()
        self._state = threading.Lock()
        self._stopping = threading.Event()
        previous = os.umask(0o177)
        try:
            super().__init__(path, _Handler)
        finally:
            os.umask(previous)
        os.chmod(path, 0o600)

    # bookkeeping ---------------------------------------------------------------
    def begin(self) -> None:
        with self._state:
            self._active += 1
            self._last = time.monotonic()

    def end(self) -> None:
        with self._state:
            self._active -= 1
            self.requests += 1
            self._last = time.monotonic()
            done = self.requests >= self.max_requests
        if done:
            self.stop_soon()

    def stop_soon(self) -> None:
        if not self._stopping.is_set():
            self._stopping.set()
            threading.Thread(target=self.shutdown, daemon=True).start()

    def watch_idle(self) -> None:
        while not self._stopping.wait(min(1.0, self.idle / 4)):
            with self._state:
                idle = self._active == 0 and time.monotonic() - self._last > self.idle
            if idle:
                self.stop_soon()

    def status(self) -> dict[str, Any]:
        from redactor.api import _cache

        return {"pid": os.getpid(), "version": __version__, "stamp": self.stamp,
                "started": self.started, "uptime": round(time.time() - self.started, 1),
                "requests": self.requests, "engines": len(_cache), "rss": _rss_bytes(),
                "socket": self.server_address, "idle_timeout": self.idle}

    # protocol ------------------------------------------------------------------
    def respond(self, raw: bytes) -> bytes:
        head, _, payload = raw.partition(b"\n\n")
        lines = head.split(b"\n")
        if not lines or lines[0] != client.MAGIC:
            return self._answer(2, b"", b"redactor: unknown request\n")
        fields: dict[str, str] = {}
        env: dict[str, str] = {}
        for line in lines[1:]:
            key, _, value = line.decode("utf-8", "surrogateescape").partition(" ")
            if key == "env":
                name, _, env_value = value.partition("=")
                env[name] = env_value
            else:
                fields[key] = value
        host = fields.get("host", "")
        if host == "status":
            return self._answer(0, json.dumps(self.status()).encode(), b"")
        if host == "stop":
            self.stop_soon()
            return self._answer(0, b"stopping\n", b"")
        if fields.get("stamp") != str(self.stamp):
            # Another installation or edited code: never answer with the old code.
            self.stop_soon()
            return client.MAGIC + b" RESTART\n"
        if host not in ("claude", "hermes"):
            return self._answer(2, b"", b"redactor: unknown host\n")
        from redactor.hooks import claude, hermes

        delay = env.get("REDACTOR_TEST_DELAY")  # failure drills: a server that hangs
        if delay:
            time.sleep(float(delay))
        if host == "hermes":
            return self._answer(0, (hermes.shell(payload, env) + "\n").encode(), b"")
        outcome = claude.run(payload, env=env, default_cwd=fields.get("cwd"))
        out = (outcome.stdout + "\n").encode() if outcome.stdout is not None else b""
        err = (outcome.stderr + "\n").encode() if outcome.stderr is not None else b""
        return self._answer(outcome.exit_code, out, err)

    @staticmethod
    def _answer(code: int, out: bytes, err: bytes) -> bytes:
        return b"%s %d %d %d\n%s%s" % (client.MAGIC, code, len(out), len(err), out, err)


def _take_lock(path: str) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _remove_stale_socket(path: str) -> None:
    try:
        client.check_private(path, want_socket=True)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ServerError(f"refusing the socket: {exc}") from None
    os.unlink(path)


def serve(*, idle: float = DEFAULT_IDLE, max_requests: int = DEFAULT_MAX_REQUESTS,
          warm: bool = True) -> int:
    """Run the server in this process until idle, stopped or replaced.  Returns an exit code."""
    directory = prepare_runtime_dir()
    lock = _take_lock(f"{directory}/server-{client.install_id()}.lock")
    if lock is None:
        return 0  # another server owns the socket
    try:
        if warm:
            from redactor.api import get_redactor

            engine = get_redactor()
            engine.redact("aquecimento 529.982.247-25")
            # The prefilter of large tool outputs: loaded from the cache, or compiled
            # now (once per configuration) rather than inside a hook's time budget.
            engine.may_contain("aquecimento")
        path = client.socket_path(directory)
        _remove_stale_socket(path)
        server = EngineServer(path, idle=idle, max_requests=max_requests)
        watcher = threading.Thread(target=server.watch_idle, daemon=True)
        watcher.start()
        try:
            server.serve_forever(poll_interval=0.5)
        finally:
            server.server_close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        return 0
    finally:
        os.close(lock)


def spawn_detached(cwd: str | None = None) -> bool:
    """Start ``redactor serve`` in the background unless one runs or is starting."""
    directory = prepare_runtime_dir()
    lock = _take_lock(f"{directory}/spawn-{client.install_id()}.lock")
    if lock is None:
        return False
    try:
        if request_status() is not None:
            return False
        # -P and PYTHONPATH: the server imports the installation the client belongs to,
        # never a "redactor" folder that happens to be in the working directory.
        root = client.package_root()
        python_path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        subprocess.Popen(
            [sys.executable, "-P", "-m", "redactor", "serve"],
            cwd=cwd or os.getcwd(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
            env={**os.environ, "PYTHONPATH": python_path})
        return True
    finally:
        os.close(lock)


def _control(host: bytes) -> bytes | None:
    try:
        answer = client.exchange(client.build_request(b"", host=host), timeout=5.0)
        _, out, _ = client.parse_answer(answer)
    except (client.Unreachable, client.Broken):
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
    return Path(client.socket_path())

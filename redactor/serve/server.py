"""``redactor serve``: one warm engine per user, behind a private Unix socket.

Hooks run as a new process per tool call; importing Presidio costs about a second
of CPU each time.  The server pays it once.  It listens on
``engine-<installation id>.sock`` in ``$XDG_RUNTIME_DIR/redactor/`` (else
``/tmp/redactor-<uid>/``, else a private folder under the user's cache folder: see
:func:`redactor.serve.protocol.runtime_dir`), a folder of mode 0700 and a socket of
mode 0600 that must belong to the user; it answers each
client for the client's own working directory and environment, its worker reads the
configuration files once per request (an edit applies to the next call), and exits
after an idle time, after a number of requests (bounding memory over long runs),
or when a client runs other code (the client then starts a new one).

The server process itself is a light dispatcher: it never imports Presidio.  The
engine runs in a small pool of worker processes (:mod:`redactor.serve.worker`, two by
default), each answering one request at a time in its main thread under the hook's
time budget.  The dispatcher reads no configuration: the worker tells it the caller's
budget (``hooks.time_budget_seconds``) once it has read it, and the dispatcher waits
for the answer at most that budget plus a grace from the request's arrival, never
past the client's own timeout;
a worker that overruns is killed and replaced, and that caller alone gets the
fail-closed answer.  One slow or pathological call therefore never holds up
another caller beyond the pool's size.

The wire format is described in :mod:`redactor.serve.protocol`, the deadlines in
:mod:`redactor.serve.timeouts`.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from redactor import __version__
from redactor.serve import protocol, timeouts
from redactor.serve.control import ServerError, prepare_runtime_dir, take_lock
from redactor.serve.protocol import encode_answer, parse_request, with_deadline
from redactor.serve.worker import fail_closed_answer, parse_settings_frame

__all__ = ["EngineServer", "WorkerPool", "encode_answer", "fail_closed_answer", "parse_request",
           "serve", "with_deadline"]

DEFAULT_IDLE: Final = 900.0
DEFAULT_MAX_REQUESTS: Final = 200_000
DEFAULT_WORKERS: Final = 2
MAX_REQUEST_BYTES: Final = 128 << 20
READ_TIMEOUT: Final = timeouts.READ_TIMEOUT
GRACE: Final = timeouts.GRACE
MAX_WAIT: Final = timeouts.MAX_WAIT
WORKER_RESERVE: Final = timeouts.WORKER_RESERVE
#: Seconds a new worker may take to build its engine before it counts as failed.
WARM_TIMEOUT: Final = 300.0
#: Workers that failed to start in a row before the server gives up (clients then
#: answer in process and start a new server).
MAX_START_FAILURES: Final = 3
_FRAME_HEADER: Final = 8


class WorkerFailed(RuntimeError):
    """An engine worker died or broke the protocol while answering."""


class _WorkerGone(WorkerFailed):
    """The worker was dead before it could read any of the request: try another."""


class _PoolClosed(Exception):
    """The server is stopping: the request is dropped unanswered (the client, within
    its retry window, answers in process)."""


def _rss_bytes(pid: int | str = "self") -> int:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as stream:
            return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# ---------------------------------------------------------------------- protocol


# ------------------------------------------------------------------- worker pool


class _Worker:
    """One engine process and the dispatcher's end of its pipes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.pid = process.pid
        self.to_worker = process.stdin.fileno()
        self.from_worker = process.stdout.fileno()
        os.set_blocking(self.to_worker, False)
        self.state = "starting"  # starting | idle | busy | gone
        self.requests = 0
        self.stamp: int | None = None
        self._buffer = bytearray()

    def send(self, body: bytes, deadline: float) -> bool:
        """Write one frame; False when the deadline passed first.  WorkerFailed if gone."""
        view = memoryview(len(body).to_bytes(_FRAME_HEADER, "big") + body)
        poller = select.poll()
        poller.register(self.to_worker, select.POLLOUT)
        written = 0
        while written < len(view):
            if not self._wait(poller, deadline):
                return False
            try:
                written += os.write(self.to_worker, view[written:])
            except BlockingIOError:
                continue
            except OSError as exc:
                failure = _WorkerGone if written == 0 else WorkerFailed
                raise failure(type(exc).__name__) from None
        return True

    def receive(self, deadline: float) -> bytes | None:
        """Read one frame; None when the deadline passed first.  WorkerFailed if gone."""
        poller = select.poll()
        poller.register(self.from_worker, select.POLLIN)
        while True:
            if len(self._buffer) >= _FRAME_HEADER:
                size = int.from_bytes(self._buffer[:_FRAME_HEADER], "big")
                end = _FRAME_HEADER + size
                if len(self._buffer) >= end:
                    body = bytes(self._buffer[_FRAME_HEADER:end])
                    del self._buffer[:end]
                    return body
            if not self._wait(poller, deadline):
                return None
            try:
                chunk = os.read(self.from_worker, 1 << 20)
            except OSError as exc:
                raise WorkerFailed(type(exc).__name__) from None
            if not chunk:
                raise WorkerFailed("the worker exited")
            self._buffer += chunk

    @staticmethod
    def _wait(poller: select.poll, deadline: float) -> bool:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        return bool(poller.poll(max(1, int(remaining * 1000))))

    def kill(self, close_pipes: bool = True) -> None:
        """End the process.  Only the thread that owns the worker closes its pipes, so
        that no other thread can poll a descriptor number already given to another file."""
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()
        if close_pipes:
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()


class WorkerPool:
    """The engine workers of one server.  Spawning happens in the main thread only
    (see :meth:`maintain`): a worker asks the kernel to end it with the thread that
    started it, and the main thread lives as long as the server."""

    def __init__(self, size: int, on_fatal: Callable[[], None]) -> None:
        self.size = size
        self.replaced = 0
        self._on_fatal = on_fatal
        self._workers: list[_Worker] = []
        self._cond = threading.Condition()
        self._closed = False
        self._failures = 0
        self._next_start = 0.0

    def maintain(self) -> None:
        """Replace dead idle workers; start one more while the pool is not full (after a
        pause when starts failed)."""
        with self._cond:
            # Idle workers have no owner: claiming them here (busy) makes this thread it.
            dead = [w for w in self._workers if w.state == "idle" and w.process.poll() is not None]
            for worker in dead:
                worker.state = "busy"
        for worker in dead:
            self.discard(worker)
        with self._cond:
            if self._closed or time.monotonic() < self._next_start:
                return
            # One at a time: on a busy machine the first engine is ready sooner.
            starting = any(w.state == "starting" for w in self._workers)
            if starting or len(self._workers) >= self.size:
                return
        self._start()

    def _start(self) -> None:
        from redactor.serve.worker import PARENT_ENV

        root = protocol.package_root()
        python_path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-P", "-m", "redactor.serve.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, close_fds=True,
            env={**os.environ, "PYTHONPATH": python_path, PARENT_ENV: str(os.getpid())})
        worker = _Worker(process)
        with self._cond:
            closed = self._closed
            if not closed:
                self._workers.append(worker)
        if closed:
            worker.kill()
            return
        threading.Thread(target=self._await_ready, args=(worker,), daemon=True).start()

    def _await_ready(self, worker: _Worker) -> None:
        try:
            frame = worker.receive(time.monotonic() + WARM_TIMEOUT)
        except WorkerFailed:
            frame = None
        fields = (frame or b"").split()
        if len(fields) != 2 or fields[0] != b"READY" or not fields[1].isdigit():
            self.discard(worker, failed_start=True)
            return
        # A worker started after an edit of the code reports another stamp; the next
        # client, which computes the new one, restarts the whole server anyway.
        worker.stamp = int(fields[1])
        with self._cond:
            if worker.state == "starting":
                worker.state = "idle"
                self._failures = 0
                self._cond.notify_all()

    def acquire(self, deadline: float) -> _Worker | None:
        """An idle worker, marked busy; None when none is free before the deadline.
        Raises _PoolClosed when the server stops meanwhile."""
        with self._cond:
            while not self._closed:
                for worker in self._workers:
                    if worker.state == "idle":
                        worker.state = "busy"
                        return worker
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
            raise _PoolClosed

    def release(self, worker: _Worker) -> None:
        with self._cond:
            worker.requests += 1
            if worker.state == "busy":
                worker.state = "idle"
                self._cond.notify()

    def discard(self, worker: _Worker, failed_start: bool = False) -> None:
        """Kill a worker this thread owns (busy, or starting for the thread awaiting its
        readiness); the main thread starts its replacement."""
        with self._cond:
            if worker.state == "gone":
                return
            if worker.state != "starting" or failed_start:
                self.replaced += 1
            worker.state = "gone"
            if worker in self._workers:
                self._workers.remove(worker)
            fatal = False
            if failed_start:
                self._failures += 1
                self._next_start = time.monotonic() + min(30.0, 2.0 ** self._failures)
                fatal = self._failures >= MAX_START_FAILURES
        worker.kill()
        if fatal:
            self._on_fatal()

    def ask(self, raw: bytes, arrived: float, learned: dict[str, Any] | None = None) -> bytes:
        """The answer of a worker, or raise (HookTimeout, WorkerFailed) to fail closed.

        The wait starts as long as the longest budget allows; the worker's SETTINGS frame
        shortens it to the caller's own budget (:func:`timeouts.dispatcher_wait`) and
        puts the caller's language in ``learned``."""
        from redactor.hosts.core import HookTimeout

        deadline = arrived + timeouts.dispatcher_wait(timeouts.MAX_TIME_BUDGET)
        request = with_deadline(raw, arrived + timeouts.worker_wait(timeouts.MAX_TIME_BUDGET),
                                arrived=arrived)
        while True:
            worker = self.acquire(deadline)
            if worker is None:
                raise HookTimeout("no engine worker was free within the time budget")
            try:
                answer = self._exchange(worker, request, arrived, deadline, learned)
            except _WorkerGone:
                self.discard(worker)  # it died while idle, before this request
                continue
            except WorkerFailed:
                self.discard(worker)
                raise
            break
        if answer is None:
            self.discard(worker)
            raise HookTimeout("the engine worker overran the time budget")
        self.release(worker)
        if not answer:
            raise WorkerFailed("the engine worker could not answer")
        return answer

    @staticmethod
    def _exchange(worker: _Worker, request: bytes, arrived: float, deadline: float,
                  learned: dict[str, Any] | None) -> bytes | None:
        """One request to a worker: its answer, or None past the deadline."""
        if not worker.send(request, deadline):
            return None
        while True:
            body = worker.receive(deadline)
            found = None if body is None else parse_settings_frame(body)
            if found is None:
                return body
            budget, language = found
            deadline = min(deadline, arrived + timeouts.dispatcher_wait(budget))
            if learned is not None:
                learned["language"] = language

    def close(self) -> None:
        with self._cond:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
            for worker in workers:
                worker.state = "gone"
            self._cond.notify_all()
        for worker in workers:
            worker.kill(close_pipes=False)  # their owners may still be reading; exiting

    def status(self) -> list[dict[str, Any]]:
        with self._cond:
            return [{"pid": w.pid, "state": w.state, "requests": w.requests,
                     "rss": _rss_bytes(w.pid), "stamp": w.stamp} for w in self._workers]


# ------------------------------------------------------------------- the server


class _Handler(socketserver.BaseRequestHandler):
    server: EngineServer

    def handle(self) -> None:
        server = self.server
        server.begin()
        try:
            self.request.settimeout(READ_TIMEOUT)
            raw = self._read_all()
            answer = server.respond(raw, time.monotonic())
            if answer:  # nothing when the server is stopping: the client answers itself
                self.request.sendall(answer)
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
    """The socket server and dispatcher; see the module docstring."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, path: str, *, idle: float = DEFAULT_IDLE,
                 max_requests: int = DEFAULT_MAX_REQUESTS, workers: int = DEFAULT_WORKERS) -> None:
        self.stamp = protocol.code_stamp()
        self.idle = idle
        self.max_requests = max_requests
        self.started = time.time()
        self.requests = 0
        self._active = 0
        self._last = time.monotonic()
        self._state = threading.Lock()
        self._stopping = threading.Event()
        self.pool = WorkerPool(workers, self.stop_soon)
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

    def service_actions(self) -> None:
        # Runs in the main thread, between requests and at least every poll interval.
        if not self._stopping.is_set():
            self.pool.maintain()

    def drain(self, seconds: float) -> None:
        """Let the requests in flight finish (each ends by its own deadline)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._state:
                if self._active == 0:
                    return
            time.sleep(0.05)

    def watch_idle(self) -> None:
        while not self._stopping.wait(min(1.0, self.idle / 4)):
            with self._state:
                idle = self._active == 0 and time.monotonic() - self._last > self.idle
            if idle:
                self.stop_soon()

    def status(self) -> dict[str, Any]:
        workers = self.pool.status()
        own = _rss_bytes()
        return {"pid": os.getpid(), "version": __version__, "stamp": self.stamp,
                "started": self.started, "uptime": round(time.time() - self.started, 1),
                "requests": self.requests, "rss": own + sum(w["rss"] for w in workers),
                "dispatcher_rss": own, "workers": workers,
                "ready": sum(w["state"] != "starting" for w in workers),
                "replaced": self.pool.replaced, "socket": self.server_address,
                "idle_timeout": self.idle}

    # protocol ------------------------------------------------------------------
    def respond(self, raw: bytes, arrived: float) -> bytes:
        fields, env, payload = parse_request(raw)
        if not raw.startswith(protocol.MAGIC + b"\n"):
            return encode_answer(2, b"", b"redactor: unknown request\n")
        control = fields.get("control")
        if control == "status":
            return encode_answer(0, json.dumps(self.status()).encode(), b"")
        if control == "stop":
            self.stop_soon()
            return encode_answer(0, b"stopping\n", b"")
        if control is not None:
            return encode_answer(2, b"", b"redactor: unknown control request\n")
        host = fields.get("host", "")
        if fields.get("stamp") != str(self.stamp):
            # Another installation or edited code: never answer with the old code.
            self.stop_soon()
            return protocol.MAGIC + b" RESTART\n"
        if host not in protocol.HOSTS:
            return encode_answer(2, b"", b"redactor: unknown host\n")
        # The worker reads the configuration, once, and tells the caller's budget.
        learned: dict[str, Any] = {}
        try:
            return self.pool.ask(raw, arrived, learned)
        except _PoolClosed:
            return b""
        except Exception as exc:  # HookTimeout, WorkerFailed: this caller fails closed
            return fail_closed_answer(host, payload, exc, env, learned.get("language"))


def _remove_stale_socket(path: str) -> None:
    try:
        protocol.check_private(path, want_socket=True)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ServerError(f"refusing the socket: {exc}") from None
    os.unlink(path)


def serve(*, idle: float = DEFAULT_IDLE, max_requests: int = DEFAULT_MAX_REQUESTS,
          workers: int = DEFAULT_WORKERS) -> int:
    """Run the server in this process until idle, stopped or replaced.  Returns an exit code.

    The socket is bound at once; the workers build their engines in the background,
    and a request that arrives before one is ready waits for it within its deadline.
    """
    if workers < 1:
        raise ServerError("the server needs at least one worker")
    directory = prepare_runtime_dir()
    lock = take_lock(f"{directory}/server-{protocol.install_id()}.lock")
    if lock is None:
        return 0  # another server owns the socket
    try:
        path = protocol.socket_path(directory)
        _remove_stale_socket(path)
        server = EngineServer(path, idle=idle, max_requests=max_requests, workers=workers)
        try:
            server.pool.maintain()
            # What a fail-closed answer needs, loaded now rather than during a stall
            # (all light: the engine itself is only ever imported by the workers).
            for module in ("redactor.config", "redactor.diagnostics", "redactor.hosts.core",
                           "redactor.messages"):
                importlib.import_module(module)

            watcher = threading.Thread(target=server.watch_idle, daemon=True)
            watcher.start()
            server.serve_forever(poll_interval=0.5)
        finally:
            # No new connections, then the calls in flight, then the workers.
            server.server_close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            server.drain(MAX_WAIT + 1.0)
            server.pool.close()
        return 0
    finally:
        os.close(lock)



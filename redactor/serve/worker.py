"""``python -P -m redactor.serve.worker``: one engine process of the warm server's pool.

:mod:`redactor.serve.server` is a light dispatcher that never imports Presidio; it hands each
hook call to an idle worker of its pool.  A worker builds the default engine, says it
is ready, then answers one call at a time in its main thread, so that the hook's time
budget (``hooks.time_budget_seconds``, a SIGALRM timer) applies here exactly as in a
hook process.  A worker that still overruns (stuck where the timer cannot reach) is
killed by the dispatcher and replaced; the other workers go on answering.

Frames, both ways over the worker's stdin and stdout: an 8-byte big-endian length,
then the body.  Dispatcher to worker: one raw RDX1 request (see
:mod:`redactor.serve.protocol`) with the dispatcher's ``arrived`` and ``deadline``
lines.  Worker to dispatcher: first ``READY <code stamp>``, then per request a
``SETTINGS <budget> <language>`` frame once the configuration is read (only the worker
reads it; the dispatcher then waits no longer than that budget allows, and answers a
stall in that language) and one RDX1 answer; an empty body means the worker failed
to answer, and the dispatcher fails closed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import Final

__all__ = ["PARENT_ENV", "answer", "fail_closed_answer", "main", "parse_settings_frame",
           "read_frame", "settings_frame", "write_frame"]

HEADER: Final = 8
#: The dispatcher's pid: a worker whose parent is already gone exits at once.
PARENT_ENV: Final = "REDACTOR_WORKER_PARENT"
_PR_SET_PDEATHSIG: Final = 1


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> bytes | None:
    """One frame's body, or None at end of input."""
    head = _read_exact(fd, HEADER)
    if head is None:
        return None
    return _read_exact(fd, int.from_bytes(head, "big"))


def write_frame(fd: int, body: bytes) -> None:
    view = memoryview(len(body).to_bytes(HEADER, "big") + body)
    while view:
        view = view[os.write(fd, view):]


def _die_with_parent() -> None:
    """Let the kernel end this worker with its dispatcher, however that one ends."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the worker still exits at the end of its input
    parent = os.environ.get(PARENT_ENV)
    if parent and parent.isdigit() and os.getppid() != int(parent):
        os._exit(0)


def warm() -> None:
    """Build the default engine and its prefilter, as the first call would."""
    from redactor.api import get_redactor
    from redactor.config import for_hooks, load_settings

    # The engine the hooks ask for: with the local account's own names kept.
    engine = get_redactor(for_hooks(load_settings(), os.environ))
    # A user-name cue loads the common-word lexicon too (built once per machine), and
    # a word after the Portuguese user word the list of Portuguese adjectives.
    engine.redact("aquecimento 529.982.247-25 user=aquecimento do usuário efetivo")
    # The prefilter of large tool outputs: loaded from the cache, or compiled now
    # (once per configuration) rather than inside a hook's time budget.
    engine.may_contain("aquecimento")


def fail_closed_answer(host: str, payload: bytes, error: BaseException,
                       env: Mapping[str, str], language: str | None = None) -> bytes:
    """The host's safe answer to a request nobody answered (the dispatcher's, when no
    worker did), as an RDX1 answer, in ``language`` when known.  Names no value."""
    from redactor.hosts.core import adapter
    from redactor.serve.protocol import encode_answer

    outcome = adapter(host).fail_closed_raw(payload, error, env, source="hook server",
                                            language=language)
    return encode_answer(*outcome.encoded())


def settings_frame(budget: float, language: str) -> bytes:
    """The frame by which a worker tells the dispatcher the caller's time budget and
    language, once it has read the configuration."""
    return b"SETTINGS %.6f %s" % (budget, language.encode("ascii", "replace"))


def parse_settings_frame(body: bytes) -> tuple[float, str] | None:
    """``(budget, language)`` of a SETTINGS frame; None for any other frame."""
    fields = body.split(b" ")
    if len(fields) != 3 or fields[0] != b"SETTINGS":
        return None
    try:
        return float(fields[1]), fields[2].decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None


def answer(raw: bytes, report: Callable[[bytes], None] | None = None) -> bytes:
    """The RDX1 answer to one hook request, by the adapter of the host it names.

    The configuration is read once, by the adapter; ``report`` then gets the SETTINGS
    frame, and the call's own deadline becomes the one the caller's budget gives,
    counted from the request's arrival at the dispatcher (its ``arrived`` line)."""
    from redactor.config import Settings
    from redactor.drills import drill
    from redactor.errors import ConfigError
    from redactor.hosts.core import adapter
    from redactor.serve.protocol import encode_answer, parse_request
    from redactor.serve.timeouts import worker_wait

    fields, env, payload = parse_request(raw)
    host, cwd = fields.get("host", ""), fields.get("cwd", "")
    if not cwd.startswith("/"):
        # The caller's folder decides its project file and a relative REDACTOR_CONFIG;
        # this process's own folder is where the server happened to start.
        return fail_closed_answer(host, payload, ConfigError(
            "the hook request names no absolute working folder"), env)
    deadline: float | None = None
    with contextlib.suppress(KeyError, ValueError):
        deadline = float(fields["deadline"])
    arrived: float | None = None
    with contextlib.suppress(KeyError, ValueError):
        arrived = float(fields["arrived"])

    def settings_read(settings: Settings) -> float | None:
        if report is not None:
            report(settings_frame(settings.hook_time_budget, settings.language))
        delay = drill(env, "REDACTOR_TEST_DELAY")  # failure drills: an engine that hangs
        if delay:
            # Outside the time budget on purpose: a stall that only the dispatcher can end.
            time.sleep(float(delay))
        return None if arrived is None else arrived + worker_wait(settings.hook_time_budget)

    outcome = adapter(host).run(payload, env=env, default_cwd=cwd, deadline=deadline,
                                on_settings=settings_read)
    return encode_answer(*outcome.encoded())


def main() -> int:
    _die_with_parent()
    # Ctrl-C in a terminal reaches the whole process group; the dispatcher decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Frames go to a private copy of stdout; anything printed by a library goes nowhere.
    frames = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    from redactor.diagnostics import log_error
    from redactor.serve import protocol

    try:
        warm()
    except Exception as exc:
        log_error("hook server worker", None, exc)
        return 1
    try:
        write_frame(frames, b"READY %d" % protocol.code_stamp())
        while True:
            raw = read_frame(0)
            if raw is None:
                return 0
            try:
                reply = answer(raw, lambda frame: write_frame(frames, frame))
            except Exception as exc:  # the dispatcher fails closed on an empty answer
                log_error("hook server worker", None, exc)
                reply = b""
            write_frame(frames, reply)
    except BrokenPipeError:
        return 0  # the dispatcher is gone


if __name__ == "__main__":
    sys.exit(main())

"""The import-light hook command: hand the raw event to the warm engine, print its answer.

``redactor install`` registers ``redactor/serve/entry.py`` run as a script with
``python -I -S``, so a hook call costs an interpreter start without ``site`` plus a
round trip to ``redactor serve`` over a per-user Unix socket.  On the hot path it
imports only ``sys``, ``_socket``, ``posix`` and :mod:`redactor.serve.protocol`; the
server parses and renders the JSON.

When no server answers, this process starts one (detached, once, under a lock) and
answers the event itself, in process: slow, but correct.  When a server accepted the
event and then failed or went silent, the event fails closed, never open.
"""

import posix
import sys
from time import monotonic

from redactor.serve.protocol import (
    ANSWER_TIMEOUT,
    HOSTS,
    Broken,
    Unreachable,
    build_request,
    exchange,
    package_root,
    parse_answer,
)


def _full_import_path() -> None:
    """Make site-packages importable again (this process started with -S), with this
    file's own installation first, so the code answering is the code that was asked."""
    import site

    site.main()
    sys.path.insert(0, package_root())


def answer_in_process(raw: bytes, host: str = "claude", spawn: bool = True,
                      deadline: float | None = None) -> tuple[int, bytes, bytes]:
    """Slow path: start a server for the next call, answer this one here (before
    ``deadline``, a ``time.monotonic()`` value, when given)."""
    _full_import_path()
    from redactor.hosts.core import adapter

    if spawn:
        try:
            from redactor.serve.control import spawn_detached

            spawn_detached()
        except Exception as exc:
            from redactor.diagnostics import log_error

            log_error("hook client spawn", None, exc)
    return adapter(host).run(raw, deadline=deadline).encoded()


def fail_closed(raw: bytes, error: BaseException,
                host: str = "claude") -> tuple[int, bytes, bytes]:
    """The host's safe answer when the server took the event and failed."""
    _full_import_path()
    from redactor.hosts.core import adapter

    return adapter(host).fail_closed_raw(raw, error, source="hook client").encoded()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--locate"]:
        # For the Claude Code plugin's script, which caches the fastest form of this
        # command: this interpreter and the entry file run with -I -S.
        sys.stdout.write(sys.executable + "\n" + __file__.rsplit("/", 1)[0] + "/entry.py\n")
        return 0
    if len(argv) != 1 or argv[0] not in HOSTS:
        sys.stderr.write("usage: redactor-hook " + "|".join(HOSTS)
                         + "  (reads one hook event on stdin)\n")
        return 2
    host = argv[0]
    started = monotonic()
    raw = sys.stdin.buffer.read()
    try:
        timeout = float(posix.environ.get(b"REDACTOR_HOOK_TIMEOUT", b"0") or 0) or ANSWER_TIMEOUT
        # One deadline for the whole call, reading the event included; what is left
        # after it (CLIENT_RESERVE) is for this process's own safe answer.
        ends = started + min(timeout, ANSWER_TIMEOUT)
        try:
            request = build_request(raw, host=host.encode())
            code, out, err = parse_answer(exchange(request, timeout=ends - monotonic()))
        except Unreachable:
            code, out, err = answer_in_process(raw, host, deadline=ends)
        except Broken as exc:
            code, out, err = fail_closed(raw, exc, host)
    except BaseException as exc:
        code, out, err = fail_closed(raw, exc, host)
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    if err:
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())

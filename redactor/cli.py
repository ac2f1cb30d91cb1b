"""The ``redactor`` command.

Errors go to stderr as one line naming the problem (never a value) and leave with
the exit code of their class in :mod:`redactor.errors`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from redactor import __version__
from redactor.errors import InputError, RedactorError, UsageError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="redactor", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"redactor {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    redact = commands.add_parser(
        "redact", help="redact files (or stdin) and write the result to stdout",
        description="Redact personal data in text files or stdin; the redacted text goes to "
                    "stdout and a count per entity type to stderr.",
    )
    redact.add_argument("paths", nargs="*", type=Path, help="files to read (default: stdin)")
    redact.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")

    hook = commands.add_parser("hook", help="answer one hook event of an agent host (stdin)")
    hook.add_argument("host", choices=["claude", "hermes"],
                      help="the host whose event is on stdin")

    install = commands.add_parser("install", help="register redactor's hooks with a host")
    install.add_argument("host", choices=["claude", "hermes"])
    install.add_argument("--home", type=Path, metavar="DIR",
                         help="hermes: the profile folder (default: $HERMES_HOME or ~/.hermes)")
    install.add_argument("--shell", action="store_true",
                         help="hermes: register the shell hooks too, with their consent entries")
    where = install.add_mutually_exclusive_group()
    where.add_argument("--project", type=Path, metavar="DIR",
                       help="the project's .claude/settings.json (default: current folder)")
    where.add_argument("--user", action="store_true", help="your own ~/.claude/settings.json")
    install.add_argument("--dry-run", action="store_true", help="show the change, write nothing")
    install.add_argument("--command", dest="hook_command", default=None,
                         help="the hook command to register (default: this installation)")

    serve = commands.add_parser("serve", help="run the warm engine that hook calls talk to")
    action = serve.add_mutually_exclusive_group()
    action.add_argument("--status", action="store_true", help="show the running server")
    action.add_argument("--stop", action="store_true", help="stop the running server")
    serve.add_argument("--idle", type=float, default=900.0, metavar="SECONDS",
                       help="exit after this long without requests (default 900)")
    serve.add_argument("--max-requests", type=int, default=200_000, metavar="N",
                       help="exit after N requests; the next hook call starts a fresh one")

    commands.add_parser("doctor", help="check hooks, the warm engine and redaction end to end")
    return parser


def _read(path: Path | None) -> str:
    """Read text; bytes that are not UTF-8 survive the round trip unchanged."""
    if path is None:
        return sys.stdin.buffer.read().decode("utf-8", errors="surrogateescape")
    try:
        return path.read_bytes().decode("utf-8", errors="surrogateescape")
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory (directories come with the batch "
                         "command; pass files)") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def _write(stream: TextIO, text: str) -> None:
    stream.buffer.write(text.encode("utf-8", errors="surrogateescape"))
    stream.flush()


def _cmd_redact(args: argparse.Namespace) -> int:
    from redactor.api import get_redactor

    engine = get_redactor()
    totals: Counter[str] = Counter()
    failed = 0
    sources: list[Path | None] = list(args.paths) or [None]
    for source in sources:
        try:
            text = _read(source)
        except InputError as exc:
            print(f"redactor: {exc}", file=sys.stderr)
            failed += 1
            continue
        result = engine.redact(text)
        totals.update(result.entity_counts())
        _write(sys.stdout, result.text)
    if not args.quiet:
        summary = ", ".join(f"{name}: {count}" for name, count in sorted(totals.items()))
        print(f"redactor: {sum(totals.values())} redacted ({summary or 'nothing found'})",
              file=sys.stderr)
    return InputError.exit_code if failed else 0


def _cmd_hook(args: argparse.Namespace) -> int:
    from redactor.hooks import claude

    raw = sys.stdin.buffer.read()
    if args.host == "hermes":
        from redactor.hooks import hermes

        _write(sys.stdout, hermes.shell(raw) + "\n")
        return 0
    outcome = claude.run(raw)
    if outcome.stdout is not None:
        _write(sys.stdout, outcome.stdout + "\n")
    if outcome.stderr is not None:
        print(outcome.stderr, file=sys.stderr)
    return outcome.exit_code


def _cmd_install(args: argparse.Namespace) -> int:
    from redactor.install import claude_settings_path, default_hook_command, install_claude

    if args.host == "hermes":
        from redactor.install import install_hermes

        results = install_hermes(args.home, shell=args.shell, dry_run=args.dry_run)
        for result in results:
            if args.dry_run and result.changed:
                _write(sys.stdout, result.diff)
            elif result.changed:
                backup = f" (backup: {result.backup})" if result.backup else ""
                print(f"redactor: updated {result.path}{backup}", file=sys.stderr)
            else:
                print(f"redactor: {result.path} already up to date", file=sys.stderr)
        return 0

    path = claude_settings_path(args.project, args.user)
    command = args.hook_command or default_hook_command()
    result = install_claude(path, command, dry_run=args.dry_run)
    if not result.changed:
        print(f"redactor: hooks already installed in {path}", file=sys.stderr)
    elif args.dry_run:
        _write(sys.stdout, result.diff)
    else:
        backup = f" (backup: {result.backup})" if result.backup else ""
        print(f"redactor: hooks installed in {path}{backup}", file=sys.stderr)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from redactor import server

    if args.status:
        status = server.request_status()
        if status is None:
            print(f"redactor: no server answers at {server.socket_file()}", file=sys.stderr)
            return 1
        _write(sys.stdout, json.dumps(status, indent=2) + "\n")
        return 0
    if args.stop:
        stopped = server.request_stop()
        print("redactor: server stopped" if stopped else "redactor: no server was running",
              file=sys.stderr)
        return 0
    if args.idle <= 0 or args.max_requests <= 0:
        raise UsageError("--idle and --max-requests must be positive")
    return server.serve(idle=args.idle, max_requests=args.max_requests)


def _cmd_doctor(args: argparse.Namespace) -> int:
    from redactor.doctor import run_checks

    ok = True
    for check in run_checks():
        ok = ok and check.ok
        print(f"[{'ok' if check.ok else 'FALHA'}] {check.name}: {check.detail}")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``redactor`` command; returns the exit code."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "redact":
            return _cmd_redact(args)
        if args.command == "hook":
            return _cmd_hook(args)
        if args.command == "install":
            return _cmd_install(args)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "doctor":
            return _cmd_doctor(args)
        raise UsageError(f"unknown command {args.command}")
    except RedactorError as exc:
        print(f"redactor: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # The reader went away (redactor redact f | head); say nothing.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``redactor`` command.

Errors go to stderr as one line naming the problem (never a value) and leave with
the exit code of their class in :mod:`redactor.errors`.
"""

from __future__ import annotations

import argparse
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
    hook.add_argument("host", choices=["claude"], help="the host whose event is on stdin")

    install = commands.add_parser("install", help="register redactor's hooks with a host")
    install.add_argument("host", choices=["claude"])
    where = install.add_mutually_exclusive_group()
    where.add_argument("--project", type=Path, metavar="DIR",
                       help="the project's .claude/settings.json (default: current folder)")
    where.add_argument("--user", action="store_true", help="your own ~/.claude/settings.json")
    install.add_argument("--dry-run", action="store_true", help="show the change, write nothing")
    install.add_argument("--command", dest="hook_command", default=None,
                         help="the hook command to register (default: this installation)")
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
    from redactor import get_redactor

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
    outcome = claude.run(raw)
    if outcome.stdout is not None:
        _write(sys.stdout, outcome.stdout + "\n")
    if outcome.stderr is not None:
        print(outcome.stderr, file=sys.stderr)
    return outcome.exit_code


def _cmd_install(args: argparse.Namespace) -> int:
    from redactor.hooks.claude import redactor_command
    from redactor.install import claude_settings_path, install_claude

    path = claude_settings_path(args.project, args.user)
    command = args.hook_command or f"{redactor_command()} hook claude"
    result = install_claude(path, command, dry_run=args.dry_run)
    if not result.changed:
        print(f"redactor: hooks already installed in {path}", file=sys.stderr)
    elif args.dry_run:
        _write(sys.stdout, result.diff)
    else:
        backup = f" (backup: {result.backup})" if result.backup else ""
        print(f"redactor: hooks installed in {path}{backup}", file=sys.stderr)
    return 0


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

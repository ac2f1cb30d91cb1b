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
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from redactor import __version__
from redactor.errors import InputError, RedactorError, UsageError

if TYPE_CHECKING:
    from redactor.config import Settings
from redactor.hosts.catalogue import HOSTS

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="redactor", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"redactor {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    redact = commands.add_parser(
        "redact", help="redact files, folders or stdin",
        description="Redact personal data in files, folders (recursively) or stdin. Without "
                    "--output or --in-place the result goes to stdout; a count per entity "
                    "type goes to stderr.",
    )
    scan = commands.add_parser(
        "scan", help="count personal data in files, change nothing (exit 1 when found)",
        description="Detect personal data without rewriting: counts per file and entity type "
                    "(never values), in the content and in the file and folder names. Exit 1 "
                    "when anything is found, 0 when clean, 2 on usage or configuration "
                    "errors, 3 when an input cannot be read.",
    )
    for command in (redact, scan):
        command.add_argument("paths", nargs="*", type=Path,
                             help="files or folders (default: stdin)")
        command.add_argument("--glob", default="*", help="file name pattern inside folders")
        command.add_argument("--format", choices=["text", "jsonl", "json"], default=None,
                             help="default: by extension (.jsonl, .json; .gz is unpacked)")
        command.add_argument("--jobs", type=int, default=1, metavar="N",
                             help="process files in N processes")
        command.add_argument("--report", type=Path, metavar="FILE",
                             help="write the per-file counts as JSON")
        command.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
        command.add_argument("--encoding", default="utf-8", metavar="CODEC",
                             help="the inputs' encoding, written back the same (default "
                                  "utf-8; latin-1 and cp1252 for legacy systems); bytes it "
                                  "cannot decode pass through unchanged")
        command.add_argument("--max-json-bytes", type=int, default=None, metavar="N",
                             help="refuse a JSON document larger than N bytes once unpacked "
                                  "(default 256 MiB)")
        command.add_argument("--max-json-values", type=int, default=None, metavar="N",
                             help="refuse a JSON document of more than N values and "
                                  "containers, counted by commas and brackets (default "
                                  "2,000,000: memory grows with them, not with bytes)")
        command.add_argument("--json-numbers", choices=("placeholder", "masked"),
                             default="placeholder",
                             help="JSON: a number holding an identifier becomes the "
                                  "placeholder string (default) or, masked, a number of the "
                                  "same type with every digit a 9 (for typed loads)")
    accepted = scan.add_mutually_exclusive_group()
    accepted.add_argument("--baseline", type=Path, metavar="FILE",
                          help="leave out the findings this baseline accepts (keyed hashes, "
                               "never values): known test fixtures")
    accepted.add_argument("--write-baseline", type=Path, metavar="FILE",
                          help="accept every finding of this scan: write their keyed hashes "
                               "to FILE and exit 0; the key is REDACTOR_BASELINE_KEY or "
                               "~/.config/redactor/baseline.key (created if missing)")
    target = redact.add_mutually_exclusive_group()
    target.add_argument("--output", type=Path, metavar="DIR",
                        help="write redacted copies here, same relative layout; a value in "
                             "a file or folder name becomes _CPF_ (and so on) there")
    target.add_argument("--in-place", action="store_true",
                        help="replace each file by its redacted version (atomically), "
                             "under the name it has; symbolic links and files with several "
                             "hard links are refused")
    redact.add_argument("--follow-links", action="store_true",
                        help="with --in-place: rewrite a symbolic link's target, and a "
                             "hard-linked file's shared content, instead of refusing them")
    redact.add_argument("--pseudonyms", action="store_true",
                        help="write stable tokens ([CPF:3f9a...]) instead of placeholders for "
                             "the [pseudonyms] entities (default CPF, CNPJ, user names, "
                             "people's names): the same value is the same token in every "
                             "file, so rows can be joined and counted; the values go to "
                             "your local vault (redactor vault)")
    redact.add_argument("--no-vault", action="store_true",
                        help="with pseudonyms: tokens only, kept nowhere (irreversible)")
    redact.add_argument("--engine", choices=["local", "spark"], default="local",
                        help="spark: one Spark task per file (needs redactor-br[spark] and Java; "
                             "inputs and outputs on a file system every executor sees)")
    redact.add_argument("--master", default=None, metavar="URL",
                        help="with --engine spark: the Spark master (default local[*])")

    hook = commands.add_parser("hook", help="answer one hook event of an agent host (stdin)")
    hook.add_argument("host", choices=HOSTS,
                      help="the host whose event is on stdin")

    install = commands.add_parser("install", help="register redactor's hooks with a host")
    install.add_argument("host", choices=HOSTS)
    install.add_argument("--home", type=Path, metavar="DIR",
                         help="hermes: the profile folder (default: $HERMES_HOME or ~/.hermes)")
    install.add_argument("--shell", action="store_true",
                         help="hermes: register the shell hooks too, with their consent entries")
    where = install.add_mutually_exclusive_group()
    where.add_argument("--project", type=Path, metavar="DIR",
                       help="claude, codex: the project's .claude/settings.json or "
                            ".codex/hooks.json (their default: the current folder); gemini: "
                            "the project's .gemini/settings.json")
    where.add_argument("--user", action="store_true",
                       help="your own settings: ~/.claude/settings.json, $CODEX_HOME/hooks.json "
                            "or ~/.gemini/settings.json (gemini's default)")
    install.add_argument("--dry-run", action="store_true", help="show the change, write nothing")
    install.add_argument("--command", dest="hook_command", default=None,
                         help="the hook command to register (default: this installation)")
    install.add_argument("--gateway", action="store_true",
                         help="claude: send every model request through redactor gateway "
                              "(env.ANTHROPIC_BASE_URL, the token in the local or user "
                              "settings, a SessionStart hook that starts the gateway)")
    install.add_argument("--http-hooks", action="store_true",
                         help="claude: with --gateway, the hooks are HTTP calls to the gateway "
                              "instead of processes (Claude Code 2.1.295 or later)")
    install.add_argument("--claude-bin", type=Path, default=None, metavar="PATH",
                         help="claude: the Claude Code program whose version decides whether "
                              "onFailure \"block\" is set (default: claude on PATH)")

    serve = commands.add_parser("serve", help="run the warm engine that hook calls talk to")
    action = serve.add_mutually_exclusive_group()
    action.add_argument("--status", action="store_true", help="show the running server")
    action.add_argument("--stop", action="store_true", help="stop the running server")
    serve.add_argument("--idle", type=float, default=900.0, metavar="SECONDS",
                       help="exit after this long without requests (default 900)")
    serve.add_argument("--max-requests", type=int, default=200_000, metavar="N",
                       help="exit after N requests; the next hook call starts a fresh one")
    serve.add_argument("--workers", type=int, default=2, metavar="N",
                       help="engine worker processes; one slow call holds up only its own "
                            "(default 2)")

    gateway = commands.add_parser(
        "gateway", help="the local model gateway: redacts every request Claude Code sends")
    gateway.add_argument("action", nargs="?", default="run",
                         choices=("run", "start", "stop", "status"),
                         help="run in the foreground (default), start in the background, "
                              "stop, or show the running one")
    gateway.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (default 127.0.0.1)")
    gateway.add_argument("--port", type=int, default=None,
                         help="TCP port (default: gateway.port, 47821); 0 for none")
    gateway.add_argument("--socket", type=Path, default=None, metavar="PATH",
                         help="Unix socket path (default: the warm engine's runtime folder)")
    gateway.add_argument("--upstream", default=None, metavar="URL",
                         help="where requests go (default: gateway.upstream, the Anthropic API)")
    gateway.add_argument("--allow-remote", action="store_true",
                         help="allow --host to be an address other machines can reach")

    vault = commands.add_parser(
        "vault", help="the local vault of pseudonym tokens: counts, purge, show one value",
        description="The vault keeps, on this machine only, the value behind each token "
                    "written with [pseudonyms]. stats prints counts per entity type (never "
                    "values); purge deletes entries unused for --older-than days (default: "
                    "pseudonyms.expiry_days) or --all; show prints the value of one token, to "
                    "a terminal only.")
    vault.add_argument("action", choices=("stats", "purge", "show"))
    vault.add_argument("token", nargs="?", default=None,
                       help="show: the token, e.g. [CPF:3f9a0c12d4e5b6a7]")
    scope = vault.add_mutually_exclusive_group()
    scope.add_argument("--older-than", type=float, default=None, metavar="DAYS",
                       help="purge: entries unused for more than DAYS days")
    scope.add_argument("--all", action="store_true", help="purge: every entry")

    commands.add_parser("doctor", help="check hooks, the warm engine and redaction end to end")
    return parser


def _write(stream: TextIO, text: str) -> None:
    stream.buffer.write(text.encode("utf-8", errors="surrogateescape"))
    stream.flush()


def _counts(counts: Counter[str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(counts.items()))


def _pseudonym_settings(args: argparse.Namespace) -> Settings | None:
    """The discovered settings with ``--pseudonyms``/``--no-vault`` applied; None when
    neither is given (the workers discover the same configuration themselves)."""
    wanted, no_vault = getattr(args, "pseudonyms", False), getattr(args, "no_vault", False)
    spark = getattr(args, "engine", "local") == "spark"
    if not (wanted or no_vault or spark):
        return None
    from redactor.config import load_settings

    settings = load_settings()
    if wanted:
        settings = settings.with_overrides(pseudonyms=True)
    if no_vault:
        if not settings.pseudonyms:
            raise UsageError("--no-vault goes with --pseudonyms (or [pseudonyms] enabled)")
        settings = settings.with_overrides(vault=False)
    if settings.pseudonyms and spark and settings.vault:
        raise UsageError("Spark executors write tokens only, never to your vault: add "
                         "--no-vault")
    return settings if (wanted or no_vault) else None


def _call_values() -> tuple[tuple[str, str], ...]:
    """In a hook's wrapped command (REDACTOR_SESSION and REDACTOR_CALL set, pseudonyms
    on): the values that command was given, to write as their tokens again."""
    import os

    session, call = os.environ.get("REDACTOR_SESSION"), os.environ.get("REDACTOR_CALL")
    if not session or not call:
        return ()
    from redactor.config import load_settings

    settings = load_settings()
    if not (settings.pseudonyms and settings.vault):
        return ()
    from redactor.pseudonyms.hooks import exact_pairs

    return exact_pairs(session, call, settings, os.environ)


def _cmd_batch(args: argparse.Namespace, *, scan: bool) -> int:
    import threading

    from redactor import batch

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    max_json = batch.MAX_JSON_BYTES if args.max_json_bytes is None else args.max_json_bytes
    if max_json < 1:
        raise UsageError("--max-json-bytes must be at least 1")
    if args.max_json_values is not None and args.max_json_values < 1:
        raise UsageError("--max-json-values must be at least 1")
    output = getattr(args, "output", None)
    in_place = getattr(args, "in_place", False)
    follow_links = getattr(args, "follow_links", False)
    if follow_links and not in_place:
        raise UsageError("--follow-links goes with --in-place")
    baseline = None
    recording = getattr(args, "write_baseline", None)
    if recording is not None:
        from redactor.baseline import check_writable, new_baseline, recording_key

        if args.jobs != 1:
            raise UsageError("--write-baseline runs in one process: leave out --jobs")
        check_writable(recording)
        key = recording_key()
        if key.created:
            print(f"redactor: created the baseline key file {key.source} (mode 600); give "
                  "the same key to your team and CI (REDACTOR_BASELINE_KEY)", file=sys.stderr)
        baseline = new_baseline(recording, key)
    elif getattr(args, "baseline", None) is not None:
        from redactor.baseline import legacy_warning, read_baseline

        baseline = read_baseline(args.baseline)
        if baseline.key_in_file:
            print(legacy_warning(args.baseline), file=sys.stderr)
    options = batch.Options(encoding=batch.check_encoding(args.encoding),
                            max_json_bytes=max_json, follow_links=follow_links,
                            baseline=baseline, json_numbers=args.json_numbers,
                            settings=_pseudonym_settings(args),
                            exact=() if scan else _call_values(),
                            max_json_values=batch.MAX_JSON_VALUES
                            if args.max_json_values is None else args.max_json_values)
    if getattr(args, "engine", "local") == "spark":
        if not args.paths or not (output or in_place):
            raise UsageError("--engine spark writes files: name the inputs and --output DIR "
                             "or --in-place")
        if args.jobs != 1:
            raise UsageError("--jobs is for the local engine; with --engine spark use "
                             "--master local[N]")
    elif getattr(args, "master", None) is not None:
        raise UsageError("--master goes with --engine spark")
    if threading.current_thread() is threading.main_thread():
        batch.install_termination_handler()
    batch.want_settled_heap()  # this process is ours: its warm heap may be frozen
    if not args.paths:
        from redactor.api import LazyRedactor

        report = batch.FileReport("<stdin>")
        fmt = batch.detect_format(None, args.format)
        engine = LazyRedactor(options.settings)
        engine.baseline = baseline
        try:
            with batch.vault_writer(engine, options, scan=scan):
                batch.run_stream(engine, sys.stdin.buffer,
                                 None if scan else sys.stdout.buffer, fmt, report,
                                 options=options)
        finally:
            engine.baseline = None
        sys.stdout.flush()
        reports = [report]
    else:
        jobs = batch.plan(args.paths, args.glob, output, in_place=in_place, scan=scan,
                          requested=args.format, follow_links=follow_links)
        to_stdout = not scan and output is None and not in_place
        if to_stdout and any(source.is_dir() for source in args.paths):
            raise UsageError("folders need --output DIR or --in-place")
        swept = batch.sweep_stale(batch.destination_folders(jobs))
        if swept and not args.quiet:
            print(f"redactor: removed {swept} stale temporary file(s)", file=sys.stderr)
        if getattr(args, "engine", "local") == "spark":
            from redactor.spark import redact_files

            reports = redact_files(jobs, master=args.master or "local[*]", options=options,
                                   progress=not args.quiet, settings=options.settings)
        else:
            reports = batch.run(jobs, workers=args.jobs, to_stdout=to_stdout, scan=scan,
                                progress=not args.quiet and sys.stderr.isatty(),
                                options=options)
    totals: Counter[str] = Counter()
    # Every path printed or reported is batch.safe_path's: a value in a file name is
    # redacted there too.
    for report in reports:
        totals.update(report.counts)
        totals.update(report.name_counts)
        if report.error:
            print(f"redactor: {report.error}", file=sys.stderr)
        found = [] if report.error else [_counts(report.counts)] if report.counts else []
        if report.name_counts:
            found.append(f"in its name: {_counts(report.name_counts)}")
        if scan and found:
            _write(sys.stdout, f"{report.path}: {'; '.join(found)}\n")
        if report.malformed_lines:
            print(f"redactor: {report.path}: {report.malformed_lines} malformed JSON "
                  "line(s) redacted as text", file=sys.stderr)
    if args.report:
        try:
            args.report.write_text(json.dumps({"files": [r.as_dict() for r in reports],
                                               "totals": dict(sorted(totals.items()))},
                                              indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            # The name is the user's own; the reason is enough (and names no value).
            raise UsageError("cannot write the --report file: "
                             f"{exc.strerror or type(exc).__name__}") from None
    if not args.quiet:
        summary = ", ".join(f"{name}: {count}" for name, count in sorted(totals.items()))
        verb = "found" if scan else "redacted"
        print(f"redactor: {sum(totals.values())} {verb} ({summary or 'nothing found'})",
              file=sys.stderr)
    if any(r.error for r in reports):
        return InputError.exit_code
    if recording is not None and baseline is not None:
        from redactor.baseline import key_id, recorded_key_id, write_baseline

        before = recorded_key_id(recording) if recording.exists() else None
        written = write_baseline(recording, baseline)
        now = key_id(baseline.key)
        if before is not None and before != now:
            # Loud even with -q: whoever scans with the file now needs this key.
            print(f"redactor: {recording} was recorded under key id {before}, now under "
                  f"{now}: the team and CI need the new key", file=sys.stderr)
        if not args.quiet:
            print(f"redactor: {written} finding(s) accepted in {recording} (key id {now})",
                  file=sys.stderr)
        return 0
    return 1 if scan and totals else 0


def _cmd_hook(args: argparse.Namespace) -> int:
    from redactor.hosts.core import adapter

    code, out, err = adapter(args.host).run(sys.stdin.buffer.read()).encoded()
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    if err:
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
    return code


def _report(results: list[Any], dry_run: bool) -> None:
    for result in results:
        if dry_run and result.changed:
            _write(sys.stdout, result.diff)
        elif result.changed:
            backup = f" (backup: {result.backup})" if result.backup else ""
            print(f"redactor: updated {result.path}{backup}", file=sys.stderr)
        else:
            print(f"redactor: {result.path} already up to date", file=sys.stderr)


def _cmd_install(args: argparse.Namespace) -> int:
    from redactor import install

    if args.host == "hermes":
        _report(install.install_hermes(args.home, shell=args.shell, dry_run=args.dry_run),
                args.dry_run)
        return 0
    if args.host == "codex":
        _report(install.install_codex(args.project, user=args.user, command=args.hook_command,
                                      dry_run=args.dry_run), args.dry_run)
        if not args.user and not args.dry_run:
            print("redactor: Codex now trusts this project's configuration (.codex/), which "
                  "it needs to run project hooks", file=sys.stderr)
        return 0
    if args.host == "gemini":
        _report([install.install_gemini(None if args.user else args.project,
                                        command=args.hook_command, dry_run=args.dry_run)],
                args.dry_run)
        if args.project is not None and not args.dry_run:
            print("redactor: Gemini CLI skips project hooks in runs with --skip-trust; "
                  "'redactor install gemini --user' covers those too", file=sys.stderr)
        return 0

    path = install.claude_settings_path(args.project, args.user)
    command = args.hook_command or install.default_hook_command()
    version = install.claude_version(args.claude_bin)
    if args.claude_bin is not None and version is None:
        raise UsageError(f"--claude-bin {args.claude_bin}: 'claude --version' did not report "
                         "a version")
    block = install.claude_blocks_on_failure(version)
    if args.http_hooks and not args.gateway:
        raise UsageError("--http-hooks needs --gateway: the gateway serves the HTTP hooks")
    if args.gateway:
        return _install_claude_gateway(args, path, command, block)
    result = install.install_claude(path, command, dry_run=args.dry_run,
                                    block_on_failure=block)
    if not result.changed:
        print(f"redactor: hooks already installed in {path}", file=sys.stderr)
    elif args.dry_run:
        _write(sys.stdout, result.diff)
    else:
        backup = f" (backup: {result.backup})" if result.backup else ""
        print(f"redactor: hooks installed in {path}{backup}", file=sys.stderr)
    if not block:
        found = "no claude on PATH" if version is None else \
            "Claude Code " + ".".join(map(str, version))
        since = ".".join(map(str, install.CLAUDE_ON_FAILURE_SINCE))
        print(f"redactor: {found}: onFailure \"block\" needs Claude Code {since} or later, so a "
              "hook that cannot start lets the call through; upgrade and run this again",
              file=sys.stderr)
    project = args.project or Path.cwd()
    candidates = [install.claude_settings_path(user=True),
                  install.claude_settings_path(project),
                  install.claude_settings_path(project).with_name("settings.local.json")]
    for enabled in install.claude_plugin_enabled(candidates):
        print(f"redactor: {enabled} also enables the redactor plugin: its hooks and these "
              "both run on every call; keep one (claude plugin disable redactor@redactor, "
              "or remove these hooks)", file=sys.stderr)
    return 0


def _install_claude_gateway(args: argparse.Namespace, path: Path, command: str,
                            block: bool) -> int:
    import os

    from redactor import config, install
    from redactor.gateway import identity

    env = dict(os.environ)
    from redactor.gateway.control import GATEWAY_CWD

    settings = config.load_settings(cwd=GATEWAY_CWD, env=env)
    http_hooks = args.http_hooks
    if http_hooks and not block:
        print("redactor: HTTP hooks need Claude Code "
              f"{'.'.join(map(str, install.CLAUDE_ON_FAILURE_SINCE))} or later (onFailure "
              "\"block\"); installing command hooks instead", file=sys.stderr)
        http_hooks = False
    token = "0" * 64 if args.dry_run else identity.ensure_token(env)
    # The token never goes into a project's committed settings.json.
    env_path = path if args.user else path.with_name("settings.local.json")
    from redactor.gateway import control

    results = install.install_claude_gateway(
        path, env_path, command, port=settings.gateway_port, token=token,
        http_hooks=http_hooks, block_on_failure=block, dry_run=args.dry_run,
        unix_socket=str(control.socket_file()))
    _report(results, args.dry_run)
    if not args.dry_run:
        kind = "HTTP hooks" if http_hooks else "command hooks"
        if not args.user:
            print(f"redactor: {env_path} holds the gateway's address and your token (not "
                  "committed); Claude Code reads it only in a trusted folder and, offline, "
                  "starts seconds slower with it: '--user' avoids both", file=sys.stderr)
        print(f"redactor: Claude Code now sends its model requests through redactor gateway "
              f"on 127.0.0.1:{settings.gateway_port} ({kind}); a SessionStart hook starts it, "
              "or run `redactor gateway start`", file=sys.stderr)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from redactor.serve import control, server

    if args.status:
        status = control.request_status()
        if status is None:
            print(f"redactor: no server answers at {control.socket_file()}", file=sys.stderr)
            return 1
        _write(sys.stdout, json.dumps(status, indent=2) + "\n")
        return 0
    if args.stop:
        stopped = control.request_stop()
        print("redactor: server stopped" if stopped else "redactor: no server was running",
              file=sys.stderr)
        return 0
    if args.idle <= 0 or args.max_requests <= 0 or args.workers <= 0:
        raise UsageError("--idle, --max-requests and --workers must be positive")
    return server.serve(idle=args.idle, max_requests=args.max_requests, workers=args.workers)


def _cmd_gateway(args: argparse.Namespace) -> int:
    import os

    from redactor import config
    from redactor.gateway import control

    env = dict(os.environ)
    if args.action == "stop":  # needs no configuration: a broken one must not keep it up
        stopped = control.stop()
        print("redactor: gateway stopped" if stopped else "redactor: no gateway was running",
              file=sys.stderr)
        return 0
    settings = config.load_settings(cwd=control.GATEWAY_CWD, env=env)
    port = settings.gateway_port if args.port is None else args.port
    if args.action == "start":
        from redactor.serve.control import ServerError

        if not control.start(env, port):
            raise ServerError(f"the gateway did not answer on 127.0.0.1:{port} in time; see "
                              f"{control._log_file(env)}")
        print(f"redactor: gateway answering at {control.base_url(port)}", file=sys.stderr)
        return 0
    if args.action == "status":
        live = control.is_live(env, port)
        print(f"redactor: gateway at {control.base_url(port)}: "
              f"{'answering' if live else 'not answering'}", file=sys.stderr)
        return 0 if live else 1
    return _gateway_run(args, settings, env, port)


def _gateway_run(args: argparse.Namespace, settings: Any, env: dict[str, str],
                 port: int) -> int:
    import ipaddress
    import os

    try:
        from redactor.gateway.app import Gateway, serve
    except ImportError as exc:
        raise UsageError("the gateway needs the gateway extra: pip install "
                         "'redactor-br[gateway]'") from exc
    from redactor.gateway import control, identity

    host = args.host
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not args.allow_remote:
        raise UsageError(f"--host {host} is reachable from other machines; the gateway "
                         "forwards with your API key, so pass --allow-remote only if you mean it")
    upstream = None
    if args.upstream is not None:
        from redactor.config import _upstream

        # Kept out of the settings: the HTTP hooks share the engine of settings equal to
        # those the hooks themselves read, and they never see this flag.
        upstream = _upstream(Path("--upstream"), "gateway.upstream", args.upstream)
    token = identity.ensure_token(env)
    unix = str(args.socket) if args.socket is not None else str(control.socket_file())
    if args.socket is None:
        from redactor.serve.control import prepare_runtime_dir

        prepare_runtime_dir()
        # Started by Claude Code (the SessionStart hook): listen where its settings
        # send the requests, when that is a private folder of this user.
        session_socket = env.get("ANTHROPIC_UNIX_SOCKET")
        if session_socket:
            from redactor.serve.protocol import check_private

            try:
                check_private(str(Path(session_socket).parent), want_socket=False)
            except OSError as exc:
                raise UsageError(f"ANTHROPIC_UNIX_SOCKET names a socket outside a private "
                                 f"folder of yours ({exc}); the gateway will not listen "
                                 "there") from None
            unix = session_socket
    gateway = Gateway(settings, env, token=token, upstream=upstream)
    pid_path = control.pid_file() if args.socket is None else None

    def ready() -> None:
        if pid_path is not None:
            pid_path.write_text(f"{os.getpid()}\n", encoding="ascii")
        where = f"{control.base_url(port)} and " if port else ""
        print(f"redactor: gateway listening on {where}{unix}", file=sys.stderr, flush=True)

    serve(gateway, host=host if port else None, port=port or None, unix=unix, ready=ready)
    return 0


def _cmd_vault(args: argparse.Namespace) -> int:
    import os

    from redactor.config import load_settings
    from redactor.pseudonyms.record import open_vault
    from redactor.pseudonyms.tokens import TOKEN_RE

    if args.action != "show" and args.token is not None:
        raise UsageError(f"vault {args.action} takes no token")
    if args.action != "purge" and (args.all or args.older_than is not None):
        raise UsageError("--all and --older-than go with vault purge")
    settings = load_settings()
    if args.action == "show":
        if args.token is None:
            raise UsageError("vault show needs a token, e.g. [CPF:3f9a0c12d4e5b6a7]")
        # For the person at the keyboard: never into a pipe, a file or a tool's output
        # that a model reads.  The token is not echoed either (it may be a typo of a value).
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise UsageError("vault show prints only to a terminal (stdin and stdout)")
        match = TOKEN_RE.fullmatch(args.token.strip())
        if match is None:
            raise UsageError("that is not a token: a label and 16 (or 12) lowercase "
                             "hexadecimal characters in brackets, e.g. [CPF:3f9a0c12d4e5b6a7]")
        with open_vault(settings, os.environ) as vault:
            entry = vault.get(match.group(2))
        if entry is None or _label(entry.entity) != match.group(1):
            raise InputError("no such token in the vault (expired, purged, or written "
                             "under another key)")
        _write(sys.stdout, entry.value + "\n")
        return 0
    with open_vault(settings, os.environ) as vault:
        if args.action == "stats":
            counts = vault.stats()
            for entity, count in sorted(counts.items()):
                print(f"{entity}\t{count}")
            print(f"total\t{sum(counts.values())}")
            return 0
        days = None if args.all else (settings.vault_expiry_days if args.older_than is None
                                      else args.older_than)
        if days is not None and days < 0:
            raise UsageError("--older-than must be 0 or more days")
        removed = vault.purge(older_than_days=days)
    print(f"redactor: {removed} vault entr{'y' if removed == 1 else 'ies'} removed",
          file=sys.stderr)
    return 0


def _label(entity: str) -> str:
    from redactor.config import ENTITY_LABELS

    return ENTITY_LABELS.get(entity, entity.removeprefix("BR_"))


def _cmd_doctor(args: argparse.Namespace) -> int:
    from redactor.doctor import run_checks

    ok = True
    for check in run_checks():
        ok = ok and check.ok
        mark = "FALHA" if not check.ok else "aviso" if check.warning else "ok"
        print(f"[{mark}] {check.name}: {check.detail}")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``redactor`` command; returns the exit code."""
    try:
        args = _parser().parse_args(argv)
        if args.command in ("redact", "scan"):
            return _cmd_batch(args, scan=args.command == "scan")
        if args.command == "hook":
            return _cmd_hook(args)
        if args.command == "install":
            return _cmd_install(args)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "gateway":
            return _cmd_gateway(args)
        if args.command == "doctor":
            return _cmd_doctor(args)
        if args.command == "vault":
            return _cmd_vault(args)
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

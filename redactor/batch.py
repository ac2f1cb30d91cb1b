"""Batch anonymization of files and streams: text, JSON Lines and JSON, gzip included.

Memory stays bounded for text and JSONL: input is read in blocks that end at a line
break; a line longer than a block is processed in overlapping windows, so no
identifier is cut at a window edge.  (A JSON document is parsed whole.)  Bytes that
are not UTF-8 pass through unchanged.  Output goes to a temporary file in the target
folder, is flushed to disk and renamed over the target, with the original's
permissions: an interrupted run never leaves a truncated file.
"""

from __future__ import annotations

import bisect
import contextlib
import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Literal, cast

from redactor.errors import InputError

__all__ = ["FileReport", "Format", "Job", "detect_format", "plan", "process_file",
           "redact_stream", "run", "write_atomically"]

Format = Literal["text", "jsonl", "json"]
BLOCK: Final = 1 << 20
#: Characters kept back at a window edge inside a very long line; far longer than
#: any identifier plus its context words.
WINDOW_OVERLAP: Final = 4096


@dataclass
class FileReport:
    """What happened to one input: counts per entity type, never values."""

    path: str
    counts: Counter[str] = field(default_factory=Counter)
    bytes_in: int = 0
    malformed_lines: int = 0
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "counts": dict(sorted(self.counts.items())),
                "bytes": self.bytes_in, "malformed_lines": self.malformed_lines,
                "error": self.error}


def detect_format(path: Path | None, requested: str | None) -> Format:
    """``--format`` if given, else by extension (``.jsonl``/``.ndjson``, ``.json``)."""
    if requested:
        if requested not in ("text", "jsonl", "json"):
            raise InputError(f"unknown format {requested!r}; use text, jsonl or json")
        return requested  # type: ignore[return-value]
    if path is None:
        return "text"
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".json"):
        return "json"
    return "text"


def _blocks(source: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
    """``(block, ends_line)``: blocks end at a line break unless a line is longer than BLOCK."""
    pending = b""
    while True:
        chunk = source.read(BLOCK)
        if not chunk:
            if pending:
                yield pending, True
            return
        pending += chunk
        cut = pending.rfind(b"\n")
        if cut >= 0:
            yield pending[:cut + 1], True
            pending = pending[cut + 1:]
        elif len(pending) >= BLOCK:
            # A very long line: hand over whole UTF-8 characters only.
            end = len(pending)
            while end > 0 and (pending[end - 1] & 0xC0) == 0x80:
                end -= 1
            if end and pending[end - 1] >= 0xC0:
                end -= 1
            end = end or len(pending)
            yield pending[:end], False
            pending = pending[end:]


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def _encode(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


def redact_stream(engine: Any, source: IO[bytes], target: IO[bytes] | None, fmt: Format,
                  report: FileReport, *, on_block: Callable[[int], None] | None = None) -> None:
    """Redact ``source`` into ``target`` (None: scan only, count findings).

    ``on_block`` is told the input bytes of each block once it is done.
    """
    if fmt == "json":
        data = source.read()
        report.bytes_in += len(data)
        _redact_json_document(engine, data, target, report)
        return
    carry = ""
    # User names found so far in this input: redacted in the blocks that follow too.
    names: set[str] = set()
    for block, ends_line in _blocks(source):
        report.bytes_in += len(block)
        text = carry + _decode(block)
        if not ends_line:
            done, carry = _window(engine, text, report, names)
            if target is not None:
                target.write(_encode(done))
            continue
        carry = ""
        out = _redact_lines(engine, text, report) if fmt == "jsonl" else \
            _redact_text(engine, text, report, names)
        if target is not None:
            target.write(_encode(out))
        if on_block is not None:
            on_block(len(block))
    if carry:
        out = _redact_text(engine, carry, report, names)
        if target is not None:
            target.write(_encode(out))


def _redact_text(engine: Any, text: str, report: FileReport,
                 names: set[str] | None = None) -> str:
    result = engine.redact(text, names=names) if names is not None else engine.redact(text)
    report.counts.update(f.entity_type for f in result.findings)
    return str(result.text)


def _window(engine: Any, text: str, report: FileReport,
            names: set[str]) -> tuple[str, str]:
    """Redact the part of a long line that no later window can change; keep the rest.

    Findings that start before the cut are final (the text around them is complete);
    the cut moves past any of them that crosses it.
    """
    cut = max(0, len(text) - WINDOW_OVERLAP)
    findings = [f for f in engine.analyze(text, names=names) if f.start < cut]
    for finding in findings:
        cut = max(cut, finding.end)
    report.counts.update(f.entity_type for f in findings)
    return str(engine.apply(text[:cut], findings)), text[cut:]


def _redact_lines(engine: Any, text: str, report: FileReport) -> str:
    # One prefilter scan for the block: a line no trigger hits, written without JSON
    # escapes (its strings are then pieces of the line itself), has nothing to redact.
    hits = engine.candidate_hits(text) if hasattr(engine, "candidate_hits") else None
    hit_starts = [h[0] for h in hits] if hits is not None else []
    reach_end = 0
    out: list[str] = []
    position = 0
    for line in text.splitlines(keepends=True):
        line_start, position = position, position + len(line)
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        if not body.strip():
            out.append(line)
            continue
        clean = False
        if hits is not None and "\\" not in body:
            index = bisect.bisect_left(hit_starts, position)
            # hits are sorted by start; the ones starting before the line's end may reach it
            while reach_end < index and hits[reach_end][1] <= line_start:
                reach_end += 1
            clean = not any(hits[i][1] > line_start for i in range(reach_end, index))
        try:
            value = json.loads(body)
        except ValueError:
            report.malformed_lines += 1
            out.append(line if clean else _redact_text(engine, body, report) + ending)
            continue
        if clean:
            out.append(line)
            continue
        result = engine.redact_json(value)
        report.counts.update(f.entity_type for f in result.findings)
        out.append((json.dumps(result.value, ensure_ascii=False) if result.findings else body)
                   + ending)
    return "".join(out)


def _redact_json_document(engine: Any, data: bytes, target: IO[bytes] | None,
                          report: FileReport) -> None:
    try:
        value = json.loads(_decode(data))
    except ValueError:
        report.malformed_lines += 1
        out = _redact_text(engine, _decode(data), report)
        if target is not None:
            target.write(_encode(out))
        return
    result = engine.redact_json(value)
    report.counts.update(f.entity_type for f in result.findings)
    if target is not None:
        text = json.dumps(result.value, ensure_ascii=False, indent=2) + "\n" \
            if result.findings else _decode(data)
        target.write(_encode(text))


def write_atomically(destination: Path, writer: Callable[[IO[bytes]], None],
                     mode_from: Path | None = None) -> None:
    """Write through a temporary file in the same folder, fsync, then rename over."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".redactor",
                                         dir=destination.parent)
    try:
        with os.fdopen(handle, "wb") as raw:
            if destination.name.endswith(".gz"):
                with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed:
                    writer(cast(IO[bytes], packed))
            else:
                writer(raw)
            raw.flush()
            os.fsync(raw.fileno())
        reference = mode_from if mode_from is not None and mode_from.exists() else None
        if reference is not None:
            os.chmod(temporary, reference.stat().st_mode & 0o7777)
        os.replace(temporary, destination)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _open_source(path: Path) -> IO[bytes]:
    try:
        if path.name.endswith(".gz"):
            return cast(IO[bytes], gzip.open(path, "rb"))
        return path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def process_file(engine: Any, source: Path, destination: Path | None, fmt: Format,
                 *, scan_only: bool = False,
                 on_block: Callable[[int], None] | None = None) -> FileReport:
    """Redact (or scan) one file; errors are reported in the result, never raised."""
    report = FileReport(str(source))
    try:
        with _open_source(source) as stream:
            if scan_only:
                redact_stream(engine, stream, None, fmt, report, on_block=on_block)
            else:
                target = destination or source
                write_atomically(
                    target, lambda out: redact_stream(engine, stream, out, fmt, report,
                                              on_block=on_block),
                    mode_from=source)
    except (InputError, OSError, EOFError, gzip.BadGzipFile) as exc:
        report.error = str(exc) if isinstance(exc, InputError) else \
            f"{source}: {type(exc).__name__}"
    return report


@dataclass(frozen=True, slots=True)
class Job:
    """One input file and where its redacted copy goes (None: stdout, or nowhere for scan)."""

    source: Path
    destination: Path | None
    fmt: Format


def plan(paths: list[Path], glob: str, output: Path | None, *, in_place: bool, scan: bool,
         requested: str | None) -> list[Job]:
    """Expand folders (recursively, ``glob``) and map each file to its destination."""
    jobs: list[Job] = []
    for path in paths:
        if path.is_dir():
            base = path
            files = sorted(f for f in path.rglob(glob) if f.is_file()
                           and not (output is not None and output.resolve() in
                                    f.resolve().parents))
        else:
            base, files = path.parent, [path]
        for file in files:
            if scan:
                destination = None
            elif output is not None:
                destination = output / file.relative_to(base)
            else:
                destination = file if in_place else None
            jobs.append(Job(file, destination, detect_format(file, requested)))
    return jobs


def _run_one(engine: Any, job: Job, *, scan: bool, stdout: IO[bytes] | None,
             on_block: Callable[[int], None] | None = None) -> FileReport:
    if stdout is not None:
        report = FileReport(str(job.source))
        try:
            with _open_source(job.source) as stream:
                redact_stream(engine, stream, stdout, job.fmt, report, on_block=on_block)
        except (InputError, OSError, EOFError, gzip.BadGzipFile) as exc:
            report.error = str(exc) if isinstance(exc, InputError) else \
                f"{job.source}: {type(exc).__name__}"
        return report
    return process_file(engine, job.source, job.destination, job.fmt, scan_only=scan,
                        on_block=on_block)


def _worker(job: Job, scan: bool) -> FileReport:
    from redactor.api import get_redactor

    return _run_one(get_redactor(), job, scan=scan, stdout=None)


class _Progress:
    """A tqdm bar on stderr: input megabytes, MB/s and findings so far."""

    def __init__(self, jobs: list[Job], enabled: bool) -> None:
        self.bar: Any = None
        if not enabled:
            return
        import sys

        from tqdm import tqdm

        # Sizes on disk; compressed inputs grow when read, so their total is unknown.
        total: int | None = None
        with contextlib.suppress(OSError):
            if not any(j.source.name.endswith(".gz") for j in jobs):
                total = sum(j.source.stat().st_size for j in jobs)
        self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1000,
                        file=sys.stderr, dynamic_ncols=True, desc=f"{len(jobs)} file(s)",
                        postfix={"findings": 0}, leave=True)
        self.findings = 0

    def block(self, size: int) -> None:
        if self.bar is not None:
            self.bar.update(size)

    def file_done(self, report: FileReport, *, counted: bool) -> None:
        if self.bar is None:
            return
        if not counted:
            self.bar.update(report.bytes_in)
        self.findings += sum(report.counts.values())
        self.bar.set_postfix(findings=self.findings)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(jobs: list[Job], *, workers: int = 1, to_stdout: bool = False, scan: bool = False,
        progress: bool = False) -> list[FileReport]:
    """Process every job; ``workers`` > 1 uses that many processes (one file each)."""
    import sys

    reports: list[FileReport] = []
    bar = _Progress(jobs, progress)
    try:
        if workers > 1 and not to_stdout and len(jobs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=workers) as pool:
                for report in pool.map(_worker, jobs, [scan] * len(jobs)):
                    reports.append(report)
                    bar.file_done(report, counted=False)
        else:
            from redactor.api import get_redactor

            engine = get_redactor()
            stdout = sys.stdout.buffer if to_stdout else None
            for job in jobs:
                report = _run_one(engine, job, scan=scan, stdout=stdout, on_block=bar.block)
                reports.append(report)
                bar.file_done(report, counted=True)
            if stdout is not None:
                stdout.flush()
    finally:
        bar.close()
    return reports

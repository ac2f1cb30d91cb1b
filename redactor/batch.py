"""Batch anonymization of files and streams: text, JSON Lines and JSON, gzip included.

Memory stays bounded for text and JSONL: input is read in blocks that end at a line
break; a line longer than a block is processed in overlapping windows, so no
identifier is cut at a window edge.  A JSON document is parsed whole, up to
``max_json_bytes`` (read in a bounded way: a gzip bomb is never unpacked whole).
Input is decoded with the chosen encoding (UTF-8 by default); bytes it cannot decode
pass through unchanged, and output is written back in the same encoding.

Output goes to a temporary file ``.NAME.PID.RANDOM.redactor`` in the target folder, is
flushed to disk and renamed over the target, with the original's permissions (and,
in place, its owner and group where permitted): an interrupted run never leaves a
truncated file.  :func:`install_termination_handler` removes the current temporary
files on SIGTERM; :func:`sweep_stale` removes those a killed run left behind.

In place, a symbolic link or a file with several hard links is refused unless
``follow_links``: then a link's target is rewritten (the link stays a link) and a
multiply-linked file's content is rewritten in its own inode, so every name sees the
redacted text.  Any failure on one input becomes that input's reported error
(paths and error class names only); the other inputs are still processed.

File and folder names go through the engine too (:func:`safe_name`): every path this
module prints or reports is :func:`safe_path`'s, and an ``--output`` tree is written
under redacted names (:func:`plan`).  In place, a file keeps its name.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import functools
import gzip
import json
import os
import re
import secrets
import signal
import stat
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Any, Final, Literal, cast

from redactor.errors import ConfigError, EngineBuildError, InputError, UsageError
from redactor.jsonio import DUPLICATE_KEY_MARK, TooDeep, key_name

if TYPE_CHECKING:
    from redactor.baseline import Baseline
    from redactor.config import Settings
    from redactor.engine import StreamNames
    from redactor.engine.analysis import Memo

__all__ = ["MAX_JSON_BYTES", "MAX_JSON_VALUES", "NAME_MAX", "NAME_PLACEHOLDER", "FileReport",
           "Format", "Job", "Names", "Options", "check_encoding",
           "destination_folders", "detect_format", "install_termination_handler",
           "is_temporary", "plan", "process_file", "redact_stream", "run", "run_stream",
           "safe_name", "safe_path", "settle_heap", "sweep_stale", "want_settled_heap",
           "write_atomically"]

Format = Literal["text", "jsonl", "json"]
BLOCK: Final = 1 << 20
#: Characters kept back at a window edge inside a very long line; far longer than
#: any identifier plus its context words.
WINDOW_OVERLAP: Final = 4096
#: The largest JSON document (``.json``, after unpacking) parsed whole, by default.
MAX_JSON_BYTES: Final = 256 << 20
#: A JSON document's values and containers, counted by its commas and opening brackets
#: (an over-count where strings hold them): ``[{},{},...]`` packs twenty million empty
#: objects in 60 MiB, and Python holds each in about a hundred bytes, twice while it is
#: redacted.  Past this, the document is refused before it is parsed.
MAX_JSON_VALUES: Final = 2_000_000
#: A temporary file of a run older than this is stale even if its process id is in use.
STALE_SECONDS: Final = 24 * 3600
#: Exit code after SIGTERM (128 + 15).
TERMINATED_EXIT: Final = 143

#: ``.NAME.PID.RANDOM.redactor`` (this version) and ``.NAME.RANDOM.redactor`` (earlier
#: versions, made by tempfile.mkstemp: 8 characters of ``[a-z0-9_]``).
_TEMPORARY: Final = re.compile(r"\..+\.(?P<pid>[0-9]+)\.[0-9a-f]{8}\.redactor")
_LEGACY_TEMPORARY: Final = re.compile(r"\..+\.[a-z0-9_]{8}\.redactor")


@dataclass(frozen=True, slots=True)
class Options:
    """How inputs are read and written back."""

    #: A codec that writes ASCII as ASCII (see :func:`check_encoding`).
    encoding: str = "utf-8"
    max_json_bytes: int = MAX_JSON_BYTES
    max_json_values: int = MAX_JSON_VALUES
    #: In place: rewrite a symbolic link's target and a multiply-linked file's inode
    #: instead of refusing them.
    follow_links: bool = False
    #: Scan: findings accepted by this baseline are not counted (see redactor.baseline).
    baseline: Baseline | None = None
    #: JSON: how an identifier held by a number is written ("placeholder": the
    #: placeholder string; "masked": a number of the same type, every digit a 9).
    json_numbers: str = "placeholder"
    #: The settings of the run when not the discovered ones (``--pseudonyms``), shipped
    #: to the worker processes with the options.
    settings: Settings | None = None
    #: (value, token): values written as these tokens before the detectors run (the
    #: pipe of a hook's wrapped command, for the values that command was given).
    exact: tuple[tuple[str, str], ...] = ()


DEFAULT_OPTIONS: Final = Options()


@dataclass
class FileReport:
    """What happened to one input: counts per entity type, never values.

    ``path`` is the input's path as printed (see :func:`safe_path`), ``output`` that of
    its redacted copy in an ``--output`` folder; ``name_counts`` (scan only) counts the
    findings in the names on ``path``.
    """

    path: str
    counts: Counter[str] = field(default_factory=Counter)
    bytes_in: int = 0
    malformed_lines: int = 0
    error: str | None = None
    name_counts: Counter[str] = field(default_factory=Counter)
    output: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "output": self.output,
                "counts": dict(sorted(self.counts.items())),
                "name_counts": dict(sorted(self.name_counts.items())),
                "bytes": self.bytes_in, "malformed_lines": self.malformed_lines,
                "error": self.error}


# ---------------------------------------------------------------- file names

#: How a value found in a file or folder name is written in the names redactor writes
#: and prints: its entity's label between underscores (``comprovante__CPF_.pdf.txt``).
#: Letters, digits and ``_`` only: no glob (``[CPF]`` is one), no shell metacharacter,
#: nothing a shell or ``find`` reads as an option.
NAME_PLACEHOLDER: Final = "_{label}_"
#: The longest file or folder name, in bytes, that common file systems take.
NAME_MAX: Final = 255
_PATH_SEPARATORS: Final = re.compile(r"([/\\])" if os.altsep else "(/)")


@contextlib.contextmanager
def _without_baseline(engine: Any) -> Iterator[None]:
    """A scan's baseline filters (and records) content findings only: names are always
    redacted where they are printed, and counted against the baseline apart."""
    baseline = getattr(engine, "baseline", None)
    if baseline is None:
        yield
        return
    engine.baseline = None
    try:
        yield
    finally:
        engine.baseline = baseline


class Names:
    """File and folder names through one engine, each name analysed once.

    A name is read as it is written and again with every ``_`` as a space (same
    length, so offsets hold): ``_`` is a word character, so a name glued to it
    (``Maria_da_Silva.txt``) is found only in the second reading, and a token that
    holds it (``ghp_...``) only in the first; the findings of both are merged.  The
    cache holds names, which may hold personal data: keep it in memory only.
    """

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._found: dict[str, tuple[tuple[int, int, str], ...]] = {}

    def findings(self, name: str) -> tuple[tuple[int, int, str], ...]:
        """``(start, end, entity)`` of each value in one name, disjoint and sorted."""
        cached = self._found.get(name)
        if cached is not None:
            return cached
        spans: list[tuple[int, int, str]] = []
        if name not in ("", ".", ".."):
            with _without_baseline(self.engine):
                for text in dict.fromkeys((name, name.replace("_", " "))):
                    spans.extend((f.start, f.end, f.entity_type)
                                 for f in self.engine.analyze(text))
        found = self._found[name] = _merged(spans)
        return found

    def name(self, name: str) -> str:
        """``name`` with each value found in it replaced by :data:`NAME_PLACEHOLDER`."""
        return _replaced(name, self.findings(name))

    def crossing(self, names: Sequence[str]) -> tuple[tuple[int, int, str], ...]:
        """``(start, end, entity)`` in ``"/".join(names)`` of each value that spans a
        separator: a name written with its own ``/`` (``11.222.333/0001-81.txt`` is a
        folder and a file), which no single name holds."""
        if len(names) < 2:
            return ()
        text = "/".join(names)
        cached = self._found.get("\x00" + text)
        if cached is not None:
            return cached
        spans: list[tuple[int, int, str]] = []
        with _without_baseline(self.engine):
            for reading in dict.fromkeys((text, text.replace("_", " "))):
                spans.extend((f.start, f.end, f.entity_type) for f in self.engine.analyze(reading)
                             if "/" in text[f.start:f.end])
        found = self._found["\x00" + text] = tuple(sorted(set(spans)))
        return found

    def parts(self, names: Sequence[str]) -> tuple[str, ...]:
        """The names of one path, each through :meth:`name`, and each part of a value
        that spans their separators replaced too."""
        crossing = self.crossing(names)
        if not crossing:
            return tuple(self.name(n) for n in names)
        out = []
        start = 0
        for name in names:
            end = start + len(name)
            spans = list(self.findings(name))
            spans += [(max(s, start) - start, min(e, end) - start, entity)
                      for s, e, entity in crossing if s < end and e > start]
            out.append(_replaced(name, _merged(spans)))
            start = end + 1
        return tuple(out)

    def path(self, path: str | os.PathLike[str]) -> str:
        """``path`` as redactor prints it: each of its names through :meth:`parts`."""
        pieces = _PATH_SEPARATORS.split(os.fspath(path))
        safe = self.parts(pieces[0::2])
        return "".join(piece if index % 2 else safe[index // 2]
                       for index, piece in enumerate(pieces))

    def values(self, path: str | os.PathLike[str]) -> list[tuple[str, str, str]]:
        """``(where, entity, value)`` of each value in the names on ``path``; ``where``
        is the path up to the end of the name that holds it (the last it spans)."""
        found: list[tuple[str, str, str]] = []
        parts = _PATH_SEPARATORS.split(os.fspath(path))
        for index in range(0, len(parts), 2):
            name = parts[index]
            found.extend(("".join(parts[:index + 1]), entity, name[start:end])
                         for start, end, entity in self.findings(name))
        names = parts[0::2]
        text = "/".join(names)
        for start, end, entity in self.crossing(names):
            last = text.count("/", 0, end - 1)
            found.append(("".join(parts[:2 * last + 1]), entity, text[start:end]))
        return found


def _merged(spans: list[tuple[int, int, str]]) -> tuple[tuple[int, int, str], ...]:
    merged: list[tuple[int, int, str]] = []
    for start, end, entity in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][1]:
            first = merged[-1]
            merged[-1] = (first[0], max(first[1], end), first[2])
        else:
            merged.append((start, end, entity))
    return tuple(merged)


def _replaced(name: str, spans: Sequence[tuple[int, int, str]]) -> str:
    out: list[str] = []
    position = 0
    for start, end, entity in spans:
        out += [name[position:start], NAME_PLACEHOLDER.format(label=_name_label(entity))]
        position = end
    out.append(name[position:])
    return "".join(out)


def _name_label(entity: str) -> str:
    from redactor.config import ENTITY_LABELS

    label = ENTITY_LABELS.get(entity, entity.removeprefix("BR_"))
    return re.sub(r"[^A-Za-z0-9_]", "", label) or "VALUE"


def safe_name(engine: Any, name: str) -> str:
    """One file or folder name with each value the engine finds in it replaced by
    :data:`NAME_PLACEHOLDER` (``cliente-52998224725.log``: ``cliente-_CPF_.log``)."""
    return Names(engine).name(name)


def safe_path(engine: Any, path: str | os.PathLike[str]) -> str:
    """A path as redactor prints it: every name on it through :func:`safe_name`."""
    return Names(engine).path(path)


def _size(name: str) -> int:
    return len(os.fsencode(name))


def _cut(text: str, limit: int) -> str:
    """The longest start of ``text`` (whole characters) of at most ``limit`` bytes."""
    total = 0
    for index, char in enumerate(text):
        total += _size(char)
        if total > limit:
            return text[:index]
    return text


def _fit(name: str, tag: str = "") -> str:
    """``name`` with ``tag`` before its extensions (from its first dot that does not
    start it), at most :data:`NAME_MAX` bytes: the part before the extensions is cut
    short when needed (a placeholder makes a name longer than the value it replaces)."""
    cut = name.find(".", 1)
    stem, extensions = (name, "") if cut < 0 else (name[:cut], name[cut:])
    room = NAME_MAX - _size(tag) - _size(extensions)
    if room < 1:  # extensions too long to keep whole: cut the name as one
        stem, extensions, room = name, "", NAME_MAX - _size(tag)
    return (_cut(stem, room) or "_") + tag + extensions


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


def check_encoding(name: str) -> str:
    """The codec's canonical name; refuses unknown codecs and those that do not write
    ASCII (line breaks, digits, letters) as single ASCII bytes, such as UTF-16."""
    try:
        canonical = codecs.lookup(name).name
    except LookupError:
        raise UsageError(f"unknown encoding {name!r}") from None
    sample = "\n\r\t 0123456789 ABCXYZ abcxyz ./-:[]{}\"\\"
    try:
        ascii_compatible = sample.encode(canonical) == sample.encode("ascii")
    except (UnicodeError, LookupError):
        ascii_compatible = False
    if not ascii_compatible:
        raise UsageError(f"encoding {name!r} does not write ASCII as ASCII; "
                         "convert the input to UTF-8 first")
    return canonical


def _escaped_byte(char: str) -> bytes | None:
    """The byte surrogateescape kept as ``char``, or None."""
    code = ord(char)
    return bytes((code - 0xDC00,)) if 0xDC80 <= code <= 0xDCFF else None


def _pass_through_text(error: UnicodeError) -> tuple[bytes, int]:
    # Bytes the decoder could not read go back as they were; any other character the
    # encoding cannot write (a placeholder's, in Latin-1) becomes "?".
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = b"".join(_escaped_byte(c) or b"?" for c in error.object[error.start:error.end])
    return out, error.end


def _pass_through_json(error: UnicodeError) -> tuple[bytes, int]:
    # As in text, but a character the encoding cannot write (a lone surrogate from a
    # JSON "\ud800", a euro sign in Latin-1) is written as a JSON escape: JSON output
    # holds such characters only inside strings, where the escape means the same.
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = bytearray()
    for char in error.object[error.start:error.end]:
        kept = _escaped_byte(char)
        code = ord(char)
        if kept is not None:
            out += kept
        elif code > 0xFFFF:
            code -= 0x10000
            out += f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}".encode()
        else:
            out += f"\\u{code:04x}".encode()
    return bytes(out), error.end


codecs.register_error("redactor-pass-text", _pass_through_text)
codecs.register_error("redactor-pass-json", _pass_through_json)


def _decode(data: bytes, encoding: str = "utf-8") -> str:
    return data.decode(encoding, errors="surrogateescape")


def _encode(text: str, encoding: str = "utf-8", *, json_text: bool = False) -> bytes:
    return text.encode(encoding, "redactor-pass-json" if json_text else "redactor-pass-text")


def _read_bounded(source: IO[bytes], limit: int, path: str) -> bytes:
    """All of ``source``, refused once it passes ``limit`` bytes (nothing more is read)."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = source.read(min(BLOCK, limit + 1 - size))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise InputError(f"{path}: JSON document larger than {limit} bytes "
                             "(--max-json-bytes)")


#: Heap settling: [wanted, done] (see settle_heap).
_SETTLE: Final[list[bool]] = [False, False]


def want_settled_heap() -> None:
    """Let :func:`settle_heap` act in this process: for the command line's own processes
    (``redactor redact``/``scan`` and their workers), never a library user's."""
    _SETTLE[0] = True


def settle_heap() -> None:
    """Once per process that wants it, after a first block: freeze what is alive then
    (the engine, its word lists and caches, Presidio) out of the garbage collector's reach.

    Findings are made of many small objects; each collection they trigger walked the
    ~110,000 objects of the warm engine again: 13-31 % of the time on logs dense with
    findings, 3-5 % once frozen (benchmarks/README.md).  Those objects live as long as
    the process, so nothing collectable is kept from the collector.

    The youngest generation is then collected every YOUNG_COLLECTION allocations
    instead of every 700: nearly every object a block makes is freed when its count of
    references falls to zero, and the collections found little but cost 5-15 % more
    (web and database logs, JSON lines).  What a collection would free waits at most
    that many allocations longer.
    """
    if not _SETTLE[0] or _SETTLE[1]:
        return
    import gc

    _SETTLE[1] = True
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, oldest)


#: Allocations between two collections of the youngest generation in the command
#: line's processes (Python's default: 700), see settle_heap.
YOUNG_COLLECTION: Final = 20_000


def redact_stream(engine: Any, source: IO[bytes], target: IO[bytes] | None, fmt: Format,
                  report: FileReport, *, on_block: Callable[[int], None] | None = None,
                  options: Options = DEFAULT_OPTIONS) -> None:
    """Redact ``source`` into ``target`` (None: scan only, count findings).

    ``on_block`` is told the input bytes of each block once it is done.  Errors are
    raised (see :func:`run_stream` and :func:`process_file`, which report them).
    """
    encoding = options.encoding
    if fmt == "json":
        data = _read_bounded(source, options.max_json_bytes, report.path)
        report.bytes_in += len(data)
        text = _decode(data, encoding)
        del data
        values = text.count(",") + text.count("{") + text.count("[")
        if values > options.max_json_values:
            raise InputError(f"{report.path}: JSON document with more than "
                             f"{options.max_json_values} values (--max-json-values)")
        _redact_json_document(engine, text, target, report, encoding,
                              numbers=options.json_numbers)
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors="surrogateescape")
    carry = ""
    from redactor.engine import StreamNames

    swap = None
    if options.exact:
        from redactor.pseudonyms.hooks import exact_swap

        swap = exact_swap(options.exact)

    # Names found so far in this input: redacted in the blocks that follow too.
    names = StreamNames()
    for block, ends_line in _blocks(source):
        report.bytes_in += len(block)
        text = carry + decoder.decode(block, False)
        if swap is not None:
            text = swap(text)  # a value split across blocks is whole again here
        if not ends_line:
            done, carry = _window(engine, text, report, names)
            if target is not None:
                target.write(_encode(done, encoding))
            continue
        carry = ""
        if fmt == "jsonl":
            out = _redact_lines(engine, text, report, numbers=options.json_numbers,
                                names=names)
        else:
            out = _redact_text(engine, text, report, names)
        if target is not None:
            target.write(_encode(out, encoding, json_text=fmt == "jsonl"))
        if on_block is not None:
            on_block(len(block))
        settle_heap()
    carry += decoder.decode(b"", True)  # an incomplete character at the very end
    if carry and swap is not None:
        carry = swap(carry)
    if carry:
        out = _redact_text(engine, carry, report, names)
        if target is not None:
            target.write(_encode(out, encoding))


def _describe(path: str, exc: BaseException) -> str:
    """One line for an input's failure: our own message, or the path (as printed, see
    :func:`safe_path`) and error class."""
    if isinstance(exc, InputError):
        return str(exc)
    kind = type(exc)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    return f"{path}: {name}"


def run_stream(engine: Any, source: IO[bytes], target: IO[bytes] | None, fmt: Format,
               report: FileReport, *, options: Options = DEFAULT_OPTIONS) -> FileReport:
    """:func:`redact_stream`, with any failure put in ``report.error`` (stdin to stdout)."""
    try:
        redact_stream(engine, source, target, fmt, report, options=options)
    except (ConfigError, EngineBuildError):
        raise  # the engine, built on first use, could not be built: nothing can run
    except Exception as exc:
        report.error = _describe(report.path, exc)
    return report


def _redact_text(engine: Any, text: str, report: FileReport,
                 names: StreamNames | None = None) -> str:
    counting = getattr(engine, "redact_counting", None)
    if counting is not None:  # (no Finding per finding: a block's are only counted)
        redacted, entities = counting(text, names=names)
        report.counts.update(entities)
        return str(redacted)
    result = engine.redact(text, names=names) if names is not None else engine.redact(text)
    report.counts.update(f.entity_type for f in result.findings)
    return str(result.text)


def _window(engine: Any, text: str, report: FileReport,
            names: StreamNames) -> tuple[str, str]:
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


#: Keys of one JSON value past which :func:`keys_lift` stops reading and says yes.
MAX_KEYS_READ: Final = 512


def keys_lift(engine: Any, value: Any) -> bool:
    """Does a key of ``value`` (a parsed JSON value) lift an entity (see
    ``Redactor.labels_lift``)?  Yes when it cannot tell: too many keys, or an engine
    that cannot answer."""
    if getattr(engine, "labels_lift", None) is None:
        return True
    keys: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            keys.update(key_name(str(k)) for k in item)
            pending.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            pending.extend(v for v in item if isinstance(v, dict | list))
        if len(keys) > MAX_KEYS_READ:
            return True
    return _keys_named_lift(engine, keys)


def _keys_named_lift(engine: Any, keys: Collection[str]) -> bool:
    """:func:`keys_lift` of a value whose keys (as the analysis reads them) are ``keys``."""
    lifts = getattr(engine, "labels_lift", None)
    return lifts is None or len(keys) > MAX_KEYS_READ or bool(lifts(keys))


class JsonNumber(float):
    """A JSON number with a fraction or an exponent, as read: its value, and the text it
    was written as (``1e400`` reads as infinity, which JSON cannot write back)."""

    __slots__ = ("text",)
    text: str


_DUPLICATE: Final = DUPLICATE_KEY_MARK
#: A key's marks as json.dumps(..., ensure_ascii=False) writes them: before '":' (a
#: string's own quote is escaped there), with either separator after.
_DUPLICATE_WRITTEN: Final = re.compile(_DUPLICATE + '+(?=":)')


#: The secret part of dumps_keeping_numbers's marks: random, drawn once per process (a
#: draw per line cost a system call each).  A document cannot hold a mark of ours without
#: it, and no mark is ever written out.
_MARK_NONCE: Final = secrets.token_hex(8)
#: Where dumps_keeping_numbers marked a number, as json.dumps writes the mark.
_NUMBER_MARK: Final = re.compile(r'"\\u0000([0-9a-f]{16}):(\d+)\\u0000"')


def loads_keeping_numbers(text: str) -> Any:
    """``json.loads``, with each fractional or exponent number a :class:`JsonNumber` and
    each repeated key of an object kept apart (``json.loads`` keeps the last value of a
    key written twice: the first would be lost, or kept unredacted)."""

    decoder = getattr(_DECODERS, "decoder", None)
    if decoder is None:
        # One per thread, built once: json.loads builds a decoder (and its scanner) per
        # call when given hooks, about half of the parse of a JSON log's line.
        decoder = _DECODERS.decoder = json.JSONDecoder(parse_float=_json_number,
                                                       object_pairs_hook=_json_members)
    if text.startswith("\ufeff"):  # as json.loads refuses it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return decoder.decode(text)


_DECODERS: Final = threading.local()


def _json_number(written: str) -> JsonNumber:
    value = JsonNumber(written)
    value.text = written
    return value


def _json_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members, a repeated key marked (see _DUPLICATE)."""
    found = dict(pairs)  # at C speed: objects rarely repeat a key
    if len(found) == len(pairs):
        return found
    found = {}
    for key, value in pairs:
        name = key
        while name in found:
            name += _DUPLICATE
        found[name] = value
    return found


def dumps_keeping_numbers(value: Any, *,
                          floats: Sequence[tuple[Any, Any]] | None = None,
                          **options: Any) -> str:
    """``json.dumps``, writing each :class:`JsonNumber` back as it was read (a redacted
    document keeps ``1e400`` and ``1.50`` instead of ``Infinity`` and ``1.5``).
    ``floats``: where every float of ``value`` stands (its container and its key or
    index there), when the caller walked it (jsonredact.value_texts): only those are
    marked, in place and put back, instead of copying the whole value to mark them."""
    originals: list[str] = []
    nonce = _MARK_NONCE

    def mark(number: JsonNumber) -> str:
        originals.append(number.text)
        return f"\x00{nonce}:{len(originals) - 1}\x00"

    def marked(item: Any) -> Any:
        if isinstance(item, JsonNumber):
            return mark(item)
        if isinstance(item, dict):
            return {key: marked(inner) for key, inner in item.items()}
        if isinstance(item, list):
            return [marked(inner) for inner in item]
        return item

    if floats is None:
        written = json.dumps(marked(value), **options)
    else:
        numbers = [(container, place, container[place]) for container, place in floats
                   if isinstance(container[place], JsonNumber)]
        try:
            for container, place, number in numbers:
                container[place] = mark(number)
            written = json.dumps(value, **options)
        finally:
            for container, place, number in numbers:
                container[place] = number
    if _DUPLICATE in written:  # a repeated key: written back under its own name
        written = _DUPLICATE_WRITTEN.sub("", written)
    if not originals:
        return written

    def original(found: re.Match[str]) -> str:
        if found.group(1) != nonce:  # a string of the document that looks like a mark
            return found.group()
        return originals[int(found.group(2))]

    # One compiled pattern for every nonce: a pattern built per call misses re's cache.
    return _NUMBER_MARK.sub(original, written)


def _carried_in(read: str, names: StreamNames | None,
                searched: _NamesInLines | None = None, number: int = -1) -> bool:
    """Does a user name carried from the stream's earlier lines stand in what was read
    of a line (its texts as the analysis reads them, or the line of a malformed one)?
    ``searched``: the names looked for in the block's lines, ``number`` this one's."""
    if names is None or not (names.usernames or names.caseless_usernames):
        return False
    from redactor.engine.analysis import seen_as_analysed
    from redactor.engine.propagation import logins_standing_in

    seen = seen_as_analysed(read)
    standing = searched.standing_in(number, seen) if searched is not None \
        else logins_standing_in(seen, names)
    return bool(standing.usernames or standing.caseless_usernames)


def _line_read(labelled: list[tuple[str, tuple[str, ...]]]) -> str:
    """What :func:`_texts_found_unspread` looks for carried names in: a line's texts,
    each as the analysis reads it, joined by line breaks."""
    from recognizers._text import normalize_for_matching

    return "\n".join(text if text.isascii() else normalize_for_matching(text)
                     for text, _ in labelled if text)


#: What telling a carried name new or known costs, in characters searched (a set's
#: difference per name against ``str.find`` per character: see _NamesInLines).
_CHARS_PER_NAME_SORTED: Final = 32


class _NamesInLines:
    """The user names carried in a stream (``names``) that stand in each of a block's
    lines, as :func:`~redactor.engine.propagation.logins_standing_in` finds them in the
    text each line gives (``texts``: a clean line's texts, to tell whether a name
    carried in stands in it; an analysed line's, to tell which of its names would
    spread), the names looked for in all the lines at once.  A JSON log's lines had
    each line's words listed to look each name up (recognizers.username.whole_tokens),
    where a search of the block for the names (login_spans: ``str.find`` for a few, one
    scan for many with the ``fast`` extra) costs a fraction.

    The texts in ASCII are searched together, joined by line breaks, for the names in
    ASCII: login_spans finds the names written as words joined by dots or dashes where
    whole_tokens lists them (the two read a token's edges alike in ASCII), and the
    others (a display name) where it finds them in each line alone (a line break at a
    line's edge is no word character nor a dot or dash, as the line's edge is not).  A
    name holding a line break is not searched for that way.  The names carried when the block
    starts are looked for in all its lines; those its own lines add on the way, in the
    lines from the one that asks next.  Past SEARCH_BUDGET times the block's
    characters searched (names added line after line; telling the new names from the
    others counts _CHARS_PER_NAME_SORTED a name), for the texts beyond ASCII, and for a
    text other than the line's, logins_standing_in reads the text itself."""

    #: How many times its lines' characters a block's searches may read.
    SEARCH_BUDGET: Final = 8

    def __init__(self, names: StreamNames | None, texts: list[tuple[int, str]]) -> None:
        self._names = names
        self._active = names is not None and len(texts) > 1
        #: Per line searched: the names found in it (as written, and case-folded).
        self._holding: dict[int, tuple[set[str], set[str]]] = {}
        self._searched: tuple[set[str], set[str]] = (set(), set())
        self._sizes = (0, 0)
        self._numbers: list[int] = []  # the lines in ASCII, in order
        self._starts: list[int] = []  # where each stands in the joined text
        self._text_of: dict[int, str] = {}
        if not self._active:
            return
        ascii_texts: list[str] = []
        position = 0
        for number, text in texts:
            if not text.isascii():
                continue
            self._numbers.append(number)
            self._starts.append(position)
            self._text_of[number] = text
            ascii_texts.append(text)
            position += len(text) + 1
        self._joined = "\n".join(ascii_texts)
        self._budget = self.SEARCH_BUDGET * (len(self._joined) + 1)

    def standing_in(self, number: int, text: str) -> StreamNames:
        """The carried names that stand in ``text``, line ``number``'s."""
        from redactor.engine.propagation import logins_standing_in

        names = self._names
        if names is None:
            from redactor.engine import StreamNames

            return StreamNames()
        if not self._active or self._budget < 0 or self._text_of.get(number) != text:
            return logins_standing_in(text, names)
        if (len(names.usernames), len(names.caseless_usernames)) != self._sizes:
            self._search_from(number, names)
            if self._budget < 0:
                return logins_standing_in(text, names)
        from redactor.engine import StreamNames

        exact, caseless = self._holding.get(number, ((), ()))
        return StreamNames(usernames=set(exact), caseless_usernames=set(caseless))

    def _search_from(self, number: int, names: StreamNames) -> None:
        """Look for the names not yet looked for in the lines from ``number`` on."""
        from recognizers.username import login_spans

        self._sizes = (len(names.usernames), len(names.caseless_usernames))
        # Telling the new names from the others reads them all: charged to the budget
        # (names added one by one, none of them searchable, read them again each time).
        self._budget -= _CHARS_PER_NAME_SORTED * (self._sizes[0] + self._sizes[1])
        if self._budget < 0:
            return  # each text is read by logins_standing_in from now on
        exact_searched, caseless_searched = self._searched
        exact = {name for name in names.usernames - exact_searched if name.isascii()}
        caseless = {name for name in names.caseless_usernames - caseless_searched
                    if name.isascii()}
        if any("\n" in name for name in exact | caseless):
            self._budget = -1  # a name the joining line breaks would cut
            return
        exact_searched.update(names.usernames)
        caseless_searched.update(names.caseless_usernames)
        at = bisect.bisect_left(self._numbers, number)
        if not (exact or caseless) or at == len(self._numbers):
            return
        offset = self._starts[at]
        self._budget -= len(self._joined) - offset
        if self._budget < 0:
            return  # each text is read by logins_standing_in from now on
        rest = self._joined[offset:] if offset else self._joined
        for (name, is_caseless), spans in login_spans(rest, exact, caseless).items():
            for start, _ in spans:
                line = self._numbers[bisect.bisect_right(self._starts, offset + start) - 1]
                found = self._holding.get(line)
                if found is None:
                    found = self._holding[line] = (set(), set())
                found[is_caseless].add(name)


def _redact_lines(engine: Any, text: str, report: FileReport, *,
                  numbers: str = "placeholder", names: StreamNames | None = None) -> str:
    """A block of JSON Lines, each line a document of its own (a line that is no JSON
    is redacted as text).  ``names``: user names carried from line to line, and from
    the blocks before (see Redactor.redact_json)."""
    # One prefilter scan decides which lines may be copied as they are: a line whose
    # keys lift nothing and whose texts (those redact_json analyses: each value after
    # its key, each key, each number's digits) no trigger hits has nothing to redact;
    # a line that is no JSON is redacted as text, and its text is scanned.  A line
    # whose keys lift an entity is analysed whatever the scan says, and so are its
    # texts under such keys: they are left out of the scan.  Of the lines analysed,
    # the texts no hit reaches are quiet (redact_json does not scan them again).
    from redactor.engine.jsonredact import (
        ValueTexts,
        quiet_from_scan,
        redact_json,
        redact_leaves_in_place,
        value_texts,
    )

    # A block asks the engine a few things per text: of the engine itself, not through
    # the lazy wrapper the batch holds (api.LazyRedactor).
    built = getattr(engine, "built_engine", None)
    if built is not None:
        engine = built()
    can_scan = hasattr(engine, "pieces_hit")
    # Per line: (its text, its body and ending, the parsed value or _MALFORMED, clean).
    lines: list[tuple[str, str, str, Any, bool]] = []
    # Per line scanned: its number, the texts scanned of it, and whether its keys lift
    # an entity (then it is analysed whatever the scan says).
    scanned: list[tuple[int, list[str], bool]] = []
    # Per JSON line: its texts with their labels (as redact_json analyses them), where
    # each stands, its keys.
    texts_of: dict[int, ValueTexts] = {}
    # Whether a text's labels lift an entity, asked once per labels in the block; and
    # whether a line's keys do, once per set of keys.
    lifting_labels: dict[tuple[str, ...], bool] = {}
    lifting_keys: dict[frozenset[str], bool] = {}

    def labels_lift(labels: tuple[str, ...]) -> bool:
        lifts = lifting_labels.get(labels)
        if lifts is None:
            lifts = lifting_labels[labels] = bool(engine.labels_lift(labels))
        return lifts

    for line in _json_lines(text):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        if not body.strip():
            lines.append((line, body, ending, None, True))
            continue
        try:
            value = loads_keeping_numbers(body)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            value = _MALFORMED
        if can_scan:
            if value is _MALFORMED:
                scanned.append((len(lines), [body], False))
            else:
                walked = value_texts(value)
                if walked is not None:
                    texts_of[len(lines)] = walked
                    # A log's lines share their keys: asked once per set of them.
                    key_set = frozenset(walked.keys)
                    lifting = lifting_keys.get(key_set)
                    if lifting is None:
                        if len(lifting_keys) >= _KEY_SETS_REMEMBERED:
                            lifting_keys.clear()
                        lifting = lifting_keys[key_set] = _keys_named_lift(engine, walked.keys)
                    scanned.append((len(lines), [
                        piece for piece, labels in walked.labelled
                        if not (lifting and labels and labels_lift(labels))], lifting))
        lines.append((line, body, ending, value, False))
    read: dict[int, str] = {}  # what was read of each line found clean
    quiet: dict[int, frozenset[str]] = {}  # the quiet texts of the lines analysed
    if scanned:
        # Each text apart: a hit in one says nothing of another, however far its
        # trigger reaches, and is judged on its own text.
        pieces = [piece for _, texts, _ in scanned for piece in texts]
        hit = engine.pieces_hit(pieces)
        if hit is not None:
            index = 0
            for number, texts, lifting in scanned:
                hit_here = [i - index for i in range(index, index + len(texts)) if i in hit]
                if not hit_here and not lifting:
                    line, body, ending, value, _ = lines[number]
                    lines[number] = (line, body, ending, value, True)
                    read[number] = "\n".join(texts)
                elif lines[number][3] is not _MALFORMED:
                    quiet[number] = quiet_from_scan(texts, hit_here)
                index += len(texts)
    # The texts of the lines to analyse that are not quiet, analysed together: a run
    # per entity for the whole block rather than one per text.
    known = engine.found_many(
        (text, labels or None) for number, texts in quiet.items()
        for text, labels in texts_of[number].labelled if text not in texts) if quiet else None
    # Which user names carried in stand in each line, asked of them all at once: in a
    # line found clean (then it is redacted), in the texts of one analysed (then they
    # may spread).  Names the lines add on the way are asked of the lines after.
    # (A block that starts with no name carried asks each line, as names come.)
    standing: _NamesInLines | None = None
    if names is not None and (names.usernames or names.caseless_usernames):
        from redactor.engine.analysis import seen_as_analysed

        lines_read = [(number, seen_as_analysed(read.get(number, entry[1])))
                      for number, entry in enumerate(lines) if entry[4]]
        lines_read += [(number, _line_read(texts_of[number].labelled)) for number in quiet]
        lines_read.sort(key=lambda item: item[0])
        standing = _NamesInLines(names, lines_read)
    out: list[str] = []
    for number, (line, body, ending, value, vouched) in enumerate(lines):
        # A line with nothing of its own may hold a name an earlier line found.
        if vouched and not _carried_in(read.get(number, body), names, standing, number):
            if value is _MALFORMED:
                report.malformed_lines += 1
            out.append(line)
            continue
        if value is _MALFORMED:
            report.malformed_lines += 1
            out.append(_redact_text(engine, body, report, names) + ending)
            continue
        try:
            # Keys and numbers too: an export holds CPFs as integers (floats where its
            # column has nulls) and maps keyed by them.
            if number in quiet:
                # None: redact_json's first pass would collect names.
                walked = texts_of[number]
                unspread = _texts_found_unspread(
                    walked.labelled, quiet[number], known, names, labels_lift,
                    keys=walked.keys, standing=None if standing is None else
                    functools.partial(standing.standing_in, number))
                found_in = unspread[0] if unspread is not None else None
                one_pass = unspread is not None
                if unspread is not None and names is not None:
                    # What redact_json's first pass would pass on to the next lines.
                    for name, caseless in unspread[1]:
                        names.add_login(name, caseless)
                # Nothing to collect and nothing but leaves to redact: redacted in place.
                counts = redact_leaves_in_place(engine, walked, quiet[number], known,
                                                found_in) \
                    if found_in is not None and not engine._pseudonymous else None
                if counts is not None:
                    report.counts.update(counts)
                    out.append((dumps_keeping_numbers(value, floats=walked.floats,
                                                      ensure_ascii=False,
                                                      separators=_separators_of(body))
                                if counts else body) + ending)
                    continue
                result = redact_json(engine, value, keys_and_numbers=True, numbers=numbers,
                                     names=names, known_quiet=quiet[number], found=known,
                                     one_pass=one_pass)
            else:
                result = engine.redact_json(value, keys_and_numbers=True, numbers=numbers,
                                            names=names)
        except TooDeep:  # parsed, but deeper than the JSON walk goes: read as text
            report.malformed_lines += 1
            out.append(_redact_text(engine, body, report, names) + ending)
            continue
        report.counts.update(f.entity_type for f in result.findings)
        out.append((dumps_keeping_numbers(result.value, ensure_ascii=False,
                                          separators=_separators_of(body))
                    if result.findings else body) + ending)
    return "".join(out)


#: Sets of a JSON line's keys whose answer (do they lift an entity?) a block remembers.
_KEY_SETS_REMEMBERED: Final = 1024


#: An object's first key and what follows its colon.
_FIRST_COLON: Final = re.compile(r'[ \t]*\{[ \t]*"(?:[^"\\]|\\.)*"[ \t]*:([ \t]?)')


def _separators_of(body: str) -> tuple[str, str]:
    """The separators a redacted line is written back with: compact (``{"a":1,"b":2}``,
    as nginx and most loggers write JSON Lines) when the line's first colon is followed
    by no blank, else json.dumps's own."""
    found = _FIRST_COLON.match(body)
    return (",", ":") if found is not None and not found.group(1) else (", ", ": ")


#: The line breaks of a JSON Lines block.
_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")


def _json_lines(text: str) -> Iterator[str]:
    """The lines of a JSON Lines block, each with its line break (``\r\n``, ``\r`` or
    ``\n``).  JSON writes U+2028, U+2029 and U+0085 raw inside strings, where
    ``str.splitlines`` would cut a line in two (and write it back as no JSON)."""
    start = 0
    for match in _LINE_BREAK.finditer(text):
        yield text[start:match.end()]
        start = match.end()
    if start < len(text):
        yield text[start:]


#: A line whose user names found by their shape and carried from the lines before
#: number more than this takes redact_json's two passes (see _texts_found_unspread).
LINE_NAMES_MAX: Final = 8


def _texts_found_unspread(labelled: list[tuple[str, tuple[str, ...]]],
                          quiet: frozenset[str], known: Memo | None,
                          names: StreamNames | None,
                          labels_lift: Callable[[tuple[str, ...]], bool], *,
                          keys: Collection[str] = (),
                          standing: Callable[[str], StreamNames] | None = None,
                          ) -> tuple[set[tuple[str, tuple[str, ...]]],
                                     list[tuple[str, bool]]] | None:
    """The texts of a line (with their labels) whose analysis found something, and the
    user names its texts pass on to the lines after it, when redact_json's two passes
    over the line would give what one pass gives; None when they might not.

    One pass gives the same when each of the line's texts (``labelled``) is quiet or
    was analysed beforehand (``known``) with no person's name found, and no user name
    would be spread from one text to another: each user name found by its shape (a
    cue) or carried by ``names`` and standing in the line (as the first pass looks for
    them: in its texts joined by line breaks, the numbers' digits too) is written in
    no text but those where it was found by its shape.  redact_json then spreads each
    name within its own texts alone, as one pass does (``usernames_propagated`` of a
    text's own cues); a name written in all the line's texts at most SPREAD_FLOOR
    times is never held back as spread too widely, in one text or over the line (a
    name's substrings are counted, overlapping ones too: at least its whole tokens,
    which overlap where a display name repeats itself).  Each text left
    out of the set gives no span, being quiet or found empty, with nothing carried
    into it (redact_leaves_in_place need not ask).  The names passed on are the cues,
    as redact_json's first pass adds them to ``names``.
    ``labels_lift``: whether labels lift an entity (the engine's answer).  ``keys``:
    the line's keys; a user name found by its shape in one of them takes two passes
    (redact_json renames the key, and the values under it are read after the renamed
    key: only the first pass carries the name to them)."""
    from recognizers._text import normalize_for_matching
    from recognizers.username import SPREAD_CASELESS
    from redactor.engine.propagation import SPREAD_FLOOR

    if known is None:
        return None
    carried = names is not None and bool(names.usernames or names.caseless_usernames)
    read: list[str] = []
    found_in: set[tuple[str, tuple[str, ...]]] = set()
    # Per cue (a name and whether it is compared in any case): where it was found.
    cued: dict[tuple[str, bool], set[int]] = {}
    for text, labels in labelled:
        if not text:
            continue
        normalized = text if text.isascii() else normalize_for_matching(text)
        read.append(normalized)
        found = known.get((normalized, labels or None))
        if found is None:
            if text in quiet and not (labels and labels_lift(labels)):
                continue  # (a copy of a quiet text under a lifting label is analysed)
            return None
        if found:
            for span in found.values():
                if span.entity == "PERSON":
                    return None
                if span.spread:
                    if text in keys:
                        return None
                    value = normalized[span.start:span.end]
                    key = (value.casefold(), True) if span.spread == SPREAD_CASELESS \
                        else (value, False)
                    cued.setdefault(key, set()).add(len(read) - 1)
            found_in.add((text, labels))
    spreading = set(cued)
    if carried and names is not None:
        from redactor.engine.propagation import logins_standing_in

        joined = "\n".join(read)
        found_standing = standing(joined) if standing is not None \
            else logins_standing_in(joined, names)
        spreading.update((name, False) for name in found_standing.usernames)
        spreading.update((name, True) for name in found_standing.caseless_usernames)
    if not spreading:
        return found_in, []
    if len(spreading) > LINE_NAMES_MAX:
        return None
    folded: list[str] | None = None
    for key in spreading:
        name, caseless = key
        if caseless and folded is None:
            folded = [text.casefold() for text in read]
        own = cued.get(key, set())
        written = 0
        for index, text in enumerate(folded if caseless and folded is not None else read):
            if name not in text:
                continue
            if index not in own:
                return None  # spread into another text
            written += _overlapping_count(text, name, SPREAD_FLOOR + 1 - written)
            if written > SPREAD_FLOOR:
                return None
    return found_in, list(cued)


def _overlapping_count(text: str, name: str, limit: int) -> int:
    """How many times ``name`` is written in ``text``, overlapping ones too (as
    login_spans looks: a display name that repeats itself, ``Ana Ana Ana Ana``, is a
    whole token at each of its words), up to ``limit``."""
    count = 0
    at = text.find(name)
    while at >= 0 and count < limit:
        count += 1
        at = text.find(name, at + 1)
    return count


#: A line of a JSON Lines block that is no JSON (see _redact_lines).
_MALFORMED: Final = object()


def _redact_json_document(engine: Any, text: str, target: IO[bytes] | None,
                          report: FileReport, encoding: str = "utf-8", *,
                          numbers: str = "placeholder") -> None:
    try:
        value = loads_keeping_numbers(text)
    except (ValueError, RecursionError):
        report.malformed_lines += 1
        out = _redact_text(engine, text, report)
        if target is not None:
            target.write(_encode(out, encoding))
        return
    result = engine.redact_json(value, keys_and_numbers=True, numbers=numbers)
    report.counts.update(f.entity_type for f in result.findings)
    if target is not None:
        out = dumps_keeping_numbers(result.value, ensure_ascii=False, indent=2) + "\n" \
            if result.findings else text
        target.write(_encode(out, encoding, json_text=True))


# ---------------------------------------------------------------- temporary files

#: Temporary files this process is writing: removed on SIGTERM.
_TEMPORARIES: set[str] = set()


class _Termination:
    """SIGTERM arriving while a finished file is put in place waits until it is."""

    committing = False
    pending = False


def install_termination_handler() -> None:
    """On SIGTERM: stop the worker processes, remove this process's temporary files
    and exit with 143.  Only from the main thread (signal handlers live there)."""
    signal.signal(signal.SIGTERM, _on_terminate)


def _on_terminate(signum: int, frame: FrameType | None) -> None:
    if _Termination.committing:
        _Termination.pending = True
        return
    _terminate_now()


def _terminate_now() -> None:
    if "multiprocessing" in sys.modules:
        import multiprocessing

        children = multiprocessing.active_children()
        for child in children:
            with contextlib.suppress(Exception):
                child.terminate()  # each removes its own temporary files
        for child in children:
            with contextlib.suppress(Exception):
                child.join(10)
    for temporary in list(_TEMPORARIES):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    with contextlib.suppress(OSError):
        os.write(2, b"redactor: terminated\n")
    os._exit(TERMINATED_EXIT)


@contextlib.contextmanager
def _committing() -> Iterator[None]:
    _Termination.committing = True
    try:
        yield
    finally:
        _Termination.committing = False
        if _Termination.pending:
            _terminate_now()


def is_temporary(name: str) -> bool:
    """Whether a file name is one of redactor's temporary files."""
    return bool(_TEMPORARY.fullmatch(name) or _LEGACY_TEMPORARY.fullmatch(name))


def _create_temporary(folder: Path, name: str) -> tuple[int, str]:
    # A name of up to NAME_MAX bytes leaves room for the rest: its start is enough.
    name = _cut(name, NAME_MAX - len(f"..{os.getpid()}.12345678.redactor")) or "_"
    while True:
        path = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.redactor")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                           | getattr(os, "O_BINARY", 0), 0o600), path
        except FileExistsError:
            continue


def _process_gone(pid: int) -> bool:
    if os.name == "nt":  # os.kill would end the process there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # PermissionError: it exists, under another user
        return False
    return False


def sweep_stale(folders: Iterable[Path]) -> int:
    """Remove temporary files a killed run left in these folders; how many.

    A temporary file is stale when the process whose id its name holds is gone, or
    when it was not written to for STALE_SECONDS (a reused process id; earlier
    versions' names, which hold none).
    """
    removed = 0
    now = time.time()
    for folder in dict.fromkeys(folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            match = _TEMPORARY.fullmatch(entry.name)
            if match is None and not _LEGACY_TEMPORARY.fullmatch(entry.name):
                continue
            try:
                if not entry.is_file(follow_symlinks=False):
                    continue
                stale = now - entry.stat(follow_symlinks=False).st_mtime > STALE_SECONDS \
                    or (match is not None and _process_gone(int(match["pid"])))
                if stale:
                    os.unlink(entry.path)
                    removed += 1
            except (OSError, ValueError):
                continue
    return removed


def _keep_owner(temporary: str, info: os.stat_result) -> None:
    """The original's owner and group where permitted; else its group alone, else ours."""
    if not hasattr(os, "chown"):
        return
    try:
        os.chown(temporary, info.st_uid, info.st_gid)
    except PermissionError:
        with contextlib.suppress(OSError):
            os.chown(temporary, -1, info.st_gid)


def _copy_into(temporary: str, destination: Path) -> None:
    """Overwrite ``destination``'s content in its own inode (its hard links see it)."""
    with open(temporary, "rb") as finished, open(destination, "r+b") as inode:
        while chunk := finished.read(BLOCK):
            inode.write(chunk)
        inode.truncate()
        inode.flush()
        os.fsync(inode.fileno())


def write_atomically(destination: Path, writer: Callable[[IO[bytes]], None],
                     mode_from: Path | None = None, *, owner_from: Path | None = None,
                     compress: bool | None = None, rewrite_inode: bool = False,
                     before_commit: Callable[[], None] | None = None) -> None:
    """Write through a temporary file in the same folder, fsync, then rename over.

    ``compress``: gzip the output (default: ``destination`` ends with ``.gz``).
    ``rewrite_inode``: once the temporary file is complete, copy it into
    ``destination``'s own inode instead of renaming (hard links keep seeing it).
    ``before_commit``: called last before the rename (or copy); raising leaves the
    destination as it was.
    """
    destination.parent.mkdir(parents=True, exist_ok=True)
    if compress is None:
        compress = destination.name.endswith(".gz")
    handle, temporary = _create_temporary(destination.parent, destination.name)
    _TEMPORARIES.add(temporary)
    try:
        with os.fdopen(handle, "wb") as raw:
            if compress:
                with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed:
                    writer(cast(IO[bytes], packed))
            else:
                writer(raw)
            raw.flush()
            os.fsync(raw.fileno())
        if rewrite_inode:
            with _committing():
                if before_commit is not None:
                    before_commit()
                _copy_into(temporary, destination)
            os.unlink(temporary)
            return
        if owner_from is not None:
            _keep_owner(temporary, owner_from.stat())
        reference = mode_from if mode_from is not None and mode_from.exists() else None
        if reference is not None:
            os.chmod(temporary, reference.stat().st_mode & 0o7777)
        with _committing():
            if before_commit is not None:
                before_commit()
            os.replace(temporary, destination)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    finally:
        _TEMPORARIES.discard(temporary)


# ---------------------------------------------------------------- one file

@contextlib.contextmanager
def _opened(path: Path, shown: str) -> Iterator[tuple[IO[bytes], os.stat_result]]:
    """The file's bytes (unpacked when ``.gz``) and the status of what was opened;
    ``shown``: its path as printed."""
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise InputError(f"{shown}: cannot be read ({exc.strerror})") from None
    with raw:
        info = os.fstat(raw.fileno())
        if path.name.endswith(".gz"):
            with gzip.GzipFile(fileobj=raw, mode="rb") as packed:
                yield cast(IO[bytes], packed), info
        else:
            yield raw, info


def _in_place_target(source: Path, follow_links: bool,
                     shown: str) -> tuple[Path, os.stat_result, bool]:
    """What rewriting ``source`` in place writes: the path, its status, and whether its
    inode must be rewritten (several hard links).  Links are refused unless followed."""
    try:
        info = os.lstat(source)
    except OSError as exc:
        raise InputError(f"{shown}: cannot be read ({exc.strerror})") from None
    target = source
    if stat.S_ISLNK(info.st_mode):
        if not follow_links:
            raise InputError(f"{shown}: is a symbolic link; not rewritten "
                             "(--follow-links rewrites its target)")
        target = Path(os.path.realpath(source))
        info = os.stat(target)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{shown}: not a regular file")
    if info.st_nlink > 1 and not follow_links:
        raise InputError(f"{shown}: has {info.st_nlink} hard links; not rewritten "
                         "(--follow-links rewrites the content all of them share)")
    return target, info, info.st_nlink > 1


def process_file(engine: Any, source: Path, destination: Path | None, fmt: Format,
                 *, scan_only: bool = False,
                 on_block: Callable[[int], None] | None = None,
                 options: Options = DEFAULT_OPTIONS, shown: str | None = None) -> FileReport:
    """Redact (or scan) one file; errors are reported in the result, never raised.

    ``destination`` None or ``source`` itself: in place (the file keeps its name).  A
    file that fails contributes no counts when it was to be written (nothing of it
    was).  ``shown``: the path reports and messages print (default: ``source``
    through :func:`safe_path`).
    """
    if shown is None:
        shown = safe_path(engine, source)
    report = FileReport(shown)
    try:
        if scan_only:
            with _opened(source, shown) as (stream, _):
                redact_stream(engine, stream, None, fmt, report, on_block=on_block,
                              options=options)
            return report
        if destination is None or destination == source:
            target, expected, rewrite_inode = _in_place_target(source, options.follow_links,
                                                               shown)
            owner_from: Path | None = target
        else:
            target, expected, rewrite_inode, owner_from = destination, None, False, None
        with _opened(source, shown) as (stream, opened):
            if expected is not None and (opened.st_dev, opened.st_ino) != \
                    (expected.st_dev, expected.st_ino):
                raise InputError(f"{shown}: replaced while being opened; not rewritten")

            def unchanged_since_read() -> None:
                # In place, a log still being written may have grown (or been rotated)
                # while it was read: renaming over it would lose what was appended.
                if expected is None:
                    return
                try:
                    now = os.stat(target)
                except OSError:
                    now = None
                if now is None or (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) != (
                        opened.st_dev, opened.st_ino, opened.st_size, opened.st_mtime_ns):
                    raise InputError(f"{shown}: changed while being redacted (written to, "
                                     "grown or replaced); left as it was, not rewritten")

            write_atomically(
                target, lambda out: redact_stream(engine, stream, out, fmt, report,
                                                  on_block=on_block, options=options),
                mode_from=source, owner_from=owner_from,
                compress=source.name.endswith(".gz"), rewrite_inode=rewrite_inode,
                before_commit=unchanged_since_read)
    except (ConfigError, EngineBuildError):
        raise  # the engine, built on first use, could not be built: nothing can run
    except Exception as exc:
        report.error = _describe(shown, exc)
        if not scan_only:
            report.counts.clear()
            report.malformed_lines = 0
    return report


@dataclass(frozen=True, slots=True)
class Job:
    """One input file and where its redacted copy goes (None: stdout, or nowhere for scan).

    ``shown``: the input's path as printed (:func:`safe_path`; empty: not worked out
    yet), ``shown_output`` that of an ``--output`` copy.  ``name_values`` (scan):
    ``(entity, value)`` of each value in the names on the path that this job reports
    (a folder's, with the first file under it).
    """

    source: Path
    destination: Path | None
    fmt: Format
    shown: str = ""
    name_values: tuple[tuple[str, str], ...] = ()
    shown_output: str = ""


def plan(paths: list[Path], glob: str, output: Path | None, *, in_place: bool, scan: bool,
         requested: str | None, follow_links: bool = False,
         engine: Any = None) -> list[Job]:
    """Expand folders (recursively, ``glob``) and map each file to its destination.

    Folder walks skip redactor's temporary files.  In place with ``follow_links``, a
    file reached under several names (links) is rewritten once, under the first.
    ``engine`` (default: the configured one) reads the file and folder names: an
    ``--output`` tree is written under redacted names (see :func:`_output_names`),
    and each job's path as printed is :func:`safe_path`'s.
    """
    if engine is None:
        from redactor.api import LazyRedactor

        engine = LazyRedactor()
    names = Names(engine)
    jobs: list[Job] = []
    seen: set[tuple[int, int]] = set()
    if output is not None and not scan:
        _refuse_output_over_inputs(paths, output)
    found: list[tuple[Path, Path]] = []
    for path in paths:
        if path.is_dir():
            base = path
            files = sorted(f for f in path.rglob(glob) if f.is_file()
                           and not is_temporary(f.name)
                           and not (output is not None and output.resolve() in
                                    f.resolve().parents))
        else:
            base, files = path.parent, [path]
        found.extend((file, base) for file in files)
    copies = _output_names(found, output, names) if output is not None and not scan else None
    reported: set[str] = set()  # folders whose names a scan has counted
    for index, (file, _) in enumerate(found):
        if scan:
            destination = None
        elif copies is not None:
            destination = copies[index]
        else:
            destination = file if in_place else None
        if in_place and follow_links:
            with contextlib.suppress(OSError):
                info = file.stat()
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
        if destination is not None and not in_place and _same_file(destination, file):
            raise UsageError("--output would write a file over itself (the output folder "
                             "is the folder of an input file); choose another folder, or "
                             "--in-place")
        jobs.append(Job(file, destination, detect_format(file, requested),
                        shown=names.path(file),
                        name_values=_scan_values(names, file, reported) if scan else (),
                        shown_output="" if copies is None or destination is None
                        else names.path(destination)))
    return jobs


def _scan_values(names: Names, file: Path, reported: set[str]) -> tuple[tuple[str, str], ...]:
    """``(entity, value)`` of each value in the names on ``file``'s path as given, a
    folder's counted once: with the first file of the run under it."""
    path = os.fspath(file)
    found = names.values(path)
    values = tuple((entity, value) for where, entity, value in found
                   if where == path or where not in reported)
    reported.update(where for where, _, _ in found if where != path)
    return values


def _output_names(found: list[tuple[Path, Path]], output: Path,
                  names: Names) -> list[Path]:
    """Where each ``(file, base)`` is written under ``output``: its path from ``base``,
    each name through :meth:`Names.name` and cut to :data:`NAME_MAX` bytes.

    Two inputs never land on one file: an input whose path needs no change keeps it,
    and the others take ``-2``, ``-3``... before the extensions, in the order of their
    source paths.  Folders of one name (two inputs' ``app/``) are one folder; folders
    whose names only become alike (``cliente-<CPF>/`` for two CPFs) are two.  One file
    given twice is written once.
    """
    relative = [file.relative_to(base).parts for file, base in found]
    redacted = [names.parts(parts) for parts in relative]
    # A folder takes the most redacted of the names its files give it (a value spanning
    # a folder and a file name is found only with that file).
    folder_names: dict[tuple[str, ...], str] = {}
    for names_of, safe_of in zip(relative, redacted, strict=True):
        for depth in range(len(names_of) - 1):
            if safe_of[depth] != names_of[depth]:
                folder_names.setdefault(names_of[:depth + 1], safe_of[depth])
    redacted = [tuple(folder_names.get(names_of[:depth + 1], safe_of[depth])
                      if depth < len(names_of) - 1 else safe_of[depth]
                      for depth in range(len(names_of)))
                for names_of, safe_of in zip(relative, redacted, strict=True)]
    order = sorted(range(len(found)),
                   key=lambda i: (redacted[i] != relative[i], os.fspath(found[i][0])))
    taken: set[tuple[str, ...]] = set()
    folders: dict[tuple[tuple[str, ...], str], str] = {}
    files: dict[str, tuple[str, ...]] = {}
    copies: list[Path] = [output] * len(found)
    for index in order:
        source = os.path.abspath(found[index][0])
        if source in files:
            copies[index] = output.joinpath(*files[source])
            continue
        parent: tuple[str, ...] = ()
        parts = relative[index]
        for depth, (name, safe) in enumerate(zip(parts, redacted[index], strict=True)):
            folder = depth < len(parts) - 1
            if folder and (parent, name) in folders:
                parent += (folders[parent, name],)
                continue
            chosen, number = _fit(safe), 1
            while (*parent, chosen) in taken:
                number += 1
                chosen = _fit(safe, f"-{number}")
            taken.add((*parent, chosen))
            if folder:
                folders[parent, name] = chosen
            parent += (chosen,)
        files[source] = parent
        copies[index] = output.joinpath(*parent)
    return copies


def _refuse_output_over_inputs(paths: list[Path], output: Path) -> None:
    """An output folder that is an input folder, or holds one, would leave every input
    file out of the walk (outputs are skipped) and report nothing found: refused."""
    target = output.resolve()
    for path in paths:
        if path.is_dir():
            folder = path.resolve()
            if target == folder or target in folder.parents:
                raise UsageError("--output is an input folder or a folder that holds one: "
                                 "nothing would be read; choose a folder outside the inputs "
                                 "(or inside them), or --in-place")


def _same_file(destination: Path, source: Path) -> bool:
    try:
        return destination.resolve() == source.resolve()
    except OSError:
        return False


def destination_folders(jobs: Iterable[Job]) -> list[Path]:
    """The folders the jobs write into (where :func:`sweep_stale` looks)."""
    return list(dict.fromkeys(j.destination.parent for j in jobs if j.destination is not None))


def _run_one(engine: Any, job: Job, *, scan: bool, stdout: IO[bytes] | None,
             on_block: Callable[[int], None] | None = None,
             options: Options = DEFAULT_OPTIONS) -> FileReport:
    # The baseline applies to this job only: the engine may be shared (get_redactor).
    engine.baseline = options.baseline
    try:
        with vault_writer(engine, options, scan=scan):
            report = _run_job(engine, job, scan=scan, stdout=stdout, on_block=on_block,
                              options=options)
    finally:
        engine.baseline = None
    # A value in a name counts like one in the content, and the baseline accepts it alike.
    baseline = options.baseline
    report.name_counts.update(entity for entity, value in job.name_values
                              if baseline is None or baseline.keeps(entity, value))
    report.output = job.shown_output or None
    return report


def _run_job(engine: Any, job: Job, *, scan: bool, stdout: IO[bytes] | None,
             on_block: Callable[[int], None] | None, options: Options) -> FileReport:
    shown = job.shown or safe_path(engine, job.source)
    if stdout is not None:
        report = FileReport(shown)
        try:
            with _opened(job.source, shown) as (stream, _):
                redact_stream(engine, stream, stdout, job.fmt, report, on_block=on_block,
                              options=options)
        except (ConfigError, EngineBuildError):
            raise  # the engine, built on first use, could not be built: nothing can run
        except Exception as exc:
            # What was written to stdout stays written, and its findings counted.
            report.error = _describe(shown, exc)
        return report
    return process_file(engine, job.source, job.destination, job.fmt, scan_only=scan,
                        on_block=on_block, options=options, shown=shown)


@contextlib.contextmanager
def vault_writer(engine: Any, options: Options, *, scan: bool) -> Iterator[None]:
    """With [pseudonyms] and its vault on, the values a job writes as tokens go to the
    user's vault (a failure to write them is the job's error, after its output)."""
    settings = options.settings
    if scan or settings is None or not (settings.pseudonyms and settings.vault):
        yield
        return
    from redactor.pseudonyms.record import VaultWriter

    writer = VaultWriter(settings)
    engine.issued_sink = writer
    try:
        yield
    finally:
        engine.issued_sink = None
        writer.close()


def _worker(job: Job, scan: bool, options: Options) -> FileReport:
    from redactor.api import get_redactor

    want_settled_heap()
    return _run_one(get_redactor(options.settings), job, scan=scan, stdout=None,
                    options=options)


def _worker_started(terminate: bool) -> None:
    if terminate:
        install_termination_handler()


class _Progress:
    """A tqdm bar on stderr: input megabytes, MB/s and findings so far."""

    def __init__(self, jobs: list[Job], enabled: bool) -> None:
        self.bar: Any = None
        if not enabled:
            return
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
        progress: bool = False, options: Options = DEFAULT_OPTIONS) -> list[FileReport]:
    """Process every job; ``workers`` > 1 uses that many processes (one file each).

    Each input's failure is in its report; none stops the others.
    """
    from redactor.api import LazyRedactor

    engine = LazyRedactor(options.settings)
    if not all(job.shown for job in jobs):
        names = Names(engine)
        jobs = [job if job.shown else replace(job, shown=names.path(job.source))
                for job in jobs]
    reports: list[FileReport] = []
    bar = _Progress(jobs, progress)
    try:
        if workers > 1 and not to_stdout and len(jobs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            # Workers clean up on SIGTERM too when this process does.
            terminate = signal.getsignal(signal.SIGTERM) is _on_terminate
            with ProcessPoolExecutor(max_workers=workers, initializer=_worker_started,
                                     initargs=(terminate,)) as pool:
                futures = [pool.submit(_worker, job, scan, options) for job in jobs]
                for job, future in zip(jobs, futures, strict=True):
                    try:
                        report = future.result()
                    except Exception as exc:  # a worker died (killed, out of memory)
                        report = FileReport(job.shown, error=_describe(job.shown, exc))
                    reports.append(report)
                    bar.file_done(report, counted=False)
        else:
            stdout = sys.stdout.buffer if to_stdout else None
            for job in jobs:
                report = _run_one(engine, job, scan=scan, stdout=stdout, on_block=bar.block,
                                  options=options)
                reports.append(report)
                bar.file_done(report, counted=True)
            if stdout is not None:
                stdout.flush()
    finally:
        bar.close()
    return reports

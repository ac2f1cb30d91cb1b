"""Kubernetes ``Secret`` manifests: every value under ``data:``/``stringData:``, in YAML
and JSON (``kubectl get secret -o yaml`` or ``-o json``, the last-applied annotation
too), when the manifest's ``kind: Secret`` line stands within :data:`MANIFEST_REACH`
characters."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator
from typing import Final

from recognizers.secret.common import KEYED_SCORE, Hit
from recognizers.secret.filters import PLACEHOLDER
from recognizers.secret.kinds import KUBERNETES_SECRET

#: How far the ``kind: Secret`` line of a Kubernetes manifest may stand from a value
#: of its ``data:`` block (and from the block's header line): ``kubectl`` prints the
#: data before the kind, so a block of up to about this size is covered.
MANIFEST_REACH: Final = 8_000

#: The deepest indentation of a manifest's keys that is looked at (a list of lists of
#: manifests nests them a few levels deep).
MAX_MANIFEST_INDENT: Final = 32
_INDENT: Final = f"^([ \\t]{{0,{MAX_MANIFEST_INDENT}}})(- )?"
_YAML_KIND: Final = re.compile(_INDENT + r"kind:[ \t]*[\"']?Secret[\"']?[ \t]*\r?$", re.MULTILINE)
_YAML_DATA: Final = re.compile(_INDENT + r"(?:data|stringData):[ \t]*\r?$", re.MULTILINE)
_YAML_ENTRY: Final = re.compile(r"[ \t]+[\"']?[A-Za-z0-9_.\-]+[\"']?:(?:[ \t]+(.*)|[ \t]*)")
_JSON_KIND: Final = re.compile(r'\\?"kind\\?"[ \t]*:[ \t]*\\?"Secret\\?"')
_JSON_DATA: Final = re.compile(r'\\?"(?:data|stringData)\\?"[ \t\r\n]*:[ \t\r\n]*\{')
_JSON_ENTRY: Final = re.compile(
    r'\\?"[A-Za-z0-9_.\-]+\\?"[ \t\r\n]*:[ \t\r\n]*\\?"((?:[^"\\\n]|\\[^"])*)\\?"')
_BLOCK_SCALAR: Final = frozenset({"|", ">", "|-", ">-", "|+", ">+"})


def _depth(match: re.Match[str]) -> int:
    """The indentation of a manifest key's line (a list item's dash counts)."""
    return len(match.group(1)) + (2 if match.group(2) else 0)


@functools.lru_cache(maxsize=64)
def _boundary_pattern(depth: int) -> re.Pattern[str]:
    """Lines that close a mapping indented by ``depth``: a document separator, or a
    line (not blank, not a comment) indented less."""
    shallower = rf"|^[ \t]{{0,{depth - 1}}}[^ \t\r\n#]" if depth else ""
    return re.compile(rf"^(?:---|\.\.\.){shallower}", re.MULTILINE)


class _Mappings:
    """Answers "do these two lines stand in the same mapping?" with one scan per depth."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.boundaries: dict[int, list[int]] = {}

    def same(self, first: int, second: int, depth: int) -> bool:
        starts = self.boundaries.get(depth)
        if starts is None:
            starts = [m.start() for m in _boundary_pattern(depth).finditer(self.text)]
            self.boundaries[depth] = starts
        low, high = sorted((first, second))
        # A boundary line strictly after the earlier line and up to the later one.
        index = bisect.bisect_right(starts, low)
        return index == len(starts) or starts[index] > high


def _owner(kinds: dict[int, list[int]], mappings: _Mappings, at: int, depth: int) -> int | None:
    """The ``kind: Secret`` line of the mapping holding a key at ``at``: the nearest at
    the same depth on either side, within reach and in the same mapping."""
    positions = kinds.get(depth, [])
    index = bisect.bisect_left(positions, at)
    for candidate in (index - 1, index):
        if 0 <= candidate < len(positions):
            kind = positions[candidate]
            if abs(kind - at) <= MANIFEST_REACH and mappings.same(at, kind, depth):
                return kind
    return None


def yaml_values(text: str) -> Iterator[Hit]:
    """The data values of the YAML Secret manifests of ``text``."""
    if "Secret" not in text:
        return
    kinds: dict[int, list[int]] = {}
    for kind in _YAML_KIND.finditer(text):
        kinds.setdefault(_depth(kind), []).append(kind.start())
    if not kinds:
        return
    mappings = _Mappings(text)
    for header in _YAML_DATA.finditer(text):
        base = _depth(header)
        owner = _owner(kinds, mappings, header.start(), base)
        if owner is None:
            continue
        yield from _yaml_block(text, header.end() + 1, base, owner)


def _yaml_block(text: str, position: int, base: int, owner: int) -> Iterator[Hit]:
    """The values of the block of entries indented deeper than ``base`` from ``position``."""
    scalar: tuple[int, int, int] | None = None  # a block scalar's (start, end, indent)
    limit = min(len(text), owner + MANIFEST_REACH)
    while position < limit:
        line_end = text.find("\n", position, limit)
        if line_end < 0:
            if limit < len(text):
                break  # the line runs past the reach of the kind line
            line_end = limit
        line = text[position:line_end]
        if line.strip():
            indent = len(line) - len(line.lstrip(" \t"))
            if scalar is not None and indent > scalar[2]:
                first = scalar[0] if scalar[0] >= 0 else position + indent
                scalar = (first, len(line.rstrip("\r \t")) + position, scalar[2])
            else:
                if scalar is not None:
                    yield from _k8s_hit(text, scalar[0], scalar[1], owner)
                    scalar = None
                entry = _YAML_ENTRY.fullmatch(line.rstrip("\r")) if indent > base else None
                if entry is None:
                    return
                value = (entry.group(1) or "").rstrip()
                if value in _BLOCK_SCALAR:
                    scalar = (-1, -1, indent)
                elif value:
                    start = position + entry.start(1)
                    end = start + len(value)
                    if len(value) > 1 and value[0] in "\"'" and value[-1] == value[0]:
                        start, end = start + 1, end - 1
                    yield from _k8s_hit(text, start, end, owner)
        position = line_end + 1
    if scalar is not None:
        yield from _k8s_hit(text, scalar[0], scalar[1], owner)


def _k8s_hit(text: str, start: int, end: int, kind_at: int) -> Iterator[Hit]:
    if start < 0 or end <= start or max(abs(start - kind_at),
                                        abs(end - kind_at)) > MANIFEST_REACH:
        return
    value = text[start:end].strip()
    if value and not PLACEHOLDER.fullmatch(value):
        yield Hit(start, end, KUBERNETES_SECRET, KEYED_SCORE)


class _Braces:
    """Brace depth of a JSON text, for "do these two keys stand in the same object?"."""

    def __init__(self, text: str) -> None:
        self.positions: list[int] = []
        self.depths: list[int] = []  # depth after each brace
        depth = 0
        for match in re.finditer(r"[{}]", text):
            depth += 1 if match.group() == "{" else -1
            self.positions.append(match.start())
            self.depths.append(depth)

    def depth_at(self, index: int) -> int:
        return self.depths[index - 1] if index else 0

    def same(self, first: int, second: int) -> bool:
        low, high = sorted((first, second))
        lo = bisect.bisect_left(self.positions, low)
        hi = bisect.bisect_left(self.positions, high)
        level = self.depth_at(lo)
        return all(d >= level for d in self.depths[lo:hi]) and self.depth_at(hi) == level


def json_values(text: str) -> Iterator[Hit]:
    """The data values of the JSON Secret manifests of ``text``."""
    if "Secret" not in text:
        return
    kinds = [m.start() for m in _JSON_KIND.finditer(text)]
    if not kinds:
        return
    braces = _Braces(text)
    for header in _JSON_DATA.finditer(text):
        at = header.start()
        index = bisect.bisect_left(kinds, at)
        owner = None
        for candidate in (index - 1, index):
            if 0 <= candidate < len(kinds) and abs(kinds[candidate] - at) <= MANIFEST_REACH \
                    and braces.same(at, kinds[candidate]):
                owner = kinds[candidate]
                break
        if owner is None:
            continue
        close = text.find("}", header.end(), header.end() + MANIFEST_REACH)
        if close < 0 or "{" in text[header.end():close]:
            continue
        for entry in _JSON_ENTRY.finditer(text, header.end(), close):
            yield from _k8s_hit(text, entry.start(1), entry.end(1), owner)


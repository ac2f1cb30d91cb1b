"""Candidate regions: where the recognizers' prefilter triggers hit, with their margins.

The engine sends only these regions through Presidio (see Redactor._spans).  Two
backends find the hits:

* ``hyperscan`` (the optional ``fast`` extra on x86-64): one pass over the UTF-8 bytes
  for all triggers at once, every match of every trigger reported;
* ``re2`` (google-re2, the ``fast`` extra elsewhere) and ``re`` (always available): one
  scan per entity, restarted one character after each hit so that every position where
  some trigger matches is seen; re2 scans the UTF-8 bytes.

Both report, per entity, merged ``(start, end)`` regions in characters of the text,
each covering its hits plus the trigger reach plus the recognizer margins.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import heapq
import importlib
import itertools
import os
import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pathlib import Path

    from recognizers.prefilter import Prefilter, Trigger

__all__ = ["BACKENDS", "Region", "Scanner", "available_backend"]

#: Regions closer than this are analysed as one.
MERGE_GAP: Final = 64

BACKENDS: Final = ("hyperscan", "re2", "re")


def _replace_surrogate(error: UnicodeError) -> tuple[bytes, int]:
    # Lone surrogates (undecodable bytes kept by surrogateescape, or a JSON "\ud800")
    # become U+FFFD, one character for one, so offsets map one to one.  The
    # replacement is given as bytes: CPython's UTF-8 encoder accepts only ASCII text
    # from an error handler and rejects U+FFFD as a str.
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return b"\xef\xbf\xbd" * (error.end - error.start), error.end


codecs.register_error("redactor-fffd", _replace_surrogate)


def available_backend() -> str:
    """The fastest backend installed: ``hyperscan``, ``re2`` or ``re``."""
    import importlib.util

    for backend, module in (("hyperscan", "hyperscan"), ("re2", "re2")):
        if importlib.util.find_spec(module) is not None:
            return backend
    return "re"


@dataclass(frozen=True, slots=True)
class Region:
    """A window of the text to analyse for one entity, and the part of it to trust."""

    start: int
    end: int
    trust_from: int
    trust_to: int
    #: The trigger hits the region was built around, as matched (not widened by their
    #: reach), sorted, each with its trigger's name ("any" for a union of plain
    #: triggers): a recognizer that ``takes_hits`` reads only the candidates near them.
    #: Every accepted hit, and hits inside the region whose accept was not asked (see
    #: _merged): a superset of the accepted ones.
    hits: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class _Entity:
    name: str
    triggers: tuple[Trigger, ...]
    margin_before: int
    margin_after: int
    before: int  # the widest trigger reach, for backends that cannot tell triggers apart
    after: int


#: Pieces up to this long have their accepts' answers remembered by :meth:`Scanner.pieces_hit`.
_REPEATED_PIECE: Final = 48


class Scanner:
    """Compiled triggers of a set of recognizers' prefilters."""

    def __init__(self, prefilters: Sequence[Prefilter], backend: str | None = None, *,
                 narrow: bool = True) -> None:
        """``narrow``: let hyperscan scan texts of Latin-1 characters as Latin-1 bytes
        (False scans every text as UTF-8, as a cross-check in the tests)."""
        grouped: dict[str, list[Prefilter]] = {}
        for prefilter in prefilters:
            grouped.setdefault(prefilter.entity, []).append(prefilter)
        self._entities: list[_Entity] = []
        for name, items in grouped.items():
            triggers = tuple(t for p in items for t in p.triggers)
            self._entities.append(_Entity(
                name, triggers,
                max(p.margin_before for p in items), max(p.margin_after for p in items),
                max((t.before for t in triggers), default=0),
                max((t.after for t in triggers), default=0),
            ))
        self._narrow = narrow
        self.backend = backend or available_backend()
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown prefilter backend {self.backend!r}")
        self._scan: Callable[[str], list[tuple[int, Trigger, int, int]]]
        if self.backend == "hyperscan":
            self._scan = self._compile_hyperscan()
        elif self.backend == "re2":
            self._scan = self._compile_re2()
        else:
            self._scan = self._compile_re()
        #: Whether texts may be scanned joined (regions_many): no trigger holds an anchor
        #: outside its edges, which would match at the joined text's edges alone.
        self._joinable = all(anchors_at_edges_only(trigger.pattern)
                             for entity in self._entities for trigger in entity.triggers)
        #: (entity index, trigger name) of the triggers that may read a line break
        #: elsewhere than at their edges (see regions_many).
        self._reads_line_breaks = frozenset(
            (index, trigger.name) for index, entity in enumerate(self._entities)
            for trigger in entity.triggers if not line_break_at_edges(trigger.pattern))
        names = [e.name for e in self._entities]
        self._finders = [(names.index(p.entity), p.finder) for p in prefilters
                         if p.finder is not None]

    def _find(self, text: str) -> list[tuple[int, Trigger, int, int]]:
        hits = self._scan(text)
        for index, finder in self._finders:
            hits.extend((index, _FOUND, start, end) for start, end in finder(text))
        return hits

    @property
    def entities(self) -> tuple[str, ...]:
        return tuple(e.name for e in self._entities)

    def reach(self, entity: str) -> int:
        """How far past a region's ends the recognizers of ``entity`` may read for a
        finding it trusts: its widest margin (0 for an entity not scanned)."""
        return max((max(e.margin_before, e.margin_after)
                    for e in self._entities if e.name == entity), default=0)

    # ------------------------------------------------------------------ backends

    def _scans(self) -> list[tuple[int, str, Trigger]]:
        """Per entity: one union of its plain triggers, and each accepting trigger alone."""
        scans: list[tuple[int, str, Trigger]] = []
        for index, entity in enumerate(self._entities):
            plain = [t for t in entity.triggers if t.accept is None and not t.alone]
            if plain:
                # A union cannot tell which trigger hit: its hits get the widest reach.
                union = "|".join(f"(?:{t.pattern})" for t in plain)
                scans.append((index, union, _widest(entity)))
            scans.extend((index, t.pattern, t) for t in entity.triggers
                         if t.accept is not None or t.alone)
        return scans

    def _compile_re2(self) -> Callable[[str], list[tuple[int, Trigger, int, int]]]:
        import re2

        scans = [(index, re2.compile(_ascii_digits(pattern).encode("utf-8")), trigger)
                 for index, pattern, trigger in self._scans()]

        def find(text: str) -> list[tuple[int, Trigger, int, int]]:
            # Bytes, encoded once: searching a str would re-encode it on every call.
            data = text.encode("utf-8", "redactor-fffd")
            size = len(data)

            def next_character(position: int) -> int:
                position += 1
                while position < size and data[position] & 0xC0 == 0x80:
                    position += 1
                return position

            raw = _search_every_position(scans, data, next_character)
            if size == len(text):
                return raw
            to_char = _byte_to_char(data, {o for _, _, s, e in raw for o in (s, e)})
            return [(i, t, to_char[s], to_char[e]) for i, t, s, e in raw]

        return find

    def _compile_re(self) -> Callable[[str], list[tuple[int, Trigger, int, int]]]:
        scans = [(index, re.compile(pattern), trigger)
                 for index, pattern, trigger in self._scans()]

        def find(text: str) -> list[tuple[int, Trigger, int, int]]:
            return _search_every_position(scans, text, lambda position: position + 1)

        return find

    def _compile_hyperscan(self) -> Callable[[str], list[tuple[int, Trigger, int, int]]]:
        import hyperscan

        owners: list[tuple[int, Trigger]] = []
        # Per mode, per group: (id, expression, flags).  Keyword alternations compile
        # slowly together with the rest: two databases per mode.
        members: dict[str, dict[bool, list[tuple[int, bytes, int]]]] = {
            "utf-8": {False: [], True: []}, "latin-1": {False: [], True: []}}
        latin = self._narrow
        for index, entity in enumerate(self._entities):
            for trigger in entity.triggers:
                portable = _ascii_digits(trigger.pattern)
                # Tracking where a match starts costs; bounded triggers do without.
                som = 0 if trigger.max_length else hyperscan.HS_FLAG_SOM_LEFTMOST
                ident = len(owners)
                owners.append((index, trigger))
                members["utf-8"][trigger.keyword].append(
                    (ident, portable.encode("utf-8"),
                     hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_UCP | som))
                if not latin:
                    continue
                try:
                    narrow = latin1_pattern(portable)
                except ValueError:
                    latin = False  # a construct the translation does not know
                    continue
                members["latin-1"][trigger.keyword].append(
                    (ident, narrow.encode("latin-1"), som))
        if latin:
            for keyword, group in members["latin-1"].items():
                members["latin-1"][keyword] = _united(group, owners)
        else:
            del members["latin-1"]
        # Both modes are compiled (or loaded from the cache) now, not on the first text
        # that needs one: a hook's first text with a character beyond Latin-1 would
        # otherwise wait seconds for a compilation.
        databases = {mode: [d for d in (_hyperscan_database(group)
                                        for group in groups.values() if group) if d is not None]
                     for mode, groups in members.items()}
        local = threading.local()  # a hyperscan scratch serves one scan at a time

        def scratches_for(mode: str) -> list[tuple[Any, Any]]:
            pairs: dict[str, list[tuple[Any, Any]]] | None = getattr(local, "pairs", None)
            if pairs is None:
                pairs = local.pairs = {}
            found = pairs.get(mode)
            if found is None:
                found = pairs[mode] = [(d, hyperscan.Scratch(d)) for d in databases[mode]]
            return found

        def find(text: str) -> list[tuple[int, Trigger, int, int]]:
            # A text of Latin-1 characters only (most logs, Portuguese included) is
            # scanned as Latin-1 bytes, one byte per character: byte offsets are then
            # character offsets.  Others are scanned as UTF-8 and their offsets mapped.
            narrow = latin
            if narrow:
                try:
                    data = text.encode("latin-1")
                except UnicodeEncodeError:
                    narrow = False
            if not narrow:
                data = text.encode("utf-8", "redactor-fffd")
            raw: list[tuple[int, int, int]] = []

            def on_match(ident: int, start: int, end: int, flags: int, context: Any) -> None:
                raw.append((ident, start, end))

            for database, scratch in scratches_for("latin-1" if narrow else "utf-8"):
                database.scan(data, match_event_handler=on_match, scratch=scratch)
            if len(data) != len(text):
                to_char = _byte_to_char(data, {o for _, s, e in raw for o in (s, e)})
                raw = [(i, to_char[s], to_char[e]) for i, s, e in raw]
            hits: list[tuple[int, Trigger, int, int]] = []
            for ident, first, end in raw:
                index, trigger = owners[ident]
                if trigger.max_length:
                    hits.append((index, trigger, max(0, end - trigger.max_length), end))
                elif trigger.accept is None and hits and hits[-1][1] is trigger \
                        and hits[-1][0] == index \
                        and hits[-1][2] == first:
                    # The same start, a longer match (an address's last octet, digit
                    # by digit): one hit, the longest, whose window holds the others'.
                    hits[-1] = (index, trigger, first, max(end, hits[-1][3]))
                else:
                    hits.append((index, trigger, first, end))
            return hits

        return find

    # ------------------------------------------------------------------ regions

    def hits(self, text: str) -> list[tuple[int, int]]:
        """Accepted hits, widened by their trigger's reach, sorted."""
        spans = []
        for _, trigger, start, end in self._find(text):
            if trigger.accept is None or trigger.accept(text, start, end):
                spans.append((max(0, start - trigger.before), end + trigger.after))
        spans.sort()
        return spans

    def pieces_hit(self, text: str, starts: Sequence[int]) -> set[int]:
        """Which pieces of ``text`` an accepted hit lies in, for a text made of pieces
        that are analysed each alone, joined by one character (piece ``i`` runs from
        ``starts[i]`` to ``starts[i + 1] - 1``, the last to the end).  A trigger's
        accept judges its hit on the hit's own piece (an accept may read on past a
        line break: the next piece is not what the analysis will read); a hit across
        pieces counts for each of them, unjudged."""
        hit: set[int] = set()
        size = len(text)
        # The accepts' answers on short pieces, which a block repeats (a JSON log's keys
        # on every line): an accept reads its text alone.
        answers: dict[tuple[int, str, int, int], bool] = {}
        synthetic = self.backend == "hyperscan"
        for _, trigger, found_start, found_end in self._find(text):
            last = bisect.bisect_right(starts, max(found_start, found_end - 1)) - 1
            piece_start = starts[last]
            # Not the line break after the piece (a trigger's edge: ``(?:[^0-9]|$)``),
            # nor the one before it (``(?:^|[^0-9])``): the piece alone gives the hit at
            # its own edge.  hyperscan reports a bounded trigger's start as its reach
            # back from its end: the piece of its end is the hit's.
            end = min(found_end, starts[last + 1] - 1) if last + 1 < len(starts) \
                else found_end
            start = found_start
            if (synthetic and trigger.max_length) or start == piece_start - 1:
                start = max(start, piece_start)
            first = bisect.bisect_right(starts, start) - 1
            if first != last:
                hit.update(range(first, last + 1))
                continue
            if first in hit:
                continue  # an accepted hit of this piece is enough
            if trigger.accept is not None:
                piece_end = starts[first + 1] - 1 if first + 1 < len(starts) else size
                piece = text[piece_start:piece_end]
                at, to = max(start - piece_start, 0), min(end, piece_end) - piece_start
                if len(piece) > _REPEATED_PIECE:
                    accepted = trigger.accept(piece, at, to)
                else:
                    key = (id(trigger), piece, at, to)
                    known = answers.get(key)
                    if known is None:
                        known = answers[key] = bool(trigger.accept(piece, at, to))
                    accepted = known
                if not accepted:
                    continue
            hit.add(first)
        return hit

    def regions(self, text: str, skip: Collection[str] = ()) -> dict[str, list[Region]]:
        """Merged regions per entity; entities without hits, and those of ``skip``
        (whose hits are not checked), are left out."""
        return self._regions_of(text, self._find(text), skip)

    def regions_many(self, texts: Sequence[str],
                     skips: Sequence[Collection[str]]) -> list[dict[str, list[Region]]]:
        """:meth:`regions` of each of ``texts`` (with its ``skip``), found by one scan
        of them all, joined by line breaks, instead of a scan per text: a block of
        JSON lines asks this of thousands of short texts, and each scan costs more to
        set up than to read a short text.

        Most triggers read a line break only at their edges, as ``(?:^|[^...])`` or
        ``(?:[^...]|$)`` (see :func:`line_break_at_edges`): their hits in the joined
        texts are each text's own, one on a joining line break moved to the text's
        edge.  A text is scanned again alone when a hit reaches past its edges, or
        when a hit of another trigger touches them (that trigger may read the joining
        line break where the text alone has nothing), and so is every text such a hit
        reaches (the scan lists one start per end, and one hit per start of a trigger
        that accepts any: the hits it hides are theirs).  The other backends, and
        prefilters that find their candidates themselves, scan each text alone.
        tests/integration/test_regions_many.py holds this to :meth:`regions`."""
        if len(texts) < 2 or self._finders or self.backend != "hyperscan" \
                or not self._joinable:
            return [self.regions(text, skip) for text, skip in zip(texts, skips, strict=True)]
        if self._narrow:
            # Each text in the mode its own scan takes (Latin-1 bytes when it can: the
            # two modes' databases may list a place's hits apart or once).
            from recognizers._text import is_latin1

            modes: tuple[list[int], list[int]] = ([], [])
            for index, text in enumerate(texts):
                modes[is_latin1(text)].append(index)
            wide, narrow = modes
            if wide and narrow:
                found: list[dict[str, list[Region]]] = [{} for _ in texts]
                for group in modes:
                    for index, regions in zip(group, self._regions_joined(
                            [texts[i] for i in group], [skips[i] for i in group]),
                                              strict=True):
                        found[index] = regions
                return found
        return self._regions_joined(texts, skips)

    def _regions_joined(self, texts: Sequence[str], skips: Sequence[Collection[str]],
                        ) -> list[dict[str, list[Region]]]:
        """:meth:`regions_many` of texts all scanned in one mode."""
        if len(texts) < 2:
            return [self.regions(text, skip) for text, skip in zip(texts, skips, strict=True)]
        starts: list[int] = []
        position = 0
        for text in texts:
            starts.append(position)
            position += len(text) + 1
        found: list[list[tuple[int, Trigger, int, int]]] = [[] for _ in texts]
        # hyperscan's $ matches before a text's last character too when that is a line
        # break, which the joined texts do not end with.
        alone = {piece for piece, text in enumerate(texts) if text.endswith("\n")}
        unsure = self._reads_line_breaks
        for index, trigger, found_start, found_end in self._scan("\n".join(texts)):
            piece = bisect.bisect_right(starts, max(found_start, found_end - 1)) - 1
            start, end = found_start, found_end
            if piece in alone:
                continue
            piece_start = starts[piece]
            piece_end = piece_start + len(texts[piece])
            # (The piece is that of the hit's last character: its end is at most the
            # line break after the piece, and a bounded trigger's start is where its
            # longest match would start: see _compile_hyperscan.)
            if (index, trigger.name) in unsure:
                reaches = start < piece_start or end > piece_end
            else:
                reaches = not trigger.max_length and start < piece_start - 1
            if reaches:
                alone.update(range(bisect.bisect_right(starts, start) - 1, piece + 1))
                continue
            if end > piece_end:
                end = piece_end  # the line break after the text, read as its end
                if trigger.max_length:
                    start = end - trigger.max_length
            start = max(start, piece_start)  # the line break before, read as its start
            hit = (index, trigger, start - piece_start, end - piece_start)
            if end == piece_end and _listed(found[piece], hit):
                continue  # the same hit as at the text's end (one with the edge, one without)
            found[piece].append(hit)
        return [self.regions(text, skip) if piece in alone
                else self._regions_of(text, found[piece], skip)
                for piece, (text, skip) in enumerate(zip(texts, skips, strict=True))]

    def _regions_of(self, text: str, found: list[tuple[int, Trigger, int, int]],
                    skip: Collection[str]) -> dict[str, list[Region]]:
        """:meth:`regions` of ``text`` from its hits (``found``, as _find lists them)."""
        size = len(text)
        skipped = {i for i, e in enumerate(self._entities) if e.name in skip} if skip else ()
        spans: dict[int, list[tuple[int, int, int, int, Trigger]]] = {}
        for index, trigger, start, end in found:
            if index in skipped:
                continue
            spans.setdefault(index, []).append(
                (start - trigger.before, end + trigger.after, start, end, trigger))
        result: dict[str, list[Region]] = {}
        for index, cores in spans.items():
            entity = self._entities[index]
            cores.sort(key=_span_order)
            merged = _merged(text, cores, MERGE_GAP + entity.margin_before
                             + entity.margin_after, entity, size)
            if merged:
                result[entity.name] = merged
        return result


def line_break_at_edges(pattern: str) -> bool:
    """Whether ``pattern`` (a trigger) reads a line break nowhere but at its edges, as
    its text's edge: in a first element ``(?:^|[^...])`` (see :func:`_is_edge`) or a
    last one ``(?:[^...]|$)``, and holds no other anchor than a word's edge.  Where a
    text joined to others by line breaks holds such a pattern's match reaching the line
    break before or after it, the text alone holds it up to its edge, and nothing else.
    False when unsure (a construct this does not know)."""
    parsed = _parsed(pattern)
    return parsed is not None and _edges_only(parsed)


def anchors_at_edges_only(pattern: str) -> bool:
    """Whether ``pattern`` (a trigger) holds no anchor but a word's edges and those of
    its edge branches (see :func:`_is_edge`), whose ``^`` or ``$`` a character that
    reads the joining line break stands in for: a text joined to others then holds
    each match the text alone holds.  False when unsure."""
    parsed = _parsed(pattern)
    return parsed is not None and not _holds(parsed, characters=False, edges=True)


def _parsed(pattern: str) -> list[tuple[Any, Any]] | None:
    """``pattern`` as ``re`` parses it (its elements), None when ``re`` cannot."""
    parser: Any = importlib.import_module("re._parser")
    try:
        return list(parser.parse(pattern))
    except re.error:
        return None


def _edges_only(items: list[tuple[Any, Any]]) -> bool:
    if not _reads_line_break(items):
        return True
    if len(items) == 1:
        op, av = _unwrapped(items[0])
        if op is _C.BRANCH and all(_edges_only(list(branch)) for branch in av[1]):
            return True
    low, high = 0, len(items)
    if _is_edge(items[0], _C.AT_BEGINNING, leading=True):
        low = 1
    if high > low and _is_edge(items[-1], _C.AT_END, leading=False):
        high -= 1
    return not _reads_line_break(items[low:high])


def _is_edge(item: tuple[Any, Any], anchor: Any, *, leading: bool) -> bool:
    """Whether ``item`` is a text's edge written as a branch: ``^`` (or ``$``) alone, one
    character of a class that reads a line break (which the joined texts' line break
    matches where the text alone has its edge), and other branches that read none or
    are such patterns in turn (``(?:^|[^A-Z])['-]``)."""
    op, av = _unwrapped(item)
    if op is not _C.BRANCH:
        return False
    branches = [list(branch) for branch in av[1]]
    anchored = standing_in = False
    for branch in branches:
        if len(branch) == 1 and branch[0][0] is _C.AT and branch[0][1] is anchor:
            anchored = True
        elif len(branch) == 1 and _reads_character(*branch[0]):
            standing_in = True
        elif _reads_line_break(branch) and not _edges_only(branch):
            return False
    return anchored and standing_in


def _unwrapped(item: tuple[Any, Any]) -> tuple[Any, Any]:
    op, av = item
    while op is _C.SUBPATTERN and len(av[3]) == 1:
        op, av = av[3][0]
    return op, av


def _reads_character(op: Any, av: Any) -> bool | None:
    """Whether a one-character element reads a line break; None for other elements."""
    if op is _C.LITERAL:
        return bool(av == _LINE_BREAK_CODE)
    if op is _C.NOT_LITERAL:
        return bool(av != _LINE_BREAK_CODE)
    if op is _C.ANY:
        return True  # (hyperscan's dot skips it, as re's does: unsure all the same)
    if op is not _C.IN:
        return None
    negated = found = False
    for member, value in av:
        if member is _C.NEGATE:
            negated = True
        elif member is _C.LITERAL:
            found = found or value == _LINE_BREAK_CODE
        elif member is _C.RANGE:
            found = found or value[0] <= _LINE_BREAK_CODE <= value[1]
        elif member is _C.CATEGORY:
            found = found or value in _LINE_BREAK_CATEGORIES
        else:
            return True
    return found != negated


def _reads_line_break(items: Sequence[tuple[Any, Any]]) -> bool:
    return _holds(items, characters=True, edges=False)


def _holds(items: Sequence[tuple[Any, Any]], *, characters: bool, edges: bool) -> bool:
    """Whether ``items`` hold an anchor other than a word's edge or, with ``characters``,
    an element that reads a line break; with ``edges``, leaving out the edge branches
    at the ends of each sequence (see :func:`_is_edge`)."""
    low, high = 0, len(items)
    if edges:
        if items and _is_edge(items[0], _C.AT_BEGINNING, leading=True):
            low = 1
        if high > low and _is_edge(items[-1], _C.AT_END, leading=False):
            high -= 1
    for op, av in items[low:high]:
        one = _reads_character(op, av)
        if one is not None:
            if one and characters:
                return True
        elif op is _C.AT:
            # A word's edge reads the joining line break as it reads the text's edge; an
            # anchor outside an edge branch matches at the joined text's edges alone.
            if av not in _WORD_EDGES:
                return True
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT):
            if _holds(av[2], characters=characters, edges=edges):
                return True
        elif op is _C.SUBPATTERN:
            if _holds(av[3], characters=characters, edges=edges):
                return True
        elif op is _C.BRANCH:
            if any(_holds(branch, characters=characters, edges=edges) for branch in av[1]):
                return True
        else:
            return True  # unknown: assumed to
    return False


_C: Any = importlib.import_module("re._constants")
_WORD_EDGES: Final = frozenset({_C.AT_BOUNDARY, _C.AT_NON_BOUNDARY})
_LINE_BREAK_CODE: Final = ord("\n")
_LINE_BREAK_CATEGORIES: Final = frozenset({_C.CATEGORY_SPACE, _C.CATEGORY_NOT_DIGIT,
                                           _C.CATEGORY_NOT_WORD, _C.CATEGORY_LINEBREAK})


def _listed(hits: list[tuple[int, Trigger, int, int]],
            hit: tuple[int, Trigger, int, int]) -> bool:
    """Whether ``hit`` is among the last of ``hits`` that end where it ends (hyperscan
    lists hits by their end)."""
    for other in reversed(hits):
        if other[3] != hit[3]:
            return False
        if other == hit:
            return True
    return False


#: Longest union of Latin-1 expressions _united builds (hyperscan refuses long ones).
LATIN1_UNION_CHARS: Final = 8000


def _united(members: list[tuple[int, bytes, int]],
            owners: list[tuple[int, Trigger]]) -> list[tuple[int, bytes, int]]:
    """Latin-1 expressions of bounded triggers that differ in their pattern alone, joined
    into unions of up to LATIN1_UNION_CHARS characters (kept under their first member's
    id; each member's hits are reported by the union).

    A bounded trigger's hit is its end and nothing else, so a union reports the same
    hits (a place two members hit is reported once).  Patterns are split for the UTF-8
    mode's limits (title words: a pattern per few thousand characters); in Latin-1
    they are far shorter, and fewer, longer alternations scan faster — hyperscan's
    scan of the keyword database took a quarter longer with the title words in
    seventeen patterns than in five.
    """
    united: list[tuple[int, bytes, int]] = []
    open_unions: dict[tuple[Any, ...], int] = {}
    for ident, expression, flags in members:
        index, trigger = owners[ident]
        if not trigger.max_length:
            united.append((ident, expression, flags))
            continue
        key = (index, trigger.before, trigger.after, trigger.accept, trigger.name,
               trigger.max_length, flags)
        at = open_unions.get(key)
        if at is not None:
            first, joined, _ = united[at]
            if len(joined) + len(expression) + 5 <= LATIN1_UNION_CHARS:
                united[at] = (first, b"(?:" + joined + b")|(?:" + expression + b")", flags)
                continue
        open_unions[key] = len(united)
        united.append((ident, expression, flags))
    return united


def _hyperscan_database(members: list[tuple[int, bytes, int]]) -> Any:
    """Compile, or load from the cache a database compiled from the same triggers.

    Compiling takes a second or two; the serialized database is kept under
    ``$XDG_CACHE_HOME/redactor`` (patterns only, no text), keyed by a hash of the
    patterns, flags and hyperscan's version.  A cache that cannot be read or written
    is ignored.  Expressions that can never match are left out; None when no
    expression is left.
    """
    import hashlib

    import hyperscan

    version = getattr(hyperscan, "__version__", "?")
    key = hashlib.sha256(repr((version, members)).encode()).hexdigest()[:32]
    from recognizers._text import cache_dir

    path = cache_dir() / f"prefilter-{key}.hsdb"
    with contextlib.suppress(OSError, hyperscan.error):
        return hyperscan.loadb(path.read_bytes(), mode=hyperscan.HS_MODE_BLOCK)
    try:
        database = _compiled(members)
    except hyperscan.error:
        # A trigger that can never match (NEVER; in Latin-1, one that needs a wider
        # character) finds nothing: left out.
        possible = [m for m in members if _can_match(m)]
        if not possible:
            return None
        database = _compiled(possible)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(hyperscan.dumpb(database))
        os.replace(temporary, path)
        _prune(path.parent)
    return database


#: Compiled databases kept in the cache folder (the newest; a database is 1-3 MB, and
#: each engine configuration — entities, threshold, known users — has two or four).
CACHED_DATABASES: Final = 16


def _prune(folder: Path) -> None:
    """Delete all but the CACHED_DATABASES newest databases (a folder another process
    prunes at the same time, or files it cannot delete, are left as they are)."""
    found = []
    for path in folder.glob("prefilter-*.hsdb"):
        with contextlib.suppress(OSError):
            found.append((path.stat().st_mtime, path.name, path))
    found.sort(reverse=True)
    for _, _, path in found[CACHED_DATABASES:]:
        with contextlib.suppress(OSError):
            path.unlink()


def _compiled(members: list[tuple[int, bytes, int]]) -> Any:
    import hyperscan

    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    database.compile(expressions=[m[1] for m in members], ids=[m[0] for m in members],
                     elements=len(members), flags=[m[2] for m in members])
    return database


def _can_match(member: tuple[int, bytes, int]) -> bool:
    import hyperscan

    try:
        _compiled([member])
    except hyperscan.error as exc:
        if "never match" in str(exc):
            return False
        raise
    return True


#: Escapes of one character that stand for themselves or a control character.
_CONTROL_ESCAPES: Final = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v"}
#: A positive class left with no Latin-1 member: it matches nothing.
_NOTHING: Final = r"[^\x00-\xff]"
_QUANTIFIER: Final = re.compile(r"\{\d*(?:,\d*)?\}")
_HEX_PAIR: Final = re.compile("[0-9A-Fa-f]{2}")
#: A quantifier that lets its atom match nothing, lazy or possessive forms included.
_OPTIONAL: Final = re.compile(r"(?:\{0(?:,\d*)?\}|\?|\*)[?+]?")


def latin1_pattern(pattern: str) -> str:
    """``pattern`` (a trigger, ``\\d`` already ASCII) for Latin-1 bytes, one per character.

    On a text whose characters are all below U+0100, the result matches the Latin-1
    encoding of exactly the substrings ``pattern`` matches in Unicode mode: class
    members beyond U+00FF are dropped (a class left empty matches nothing; an
    optional one, such as the combining accents after a letter, is left out), and
    case-insensitive groups spell their non-ASCII letters' cases out (hyperscan folds
    ASCII only outside UTF-8 mode).  Raises ValueError on syntax it does not know.
    """
    from recognizers.prefilter import NEVER

    # The pattern that matches nothing (an empty list of names), whose \\s and \\S the
    # translation does not otherwise take.
    pattern = pattern.replace(NEVER, _NOTHING)
    try:
        return _latin1_pattern(pattern)
    except IndexError:
        raise ValueError("unterminated construct") from None


def _latin1_pattern(pattern: str) -> str:
    out: list[str] = []
    caseless: list[bool] = []
    position, size = 0, len(pattern)

    def take_char() -> str:
        nonlocal position
        char = pattern[position]
        if char != "\\":
            position += 1
            return char
        if position + 1 >= size:
            raise ValueError("pattern ends in a backslash")
        escaped = pattern[position + 1]
        position += 2
        if escaped in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[escaped]
        if escaped == "x" and _HEX_PAIR.fullmatch(pattern, position, position + 2):
            position += 2
            return chr(int(pattern[position - 2:position], 16))
        if escaped.isascii() and escaped.isalnum():
            raise ValueError(f"escape \\{escaped}")
        return escaped

    while position < size:
        char = pattern[position]
        if char == "[":
            position += 1
            negated = pattern.startswith("^", position)
            position += negated
            members: set[int] = set()
            first = True
            while first or pattern[position] != "]":
                first = False
                if pattern.startswith("\\d", position):
                    members.update(range(0x30, 0x3A))
                    position += 2
                    continue
                low = take_char()
                high = low
                if pattern[position] == "-" and pattern[position + 1] != "]":
                    position += 1
                    high = take_char()
                members.update(range(ord(low), min(ord(high), 0xFF) + 1))
            position += 1
            if any(caseless):
                members.update(other for code in list(members) for other in _cases(chr(code)))
            if members or negated:
                out.append(_byte_class(members, negated))
            else:
                optional = _OPTIONAL.match(pattern, position)
                if optional:
                    position = optional.end()
                else:
                    out.append(_NOTHING)
            continue
        if char == "(":
            if pattern.startswith("(?:", position) or pattern.startswith("(?i:", position):
                opening = pattern[position:pattern.index(":", position) + 1]
                caseless.append(opening == "(?i:")
                out.append(opening)
                position += len(opening)
                continue
            if pattern.startswith("(?", position):
                raise ValueError("group syntax")
            caseless.append(False)
            out.append("(")
            position += 1
            continue
        if char == ")":
            if not caseless:
                raise ValueError("unbalanced parenthesis")
            caseless.pop()
            out.append(")")
            position += 1
            continue
        if char in "|*+?.^$":
            out.append(char)
            position += 1
            continue
        if char == "{":
            quantifier = _QUANTIFIER.match(pattern, position)
            if quantifier:
                out.append(quantifier.group())
                position = quantifier.end()
                continue
        literal = take_char()
        code = ord(literal)
        if code > 0xFF:
            out.append(_NOTHING)
        elif any(caseless) and not literal.isascii() and literal.isalpha():
            out.append(_byte_class({code, *_cases(literal)}, False))
        else:
            out.append(_byte(code))
    if caseless:
        raise ValueError("unbalanced parenthesis")
    return "".join(out)


def _cases(char: str) -> set[int]:
    """The Latin-1 code points of ``char``'s other case (``ß`` upper-cases to two letters)."""
    return {ord(c) for c in (char.lower(), char.upper()) if len(c) == 1 and ord(c) <= 0xFF}


def _byte(code: int) -> str:
    char = chr(code)
    return char if char.isascii() and char.isalnum() else f"\\x{code:02x}"


def _byte_class(members: set[int], negated: bool) -> str:
    if negated and not members:
        return r"[\x00-\xff]"
    codes = sorted(members)
    parts: list[str] = []
    index = 0
    while index < len(codes):
        last = index
        while last + 1 < len(codes) and codes[last + 1] == codes[last] + 1:
            last += 1
        if last - index >= 2:
            parts.append(f"{_byte(codes[index])}-{_byte(codes[last])}")
        else:
            parts.extend(_byte(code) for code in codes[index:last + 1])
        index = last + 1
    return "[" + ("^" if negated else "") + "".join(parts) + "]"


def _ascii_digits(pattern: str) -> str:
    """``\\d`` as ``[0-9]`` for the byte-level backends.

    Texts with non-ASCII digits never reach the scanner (the engine checks
    recognizers.prefilter.outside_trigger_alphabet first), and Unicode digit classes
    make hyperscan databases too large.
    """
    return pattern.replace("\\d", "[0-9]").replace("\\D", "[^0-9]")


def _search_every_position(scans: list[tuple[int, Any, Trigger]], subject: Any,
                           following: Callable[[int], int]) -> list[tuple[int, Trigger, int, int]]:
    """Every hit of every scan, restarting just after each hit's start (``following``).

    A pattern's ``search`` finds the leftmost match only; restarting at the next
    character, not after the match, lets no position where some trigger matches go
    unseen.
    """
    hits: list[tuple[int, Trigger, int, int]] = []
    for index, pattern, stand_in in scans:
        search = pattern.search
        match = search(subject)
        while match is not None:
            start, end = match.span()
            hits.append((index, stand_in, start, end))
            match = search(subject, following(start))
    return hits


def _found() -> Trigger:
    from recognizers.prefilter import Trigger

    return Trigger("", name="finder")


_FOUND: Final = _found()


def _widest(entity: _Entity) -> Trigger:
    from recognizers.prefilter import Trigger

    return Trigger("", before=entity.before, after=entity.after, name="any")


class _Open:
    """A region being built: its extent so far (from its accepted hits), its hits, and
    the hits whose accept is not asked yet (each would widen it), widest first."""

    __slots__ = ("hi", "hits", "lo", "pending")

    def __init__(self, lo: int, hi: int, hit: tuple[int, int, str]) -> None:
        self.lo, self.hi = lo, hi
        self.hits = [hit]
        #: A heap of (-window end, order, hit start, hit end, trigger).
        self.pending: list[tuple[int, int, int, int, Trigger]] = []

    @property
    def pending_end(self) -> int:
        return -self.pending[0][0] if self.pending else self.hi

    def resolve_widest(self, text: str) -> None:
        """Ask the accept of the pending hit that would widen the region most: accepted,
        it widens the region over every other pending hit, which joins unasked;
        refused, it is left out."""
        negative_end, _, first, last, trigger = heapq.heappop(self.pending)
        if trigger.accept is None or trigger.accept(text, first, last):
            self.hi = max(self.hi, -negative_end)
            self.hits.append((first, last, trigger.name))
            self.hits.extend((p[2], p[3], p[4].name) for p in self.pending)
            self.pending.clear()

    def close(self, text: str, entity: _Entity, size: int) -> Region:
        while self.pending:
            self.resolve_widest(text)
        return _region(self.lo, self.hi, entity, size, self.hits)


def _merged(text: str, cores: list[tuple[int, int, int, int, Trigger]], gap: int,
            entity: _Entity, size: int) -> list[Region]:
    """The regions of one entity's hits (sorted by _span_order): windows less than
    ``gap`` apart merged.  The same regions as asking every hit's accept first and
    merging the accepted ones; an accept is asked only when its answer decides
    something: whether a region opens, or how far one reaches.

    A hit whose window lies inside a region so far joins it unasked, and one that
    would widen a region waits (pending) until a later hit needs to know how far the
    region reaches, or the region ends: then the widest pending hit is asked first,
    and the hits it covers join unasked.  The recognizers that read the hits then
    also read the candidates next to those (a superset of the accepted hits'): a
    key word's value is judged once, by the recognizer.
    """
    merged: list[Region] = []
    current: _Open | None = None
    order = itertools.count()  # ties in the pending heap never compare triggers
    for span in cores:
        start, end, first, last, trigger = span
        if current is not None:
            while start - current.hi > gap and current.pending \
                    and start - current.pending_end <= gap:
                current.resolve_widest(text)
            if start - current.hi <= gap:
                if end <= current.hi:
                    current.hits.append((first, last, trigger.name))
                elif trigger.accept is None:
                    current.hi = end
                    current.hits.append((first, last, trigger.name))
                else:
                    heapq.heappush(current.pending, (-end, next(order), first, last, trigger))
                continue
            merged.append(current.close(text, entity, size))
            current = None
        if trigger.accept is not None and not trigger.accept(text, first, last):
            continue
        current = _Open(start, end, (first, last, trigger.name))
    if current is not None:
        merged.append(current.close(text, entity, size))
    return merged


def _span_order(span: tuple[int, int, int, int, Trigger]) -> tuple[int, int, int, int, str]:
    """Hits by where their windows start, then end (then the hit, then the trigger's
    name: the order does not depend on how the backend listed them)."""
    return span[0], span[1], span[2], span[3], span[4].name


def _region(core_start: int, core_end: int, entity: _Entity, size: int,
            hits: list[tuple[int, int, str]]) -> Region:
    start = max(0, core_start - entity.margin_before)
    end = min(size, core_end + entity.margin_after)
    trust_from = start + entity.margin_before if start > 0 else 0
    trust_to = end - entity.margin_after if end < size else size
    hits.sort()
    return Region(start, end, trust_from, trust_to, tuple(hits))


def _byte_to_char(data: bytes, offsets: set[int]) -> dict[int, int]:
    """Map UTF-8 byte offsets (on character boundaries) to character offsets."""
    mapping: dict[int, int] = {}
    last_byte = 0
    last_char = 0
    for offset in sorted(offsets):
        last_char += len(data[last_byte:offset].decode("utf-8", "surrogatepass"))
        last_byte = offset
        mapping[offset] = last_char
    return mapping

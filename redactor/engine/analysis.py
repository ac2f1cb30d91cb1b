"""Analysis: where the personal data in a text lies.

A length-preserving normalisation (fullwidth digits, dash and space variants to ASCII),
the prefilter's candidate regions (or the whole text), Presidio's analysis of them in
chunks of bounded size (its steps run here directly for the pack's recognizers), the
propagation of user names and people's names, overlap resolution so every detected
character is covered exactly once, then the allowlist and a scan's baseline.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from redactor.config import Settings
from redactor.engine import build
from redactor.engine.propagation import (
    PersonPass,
    StreamNames,
    overspread_dropped,
    persons_propagated,
    usernames_propagated,
)
from redactor.engine.spans import Found, Span, chunks, resolve
from redactor.errors import EngineError
from redactor.results import Finding

if TYPE_CHECKING:
    from presidio_analyzer import RecognizerResult

    from redactor.baseline import Baseline
    from redactor.candidates import Region, Scanner

#: Analysis chunk size and overlap, in characters.  The overlap must exceed twice
#: the longest span plus its context window; identifiers are far shorter.
CHUNK_SIZE: Final = 200_000
#: Each chunk sees half of this beyond what it keeps: the longest reading of a
#: recognizer around a finding plus the finding (a Kubernetes Secret's value read
#: against its kind line 8,000 characters away, a private key of 12,000 characters).
CHUNK_OVERLAP: Final = 32_768
#: Texts from this size on go through the prefilter (when every recognizer has one):
#: all of them; one scan costs microseconds, a Presidio pass over a short text about
#: half a millisecond.
PREFILTER_MIN_CHARS: Final = 0
#: Label tuples whose lifted entities are remembered, and the longest (characters in
#: all) remembered: a file of huge unique keys must not pile up in the cache.
LIFTED_CACHE_SIZE: Final = 4_096
LIFTED_CACHE_MAX_CHARS: Final = 512
#: Texts up to this length have their recognizers' findings remembered across calls (a
#: JSON log's keys and common values, a hook's short fields), up to this many texts.
#: The findings depend on the text and its labels alone.
SHORT_CACHE_CHARS: Final = 160
SHORT_CACHE_SIZE: Final = 8_192
#: The widest reach past a region (see Scanner.reach) of an entity whose regions in the
#: texts of a batch are analysed in one run (see Analysis._regions_analysed): a wall of
#: this many line breaks per text costs little; people's names and secrets, which read
#: further, are analysed text by text.
BATCH_WALL: Final = 512

#: Invisible format characters (Unicode category Cf in common use: soft hyphen, zero-width
#: and joiner characters, bidirectional marks, word joiner, BOM, tags).  Detection reads
#: through them, so they cannot split a value the recognizers would find.
#: A Latin-1 soft hyphen read as UTF-8 (the byte 0xAD, kept by surrogateescape) too.
_INVISIBLE: Final = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f\udcad]")

#: An escape of a character (JSON's, Java's, JavaScript's ``\u00e3``), its backslash
#: doubled or more where the text was escaped again (a JSON document inside a string).
#: Those of letters and marks beyond ASCII are read as the character (see
#: _wide_escapes): a JSON log written by ``json.dumps`` holds ``Jo\u00e3o`` where the
#: name is ``João``.  A space's escape (``\u00a0``) stays as written: read as a space,
#: it would end a value that runs on over it (``password: Minha\u00a0Senha``).
_ESCAPE: Final = re.compile(r"(?<!\\)\\+u([0-9a-fA-F]{4})")  # (a run's first backslash)

#: The recognizers' findings per normalised text and labels.
Memo = dict[tuple[str, tuple[str, ...] | None], Found]


@dataclass(slots=True)
class Document:
    """What the texts of one JSON document share (see redact_json): the words of the
    people's names and the user names found in any of them, what is done with them on
    this pass, and the recognizers' findings, kept by the first pass for the second."""

    person_pass: PersonPass
    persons: set[str] = field(default_factory=set)
    #: User names found by their shape in any text of the document (person_words unused).
    logins: StreamNames = field(default_factory=StreamNames)
    memo: Memo = field(default_factory=dict)
    #: Cues per user name, and the texts read, on the first pass (overspread_dropped).
    cues: dict[tuple[str, bool], int] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)

    def __repr__(self) -> str:  # names and texts are personal data
        return (f"Document({self.person_pass.name}, {len(self.persons)} person words, "
                f"{self.logins!r}, {len(self.memo)} texts remembered)")

    def settle_logins(self) -> None:
        """After the first pass: leave out the names its texts would spread too widely."""
        overspread_dropped(self.logins, self.cues, self.texts)
        self.texts = []

    def carries(self) -> bool:
        """Did the first pass find names to propagate across the document's texts?"""
        return bool(self.persons or self.logins.usernames or self.logins.caseless_usernames)

    def reuses_first_pass(self) -> bool:
        """May the second pass take every text's first findings as they are, without
        asking :meth:`first_findings_stand` text by text?  Yes when the first pass found
        no names to propagate (redact_json asks it when no key was found either)."""
        return not self.carries()

    #: Most user names the second pass looks for one by one before reusing a text's
    #: first findings (see first_findings_stand).
    REUSE_MAX_NAMES: Final = 32

    def first_findings_stand(self, text: str, context: Sequence[str] | None) -> bool:
        """On the second pass of a document that carries user names only: would the
        analysis of ``text`` (with ``context``) give what the first pass gave?  Yes
        when none of the names is written in it, so that propagation adds nothing, and
        the first pass found no login of its own in it (whose cue the second pass would
        count again).  No when the document carries words of people's names (they
        match accent-blind: a plain search cannot rule them out)."""
        if self.persons:
            return False
        exact, caseless = self.logins.usernames, self.logins.caseless_usernames
        if len(exact) + len(caseless) > self.REUSE_MAX_NAMES:
            return False
        from recognizers._text import normalize_for_matching

        if _has_invisible(text) or _wide_escapes(text):
            return False  # read otherwise: the memo holds no record of this text
        normalized = normalize_for_matching(text)
        found = self.memo.get((normalized, tuple(context) if context else None))
        if found is None or any(span.spread for span in found.values()):
            return False
        if any(name in normalized for name in exact):
            return False
        if caseless:
            folded = normalized.casefold()
            if any(name in folded for name in caseless):
                return False
        return True


class Analysis:
    """The analyzer built from Settings and what reads it: ``analyze`` and the prefilter's
    questions.  Thread-safe: Presidio runs under a lock."""

    def __init__(self, settings: Settings, *, prefilter: bool | str = True) -> None:
        self.settings = settings
        self._allow = frozenset(build.allow_key(v) for v in settings.allow_values)
        self._lock = threading.Lock()  # Presidio's engines are not documented thread-safe
        self._analyzer = build.build_analyzer(settings)
        self._entities = list(dict.fromkeys(
            [*settings.entities, *([build.NER_ENTITY] if settings.spacy_model else [])]))
        self._propagate_names = "USERNAME" in self._entities
        self._person = (build.person_recognizer(self._analyzer)
                        if "PERSON" in self._entities else None)
        self._bare_skippers = build.bare_skippers(self._analyzer, self._entities,
                                                  settings.score_threshold)
        #: Texts from this size on go through the prefilter (PREFILTER_MIN_CHARS: all).
        self.prefilter_min_chars = PREFILTER_MIN_CHARS
        self._prefilter_choice = prefilter
        # Checked here, compiled on first use (a TypeError if one declares no prefilter).
        self._scanned = build.scanned_recognizers(self._analyzer, self._entities, settings)
        self._lifted_cache: dict[tuple[str, ...], tuple[str, ...]] = {}
        #: Keyed by a digest: the texts themselves are not kept.
        self._short_found: dict[bytes, Found] = {}
        self._direct = build.direct_analysis_applies(self._analyzer, self._entities)
        #: Entity -> (owner entity, score): its recognizers skip the candidates inside
        #: the owner's findings scoring above that (direct analysis, both entities on).
        self._owned_by: dict[str, tuple[str, float]] = {}
        if self._direct:
            for entity in self._entities:
                recognizer: Any
                for recognizer in self._analyzer.registry.get_recognizers(build.LANGUAGE,
                                                                          [entity]):
                    owner = getattr(recognizer, "owner_entity", None)
                    if owner is not None and owner in self._entities and owner != entity:
                        self._owned_by[entity] = (owner, float(recognizer.owned_above))
        self._owners = frozenset(owner for owner, _ in self._owned_by.values())
        #: Entities a recognizer of which may match across line breaks, however many
        #: (a known user name of several words): never analysed a wall apart from
        #: another text (see _regions_analysed).
        self._across_lines = frozenset(
            entity for entity in self._entities
            if any(getattr(r, "matches_across_lines", False)
                   for r in self._analyzer.registry.get_recognizers(build.LANGUAGE, [entity])))
        self._recognizers_of: dict[tuple[str, ...], list[Any]] = {}
        #: The no-op engine's artifacts, which no recognizer of the pack reads.
        self._artifacts: Any = (self._analyzer.nlp_engine.process_text("", build.LANGUAGE)
                                if self._direct else None)
        self._scanner_built = prefilter is False
        self._scanner_value: Scanner | None = None
        #: Findings accepted by a ``redactor scan`` baseline are left out (and every
        #: finding's digest is recorded in it); None: no baseline.
        self.baseline: Baseline | None = None

    def analyze(self, text: str, *, context: Sequence[str] | None = None,
                names: StreamNames | None = None) -> tuple[Finding, ...]:
        """Findings in ``text`` (offsets into it), disjoint and sorted by position.

        ``context`` are labels such as JSON keys or column names whose words count
        as context for every match.  ``names`` carries user names and the words of
        people's names across the pieces of one stream: see :class:`StreamNames`.
        """
        if not isinstance(text, str):
            raise TypeError(f"analyze() needs str, not {type(text).__name__}")
        return tuple(
            Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer)
            for s in self._spans(text, context, checked_names(names))
        )

    def _spans(self, text: str, context: Sequence[str] | None,
               names: StreamNames | None = None, only: frozenset[str] | None = None, *,
               document: Document | None = None, known: Memo | None = None) -> list[Span]:
        """Disjoint sorted spans of ``text``.

        ``names`` carries names across the pieces of a stream; ``document``, when given,
        carries the words of people's names across the values of a JSON document
        instead, and the findings from its first pass to its second.  ``known``: the
        recognizers' findings of texts analysed beforehand (see :meth:`found_many`).
        """
        if not text:
            return []

        # All invisible characters are beyond ASCII: the text's few distinct ones are
        # tested instead of searching the whole text.
        if _has_invisible(text):
            return self._spans_seen_through(text, context, names, only, document=document)
        escapes = _wide_escapes(text)
        if escapes:
            return self._spans_unescaped(text, escapes, context, names, only,
                                         document=document)
        from recognizers._text import normalize_for_matching

        normalized = normalize_for_matching(text)
        ctx = list(context) if context else None
        memo_key = (normalized, tuple(ctx) if ctx else None)
        scanner = self._scanner if len(text) >= self.prefilter_min_chars else None
        memo = document.memo if document is not None else None
        found = known.get(memo_key) if known is not None else None
        if found is None and memo is not None:
            found = memo.get(memo_key)
        if found is None:
            short_key = _short_key(normalized, ctx) if len(normalized) <= SHORT_CACHE_CHARS \
                else None
            # A JSON log repeats its keys and many of its values on every line.
            found = self._short_found.get(short_key) if short_key is not None else None
            if found is None:
                found = self._found(normalized, ctx, scanner)
                if short_key is not None:
                    self._remember_short(short_key, found)
        if memo is not None:
            memo[memo_key] = found
        if document is not None and document.person_pass is PersonPass.COLLECT:
            document.texts.append(normalized)  # every text: where names would spread
        if not found and not _carries_names(names, document):
            # Nothing found and no name carried in from elsewhere: nothing to propagate.
            return []
        spans = list(found.values())
        if self._propagate_names and (only is None or "USERNAME" in only):
            if document is not None:
                collect = document.person_pass is PersonPass.COLLECT
                spans.extend(usernames_propagated(
                    normalized, found, document.logins, collect_only=collect,
                    cue_counts=document.cues if collect else None))
            else:
                spans.extend(usernames_propagated(normalized, found, names))
        if self._person is not None and (only is None or "PERSON" in only):
            carried: set[str] | None
            if document is not None:
                carried, person_pass = document.persons, document.person_pass
            else:
                carried = names.person_words if names is not None else None
                person_pass = PersonPass.PROPAGATE
            spans.extend(persons_propagated(self._person, normalized, found, carried,
                                            person_pass))
        if only is not None:
            # Before overlaps are resolved: an entity left out never cuts another's span.
            spans = [s for s in spans if s.entity in only]
        spans = resolve(_logins_in_addresses_dropped(spans))
        if spans and "[" in text:
            spans = _outside_tokens(text, spans)
        if self._allow:
            spans = [s for s in spans
                     if build.allow_key(text[s.start:s.end]) not in self._allow]
        baseline = self.baseline
        if baseline is not None:
            spans = [s for s in spans if baseline.keeps(s.entity, text[s.start:s.end])]
        return spans

    def _remember_short(self, short_key: bytes, found: Found) -> None:
        """Keep a short text's findings (see SHORT_CACHE_CHARS), starting over when full."""
        if len(self._short_found) >= SHORT_CACHE_SIZE:
            self._short_found.clear()
        self._short_found[short_key] = found

    def _found(self, normalized: str, ctx: list[str] | None, scanner: Scanner | None) -> Found:
        """The recognizers' findings in ``normalized`` read with the labels ``ctx``."""
        from recognizers.prefilter import outside_trigger_alphabet

        if scanner is None or outside_trigger_alphabet(normalized):
            return self._analyze(normalized, self._entities, ctx)
        # Labels that hold a keyword of an entity lift every candidate of it, which the
        # triggers cannot see: those entities read the whole text.
        lifted = self._lifted_by(tuple(ctx)) if ctx else ()
        found = self._prefiltered(scanner, normalized, skip=lifted)
        if lifted:
            found.update(self._analyze(normalized, list(lifted), ctx))
        return found

    def _spans_seen_through(self, text: str, context: Sequence[str] | None,
                            names: StreamNames | None, only: frozenset[str] | None = None,
                            *, document: Document | None = None) -> list[Span]:
        """Spans of a text holding invisible format characters (a zero-width space or a
        soft hyphen inside ``529.982.247-25``): found in the text without them, then
        mapped back so that each covers the invisible characters inside it too."""
        # Stripped index q_k at which the k-th removed character stood.
        removed = [match.start() - k for k, match in enumerate(_INVISIBLE.finditer(text))]
        stripped = _INVISIBLE.sub("", text)

        def original(index: int) -> int:
            return index + bisect.bisect_right(removed, index)

        return [Span(original(s.start), original(s.end - 1) + 1, s.entity, s.score,
                     s.recognizer, s.distance)
                for s in self._spans(stripped, context, names, only, document=document)]

    def _spans_unescaped(self, text: str, escapes: list[re.Match[str]],
                         context: Sequence[str] | None, names: StreamNames | None,
                         only: frozenset[str] | None = None, *,
                         document: Document | None = None) -> list[Span]:
        """Spans of a text holding escapes of characters beyond ASCII (``escapes``, in
        order: see _wide_escapes), found in the text with each escape read as its
        character, then mapped back so that each covers the whole of every escape
        inside it (``Jo\u00e3o Pereira`` is one name, not ``Jo`` and ``Pereira``)."""
        at: list[int] = []  # where each escape's character stands in the decoded text
        written: list[tuple[int, int]] = []  # where each escape stands in ``text``
        removed: list[int] = []  # characters fewer in the decoded text after each one
        fewer = 0
        for escape in escapes:
            at.append(escape.start() - fewer)
            written.append(escape.span())
            fewer += escape.end() - escape.start() - 1
            removed.append(fewer)

        def start_of(index: int) -> int:
            k = bisect.bisect_right(at, index) - 1
            if k < 0:
                return index
            return written[k][0] if at[k] == index else index + removed[k]

        def end_of(index: int) -> int:  # after the character at ``index``
            k = bisect.bisect_right(at, index) - 1
            return written[k][1] if k >= 0 and at[k] == index else start_of(index) + 1

        return [Span(start_of(s.start), end_of(s.end - 1), s.entity, s.score, s.recognizer,
                     s.distance)
                for s in self._spans(_decoded(text, escapes), context, names, only,
                                     document=document)]

    def found_many(self, items: Iterable[tuple[str, Sequence[str] | None]]) -> Memo:
        """The recognizers' findings in each of many texts (each with its labels), as
        :meth:`_spans` would find them text by text, found in few runs of them all
        (see :meth:`_regions_analysed`): what ``_spans(text, labels, known=...)`` then
        takes instead of analysing the text again.  Texts the prefilter cannot read
        (an invisible character, characters its triggers cannot spell) are left out."""
        from recognizers._text import normalize_for_matching
        from recognizers.prefilter import outside_trigger_alphabet

        known: Memo = {}
        scanner = self._scanner
        if scanner is None:
            return known
        keys: list[tuple[str, tuple[str, ...] | None]] = []
        short_keys: list[bytes | None] = []
        texts: list[str] = []
        lifts: list[tuple[str, ...]] = []
        pending: set[tuple[str, tuple[str, ...] | None]] = set()
        for text, context in items:
            if not text or len(text) < self.prefilter_min_chars or _has_invisible(text) \
                    or _wide_escapes(text):
                continue
            normalized = normalize_for_matching(text)
            labels = tuple(context) if context else None
            key = (normalized, labels)
            if key in known or key in pending or outside_trigger_alphabet(normalized):
                continue
            short_key = _short_key(normalized, list(labels or ()) or None) \
                if len(normalized) <= SHORT_CACHE_CHARS else None
            cached = self._short_found.get(short_key) if short_key is not None else None
            if cached is not None:
                known[key] = cached
                continue
            short_keys.append(short_key)
            lifted = self._lifted_by(labels) if labels else ()
            pending.add(key)
            keys.append(key)
            texts.append(normalized)
            lifts.append(lifted)
        regions = scanner.regions_many(texts, lifts)
        founds = self._regions_analysed(scanner, texts, regions)
        for key, short_key, normalized, lifted, found in zip(keys, short_keys, texts, lifts,
                                                             founds, strict=True):
            if lifted:  # as _found adds them
                found.update(self._analyze(normalized, list(lifted), list(key[1] or ())))
            known[key] = found
            if short_key is not None:
                self._remember_short(short_key, found)
        return known

    # ------------------------------------------------------------------ prefilter

    @property
    def _scanner(self) -> Scanner | None:
        """The candidate scanner, compiled on first use (the placeholder check at
        construction is that use: every text is prefiltered)."""
        if not self._scanner_built:
            with self._lock:
                if not self._scanner_built:
                    self._scanner_value = build.build_scanner(
                        self._scanned, self.settings.score_threshold, self._prefilter_choice)
                    self._scanner_built = True
        return self._scanner_value

    @property
    def prefilter_backend(self) -> str | None:
        """``hyperscan``, ``re2`` or ``re`` when the prefilter is in use, else None."""
        scanner = self._scanner
        return scanner.backend if scanner is not None else None

    def candidate_hits(self, text: str) -> list[tuple[int, int]] | None:
        """Where the prefilter triggers hit in ``text`` (sorted), or None when it cannot tell.

        No finding of :meth:`analyze` on a piece of ``text`` lies away from these
        hits by more than the triggers' reach; a piece with no hit at all has none.
        """
        from recognizers._text import normalize_for_matching
        from recognizers.prefilter import outside_trigger_alphabet

        scanner = self._scanner
        if scanner is None or _wide_escapes(text):
            return None  # (an escape is read as its character: not what was scanned)
        normalized = normalize_for_matching(text)
        if outside_trigger_alphabet(normalized):
            return None
        return scanner.hits(normalized)

    def pieces_hit(self, pieces: Sequence[str]) -> set[int] | None:
        """Which of ``pieces`` (texts each analysed alone) a prefilter hit lies in, in one
        scan of them all, or None when the prefilter cannot tell.  A piece no hit lies
        in has no finding of its own under labels that lift nothing: its analysis would
        find no candidate.  Each hit is judged by its trigger's accept on its own piece
        (an accept that reads past a line break would read the next piece)."""
        from recognizers._text import normalize_for_matching
        from recognizers.prefilter import outside_trigger_alphabet

        scanner = self._scanner
        if scanner is None:
            return None
        joined = "\n".join(pieces)
        normalized = normalize_for_matching(joined)
        if outside_trigger_alphabet(normalized):
            return None
        starts = []
        position = 0
        for piece in pieces:
            starts.append(position)
            position += len(piece) + 1
        hit = scanner.pieces_hit(normalized, starts)
        # A piece with an invisible character is analysed without it, one with an escape
        # of a wide character with the character: a scan of it as written vouches for
        # nothing (``r\u200bcunha`` is read as ``rcunha``, ``Jo\\u00e3o`` as ``João``).
        # (Each is beyond ASCII, each escape holds "\\u": most blocks hold neither.)
        if not joined.isascii() or "\\u" in joined:
            hit.update(index for index, piece in enumerate(pieces)
                       if _has_invisible(piece) or _wide_escapes(piece))
        return hit

    def labels_lift(self, labels: Iterable[str]) -> bool:
        """Do ``labels`` (JSON keys, column names) hold a keyword of some entity?  Such
        a label lifts every candidate of that entity in the values under it, which the
        prefilter's triggers cannot see (``{"senha": "..."}``): a JSON line whose hits
        are none is clean only when its keys lift nothing.  Asked label by label (a
        set of labels lifts what its members lift), so each key is looked up once."""
        return any(self._lifted_by((label,)) for label in labels)

    def quiet_texts(self, labelled: Iterable[tuple[str, tuple[str, ...]]]) -> frozenset[str]:
        """Of the texts of ``labelled`` (each with the labels it will be analysed with),
        those no prefilter hit reaches in one scan of them all, joined by line breaks:
        :meth:`_spans` finds nothing of their own in them under labels that lift no
        entity (see :meth:`quiet_spans`).  Texts whose labels lift an entity are left
        out of the scan (they are analysed whatever it says), and so are texts holding
        an invisible character (analysed without it).  A text written twice is quiet
        only when no hit reaches any of its copies."""

        wanted: list[str] = []
        for text, labels in labelled:
            if not text or (labels and self._lifted_by(labels)):
                continue
            wanted.append(text)
        if not wanted:
            return frozenset()
        hit = self.pieces_hit(wanted)
        if hit is None:
            return frozenset()
        quiet: set[str] = set()
        touched: set[str] = set()
        for index, text in enumerate(wanted):
            (touched if index in hit else quiet).add(text)
        return frozenset(quiet - touched)

    def quiet_spans(self, text: str, context: Sequence[str] | None,
                    document: Document | None) -> bool:
        """Can :meth:`_spans` of ``text`` (a text :meth:`quiet_texts` found quiet) be
        taken as empty without running it?  Yes when ``context`` lifts no entity and
        nothing is carried into it: no document, the first pass over a document (whose
        record of the text is then kept here, as _spans keeps it: where the document's
        names would spread, and an empty finding for the second pass), or a second
        pass over a document that carries no names."""
        if context and self._lifted_by(tuple(context)):
            return False
        if document is None or not text:
            return True
        if document.person_pass is PersonPass.COLLECT:
            from recognizers._text import normalize_for_matching

            normalized = normalize_for_matching(text)
            document.texts.append(normalized)
            document.memo[(normalized, tuple(context) if context else None)] = {}
            return True
        return not document.carries()

    def may_contain(self, text: str) -> bool:
        """False only when no recognizer can find anything in ``text`` (no trigger hits).

        Cheap: one prefilter scan.  True whenever the prefilter cannot decide.
        """
        hits = self.candidate_hits(text)
        return hits is None or bool(hits)

    def _lifted_by(self, labels: tuple[str, ...]) -> tuple[str, ...]:
        """Entities some of whose recognizers count a word of ``labels`` as context."""
        cached = self._lifted_cache.get(labels)
        if cached is not None:
            return cached
        lifted: list[str] = []
        for entity in self._entities:
            for recognizer in self._analyzer.registry.get_recognizers(build.LANGUAGE, [entity]):
                words = getattr(recognizer, "context_words", None)
                if (words.in_labels(labels) if words is not None
                        else bool(getattr(recognizer, "context", None))):
                    lifted.append(entity)
                    break
        result = tuple(lifted)
        if sum(len(label) for label in labels) > LIFTED_CACHE_MAX_CHARS:
            return result
        if len(self._lifted_cache) >= LIFTED_CACHE_SIZE:
            self._lifted_cache.clear()
        self._lifted_cache[labels] = result
        return result

    def _prefiltered(self, scanner: Scanner, normalized: str,
                     skip: Sequence[str] = ()) -> Found:
        """Presidio over the candidate regions only, one entity at a time.

        The regions of an entity are joined with a line break between them and
        analysed together; a span is kept when it lies in its region's trusted part,
        where the recognizers saw all the text they read.  The result equals
        :meth:`_analyze` on the whole text (tests/integration/test_prefilter.py).
        """
        return self._regions_analysed(scanner, [normalized],
                                      [scanner.regions(normalized, skip)])[0]

    def _regions_analysed(self, scanner: Scanner, texts: Sequence[str],
                          regions: Sequence[dict[str, list[Region]]]) -> list[Found]:
        """The findings of each of ``texts`` in its candidate ``regions``, per entity.

        One text: its regions joined as :meth:`_prefiltered` says.  Several (the short
        texts of a block of JSON lines): an entity whose recognizers read at most
        BATCH_WALL characters past a region has the regions of all the texts analysed
        in one run, each text's apart from the next by a wall of line breaks wider
        than that reach, so that nothing of one text is read for another's findings
        (tests/integration/test_found_many.py); the others, and the entities one of
        whose recognizers matches across line breaks however many, text by text.
        """
        founds: list[Found] = [{} for _ in texts]
        entities: dict[str, None] = {}
        for by_entity in regions:
            entities.update(dict.fromkeys(by_entity))
        # An entity whose findings decide another's candidates first (see _owned).
        for entity in sorted(entities, key=lambda name: name not in self._owners):
            wall = scanner.reach(entity) + 1 if len(texts) > 1 else 0
            chosen = [i for i, by_entity in enumerate(regions) if entity in by_entity]
            together = wall <= BATCH_WALL and entity not in self._across_lines
            groups = [chosen] if together else [[i] for i in chosen]
            for group in groups:
                self._group_analysed(entity, [(i, texts[i], regions[i][entity]) for i in group],
                                     founds, wall)
        return founds

    def _group_analysed(self, entity: str, group: Sequence[tuple[int, str, list[Region]]],
                        founds: list[Found], wall: int) -> None:
        """The findings of ``entity`` in the regions of a group of texts (index, text,
        its regions), analysed in one run, added to ``founds``: each region followed by
        a line break, each text's after the one before by ``wall`` more."""
        pieces: list[str] = []
        starts: list[int] = []
        places: list[tuple[int, Region]] = []
        hits: list[tuple[int, int, str]] = []
        position = 0
        for index, text, text_regions in group:
            if pieces and wall:
                pieces.append("\n" * wall)
                position += wall
            for region in text_regions:
                starts.append(position)
                places.append((index, region))
                pieces.append(text[region.start:region.end])
                pieces.append("\n")
                shift = position - region.start
                hits.extend((max(first, region.start) + shift, min(last, region.end) + shift,
                             name) for first, last, name in region.hits)
                position += region.end - region.start + 1
        joined = "".join(pieces)
        owned = self._owned(entity, founds, places, starts)
        for key, span in self._analyze(joined, [entity], None, hits, owned=owned).items():
            at = bisect.bisect_right(starts, span.start) - 1
            index, region = places[at]
            shift = region.start - starts[at]
            start, end = span.start + shift, span.end + shift
            if not region.trust_from <= start < end <= region.trust_to:
                continue
            moved = Span(start, end, span.entity, span.score, span.recognizer,
                         span.distance, span.spread)
            new_key = (start, end, key[2])
            found = founds[index]
            if new_key not in found or found[new_key].score < moved.score:
                found[new_key] = moved

    def _owned(self, entity: str, founds: Sequence[Found],
               places: Sequence[tuple[int, Region]], starts: Sequence[int],
               ) -> dict[str, list[tuple[int, int]]] | None:
        """For an entity some of whose recognizers declare an ``owner_entity``: where that
        owner's findings so far score above the recognizer's ``owned_above`` (merged,
        in the coordinates of the joined regions: ``places`` are the regions joined, by
        text, ``starts`` where each begins), else None.  Such a recognizer skips
        the candidates inside them: whatever it found there would lie inside a finding
        that outranks it, and :func:`~redactor.engine.spans.resolve` would leave
        nothing of it (tests/integration/test_phones_once.py)."""
        wanted = self._owned_by.get(entity)
        if wanted is None:
            return None
        owner, above = wanted
        merged: list[tuple[int, int]] = []
        any_spans = False
        first = 0
        while first < len(places):
            index = places[first][0]
            last = first
            while last < len(places) and places[last][0] == index:
                last += 1
            spans = sorted((s.start, s.end) for s in founds[index].values()
                           if s.entity == owner and s.score > above)
            any_spans = any_spans or bool(spans)
            region_starts = [region.start for _, region in places[first:last]]
            for start, end in spans:
                at = bisect.bisect_right(region_starts, start) - 1
                if at < 0 or end > places[first + at][1].end:
                    continue  # not wholly inside one region of this entity
                shift = starts[first + at] - places[first + at][1].start
                low, high = start + shift, end + shift
                if merged and low <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
                else:
                    merged.append((low, high))
            first = last
        return {owner: merged} if any_spans else None

    # ------------------------------------------------------------------ Presidio

    def _analyze(self, normalized: str, entities: list[str], ctx: list[str] | None,
                 hits: Sequence[tuple[int, int, str]] | None = None, *,
                 owned: dict[str, list[tuple[int, int]]] | None = None) -> Found:
        """Presidio over the text in overlapping chunks: best span per (start, end, entity).

        ``hits``: the prefilter's accepted trigger hits in ``normalized`` (sorted), told
        to the recognizers that read only the candidates next to them (``takes_hits``).
        ``owned``: per owner entity, spans of ``normalized`` where its findings decide
        (see :meth:`_owned`).
        """
        from recognizers.username import SPREAD_KEY

        found: Found = {}
        threshold = self.settings.score_threshold
        # Labels holding a keyword lift every match of the recognizer: no candidate may
        # be skipped.  Other labels change nothing for it, and the text is read as
        # without labels (as the prefiltered path does).
        bare = frozenset(recognizer.id for recognizer in self._bare_skippers
                         if ctx is None or not recognizer.context_words.in_labels(ctx))
        size = len(normalized)
        for start, end, keep_from, keep_to in chunks(size, CHUNK_SIZE, CHUNK_OVERLAP):
            chunk = normalized[start:end]
            near: Sequence[tuple[int, int, str]] | None
            if hits is None:
                near = None
            elif start == 0 and end == size and all(
                    0 <= first < size and 0 < last <= size for first, last, _ in hits):
                near = hits  # one chunk, the whole text: every hit as it is
            else:
                near = [(max(first, start) - start, min(last, end) - start, name)
                        for first, last, name in hits if first < end and last > start]
            # An owned span cut by the chunk's edge is no longer whole: left out.
            inside = None if owned is None else {
                owner: [(first - start, last - start) for first, last in spans
                        if start <= first and last <= end]
                for owner, spans in owned.items()}
            try:
                with self._lock:
                    results = self._detect(chunk, entities, ctx, bare, hits=near,
                                           owned=inside)
            except Exception as exc:
                raise EngineError(f"analysis failed ({type(exc).__name__})") from None
            for result in results:
                absolute = start + result.start
                if not keep_from <= absolute < keep_to or result.score < threshold:
                    continue
                span = Span(absolute, start + result.end, result.entity_type,
                            float(result.score), build.recognizer_name(result),
                            build.context_distance(result),
                            (result.recognition_metadata or {}).get(SPREAD_KEY, ""))
                key = (span.start, span.end, span.entity)
                if key not in found or found[key].score < span.score:
                    found[key] = span
        return found

    def _recognizers(self, entities: list[str]) -> list[Any]:
        """The registry's recognizers of ``entities`` (remembered per entity list)."""
        key = tuple(entities)
        recognizers = self._recognizers_of.get(key)
        if recognizers is None:
            recognizers = self._analyzer.registry.get_recognizers(build.LANGUAGE, entities)
            self._recognizers_of[key] = recognizers
        return recognizers

    def _detect(self, text: str, entities: list[str], ctx: list[str] | None,
                bare: frozenset[str] = frozenset(), *,
                hits: Sequence[tuple[int, int, str]] | None = None,
                owned: dict[str, list[tuple[int, int]]] | None = None,
                ) -> list[RecognizerResult]:
        """Presidio's analysis of ``text``: AnalyzerEngine.analyze, or its steps run here.

        With the pack's recognizers alone (no spaCy model), the steps of
        ``AnalyzerEngine.analyze`` are taken directly: each recognizer's ``analyze``
        and ``enhance_using_context``, the threshold, ``remove_duplicates``.  That
        skips its per-call registry lookup, NLP pass and per-recognizer filtering of
        every result, which dominate on short texts and on dense findings; the result
        is the same (tests/integration/test_direct_analysis.py).  ``bare``: ids of the
        recognizers told to skip bare numbers no keyword lifts (BrPhoneRecognizer's
        ``bare_needs_keyword``).  ``hits``: the prefilter's hits in ``text``, passed to
        the recognizers that declare ``takes_hits`` (they read only the candidates next
        to a hit; the prefilter's contract makes that the same findings).  ``owned``:
        passed to the recognizers whose ``owner_entity`` it holds.  Hold ``_lock``.
        """
        threshold = self.settings.score_threshold
        if not self._direct:
            from recognizers.generic import bare_needs_keyword

            with bare_needs_keyword(bare):
                return self._analyzer.analyze(text=text, language=build.LANGUAGE,
                                              entities=entities, score_threshold=threshold,
                                              context=ctx)
        from recognizers.base import remove_duplicates

        results: list[RecognizerResult] = []
        recognizer: Any
        for recognizer in self._recognizers(entities):
            options: dict[str, Any] = {}
            if recognizer.id in bare:
                options["bare_needs_keyword"] = True
            if hits is not None and getattr(recognizer, "takes_hits", False):
                options["hits"] = hits
            owner = getattr(recognizer, "owner_entity", None)
            if owned is not None and owner in owned:
                options["owned"] = owned[owner]
            current = recognizer.analyze(text=text, entities=entities,
                                         nlp_artifacts=self._artifacts, **options)
            if not current and not (ctx and getattr(recognizer, "reads_labels", False)):
                continue
            for result in current:
                metadata = result.recognition_metadata
                if not metadata:
                    metadata = result.recognition_metadata = {}
                metadata.setdefault(result.RECOGNIZER_IDENTIFIER_KEY, recognizer.id)
                metadata.setdefault(result.RECOGNIZER_NAME_KEY, str(recognizer.name))
            # Neither the pack's context scoring nor Presidio's default reads the
            # other recognizers' results.
            enhanced = recognizer.enhance_using_context(text, current, [], self._artifacts,
                                                        ctx)
            results.extend(r for r in enhanced if r.score >= threshold)
        return remove_duplicates(results)


def _logins_in_addresses_dropped(spans: list[Span]) -> list[Span]:
    """Without the user names that lie inside an e-mail address found whole: the address
    is redacted as one (``jsilva@example.com``, not ``[USERNAME]@[EMAIL]``).  The name is
    still spread to its other occurrences (propagation ran before)."""
    addresses = sorted((s.start, s.end) for s in spans if s.entity == "EMAIL_ADDRESS")
    if not addresses or not any(s.entity == "USERNAME" for s in spans):
        return spans
    starts = [start for start, _ in addresses]
    # reach[i]: the furthest end of the addresses up to the i-th; a name is inside one of
    # them when one starting at or before it reaches its end.
    reach: list[int] = []
    for _, end in addresses:
        reach.append(max(end, reach[-1]) if reach else end)
    kept = []
    for span in spans:
        if span.entity == "USERNAME":
            index = bisect.bisect_right(starts, span.start) - 1
            if index >= 0 and span.end <= reach[index]:
                continue
        kept.append(span)
    return kept


def _outside_tokens(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` without those touching a pseudonym token of ``text``: a token is not
    personal data, and one whose 16 digits pass a card's checksum must come out of a
    second redaction as it went in."""
    from redactor.pseudonyms.tokens import find_tokens

    tokens = find_tokens(text)
    if not tokens:
        return spans
    kept: list[Span] = []
    index = 0
    for span in spans:  # both sorted by start
        while index < len(tokens) and tokens[index].end <= span.start:
            index += 1
        if index < len(tokens) and tokens[index].start < span.end:
            continue
        kept.append(span)
    return kept


def _short_key(normalized: str, ctx: list[str] | None) -> bytes:
    """The key of a short text and its labels in the findings cache: a 128-bit digest,
    so that the cache keeps no text."""
    # repr() writes the text and each label apart, whatever characters they hold.
    written = repr((normalized, tuple(ctx) if ctx else None))
    return hashlib.blake2b(written.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _has_invisible(text: str) -> bool:
    """Does ``text`` hold an invisible format character?  All of them are beyond ASCII:
    the text's few distinct such characters are tested instead of the whole text."""
    if text.isascii():
        return False  # (before the import: most texts are, and this is asked per text)
    from recognizers._text import wide_characters

    return _INVISIBLE.search("".join(wide_characters(text))) is not None


def _wide_escapes(text: str) -> list[re.Match[str]]:
    """The escapes of ``text`` (see _ESCAPE) of letters and combining marks beyond
    ASCII, in order (surrogates are neither: a pair is no character of its own)."""
    if "\\u" not in text:
        return []  # (most texts: one search at C speed)
    return [escape for escape in _ESCAPE.finditer(text)
            if _read_through(int(escape.group(1), 16))]


@lru_cache(maxsize=1024)
def _read_through(code: int) -> bool:
    """Is the character of an escape read instead of the escape: a letter or a mark
    beyond ASCII?"""
    import unicodedata

    return code >= 0x80 and unicodedata.category(chr(code))[0] in "LM"


def unescaped(text: str) -> str:
    """``text`` with its escapes of wide characters read as the characters."""
    escapes = _wide_escapes(text)
    return _decoded(text, escapes) if escapes else text


#: A byte that is not UTF-8, as the surrogateescape error handler keeps it.
_ESCAPED_BYTE: Final = re.compile("[\udc80-\udcff]")


def bytes_read(text: str) -> str:
    """``text`` with each byte that is not UTF-8 (see _ESCAPED_BYTE) read as the
    analysis reads it (Windows-1252: see recognizers._text.MATCHING_TABLE)."""
    if text.isascii() or _ESCAPED_BYTE.search(text) is None:
        return text
    from recognizers._text import MATCHING_TABLE

    return _ESCAPED_BYTE.sub(lambda byte: MATCHING_TABLE[ord(byte.group())], text)


def _decoded(text: str, escapes: list[re.Match[str]]) -> str:
    """``text`` with each of ``escapes`` (its own, in order) read as its character."""
    pieces: list[str] = []
    done = 0
    for escape in escapes:
        pieces.append(text[done:escape.start()])
        pieces.append(chr(int(escape.group(1), 16)))
        done = escape.end()
    pieces.append(text[done:])
    return "".join(pieces)


def seen_as_analysed(text: str) -> str:
    """``text`` as the recognizers read it: escapes of wide characters read as the
    characters, without invisible format characters, its look-alike characters mapped
    (what a carried name is looked for in)."""
    text = unescaped(text)
    if text.isascii():
        return text
    from recognizers._text import normalize_for_matching

    return normalize_for_matching(_INVISIBLE.sub("", text))


def _carries_names(names: StreamNames | None, document: Document | None) -> bool:
    """Do names found in other texts (a stream's earlier pieces, a JSON document's other
    values) reach this one, so that propagation may find something where the
    recognizers found nothing?"""
    if document is not None and document.carries():
        return True
    return names is not None and bool(names.usernames or names.caseless_usernames
                                      or names.person_words)


def checked_names(names: object) -> StreamNames | None:
    """``names`` when it is a StreamNames or None; a TypeError for anything else (a plain
    set, which carried marked strings before StreamNames)."""
    if names is None or isinstance(names, StreamNames):
        return names
    raise TypeError(f"names must be a redactor.engine.StreamNames, not {type(names).__name__}")

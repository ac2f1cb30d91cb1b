"""The engine: Presidio analyzer and anonymizer built once from Settings.

Text flow: a length-preserving normalisation (fullwidth digits, dash and space
variants to ASCII), Presidio analysis in chunks of bounded size, overlap
resolution so every detected character is covered exactly once, the allowlist,
then Presidio operators applied segment by segment onto the original text.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import math
import os
import re
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, MutableSet, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from redactor.config import OperatorSpec, Settings
from redactor.errors import ConfigError, EngineError
from redactor.patch import walk_json
from redactor.results import Finding, JsonPath, JsonRedaction, RedactionResult

if TYPE_CHECKING:
    from presidio_analyzer import AnalyzerEngine, RecognizerResult
    from presidio_anonymizer.entities import OperatorConfig

    from redactor.baseline import Baseline
    from redactor.candidates import Scanner

__all__ = ["Redactor"]

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
#: Score of further occurrences of a user name found by its shape.
PROPAGATED_SCORE: Final = 0.6
#: Characters of a JSON key put in front of its value for analysis.
KEY_PREFIX_CHARS: Final = 40
#: How redact_json writes an identifier held by a JSON number (see its docstring).
JSON_NUMBERS: Final = ("placeholder", "masked")
#: Hex characters of the HMAC kept in a hash token.
HASH_CHARS: Final = 12
LANGUAGE: Final = "pt"
#: Entity reported by a configured spaCy model's NER (people's names).
NER_ENTITY: Final = "PERSON"
#: Marks the words of people's names in a carried ``names`` set (user names never
#: start with it), and the user names compared in any case (SAP, Windows).
PERSON_MARK: Final = "\x00"
CASELESS_MARK: Final = "\x01"
#: A user name is not spread where it would add more than SPREAD_FLOOR occurrences and
#: over SPREAD_RATIO times as many as its cues in the text.
SPREAD_FLOOR: Final = 40
SPREAD_RATIO: Final = 20


#: Invisible format characters (Unicode category Cf in common use: soft hyphen, zero-width
#: and joiner characters, bidirectional marks, word joiner, BOM, tags).  Detection reads
#: through them, so they cannot split a value the recognizers would find.
_INVISIBLE: Final = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f]")

#: Context distance of a span no keyword lifted.
NO_KEYWORD: Final = 1 << 10


class _KeysOnly(set[str]):
    """Words of people's names being collected (no propagation yet): see redact_json."""


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    entity: str
    score: float
    recognizer: str
    #: Words between the span and the keyword that lifted it (NO_KEYWORD: none).
    distance: int = NO_KEYWORD
    #: A user name to spread to its other occurrences, and how ("exact", "caseless");
    #: "" for any other span (recognizers.username.SPREAD_KEY).
    spread: str = ""


def _chunks(length: int, size: int, overlap: int) -> Iterator[tuple[int, int, int, int]]:
    """Yield ``(chunk_start, chunk_end, keep_from, keep_to)`` covering ``range(length)``.

    A span found in a chunk is kept when it starts in ``[keep_from, keep_to)``; the
    half-overlap on each side guarantees it was seen whole, with its context.
    """
    if length <= size:
        yield 0, length, 0, length
        return
    half = overlap // 2
    start = 0
    keep_from = 0
    while True:
        end = min(length, start + size)
        if end == length:
            yield start, end, keep_from, length
            return
        keep_to = end - half
        yield start, end, keep_from, keep_to
        keep_from = keep_to
        start = end - overlap


def _resolve(spans: list[_Span]) -> list[_Span]:
    """Make spans disjoint while covering every character any of them covered.

    Higher scores win, then longer spans; a losing span keeps the parts of it that
    no winner covers, so nothing detected is ever left in the output.  Spans are
    first grouped into clusters of transitively overlapping ones, so the work is
    linear in the number of spans when overlaps are rare, as they are.
    """
    resolved: list[_Span] = []
    cluster: list[_Span] = []
    cluster_end = -1
    for span in sorted(spans, key=lambda s: s.start):
        if cluster and span.start >= cluster_end:
            resolved.extend(_resolve_cluster(cluster))
            cluster = []
        cluster.append(span)
        cluster_end = max(cluster_end, span.end) if len(cluster) > 1 else span.end
    if cluster:
        resolved.extend(_resolve_cluster(cluster))
    return resolved


def _resolve_cluster(spans: list[_Span]) -> list[_Span]:
    if len(spans) == 1:
        return spans
    # Higher score first; between equal scores the nearer keyword decides (a number
    # next to "PIS" is a PIS even if it also passes the CPF check), then length.
    ordered = sorted(spans, key=lambda s: (-s.score, s.distance, -(s.end - s.start), s.start,
                                           s.entity))
    taken: list[_Span] = []
    for span in ordered:
        pieces = [(span.start, span.end)]
        for other in taken:
            next_pieces: list[tuple[int, int]] = []
            for start, end in pieces:
                if other.end <= start or end <= other.start:
                    next_pieces.append((start, end))
                    continue
                if start < other.start:
                    next_pieces.append((start, other.start))
                if other.end < end:
                    next_pieces.append((other.end, end))
            pieces = next_pieces
            if not pieces:
                break
        taken.extend(_Span(s, e, span.entity, span.score, span.recognizer, span.distance)
                     for s, e in pieces)
    return sorted(taken, key=lambda s: s.start)


class Redactor:
    """Detects and replaces personal data.  Build once, call many times; thread-safe."""

    def __init__(self, settings: Settings | None = None,
                 environ: Mapping[str, str] | None = None, *,
                 prefilter: bool | str = True, hash_key: bytes | None = None) -> None:
        if settings is None:
            from redactor.config import load_settings

            settings = load_settings()
        self.settings = settings
        self._allow = frozenset(_allow_key(v) for v in settings.allow_values)
        # ``hash_key``: the key itself, read elsewhere (a Spark job ships it to executors,
        # where neither the variable nor the key file exists).
        self._hash_key = (_checked_key(settings, hash_key) if hash_key is not None else
                          _hash_key(settings, os.environ if environ is None else environ))
        self._lock = threading.Lock()  # Presidio's engines are not documented thread-safe
        self._analyzer = _build_analyzer(settings)
        self._entities = list(dict.fromkeys(
            [*settings.entities, *([NER_ENTITY] if settings.spacy_model else [])]))
        self._operators = {e: self._operator_config(e) for e in self._entities}
        self._operate = _operator_functions(self._operators)
        self._propagate_names = "USERNAME" in self._entities
        self._person = _person_recognizer(self._analyzer) if "PERSON" in self._entities else None
        self._bare_skippers = _bare_skippers(self._analyzer, self._entities,
                                             settings.score_threshold)
        #: Texts from this size on go through the prefilter (PREFILTER_MIN_CHARS: all).
        self.prefilter_min_chars = PREFILTER_MIN_CHARS
        self._prefilter_choice = prefilter
        self._lifted_cache: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._direct = _direct_analysis_applies(self._analyzer, self._entities)
        self._recognizers_of: dict[tuple[str, ...], list[Any]] = {}
        #: The no-op engine's artifacts, which no recognizer of the pack reads.
        self._artifacts: Any = (self._analyzer.nlp_engine.process_text("", LANGUAGE)
                                if self._direct else None)
        self._scanner_built = prefilter is False
        self._scanner_value: Scanner | None = None
        #: Findings accepted by a ``redactor scan`` baseline are left out (and every
        #: finding's digest is recorded in it); None: no baseline.
        self.baseline: Baseline | None = None
        self._check_placeholders()

    # ------------------------------------------------------------------ analysis

    def analyze(self, text: str, *, context: Sequence[str] | None = None,
                names: MutableSet[str] | None = None) -> tuple[Finding, ...]:
        """Findings in ``text`` (offsets into it), disjoint and sorted by position.

        ``context`` are labels such as JSON keys or column names whose words count
        as context for every match.  ``names`` carries user names across the pieces
        of one stream: names in it are redacted here too, and names found here are
        added to it (it holds personal data: keep it in memory only).
        """
        if not isinstance(text, str):
            raise TypeError(f"analyze() needs str, not {type(text).__name__}")
        return tuple(
            Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer)
            for s in self._spans(text, context, names)
        )

    def _spans(self, text: str, context: Sequence[str] | None,
               names: MutableSet[str] | None = None,
               only: frozenset[str] | None = None, *,
               persons: MutableSet[str] | None = None,
               memo: dict[Any, dict[tuple[int, int, str], _Span]] | None = None) -> list[_Span]:
        """Disjoint sorted spans of ``text``.

        ``names`` carries user names (and, marked with PERSON_MARK, the words of
        people's names) across the pieces of a stream; ``persons``, when given, carries
        the words of people's names instead (across the values of a JSON document).
        ``memo`` keeps the recognizers' findings per text and labels, for a second
        pass over the same texts (see redact_json).
        """
        if not text:
            return []
        from recognizers._text import wide_characters

        # All invisible characters are beyond ASCII: the text's few distinct ones are
        # tested instead of searching the whole text.
        if not text.isascii() and _INVISIBLE.search("".join(wide_characters(text))):
            return self._spans_seen_through(text, context, names, only, persons=persons, memo=memo)
        from recognizers._text import normalize_for_matching
        from recognizers.prefilter import outside_trigger_alphabet

        normalized = normalize_for_matching(text)
        ctx = list(context) if context else None
        memo_key = (normalized, tuple(ctx) if ctx else None)
        scanner = self._scanner if len(text) >= self.prefilter_min_chars else None
        if memo is not None and memo_key in memo:
            found = memo[memo_key]
        elif scanner is not None and not outside_trigger_alphabet(normalized):
            # Labels that hold a keyword of an entity lift every candidate of it, which
            # the triggers cannot see: those entities read the whole text.
            lifted = self._lifted_by(tuple(ctx)) if ctx else ()
            found = self._prefiltered(scanner, normalized, skip=lifted)
            if lifted:
                found.update(self._analyze(normalized, list(lifted), ctx))
        else:
            found = self._analyze(normalized, self._entities, ctx)
        if memo is not None:
            memo[memo_key] = found
        spans = list(found.values())
        if self._propagate_names and (only is None or "USERNAME" in only):
            spans.extend(self._propagated(normalized, found, names))
        if self._person is not None and (only is None or "PERSON" in only):
            spans.extend(self._persons_propagated(normalized, found, names, persons))
        if only is not None:
            # Before overlaps are resolved: an entity left out never cuts another's span.
            spans = [s for s in spans if s.entity in only]
        spans = _resolve(spans)
        if self._allow:
            spans = [s for s in spans if _allow_key(text[s.start:s.end]) not in self._allow]
        baseline = self.baseline
        if baseline is not None:
            spans = [s for s in spans if baseline.keeps(s.entity, text[s.start:s.end])]
        return spans

    def _spans_seen_through(self, text: str, context: Sequence[str] | None,
                            names: MutableSet[str] | None,
                            only: frozenset[str] | None = None, *,
                            persons: MutableSet[str] | None = None,
                            memo: dict[Any, dict[tuple[int, int, str], _Span]] | None = None
                            ) -> list[_Span]:
        """Spans of a text holding invisible format characters (a zero-width space or a
        soft hyphen inside ``529.982.247-25``): found in the text without them, then
        mapped back so that each covers the invisible characters inside it too."""
        # Stripped index q_k at which the k-th removed character stood.
        removed = [match.start() - k for k, match in enumerate(_INVISIBLE.finditer(text))]
        stripped = _INVISIBLE.sub("", text)

        def original(index: int) -> int:
            return index + bisect.bisect_right(removed, index)

        return [_Span(original(s.start), original(s.end - 1) + 1, s.entity, s.score,
                      s.recognizer, s.distance)
                for s in self._spans(stripped, context, names, only, persons=persons, memo=memo)]

    @property
    def _scanner(self) -> Scanner | None:
        """The candidate scanner, compiled on first use (the placeholder check at
        construction is that use: every text is prefiltered)."""
        if not self._scanner_built:
            with self._lock:
                if not self._scanner_built:
                    self._scanner_value = _build_scanner(
                        self._analyzer, self._entities, self.settings.score_threshold,
                        self._prefilter_choice)
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
        if scanner is None:
            return None
        normalized = normalize_for_matching(text)
        if outside_trigger_alphabet(normalized):
            return None
        return scanner.hits(normalized)

    def labels_lift(self, labels: Iterable[str]) -> bool:
        """Do ``labels`` (JSON keys, column names) hold a keyword of some entity?  Such
        a label lifts every candidate of that entity in the values under it, which the
        prefilter's triggers cannot see (``{"senha": "..."}``): a JSON line whose hits
        are none is clean only when its keys lift nothing.  Asked label by label (a
        set of labels lifts what its members lift), so each key is looked up once."""
        return any(self._lifted_by((label,)) for label in labels)

    def may_contain(self, text: str) -> bool:
        """False only when no recognizer can find anything in ``text`` (no trigger hits).

        Cheap: one prefilter scan.  True whenever the prefilter cannot decide.
        """
        hits = self.candidate_hits(text)
        return hits is None or bool(hits)

    def _analyze(self, normalized: str, entities: list[str],
                 ctx: list[str] | None) -> dict[tuple[int, int, str], _Span]:
        """Presidio over the text in overlapping chunks: best span per (start, end, entity)."""
        from recognizers.username import SPREAD_KEY

        found: dict[tuple[int, int, str], _Span] = {}
        threshold = self.settings.score_threshold
        for start, end, keep_from, keep_to in _chunks(len(normalized), CHUNK_SIZE, CHUNK_OVERLAP):
            chunk = normalized[start:end]
            try:
                with self._lock:
                    # Labels holding a keyword lift every match of the recognizer: no
                    # candidate may be skipped.  Other labels change nothing for it, and
                    # the text is read as without labels (as the prefiltered path does).
                    for recognizer in self._bare_skippers:
                        recognizer.bare_needs_keyword = (
                            ctx is None or not recognizer.context_words.in_labels(ctx))
                    results = self._detect(chunk, entities, ctx)
            except Exception as exc:
                raise EngineError(f"analysis failed ({type(exc).__name__})") from None
            for result in results:
                absolute = start + result.start
                if not keep_from <= absolute < keep_to or result.score < threshold:
                    continue
                span = _Span(absolute, start + result.end, result.entity_type,
                             float(result.score), _recognizer_name(result),
                             _context_distance(result),
                             (result.recognition_metadata or {}).get(SPREAD_KEY, ""))
                key = (span.start, span.end, span.entity)
                if key not in found or found[key].score < span.score:
                    found[key] = span
        return found

    def _lifted_by(self, labels: tuple[str, ...]) -> tuple[str, ...]:
        """Entities some of whose recognizers count a word of ``labels`` as context."""
        cached = self._lifted_cache.get(labels)
        if cached is not None:
            return cached
        lifted: list[str] = []
        for entity in self._entities:
            for recognizer in self._analyzer.registry.get_recognizers(LANGUAGE, [entity]):
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

    def _detect(self, text: str, entities: list[str],
                ctx: list[str] | None) -> list[RecognizerResult]:
        """Presidio's analysis of ``text``: AnalyzerEngine.analyze, or its steps run here.

        With the pack's recognizers alone (no spaCy model), the steps of
        ``AnalyzerEngine.analyze`` are taken directly: each recognizer's ``analyze``
        and ``enhance_using_context``, the threshold, ``remove_duplicates``.  That
        skips its per-call registry lookup, NLP pass and per-recognizer filtering of
        every result, which dominate on short texts and on dense findings; the result
        is the same (tests/integration/test_direct_analysis.py).  Hold ``_lock``.
        """
        threshold = self.settings.score_threshold
        if not self._direct:
            return self._analyzer.analyze(text=text, language=LANGUAGE, entities=entities,
                                          score_threshold=threshold, context=ctx)
        from presidio_analyzer import EntityRecognizer

        key = tuple(entities)
        recognizers = self._recognizers_of.get(key)
        if recognizers is None:
            recognizers = self._analyzer.registry.get_recognizers(LANGUAGE, entities)
            self._recognizers_of[key] = recognizers
        results: list[RecognizerResult] = []
        recognizer: Any
        for recognizer in recognizers:
            current = recognizer.analyze(text=text, entities=entities,
                                         nlp_artifacts=self._artifacts)
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
        return EntityRecognizer.remove_duplicates(results)

    def _prefiltered(self, scanner: Scanner, normalized: str,
                     skip: Sequence[str] = ()) -> dict[tuple[int, int, str], _Span]:
        """Presidio over the candidate regions only, one entity at a time.

        The regions of an entity are joined with a line break between them and
        analysed together; a span is kept when it lies in its region's trusted part,
        where the recognizers saw all the text they read.  The result equals
        :meth:`_analyze` on the whole text (tests/integration/test_prefilter.py).
        """
        found: dict[tuple[int, int, str], _Span] = {}
        for entity, regions in scanner.regions(normalized).items():
            if entity in skip:
                continue
            pieces: list[str] = []
            starts: list[int] = []
            position = 0
            for region in regions:
                starts.append(position)
                pieces.append(normalized[region.start:region.end])
                pieces.append("\n")
                position += region.end - region.start + 1
            joined = "".join(pieces)
            for key, span in self._analyze(joined, [entity], None).items():
                index = bisect.bisect_right(starts, span.start) - 1
                region = regions[index]
                shift = region.start - starts[index]
                start, end = span.start + shift, span.end + shift
                if not region.trust_from <= start < end <= region.trust_to:
                    continue
                moved = _Span(start, end, span.entity, span.score, span.recognizer,
                              span.distance, span.spread)
                new_key = (start, end, key[2])
                if new_key not in found or found[new_key].score < moved.score:
                    found[new_key] = moved
        return found

    def _propagated(self, normalized: str, found: dict[tuple[int, int, str], _Span],
                    carried: MutableSet[str] | None = None) -> list[_Span]:
        """A user name found by its shape, when it is no common word, is personal data
        wherever else it stands as the same whole token (in any case for SAP and Windows
        names) -- unless it stands there so often that the cues are no evidence.

        The unit over which cues and spread are counted is one analysed text: a hook's
        value, a batch block, a JSON document's strings, a Spark batch.  Names carried
        from earlier pieces of a stream (``carried``) count as one cue each.
        """
        from recognizers.username import SPREAD_CASELESS

        cues: dict[str, int] = {}
        for span in found.values():
            if span.spread:
                value = normalized[span.start:span.end]
                key = CASELESS_MARK + value.casefold() if span.spread == SPREAD_CASELESS \
                    else value
                cues[key] = cues.get(key, 0) + 1
        names: set[str] = set(cues)
        if carried is not None:
            carried |= names
            names = {name for name in carried if not name.startswith(PERSON_MARK)}
        if not names:
            return []
        from recognizers.username import login_spans

        exact = {name for name in names if not name.startswith(CASELESS_MARK)}
        caseless = {name[1:] for name in names if name.startswith(CASELESS_MARK)}
        extra: list[_Span] = []
        for (name, folded), spans in login_spans(normalized, exact, caseless).items():
            key = CASELESS_MARK + name if folded else name
            new = [(start, end) for start, end in spans if (start, end, "USERNAME") not in found]
            if len(new) > SPREAD_FLOOR and len(new) > SPREAD_RATIO * max(cues.get(key, 0), 1):
                continue  # a word cued once and found hundreds of times is a word
            extra.extend(_Span(start, end, "USERNAME", PROPAGATED_SCORE, "UsernameRecognizer")
                         for start, end in new)
        return extra

    def _persons_propagated(self, normalized: str, found: dict[tuple[int, int, str], _Span],
                            names: MutableSet[str] | None,
                            persons: MutableSet[str] | None) -> list[_Span]:
        """The given name (and rare surnames) of a name found in full are personal data
        wherever else they stand alone as a name (PersonRecognizer.standalone)."""
        person = self._person
        assert person is not None
        keys: set[str] = set()
        for span in found.values():
            if span.entity == "PERSON" and span.recognizer == "PersonRecognizer":
                keys |= person.propagation_keys(normalized[span.start:span.end])
        if isinstance(persons, _KeysOnly):
            persons |= keys  # the first pass over a JSON document only collects
            return []
        if persons is not None:
            persons |= keys
            keys = set(persons)
        elif names is not None:
            names |= {PERSON_MARK + key for key in keys}
            keys = {name[1:] for name in names if name.startswith(PERSON_MARK)}
        if not keys:
            return []
        taken = sorted((s.start, s.end) for s in found.values() if s.entity == "PERSON")
        return [_Span(start, end, "PERSON", PROPAGATED_SCORE, "PersonRecognizer")
                for start, end in person.standalone(normalized, keys, taken)]

    # ------------------------------------------------------------------ redaction

    def redact(self, text: str, *, context: Sequence[str] | None = None,
               names: MutableSet[str] | None = None) -> RedactionResult:
        """Return ``text`` with every finding replaced by its entity's operator.

        ``names``: see :meth:`analyze`.
        """
        if not isinstance(text, str):
            raise TypeError(f"redact() needs str, not {type(text).__name__}")
        spans = self._spans(text, context, names)
        findings = tuple(
            Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer) for s in spans
        )
        return RedactionResult(self._apply(text, spans), findings)

    def apply(self, text: str, findings: Sequence[Finding]) -> str:
        """Replace the given findings (from :meth:`analyze` on this text) with their operators."""
        spans = [_Span(f.start, f.end, f.entity_type, f.score, f.recognizer)
                 for f in sorted(findings)]
        return self._apply(text, spans)

    def redact_json(self, value: Any, *, keys_and_numbers: bool = False,
                    entities: Collection[str] | None = None,
                    numbers: str = "placeholder") -> JsonRedaction:
        """Redact every string leaf of a JSON value (dict, list, str, numbers...).

        Each leaf is analysed as ``"<key>: <leaf>"``, so that its key reads as it
        would in a log line (``{"user": "jsilva"}`` is a user name, ``{"cpf": ...}`` is
        context); the keys above it count as context too.  By default keys, numbers
        and booleans are kept as they are (the contract of batch JSON files).

        ``keys_and_numbers`` (the hooks' contract): an integer, or an integral float,
        whose digits are a detected identifier (``{"cpf": 52998224725}``,
        ``52998224725.0``) becomes the placeholder string,
        and an object key that holds a detected value is redacted like a string (a
        key that then collides with another gets ``#2``...).

        ``numbers`` (with ``keys_and_numbers``): ``"placeholder"`` writes such a number
        as the placeholder string; ``"masked"`` keeps its type, every digit a 9
        (``52998224725`` → ``99999999999``, ``52998224725.0`` → ``99999999999.0``), for
        typed loads that a string would break.

        ``entities`` limits what is redacted to those entities (the hooks' tool input
        leaves names and addresses alone: see ``Settings.input_entities``).

        Returns the new value, the findings with their paths (offsets into the leaf
        or key; paths name keys as redacted), and the minimal patch: the top-level
        keys (or indexes) whose values changed, under their new names.
        """
        if numbers not in JSON_NUMBERS:
            raise ValueError(f"numbers must be one of {JSON_NUMBERS}")
        findings: list[Finding] = []
        only = frozenset(entities) if entities is not None else None
        # The words of people's names found anywhere in the document are redacted in
        # its other values too: a first pass collects them, and the second reuses the
        # first's findings.
        persons: set[str] | None = None
        memo: dict[Any, dict[tuple[int, int, str], _Span]] | None = None

        def spans_of(path: JsonPath, text: str) -> list[_Span]:
            labels = [p for p in path if isinstance(p, str)]
            key = path[-1] if path and isinstance(path[-1], str) else ""
            prefix = f"{key[:KEY_PREFIX_CHARS]}: " if key and "\n" not in key else ""
            shift = len(prefix)
            spans = []
            for span in self._spans(prefix + text, labels[-2:] or None, None, only,
                                    persons=persons, memo=memo):
                start, end = max(span.start - shift, 0), span.end - shift
                if end > 0:
                    spans.append(_Span(start, end, span.entity, span.score, span.recognizer))
            return spans

        def record(path: JsonPath, spans: list[_Span]) -> None:
            findings.extend(
                Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer, path)
                for s in spans
            )

        def one_leaf(path: JsonPath, leaf: str) -> str:
            spans = spans_of(path, leaf)
            record(path, spans)
            return self._apply(leaf, spans)

        def one_number(path: JsonPath, item: Any) -> Any:
            # An integral float is the integer it holds (a column with nulls exported
            # by pandas: 52998224725.0); a float holds 15 digits exactly, enough for a
            # CPF or a CNPJ.  Identifiers have at most ~25 digits; larger integers are
            # never one.
            if isinstance(item, float) and math.isfinite(item) and item.is_integer() \
                    and abs(item) < 1e25:
                item_digits = int(item)
            elif type(item) is int and item.bit_length() <= 90:
                item_digits = item
            else:
                return item
            digits = str(abs(item_digits))
            spans = spans_of(path, digits)
            if not spans:
                # A number loses a CPF's or CNPJ's leading zeros; its key says what it was.
                key = str(path[-1]).casefold() if path and isinstance(path[-1], str) else ""
                width = 14 if "cnpj" in key else 11 if "cpf" in key else 0
                if len(digits) >= width:
                    return item
                digits = digits.zfill(width)
                spans = spans_of(path, digits)
            if not spans:
                return item
            record(path, spans)
            if numbers == "masked":
                nines = int("9" * len(str(abs(item_digits))))
                masked = -nines if item_digits < 0 else nines
                return float(masked) if isinstance(item, float) else masked
            return self._apply(digits, spans)

        def key_spans(path: JsonPath, key: str) -> list[_Span]:
            labels = [p for p in path if isinstance(p, str)]
            return self._spans(key, labels[-1:] or None, None, only, persons=persons, memo=memo)

        def one_key(path: JsonPath, key: str) -> str:
            spans = key_spans(path, key)
            if not spans:
                return key
            redacted = self._apply(key, spans)
            record((*path, redacted), spans)
            return redacted

        if self._person is not None and (only is None or "PERSON" in only):
            # First pass: collect the words of the names in leaves and keys (no
            # propagation yet); the second pass propagates them and reuses its findings.
            persons, memo = _KeysOnly(), {}

            def collect_leaf(path: JsonPath, text: str) -> str:
                spans_of(path, text)
                return text

            def collect_key(path: JsonPath, key: str) -> str:
                key_spans(path, key)
                return key

            walk_json(value, collect_leaf, key=collect_key if keys_and_numbers else None)
            persons = set(persons)
        if keys_and_numbers:
            new_value = walk_json(value, one_leaf, key=one_key, scalar=one_number)
        else:
            new_value = walk_json(value, one_leaf)
        patch: dict[str | int, Any] = {}
        if isinstance(value, dict):
            for (old_key, old), (new_key, new) in zip(value.items(), new_value.items(),
                                                      strict=True):
                if new_key != old_key or new != old:
                    patch[new_key] = new
        elif isinstance(value, list | tuple):
            patch = {i: new_value[i] for i in range(len(value)) if new_value[i] != value[i]}
        return JsonRedaction(new_value, tuple(findings), patch)

    def _apply(self, text: str, spans: list[_Span]) -> str:
        """Replace each span with its entity's Presidio operator.

        The spans are disjoint and sorted (see :func:`_resolve`), so the operators are
        applied one span at a time, as Presidio's AnonymizerEngine applies them, without
        its pairwise conflict check, which costs quadratic time on dense findings
        (tests/integration/test_redact.py proves the same output).
        """
        if not spans:
            return text
        out: list[str] = []
        cursor = 0
        try:
            for span in spans:
                out.append(text[cursor:span.start])
                out.append(self._operate[span.entity](text[span.start:span.end]))
                cursor = span.end
        except Exception as exc:
            raise EngineError(f"anonymization failed ({type(exc).__name__})") from None
        out.append(text[cursor:])
        return "".join(out)

    # ------------------------------------------------------------------ operators

    def _operator_config(self, entity: str) -> OperatorConfig:
        from presidio_anonymizer.entities import OperatorConfig

        spec = self.settings.operator_for(entity)
        if spec.kind == "replace":
            return OperatorConfig("replace", {"new_value": spec.render(entity)})
        if spec.kind == "mask":
            return OperatorConfig("mask", {"masking_char": spec.mask_char,
                                           "chars_to_mask": 1 << 30, "from_end": False})
        if spec.kind == "redact":
            return OperatorConfig("redact", {})
        return OperatorConfig("custom", {"lambda": self._hasher(entity, spec)})

    def _hasher(self, entity: str, spec: OperatorSpec) -> Callable[[str], str]:
        key = self._hash_key
        if key is None:
            raise _missing_hash_key(self.settings, entity)

        def token(value: str) -> str:
            digest = hmac.new(key, f"{entity}\0{_allow_key(value)}".encode(),
                              hashlib.sha256).hexdigest()[:HASH_CHARS]
            return spec.render(entity, digest)

        return token

    def _check_placeholders(self) -> None:
        """Placeholders must never be detected themselves, or redaction is not idempotent."""
        for entity in self.settings.entities:
            spec = self.settings.operator_for(entity)
            if spec.kind not in ("replace", "hash"):
                continue
            sample = spec.render(entity, "0" * HASH_CHARS)
            hits = self._spans(f"valor {sample} fim", None)
            if hits:
                raise ConfigError(
                    f"the placeholder configured for {entity} is itself detected as "
                    f"{hits[0].entity}; choose a template without digits or names"
                )


# ---------------------------------------------------------------------- building


def _operator_functions(configs: Mapping[str, OperatorConfig]) -> dict[str, Callable[[str], str]]:
    """One function per entity applying its Presidio anonymize operator (validated here)."""
    from presidio_anonymizer.operators import OperatorsFactory, OperatorType

    factory = OperatorsFactory()  # type: ignore[no-untyped-call]
    functions: dict[str, Callable[[str], str]] = {}
    for entity, config in configs.items():
        operator = factory.create_operator_class(config.operator_name, OperatorType.Anonymize)
        try:
            operator.validate(params=config.params)
        except Exception as exc:
            raise ConfigError(f"the operator for {entity} is invalid "
                              f"({type(exc).__name__})") from None

        def apply(value: str, operator: Any = operator, params: Any = config.params) -> str:
            return str(operator.operate(text=value, params=params))

        functions[entity] = apply
    return functions


def _person_recognizer(analyzer: AnalyzerEngine) -> Any:
    """The pack's PersonRecognizer in the registry, or None (a spaCy model's alone)."""
    from recognizers.person import PersonRecognizer

    for recognizer in analyzer.registry.get_recognizers(LANGUAGE, [NER_ENTITY]):
        if isinstance(recognizer, PersonRecognizer):
            return recognizer
    return None


def _direct_analysis_applies(analyzer: AnalyzerEngine, entities: list[str]) -> bool:
    """True when Redactor._detect may run Presidio's analysis steps itself.

    That holds for the pack's recognizers with the no-op NLP engine: none reads the
    NLP artifacts or the other recognizers' results, and context is scored by each
    recognizer (the engine's own enhancer is the pack's pass-through).
    """
    from presidio_analyzer import EntityRecognizer
    from presidio_analyzer.nlp_engine import NoOpNlpEngine

    from recognizers.base import RawContextMixin

    if not isinstance(analyzer.nlp_engine, NoOpNlpEngine):
        return False
    for recognizer in analyzer.registry.get_recognizers(LANGUAGE, entities):
        if not type(recognizer).__module__.startswith("recognizers."):
            return False
        own = type(recognizer).enhance_using_context
        if not (isinstance(recognizer, RawContextMixin)
                or own is EntityRecognizer.enhance_using_context
                or getattr(recognizer, "reads_labels", False)):
            return False
    return True


def _bare_skippers(analyzer: AnalyzerEngine, entities: list[str],
                   threshold: float) -> list[Any]:
    """Recognizers that may skip bare numbers nobody's keyword can lift (see BrPhoneRecognizer)."""
    from recognizers.generic import BARE_NUMBER_SCORE

    if threshold <= BARE_NUMBER_SCORE:
        return []
    return [r for r in analyzer.registry.get_recognizers(LANGUAGE, entities=entities)
            if hasattr(r, "bare_needs_keyword")]


def _build_scanner(analyzer: AnalyzerEngine, entities: list[str], threshold: float,
                   prefilter: bool | str) -> Scanner | None:
    """The candidate scanner, or None when some recognizer declares no prefilter.

    ``prefilter`` is False (never), True (the fastest backend installed) or a backend
    name ("hyperscan", "re2", "re").
    """
    if prefilter is False:
        return None
    from redactor.candidates import Scanner

    declared = []
    # The registry's order varies between processes; a stable one keeps the compiled
    # database's cache key stable.
    found = analyzer.registry.get_recognizers(LANGUAGE, entities=entities)
    def order(recognizer: Any) -> tuple[list[str], str]:
        return sorted(recognizer.supported_entities), str(recognizer.name)

    for recognizer in sorted(found, key=order):
        method = getattr(recognizer, "prefilter", None)
        if method is None:
            return None
        declared.append(method(threshold))
    return Scanner(declared, backend=None if prefilter is True else prefilter)


def _context_distance(result: RecognizerResult) -> int:
    from recognizers.base import CONTEXT_DISTANCE_KEY

    metadata = result.recognition_metadata or {}
    value = metadata.get(CONTEXT_DISTANCE_KEY)
    return int(value) if isinstance(value, int) else NO_KEYWORD


def _recognizer_name(result: RecognizerResult) -> str:
    metadata = result.recognition_metadata or {}
    return str(metadata.get("recognizer_name", "unknown"))


def _allow_key(value: str) -> str:
    from recognizers.checksums import canonical

    return canonical(value).casefold()


def _missing_hash_key(settings: Settings, entity: str) -> ConfigError:
    return ConfigError(
        f"operator 'hash' for {entity} needs a key: set the environment variable "
        f"{settings.hash_key_env} or [hash] key_file in your user configuration")


def check_without_presidio(settings: Settings, environ: Mapping[str, str]) -> None:
    """The engine's checks of ``settings`` that need no Presidio (a ConfigError each): the
    hash key of a hash operator, the known-users files."""
    if _hash_key(settings, environ) is None:
        for entity in settings.entities:
            if settings.operator_for(entity).kind == "hash":
                raise _missing_hash_key(settings, entity)
    _read_known_users(settings.known_users_files)


def _hash_key(settings: Settings, environ: Mapping[str, str]) -> bytes | None:
    needs = any(settings.operator_for(e).kind == "hash" for e in settings.entities)
    if settings.hash_key_file is not None:
        from redactor.config import MAX_KEY_FILE_BYTES, read_regular_file

        key = read_regular_file(settings.hash_key_file, MAX_KEY_FILE_BYTES, "hash key file",
                                "fix the path in [hash] key_file").strip()
    else:
        key = environ.get(settings.hash_key_env, "").encode()
    return _checked_key(settings, key, needs)


def _checked_key(settings: Settings, key: bytes, needs: bool | None = None) -> bytes | None:
    if needs is None:
        needs = any(settings.operator_for(e).kind == "hash" for e in settings.entities)
    if not key:
        return None
    if needs and len(key) < 16:
        raise ConfigError("the hash key is shorter than 16 bytes; use a longer random key "
                          "(for example: openssl rand -hex 32)")
    return key


def _read_known_users(files: Sequence[Path]) -> list[str]:
    from redactor.config import MAX_KNOWN_USERS_BYTES, read_regular_file

    names: list[str] = []
    for path in files:
        raw = read_regular_file(path, MAX_KNOWN_USERS_BYTES, "known-users file",
                                "fix usernames.known_users_file")
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: the known-users file is not UTF-8 text") from None
        for line in content.splitlines():
            entry = line.strip()
            if entry and not entry.startswith("#"):
                names.append(entry)
    return names


def _nlp_engine(settings: Settings) -> Any:
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    if settings.spacy_model:
        import spacy.util

        if not (Path(settings.spacy_model).expanduser().is_dir()
                or spacy.util.is_package(settings.spacy_model)):
            # Presidio would try to download a missing model; a privacy tool must not.
            raise ConfigError(f"detection.spacy_model: {settings.spacy_model!r} is neither an "
                              "installed spaCy package nor a model folder; install it or "
                              "remove the key")
        conf = {"nlp_engine_name": "spacy",
                "models": [{"lang_code": LANGUAGE, "model_name": settings.spacy_model}]}
    else:
        conf = {"nlp_engine_name": "no_op",
                "models": [{"lang_code": LANGUAGE, "model_name": "none"}]}
    try:
        return NlpEngineProvider(nlp_configuration=conf).create_engine()
    except Exception as exc:
        raise ConfigError(f"detection.spacy_model: cannot load {settings.spacy_model!r} "
                          f"({type(exc).__name__}); install the model or remove the key") from None


def _build_analyzer(settings: Settings) -> AnalyzerEngine:
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

    import recognizers
    from recognizers.username import DEFAULT_SERVICE_ACCOUNTS, ServiceAccounts

    unknown = set(settings.entities) - set(recognizers.ENTITIES)
    if unknown:
        raise ConfigError(f"unknown entities {sorted(unknown)} in settings")
    base = DEFAULT_SERVICE_ACCOUNTS if settings.builtin_service_accounts else frozenset()
    accounts = ServiceAccounts((*base, *settings.service_accounts),
                               patterns=settings.builtin_service_accounts)
    known = [*settings.known_users, *_read_known_users(settings.known_users_files)]
    registry = RecognizerRegistry(supported_languages=[LANGUAGE])
    recognizers.register(registry, languages=(LANGUAGE,), entities=settings.entities,
                         known_usernames=known, service_accounts=accounts)
    if settings.spacy_model:
        # A trained model brings named-entity recognition of people's names.
        from presidio_analyzer.predefined_recognizers import SpacyRecognizer

        registry.add_recognizer(SpacyRecognizer(supported_language=LANGUAGE,
                                                supported_entities=[NER_ENTITY]))
    enhancer = None
    if not settings.spacy_model:
        # Every recognizer of the pack scores its context on the raw text itself;
        # Presidio's lemma enhancer would only deep-copy the results to find no lemma.
        from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer

        class _PackScoresContext(ContextAwareEnhancer):
            def enhance_using_context(self, text: str, raw_results: list[RecognizerResult],
                                      nlp_artifacts: Any, recognizers: Any,
                                      context: list[str] | None = None
                                      ) -> list[RecognizerResult]:
                return raw_results

        enhancer = _PackScoresContext(0.0, 0.0, 0, 0)
    try:
        return AnalyzerEngine(registry=registry, nlp_engine=_nlp_engine(settings),
                              supported_languages=[LANGUAGE],
                              default_score_threshold=settings.score_threshold,
                              context_aware_enhancer=enhancer)
    except ConfigError:
        raise
    except Exception as exc:
        raise EngineError(f"cannot build the analyzer ({type(exc).__name__})") from None


"""Shared pieces of the recognizer pack: raw-text context scoring and boundary wrapping."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

import regex
from presidio_analyzer import (
    AnalysisExplanation,
    EntityRecognizer,
    Pattern,
    PatternRecognizer,
    RecognizerResult,
)

from recognizers._escapes import ESCAPE_CHARS, decode_separators
from recognizers._text import ContextWords, KeywordPlaces

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

__all__ = [
    "CHECKSUM_PASS_SCORE",
    "CONTEXT_BOOST",
    "CONTEXT_DISTANCE_KEY",
    "CONTEXT_FLOOR",
    "FLAGS",
    "PackPatternRecognizer",
    "RawContextMixin",
    "analyze_windows",
    "bounded",
    "cap_scores",
    "make_result",
    "windows_near",
]

#: Patterns of this pack are case sensitive unless they scope ``(?i:...)`` themselves:
#: Presidio's default IGNORECASE lets ``[A-Z]`` match lower case, the Kelvin sign and ``ı``.
FLAGS: Final = regex.DOTALL | regex.MULTILINE

#: Score of a bare or loosely separated CPF/CNPJ whose check digits pass.  Above the
#: threshold (recall first: such values carry no keyword in CSV rows or grep
#: arguments) and above the generic recognizers that collide with them without a
#: keyword (phone 0.4, IP 0.6), yet below those same recognizers once their own
#: keyword lifts them (0.75 and more): a mobile number next to "celular" stays a phone.
CHECKSUM_PASS_SCORE: Final = 0.65

#: Same numbers as Presidio's LemmaContextAwareEnhancer, applied on the raw text.
CONTEXT_BOOST: Final = 0.35
CONTEXT_FLOOR: Final = 0.4
#: Recognition metadata: words between a match and its nearest keyword (the engine
#: lets the nearer keyword decide between equal scores on the same span).
CONTEXT_DISTANCE_KEY: Final = "context_distance"
#: How much of a key the engine writes before a JSON value it analyses (the value is
#: read as ``"<key>: <value>"``; redactor.engine.jsonredact.KEY_PREFIX_CHARS).
LABEL_PREFIX_CHARS: Final = 40


def bounded(core: str) -> str:
    """Wrap a pattern so that letters and digits may not touch it on either side.

    ``_ = : "`` and spaces separate; ``cpf_11144477735`` still matches, while a
    14-digit window inside a 44-digit key does not.
    """
    return rf"(?<![0-9A-Za-z])(?:{core})(?![0-9A-Za-z])"


#: From this many matches in one text, context scoring first asks whether a keyword is
#: anywhere in it (one read of the text instead of one window per match).
_MANY_MATCHES: Final = 16
#: Once this many matches were read far from any keyword, and more than this many times
#: as many as near one, the text's keywords are found at once (KeywordPlaces).
_FAR_BEFORE_PLACES: Final = 16
_FAR_PER_NEAR: Final = 3


class RawContextMixin:
    """Context scoring on the raw text, for use without a lemmatizing NLP engine.

    Presidio's own enhancer reads lemmas, which the no-op engine and a blank spaCy
    pipeline do not produce, and only looks to the left.  This mixin looks at the
    words on both sides of each match (and at labels passed as ``context=``, such
    as JSON keys), raises the score like Presidio would, and marks the result as
    enhanced so the engine does not boost it twice.
    """

    DEFAULT_CONTEXT: ClassVar[tuple[str, ...]] = ()
    #: When set, a keyword nearby sets the score to this value instead of adding
    #: CONTEXT_BOOST: identifiers that only count with their keyword then outrank a
    #: bare CPF that shares their digits (see the collision rule in docs/detection.md).
    CONTEXT_SCORE: ClassVar[float | None] = None
    #: When set, a keyword naming part of a product in a user agent (``Mobile/15E148``)
    #: lifts nothing: see ContextWords.outside_products.
    KEYWORDS_OUTSIDE_PRODUCTS: ClassVar[bool] = False
    context_words: ContextWords

    def _init_context(self, context: Iterable[str] | None) -> list[str]:
        words = list(context) if context is not None else list(self.DEFAULT_CONTEXT)
        self.context_words = ContextWords(words)
        return words

    def enhance_using_context(
        self,
        text: str,
        raw_recognizer_results: list[RecognizerResult],
        other_raw_recognizer_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts | None,
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """Raise the score of matches with a keyword nearby; see the class docstring."""
        if self.KEYWORDS_OUTSIDE_PRODUCTS:
            text = self.context_words.outside_products(text)
        label_hit = bool(context) and self.context_words.in_labels(context or ())
        # Many matches and no keyword anywhere in the text (a dense run of CPFs): none
        # is near one, and the windows need not be read one by one.
        many = not label_hit and len(raw_recognizer_results) >= _MANY_MATCHES
        nowhere = many and not self.context_words.anywhere(text)
        # Many matches, a keyword somewhere, and most of the first matches far from any:
        # where each keyword stands is found at once (a web server's log: ``ip`` in
        # every iPhone's user agent, no address near one).  Where keywords stand by
        # most matches (``user=`` on every line), reading each match's reach costs less.
        places: KeywordPlaces | None = None
        far = near = 0
        for result in raw_recognizer_results:
            if result.recognition_metadata is None:
                result.recognition_metadata = {}
            metadata: dict[str, Any] = result.recognition_metadata
            if label_hit:
                distance: int | None = 0
            elif nowhere or (places is not None
                             and not places.may_be_near(result.start, result.end)):
                distance = None
            else:
                distance = self.context_words.distance(text, result.start, result.end)
                if places is None and many:
                    if distance is None:
                        far += 1
                    else:
                        near += 1
                    if far == _FAR_BEFORE_PLACES and near * _FAR_PER_NEAR < far:
                        places = self.context_words.places(text)
            if distance is not None:
                if self.CONTEXT_SCORE is not None:
                    result.score = max(result.score, self.CONTEXT_SCORE)
                else:
                    result.score = min(1.0, max(result.score + CONTEXT_BOOST, CONTEXT_FLOOR))
                metadata[CONTEXT_DISTANCE_KEY] = distance
            metadata[RecognizerResult.IS_SCORE_ENHANCED_BY_CONTEXT_KEY] = True
        return raw_recognizer_results


#: The flags of the ``regex`` module that Python's ``re`` reads alike (same values).
_RE_FLAGS: Final = int(regex.DOTALL | regex.MULTILINE | regex.IGNORECASE)


if TYPE_CHECKING:
    _PatternBase = PatternRecognizer
else:
    _PatternBase = object


class StdlibPatterns(_PatternBase):
    """A pattern recognizer's analysis with its patterns compiled by Python's ``re``
    (mixed in before Presidio's PatternRecognizer, or a subclass of it)."""

    #: Pattern name -> the pattern without its escaped forms (recognizers._escapes), run
    #: instead of the full one on a text that holds no escape character: the two match
    #: alike there, and the plain one runs faster.
    PLAIN_PATTERNS: ClassVar[dict[str, str]] = {}
    #: Pattern name -> the plain pattern without its glued-keyword start either, run on a
    #: text without escape characters where :attr:`GLUED` finds nothing (the keyword
    #: touching a value): alike there too, and as fast as a plain bounded pattern.
    BASIC_PATTERNS: ClassVar[dict[str, str]] = {}
    GLUED: ClassVar[re.Pattern[str] | None] = None
    #: Patterns written with ``\b`` and ``\w``, which ``re`` and ``regex`` read apart
    #: beyond ASCII (a superscript digit is a word character to ``re``, a combining
    #: mark to ``regex``): text that is not ASCII takes Presidio's way.
    ASCII_ONLY: ClassVar[bool] = False

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Presidio's pattern analysis, with each pattern compiled by Python's ``re``.

        PatternRecognizer compiles with the ``regex`` module, which runs these patterns
        three to four times slower than ``re`` (lookaheads and classes of both cases
        on digit-heavy windows: 7.3 against 1.7 ms per 4 MB of CNPJ windows).  Each
        match goes through the same steps as in Presidio — ``validate_result``, the
        explanation, ``invalidate_result``, the minimum score, duplicates removed — so
        the results are the same (tests compare both on every pattern).  Flags other
        than the recognizer's own, and a pattern ``re`` cannot compile, take Presidio's way.
        """
        patterns: list[Pattern] = self.patterns  # type: ignore[has-type]
        flags = self.global_regex_flags
        if flags is None or regex_flags not in (None, flags) or not patterns \
                or flags & ~_RE_FLAGS or (self.ASCII_ONLY and not text.isascii()):
            return super().analyze(text, entities, nlp_artifacts, regex_flags)
        name: str = self.name  # type: ignore[has-type]
        results: list[RecognizerResult] = []
        entity = self.supported_entities[0]
        # Which form of the patterns reads this text as the full ones would: 0 full, 1
        # without escaped forms, 2 without the glued keyword either.
        form = 0
        if self.PLAIN_PATTERNS and not any(c in text for c in ESCAPE_CHARS):
            form = 2 if self.BASIC_PATTERNS and (
                self.GLUED is None or self.GLUED.search(text) is None) else 1
        # validate_result and invalidate_result read the matched text alone: asked once
        # per distinct text in this call (two patterns often match the same CPF).
        verdicts: dict[str, tuple[bool | None, bool]] = {}
        kept: set[tuple[int, int, float]] = set()
        for pattern, forms in self._usable(text, self._compiled_patterns(patterns, flags)):
            runs = forms[form] or forms[0]
            for match in runs.finditer(text):
                start, end = match.span()
                if start == end:
                    continue
                written = text[start:end]
                verdict = verdicts.get(written)
                if verdict is None:
                    verdict = verdicts[written] = (
                        self.validate_result(written),
                        bool(self.invalidate_result(written)))
                validation, invalid = verdict
                score = pattern.score
                if validation is not None:
                    score = EntityRecognizer.MAX_SCORE if validation else EntityRecognizer.MIN_SCORE
                if invalid:
                    score = EntityRecognizer.MIN_SCORE
                if score <= EntityRecognizer.MIN_SCORE:
                    continue
                if (start, end, score) in kept:
                    # Equal to a result already made (RecognizerResult's equality):
                    # remove_duplicates' set would keep that first one alone.
                    continue
                kept.add((start, end, score))
                results.append(self._made(name, entity, start, end, score, pattern=pattern,
                                          validation=validation, flags=flags))
        return remove_duplicates(results)

    def _made(self, name: str, entity: str, start: int, end: int, score: float, *,
              pattern: Pattern, validation: bool | None, flags: int) -> RecognizerResult:
        """The result of a match, as Presidio's PatternRecognizer makes it."""
        explanation = self.build_regex_explanation(
            name, pattern.name, pattern.regex, pattern.score,
            validation,  # type: ignore[arg-type]  # Presidio passes None too
            flags)
        explanation.score = score
        return RecognizerResult(
            entity_type=entity, start=start, end=end, score=score,
            analysis_explanation=explanation,
            recognition_metadata={
                RecognizerResult.RECOGNIZER_NAME_KEY: name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
            })

    def whole_matches(self, text: str, stretches: Sequence[tuple[int, int]],
                      pattern_name: str, regex_flags: int | None = None,
                      ) -> list[RecognizerResult] | None:
        """The results :meth:`analyze` gives of the stretches of ``text`` where the pattern
        named ``pattern_name`` matches the whole stretch (``text[lo:hi]`` each), in the
        order of the stretches; None where analyze would not take Python's ``re`` (see
        analyze).  For a caller that knows no other match can lie in those stretches
        (BrIpRecognizer: a dotted quad between separators), without windows to cut, join
        and read: the same steps for each match, the same result."""
        patterns: list[Pattern] = self.patterns  # type: ignore[has-type]
        flags = self.global_regex_flags
        if flags is None or regex_flags not in (None, flags) or not patterns \
                or flags & ~_RE_FLAGS:
            return None
        chosen = [(p, forms) for p, forms in self._compiled_patterns(patterns, flags)
                  if p.name == pattern_name]
        if len(chosen) != 1:
            return None
        pattern, forms = chosen[0]
        whole = forms[0]
        name: str = self.name  # type: ignore[has-type]
        entity = self.supported_entities[0]
        results: list[RecognizerResult] = []
        for lo, hi in stretches:
            written = text[lo:hi]
            if self.ASCII_ONLY and not written.isascii():
                return None  # analyze takes Presidio's way there
            if lo == hi or whole.fullmatch(written) is None:
                continue
            validation = self.validate_result(written)
            score = pattern.score
            if validation is not None:
                score = EntityRecognizer.MAX_SCORE if validation else EntityRecognizer.MIN_SCORE
            if self.invalidate_result(written):
                score = EntityRecognizer.MIN_SCORE
            if score <= EntityRecognizer.MIN_SCORE:
                continue
            results.append(self._made(name, entity, lo, hi, score, pattern=pattern,
                                      validation=validation, flags=flags))
        return results

    def _usable(self, text: str, compiled: list[tuple[Pattern, list[Any]]]
                ) -> list[tuple[Pattern, list[Any]]]:
        """The patterns worth running on ``text``: all of them, unless a subclass knows
        that some cannot match it."""
        return compiled

    def _compiled_patterns(self, patterns: list[Pattern],
                           flags: int = FLAGS) -> list[tuple[Pattern, list[Any]]]:
        """Each pattern with ``re``'s compilation of it (``regex``'s where ``re`` cannot
        compile it), then of its plain and basic forms (PLAIN_PATTERNS, BASIC_PATTERNS;
        None when it has none, or when the pattern is not the class's own), kept while
        the recognizer's patterns are the same objects."""
        key = (flags, *(id(p) for p in patterns))
        cached: tuple[tuple[int, ...], list[tuple[Pattern, list[Any]]]] | None = (
            self.__dict__.get("_stdlib_patterns"))
        if cached is not None and cached[0] == key:
            return cached[1]
        own = {p.name: p.regex for p in getattr(self, "PATTERNS", ())}
        re_flags = flags & _RE_FLAGS
        compiled: list[tuple[Pattern, list[Any]]] = []
        for pattern in patterns:
            try:
                forms: list[Any] = [re.compile(pattern.regex, re_flags)]
            except re.error:
                forms = [regex.compile(pattern.regex, flags)]
            for table in (self.PLAIN_PATTERNS, self.BASIC_PATTERNS):
                other = table.get(pattern.name)
                forms.append(re.compile(other, re_flags)
                             if other is not None and own.get(pattern.name) == pattern.regex
                             else None)
            compiled.append((pattern, forms))
        self.__dict__["_stdlib_patterns"] = (key, compiled)
        return compiled


class PackPatternRecognizer(RawContextMixin, StdlibPatterns, PatternRecognizer):
    """A pattern recognizer of this pack: class-level entity, patterns and context words.

    Patterns are compiled with :data:`FLAGS` (case sensitive) and scored for context
    on the raw text by :class:`RawContextMixin`.
    """

    ENTITY: ClassVar[str]
    PATTERNS: ClassVar[tuple[Pattern, ...]]
    #: Superset triggers (see recognizers.prefilter): ``(pattern, best score without a
    #: keyword)``.  A trigger is used when that score can reach the threshold; the
    #: context words are triggers too, for matches only a keyword lifts.
    PREFILTER: ClassVar[tuple[tuple[str, float], ...]] = ()
    #: The longest text a pattern of this recognizer matches.
    MAX_LENGTH: ClassVar[int] = 64
    def __init__(
        self,
        supported_language: str = "pt",
        context: Iterable[str] | None = None,
        name: str | None = None,
    ) -> None:
        words = self._init_context(context)
        super().__init__(
            supported_entity=self.ENTITY,
            patterns=list(self.PATTERNS),
            context=words,
            supported_language=supported_language,
            name=name or type(self).__name__,
            global_regex_flags=FLAGS,
        )

    def prefilter(self, threshold: float) -> Prefilter:
        """Triggers from PREFILTER plus the context words (see recognizers.prefilter)."""
        from recognizers._text import PRODUCT_REACH_AFTER, PRODUCT_REACH_BEFORE
        from recognizers.prefilter import (
            CONTEXT_AFTER,
            CONTEXT_BEFORE,
            Prefilter,
            Trigger,
            keyword_triggers,
        )

        # A trigger may be only part of a match (``(11)`` of a phone number).
        reach = self.MAX_LENGTH
        triggers = [Trigger(pattern, before=reach, after=reach, name="value")
                    for pattern, best in self.PREFILTER if best >= threshold]
        if not self.KEYWORDS_OUTSIDE_PRODUCTS:
            triggers.extend(keyword_triggers(self.context_words.keywords, self.MAX_LENGTH))
            return Prefilter(self.ENTITY, tuple(triggers))
        # A keyword that is part of a product in a user agent lifts nothing, and its
        # trigger refuses it; every window then holds what decides that for each keyword
        # near enough a match to lift it (PRODUCT_REACH_BEFORE/AFTER past the context).
        triggers.extend(keyword_triggers(self.context_words.keywords, self.MAX_LENGTH,
                                         accept=self.context_words.lifts_at))
        return Prefilter(self.ENTITY, tuple(triggers),
                         margin_before=CONTEXT_BEFORE + 16 + PRODUCT_REACH_BEFORE,
                         margin_after=CONTEXT_AFTER + 16 + PRODUCT_REACH_AFTER)


_ALNUM_RUN: Final = re.compile(r"[0-9A-Za-z]+")
#: Score of a number :func:`spaced_with_groups_joined` describes: a keyword lifts it.
JOINED_GROUPS_SCORE: Final = 0.1


def spaced_with_groups_joined(written: str, groups: tuple[int, ...],
                              apart: tuple[int, ...] = ()) -> bool:
    """Is ``written`` a number separated by a space somewhere that runs some of its
    groups together?  ``groups``: after how many characters the format's groups end
    (a CPF's 3, 6 and 9); ``apart``: those after which a person may set a part apart
    and join the rest (a CPF's check digits, ``529982247 25``; a CNPJ's root and branch,
    ``11222333 0001 81``).  ``107 302 15997`` is three fields of a log line, not a CPF: a
    person writing a number with spaces puts one between every group (``529 982 247 25``,
    ``529.982.247 25``) or sets a part apart, where dots and dashes alone are often left
    out (``529982247-25``).  Such a number scores JOINED_GROUPS_SCORE: only a keyword
    near it (``CPF: 107 302 15997``) lifts it."""
    decoded = decode_separators(written)
    if " " not in decoded:
        return False
    ends: set[int] = set()
    count = 0
    for run in _ALNUM_RUN.findall(decoded)[:-1]:
        count += len(run)
        ends.add(count)
    return ends != set(groups) and not ends <= set(apart)


def remove_duplicates(results: list[RecognizerResult]) -> list[RecognizerResult]:
    """Presidio's ``EntityRecognizer.remove_duplicates``, without its work when no two
    results overlap (a dense run of CPFs): it would then keep each result of a
    non-zero score and order them as below, since a result it drops is one equal to
    or contained in another."""
    if len(results) > 1:
        ordered = sorted(results, key=_start_end)
        end = -1
        for result in ordered:
            if result.start < end or result.end <= result.start:
                return EntityRecognizer.remove_duplicates(results)
            end = result.end
    return sorted((r for r in results if r.score != 0), key=ranked)


def _start_end(result: RecognizerResult) -> tuple[int, int]:
    return result.start, result.end


def ranked(result: RecognizerResult) -> tuple[float, int, int]:
    """The order of a pattern recognizer's results: by score, then place, longest first."""
    return -result.score, result.start, -(result.end - result.start)


def make_result(recognizer: EntityRecognizer, entity: str, start: int, end: int, *,
                score: float, pattern_name: str) -> RecognizerResult:
    """A result with the explanation and metadata Presidio's own recognizers attach."""
    name: str = recognizer.name  # type: ignore[has-type]
    return RecognizerResult(
        entity_type=entity, start=start, end=end, score=score,
        analysis_explanation=AnalysisExplanation(
            recognizer=name, original_score=score, pattern_name=pattern_name,
        ),
        recognition_metadata={
            RecognizerResult.RECOGNIZER_NAME_KEY: name,
            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: recognizer.id,
        },
    )


def cap_scores(results: list[RecognizerResult], text: str,
               applies: Callable[[str], bool], ceiling: float) -> list[RecognizerResult]:
    """Lower to ``ceiling`` the score of every result whose matched text ``applies``.

    Used for matches that are only plausible with a keyword nearby: context scoring,
    which runs afterwards, can still lift them over the threshold.
    """
    for result in results:
        if applies(text[result.start:result.end]):
            result.score = min(result.score, ceiling)
    return results


#: How far from a hit :func:`windows_near` looks for a separator before it gives up
#: (the caller then reads the whole text).
EDGE_SEARCH: Final = 512
#: How far back :func:`windows_near` looks for a separator character by character.
_NEAR_SEPARATOR: Final = 32


def windows_near(text: str, hits: Iterable[tuple[int, int]], before: int, after: int,
                 separators: str) -> list[tuple[int, int]] | None:
    """Windows of ``text`` around ``hits``: ``before`` characters before each hit and
    ``after`` after it, each widened to the nearest character of ``separators`` (or
    the text's ends), merged; None when a window finds no separator within
    EDGE_SEARCH characters.

    ``separators`` must be characters no match of the recognizer can hold and that
    its patterns' boundaries and look-arounds read as they read a text's start or end
    (blanks, quotes, brackets): a match then lies in one window, and analysing the
    windows apart finds what analysing the whole text finds there.
    """
    if "\n" not in separators:
        raise ValueError("the windows are joined by line breaks: a line break must separate")
    last_separator = re.compile(f"[{re.escape(separators)}][^{re.escape(separators)}]*\\Z")
    separator = re.compile(f"[{re.escape(separators)}]")
    separating = frozenset(separators)
    size = len(text)
    windows: list[tuple[int, int]] = []
    for first, last in sorted(hits):
        lo, hi = max(0, first - before), min(size, last + after)
        if windows and hi <= windows[-1][1]:
            continue  # inside the window before
        if hi < size:
            found = separator.search(text, hi, hi + EDGE_SEARCH)
            if found is None and hi + EDGE_SEARCH < size:
                return None
            hi = found.start() if found is not None else size
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
            continue
        if lo > 0:
            # The last separator before ``lo``: a few characters back, mostly (a
            # blank, a quote); the pattern, which tries every place of its reach
            # from the far end, only past them.
            position = lo - 1
            near = max(0, lo - _NEAR_SEPARATOR)
            while position >= near and text[position] not in separating:
                position -= 1
            if position >= near:
                lo = position + 1
            else:
                found = last_separator.search(text, max(0, lo - EDGE_SEARCH), near)
                if found is None and lo > EDGE_SEARCH:
                    return None
                lo = found.start() + 1 if found is not None else 0
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    return windows


def analyze_windows(analyze: Callable[[str], list[RecognizerResult]], text: str,
                    windows: list[tuple[int, int]]) -> list[RecognizerResult]:
    """``analyze`` run once on the ``windows`` of ``text`` joined by line breaks, its
    results moved back to their places in ``text`` (see :func:`windows_near`)."""
    if not windows:
        return []
    starts: list[int] = []
    pieces: list[str] = []
    position = 0
    for lo, hi in windows:
        starts.append(position)
        pieces.append(text[lo:hi])
        position += hi - lo + 1
    results = analyze("\n".join(pieces))
    for result in results:
        index = bisect_right(starts, result.start) - 1
        shift = windows[index][0] - starts[index]
        result.start += shift
        result.end += shift
    return results

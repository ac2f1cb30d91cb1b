"""JSON redaction: every string leaf of a JSON value (and, for the hooks, its keys and the
numbers that hold an identifier) analysed with its keys as context and redacted."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from redactor.engine.analysis import Document, Memo
from redactor.engine.propagation import PersonPass, StreamNames, logins_standing_in
from redactor.engine.spans import Span
from redactor.jsonio import MAX_DEPTH, key_name
from redactor.patch import walk_json
from redactor.results import Finding, Issued, JsonPath, JsonRedaction

if TYPE_CHECKING:
    from redactor.engine.redaction import Redactor

#: Characters of a JSON key put in front of its value for analysis.
KEY_PREFIX_CHARS: Final = 40
#: How redact_json writes an identifier held by a JSON number (see its docstring).
JSON_NUMBERS: Final = ("placeholder", "masked")


def analysed_texts(value: Any, max_depth: int = MAX_DEPTH) -> list[str] | None:
    """The texts ``redact_json(value, keys_and_numbers=True)`` hands the analysis, less
    their labels: see :func:`labelled_texts`.  None when ``value`` nests deeper than
    ``max_depth`` (redact_json would refuse it).

    No prefilter hit in any of them (each judged on its own: Analysis.pieces_hit)
    means that redact_json finds nothing where no label lifts an entity: the batch's
    JSON Lines reader and Spark's rows ask this of each line."""
    labelled = labelled_texts(value, max_depth)
    return None if labelled is None else [text for text, _ in labelled]


def labelled_texts(value: Any, max_depth: int = MAX_DEPTH
                   ) -> list[tuple[str, tuple[str, ...]]] | None:
    """The texts ``redact_json(value, keys_and_numbers=True)`` hands the analysis, each
    with the labels it is analysed with: each string leaf after its key's prefix (its
    last two keys as labels), each key (its object's key), each integral number's
    digits (zero-filled too where its key names a CPF or CNPJ).  None when ``value``
    nests deeper than ``max_depth``.  Keep in step with redact_json's spans_of,
    key_spans and one_number."""
    texts = value_texts(value, max_depth)
    return None if texts is None else texts.labelled


#: Where a text of :class:`ValueTexts` stands, when it is a string leaf inside a
#: container: the container, the leaf's key or index there, and how many characters of
#: its key were put before it.  None for a key, a number's digits and a bare string,
#: which cannot be written back in place.
LeafPlace = tuple[Any, Any, int] | None


class ValueTexts:
    """What one walk of a parsed JSON value reads: its texts as :func:`labelled_texts`
    lists them, where each stands (:data:`LeafPlace`, one per text), its keys as the
    analysis reads them, and where its floats stand (their containers and keys or
    indexes: see redactor.batch.dumps_keeping_numbers), None when the value is one."""

    __slots__ = ("floats", "keys", "labelled", "places")

    def __init__(self) -> None:
        self.labelled: list[tuple[str, tuple[str, ...]]] = []
        self.places: list[LeafPlace] = []
        self.keys: set[str] = set()
        self.floats: list[tuple[Any, Any]] | None = []


def value_texts(value: Any, max_depth: int = MAX_DEPTH) -> ValueTexts | None:
    """The texts of ``value`` with their labels and places (see :class:`ValueTexts`),
    in one walk; None when ``value`` nests deeper than ``max_depth``."""
    found = ValueTexts()
    texts, places, keys = found.labelled, found.places, found.keys
    # (item, its container, its key or index there, depth, labels)
    stack: list[tuple[Any, Any, Any, int, tuple[str, ...]]] = [(value, None, None, 0, ())]
    while stack:
        item, container, last, depth, labels = stack.pop()
        if isinstance(item, str):
            key = key_name(last) if isinstance(last, str) else ""
            # As spans_of writes a leaf: after its key.
            prefix = _key_prefix(key)
            texts.append((prefix + item, labels[-2:]))
            places.append(None if container is None else (container, last, len(prefix)))
        elif isinstance(item, dict):
            if depth >= max_depth:
                return None
            outer = labels[-1:]
            for name, inner in item.items():
                written = key_name(name if isinstance(name, str) else str(name))
                keys.add(written)
                texts.append((written, outer))
                places.append(None)
                stack.append((inner, item, name, depth + 1, (*outer, written)))
        elif isinstance(item, list | tuple):
            if depth >= max_depth:
                return None
            stack.extend((inner, item, index, depth + 1, labels)
                         for index, inner in enumerate(item))
        else:
            if isinstance(item, float) and found.floats is not None:
                if container is None:
                    found.floats = None
                else:
                    found.floats.append((container, last))
            digits = _number_digits(item)
            if digits is None:
                continue
            key = key_name(last) if isinstance(last, str) else ""
            prefix = _key_prefix(key)
            texts.append((prefix + digits, labels[-2:]))
            places.append(None)
            width = _filled_width(key)
            if len(digits) < width:
                texts.append((prefix + digits.zfill(width), labels[-2:]))
                places.append(None)
    return found


def _key_prefix(key: str) -> str:
    """What a leaf or a number's digits are analysed after: their key (its first
    KEY_PREFIX_CHARS characters) and ``": "``; nothing without a key, or when the key
    holds a line break."""
    return f"{key[:KEY_PREFIX_CHARS]}: " if key and "\n" not in key else ""


def _filled_width(key: str) -> int:
    """How many digits a number under ``key`` had, its leading zeros lost, when the key
    names a CNPJ (14) or a CPF (11); 0 under any other key."""
    folded = key.casefold()
    return 14 if "cnpj" in folded else 11 if "cpf" in folded else 0


def _after_prefix(spans: Iterable[Span], shift: int) -> list[Span]:
    """Spans of a text analysed after a prefix of ``shift`` characters, moved onto the
    text: cut at its start, those wholly in the prefix left out."""
    return [Span(max(s.start - shift, 0), s.end - shift, s.entity, s.score, s.recognizer)
            for s in spans if s.end - shift > 0]


#: Documents of fewer texts than this are analysed text by text without a first scan
#: of them all (see redact_json): one scan more would cost what it saves.
QUIET_MIN_TEXTS: Final = 4


def quiet_from_scan(texts: Sequence[str], hit: Collection[int]) -> frozenset[str]:
    """Of a document's ``texts`` (as :func:`analysed_texts` lists them, no key of the
    document lifting an entity), those quiet, given the indexes of those a prefilter
    hit reaches (``Analysis.pieces_hit`` of them all): what ``Analysis.quiet_texts``
    would answer (an empty text is never quiet; a text written twice is quiet only
    when no copy is hit)."""
    touched = {texts[index] for index in hit}
    return frozenset(text for text in texts if text and text not in touched)


def _number_digits(item: Any) -> str | None:
    """The digits redact_json reads in a JSON number, or None for one it leaves alone
    (see one_number)."""
    if isinstance(item, float) and math.isfinite(item) and item.is_integer() \
            and abs(item) < 1e25:
        return str(abs(int(item)))
    if type(item) is int and item.bit_length() <= 90:
        return str(abs(item))
    return None


def redact_leaves_in_place(engine: Redactor, texts: ValueTexts, quiet: frozenset[str],
                           found: Memo | None,
                           busy: Collection[tuple[str, tuple[str, ...]]],
                           ) -> Counter[str] | None:
    """What ``redact_json(engine, value, keys_and_numbers=True, known_quiet=quiet,
    found=found, one_pass=True)`` does to ``value`` (a parsed JSON line, none of whose
    texts' findings spread; ``texts``: :func:`value_texts` of it), done in place: its
    string leaves redacted, the number of findings per entity returned.  None, and
    ``value`` left as it was, when a key, a number or a bare string holds a finding
    (redact_json renames or rewrites those: the caller takes it then).  Each text is
    analysed as redact_json analyses it (the same labels, the key before a leaf, the
    zero-filled digits of a number under a CPF's or CNPJ's key).  Not for a
    pseudonymous engine.

    ``busy``: the texts (with their labels) that may give a span; the others are known
    to give none (see batch._texts_found_unspread) and are not read again, so the work
    is in proportion to the texts that hold a finding, not to the value's size."""
    counts: Counter[str] = Counter()
    # (the container, the key or index, the leaf's redaction), written once all is read.
    changes: list[tuple[Any, Any, str]] = []
    if not busy:
        return counts
    for (text, labels), place in zip(texts.labelled, texts.places, strict=True):
        if (text, labels) not in busy:
            continue
        if text in quiet and engine.quiet_spans(text, labels or None, None):
            continue
        spans = engine._spans(text, list(labels) or None, None, None, known=found)
        if not spans:
            continue
        if place is None:
            return None  # a key, a number or a bare string: redact_json's way
        container, last, shift = place
        moved = _after_prefix(spans, shift)
        if moved:
            changes.append((container, last, engine._apply(text[shift:], moved)))
            counts.update(s.entity for s in moved)
    for container, last, redacted in changes:
        container[last] = redacted
    return counts


def redact_json(engine: Redactor, value: Any, *, keys_and_numbers: bool = False,
                entities: Collection[str] | None = None,
                numbers: str = "placeholder",
                names: StreamNames | None = None,
                known_quiet: frozenset[str] | None = None,
                found: Memo | None = None, one_pass: bool = False) -> JsonRedaction:
    """Redact every string leaf of a JSON value with ``engine``: see Redactor.redact_json.

    ``known_quiet`` (with ``keys_and_numbers``): the texts of ``value`` that no prefilter hit
    reaches, when the caller scanned them all and no key of ``value`` lifts an entity
    (see :func:`quiet_from_scan`): the document's texts are not scanned again (a JSON
    Lines block scans all its lines at once).  ``found``: the findings of texts of
    ``value`` found beforehand (``Analysis.found_many`` of its texts with their labels, as
    :func:`labelled_texts` lists them), taken instead of analysing them again.
    ``one_pass``: the caller knows that no text of ``value`` holds a finding whose words
    spread (a person's name, a user name found by its shape) and that no user name
    ``names`` carries stands in them: the first pass would collect nothing, and is
    skipped."""
    if numbers not in JSON_NUMBERS:
        raise ValueError(f"numbers must be one of {JSON_NUMBERS}")
    findings: list[Finding] = []
    issued: list[Issued] | None = [] if engine._pseudonymous else None
    only = frozenset(entities) if entities is not None else None
    # The words of people's names, and the user names, found anywhere in the document
    # are redacted in its other values too: a first pass collects them, and the second
    # reuses the first's findings.
    document: Document | None = None
    # The first pass's spans per (path, text, is a key): the second pass's too when the
    # first found no name's words to propagate.
    first: dict[tuple[JsonPath, str, bool], list[Span]] = {}

    def remembered(path: JsonPath, text: str, is_key: bool, analysed: str,
                   labels: list[str] | None) -> list[Span] | None:
        if document is None or document.person_pass is PersonPass.COLLECT:
            return None
        if document.carries() and not document.first_findings_stand(analysed, labels):
            return None
        return first.get((path, text, is_key))

    # Did the first pass find something in a key?  (The second pass then renames it, and
    # the paths under it change.)
    keys_found: list[bool] = [False]

    def remember(path: JsonPath, text: str, is_key: bool, spans: list[Span]) -> None:
        if document is not None and document.person_pass is PersonPass.COLLECT:
            first[(path, text, is_key)] = spans
            if is_key and spans:
                keys_found[0] = True

    def spans_of(path: JsonPath, text: str) -> list[Span]:
        labels = [key_name(p) for p in path if isinstance(p, str)]
        key = labels[-1] if path and isinstance(path[-1], str) else ""
        prefix = _key_prefix(key)
        analysed = prefix + text
        known = remembered(path, text, False, analysed, labels[-2:] or None)
        if known is not None:
            return known
        spans: list[Span] = []
        if analysed in quiet and engine.quiet_spans(analysed, labels[-2:] or None, document):
            remember(path, text, False, spans)
            return spans
        spans = _after_prefix(engine._spans(analysed, labels[-2:] or None, None, only,
                                            document=document, known=found), len(prefix))
        remember(path, text, False, spans)
        return spans

    def record(path: JsonPath, spans: list[Span]) -> None:
        findings.extend(
            Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer, path)
            for s in spans
        )

    def one_leaf(path: JsonPath, leaf: str) -> str:
        spans = spans_of(path, leaf)
        record(path, spans)
        return engine._apply(leaf, spans, issued)

    def one_number(path: JsonPath, item: Any) -> Any:
        # An integral float is the integer it holds (a column with nulls exported by
        # pandas: 52998224725.0); a float holds 15 digits exactly, enough for a CPF or a
        # CNPJ.  Identifiers have at most ~25 digits; larger integers are never one.
        digits_read = _number_digits(item)
        if digits_read is None:
            return item
        item_digits = int(item)
        digits = digits_read
        spans = spans_of(path, digits)
        if not spans:
            # A number loses a CPF's or CNPJ's leading zeros; its key says what it was.
            width = _filled_width(str(path[-1])) if path and isinstance(path[-1], str) else 0
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
        return engine._apply(digits, spans, issued)

    def key_spans(path: JsonPath, key: str) -> list[Span]:
        labels = [key_name(p) for p in path if isinstance(p, str)]
        analysed = key_name(key)
        known = remembered(path, key, True, analysed, labels[-1:] or None)
        if known is not None:
            return known
        if analysed in quiet and engine.quiet_spans(analysed, labels[-1:] or None, document):
            spans: list[Span] = []
        else:
            spans = engine._spans(analysed, labels[-1:] or None, None, only,
                                  document=document, known=found)
        remember(path, key, True, spans)
        return spans

    def one_key(path: JsonPath, key: str) -> str:
        spans = key_spans(path, key)
        if not spans:
            return key
        redacted = engine._apply(key, spans, issued)
        record((*path, redacted), spans)
        return redacted

    # The texts no prefilter hit reaches, found in one scan of the document's texts.
    quiet: frozenset[str] = frozenset()
    if known_quiet is not None and keys_and_numbers:
        quiet = known_quiet
    else:
        labelled = labelled_texts(value)
        if labelled is not None and len(labelled) >= QUIET_MIN_TEXTS:
            quiet = engine.quiet_texts(labelled)
    persons = engine._person is not None and (only is None or "PERSON" in only)
    logins = engine._propagate_names and (only is None or "USERNAME" in only)
    if (persons or logins) and not one_pass:
        # First pass: collect the names in leaves and keys (no propagation yet); the
        # second pass propagates them and reuses its findings.
        document = Document(PersonPass.COLLECT)

        def collect_leaf(path: JsonPath, text: str) -> str:
            spans_of(path, text)
            return text

        def collect_key(path: JsonPath, key: str) -> str:
            key_spans(path, key)
            return key

        walk_json(value, collect_leaf, key=collect_key if keys_and_numbers else None)
        if names is not None and logins:
            # The stream's user names that stand in this document are its own too (each
            # counts as one cue), looked for in one pass over the strings the first pass
            # read; what this document found goes on to the stream's next documents (as
            # a text's pieces pass their names on, whatever their spread here).
            standing = logins_standing_in("\n".join(document.texts), names)
            document.logins.usernames.update(standing.usernames)
            document.logins.caseless_usernames.update(standing.caseless_usernames)
            for name, caseless in document.cues:
                names.add_login(name, caseless)
        document.settle_logins()
        document.person_pass = PersonPass.PROPAGATE
    if document is not None and not keys_found[0] and document.reuses_first_pass():
        # No names to spread and no key renamed: every text's findings are the first
        # pass's, under the same paths (what ``remembered`` would answer, asked directly).
        def reused_leaf(path: JsonPath, leaf: str) -> str:
            spans = first.get((path, leaf, False))
            if spans is None:
                return one_leaf(path, leaf)
            if not spans:
                return leaf
            record(path, spans)
            return engine._apply(leaf, spans, issued)

        def reused_key(path: JsonPath, key: str) -> str:
            return key if (path, key, True) in first else one_key(path, key)

        if keys_and_numbers:
            new_value = walk_json(value, reused_leaf, key=reused_key, scalar=one_number)
        else:
            new_value = walk_json(value, reused_leaf)
    elif keys_and_numbers:
        new_value = walk_json(value, one_leaf, key=one_key, scalar=one_number)
    else:
        new_value = walk_json(value, one_leaf)
    patch: dict[str | int, Any] = {}
    if isinstance(value, dict):
        for (old_key, old), (new_key, new) in zip(value.items(), new_value.items(), strict=True):
            if new_key != old_key or new != old:
                patch[new_key] = new
    elif isinstance(value, list | tuple):
        patch = {i: new_value[i] for i in range(len(value)) if new_value[i] != value[i]}
    return JsonRedaction(new_value, tuple(findings), patch, tuple(issued) if issued else ())

"""Prefilter declarations: cheap superset patterns of what each recognizer can report.

A recognizer of this pack describes, with :class:`Prefilter`, where its findings can
possibly be.  Each :class:`Trigger` is a pattern in the subset of syntax that both
Python's ``re`` and hyperscan accept (no look-around, no back-references), written with
literal characters (ASCII, Latin-1 and Latin Extended-A letters) and ``\\d``.  The
contract, which the engine relies on and the equivalence tests check, is:

* every finding the recognizer reports at or above the engine's score threshold lies
  within ``before`` characters before and ``after`` characters after some accepted
  trigger hit of its entity;
* the recognizer decides about a finding from the text at most ``margin_before``
  characters before it and ``margin_after`` characters after it.

So analysing only windows around the hits, with those margins, gives the same
findings as analysing the whole text.  ``accept`` lets a trigger reject a hit with a
cheap test that is a necessary condition for any finding near it (a SAP user field
naming a service account, for instance).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from recognizers._text import WORD_CHARACTERS, fold, longest_first

__all__ = [
    "CONTEXT_AFTER",
    "CONTEXT_BEFORE",
    "NEVER",
    "Prefilter",
    "Trigger",
    "checked",
    "keyword_triggers",
    "literal_pattern",
    "outside_trigger_alphabet",
]

#: Characters that context scoring reads around a match (5 words of up to 24
#: characters before, 3 after; see recognizers._text.ContextWords.near).
CONTEXT_BEFORE: Final = 120
CONTEXT_AFTER: Final = 72
#: The character before a word: anything but an ASCII or Latin-1/Extended-A letter or digit.
WORD_START: Final = f"[^{WORD_CHARACTERS}]"
#: A pattern that matches nothing, in the syntax both backends accept.
NEVER: Final = "[^\\s\\S]"


@dataclass(frozen=True, slots=True)
class Trigger:
    """One superset pattern, with how far from a hit a finding may stand."""

    pattern: str
    before: int = 0
    after: int = 0
    accept: Callable[[str, int, int], bool] | None = None
    name: str = ""
    #: Context words (large alternations, compiled apart by the hyperscan backend).
    keyword: bool = False
    #: The longest text the pattern can match, when bounded: a backend may then
    #: report only where a hit ends and take ``end - max_length`` as its start.
    max_length: int | None = None
    #: Scanned alone, never in a union with the entity's other plain triggers, so that
    #: its hits keep its ``name`` (a recognizer that takes hits reads them by name).
    alone: bool = False


@dataclass(frozen=True, slots=True)
class Prefilter:
    """What a recognizer declares: its entity, triggers and the text it reads around a finding."""

    entity: str
    triggers: tuple[Trigger, ...]
    margin_before: int = CONTEXT_BEFORE + 8
    margin_after: int = CONTEXT_AFTER + 8
    #: Hits found by code instead of patterns, as ``(start, end)`` spans with the same
    #: contract as a trigger's hits (reach 0): for vocabularies too large to compile.
    finder: Callable[[str], list[tuple[int, int]]] | None = None


_CORE: Final = re.compile(r"[0-9A-Za-z](?:.*[0-9A-Za-z])?", re.DOTALL)


def checked(check: Callable[[str], bool],
            lead: str | None = None) -> Callable[[str, int, int], bool]:
    """An ``accept`` for a trigger whose hit is one written identifier, maybe between two
    boundary characters: the identifier (from its first ASCII letter or digit to its
    last) must pass ``check``, the test the recognizer drops a failing match by.

    ``lead``: a pattern of what else may open the hit and is no part of the identifier
    although it ends in a letter or digit (an escape, ``%2F``; a keyword glued to the
    number, ``cpf``): the identifier after it is checked too.

    Exact when the recognizer's patterns match that same span and drop every match
    whose check fails: a hit that fails can hold no finding.
    """
    leading = re.compile(lead) if lead is not None else None

    def accept(text: str, start: int, end: int) -> bool:
        core = _CORE.search(text, start, end)
        if core is None:
            return False
        if check(core.group()):
            return True
        opened = leading.match(text, start, end) if leading is not None else None
        if opened is None:
            return False
        core = _CORE.search(text, opened.end(), end)
        return core is not None and check(core.group())

    return accept


#: Triggers spell letters with ASCII, Latin-1 and Latin Extended-A characters.  A
#: text holding any other character that folds onto an ASCII letter or digit, any
#: non-ASCII digit, or a non-ASCII character python-phonenumbers reads as phone
#: punctuation, skips the prefilter (see :func:`outside_trigger_alphabet`).
LATIN_LIMIT: Final = 0x180
_PHONE_EXTRAS: Final = "\u30fc\uff08\uff09\uff3b\uff3d\u2053\u223c\uff5e\uff0b\uff03"


# Blocks with no digit and no character folding onto ASCII: CJK ideographs, Hangul
# syllables, surrogates, private use areas and unassigned planes.
_NO_ASCII_FOLDS: Final = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3),
                          (0xD800, 0xF8FF), (0x20000, 0x3FFFF), (0x40000, 0x10FFFF))


@functools.lru_cache(maxsize=1)
def _outside_characters() -> frozenset[str]:
    """The characters that make a text skip the prefilter (see LATIN_LIMIT)."""
    from recognizers._text import MATCHING_TABLE

    chars: list[str] = []
    codes: list[int] = []
    low = LATIN_LIMIT
    for skip_from, skip_to in _NO_ASCII_FOLDS:
        codes.extend(range(low, skip_from))
        low = skip_to + 1
    decomposition, category = unicodedata.decomposition, unicodedata.category
    for code in codes:
        if code in MATCHING_TABLE:
            continue
        char = chr(code)
        # Without a decomposition or a case fold, fold() leaves a character as it is:
        # only digits, phone punctuation and marks need the full test.
        if not (decomposition(char) or char.casefold() != char or char.isdigit()
                or char in _PHONE_EXTRAS or category(char)[0] == "M"):
            continue
        # Combining marks beyond the block the triggers allow, and any other character
        # that vanishes in fold() (U+FF9E decomposes to a combining mark), join the
        # letters around them into a keyword the triggers cannot spell.
        folded = fold(char)
        if char.isdigit() or char in _PHONE_EXTRAS or any(
                c.isascii() and c.isalnum() for c in folded) or (
                category(char).startswith("M") and char not in _MARKS) or (
                not folded and char not in _MARKS):
            chars.append(char)
    # Ŀ and ŀ fold to "l·": a word the triggers read as one is two words to fold().
    # So do ¼ ½ ¾ ("1⁄4"): "stcd½" holds the keyword stcd1 (found by review).
    chars.extend("\u013f\u0140\u00bc\u00bd\u00be")
    # İ, ı and ſ are "i", "i" and "s" to the recognizers' caseless patterns (Python's
    # case matching), not to hyperscan's: "LOGİN: jsilva" held a login no trigger hit
    # (found by review).
    chars.extend("\u0130\u0131\u017f")
    return frozenset(chars)


#: Combining marks the triggers allow after one letter.
MAX_MARKS: Final = 2
_MANY_MARKS: Final = re.compile(f"[\u0300-\u036f]{{{MAX_MARKS + 1}}}")


def outside_trigger_alphabet(text: str) -> bool:
    """True when ``text`` holds a character the triggers do not spell (see LATIN_LIMIT).

    Linear with a small constant: the distinct non-ASCII characters of the text are
    collected at C speed and each is looked up once (a whole-text search of the large
    character class cost about a microsecond per character).
    """
    from recognizers._text import wide_characters

    if text.isascii():
        return False
    outside = _outside_characters()
    marks = False
    for char in wide_characters(text):
        if char in outside:
            return True
        marks = marks or char in _MARKS
    return marks and _MANY_MARKS.search(text) is not None



@functools.lru_cache(maxsize=1)
def _fold_index() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Latin-1 and Latin Extended-A characters grouped by what they fold to."""
    singles: dict[str, list[str]] = {}
    multis: dict[str, list[str]] = {}
    for code in range(0x80, LATIN_LIMIT):
        char = chr(code)
        if unicodedata.category(char) in ("Cs", "Co", "Cn"):
            continue
        folded = fold(char)
        if not folded or folded == char or not folded.isascii():
            continue
        if len(folded) == 1:
            singles.setdefault(folded, []).append(char)
        else:
            multis.setdefault(folded, []).append(char)
    classes = {k: "".join(sorted(v)) for k, v in singles.items()}
    return classes, {k: tuple(sorted(v)) for k, v in multis.items()}


_CLASS_SPECIAL: Final = frozenset("\\]^-[")


def _class_body(chars: Iterable[str]) -> str:
    return "".join("\\" + c if c in _CLASS_SPECIAL else c for c in chars)


def _escape(char: str) -> str:
    return "\\" + char if not char.isalnum() and char != " " else char


def literal_pattern(word: str) -> str:
    """A pattern for every spelling of ``word`` that :func:`fold` maps onto ``fold(word)``.

    Case and accents are free: ``usuario`` also matches ``USUÁRIO`` and ``usuário``
    written with a combining accent (up to MAX_MARKS marks per letter or digit; a text
    with more skips the prefilter), and a digit matches what folds to it (``¹``).
    """
    target = fold(word)
    classes, multis = _fold_index()
    marks = "\u0300-\u036f"

    def piece_at(position: int) -> str:
        letter = target[position]
        members = {letter, letter.upper(), *classes.get(letter, "")}
        # Digits too: fold() reads "stcd¹" as "stcd1".
        return f"[{_class_body(sorted(members))}][{marks}]{{0,{MAX_MARKS}}}" if letter.isalnum() \
            else _escape(letter)

    def build(position: int) -> str:
        if position >= len(target):
            return ""
        options = [piece_at(position) + build(position + 1)]
        # Ligatures and other characters folding to several letters.
        for folded, chars in multis.items():
            if target.startswith(folded, position) and len(folded) > 1:
                options.append(f"[{_class_body(chars)}]" + build(position + len(folded)))
        return options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"

    return build(0)


_MARKS: Final = frozenset(chr(code) for code in range(0x300, 0x370))


def spells(text: str, word: str) -> bool:
    """True when :func:`literal_pattern` of ``word`` matches the whole of ``text``.

    The same test without building and compiling a pattern: for a text whose
    :func:`fold` already equals ``fold(word)``, this only rules out the spellings the
    pattern leaves out (other scripts' look-alikes, more than MAX_MARKS marks).
    """
    target = fold(word)
    classes, multis = _fold_index()

    def from_(index: int, position: int) -> bool:
        if position == len(target):
            return index == len(text)
        if index == len(text):
            return False
        char, letter = text[index], target[position]
        if letter.isalnum():
            if char == letter or char == letter.upper() or char in classes.get(letter, ""):
                marks = 0
                while (marks < MAX_MARKS and index + 1 + marks < len(text)
                       and text[index + 1 + marks] in _MARKS):
                    marks += 1
                # Fewer marks than present are tried too, as the pattern may backtrack.
                if any(from_(index + 1 + taken, position + 1) for taken in range(marks, -1, -1)):
                    return True
        elif char == letter and from_(index + 1, position + 1):
            return True
        return any(len(folded) > 1 and target.startswith(folded, position) and char in chars
                   and from_(index + 1, position + len(folded))
                   for folded, chars in multis.items())

    return from_(0, 0)


def keyword_triggers(keywords: Sequence[str], reach: int,
                     accept: Callable[[str, int, int], bool] | None = None,
                     ) -> tuple[Trigger, ...]:
    """Triggers hitting every place where one of ``keywords`` could stand as a word.

    A match that a keyword lifts lies within the context window on either side of
    it, ``reach`` being the longest such match.  A single word is matched as a whole
    word or its plural.  A phrase needs all its words, and all of them lie in the
    context window that lifts a match, so any one of them stands for it: one that is
    a keyword alone, else its longest distinctive word, or, when all its words are
    shorter than three letters (``c.n.p.j.``), its last word.  (The words in order,
    with anything but letters and digits between them, made the slowest pattern of
    the scan: a one-letter class at every ``c`` of the text.)

    ``accept``: the trigger's accept (see ContextWords.lifts_at).
    """
    from recognizers._text import words

    singles: dict[str, int] = {}
    tokenized = [tokens for tokens in map(words, keywords) if tokens]
    alone = {tokens[0] for tokens in tokenized if len(tokens) == 1}
    for tokens in tokenized:
        if len(tokens) > 1 and alone.intersection(tokens):
            continue  # a keyword of its own stands in it ("cpf" in "cpf/mf")
        distinctive = [t for t in tokens if t not in _GENERIC_WORDS] or tokens
        longest = max(distinctive, key=len)
        if len(tokens) > 1 and len(longest) < 3:
            longest = tokens[-1]  # words of one or two letters ("c.n.p.j."): the last
        singles[literal_pattern(longest)] = _literal_length(longest)
    before, after = CONTEXT_AFTER + reach, CONTEXT_BEFORE + reach
    triggers = []
    # A keyword is a whole word: it neither follows nor precedes a letter or digit,
    # save the "s" of its plural.  (Characters beyond Latin Extended-A are let
    # through: a superset, and such text is rare.)
    start = f"(?:^|{WORD_START})"
    end = f"(?:{literal_pattern('s')})?(?:{WORD_START}|$)"
    if singles:
        ordered = longest_first(singles)
        triggers.append(Trigger(start + "(?:" + "|".join(ordered) + ")" + end, before=before,
                                after=after, name="keyword", keyword=True, accept=accept,
                                max_length=max(singles.values()) + 2 + _literal_length("s")))
    return tuple(triggers)


#: Words too common in logs to stand for a phrase ("case number" is found by "case").
_GENERIC_WORDS: Final = frozenset({
    "number", "numero", "de", "do", "da", "dos", "das", "of", "the", "card", "id", "code",
    "codigo", "no", "nr", "em", "para",
})


def _literal_length(word: str) -> int:
    """The longest text :func:`literal_pattern` matches for ``word``."""
    return len(fold(word)) * (1 + MAX_MARKS)

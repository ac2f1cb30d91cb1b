"""Text helpers shared by the recognizers: matching normalisation and context words."""

from __future__ import annotations

import os
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = [
    "CAMEL_CASE",
    "LEAF_KEY_MAX",
    "MATCHING_TABLE",
    "WORD_CHARACTERS",
    "ContextWords",
    "cache_dir",
    "fold",
    "help_listing_value",
    "leaf_key_end",
    "longest_first",
    "normalize_for_matching",
    "wide_characters",
]


def _build_matching_table() -> dict[int, str]:
    """One character in, one character out, so offsets stay valid after translation."""
    table: dict[int, str] = {}
    # Fullwidth digits, letters and the separators used in identifiers.
    for offset in range(10):
        table[0xFF10 + offset] = chr(0x30 + offset)
    for offset in range(26):
        table[0xFF21 + offset] = chr(0x41 + offset)
        table[0xFF41 + offset] = chr(0x61 + offset)
    table[0xFF0D] = "-"  # fullwidth hyphen-minus
    table[0xFF0E] = "."  # fullwidth full stop
    table[0xFF0F] = "/"  # fullwidth solidus
    # Dash variants, including the minus sign, to a hyphen.
    for code in (0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE63):
        table[code] = "-"
    # Space variants and invisible characters to a plain space.
    for code in (0x00A0, 0x2007, 0x2009, 0x202F, 0x200A, 0x2002, 0x2003, 0x2004, 0x2005,
                 0x2006, 0x2008, 0x205F, 0x3000, 0x200B, 0x2060, 0xFEFF, 0x00AD):
        table[code] = " "
    # A byte that is not UTF-8, which the surrogateescape error handler keeps as U+DC80 to
    # U+DCFF (a Latin-1 or Windows-1252 log read as UTF-8: ``Jo\xe3o``), is read as
    # Windows-1252 writes it (Latin-1 where that leaves a byte undefined), mapped on as
    # above: an accented name or keyword of a legacy file is read whole.  The text keeps
    # the byte, so the output writes it back as it was.
    for byte in range(0x80, 0x100):
        try:
            char = bytes((byte,)).decode("cp1252")
        except UnicodeDecodeError:
            char = chr(byte)
        table[0xDC00 + byte] = table.get(ord(char), char)
    return table


MATCHING_TABLE: Final = _build_matching_table()


#: Any character the table maps (all of them non-ASCII).
_MAPPED: Final = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(MATCHING_TABLE))
                            + "]")


def longest_first(words: Iterable[str]) -> list[str]:
    """``words`` longest first, equal lengths in code-point order: an alternation built
    from a set must not follow the set's order, which hash randomisation changes per
    process (the prefilter's cache key is a hash of its patterns)."""
    return sorted(words, key=lambda word: (-len(word), word))


def cache_dir() -> Path:
    """Where redactor keeps what it computes once (``$XDG_CACHE_HOME/redactor``): the
    compiled prefilter and the folded word list, never text."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "redactor"


_ASCII_BYTES: Final = bytes(range(128))


def wide_characters(text: str) -> set[str]:
    """The distinct characters of ``text`` beyond ASCII, found at C speed.

    A set of the whole text walks every character; the UTF-8 bytes with ASCII
    deleted leave only the few accented letters of Portuguese text to walk.
    """
    if text.isascii():
        return set()
    last = _LAST_WIDE[0]  # normalisation and the alphabet check ask about the same text
    if last[0] is text:
        return set(last[1])
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    found = frozenset(rest.decode("utf-8", "surrogatepass"))
    _LAST_WIDE[0] = (text, found)
    return set(found)


#: The last text asked about and its answer (one assignment: safe across threads).
_LAST_WIDE: Final[list[tuple[str, frozenset[str]]]] = [("", frozenset())]


def is_latin1(text: str) -> bool:
    """Whether every character of ``text`` is below U+0100: hyperscan then reads it as
    Latin-1 bytes, one per character."""
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def normalize_for_matching(text: str) -> str:
    """Map look-alike characters onto ASCII without changing the length of the text.

    ``str.translate`` with a dictionary costs about 0.1 µs per character of any text;
    the mapped characters are rare, so only they are looked up.
    """
    if text.isascii() or MATCHING_TABLE.keys().isdisjoint(map(ord, wide_characters(text))):
        return text
    return _MAPPED.sub(_mapped, text)


def _mapped(match: re.Match[str]) -> str:
    return MATCHING_TABLE[ord(match.group())]


def fold(text: str) -> str:
    """Lower-case and strip accents (``Usuário`` -> ``usuario``); may change the length."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


_WORD = re.compile(r"[^\W_]+")
#: What _WORD finds in lower-case ASCII.
_ASCII_WORD: Final = re.compile(r"[a-z0-9]+")
#: The last ASCII word of a stretch and the ASCII separators after it (searched with an
#: end position: ``\Z`` is that end), within _LAST_WORD_REACH characters.
_LAST_WORD: Final = re.compile(r"(?<![A-Za-z0-9])([A-Za-z0-9]+)[^A-Za-z0-9\x80-\U0010ffff]*\Z")
_LAST_WORD_REACH: Final = 48
_ASCII_ALNUM: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def literal_database(literals: Sequence[str], *, once: bool = False) -> Any:
    """A hyperscan database of ``literals`` (Latin-1 texts, matched byte for byte; ids
    are their indexes), each reported once per scan with ``once``; None without
    hyperscan, or if it refuses them (never seen: the callers then search as without)."""
    try:
        import hyperscan
    except ImportError:  # pragma: no cover - the fast extra is installed in tests
        return None
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        database.compile(
            expressions=["".join(f"\\x{byte:02x}" for byte in literal.encode("latin-1"))
                         .encode() for literal in literals],
            ids=list(range(len(literals))), elements=len(literals),
            flags=[hyperscan.HS_FLAG_SINGLEMATCH if once else 0] * len(literals))
    except hyperscan.error:  # pragma: no cover
        return None
    return database


def last_word(text: str, low: int, high: int) -> tuple[int, int] | None:
    """Where ``_LAST_WORD.search(text, low, high)`` finds its word, read backwards from
    ``high`` (the pattern was tried at each of up to 48 places, 3 us a match on a log
    with an address or a login on every line): the last run of ASCII letters and digits
    of ``text[low:high]``, followed by ASCII separators alone, and not cut by ``low``."""
    end = high
    while end > low:
        char = text[end - 1]
        if char in _ASCII_ALNUM:
            break
        if not char.isascii():
            return None  # only ASCII separators may follow the word
        end -= 1
    begin = end
    while begin > low and text[begin - 1] in _ASCII_ALNUM:
        begin -= 1
    if begin == end or (begin == low and begin and text[begin - 1] in _ASCII_ALNUM):
        return None  # no word, or one the window's edge cuts (the look-behind fails)
    return begin, end

#: A quote as written or escaped (up to three backslashes): a key or value quoted in a
#: JSON document, also one inside a string, as Docker's json-file log holds an
#: application's JSON line (``{\"user\":\"jsilva\"}``).  A regular expression.
QUOTE: Final = r"\\{0,3}[\"']"


def words(text: str) -> list[str]:
    """Folded word tokens; punctuation, ``_`` and separators split words."""
    return _WORD.findall(fold(text))


class ContextWords:
    """Keywords that raise the confidence of a match when they stand near it.

    Keywords are matched on folded word tokens of the raw text, so they are case
    and accent insensitive and need no lemmatizer.  A single-word keyword also
    matches its plural with a trailing ``s``; a phrase must appear word for word.
    """

    __slots__ = ("_ascii", "_heads", "_label_key", "_phrases", "_phrases_by_first", "_products",
                 "_single", "_tokens_at", "after", "before", "keywords")

    def __init__(self, keywords: Iterable[str], *, before: int = 5, after: int = 3,
                 label_key: Callable[[str], bool] | None = None) -> None:
        self.keywords = tuple(keywords)
        #: Labels that count though they hold no keyword as a word (``TargetUserName``,
        #: ``MasterUserPassword``: one token to :func:`words`): see :meth:`in_labels`.
        self._label_key = label_key
        single: set[str] = set()
        phrases: list[tuple[str, ...]] = []
        for keyword in self.keywords:
            tokens = tuple(words(keyword))
            if len(tokens) == 1:
                single.add(tokens[0])
            elif tokens:
                phrases.append(tokens)
        self._single = frozenset(single)
        self._phrases = tuple(phrases)
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for phrase in self._phrases:
            by_first.setdefault(phrase[0], []).append(phrase)
        self._phrases_by_first = by_first
        self._ascii = all(w.isascii() for w in (*self._single, *self._phrases_by_first))
        self.before = before
        self.after = after
        #: outside_products' patterns (case-sensitive, ignoring case), built on first use.
        self._products: tuple[re.Pattern[str], ...] | None = None
        #: A keyword (or a phrase's first word) as a whole word of a lower-cased ASCII
        #: text, a plural too: exactly the tokens that count (see anywhere).
        heads = longest_first({*self._single, *self._phrases_by_first})
        #: The heads of ASCII, which KeywordPlaces looks for.
        self._heads = tuple(head for head in heads if head.isascii())
        self._tokens_at = re.compile(
            "(?<![a-z0-9])(?:" + "|".join(map(re.escape, heads)) + ")s?(?![a-z0-9])"
        ) if heads else None

    def _in_tokens(self, tokens: list[str]) -> bool:
        for token in tokens:
            if token in self._single or (token.endswith("s") and token[:-1] in self._single):
                return True
        for phrase in self._phrases:
            size = len(phrase)
            for index in range(len(tokens) - size + 1):
                if tuple(tokens[index:index + size]) == phrase:
                    return True
        return False

    def anywhere(self, text: str) -> bool:
        """False only when no keyword can be near anything in ``text``: none of them is
        even a substring of its fold (a cheap test before many :meth:`near` calls)."""
        if text.isascii():
            folded = text.lower()
        elif self._ascii:
            # fold() filters a whole text in Python, about a microsecond per character.
            # Decomposed, case-folded and cut to ASCII at C speed, the text holds every
            # ASCII word its fold holds (and maybe more, joined over dropped characters).
            folded = unicodedata.normalize("NFKD", text).casefold().encode(
                "ascii", "ignore").decode("ascii")
        else:
            folded = fold(text)
        return self._holds_a_keyword(folded)

    def _holds_a_keyword(self, folded: str) -> bool:
        """Is a keyword (or a phrase's first word) a substring of ``folded``?"""
        return any(word in folded for word in self._single) or any(
            first in folded for first in self._phrases_by_first)

    def _word_in(self, text: str, start: int, end: int) -> bool:
        """False only when no keyword is a word of ``text[start:end]`` read alone, as
        :meth:`distance` reads the words on each side of a match: in ASCII, none is a
        whole word of it (``ip`` is none of ``iPhone``), else as :meth:`anywhere`."""
        piece = text[start:end]
        if not piece.isascii():
            return self.anywhere(piece)
        tokens_at = self._tokens_at
        return tokens_at is not None and tokens_at.search(piece.lower()) is not None

    def maybe_near(self, text: str, start: int, end: int) -> bool:
        """False only when :meth:`near` is False: no keyword is even a substring of the
        fold of the characters it reads (cheaper than counting words)."""
        return self.anywhere(text[max(0, start - 24 * self.before):end + 24 * self.after])

    def near(self, text: str, start: int, end: int) -> bool:
        """True when a keyword is among the words just before or just after ``text[start:end]``."""
        return self.distance(text, start, end) is not None

    def distance(self, text: str, start: int, end: int) -> int | None:
        """How many words lie between ``text[start:end]`` and its nearest keyword, or None.

        Looks at up to ``before`` words on the left and ``after`` on the right.
        """
        lo, hi = self.reach(len(text), start, end)
        # Asked first: a keyword right before lies in the reach, so anywhere() would
        # have said yes (``user=alice`` on every line of a log).
        if self.before and self._keyword_right_before(text, lo, start):
            return 0  # ``user=alice``: no keyword can be nearer
        stretch = text[lo:hi]
        if stretch.isascii():
            return self._ascii_distance(text, stretch.lower(), lo, start, end)
        return self._sliced_distance(text, lo, hi, start, end)

    def _sliced_distance(self, text: str, lo: int, hi: int, start: int,
                         end: int) -> int | None:
        """:meth:`distance` on any text, reach ``text[lo:hi]``: each side sliced,
        folded and read apart."""
        if not self.anywhere(text[lo:hi]) or not (
                self._word_in(text, lo, start) or self._word_in(text, end, hi)):
            return None  # no keyword in reach: the words need not be counted
        return self._nearest(text, lo, hi, words(text[lo:start]), words(text[end:hi]))

    def _ascii_distance(self, text: str, lowered: str, lo: int, start: int,
                        end: int) -> int | None:
        """:meth:`distance` where its whole reach ``text[lo:hi]`` is ASCII (``lowered``
        is that reach lower-cased): there the fold of each side is its lower case and
        its words are the runs of ASCII letters and digits, read once from the reach
        instead of sliced, folded and searched apart (a log line with a keyword on the
        line before: 20 us a match, the slices' words were read three times)."""
        if not self._holds_a_keyword(lowered):
            return None  # what anywhere() answers on the reach
        return self._nearest(text, lo, lo + len(lowered),
                             _ASCII_WORD.findall(lowered, 0, start - lo),
                             _ASCII_WORD.findall(lowered, end - lo))

    def _nearest(self, text: str, lo: int, hi: int, left: list[str],
                 right: list[str]) -> int | None:
        """How many words lie between the match and its nearest keyword, given the
        words of the reach ``text[lo:hi]`` on its left and on its right."""
        # A word the window's outer edge cuts is no word of it ("tel" of "telex"):
        # the prefilter's keyword triggers hit whole words only.
        if left and _cut_at(text, lo):
            left = left[1:]
        left = left[-self.before:]
        if right and _cut_at(text, hi):
            right = right[:-1]
        right = right[:self.after]
        # A keyword spanning left[i:j] is within the last len(left) - i words before the
        # match; one spanning right[i:j], within the first j words after it.
        nearest: int | None = None
        for i, _ in self._occurrences(left):
            gap = len(left) - 1 - i
            nearest = gap if nearest is None else min(nearest, gap)
        for _, j in self._occurrences(right):
            gap = j - 1
            nearest = gap if nearest is None else min(nearest, gap)
        return nearest

    def reach(self, size: int, start: int, end: int) -> tuple[int, int]:
        """The stretch of a text of ``size`` characters that :meth:`distance` reads
        around ``text[start:end]``."""
        # 24 characters per word is generous for log text and bounds the work per match.
        return max(0, start - CHARS_PER_WORD * self.before), min(size, end + CHARS_PER_WORD
                                                                 * self.after)

    def places(self, text: str) -> KeywordPlaces | None:
        """Where a keyword may stand in ``text`` (see :class:`KeywordPlaces`), for many
        :meth:`distance` calls on it; None when ``text`` is not ASCII."""
        if not text.isascii():
            return None
        return KeywordPlaces(self, text)

    def _keyword_right_before(self, text: str, lo: int, start: int) -> bool:
        """Is the last word of ``text[lo:start]`` a single-word keyword, read without
        counting words?  Only where that word, the character before it and what follows
        it up to ``start`` are ASCII: there its fold is its lower case and no folding of
        the text around it can join it to anything, so it is the last of the slice's
        :func:`words` (unless ``lo`` cuts it, which is left to the full count)."""
        found = last_word(text, max(lo, start - _LAST_WORD_REACH), start)
        if found is None:
            return False
        begin, end = found
        if begin <= lo or not text[begin - 1:start].isascii():
            return False
        token = text[begin:end].lower()
        single = self._single
        return token in single or (token.endswith("s") and token[:-1] in single)

    def _occurrences(self, tokens: list[str]) -> list[tuple[int, int]]:
        """Where keywords stand in ``tokens``, as ``(first, after last)`` word indexes."""
        found: list[tuple[int, int]] = []
        single, by_first = self._single, self._phrases_by_first
        for i, token in enumerate(tokens):
            if token in single or (token.endswith("s") and token[:-1] in single):
                found.append((i, i + 1))
            for phrase in by_first.get(token, ()):
                if tuple(tokens[i:i + len(phrase)]) == phrase:
                    found.append((i, i + len(phrase)))
        return found

    def outside_products(self, text: str) -> str:
        """``text`` with each keyword that names part of a product in a user agent
        written over (same length).  A web server's log has one on every other line; it
        is no word about the numbers around it.  A keyword is part of a product

        * as a product token of its own right after or before another one
          (``Version/17.6 Mobile/15E148 Safari/604.1``);
        * between a product token and the next one (``Chrome/130.0.0.0 Mobile
          Safari/537.36``);
        * as an item of the comment after a product token (``Mozilla/5.0 (Android 14;
          Mobile; rv:132.0)``).

        Alone, ``Celular/1:``, ``(nome; telefone)`` and ``Nome; Telefone; Email`` are
        words of the text.  What decides lies at most PRODUCT_REACH_BEFORE characters
        before the keyword and PRODUCT_REACH_AFTER after it.  Only ASCII single-word
        keywords are looked for, each letter written over with ``q`` (``Q`` in upper
        case), so the words of the text stay where they were.
        """
        if "/" not in text and ";" not in text:
            return text
        patterns = self._keyword_products()
        if not patterns:
            return text
        # ASCII text is searched lower-cased (the same length) without IGNORECASE, which
        # costs ``re`` about eight times more.
        ascii_text = text.isascii()
        subject = text.lower() if ascii_text else text
        pieces: list[str] = []
        done = 0
        for match in patterns[0 if ascii_text else 1].finditer(subject):
            start, end = match.span()
            if _in_product(text, start, end):
                pieces.append(text[done:start])
                pieces.append("".join("Q" if c.isupper() else "q" for c in text[start:end]))
                done = end
        if not pieces:
            return text
        pieces.append(text[done:])
        return "".join(pieces)

    def _keyword_products(self) -> tuple[re.Pattern[str], ...]:
        """_product_patterns of the ASCII single-word keywords, built on first use."""
        if self._products is None:
            self._products = _product_patterns(
                tuple(k for k in self._single if k.isascii() and k.isalpha()))
        return self._products

    def lifts_at(self, text: str, start: int, end: int) -> bool:
        """False when the keyword a prefilter hit ``text[start:end]`` ends with (and the
        character after it, if any) is one that :meth:`outside_products` writes over,
        judged on ``text`` as a whole: an accept for a keyword trigger, so that a user
        agent's ``Mobile/15E148`` opens no window.  ``start`` may lie before the hit's
        true start (a backend may report only where a hit ends).

        True whenever the answer is not plain: a word holding anything but ASCII
        letters, a plural (outside_products only writes over ASCII keywords as written;
        it also leaves a keyword glued to the character before it, see _in_product)."""
        if "/" not in text and ";" not in text:
            return True
        word_end = end - 1 if end and not _ASCII_LETTER(text[end - 1]) else end
        word_start = word_end
        while word_start > start and _ASCII_LETTER(text[word_start - 1]):
            word_start -= 1
        if word_start == word_end or (word_start and _ASCII_LETTER(text[word_start - 1])):
            return True  # no word, or more of it before the hit than the hit holds
        patterns = self._keyword_products()
        if not patterns:
            return True
        # The piece the pattern reads: the word and its lookahead (outside_products
        # reads the same characters of the whole text).
        high = min(len(text), word_end + _PRODUCT_LOOKAHEAD)
        piece = text[word_start:high]
        ascii_piece = piece.isascii()
        found = patterns[0 if ascii_piece else 1].match(piece.lower() if ascii_piece else piece)
        if found is None:
            return True  # (a match ends where the word does: a non-letter follows)
        return not _in_product(text, word_start, word_end)

    def in_labels(self, labels: Iterable[str]) -> bool:
        """True when an external label (a JSON key, a column name) holds a keyword, or
        is a key the recognizer reads (the ``label_key`` it was given)."""
        labels = tuple(labels)
        return self.keyword_in_labels(labels) or (
            self._label_key is not None and any(map(self._label_key, labels)))

    def keyword_in_labels(self, labels: Iterable[str]) -> bool:
        """True when an external label holds a keyword."""
        return any(self._in_tokens(words(label)) for label in labels)


def _product_patterns(keywords: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Where one of ``keywords`` may stand as a product's name or comment in a user agent
    (see ContextWords.outside_products), by what follows it (_in_product checks what
    precedes it): for lower-cased text, and ignoring case.  The keyword comes first,
    so that ``re`` skips ahead to the places where one may start."""
    if not keywords:
        return ()
    # A product token: the name, a slash, a version (Mobile/15E148); one item of a
    # product's comment ((Android 14; Mobile; rv:132.0)); or, between a version and the
    # next product token, a word of the name (130.0.0.0 Mobile Safari/537.36).
    pattern = (f"(?:{'|'.join(longest_first(keywords))})"
               r"(?:(?=/[0-9])|(?=[;)])|(?= [A-Za-z][\w.+-]{0,23}/[0-9]))")
    return re.compile(pattern), re.compile(pattern, re.IGNORECASE)


#: How far past a keyword the patterns of _product_patterns read (their lookaheads: a
#: space, a name of up to 24 characters, a slash and a digit).
_PRODUCT_LOOKAHEAD: Final = 1 + 24 + 1 + 1
#: An ASCII letter (a keyword hit's word is one run of them, see ContextWords.lifts_at).
_ASCII_LETTER: Final = re.compile("[A-Za-z]").fullmatch

#: A product token of a user agent: a name, a slash, a version (``Safari/604.1``).
_PRODUCT: Final = r"[A-Za-z][\w.+-]{0,23}/[0-9][\w.]{0,15}"
#: The keyword's own version after its slash, then a product token.
_PRODUCT_AFTER_OWN: Final = re.compile(r"/[0-9][\w.]{0,15} " + _PRODUCT)
#: A product token and a space right before the keyword.
_PRODUCT_BEFORE: Final = re.compile(_PRODUCT + r" \Z")
#: A product token, then an opened comment up to the keyword's item.
_COMMENT_BEFORE: Final = re.compile(_PRODUCT + r" \([^()\n]{0,48}; \Z")
#: How far from a keyword what makes it part of a product may lie (see _in_product):
#: the prefilter's windows of the recognizers that read keywords reach that far too.
PRODUCT_REACH_BEFORE: Final = 42 + 2 + 48 + 2
PRODUCT_REACH_AFTER: Final = 1 + 1 + 15 + 1 + 42


def _in_product(text: str, start: int, end: int) -> bool:
    """Is the keyword at ``text[start:end]`` (followed as one of _product_patterns
    demands) part of a product?  See ContextWords.outside_products."""
    after = text[end:end + 1]
    lo = max(0, start - PRODUCT_REACH_BEFORE)
    if after == "/":
        if text[start - 1:start].isalnum():
            return False  # no word of its own
        return (_product_before(text, lo, start)
                or _PRODUCT_AFTER_OWN.match(text, end, end + PRODUCT_REACH_AFTER) is not None)
    if after in (";", ")"):
        return _comment_before(text, lo, start)
    return _product_before(text, lo, start)


def _product_before(text: str, lo: int, start: int) -> bool:
    """``_PRODUCT_BEFORE.search(text, lo, start) is not None``, searched only from the
    last space before the one the match ends with: a product token holds no space.
    (Searched from ``lo``, the pattern was tried at each of up to 94 places.)"""
    if start <= lo or text[start - 1] != " ":
        return False
    space = text.rfind(" ", lo, start - 1)
    return _PRODUCT_BEFORE.search(text, lo if space < 0 else space + 1, start) is not None


def _comment_before(text: str, lo: int, start: int) -> bool:
    """``_COMMENT_BEFORE.search(text, lo, start) is not None``: the comment's ``(`` is
    the last one before ``start`` (none stands inside the comment), and the product
    before it holds no space, so the search starts after the space before that."""
    if start - 2 < lo or not text.startswith("; ", start - 2):
        return False
    paren = text.rfind("(", lo, start)
    if paren < 0:
        return False
    space = text.rfind(" ", lo, max(lo, paren - 1))
    return _COMMENT_BEFORE.search(text, lo if space < 0 else space + 1, start) is not None


#: Characters per word that ContextWords.distance reads on each side of a match.
CHARS_PER_WORD: Final = 24


def _alnum_at(lower: str, at: int) -> bool:
    """Is the character at ``at`` of a lower-cased ASCII text a letter or a digit?"""
    char = lower[at]
    return ("a" <= char <= "z") or ("0" <= char <= "9")


class KeywordPlaces:
    """Every place of an ASCII text where a keyword of a ContextWords (a single word, or
    a phrase's first word) is written, found in one read of the text, so that the many
    matches of a text that no keyword stands near need not each read their reach.

    :meth:`may_be_near` is False only when :meth:`ContextWords.distance` is None: a
    keyword it counts is a whole word of one side of its reach, read alone (bounded by
    no letter or digit, or by the side's edge; maybe with a plural ``s``), so that side
    holds one of these places, bounded so.  (An occurrence inside a longer word, such as
    ``ip`` of ``iPhone``, is none, unless the side's edge cuts the word there.)
    """

    __slots__ = ("_ends", "_left", "_reach", "_right", "_size", "_starts")

    def __init__(self, words: ContextWords, text: str) -> None:
        lower = text.lower()
        size = len(lower)
        found: list[tuple[int, int]] = []
        for head in words._heads:
            at = lower.find(head)
            while at >= 0:
                found.append((at, at + len(head)))
                at = lower.find(head, at + 1)
        found.sort()
        self._starts = [start for start, _ in found]
        self._ends = [end for _, end in found]
        # Bounded in the whole text on the left; on the right (a plural's s counted).
        self._left = [start == 0 or not _alnum_at(lower, start - 1) for start, _ in found]
        self._right = [end == size or not _alnum_at(lower, end)
                       or (lower[end] == "s" and (end + 1 == size
                                                  or not _alnum_at(lower, end + 1)))
                       for _, end in found]
        self._size = size
        self._reach = words.reach

    def _bounded_in(self, low: int, high: int) -> bool:
        """Does ``[low, high)`` hold a place bounded as a word of the slice read alone?"""
        starts, ends = self._starts, self._ends
        k = bisect_left(starts, low)
        while k < len(starts) and starts[k] < high:
            end = ends[k]
            # (Loose on the right: a word the edge cuts one character after the keyword
            # may be its plural.)
            if end <= high and (self._left[k] or starts[k] == low) \
                    and (self._right[k] or end >= high - 1):
                return True
            k += 1
        return False

    def may_be_near(self, start: int, end: int) -> bool:
        """False only when no keyword is in reach of ``text[start:end]`` (see the
        class docstring)."""
        if not self._starts:
            return False
        lo, hi = self._reach(self._size, start, end)
        return self._bounded_in(lo, start) or self._bounded_in(end, hi)


#: The characters that continue a word for the prefilter's keyword triggers, as the
#: body of a character class: ASCII and Latin-1/Extended-A letters and digits
#: (recognizers.prefilter.WORD_START is its complement).
WORD_CHARACTERS: Final = ("A-Za-z0-9\u00aa\u00b2\u00b3\u00b5\u00b9\u00ba\u00bc-\u00be"
                          "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f")
_WORD_CHAR: Final = re.compile(f"[{WORD_CHARACTERS}]")


def _cut_at(text: str, at: int) -> bool:
    """True when a word runs across position ``at`` of ``text``: word characters (or
    combining marks after one) on both sides, so a window edge there cuts the word."""
    if at <= 0 or at >= len(text):
        return False
    before = at - 1
    while before > 0 and unicodedata.combining(text[before]):
        before -= 1
    after = at
    while after < len(text) - 1 and unicodedata.combining(text[after]):
        after += 1
    return (_WORD_CHAR.match(text, before) is not None
            and _WORD_CHAR.match(text, after) is not None)


#: A name of code in camel case: a lower-case start, a capital after it, letters alone
#: (``tokenReg``, ``decodeURIComponent``): a variable, not a login nor a password.
CAMEL_CASE: Final = re.compile(r"[a-z][a-z]*[A-Z][A-Za-z]*")
#: An option's argument named in capitals (``--private-key=FILE``, ``--api-key KEY``,
#: ``--owner=DONO``): a metavariable of a help listing.
_METAVARIABLE: Final = re.compile(r"[A-ZÀ-Ý][A-ZÀ-Ý_-]{0,15}")
#: What follows an option and its metavariable in a help listing: two blanks or more and
#: its description.
_DESCRIPTION_AFTER: Final = re.compile(r"[ \t]{2,}[^\W\d_]")
#: After an option and two blanks or more, a word and, one blank after it, another: the
#: option's description (psql --help: ``-W, --password           force password
#: prompt``; a table's ``--password  letmein  prod account`` has a column there).
_DESCRIPTION_GOES_ON: Final = re.compile(r" [^\W\d_]")
#: What stands before an option on a help listing's line: blanks, maybe a short option
#: and its comma (``  -W, --password``, ``  -p SENHA, --password=SENHA``).
_HELP_LINE_HEAD: Final = re.compile(r"[ \t]*(?:-[\w?](?:[ \t]?[A-Z<][^,\n]{0,20})?,[ \t]*)?")
#: A help listing's entry: that head, an option, maybe its argument, two blanks or more,
#: and a description of two words at least (``      --private-key=FILE       private key
#: file``).
_HELP_ENTRY: Final = re.compile(
    _HELP_LINE_HEAD.pattern + r"--?[\w?][\w-]{0,40}"
    r"(?:\[?[= ][^ \t\n\]]{1,30}\]?)?[ \t]{2,}[^\W\d_]+[ \t]+[^\W\d_]")
#: The longest head, and the longest line, read around an option.
_HELP_HEAD_MAX: Final = 40
_HELP_LINE_MAX: Final = 240
#: An argument's name in a usage line: words of letters joined by dashes or underscores.
_ARGUMENT_NAME: Final = re.compile(r"[^\W\d_]+(?:[-_][^\W\d_]+)*")
#: The word that opens a usage line, before the options in brackets.
_USAGE: Final = re.compile(r"(?i)[ \t]*(?:usage|uso|sintaxe|synopsis)[ \t]*:")
#: The marks that continue a command on the next line: POSIX shells, cmd.exe, PowerShell.
_CONTINUATIONS: Final = ("\\", "^", "`")


#: A JSON leaf's key as the engine writes it before the leaf's text (``stdout: ``, a
#: hook's tool output; recognizers.base.LABEL_PREFIX_CHARS).
_LEAF_KEY: Final = re.compile(r"[A-Za-z_][\w.-]{0,39}: ")
#: The longest such key, its colon and blank.
LEAF_KEY_MAX: Final = 42


def leaf_key_end(text: str, end: int) -> int:
    """Where the text's first line starts its own words when a JSON leaf's key was
    written before it (``stdout: PASS: t1``), looked for before ``end``; 0 without one."""
    key = _LEAF_KEY.match(text, 0, end)
    return 0 if key is None else key.end()


def _line_around(text: str, at: int) -> tuple[int, int] | None:
    """The bounds of the line holding ``at``, None when it is longer than
    _HELP_LINE_MAX (a help listing's lines are short)."""
    start = text.rfind("\n", max(0, at - _HELP_LINE_MAX), at) + 1
    if start == 0 and at > _HELP_LINE_MAX:
        return None
    end = text.find("\n", at, at + _HELP_LINE_MAX)
    if end < 0:
        if len(text) - at > _HELP_LINE_MAX:
            return None
        end = len(text)
    return start, end


def _neighbour_entry(text: str, line_start: int, line_end: int) -> bool:
    r"""Whether the nearest line before or after (over blank lines, two at most) is a help
    listing's entry too, and none before runs on into this one (a command's ``\``)."""
    before = line_start - 1
    for _ in range(3):
        if before < 0:
            break
        bounds = _line_around(text, before)
        if bounds is None:
            break
        if text[bounds[0]:bounds[1]].strip():
            if text[bounds[0]:bounds[1]].rstrip().endswith(_CONTINUATIONS):
                return False
            # (the text's first line maybe after a JSON leaf's key: a tool's output)
            if _HELP_ENTRY.match(text, bounds[0] or leaf_key_end(text, bounds[1]),
                                 bounds[1]) is not None:
                return True
            break
        before = bounds[0] - 1
    after = line_end + 1
    for _ in range(3):
        if after > len(text):
            break
        bounds = _line_around(text, after)
        if bounds is None:
            break
        if text[bounds[0]:bounds[1]].strip():
            return _HELP_ENTRY.match(text, bounds[0], bounds[1]) is not None
        after = bounds[1] + 1
    return False


def help_listing_value(text: str, option_start: int, option_end: int, start: int,
                       end: int) -> bool:
    """Whether what the option at ``text[option_start:option_end]`` (``--password``,
    ``--owner``) is given at ``text[start:end]`` is no value but a help text's.

    - In a usage line (opening with ``Usage:``, ``Uso:``), the option and its argument,
      a name of letters, in brackets: ``Uso: %s [--user nome-utilizador]``.
    - In a help listing: the option opens its line (maybe after a short option), a
      description of two words or more follows it after two blanks or more, and the
      nearest line before or after is such an entry too.  There, the option's
      metavariable in capitals, a word of which the description says
      (``--private-key=FILE       private key file``), or the first word of its
      description, another after one blank (``-W, --password           force password
      prompt``).

    A command's line (continued with ``\\``, ``^`` or a backtick, or a lone line), an
    argument holding a digit or a mark, or one after a single blank is a value
    (``mysql \\`` / ``--password=ROOTPASS  appdb``)."""
    value = text[start:end]
    line = _line_around(text, option_start)
    if line is None:
        return False
    line_start, line_end = line
    if option_start and text[option_start - 1] == "[" and text.startswith("]", end):
        return _ARGUMENT_NAME.fullmatch(value) is not None \
            and _USAGE.match(text, line_start, option_start) is not None
    if line_start == 0:
        line_start = leaf_key_end(text, option_start)  # a tool's output, after its key
    if option_start - line_start > _HELP_HEAD_MAX \
            or _HELP_LINE_HEAD.fullmatch(text, line_start, option_start) is None \
            or text[line_start:line_end].rstrip().endswith(_CONTINUATIONS) \
            or _HELP_ENTRY.match(text, line_start, line_end) is None \
            or not _neighbour_entry(text, line[0], line_end):
        return False
    if _METAVARIABLE.fullmatch(value) and _DESCRIPTION_AFTER.match(text, end) is not None:
        # A metavariable names what the description speaks of (``--password=PASS  set
        # the password to PASS``, ``--private-key=FILE  private key file``); a table's
        # ``--password=MANAGER  oracle system`` gives a value.
        said = {fold(word) for word in re.findall(r"[^\W\d_]+", text[end:line_end])}
        return any(fold(part) in said for part in re.split(r"[-_]", value) if part)
    gap = text[option_end:start]
    return (len(gap) >= 2 and gap.isspace() and "\n" not in gap and value.isalpha()
            and _DESCRIPTION_GOES_ON.match(text, end) is not None)

"""Propagation: a user name, or a word of a person's name, found once is personal data
wherever else it stands, in the same text and in the pieces of a stream after it."""

from __future__ import annotations

import enum
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Final

from redactor.engine.spans import Found, Span

#: Up to this many names, logins_standing_in first searches the text for each of them.
FEW_NAMES: Final = 16
#: Score of further occurrences of a user name or of a word of a person's name.
PROPAGATED_SCORE: Final = 0.6
#: A user name is not spread where it would add more than SPREAD_FLOOR occurrences and
#: over SPREAD_RATIO times as many as its cues in the text.
SPREAD_FLOOR: Final = 40
SPREAD_RATIO: Final = 20


@dataclass(slots=True)
class StreamNames:
    """What the pieces of one stream (a file's blocks, a Spark partition) pass on to
    the pieces after them: pass the same object to each call of ``Redactor.analyze`` or
    ``Redactor.redact``.  Names in it are redacted in each piece, and names found in a
    piece are added to it.  It holds personal data: keep it in memory only.
    """

    #: User names compared as written (Unix and most systems).
    usernames: set[str] = field(default_factory=set)
    #: User names compared in any case (SAP, Windows), case-folded.
    caseless_usernames: set[str] = field(default_factory=set)
    #: Words of people's names (PersonRecognizer.propagation_keys).
    person_words: set[str] = field(default_factory=set)
    #: The user names that are no chain of words (a display name, ``Ana Lima``), told
    #: apart from the others as names were added: see unchained_usernames.
    _unchained: tuple[_Unchained, _Unchained] | None = field(
        default=None, init=False, repr=False, compare=False)

    def __repr__(self) -> str:  # the names themselves are personal data
        return (f"StreamNames({len(self.usernames)} usernames, {len(self.caseless_usernames)} "
                f"caseless, {len(self.person_words)} person words)")

    def add_login(self, name: str, caseless: bool) -> None:
        """Add a user name (case-folded when ``caseless``) to the stream's names; the
        names that are no chain of words are told apart as they come (see
        unchained_usernames)."""
        names = self.caseless_usernames if caseless else self.usernames
        if name in names:
            return
        names.add(name)
        if self._unchained is not None:
            self._unchained[caseless].added(names, name)

    def unchained_usernames(self) -> tuple[_Unchained, _Unchained]:
        """The user names of ``usernames`` and of ``caseless_usernames`` that are no chain
        of words joined by dots or dashes (recognizers.username.is_chain): those a pass
        over a text's tokens cannot list, indexed by their first word.  Each name is told
        apart once: as add_login adds it, or, for names put in the sets otherwise, when
        a set's size or identity changed since the last look (its names are then read
        again: a name taken out and another put in between two looks, the size kept,
        is the one case not seen)."""
        if self._unchained is None:
            self._unchained = (_Unchained(), _Unchained())
        exact, caseless = self._unchained
        exact.follow(self.usernames)
        caseless.follow(self.caseless_usernames)
        return exact, caseless


#: A name's first word: the key it is filed under (a text holds it wherever it holds the name).
_FIRST_WORD: Final = re.compile(r"\w+")


class _Unchained:
    """The names of one set that are no chain of words, filed by their first word, for
    the set they were told apart from (see StreamNames.unchained_usernames)."""

    __slots__ = ("_names", "_size", "_told", "by_word", "wordless")

    def __init__(self) -> None:
        #: First word (as written) -> the names it starts.
        self.by_word: dict[str, set[str]] = {}
        #: Names without a word character.
        self.wordless: set[str] = set()
        self._names: set[str] | None = None
        self._size = -1
        #: The names of ``_names`` told apart so far.
        self._told: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self.by_word or self.wordless)

    def _file(self, name: str) -> None:
        from recognizers.username import is_chain

        if not name or is_chain(name):
            return
        word = _FIRST_WORD.search(name)
        if word is None:
            self.wordless.add(name)
        else:
            self.by_word.setdefault(word.group(), set()).add(name)

    def added(self, names: set[str], name: str) -> None:
        """``name`` was just added to ``names``."""
        if names is self._names and len(names) == self._size + 1:
            self._file(name)
            self._told.add(name)
            self._size += 1

    def follow(self, names: set[str]) -> None:
        """Tell apart the names of ``names`` not told apart yet, when it is another set or
        its size changed otherwise."""
        if names is self._names and len(names) == self._size:
            return
        if names is not self._names:
            self.by_word, self.wordless, self._told = {}, set(), set()
        new = names - self._told  # (a set's difference: no name is told apart twice)
        self._told |= new
        self._names, self._size = names, len(names)
        for name in new:
            self._file(name)

    def standing(self, text: str, names: set[str]) -> set[str]:
        """The names filed under one of the words of ``text``, or without a word, that
        are still in ``names`` and written in ``text``."""
        found = {name for name in self.wordless if name in names and name in text}
        for word in set(_FIRST_WORD.findall(text)):
            for name in self.by_word.get(word, ()):
                if name in names and name in text:
                    found.add(name)
        return found


class PersonPass(enum.Enum):
    """What an analysis does with the words of the people's names, and with the user
    names, it finds."""

    #: Redact them wherever else they stand (as a name, as the same login).
    PROPAGATE = enum.auto()
    #: Only collect them, propagating nothing (the first pass over a JSON document).
    COLLECT = enum.auto()


def usernames_propagated(normalized: str, found: Found,
                         carried: StreamNames | None = None, *,
                         collect_only: bool = False,
                         cue_counts: dict[tuple[str, bool], int] | None = None) -> list[Span]:
    """A user name found by its shape, when it is no common word, is personal data
    wherever else it stands as the same whole token (in any case for SAP and Windows
    names) -- unless it stands there so often that the cues are no evidence.

    The unit over which cues and spread are counted is one analysed text: a hook's
    value, a batch block, one string of a JSON document, a Spark batch.  Names carried
    from earlier pieces of a stream, or from the other strings of a JSON document
    (``carried``), count as one cue each.  ``collect_only``: add this text's names to
    ``carried`` and propagate nothing (the first pass over a JSON document).
    ``cue_counts``: where to add this text's cues per name (a JSON document's, for
    :func:`overspread_dropped`).
    """
    from recognizers.username import SPREAD_CASELESS

    # Keys: (name, caseless), a caseless name case-folded, as login_spans gives them.
    cues: dict[tuple[str, bool], int] = {}
    for span in found.values():
        if span.spread:
            value = normalized[span.start:span.end]
            key = (value.casefold(), True) if span.spread == SPREAD_CASELESS else (value, False)
            cues[key] = cues.get(key, 0) + 1
    if not cues and carried is None:
        return []  # no name of its own to spread, none carried in
    if cue_counts is not None:
        for key, count in cues.items():
            cue_counts[key] = cue_counts.get(key, 0) + count
    if carried is not None:
        for name, caseless in cues:
            carried.add_login(name, caseless)
        if collect_only:
            return []
        exact: Collection[str] = carried.usernames
        caseless_names: Collection[str] = carried.caseless_usernames
    else:
        exact = {name for name, caseless in cues if not caseless}
        caseless_names = {name for name, caseless in cues if caseless}
    if not exact and not caseless_names:
        return []
    from recognizers.username import login_spans

    extra: list[Span] = []
    for key, spans in login_spans(normalized, exact, caseless_names).items():
        new = [(start, end) for start, end in spans if (start, end, "USERNAME") not in found]
        if len(new) > SPREAD_FLOOR and len(new) > SPREAD_RATIO * max(cues.get(key, 0), 1):
            continue  # a word cued once and found hundreds of times is a word
        extra.extend(Span(start, end, "USERNAME", PROPAGATED_SCORE, "UsernameRecognizer")
                     for start, end in new)
    return extra


def logins_standing_in(text: str, carried: StreamNames) -> StreamNames:
    """The user names of ``carried`` that stand in ``text`` as whole tokens (person words
    left out), found in one pass over the text whatever the number of names: for a
    stream of many small documents (JSON Lines), where looking for each carried name in
    each document would cost the number of names every time.  Only names written as
    words joined by dots or dashes (``jsilva``, ``maria.silva``, ``svc-x``: the
    tokens of recognizers.username's finder) are listed that way; the others (a display
    name, ``Ana Lima``) are looked up by their first word among the text's words, and
    kept where login_spans finds them."""
    from recognizers.username import whole_tokens

    found = StreamNames()
    if not (carried.usernames or carried.caseless_usernames):
        return found
    if len(carried.usernames) + len(carried.caseless_usernames) <= FEW_NAMES:
        # A name stands in the text only where it is written in it: a few searches
        # for them rule most texts out before the token pass.
        folded = text.casefold() if carried.caseless_usernames else ""
        if not any(name in text for name in carried.usernames) \
                and not any(name in folded for name in carried.caseless_usernames):
            return found
    for token in whole_tokens(text):
        if token in carried.usernames:
            found.usernames.add(token)
        if carried.caseless_usernames:
            folded = token.casefold()
            if folded in carried.caseless_usernames:
                found.caseless_usernames.add(folded)
    exact_odd, caseless_odd = carried.unchained_usernames()
    if exact_odd or caseless_odd:
        written = exact_odd.standing(text, carried.usernames) if exact_odd else set()
        folded_written = caseless_odd.standing(text.casefold(), carried.caseless_usernames) \
            if caseless_odd else set()
        if written or folded_written:
            from recognizers.username import login_spans

            for name, caseless in login_spans(text, written, folded_written):
                (found.caseless_usernames if caseless else found.usernames).add(name)
    return found


def overspread_dropped(logins: StreamNames, cue_counts: dict[tuple[str, bool], int],
                       texts: list[str]) -> None:
    """Take out of ``logins`` the names that would be spread over ``texts`` (the strings
    of one JSON document) more than SPREAD_FLOOR times and SPREAD_RATIO times their
    cues: each string is counted apart by usernames_propagated, so a word cued once and
    standing in hundreds of values would pass that test in every one of them."""
    if not (logins.usernames or logins.caseless_usernames) or not texts:
        return
    from recognizers.username import login_spans

    joined = "\n".join(texts)
    for key, spans in login_spans(joined, logins.usernames, logins.caseless_usernames).items():
        cued = cue_counts.get(key, 0)
        extra = len(spans) - cued
        if extra > SPREAD_FLOOR and extra > SPREAD_RATIO * max(cued, 1):
            name, caseless = key
            (logins.caseless_usernames if caseless else logins.usernames).discard(name)


def persons_propagated(person: Any, normalized: str, found: Found,
                       carried: set[str] | None, person_pass: PersonPass) -> list[Span]:
    """The given name (and rare surnames) of a name found in full are personal data
    wherever else they stand alone as a name (PersonRecognizer.standalone).

    ``person`` is the pack's PersonRecognizer; ``carried`` the words of names found in
    the texts before this one (a stream's, a JSON document's), to which this text's are
    added.  With PersonPass.COLLECT nothing is propagated.
    """
    keys: set[str] = set()
    for span in found.values():
        if span.entity == "PERSON" and span.recognizer == "PersonRecognizer":
            keys |= person.propagation_keys(normalized[span.start:span.end])
    if carried is not None:
        carried |= keys
        keys = set(carried)
    if person_pass is PersonPass.COLLECT or not keys:
        return []
    taken = sorted((s.start, s.end) for s in found.values() if s.entity == "PERSON")
    return [Span(start, end, "PERSON", PROPAGATED_SCORE, "PersonRecognizer")
            for start, end in person.standalone(normalized, keys, taken)]

"""What a user name is not: common words of Portuguese and English, and the words of
computing (program names, protocols, weekday and month names).

A word captured after a cue such as ``usuário`` or ``login:`` is a user name only if it
is not one of these, unless the form around it admits nothing else (``user=admin``,
``Invalid user test from``); and a user name that is one of these is never spread to
its other occurrences.  The definition, written down once:

* a **common word** is one that :mod:`pyspellchecker`'s Portuguese list (subtitle
  frequencies) counts at least :data:`PT_MIN` times, or its English list at least
  :data:`EN_MIN` times, compared without case and accents; or one of the hand-written
  words of ``data/technical_words.txt``;
* except a **given name** borne by at least :data:`GIVEN_MIN` people in the 2010 census
  (``maria``, ``james``) that the lists count fewer than :data:`NAME_PT_MAX` /
  :data:`NAME_EN_MAX` times: that one is decided by the form around it alone.

After a Portuguese user word (``usuário efetivo``, ``credenciais do usuário expiradas``)
a **Portuguese adjective** is no login either (:func:`is_portuguese_adjective`): a word of
the Portuguese list, however rare, of :data:`PT_ENDED_MIN` letters or more, ending as
participles and adjectives do (:data:`PT_WORD_ENDINGS`), that no name list holds.
Portuguese puts the adjective after its noun; elsewhere such a word may be a login.

Only whole single words are looked up: ``john.smith``, ``e-smith`` or ``jsilva2`` are
never common words.  The lists are read on first use (about a quarter of a second).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Final

from recognizers._text import cache_dir, fold

__all__ = ["DATA_FILES", "EN_MIN", "GIVEN_MIN", "PT_MIN", "english_frequency", "is_common_word",
           "is_portuguese_adjective"]

#: The data files of recognizers/data this module reads.
DATA_FILES: Final = ("technical_words.txt",)

#: Counts from which a word of the Portuguese / English list is common.
PT_MIN: Final = 100
EN_MIN: Final = 200
#: A given name with this many bearers is a name, not a common word...
GIVEN_MIN: Final = 1_000
#: ... unless the word lists count it at least this often (``mark``, ``will``).
NAME_PT_MAX: Final = 2_000
NAME_EN_MAX: Final = 5_000


def _frequencies(language: str, minimum: int) -> dict[str, int]:
    source = resources.files("spellchecker") / "resources" / f"{language}.json.gz"
    counts: dict[str, int] = {}
    for word, count in json.loads(gzip.decompress(source.read_bytes())).items():
        if count >= minimum:
            key = fold(word)
            counts[key] = max(count, counts.get(key, 0))
    return counts


@cache
def _technical() -> frozenset[str]:
    text = (resources.files("recognizers") / "data" / "technical_words.txt").read_text(
        encoding="utf-8")
    return frozenset(word.lower() for line in text.splitlines()
                     if not line.startswith("#") for word in line.split())


#: Part of the disk caches' keys: change it when a definition here changes.
_CACHE_VERSION: Final = b"lexicon-1"


def _cached_words(name: str, sources: list[str], build: Callable[[], set[str]]) -> frozenset[str]:
    """The words ``build`` gives, kept as JSON under ``$XDG_CACHE_HOME/redactor`` keyed by
    ``name`` and a hash of ``sources`` (pyspellchecker's lists by language code, this
    package's data files by file name).  A cache that cannot be read or holds anything
    but a list of words is rebuilt."""
    digest = hashlib.sha256(_CACHE_VERSION)
    for source in sources:
        where = (resources.files("spellchecker") / "resources" / f"{source}.json.gz"
                 if "." not in source else resources.files("recognizers") / "data" / source)
        digest.update(where.read_bytes())
    path = cache_dir() / f"{name}-{digest.hexdigest()[:24]}.json"
    with contextlib.suppress(OSError, ValueError, RecursionError):
        loaded = json.loads(path.read_bytes())
        if isinstance(loaded, list) and all(type(word) is str for word in loaded):
            return frozenset(loaded)
    words = build()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(sorted(words)), encoding="utf-8")
        os.replace(temporary, path)
    return frozenset(words)


@cache
def _common() -> frozenset[str]:
    """The common words (building them reads 450,000 words: half a second; see
    _cached_words)."""
    return _cached_words("lexicon", ["pt", "en", "given_names.tsv"], _build) | _technical()


def _build() -> set[str]:
    from recognizers.names import given_names

    portuguese = _frequencies("pt", PT_MIN)
    english = _frequencies("en", EN_MIN)
    names = given_names()
    common: set[str] = set()
    for word in portuguese.keys() | english.keys():
        if not word.isalpha():
            continue
        if names.get(word.upper(), 0) >= GIVEN_MIN and portuguese.get(word, 0) < NAME_PT_MAX \
                and english.get(word, 0) < NAME_EN_MAX:
            continue
        common.add(word)
    return common


def is_common_word(value: str) -> bool:
    """Whether ``value``, a single word, is a common word or a word of computing."""
    key = fold(value)
    return key in _technical() or (key.isalpha() and key in _common())


#: English words at least this frequent are kept by :func:`english_frequency`.
EN_FREQUENT: Final = 10_000


@cache
def _english_frequent() -> dict[str, int]:
    return _frequencies("en", EN_FREQUENT)


def english_frequency(value: str) -> int:
    """How often the English list counts ``value`` (a single word; 0 when below
    EN_FREQUENT): ``any`` 2,565,586, ``nice`` 698,611, ``steve`` 0."""
    return _english_frequent().get(fold(value), 0)


#: Endings of Portuguese participles and adjectives (``efetivo``, ``expiradas``,
#: ``autenticado``, ``disponível``).
PT_WORD_ENDINGS: Final = ("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "ivo",
                          "iva", "ivos", "ivas", "avel", "aveis", "ivel", "iveis")
#: The fewest letters of such a word: a shorter one so ending is as often a verb's form or
#: a login (``brada``, ``user=brada`` in an IMAP log).
PT_ENDED_MIN: Final = 7


@cache
def _portuguese_adjectives() -> frozenset[str]:
    """The Portuguese adjectives (see the module's docstring; building them reads the
    Portuguese list and the name lists: most of a second; see _cached_words)."""
    return _cached_words("adjectives", ["pt", *_NAME_FILES], _build_adjectives)


#: The name lists whose words are no adjective.
_NAME_FILES: Final = ("given_names.tsv", "surnames.txt", "surnames_hand.txt",
                      "foreign_given_names.tsv", "foreign_surnames.txt")


def _build_adjectives() -> set[str]:
    from recognizers.names import foreign_given_names, foreign_surnames, given_names, surnames

    named = (given_names().keys() | surnames() | foreign_given_names().keys()
             | foreign_surnames())
    return {word for word in _frequencies("pt", 0) if len(word) >= PT_ENDED_MIN
            and word.endswith(PT_WORD_ENDINGS) and word.isalpha()
            and word.upper() not in named}


def is_portuguese_adjective(value: str) -> bool:
    """Whether ``value``, a single word, is a Portuguese participle or adjective (see the
    module's docstring): the Portuguese list's words are read on first use."""
    key = fold(value)
    return len(key) >= PT_ENDED_MIN and key.endswith(PT_WORD_ENDINGS) \
        and key in _portuguese_adjectives()

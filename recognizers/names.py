"""Name data for recognising people's names: given names, surnames, Brazilian places,
foreign given names.

The files live in ``recognizers/data`` (sources and licences in its LICENSES.md) and
are read once, on first use.  Words are compared folded: :func:`fold_name` drops
accents and upper-cases (``João``, ``JOAO`` and ``Joao`` are ``JOAO``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final

__all__ = ["DATA_FILES", "fold_name", "foreign_given_names", "foreign_surnames", "given_names",
           "places", "surnames"]

#: The data files this module reads.
DATA_FILES: Final = ("given_names.tsv", "surnames.txt", "surnames_hand.txt", "places.txt",
                     "stop_words.txt", "english_stop_words.txt", "foreign_given_names.tsv",
                     "foreign_surnames.txt")


def fold_name(word: str) -> str:
    """``João`` -> ``JOAO``; a typographic apostrophe becomes ``'``."""
    if word.isascii():
        return word.upper()
    decomposed = unicodedata.normalize("NFKD", word.replace("\u2019", "'"))
    return decomposed.encode("ascii", "ignore").decode("ascii").upper()


def _lines(name: str) -> list[str]:
    text = (resources.files("recognizers") / "data" / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@cache
def given_names() -> Mapping[str, int]:
    """Folded given names and how many people bore each in the 2010 census (200 or more)."""
    counts: dict[str, int] = {}
    for line in _lines("given_names.tsv"):
        name, count = line.split("\t")
        counts[name] = int(count)
    return counts


@cache
def foreign_given_names() -> Mapping[str, int]:
    """Folded given names of other countries (``KEVIN``, ``MARK``) and how frequent each
    is as an English word (0 when it is none): the names of Faker's foreign locales."""
    frequencies: dict[str, int] = {}
    for line in _lines("foreign_given_names.tsv"):
        name, count = line.split("\t")
        frequencies[name] = int(count)
    return frequencies


@cache
def foreign_surnames() -> frozenset[str]:
    """Folded surnames of other countries (``MITCHELL``, ``HOCEVAR``): Faker's foreign
    locales."""
    return frozenset(_lines("foreign_surnames.txt"))


@cache
def surnames() -> frozenset[str]:
    """Folded surnames (the generated list and the hand-written one)."""
    words = set(_lines("surnames.txt"))
    for line in _lines("surnames_hand.txt"):
        words.update(fold_name(word) for word in line.split())
    return frozenset(words)


@cache
def places() -> tuple[str, ...]:
    """Names of Brazilian municipalities and states, as written (``São José dos Campos``)."""
    return tuple(_lines("places.txt"))

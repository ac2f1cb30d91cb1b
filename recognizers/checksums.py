"""Check-digit validation for Brazilian identifiers.

The digits are checked by validate-docbr; this module only puts a strict format
guard in front of it.  validate-docbr zero-pads short CPFs (``949`` passes),
whitelists separators without looking at their positions and accepts all-equal
strings for some documents, so every function here first reduces a candidate to
its exact canonical characters and rejects anything that is not exactly that.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from validate_docbr import CNPJ, CPF

__all__ = [
    "canonical",
    "cnpj_is_valid",
    "cpf_is_valid",
]

# Characters a written identifier may be separated by.  The matching table in
# recognizers._text maps dash and space variants onto these before we get here.
_SEPARATORS: Final = str.maketrans("", "", " .-/\u00a0\u2007\u2009\u202f")
_ASCII_DIGITS: Final = frozenset("0123456789")
_ALNUM_UPPER: Final = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@lru_cache(maxsize=1)
def _cpf() -> CPF:
    from validate_docbr import CPF

    return CPF()


@lru_cache(maxsize=1)
def _cnpj() -> CNPJ:
    from validate_docbr import CNPJ

    return CNPJ()


def canonical(candidate: str) -> str:
    """Return the candidate without separators, NFKC-folded and upper-cased."""
    return unicodedata.normalize("NFKC", candidate).translate(_SEPARATORS).upper()


def _all_equal(value: str) -> bool:
    return len(set(value)) == 1


def cpf_is_valid(candidate: str) -> bool:
    """True when the candidate is exactly 11 ASCII digits (after separators) with valid DVs."""
    digits = canonical(candidate)
    if len(digits) != 11 or not set(digits) <= _ASCII_DIGITS or _all_equal(digits):
        return False
    return bool(_cpf().validate(digits))


def cnpj_is_valid(candidate: str) -> bool:
    """True for a numeric or alphanumeric (IN RFB 2.229/2024) CNPJ with valid DVs.

    Positions 1-12 are ``0-9A-Z``; the two check digits are always digits.
    Lower case is folded to upper case here; callers decide whether a lower-case
    written form is acceptable at all.
    """
    value = canonical(candidate)
    if (
        len(value) != 14
        or not set(value[:12]) <= _ALNUM_UPPER
        or not set(value[12:]) <= _ASCII_DIGITS
        or _all_equal(value)
    ):
        return False
    return bool(_cnpj().validate(value))


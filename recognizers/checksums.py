"""Check-digit validation for Brazilian identifiers.

The digits are checked by validate-docbr; this module only puts a strict format
guard in front of it.  validate-docbr zero-pads short CPFs (``949`` passes),
whitelists separators without looking at their positions and accepts all-equal
strings for some documents, so every function here first reduces a candidate to
its exact canonical characters and rejects anything that is not exactly that.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Final

from recognizers._escapes import decode_separators, has_escape

if TYPE_CHECKING:
    from validate_docbr import DocumentBase

__all__ = [
    "brcode_crc_ok",
    "canonical",
    "cnh_is_valid",
    "cnj_is_valid",
    "cnpj_is_valid",
    "cns_is_valid",
    "cpf_is_valid",
    "pis_is_valid",
    "renavam_is_valid",
    "rg_sp_is_valid",
    "titulo_is_valid",
]

# Characters a written identifier may be separated by.  The matching table in
# recognizers._text maps dash and space variants onto these before we get here.
_SEPARATORS: Final = str.maketrans("", "", " .-/\u00a0\u2007\u2009\u202f")
_ASCII_DIGITS: Final = frozenset("0123456789")
_ALNUM_UPPER: Final = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


#: Verdicts remembered per process (see _passes).
CHECK_CACHE_SIZE: Final = 8_192


@cache
def _validator(name: str) -> DocumentBase:
    """One validate-docbr validator per document class (``"CPF"``, ``"CNH"``...), built once."""
    import validate_docbr

    validator: DocumentBase = getattr(validate_docbr, name)()
    return validator


def canonical(candidate: str) -> str:
    """Return the candidate without separators, NFKC-folded and upper-cased.

    Separators written as escapes (recognizers._escapes) are read as the character.

    Dash and space variants that NFKC leaves alone (``–``, U+2212, zero-width spaces)
    then go through the matching table (recognizers._text), so ``12.ABC.345/01DE–35``
    reads as its ASCII form, as it does once the engine has normalised the text.
    """
    if has_escape(candidate):
        # Separators written as escapes (``%2F``, ``\\/``, ``&#47;``): decoded before
        # they are removed (``%2F`` holds a digit).
        candidate = decode_separators(candidate)
    if candidate.isascii():  # nothing to fold: the common case, on the hot path
        return candidate.translate(_SEPARATORS).upper()
    from recognizers._text import normalize_for_matching

    folded = normalize_for_matching(unicodedata.normalize("NFKC", candidate))
    return folded.translate(_SEPARATORS).upper()


def _all_equal(value: str) -> bool:
    return len(set(value)) == 1


@lru_cache(maxsize=CHECK_CACHE_SIZE)
def _passes(name: str, value: str) -> bool:
    """validate-docbr's verdict on a canonical value, remembered: logs repeat the same
    identifiers, and a recognizer asks twice about one match (validate, invalidate).
    The values stay in this process's memory only, like the text being redacted."""
    return bool(_validator(name).validate(value))


def cpf_is_valid(candidate: str) -> bool:
    """True when the candidate is exactly 11 ASCII digits (after separators) with valid DVs."""
    digits = canonical(candidate)
    if len(digits) != 11 or not set(digits) <= _ASCII_DIGITS or _all_equal(digits):
        return False
    return _passes("CPF", digits)


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
    return _passes("CNPJ", value)



def _digits(candidate: str, length: int) -> str | None:
    value = canonical(candidate)
    if len(value) != length or not set(value) <= _ASCII_DIGITS:
        return None
    return value


def cnh_is_valid(candidate: str) -> bool:
    """A CNH "nº registro" valid under either published rule.

    validate-docbr subtracts 2 from the second DV when the first remainder is 10
    (its own vector ``10764125809``); brutils and others do not (``82391823702``).
    No official specification settles it, so both are accepted; all-equal numbers
    (which pass the raw check) are not.
    """
    digits = _digits(candidate, 11)
    if digits is None or _all_equal(digits):
        return False
    if _validator("CNH").validate(digits):
        return True
    return digits[9:] == _cnh_without_discount(digits[:9])


def _cnh_without_discount(base: str) -> str:
    # The variant validate-docbr does not implement: no discount on the second DV.
    first = sum(int(d) * w for d, w in zip(base, range(9, 0, -1), strict=True)) % 11
    first = 0 if first >= 10 else first
    second = sum(int(d) * w for d, w in zip(base, range(1, 10), strict=True)) % 11
    second = 0 if second >= 10 else second
    return f"{first}{second}"


def pis_is_valid(candidate: str) -> bool:
    """PIS/PASEP/NIS/NIT: 11 digits, mod-11 DV (validate-docbr); all-equal rejected."""
    digits = _digits(candidate, 11)
    return (digits is not None and not _all_equal(digits)
            and bool(_validator("PIS").validate(digits)))


def titulo_is_valid(candidate: str) -> bool:
    """Título de Eleitor: 12 digits, UF 01-28, two DVs; with or without the SP/MG rule.

    validate-docbr omits the exception (a remainder 0 becomes 1 for UF 01 and 02)
    that brutils applies; titles exist under both readings, so either is accepted.
    """
    digits = _digits(candidate, 12)
    if digits is None or _all_equal(digits) or not 1 <= int(digits[8:10]) <= 28:
        return False
    if _validator("TituloEleitoral").validate(digits):
        return True
    return digits[10:] == _titulo_with_sp_mg_rule(digits[:10])


def _titulo_with_sp_mg_rule(base: str) -> str:
    uf = base[8:10]
    first = sum(int(d) * w for d, w in zip(base[:8], range(2, 10), strict=True)) % 11
    if first == 10:
        first = 0
    elif first == 0 and uf in ("01", "02"):
        first = 1
    second = (int(uf[0]) * 7 + int(uf[1]) * 8 + first * 9) % 11
    if second == 10:
        second = 0
    elif second == 0 and uf in ("01", "02"):
        second = 1
    return f"{first}{second}"


def cns_is_valid(candidate: str) -> bool:
    """Cartão Nacional de Saúde: 15 digits, first digit 1, 2, 7, 8 or 9 (validate-docbr)."""
    digits = _digits(candidate, 15)
    return (digits is not None and digits[0] in "12789" and not _all_equal(digits)
            and bool(_validator("CNS").validate(digits)))


def renavam_is_valid(candidate: str) -> bool:
    """RENAVAM: 11 digits (old 9- and 10-digit numbers left-padded with zeros)."""
    value = canonical(candidate)
    if not 9 <= len(value) <= 11 or not set(value) <= _ASCII_DIGITS:
        return False
    digits = value.rjust(11, "0")
    return not _all_equal(digits) and bool(_validator("RENAVAM").validate(digits))


def rg_sp_is_valid(candidate: str) -> bool:
    """The São Paulo RG check digit (weights 2..9 on the right-aligned 8 digits; 10 is X).

    Other states' rules are not published; a pass only raises confidence.
    """
    value = canonical(candidate)
    if not 8 <= len(value) <= 9 or not set(value[:-1]) <= _ASCII_DIGITS:
        return False
    base, check = value[:-1].rjust(8, "0"), value[-1]
    total = sum(int(d) * w for d, w in zip(base, range(2, 10), strict=True))
    expected = (11 - total % 11) % 11
    return check == ("X" if expected == 10 else str(expected))


def cnj_is_valid(candidate: str) -> bool:
    """CNJ unified process number NNNNNNN-DD.AAAA.J.TR.OOOO (Resolução CNJ 65/2008).

    The check digits DD make ``NNNNNNN AAAA J TR OOOO DD`` equal 1 modulo 97
    (ISO 7064 mod 97-10).  The segment J is 1 to 9 (art. 1º, § 4º: STF, CNJ, STJ,
    federal, labour, electoral, military, state and state military courts); the
    courts within a segment are not checked.
    """
    digits = _digits(candidate, 20)
    if digits is None or digits[13] == "0":
        return False
    number, check, rest = digits[:7], digits[7:9], digits[9:]
    return int(number + rest + check) % 97 == 1


def brcode_crc_ok(payload: str) -> bool:
    """True when a Pix BR Code ends in ``6304`` + the CRC-16/CCITT-FALSE of all before it."""
    import binascii

    if len(payload) < 8 or payload[-8:-4] != "6304":
        return False
    try:
        expected = int(payload[-4:], 16)
        data = payload[:-4].encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return False
    return binascii.crc_hqx(data, 0xFFFF) == expected

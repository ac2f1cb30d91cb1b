"""BR_PLACA: vehicle plates, old (ABC-1234) and Mercosul (ABC1D23)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded

__all__ = ["BrPlacaRecognizer"]

_MERCOSUL: Final = r"[A-Z]{3}-?[0-9][A-Z][0-9]{2}"
_OLD_DASHED: Final = r"[A-Z]{3}-[0-9]{4}"
_OLD_BARE: Final = r"[A-Z]{3}[0-9]{4}"
#: Either layout in lower case, compact or dashed (``abc1d23``, ``abc-1234``).
_LOWER: Final = r"[a-z]{3}-?[0-9][0-9a-z][0-9]{2}"
#: Either layout with a space after the letters (``ABC 1234``, ``abc 1234``), only
#: right after the word "placa" (prose is full of "com 1234", "BRL 1000").
_SPACED: Final = (r"(?<=(?<![0-9A-Za-z])[Pp][Ll][Aa][Cc][Aa][ \t]{0,2}:?[ \t]{1,2})"
                  r"(?:[A-Z]{3} [0-9][0-9A-Z][0-9]{2}|[a-z]{3} [0-9][0-9a-z][0-9]{2})")
#: Lookaround-free supersets of the last two, for the prefilter.
_LOWER_TRIGGER: Final = _LOWER
_SPACED_TRIGGER: Final = r"[A-Za-z]{3} [0-9][0-9A-Za-z][0-9]{2}"


class BrPlacaRecognizer(PackPatternRecognizer):
    """Plates.  The upper-case Mercosul shape counts alone (dashed too: ``ABC-1D23``);
    the old shapes (``BRL1000``, ``GRU1234`` and product codes look the same) need a
    vehicle keyword.

    Lower case is not the plate format, but forms and logs lower-case it.  Three
    lower-case letters and digits are also what short git hashes (``abc1d23`` is seven
    hex characters), identifiers (``abc1234``) and words with a number look like, so a
    lower-case plate, in either layout, needs a vehicle keyword like the old shapes; it
    is never a plate alone.  A plate with a space after its letters counts only right
    after the word "placa".
    """

    ENTITY = "BR_PLACA"
    PATTERNS = (
        Pattern("plate (Mercosul)", bounded(_MERCOSUL), 0.4),
        Pattern("plate (old, dashed)", bounded(_OLD_DASHED), 0.35),
        Pattern("plate (old)", bounded(_OLD_BARE), 0.1),
        Pattern("plate (lower case)", bounded(_LOWER), 0.1),
        Pattern("plate (spaced)", bounded(_SPACED), 0.1),
    )
    PREFILTER = ((_MERCOSUL, 0.4), (_OLD_DASHED, 0.35), (_OLD_BARE, 0.1), (_LOWER_TRIGGER, 0.1),
                 (_SPACED_TRIGGER, 0.1))
    MAX_LENGTH = 8
    DEFAULT_CONTEXT = ("placa", "veiculo", "carro", "moto", "detran", "multa",
                       "license plate")

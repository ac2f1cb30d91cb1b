"""BR_TITULO_ELEITOR: the 12-digit voter ID (sequence, UF code, two check digits)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import titulo_is_valid

__all__ = ["BrTituloEleitorRecognizer"]

_SPACED: Final = r"[0-9]{4}[ .][0-9]{4}[ .][0-9]{4}"
#: Sequence, sequence, UF code, check digits: brutils' format (``2776 2712 28 52``).
_FIELDS: Final = r"[0-9]{4} [0-9]{4} [0-9]{2} [0-9]{2}"
_BARE: Final = r"[0-9]{12}"


class BrTituloEleitorRecognizer(PackPatternRecognizer):
    """Voter IDs with a valid UF code (01-28) and check digits, with or without the SP/MG rule.

    Twelve digits are also ``YYYYMMDDhhmm`` timestamps (``202403020159`` passes), so
    every form needs a voter keyword.
    """

    ENTITY = "BR_TITULO_ELEITOR"
    PATTERNS = (
        Pattern("Titulo (grouped)", bounded(_SPACED), 0.3),
        Pattern("Titulo (fields)", bounded(_FIELDS), 0.3),
        Pattern("Titulo (bare)", bounded(_BARE), 0.1),
    )
    PREFILTER = ((_SPACED, 0.3), (_FIELDS, 0.3), (_BARE, 0.1))
    MAX_LENGTH = 14
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "titulo de eleitor", "titulo eleitoral", "inscricao eleitoral", "eleitor", "zona",
        "secao", "tse", "tre", "voter id",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop bad UF codes and check digits."""
        return not titulo_is_valid(pattern_text)

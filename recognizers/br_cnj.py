"""BR_CNJ: the unified number of a Brazilian court case (Resolução CNJ 65/2008)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import cnj_is_valid

__all__ = ["BrCnjRecognizer"]

_MASKED: Final = r"[0-9]{7}-[0-9]{2}\.[0-9]{4}\.[0-9]\.[0-9]{2}\.[0-9]{4}"
_BARE: Final = r"[0-9]{20}"


class BrCnjRecognizer(PackPatternRecognizer):
    """NNNNNNN-DD.AAAA.J.TR.OOOO with its mod-97 check digits.

    A case number ties a person to a lawsuit.  The masked form is distinctive and
    decided by its check digits; 20 bare digits need a court keyword.
    """

    ENTITY = "BR_CNJ"
    PATTERNS = (
        Pattern("CNJ (masked)", bounded(_MASKED), 1.0),
        Pattern("CNJ (bare)", bounded(_BARE), 0.1),
    )
    PREFILTER = ((_MASKED, 1.0), (_BARE, 0.1))
    MAX_LENGTH = 25
    DEFAULT_CONTEXT = ("processo", "numero do processo", "autos", "acao", "cnj", "tribunal",
                       "vara", "proc", "lawsuit", "case number")

    def validate_result(self, pattern_text: str) -> bool | None:
        """The masked form is decided by its check digits."""
        return cnj_is_valid(pattern_text) if "-" in pattern_text else None

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop failed check digits."""
        return not cnj_is_valid(pattern_text)

"""BR_PIS: PIS, PASEP, NIS and NIT share one 11-digit number space."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import canonical, pis_is_valid

__all__ = ["BrPisRecognizer"]

# 3.5.2-1 and 3.4.3-1 groupings, eleven digits in all (checked after the match).
_MASKED: Final = r"[0-9]{3}\.[0-9]{4,5}\.[0-9]{2,3}-[0-9]"
_BARE: Final = r"[0-9]{11}"


class BrPisRecognizer(PackPatternRecognizer):
    """PIS/PASEP/NIS/NIT numbers with their mod-11 check digit.

    The masked form is distinctive and counts alone; a bare run passes the check one
    time in ten, so it needs a keyword, which then outranks a bare CPF reading.
    """

    ENTITY = "BR_PIS"
    PATTERNS = (
        Pattern("PIS (masked)", bounded(_MASKED), 0.6),
        Pattern("PIS (bare)", bounded(_BARE), 0.05),
    )
    PREFILTER = ((_MASKED, 0.6), (_BARE, 0.05))
    MAX_LENGTH = 14
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "pis", "pasep", "pis/pasep", "nit", "nis", "numero de identificacao social",
        "numero de identificacao do trabalhador", "ctps", "inss", "bolsa familia", "cadunico",
        "fgts", "pis number",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop wrong lengths and failed check digits."""
        return len(canonical(pattern_text)) != 11 or not pis_is_valid(pattern_text)

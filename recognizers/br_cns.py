"""BR_CNS: Cartão Nacional de Saúde (Cartão SUS), 15 digits."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import cns_is_valid

__all__ = ["BrCnsRecognizer"]

_GROUPED: Final = r"[12789][0-9]{2} [0-9]{4} [0-9]{4} [0-9]{4}"
_BARE: Final = r"[12789][0-9]{14}"


class BrCnsRecognizer(PackPatternRecognizer):
    """CNS numbers, definitive (first digit 1 or 2) and provisional (7, 8, 9).

    The printed 3-4-4-4 grouping with a valid check counts alone; a bare run (2.7 %
    of random ones pass) needs a health keyword.
    """

    ENTITY = "BR_CNS"
    PATTERNS = (
        Pattern("CNS (grouped)", bounded(_GROUPED), 0.5),
        Pattern("CNS (bare)", bounded(_BARE), 0.15),
    )
    PREFILTER = ((_GROUPED, 0.5), (_BARE, 0.15))
    MAX_LENGTH = 18
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "cns", "cartao sus", "cartao nacional de saude", "sus", "prontuario", "paciente",
        "datasus", "sus card",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop failed check digits and invalid first digits."""
        return not cns_is_valid(pattern_text)

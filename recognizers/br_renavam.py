"""BR_RENAVAM: the vehicle register number, 11 digits (old ones padded from 9)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import renavam_is_valid

__all__ = ["BrRenavamRecognizer"]

_DASHED: Final = r"[0-9]{8,10}-[0-9]"
_BARE: Final = r"[0-9]{9,11}"


class BrRenavamRecognizer(PackPatternRecognizer):
    """RENAVAM numbers with their check digit (the PIS function), with a vehicle keyword only."""

    ENTITY = "BR_RENAVAM"
    PATTERNS = (
        Pattern("RENAVAM (dashed)", bounded(_DASHED), 0.05),
        Pattern("RENAVAM (bare)", bounded(_BARE), 0.05),
    )
    PREFILTER = ((_DASHED, 0.05), (_BARE, 0.05))
    MAX_LENGTH = 12
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "renavam", "crlv", "crv", "dut", "licenciamento", "ipva", "veiculo", "detran",
        "vehicle registration",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop failed check digits."""
        return not renavam_is_valid(pattern_text)

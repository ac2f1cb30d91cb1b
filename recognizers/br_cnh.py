"""BR_CNH: Carteira Nacional de Habilitação, the 11-digit "nº registro"."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import cnh_is_valid

__all__ = ["BrCnhRecognizer"]

_CORE: Final = r"[0-9]{3}[ .]?[0-9]{3}[ .]?[0-9]{3}[ -]?[0-9]{2}"


class BrCnhRecognizer(PackPatternRecognizer):
    """CNH numbers that pass either published check-digit rule, with a CNH keyword only.

    Eleven digits are shared with CPF, PIS, RENAVAM and mobile numbers, and about 1 %
    of random runs pass, so a CNH counts only next to its keyword; there it outranks
    a bare CPF reading of the same digits.
    """

    ENTITY = "BR_CNH"
    PATTERNS = (Pattern("CNH", bounded(_CORE), 0.05),)
    PREFILTER = ((_CORE, 0.05),)
    MAX_LENGTH = 14
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "cnh", "carteira de motorista", "carteira nacional de habilitacao", "habilitacao",
        "registro da cnh", "renach", "detran", "driver's license", "driving licence",
        "drivers license",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop numbers that fail both rules."""
        return not cnh_is_valid(pattern_text)

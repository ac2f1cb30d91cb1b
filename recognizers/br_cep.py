"""BR_CEP: the 8-digit postal code (no check digit)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded

__all__ = ["BrCepRecognizer"]

_MASKED: Final = r"[0-9]{5}-[0-9]{3}|[0-9]{2}\.[0-9]{3}-[0-9]{3}"
_BARE: Final = r"[0-9]{8}"


class BrCepRecognizer(PackPatternRecognizer):
    """Postal codes next to an address keyword (alone a CEP is a quasi-identifier at most).

    ``NNNNN-NNN`` protocol numbers and ``YYYYMMDD`` dates share the shapes, so every
    form needs a keyword.
    """

    ENTITY = "BR_CEP"
    PATTERNS = (
        Pattern("CEP", bounded(_MASKED), 0.3),
        Pattern("CEP (bare)", bounded(_BARE), 0.01),
    )
    PREFILTER = ((_MASKED, 0.3), (_BARE, 0.01))
    MAX_LENGTH = 10
    DEFAULT_CONTEXT = (
        "cep", "codigo postal", "endereco", "logradouro", "bairro", "zip", "postal code",
    )

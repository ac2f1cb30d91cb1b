"""BR_CNJ: the unified number of a Brazilian court case (Resolução CNJ 65/2008)."""

from __future__ import annotations

from typing import Final

import regex
from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import cnj_is_valid

__all__ = ["BrCnjRecognizer"]

#: NNNNNNN-DD.AAAA.J.TR.OOOO, also with a slash or a dot after the sequence and with J
#: and TR fused (``0002080-25.2012.515.0049``, an older mask): layouts of their own.
_MASKED: Final = r"[0-9]{7}[-/.][0-9]{2}\.[0-9]{4}\.[0-9]\.?[0-9]{2}\.[0-9]{4}"
#: The six fields separated by any of ``- . /`` or a space (``0000001 83 2017 8 26 0100``).
_LOOSE: Final = (r"[0-9]{7}[-./ ][0-9]{2}[-./ ][0-9]{4}[-./ ][0-9][-./ ]?[0-9]{2}[-./ ]"
                 r"[0-9]{4}")
_BARE: Final = r"[0-9]{20}"
_MASKED_RE: Final = regex.compile(_MASKED)


class BrCnjRecognizer(PackPatternRecognizer):
    """NNNNNNN-DD.AAAA.J.TR.OOOO with its mod-97 check digits.

    A case number ties a person to a lawsuit.  The masks are distinctive and decided by
    their check digits (found with or without a keyword); the fields separated any other
    way, and 20 bare digits, need a court keyword.
    """

    ENTITY = "BR_CNJ"
    PATTERNS = (
        Pattern("CNJ (masked)", bounded(_MASKED), 1.0),
        Pattern("CNJ (separated)", bounded(_LOOSE), 0.1),
        Pattern("CNJ (bare)", bounded(_BARE), 0.1),
    )
    PREFILTER = ((_MASKED, 1.0), (_LOOSE, 0.1), (_BARE, 0.1))
    MAX_LENGTH = 25
    DEFAULT_CONTEXT = ("processo", "numero do processo", "autos", "acao", "cnj", "tribunal",
                       "vara", "proc", "lawsuit", "case number")

    def validate_result(self, pattern_text: str) -> bool | None:
        """A mask is decided by its check digits; other forms keep their score."""
        return cnj_is_valid(pattern_text) if _MASKED_RE.fullmatch(pattern_text) else None

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop failed check digits."""
        return not cnj_is_valid(pattern_text)

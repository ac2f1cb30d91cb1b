"""BR_RENAVAM: the vehicle register number, 11 digits (old ones padded from 9)."""

from __future__ import annotations

import re
from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded
from recognizers.checksums import canonical, renavam_is_valid

__all__ = ["BrRenavamRecognizer"]

#: Digits with one separator anywhere: validate-docbr's mask ``1382465226-8``, and
#: ``0063988.4962``, ``00639884-962`` (@brazilian-utils' tests).
_SEPARATED: Final = r"[0-9]{1,11}[-./][0-9]{1,10}"
#: A digit run, but not one that a separator and a single last digit follow: in
#: ``8166853556-2`` the run is no finding of its own (redacting it left ``-2`` behind);
#: the separated form decides about the whole.  A longer number after a separator
#: (``01993520012/2024``) is another token.
_BARE: Final = r"[0-9]{9,11}(?![-./][0-9](?![0-9]))"
_SEPARATOR: Final = re.compile(r"[-./]")


def _written_value_passes(written: str) -> bool:
    """True when a RENAVAM written with a separator passes its check.

    Read whole (9 to 11 digits, left-padded) or, for a dash before one last digit, as
    the number before the dash: redactor reads a digit run followed by ``-D`` as the
    old number it is alone, and the written value holding it is then redacted whole,
    never the run without its ``-D``.
    """
    digits = canonical(written)
    if 9 <= len(digits) <= 11 and renavam_is_valid(digits):
        return True
    parts = _SEPARATOR.split(written)
    return (len(parts) == 2 and "-" in written and len(parts[1]) == 1
            and 9 <= len(parts[0]) <= 11 and renavam_is_valid(parts[0]))


class BrRenavamRecognizer(PackPatternRecognizer):
    """RENAVAM numbers with their check digit (the PIS function), with a vehicle keyword only."""

    ENTITY = "BR_RENAVAM"
    PATTERNS = (
        Pattern("RENAVAM (separated)", bounded(_SEPARATED), 0.05),
        Pattern("RENAVAM (bare)", bounded(_BARE), 0.05),
    )
    PREFILTER = ((_SEPARATED, 0.05), ("[0-9]{9,11}", 0.05))  # lookaround-free
    MAX_LENGTH = 13
    CONTEXT_SCORE = 1.0
    DEFAULT_CONTEXT = (
        "renavam", "crlv", "crv", "dut", "licenciamento", "ipva", "veiculo", "detran",
        "vehicle registration",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop failed check digits."""
        if _SEPARATOR.search(pattern_text):
            return not _written_value_passes(pattern_text)
        return not renavam_is_valid(pattern_text)

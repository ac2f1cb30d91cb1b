"""BR_CPF: Cadastro de Pessoas Físicas, 11 digits with two mod-11 check digits."""

from __future__ import annotations

from typing import Final

import regex
from presidio_analyzer import Pattern

from recognizers.base import CHECKSUM_PASS_SCORE, PackPatternRecognizer, bounded
from recognizers.checksums import cpf_is_valid
from recognizers.prefilter import Prefilter, Trigger, checked

__all__ = ["BrCpfRecognizer"]

_MASKED: Final = r"[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}"
# Any other separated form; the lookahead demands at least one separator.
_SEPARATED: Final = r"(?=[0-9]{3,9}[-. /])[0-9]{3}[-. ]?[0-9]{3}[-. ]?[0-9]{3}[-. /]?[0-9]{2}"
_BARE: Final = r"[0-9]{11}"
# Portal-style partial masks: the hidden digits cannot be checked, the visible ones
# are still a quasi-identifier.
_HIDDEN: Final = (
    r"[*xX\u2022]{3}\.[0-9]{3}\.[0-9]{3}-[*xX\u2022]{2}"
    r"|[0-9]{3}\.[*xX\u2022]{3}\.[*xX\u2022]{3}-[0-9]{2}"
)
# Prefilter: every numeric form, not touching a letter or digit on either side (the
# boundary characters are part of the hit), and the partially hidden forms.
_EDGE: Final = "(?:^|[^0-9A-Za-z])"
_END_EDGE: Final = "(?:[^0-9A-Za-z]|$)"
# A numeric hit is one of the written forms the patterns match, and every such match
# whose check digits fail is dropped (invalidate_result): the hit must pass them too.
_TRIGGERS: Final = (
    Trigger(f"{_EDGE}[0-9]{{3}}[-. ]?[0-9]{{3}}[-. ]?[0-9]{{3}}[-. /]?[0-9]{{2}}{_END_EDGE}",
            accept=checked(cpf_is_valid), name="numeric"),
    Trigger(_HIDDEN.replace("\\u2022", "\u2022"), name="hidden"),
)

_MASKED_RE: Final = regex.compile(_MASKED)
_HIDDEN_RE: Final = regex.compile(_HIDDEN)


class BrCpfRecognizer(PackPatternRecognizer):
    """Recognize CPF numbers in every common written form, checked with validate-docbr.

    The canonical mask scores 1.0 when its check digits pass and is dropped when they
    fail.  Bare and otherwise separated runs are dropped on a failed check and keep
    CHECKSUM_PASS_SCORE on a pass, above the default threshold: a CPF in a CSV row or a
    grep argument has no keyword near it, and a missed CPF is a leak.  Context words
    lift the score.
    """

    ENTITY = "BR_CPF"
    PATTERNS = (
        Pattern("CPF (masked)", bounded(_MASKED), 1.0),
        Pattern("CPF (separated)", bounded(_SEPARATED), CHECKSUM_PASS_SCORE),
        Pattern("CPF (bare)", bounded(_BARE), CHECKSUM_PASS_SCORE),
        Pattern("CPF (partially hidden)", bounded(_HIDDEN), 0.6),
    )
    DEFAULT_CONTEXT = (
        "cpf", "c.p.f.", "cpf/mf", "cic", "cadastro de pessoa fisica",
        "cadastro de pessoas fisicas", "inscrito no cpf", "inscrita no cpf",
        "portador do cpf", "portadora do cpf", "contribuinte", "titular",
        "brazilian tax id", "taxpayer id", "individual taxpayer number", "stcd2",
    )

    def prefilter(self, threshold: float) -> Prefilter:
        """Where a CPF can be: one of its written forms, whatever the threshold."""
        return Prefilter(self.ENTITY, _TRIGGERS)

    def validate_result(self, pattern_text: str) -> bool | None:
        """The canonical mask is decided by its check digits; other forms keep their score."""
        if _MASKED_RE.fullmatch(pattern_text):
            return cpf_is_valid(pattern_text)
        return None

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop every fully visible form whose check digits fail."""
        if _HIDDEN_RE.fullmatch(pattern_text):
            return False
        return not cpf_is_valid(pattern_text)

"""BR_CPF: Cadastro de Pessoas Físicas, 11 digits with two mod-11 check digits."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Final

import regex
from presidio_analyzer import Pattern, RecognizerResult

from recognizers._escapes import AFTER_ESCAPE, ESCAPE_EDGE, separator
from recognizers.base import (
    CHECKSUM_PASS_SCORE,
    JOINED_GROUPS_SCORE,
    PackPatternRecognizer,
    bounded,
    cap_scores,
    spaced_with_groups_joined,
)
from recognizers.checksums import cpf_is_valid
from recognizers.prefilter import Prefilter, Trigger, checked

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["BrCpfRecognizer"]

# Separators may be written escaped (``%2D``, ``&#46;``, ``\\u002e``, ``\\/``: see
# recognizers._escapes), and the check digits' dash may have a space on either side
# (``529.982.247 - 25``) in the mask.


def _separated_forms(escapes: bool) -> tuple[str, str]:
    """The masked and the other separated forms; ``escapes=False``: the plain forms, for
    a text without any escape character (where both match alike)."""
    dot = separator(".", escapes=escapes)
    mask_dash = separator("-", plain=" ?- ?", escapes=escapes)
    gap = separator("-. ", escapes=escapes)
    last_gap = separator("-. /", escapes=escapes)
    masked = rf"[0-9]{{3}}{dot}[0-9]{{3}}{dot}[0-9]{{3}}{mask_dash}[0-9]{{2}}"
    # Any other separated form; the lookahead demands at least one separator (or the
    # opening character of an escape).
    separated = (rf"(?=[0-9]{{3,9}}[-. /%\\&])[0-9]{{3}}{gap}?[0-9]{{3}}{gap}?[0-9]{{3}}"
                 rf"{last_gap}?[0-9]{{2}}")
    return masked, separated


_MASKED, _SEPARATED = _separated_forms(escapes=True)
_MASKED_PLAIN, _SEPARATED_PLAIN = _separated_forms(escapes=False)
_GAP: Final = separator("-. ")
_BARE: Final = r"[0-9]{11}"
# Portal-style partial masks: the hidden digits cannot be checked, the visible ones
# are still a quasi-identifier.
_HIDDEN: Final = (
    r"[*xX\u2022]{3}\.[0-9]{3}\.[0-9]{3}-[*xX\u2022]{2}"
    r"|[0-9]{3}\.[*xX\u2022]{3}\.[*xX\u2022]{3}-[0-9]{2}"
)
# A number may also start right after an escape that ends in a letter or digit
# (``%2F52998224725``, a JSON ``\\n``) or glued to its keyword (``cpf52998224725``).
_GLUED: Final = "[Cc][Pp][Ff]"
_START: Final = rf"(?:(?<![0-9A-Za-z])|{AFTER_ESCAPE}|(?<={_GLUED}))"
_START_PLAIN: Final = rf"(?:(?<![0-9A-Za-z])|(?<={_GLUED}))"


def _bounded(core: str, start: str = _START) -> str:
    """``core`` not touching a letter or digit, except an escape's or the keyword's."""
    return rf"{start}(?:{core})(?![0-9A-Za-z])"


# Prefilter: every numeric form, not touching a letter or digit on either side (the
# boundary characters are part of the hit) save an escape or the glued keyword, and
# the partially hidden forms.
_LEAD: Final = f"(?:{ESCAPE_EDGE}|{_GLUED})"
_EDGE: Final = f"(?:^|[^0-9A-Za-z]|{_LEAD})"
_END_EDGE: Final = "(?:[^0-9A-Za-z]|$)"
_TRIGGER_LAST_GAP: Final = separator("-. /", plain="(?: ?- ?|[. /])")
# A numeric hit is one of the written forms the patterns match, and every such match
# whose check digits fail is dropped (invalidate_result): the hit must pass them too.
_TRIGGERS: Final = (
    Trigger(f"{_EDGE}[0-9]{{3}}{_GAP}?[0-9]{{3}}{_GAP}?[0-9]{{3}}{_TRIGGER_LAST_GAP}?[0-9]{{2}}"
            f"{_END_EDGE}", accept=checked(cpf_is_valid, _LEAD), name="numeric"),
    Trigger(_HIDDEN.replace("\\u2022", "\u2022"), name="hidden"),
)

def _groups_joined(written: str) -> bool:
    return spaced_with_groups_joined(written, (3, 6, 9), apart=(9,))


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
        Pattern("CPF (masked)", _bounded(_MASKED), 1.0),
        Pattern("CPF (separated)", _bounded(_SEPARATED), CHECKSUM_PASS_SCORE),
        Pattern("CPF (bare)", _bounded(_BARE), CHECKSUM_PASS_SCORE),
        Pattern("CPF (partially hidden)", bounded(_HIDDEN), 0.6),
    )
    PLAIN_PATTERNS: ClassVar[dict[str, str]] = {
        "CPF (masked)": _bounded(_MASKED_PLAIN, _START_PLAIN),
        "CPF (separated)": _bounded(_SEPARATED_PLAIN, _START_PLAIN),
        "CPF (bare)": _bounded(_BARE, _START_PLAIN),
    }
    BASIC_PATTERNS: ClassVar[dict[str, str]] = {
        "CPF (masked)": bounded(_MASKED_PLAIN),
        "CPF (separated)": bounded(_SEPARATED_PLAIN),
        "CPF (bare)": bounded(_BARE),
    }
    GLUED: ClassVar[re.Pattern[str] | None] = re.compile(r"[Cc][Pp][Ff][0-9]")
    DEFAULT_CONTEXT = (
        "cpf", "c.p.f.", "cpf/mf", "cic", "cadastro de pessoa fisica",
        "cadastro de pessoas fisicas", "inscrito no cpf", "inscrita no cpf",
        "portador do cpf", "portadora do cpf", "contribuinte", "titular",
        "brazilian tax id", "taxpayer id", "individual taxpayer number", "stcd2",
    )

    def prefilter(self, threshold: float) -> Prefilter:
        """Where a CPF can be: one of its written forms, whatever the threshold."""
        return Prefilter(self.ENTITY, _TRIGGERS)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Run the patterns, then lower a form separated by spaces that runs some of its
        groups together (``107 302 15997``, three fields of a log line)."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags
        )
        return cap_scores(results, text, _groups_joined, JOINED_GROUPS_SCORE)

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

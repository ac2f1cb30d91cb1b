"""BR_BANK_ACCOUNT: bank agency and account numbers, written after their keyword."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult

from recognizers.base import FLAGS, RawContextMixin, make_result

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

__all__ = ["BrBankAccountRecognizer"]

# Check digits are bank-specific (BB uses X, Bradesco P), so the keyword is part of
# the pattern and only the number after it is reported.
_AGENCY: Final = regex.compile(
    r"(?<![\w])(?i:ag(?:[eê]ncia)?\.?|ag[eê]ncia[ \t]+n[ºo°.]*)[ \t]*:?[ \t]*"
    r"(?P<v>[0-9]{3,5}(?:-[0-9Xx])?)(?![\w-])", FLAGS)
_ACCOUNT: Final = regex.compile(
    r"(?<![\w])(?i:c/c|c\.c\.|cc|conta(?:[ \t-]+(?:corrente|poupan[çc]a|pagamento))?"
    r"(?:[ \t]+n[ºo°.]*)?)[ \t]*:?[ \t]*"
    r"(?P<v>[0-9]{1,12}-?[0-9XxPp])(?![\w-])", FLAGS)
# The patterns' keywords, after a character that is not a word character (or none).
_TRIGGER: Final = r"(?:^|[^A-Za-z0-9_])(?i:ag|c/c|c\.c\.|cc|conta)"
CONTEXT_MARGIN_BEFORE: Final = 128
AGENCY_SCORE: Final = 0.4
ACCOUNT_SCORE: Final = 0.6


class BrBankAccountRecognizer(RawContextMixin, EntityRecognizer):
    """``Ag. 1234-5``, ``C/C 12345-6``, ``agência 0001 conta 1234567-8``: the numbers only."""

    ENTITY: Final = "BR_BANK_ACCOUNT"
    DEFAULT_CONTEXT = ("agencia", "conta", "conta corrente", "poupanca", "banco",
                       "dados bancarios", "ted", "doc", "favorecido", "account", "branch")

    def __init__(self, supported_language: str = "pt", name: str | None = None) -> None:
        words = self._init_context(None)
        super().__init__(supported_entities=[self.ENTITY], supported_language=supported_language,
                         context=words, name=name or "BrBankAccountRecognizer")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        """The number after each agency or account keyword, with at least 4 digits for accounts."""
        results: list[RecognizerResult] = []
        for pattern, score, label in ((_AGENCY, AGENCY_SCORE, "agency"),
                                      (_ACCOUNT, ACCOUNT_SCORE, "account")):
            for match in pattern.finditer(text):
                start, end = match.span("v")
                if sum(c.isdigit() for c in match.group("v")) < 4:
                    continue
                results.append(make_result(self, self.ENTITY, start, end, score=score,
                                           pattern_name=label))
        return results

    def prefilter(self, threshold: float) -> Prefilter:
        """The keywords inside the patterns."""
        from recognizers.prefilter import Prefilter, Trigger

        return Prefilter(self.ENTITY, (Trigger(_TRIGGER, after=64, name="keyword"),),
                         margin_before=CONTEXT_MARGIN_BEFORE)


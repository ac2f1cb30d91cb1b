"""BR_RG: Registro Geral, the state identity card number."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import regex
from presidio_analyzer import Pattern, RecognizerResult

from recognizers.base import FLAGS, PackPatternRecognizer, bounded
from recognizers.checksums import rg_sp_is_valid

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["BrRgRecognizer"]

# SP/RJ style 12.345.678-9 (SP check digit may be X), and MG style MG-12.345.678.
_WITH_DV: Final = r"[0-9]{1,2}\.?[0-9]{3}\.?[0-9]{3}-?[0-9Xx]"
_MG: Final = r"(?:MG|M)-?[0-9]{1,2}\.?[0-9]{3}\.?[0-9]{3}"
_ISSUER: Final = regex.compile(
    r"[ \t]*(?:/|-|,)?[ \t]*(?:SSP|IIRGD|IFP|DETRAN|PC|SDS|SESP|SSPDS|SEJUSP)[ \t]*[/-]?[ \t]*"
    r"[A-Z]{2}(?![A-Za-z])", FLAGS)
#: Added to the pattern score for a valid SP check digit or an issuer suffix.
BONUS: Final = 0.2


class BrRgRecognizer(PackPatternRecognizer):
    """RG numbers by shape; a keyword is needed, a valid SP check digit or issuer helps.

    States issue their own formats and only São Paulo's check digit is published,
    so the shape alone stays below the threshold: "RG", "identidade", "SSP/SP"...
    lift it.
    """

    ENTITY = "BR_RG"
    PATTERNS = (
        Pattern("RG", bounded(_WITH_DV), 0.1),
        Pattern("RG (MG)", bounded(_MG), 0.1),
    )
    PREFILTER = ((_WITH_DV, 0.3), (_MG, 0.3))
    MAX_LENGTH = 16
    DEFAULT_CONTEXT = (
        "rg", "r.g.", "registro geral", "carteira de identidade", "identidade",
        "cedula de identidade", "cin", "ssp", "orgao expedidor", "id card",
    )

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Match the shapes, then add BONUS for a valid SP check digit or an issuer suffix."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags)
        for result in results:
            written = text[result.start:result.end]
            if rg_sp_is_valid(written) or _ISSUER.match(text, result.end):
                result.score = min(1.0, result.score + BONUS)
        return results

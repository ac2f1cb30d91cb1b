"""BR_CNPJ: Cadastro Nacional da Pessoa Jurídica, numeric and alphanumeric (IN RFB 2.229/2024)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Final

import regex
from presidio_analyzer import Pattern, RecognizerResult

from recognizers.base import CHECKSUM_PASS_SCORE, PackPatternRecognizer, bounded, cap_scores
from recognizers.checksums import canonical, cnpj_is_valid

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["BrCnpjRecognizer", "looks_like_timestamp"]

# The mask is the same for both formats; lower case is accepted here and folded
# before the check (validate-docbr accepts it, it is not part of the format).
_MASKED: Final = r"[0-9A-Za-z]{2}\.[0-9A-Za-z]{3}\.[0-9A-Za-z]{3}/[0-9A-Za-z]{4}-[0-9]{2}"
_SEPARATED: Final = (
    r"(?=[0-9]{2,12}[-. /])[0-9]{2}[. ]?[0-9]{3}[. ]?[0-9]{3}[/. ]?[0-9]{4}[-. ]?[0-9]{2}"
)
_BARE: Final = r"[0-9]{14}"
# Unmasked alphanumeric: upper case only and at least one letter, so lower-case hex
# and base32 identifiers stay out.
_BARE_ALNUM: Final = r"(?=[0-9A-Z]{0,11}[A-Z])[0-9A-Z]{12}[0-9]{2}"
_MASKED_RE: Final = regex.compile(_MASKED)
_DIGITS14_RE: Final = regex.compile(r"[0-9]{14}")

#: Score of a bare 14-digit run that also reads as YYYYMMDDhhmmss: below the
#: threshold, so only a CNPJ keyword nearby brings it back.
TIMESTAMP_SCORE: Final = 0.1


def looks_like_timestamp(digits: str) -> bool:
    """True for a plausible ``YYYYMMDDhhmmss`` between the years 1900 and 2100."""
    if not _DIGITS14_RE.fullmatch(digits):
        return False
    year = int(digits[0:4])
    if not 1900 <= year <= 2100:
        return False
    try:
        dt.datetime(
            year, int(digits[4:6]), int(digits[6:8]),
            int(digits[8:10]), int(digits[10:12]), int(digits[12:14]),
        )
    except ValueError:
        return False
    return True


def _reads_as_timestamp(written: str) -> bool:
    # Order 0001 (a head office) reads as 00:01:ss; a CNPJ whose root looks like a date
    # would otherwise always be taken for a timestamp, while a timestamp in that one
    # minute of the day that also passes the check digits is rare.  Recall first.
    digits = canonical(written)
    return (not _MASKED_RE.fullmatch(written) and looks_like_timestamp(digits)
            and digits[8:12] != "0001")


class BrCnpjRecognizer(PackPatternRecognizer):
    """Recognize CNPJs, numeric and alphanumeric, masked and bare, checked with validate-docbr.

    Check digits of the alphanumeric format use ASCII code minus 48 per character;
    validate-docbr implements it.  All-equal strings are rejected (the all-zero one
    passes the raw checksum).  A 14-digit run, bare or loosely separated
    (``20240115 103059``), that reads as a plausible timestamp needs a CNPJ keyword
    nearby; the canonical mask does not.
    """

    ENTITY = "BR_CNPJ"
    PATTERNS = (
        Pattern("CNPJ (masked)", bounded(_MASKED), 1.0),
        Pattern("CNPJ (separated)", bounded(_SEPARATED), CHECKSUM_PASS_SCORE),
        Pattern("CNPJ (bare)", bounded(_BARE), CHECKSUM_PASS_SCORE),
        Pattern("CNPJ (bare alphanumeric)", bounded(_BARE_ALNUM), CHECKSUM_PASS_SCORE),
    )
    DEFAULT_CONTEXT = (
        "cnpj", "c.n.p.j.", "cnpj/mf", "cgc", "inscrita no cnpj", "inscrito no cnpj",
        "pessoa juridica", "razao social", "empresa", "matriz", "filial",
        "estabelecimento", "fornecedor", "emitente", "tomador", "destinatario",
        "company tax id", "corporate taxpayer id", "stcd1",
    )

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Run the patterns, then lower bare runs that read as timestamps."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags
        )
        return cap_scores(results, text, _reads_as_timestamp, TIMESTAMP_SCORE)

    def validate_result(self, pattern_text: str) -> bool | None:
        """The mask is decided by its check digits; other forms keep their score."""
        if _MASKED_RE.fullmatch(pattern_text):
            return cnpj_is_valid(pattern_text)
        return None

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop any form whose check digits fail."""
        return not cnpj_is_valid(pattern_text)

"""Presidio's own generic recognizers, tuned for Brazilian text and offline use.

Each keeps Presidio's patterns and validation and gains Portuguese context words
scored on the raw text.  Two changes of behaviour:

* e-mail domains are checked against tldextract's bundled suffix list only; the
  stock recognizer may try to download the list, and a redaction hook must not
  touch the network;
* a credit card number written as one bare digit run (SAP IDoc numbers and other
  16-digit IDs pass Luhn one time in ten) needs a card keyword nearby; numbers
  written in groups keep Presidio's score;
* likewise a phone number written as a bare digit run (order numbers such as
  ``4523456789`` are valid landlines to python-phonenumbers).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final

from presidio_analyzer import RecognizerResult
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
)

from recognizers.base import RawContextMixin, cap_scores

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = [
    "BrCreditCardRecognizer",
    "BrEmailRecognizer",
    "BrIbanRecognizer",
    "BrIpRecognizer",
    "BrPhoneRecognizer",
]

#: Score of a bare-digit card or phone number before context: below the default threshold,
#: and high enough that its own keyword (+0.35) lifts it above a checksum-valid bare CPF
#: (recognizers.base.CHECKSUM_PASS_SCORE): "celular 11905058942" is a phone.
BARE_NUMBER_SCORE: Final = 0.35


class _Tuned(RawContextMixin):
    """Presidio's recognizer with this pack's context words and its own class name."""

    EXTRA: ClassVar[dict[str, Any]] = {}

    def __init__(self, supported_language: str = "pt",
                 context: Iterable[str] | None = None) -> None:
        words = self._init_context(context)
        super().__init__(supported_language=supported_language,  # type: ignore[call-arg]
                         context=words, name=type(self).__name__, **self.EXTRA)


def _bare_digits(written: str) -> bool:
    return written.isdigit()


@lru_cache(maxsize=1)
def _offline_tldextract() -> Any:
    import tldextract

    # No suffix list URLs and no cache: the snapshot bundled with tldextract.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class BrEmailRecognizer(_Tuned, EmailRecognizer):
    """E-mail addresses, validated against the bundled public suffix list."""

    DEFAULT_CONTEXT = ("email", "e-mail", "correio eletronico", "endereco eletronico")


    def validate_result(self, pattern_text: str) -> bool:
        """True when the domain ends in a public suffix."""
        return bool(_offline_tldextract()(pattern_text).fqdn)


class BrPhoneRecognizer(_Tuned, PhoneRecognizer):
    """Phone numbers via python-phonenumbers, Brazilian region only (one scan).

    A bare run of digits (``4523456789``) is a valid landline to phonenumbers and an
    order number in most logs, so it needs a phone keyword nearby; numbers written
    with ``+``, parentheses or separators keep Presidio's score.
    """

    EXTRA: ClassVar[dict[str, Any]] = {"supported_regions": ("BR",)}
    DEFAULT_CONTEXT = ("telefone", "tel", "celular", "cel", "fone", "whatsapp", "zap",
                       "contato", "ramal", "phone", "mobile", "cell")


    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
    ) -> list[RecognizerResult]:
        """python-phonenumbers' matches, with bare digit runs lowered below the threshold."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts  # type: ignore[arg-type]
        )
        return cap_scores(results, text, _bare_digits, BARE_NUMBER_SCORE)


class BrCreditCardRecognizer(_Tuned, CreditCardRecognizer):
    """Card numbers with Luhn; bare digit runs need context (see the module docstring)."""

    DEFAULT_CONTEXT = ("cartao", "cartao de credito", "cartao de debito", "bandeira", "elo",
                       "hipercard", "visa", "mastercard", "amex", "validade", "cvv", "card",
                       "credit card", "debit card")


    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Presidio's analysis, with bare digit runs lowered below the threshold."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags
        )
        return cap_scores(results, text, _bare_digits, BARE_NUMBER_SCORE)


class BrIpRecognizer(_Tuned, IpRecognizer):
    """IPv4 and IPv6 addresses."""

    DEFAULT_CONTEXT = ("ip", "ipv4", "ipv6", "endereco ip", "host", "servidor")



class BrIbanRecognizer(_Tuned, IbanRecognizer):
    """IBANs, Brazilian ones included (BR + 27 characters)."""

    DEFAULT_CONTEXT = ("iban", "conta", "banco", "transferencia", "bank", "account",
                       "transaction")


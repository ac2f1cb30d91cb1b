"""BR_PIX_EVP and BR_PIX_BRCODE: Pix random keys and copy-and-paste payloads."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Final

import regex
from presidio_analyzer import EntityRecognizer, Pattern, RecognizerResult

from recognizers.base import PackPatternRecognizer, RawContextMixin, bounded, make_result
from recognizers.checksums import brcode_crc_ok

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

__all__ = ["BrPixBrCodeRecognizer", "BrPixEvpRecognizer"]

_UUID: Final = (r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                r"[0-9a-fA-F]{12}")


class BrPixEvpRecognizer(PackPatternRecognizer):
    """Random Pix keys (any UUID) next to a Pix keyword; trace IDs look the same."""

    ENTITY = "BR_PIX_EVP"
    PATTERNS = (Pattern("Pix EVP", bounded(_UUID), 0.05),)
    PREFILTER = ((_UUID, 0.05),)
    MAX_LENGTH = 36
    DEFAULT_CONTEXT = ("pix", "chave pix", "chave aleatoria", "evp", "copia e cola",
                       "qr code pix", "pix key")


_START: Final = regex.compile(r"000201")
_PIX_GUI: Final = regex.compile(r"br\.gov\.bcb\.pix", regex.IGNORECASE)
#: A payload is at most 512 characters (EMV QRCPS).
MAX_PAYLOAD: Final = 512


def _payload_end(text: str, start: int) -> int | None:
    """Walk the TLV fields from ``start``; the end of a payload closed by a valid CRC."""
    position = start
    limit = min(len(text), start + MAX_PAYLOAD)
    while position + 4 <= limit:
        tag, size = text[position:position + 2], text[position + 2:position + 4]
        if not (tag.isascii() and tag.isdigit() and size.isascii() and size.isdigit()):
            return None
        end = position + 4 + int(size)
        if end > limit or "\n" in text[position:end]:
            return None
        if tag == "63":
            return end if size == "04" and brcode_crc_ok(text[start:end]) else None
        position = end
    return None


class BrPixBrCodeRecognizer(RawContextMixin, EntityRecognizer):
    """Pix copy-and-paste payloads (EMV BR Code): the whole payload, CRC-16 checked.

    The payload carries the key, the receiver's name and city.  It starts with
    ``000201``, holds ``br.gov.bcb.pix`` and ends with tag 63 (``6304`` plus the
    CRC-16/CCITT-FALSE of everything before it); the fields are walked as TLV, so a
    ``6304`` inside a name does not end it early.
    """

    ENTITY: Final = "BR_PIX_BRCODE"
    DEFAULT_CONTEXT = ("pix", "copia e cola", "qr code", "br code", "brcode")

    def __init__(self, supported_language: str = "pt", name: str | None = None) -> None:
        words = self._init_context(None)
        super().__init__(supported_entities=[self.ENTITY], supported_language=supported_language,
                         context=words, name=name or "BrPixBrCodeRecognizer")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        """One result per payload whose CRC checks out."""
        results: list[RecognizerResult] = []
        # Every payload holds the GUI: a start with none in reach is not walked (in a
        # run of "000201" each start would walk its whole reach).
        guis = [m.start() for m in _PIX_GUI.finditer(text)]
        position = 0
        while True:
            match = _START.search(text, position)
            if match is None:
                return results
            following = bisect.bisect_left(guis, match.start())
            if following == len(guis) or guis[following] >= match.start() + MAX_PAYLOAD:
                position = match.start() + 1
                continue
            end = _payload_end(text, match.start())
            if end is None or not _PIX_GUI.search(text, match.start(), end):
                position = match.start() + 1
                continue
            results.append(make_result(self, self.ENTITY, match.start(), end, score=1.0,
                                       pattern_name="BR Code"))
            position = end

    def prefilter(self, threshold: float) -> Prefilter:
        """Every payload starts with 000201."""
        from recognizers.prefilter import Prefilter, Trigger

        return Prefilter(self.ENTITY, (Trigger("000201", after=MAX_PAYLOAD, name="payload"),))



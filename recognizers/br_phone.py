"""BR_PHONE: Brazilian phone numbers with a valid area code (DDD)."""

from __future__ import annotations

from typing import Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer, bounded

__all__ = ["DDD", "BrPhoneNumberRecognizer"]

#: The 67 area codes in use (Anatel).
DDD: Final = r"(?:1[1-9]|2[12478]|3[1-578]|4[1-9]|5[1345]|6[1-9]|7[134579]|8[1-9]|9[1-9])"
_SUBSCRIBER: Final = r"(?:9[0-9]{4}|[2-5][0-9]{3})"
_SEP: Final = r"[ .-]?"
_INTERNATIONAL: Final = rf"(?:\+|00)55{_SEP}\(?{DDD}\)?{_SEP}{_SUBSCRIBER}{_SEP}[0-9]{{4}}"
_PARENS: Final = rf"\({DDD}\)[ ]?{_SUBSCRIBER}-[0-9]{{4}}"
_NATIONAL: Final = rf"0?{DDD}{_SEP}{_SUBSCRIBER}{_SEP}[0-9]{{4}}"
#: A WhatsApp link (``https://wa.me/5511987654321``) writes the number in full without
#: its plus sign.
_LINKED: Final = rf"(?<=[Ww][Aa]\.[Mm][Ee]/)55{DDD}{_SUBSCRIBER}[0-9]{{4}}"


class BrPhoneNumberRecognizer(PackPatternRecognizer):
    """+55 and national numbers: 9-digit mobiles starting with 9, 8-digit landlines 2-5.

    Service numbers (0800, 0300, 4004-...) have no area code and are not matched.
    With ``+55``, in a WhatsApp link (``wa.me/55...``) or with the ``(DD)`` mask a
    number counts alone; a bare national number
    shares its digits with CPFs and order numbers and needs a phone keyword, which
    then outranks a bare CPF reading.
    """

    ENTITY = "BR_PHONE"
    PATTERNS = (
        Pattern("phone (+55)", bounded(_INTERNATIONAL), 0.7),
        Pattern("phone (DDD)", bounded(_PARENS), 0.6),
        Pattern("phone (national)", bounded(_NATIONAL), 0.2),
        Pattern("phone (wa.me link)", bounded(_LINKED), 0.7),
    )
    PREFILTER = ((r"(?:\+|00)55", 0.7), (rf"\({DDD}\)", 0.6), (_NATIONAL, 0.2),
                 (r"[Ww][Aa]\.[Mm][Ee]/55", 0.7))
    MAX_LENGTH = 22
    CONTEXT_SCORE = 1.0
    KEYWORDS_OUTSIDE_PRODUCTS = True  # a user agent's Mobile/15E148 is no phone keyword
    DEFAULT_CONTEXT = (
        "telefone", "tel", "celular", "cel", "fone", "whatsapp", "zap", "contato", "ramal",
        "phone", "mobile", "cell",
    )

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

import contextlib
import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final

from presidio_analyzer import Pattern, RecognizerResult
from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
)

from recognizers._text import PRODUCT_REACH_AFTER, PRODUCT_REACH_BEFORE
from recognizers.base import (
    CONTEXT_BOOST,
    CONTEXT_FLOOR,
    RawContextMixin,
    StdlibPatterns,
    analyze_windows,
    cap_scores,
    make_result,
    ranked,
    remove_duplicates,
    windows_near,
)
from recognizers.prefilter import (
    CONTEXT_AFTER,
    CONTEXT_BEFORE,
    Prefilter,
    Trigger,
    keyword_triggers,
)

if TYPE_CHECKING:
    import ipaddress

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


_CARD_SEPARATOR: Final = re.compile(r"[- ]+")


def _not_card_grouped(written: str) -> bool:
    """A run of digits, or one whose groups are not a card's (``1419 200 154996``, the
    columns of a log): cards are printed in fours (the last group shorter, up to 19
    digits) or as 4-6-5 and 4-6-4 (American Express, Diners)."""
    groups = [len(group) for group in _CARD_SEPARATOR.split(written.strip()) if group]
    if len(groups) <= 1:
        return True
    if groups[:-1] == [4] * (len(groups) - 1) and 1 <= groups[-1] <= 4 and len(groups) >= 4:
        return False
    return groups not in ([4, 6, 5], [4, 6, 4])


#: A phone's written shape: a plus sign, brackets around the area code (``(11)``,
#: ``(011)``, ``(0xx11)``), or a number that ends in a separated subscriber part:
#: ``98765-4321``, ``3456.7890``, or with a space when the area code stands as a group
#: of its own (``11 98765 4321``, ``011 9 8765 4321``).  Space-separated numbers in a
#: log's columns (``680557051 18908 6101``) are ids and timings far more often than phones.
_SUBSCRIBER: Final = (r"(?:\d{4,5}[-.]\d{4}"
                      r"|0?\d{2}[-. ]{1,3}(?:9[-. ])?\d{4,5} \d{4})")
_AREA_IN_BRACKETS: Final = r"\( ?0?(?:[xX]{2})?\d{2} ?\)"
_AREA_IN_BRACKETS_RE: Final = re.compile(_AREA_IN_BRACKETS)
_SUBSCRIBER_SEPARATED: Final = re.compile(rf"(?<!\d){_SUBSCRIBER}(?!\d)")
_SUBSCRIBER_AT_END: Final = re.compile(rf"(?<!\d)({_SUBSCRIBER})\D*$")


def _phone_shaped(written: str) -> bool:
    """True when a number is written as a phone is; other numbers need a keyword.

    Without a phone's shape, a run of digits and punctuation in a log is an order
    number, a timestamp or an amount far more often than a phone: such runs score like a
    bare number (BARE_NUMBER_SCORE), so only a phone keyword nearby lifts them.
    """
    return _shaped_at(written, 0, len(written))


def _shaped_at(text: str, start: int, end: int) -> bool:
    """:func:`_phone_shaped` of ``text[start:end]``, whose subscriber part must also stand
    apart from the digits around the number in ``text`` (as the prefilter's trigger sees
    it: python-phonenumbers may start a match right after a digit)."""
    written = text[start:end]
    if "+" in written or _AREA_IN_BRACKETS_RE.search(written) is not None:
        return True
    found = _SUBSCRIBER_AT_END.search(text, start, end)  # the look-behind sees text
    return found is not None and (found.end(1) < end or end == len(text)
                                  or not text[end].isdigit())


def _or_inside(skip: Any, spans: Sequence[tuple[int, int]],
               ) -> Callable[[str, int, int], bool]:
    """A candidate test: ``skip``'s answer (None: never), or the candidate lies inside
    one of ``spans`` (sorted and disjoint)."""
    starts = [start for start, _ in spans]

    def test(text: str, start: int, end: int) -> bool:
        index = bisect_right(starts, start) - 1
        if index >= 0 and end <= spans[index][1]:
            return True
        return skip is not None and bool(skip(text, start, end))

    return test


def _unshaped_candidate(text: str, start: int, end: int) -> bool:
    return not _may_hold_shape(text, start, end)


def _unshaped_part(text: str, start: int, end: int) -> bool:
    return not _shaped_at(text, start, end)


def _may_hold_shape(text: str, start: int, end: int) -> bool:
    """A part of ``text[start:end]`` may be phone-shaped: the parts python-phonenumbers
    tries are whole groups of it, so a separated subscriber part ending one is in it too."""
    candidate = text[start:end]
    return ("+" in candidate or _AREA_IN_BRACKETS_RE.search(candidate) is not None
            or _SUBSCRIBER_SEPARATED.search(text, start, end) is not None)


def _outside_uuids(text: str, start: int, end: int) -> bool:
    """The digits of a hit do not all lie inside one UUID (which _hide_non_phones blanks
    out before python-phonenumbers reads the text): an accept for the digit triggers."""
    while start < end and not text[start].isdigit():
        start += 1
    while end > start and not text[end - 1].isdigit():
        end -= 1
    if end - start > 36 or "-" not in text[max(0, start - 36):end + 36]:
        return True
    for uuid in _UUID_FORM.finditer(text, max(0, end - 36)):
        if uuid.start() > start:
            return True
        if uuid.end() >= end:
            return False
    return True


#: The fewest digits of a number written with a plus sign: one of a country code and
#: the two of the shortest national number python-phonenumbers parses.
PLUS_DIGITS: Final = 3


@lru_cache(maxsize=1)
def _plus_number() -> re.Pattern[str]:
    """What python-phonenumbers' matcher reads as the start of a candidate opened by a
    plus sign, up to its third digit: the plus and at most one more opener (a bracket
    or a plus), each followed by up to four of its punctuation marks, then digits
    apart by up to four marks (its own pattern: phonenumbermatcher._PATTERN, which
    ignores case: "X" is a mark too)."""
    from phonenumbers.phonenumbermatcher import _LEAD_CLASS
    from phonenumbers.phonenumberutil import _VALID_PUNCTUATION

    marks = f"[{_VALID_PUNCTUATION}]{{0,4}}"
    return re.compile(rf"[+]{marks}(?:{_LEAD_CLASS}{marks})?"
                      rf"\d(?:{marks}\d){{{PLUS_DIGITS - 1}}}", re.IGNORECASE)


def _plus_opens_number(text: str, start: int, end: int) -> bool:
    """The plus trigger's hit may open a number (the one finding it stands for: a
    number written with a plus sign starts with it): python-phonenumbers' candidate
    there holds at least PLUS_DIGITS digits before anything else.  ``+http`` in a
    crawler's user agent opens none, nor a plus inside base64 (``SHA256:5zi+4xN3``,
    an SSH key's fingerprint in an auth log), nor one at a line's end."""
    return _plus_number().match(text, start) is not None


def _keyword_triggers(recognizer: RawContextMixin, reach: int) -> tuple[Trigger, ...]:
    """Context words as triggers: a match they lift can stand on either side of them.
    A recognizer whose keywords lift nothing as part of a product in a user agent
    (KEYWORDS_OUTSIDE_PRODUCTS) refuses those hits."""
    words = recognizer.context_words
    return keyword_triggers(words.keywords, reach, accept=words.lifts_at
                            if recognizer.KEYWORDS_OUTSIDE_PRODUCTS else None)


def _keyword_lifts(threshold: float) -> bool:
    """True when a bare number (BARE_NUMBER_SCORE) can reach ``threshold`` with a keyword."""
    return threshold <= max(BARE_NUMBER_SCORE + CONTEXT_BOOST, CONTEXT_FLOOR)


# python-phonenumbers' punctuation inside a number (phonenumberutil._VALID_PUNCTUATION)
# and the characters that may open one (an opening bracket or a plus sign).
# The engine maps the dash and space variants onto ASCII before analysis, and skips
# the prefilter for text with the remaining fullwidth forms (outside_trigger_alphabet).
_PHONE_PUNCT: Final = "[-xX .()\\[\\]/~]"
_PHONE_LEAD: Final = "[(\\[]"
# No Brazilian number starts with 10, 20, 50, 60 or 70: area codes have no 0 as
# second digit, and the non-geographic prefixes are 0x, 30, 40, 80 and 90.
_PHONE_START: Final = "(?:[1-9][1-9]|[03489][0-9])"


def _phone_separated() -> str:
    """Eight or more digits with at least one punctuation run, starting as a BR number can,
    or eight digits after an opening bracket."""
    punct = _PHONE_PUNCT
    # A lone first digit (a trunk 0 written apart: "0 11 98765-4321") is not checked.
    options = [f"\\d{punct}{{1,4}}\\d(?:{punct}{{0,4}}\\d){{6,}}"]
    for first_run in range(2, 8):  # digits before the first punctuation
        rest = 8 - first_run
        middle = f"\\d{{{first_run - 2}}}" if first_run > 2 else ""
        options.append(f"{_PHONE_START}{middle}{punct}{{1,4}}\\d"
                       f"(?:{punct}{{0,4}}\\d){{{rest - 1},}}")
    options.append(f"{_PHONE_START}\\d{{6,}}{punct}{{1,4}}\\d")
    body = "|".join(options)
    # An opening bracket alone makes a match not bare: "(01120000025".
    return (f"(?:^|\\D)(?:{_PHONE_LEAD}{punct}{{0,4}})?(?:{body})"
            f"|{_PHONE_LEAD}{punct}{{0,4}}\\d{{8}}")


def _is_service_number(number: Any) -> bool:
    """Toll-free, premium, shared-cost and UAN numbers belong to companies."""
    import phonenumbers
    from phonenumbers import PhoneNumberType as Kind

    return phonenumbers.number_type(number) in (Kind.TOLL_FREE, Kind.PREMIUM_RATE,
                                                Kind.SHARED_COST, Kind.UAN)


@lru_cache(maxsize=2)
def _fewest_digits(possible: bool = False) -> int:
    """The fewest digits of a valid number's national part, in any region; ``possible``:
    of a possible one (Leniency.POSSIBLE), local-only lengths included."""
    import phonenumbers
    from phonenumbers import PhoneMetadata

    everything = [PhoneMetadata.metadata_for_region(r) for r in phonenumbers.SUPPORTED_REGIONS]
    everything += [PhoneMetadata.metadata_for_nongeo_region(code)
                   for code in phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS]
    fewest = 2  # python-phonenumbers' own floor (a shorter national number never parses)
    lengths = []
    for metadata in everything:
        general = metadata.general_desc if metadata is not None else None
        found = [n for n in general.possible_length if n > 0] if general is not None else []
        if possible and general is not None:
            found += [n for n in general.possible_length_local_only or () if n > 0]
        if not found:
            return fewest  # a region without lengths: no bound beyond the floor
        lengths.append(min(found))
    return max(fewest, min(lengths))


@lru_cache(maxsize=1)
def _matcher_class() -> Any:
    """python-phonenumbers' matcher, with a hook to pass over a candidate unparsed.

    The matcher gives up for good after ``max_tries`` failed candidates and inner
    groups (65535 by default): past a few hundred kilobytes of dotted or grouped
    digits, a real number later in the text would go unseen.  Analysis therefore
    passes no limit, and the groups that cannot hold a valid number, having fewer
    digits (or vanity letters) than any region's shortest, are not parsed: in
    ``1.1.1.1...`` the matcher splits each candidate into one-digit groups.
    """
    import phonenumbers

    class Matcher(phonenumbers.PhoneNumberMatcher):
        skip_candidate: Any = None
        skip_part: Any = None

        def __init__(self, text: str, region: str, **options: Any) -> None:
            super().__init__(text, region, **options)
            possible = options.get("leniency") == phonenumbers.Leniency.POSSIBLE
            self.fewest = _fewest_digits(possible)
            self.national_floor, self.idd = _national_floor(region, possible)

        def _extract_match(self, candidate: str, offset: int) -> Any:
            skip = self.skip_candidate
            if skip is not None and skip(self.text, offset, offset + len(candidate)):
                return None
            return super()._extract_match(candidate, offset)

        def _parse_and_verify(self, candidate: str, offset: int) -> Any:
            fewest = self.fewest
            if len(candidate) < fewest:
                return None
            skip = self.skip_part
            if skip is not None and skip(self.text, offset, offset + len(candidate)):
                return None
            if candidate.isascii():
                # Digits and letters, counted at C speed.
                raw = candidate.encode()
                alnum = len(raw) - len(raw.translate(None, _ALNUM))
                if alnum < fewest:
                    return None
                if alnum < self.national_floor and "+" not in candidate:
                    digits = raw.translate(None, _NOT_DIGIT).decode()
                    if len(digits) == alnum and (self.idd is None
                                                 or self.idd.match(digits) is None):
                        # Read in this region (no plus sign, no international
                        # prefix), its national part is at most these digits: too
                        # few for any of the region's lengths.
                        return None
            elif sum(1 for c in candidate if c.isdecimal() or c.isalpha()) < fewest:
                return None
            return super()._parse_and_verify(candidate, offset)

    return Matcher


@lru_cache(maxsize=64)
def _national_floor(region: str, possible: bool = False) -> tuple[int, Any]:
    """The fewest digits of a valid number read in ``region`` without a plus sign or
    an international prefix (its national part has as many digits at most), and the
    region's international prefix pattern (None without one); ``possible``: of a
    possible number (Leniency.POSSIBLE), local-only lengths included.

    Such a number takes the region's country code, and python-phonenumbers finds it
    valid (or possible) only if its national part has one of the region's lengths.
    A region whose national prefix rule writes digits in (the NANP islands put their
    area code before a seven-digit local number) has no floor.
    """
    from phonenumbers import PhoneMetadata

    metadata = PhoneMetadata.metadata_for_region(region.upper())
    general = metadata.general_desc if metadata is not None else None
    lengths = [n for n in general.possible_length if n > 0] if general is not None else []
    if possible and general is not None:
        lengths += [n for n in general.possible_length_local_only or () if n > 0]
    rule = metadata.national_prefix_transform_rule if metadata is not None else None
    if not lengths or (rule and re.search(r"[0-9]", re.sub(r"\\[0-9]", "", rule))):
        return 0, None  # nothing known, or digits written in (not only groups kept)
    prefix = metadata.international_prefix if metadata is not None else None
    return min(lengths), (re.compile(prefix) if prefix else None)


_NOT_DIGIT: Final = bytes(b for b in range(256) if not 0x30 <= b <= 0x39)

_ALNUM: Final = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

#: No limit on the matcher's failed tries (see _matcher_class); the work stays linear.
_UNLIMITED_TRIES: Final = 1 << 62


@lru_cache(maxsize=1)
def _offline_tldextract() -> Any:
    import tldextract

    # No suffix list URLs and no cache: the snapshot bundled with tldextract.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


#: Domains whose verdict is remembered: a log names the same few domains over and over,
#: and tldextract's lookup costs ~15 µs a time (its punycode decoding most of it).
DOMAIN_VERDICTS: Final = 4_096


@lru_cache(maxsize=DOMAIN_VERDICTS)
def _has_public_suffix(domain: str) -> bool:
    """Does ``domain`` end in a public suffix of the bundled list?"""
    return bool(_offline_tldextract()(domain).fqdn)


# Presidio's e-mail pattern, taken apart so that no text costs more than linear time.
# Its local part, ``[C]|[C][C.]*[C]`` after a word boundary, is tried from every
# boundary of a long run of C and dots and read to the run's end each time: a run
# with no "@" after it (``a.a.a.a...``) costs the square of its length.
_EMAIL_CHAR: Final = "[!#$%&'*+\\-/=?^_`{|}~\\w]"
_EMAIL_RUN_CHAR: Final = "[!#$%&'*+\\-/=?^_`{|}~.\\w]"
#: A local part holds at most this many characters (the prefilter's reach before the
#: "@"; RFC 5321 allows 64).
EMAIL_LOCAL_REACH: Final = 256


@lru_cache(maxsize=4)
def _email_patterns(flags: int) -> tuple[Any, Any, Any, Any, Any]:
    import regex

    return (
        # The run of local-part characters before an "@", read backwards from it (at
        # most EMAIL_LOCAL_REACH + 1 of them): the "@"s are found by str.find, and a
        # pattern scanning for them tried every position of the text (a fifth of the
        # time on PostgreSQL logs).
        regex.compile(f"{_EMAIL_RUN_CHAR}*+", flags | regex.REVERSE),
        # A local part ends with one of its characters other than the dot.
        regex.compile(_EMAIL_CHAR, flags),
        # Where a local part may start: the leftmost place in the run wins.
        regex.compile(f"\\b{_EMAIL_CHAR}", flags),
        # The domain, as in Presidio's pattern, matched within the run of domain
        # characters after its own "@" (the regex module may otherwise scan the
        # rest of the text for a dot on every try).
        regex.compile("[\\w.-]*+", flags),
        regex.compile("\\w+(?:-+\\w+)*(?:\\.\\w+(?:-+\\w+)*)+\\b", flags),
    )


def _positions(text: str, char: str) -> Iterator[int]:
    """Where ``char`` stands in ``text``, in order."""
    at = text.find(char)
    while at >= 0:
        yield at
        at = text.find(char, at + 1)


def email_spans(text: str, flags: int) -> list[tuple[int, int]]:
    """Where Presidio's e-mail pattern matches (as ``finditer``), in linear time.

    The same matches for local parts of up to EMAIL_LOCAL_REACH characters; of a
    longer run before the "@", only that many characters are read.
    """
    run_before, last_char, first_char, domain_run, domain = _email_patterns(flags)
    spans: list[tuple[int, int]] = []
    last_end = 0
    for at in _positions(text, "@"):
        run = run_before.match(text, max(0, at - EMAIL_LOCAL_REACH - 1), at)
        low = max(run.start(), last_end, at - EMAIL_LOCAL_REACH)
        if at <= low or last_char.fullmatch(text, at - 1, at) is None:
            continue
        host = domain.match(text, at + 1, domain_run.match(text, at + 1).end())
        if host is None:
            continue
        start = first_char.search(text, low, at)
        if start is None:
            continue
        spans.append((start.start(), host.end()))
        last_end = host.end()
    return spans


#: An "@" written escaped: percent-encoded once or twice, a JSON escape, an HTML reference.
_ENCODED_AT_PATTERN: Final = "%(?:25){0,2}40|\\\\u0040|&#[xX]0{0,2}40;|&#0{0,2}64;|&commat;"
_ENCODED_AT: Final = re.compile(_ENCODED_AT_PATTERN)
#: Characters read on either side of an escaped "@": an address of EMAIL_LOCAL_REACH
#: characters before it and as many after, each written as an escape of up to three.
ENCODED_EMAIL_REACH: Final = 3 * EMAIL_LOCAL_REACH + 16


#: What a local part may hold written percent-encoded: its characters (``&`` and ``%``
#: apart) and escapes other than the "@"'s.  Runs of these end at an escaped "@".
_ENCODED_LOCAL_RUN: Final = re.compile(
    "(?:%(?!(?:25){0,2}40)(?:25){0,2}[0-9A-Fa-f]{2}|[!#$'*+\\-/=?^_`{|}~.\\w])+")
#: A domain written percent-encoded: its characters, dots and hyphens maybe escaped.
_ENCODED_DOMAIN_RUN: Final = re.compile("(?:%(?:25){0,2}2[DdEe]|[\\w.-])*")


def _encoded_email_spans(text: str, flags: int) -> list[tuple[int, int]]:
    """Addresses whose "@" is written escaped (``maria.souza%40example.com``, ``&#64;``),
    mapped back onto ``text``: each span covers the escapes of its address.

    Around each such "@", the run of local-part characters before it and of domain
    characters after it (each within ENCODED_EMAIL_REACH, percent escapes allowed) are
    decoded and read as an address.  Runs stop at an escaped "@", so each character is
    decoded at most twice, and what is read depends only on the text near that "@"."""
    from recognizers._escapes import decode_span

    if "%" not in text and "&" not in text and "\\" not in text:
        return []
    ats = list(_ENCODED_AT.finditer(text))
    if not ats:
        return []
    runs = [(m.start(), m.end()) for m in _ENCODED_LOCAL_RUN.finditer(text)]
    ends = {end: begin for begin, end in runs}
    spans: list[tuple[int, int]] = []
    for at in ats:
        begin = ends.get(at.start())
        if begin is None:
            continue
        low = max(begin, at.start() - ENCODED_EMAIL_REACH)
        while low < at.start() and "%" in text[max(begin, low - 2):low]:
            low += 1  # not inside an escape cut by the reach
        domain_run = _ENCODED_DOMAIN_RUN.match(
            text, at.end(), min(len(text), at.end() + ENCODED_EMAIL_REACH))
        high = domain_run.end() if domain_run is not None else at.end()
        local, local_offsets = decode_span(text, low, at.start())
        domain, domain_offsets = decode_span(text, at.end(), high)
        decoded = f"{local}@{domain}"
        offsets = [*local_offsets[:-1], at.start(), *domain_offsets]
        mark = len(local)
        for start, end in email_spans(decoded, flags):
            if start < mark < end:
                spans.append((offsets[start], offsets[end]))
    return spans


_QUERY_KEY: Final = re.compile(r"[^=@]*=")


def _after_query_key(text: str, start: int, end: int) -> int | None:
    """Where the address starts when its local part holds a query string (``/api?to=``,
    ``&email=``): after the last ``?`` or ``&`` and the parameter's name (the address's
    own characters save these two).  None when nothing of a local part is left."""
    at = text.rfind("@", start, end)
    if at < 0:
        found = _ENCODED_AT.search(text, start, end)
        at = found.start() if found is not None else end
    begin = max(text.rfind("?", start, at), text.rfind("&", start, at)) + 1
    if not begin:
        return start
    key = _QUERY_KEY.match(text, begin, at)
    if key is not None:
        begin = key.end()
    return begin if begin < at else None


#: What stands before the password of a URL with credentials: ``scheme://user:``.
_URL_USERINFO: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,15}://[^\s/?#@:]{0,64}:\Z")


#: Local parts that name a role, a team or a robot, never one person.
_ROLE_LOCAL_PARTS: Final = frozenset({
    "postmaster", "hostmaster", "webmaster", "abuse", "noreply", "no-reply", "donotreply",
    "do-not-reply", "nao-responda", "naoresponda", "mailer-daemon", "bounce", "bounces",
    "info", "sales", "support", "help", "helpdesk", "contact", "security", "privacy",
    "billing", "marketing", "newsletter", "press", "office", "team", "jobs", "careers",
    "contato", "suporte", "vendas", "faleconosco", "atendimento", "ouvidoria", "comercial",
    "financeiro", "imprensa", "sac", "cobranca", "rh", "nfe", "fiscal", "juridico",
    "compras", "licitacao", "licitacoes", "secretaria", "protocolo",
})
#: Mailing lists and bug trackers: ``bug-grep@gnu.org``, ``debian-user@lists.debian.org``.
_LIST_LOCAL_PART: Final = re.compile(
    r"(?i)^(?:bugs?|bug-[\w.-]+|[\w.-]+-(?:bugs?|devel|dev|users?|announce|request|owner|"
    r"help|l10n|i18n|admin|admins|list|team|maintainers|discuss|commits|general|"
    r"portuguese|publicity|doc|docs|www|security|l))$")
#: An SSH algorithm or extension name (RFC 4251 §6: ``name@domain``):
#: ``hmac-sha2-256-etm@openssh.com``, ``rijndael-cbc@lysator.liu.se``.
_SSH_NAME: Final = re.compile(
    r"(?i)^(?:hmac|umac|aes\d*|rijndael|chacha20|arcfour|blowfish|3des|cast128|curve\d+|"
    r"ecdh|ecdsa|ed25519|ed448|ssh|sk-ssh|sk-ecdsa|sntrup\d*x?\d*|mlkem\d*x?\d*|"
    r"diffie-hellman|kex|zlib|server-sig-algs|keepalive|hostkeys|no-more-sessions|"
    r"publickey-hostbound|limits|session-bind|agent-forwarding|"
    r"poly1305|gcm)(?:[-.][\w.-]*)?$")
#: A message id's local part: hexadecimal and digit groups (``44087D8C.9090407``).
_MESSAGE_ID: Final = re.compile(r"^[0-9A-Fa-f]+(?:[.$_-][0-9A-Fa-f]+)+$")


def not_a_person_address(address: str) -> bool:
    """Whether an e-mail address names a role, a list or a program, never one person
    (``postmaster@``, ``bug-grep@gnu.org``, ``…@lists.debian.org``, an SSH algorithm name,
    a message id): none of it is personal data."""
    local, _, domain = address.rpartition("@")
    key = local.lower()
    domain = domain.lower()
    return (key in _ROLE_LOCAL_PARTS or bool(_LIST_LOCAL_PART.match(key))
            or domain.startswith(("lists.", "list.", "listas.", "googlegroups.", "bugs."))
            or domain == "googlegroups.com" or bool(_SSH_NAME.match(key))
            or (bool(_MESSAGE_ID.match(local)) and sum(c.isdigit() for c in local) >= 6))


class BrEmailRecognizer(_Tuned, EmailRecognizer):
    """E-mail addresses, validated against the bundled public suffix list."""

    DEFAULT_CONTEXT = ("email", "e-mail", "correio eletronico", "endereco eletronico")

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        """Presidio's analysis, with its pattern's matches found by :func:`email_spans`."""
        patterns: list[Pattern] = self.patterns  # type: ignore[has-type]
        flags: int | None = regex_flags or self.global_regex_flags
        if flags is None or len(patterns) != 1 \
                or patterns[0].regex != EmailRecognizer.PATTERNS[0].regex:
            results: list[RecognizerResult] = super().analyze(
                text, entities, nlp_artifacts, regex_flags)
            return results
        pattern = patterns[0]
        name: str = self.name  # type: ignore[has-type]
        found: list[RecognizerResult] = []
        for first, end in [*email_spans(text, flags), *_encoded_email_spans(text, flags)]:
            if _URL_USERINFO.search(text, max(0, first - 80), first):
                continue  # https://user:token@github.com: a URL's password and host
            start = _after_query_key(text, first, end)
            if start is None:
                continue
            written = text[start:end]
            if not_a_person_address(written):
                continue
            validation = self.validate_result(written)
            description = self.build_regex_explanation(
                name, pattern.name, pattern.regex, pattern.score, validation, flags)
            result = RecognizerResult(
                entity_type=self.supported_entities[0], start=start, end=end,
                score=pattern.score, analysis_explanation=description,
                recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: name,
                                      RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id})
            if validation is not None:
                result.score = self.MAX_SCORE if validation else self.MIN_SCORE
            if self.invalidate_result(written):
                result.score = self.MIN_SCORE
            if result.score > self.MIN_SCORE:
                found.append(result)
            description.score = result.score
        unique: list[RecognizerResult] = remove_duplicates(found)
        return unique


    def validate_result(self, pattern_text: str) -> bool:
        """True when the domain ends in a public suffix.

        The domain alone is read: tldextract reads a local part that holds ``/`` or
        ``?`` (a query string before the address) as a URL's path and finds no host.
        Written escaped (``maria%40example.com``), the domain is the part after the
        last escaped ``@``."""
        domain = pattern_text.rpartition("@")[2]
        if not domain or domain == pattern_text:
            domain = _ENCODED_AT.split(pattern_text)[-1]
        return _has_public_suffix(domain)

    def invalidate_result(self, pattern_text: str) -> bool:
        """Role, list and program addresses are dropped in analyze; nothing else here."""
        return False

    def _at_may_address(self, text: str, start: int, end: int) -> bool:
        """The ``@`` trigger's accept: a domain with a dot follows it, as every address
        :func:`email_spans` finds there holds (PostgreSQL's ``app@vendas`` prefix, on
        every line of its log, holds none)."""
        flags: int | None = self.global_regex_flags
        if flags is None:
            return True  # Presidio's own analysis (see analyze)
        _, _, _, domain_run, domain = _email_patterns(flags)
        return domain.match(text, end, domain_run.match(text, end).end()) is not None

    def prefilter(self, threshold: float) -> Prefilter:
        """Every address holds an ``@``, maybe escaped (``%40``, ``&#64;``); local part
        and domain stay within 256 characters, three times that written escaped."""
        return Prefilter("EMAIL_ADDRESS", (
            Trigger("@", before=256, after=256, name="at", accept=self._at_may_address),
            Trigger(_ENCODED_AT_PATTERN, before=ENCODED_EMAIL_REACH,
                    after=ENCODED_EMAIL_REACH, name="escaped at"),
        ))


#: Written forms that are never a phone number: the CPF, CNPJ and PIS masks, runs of
#: three or more dots between groups of one or two digits (versions, dotted counters,
#: ``1.1.1.1...``), and a version of four parts or more whose first is one digit (not
#: 0, a trunk prefix: ``0.21.3214.5678``) and second at most two (``Windows NT
#: 5.1.2600.5512``: (51) 2600-5512 to phonenumbers; no one splits an area code with a
#: dot).  python-phonenumbers would parse every grouping of them.
_NOT_A_PHONE: Final = re.compile(
    r"(?<![\d.])(?:\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}"
    r"|\d{3}\.\d{5}\.\d{2}-\d|\d{1,2}(?:\.\d{1,2}){3,}|[1-9]\.\d{1,2}(?:\.\d{1,5}){2,})"
    r"(?![\d])")


#: Blanks python-phonenumbers reads between a number and its extension label, past
#: the first MAX_EXTENSION_GAP of a run: cut, so that "ext. 4" two hundred spaces
#: after a number is not part of it.  (python-phonenumbers takes any run of them, so a
#: number's parse depended on text beyond what the prefilter's windows hold.)
MAX_EXTENSION_GAP: Final = 16
_LONG_GAP: Final = re.compile(f"[ \u00a0\t,]{{{MAX_EXTENSION_GAP + 1},}}")


#: A UUID (a GUID, a trace or request id): none of its digits is part of a phone.
_UUID_FORM: Final = re.compile(r"(?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}"
                               r"-[0-9A-Fa-f]{12}(?![0-9A-Fa-f-])")


def _blank(match: re.Match[str]) -> str:
    return "_" * (match.end() - match.start())


def _hide_non_phones(text: str) -> str:
    """``text`` with its UUIDs and the forms of _NOT_A_PHONE blanked out, and long runs
    of blanks cut after MAX_EXTENSION_GAP (same length, same offsets)."""
    hidden = _UUID_FORM.sub(_blank, text) if "-" in text else text
    hidden = _NOT_A_PHONE.sub(_blank, hidden)
    return _LONG_GAP.sub(lambda m: m.group()[:MAX_EXTENSION_GAP]
                         + "_" * (m.end() - m.start() - MAX_EXTENSION_GAP), hidden)


#: Ids of the BrPhoneRecognizers told to skip bare numbers no keyword lifts, for the
#: analysis under way in this thread or task (see :func:`bare_needs_keyword`).
_BARE_NEEDS_KEYWORD: Final[ContextVar[frozenset[str]]] = ContextVar(
    "bare_needs_keyword", default=frozenset())


@contextlib.contextmanager
def bare_needs_keyword(ids: frozenset[str]) -> Iterator[None]:
    """Within the block, in this thread or task only, the BrPhoneRecognizers whose ``id``
    is in ``ids`` analyse as with ``bare_needs_keyword=True``.

    For an engine whose calls go through Presidio's ``AnalyzerEngine.analyze``, which
    passes no argument of ours to the recognizers; an engine calling ``analyze``
    itself passes the argument instead.
    """
    token = _BARE_NEEDS_KEYWORD.set(ids)
    try:
        yield
    finally:
        _BARE_NEEDS_KEYWORD.reset(token)


class BrPhoneRecognizer(_Tuned, PhoneRecognizer):
    """Phone numbers via python-phonenumbers, Brazilian region only (one scan).

    A bare run of digits (``4523456789``) is a valid landline to phonenumbers and an
    order number in most logs, so it needs a phone keyword nearby; numbers written
    with ``+``, parentheses or separators keep Presidio's score.
    """

    EXTRA: ClassVar[dict[str, Any]] = {"supported_regions": ("BR",)}
    DEFAULT_CONTEXT = ("telefone", "tel", "celular", "cel", "fone", "whatsapp", "zap",
                       "contato", "ramal", "phone", "mobile", "cell")

    #: Shorter candidates cannot hold a valid number: a Brazilian one has at least
    #: eight digits, an international one a plus sign, a country code and four digits.
    MIN_CANDIDATE_LENGTH: Final = 8

    #: The default of ``analyze``'s ``bare_needs_keyword`` (for this recognizer used
    #: alone; the engine passes the argument on each call instead).
    bare_needs_keyword: bool = False

    #: The entity whose findings decide a number first (see ``analyze``'s ``owned``):
    #: BR_PHONE finds Brazilian numbers by their shape and keywords.
    owner_entity: Final = "BR_PHONE"
    #: An owner's finding scoring above this outranks any result of this recognizer
    #: (Presidio's phone score lifted by a keyword: the most it can reach).
    owned_above: Final = min(1.0, max(PhoneRecognizer.SCORE + CONTEXT_BOOST, CONTEXT_FLOOR))

    KEYWORDS_OUTSIDE_PRODUCTS = True  # a user agent's Mobile/15E148 is no phone keyword

    def _unlifted_candidate(self, text: str, start: int, end: int, keywords: str) -> bool:
        """No part of this candidate can be a phone that reaches the threshold
        (``keywords``: ``text`` as context scoring reads it, see enhance_using_context)."""
        return (not _may_hold_shape(text, start, end)
                and not self.context_words.maybe_near(keywords, start, end))

    def _unlifted_part(self, text: str, start: int, end: int, keywords: str) -> bool:
        """This part, if it parsed, would score below the threshold."""
        return (not _shaped_at(text, start, end)
                and not self.context_words.maybe_near(keywords, start, end))

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        *,
        bare_needs_keyword: bool | None = None,
        owned: Sequence[tuple[int, int]] | None = None,
    ) -> list[RecognizerResult]:
        """python-phonenumbers' matches, with bare digit runs lowered below the threshold.

        Same as Presidio's PhoneRecognizer, except that the matcher skips candidates
        shorter than MIN_CANDIDATE_LENGTH (times, counters and versions in logs)
        instead of parsing each one, never sees the forms that are not phones (a CPF,
        CNPJ or PIS mask, dotted runs of short groups: see _NOT_A_PHONE), and that
        service numbers (toll-free, premium, shared-cost: 0800, 0300, 4004-...) are
        companies' lines and left alone.

        ``bare_needs_keyword`` (default: within :func:`bare_needs_keyword` for this
        recognizer, else the attribute): passed by an engine whose threshold a bare
        number (BARE_NUMBER_SCORE) cannot reach without a keyword, for a text whose
        labels hold no phone keyword: such candidates are then not parsed at all unless
        a keyword stands near them.  The findings are the same; the parsing, the costly
        part in digit-heavy logs, is skipped.

        ``owned``: spans (sorted, disjoint) of ``text`` where the engine already holds a
        finding of :attr:`owner_entity` scoring above :attr:`owned_above`: a candidate
        inside one is not parsed.  Whatever it would give lies inside a finding that
        outranks it, so the engine's output is the same; each Brazilian number a
        keyword or its written shape gives to BR_PHONE is decided once.
        """
        import phonenumbers

        results: list[RecognizerResult] = []
        if bare_needs_keyword is None:
            bare_needs_keyword = (self.bare_needs_keyword
                                  or self.id in _BARE_NEEDS_KEYWORD.get())
        skip = bare_needs_keyword
        visible = _hide_non_phones(text)
        for region in self.supported_regions:
            matcher = _matcher_class()(
                visible, region, leniency=self.leniency, max_tries=_UNLIMITED_TRIES,
                min_candidate_length=self.MIN_CANDIDATE_LENGTH,
            )
            keywords = self.context_words.outside_products(visible) if skip else visible
            if skip and not self.context_words.anywhere(keywords):
                # No keyword in this text: the shape alone decides.
                matcher.skip_candidate = _unshaped_candidate
                matcher.skip_part = _unshaped_part
            elif skip:
                matcher.skip_candidate = functools.partial(self._unlifted_candidate,
                                                           keywords=keywords)
                matcher.skip_part = functools.partial(self._unlifted_part, keywords=keywords)
            if owned:
                matcher.skip_candidate = _or_inside(matcher.skip_candidate, owned)
            for match in matcher:
                if _is_service_number(match.number):
                    continue  # 0800, 0300, 4004-...: a company's line, not a person's
                written = text[match.start:match.end]
                found_region = region
                # Without a region, python-phonenumbers parses only a number that starts
                # with a plus sign (it raises for any other).
                if "+" in written or "\uff0b" in written:
                    try:
                        parsed = phonenumbers.parse(written)
                        found_region = phonenumbers.region_code_for_number(parsed)
                    except phonenumbers.NumberParseException:
                        pass
                results.append(self._get_recognizer_result(  # type: ignore[no-untyped-call]
                    match, text, found_region, nlp_artifacts))
        unique: list[RecognizerResult] = remove_duplicates(results)
        for result in unique:
            if not _shaped_at(text, result.start, result.end):
                result.score = min(result.score, BARE_NUMBER_SCORE)
        return unique

    def prefilter(self, threshold: float) -> Prefilter:
        """Where python-phonenumbers can find a number that reaches ``threshold``.

        Above BARE_NUMBER_SCORE only a phone's written shape (see _phone_shaped) or a
        keyword lifts a number: a plus sign, an area code in brackets, a separated
        subscriber part, and the keywords.  At or below it every number
        counts: also eight digits written with punctuation, or bare.
        """
        reach = 48
        triggers = [
            Trigger("[+]", after=reach, name="plus", accept=_plus_opens_number),
            Trigger(_AREA_IN_BRACKETS, before=reach, after=reach, name="bracket"),
            Trigger(f"(?:^|\\D){_SUBSCRIBER}(?:\\D|$)", before=reach, after=reach,
                    name="subscriber", accept=_outside_uuids),
        ]
        if threshold <= BARE_NUMBER_SCORE:
            ext = ("[ \t,]*(?:[eE]?[xX][tT]|[xX#~]|[iI][nN][tT]|"
                   "[\u0434\u0414][\u043e\u041e][\u0431\u0411]|"
                   "[aA][nN][eE][xX][oO])|[- ]+\\d{1,6}#|;")
            triggers.extend((
                Trigger(_phone_separated(), before=reach, after=reach, name="punctuated",
                        accept=_outside_uuids),
                Trigger(f"\\d{{8}}(?:{ext})", before=reach, after=reach, name="extension",
                        accept=_outside_uuids),
                Trigger("\\d{8}", before=reach, after=reach, name="bare",
                        accept=_outside_uuids),
            ))
        elif _keyword_lifts(threshold):
            triggers.extend(_keyword_triggers(self, reach))
        # A keyword decides from the text around it whether it is part of a product in
        # a user agent (ContextWords.outside_products): that text is in the window too,
        # for every keyword near enough a number to raise its score (the keyword
        # triggers refuse the keywords that are part of a product: no window of their
        # own holds it).
        return Prefilter("PHONE_NUMBER", tuple(triggers),
                         margin_before=CONTEXT_BEFORE + 16 + PRODUCT_REACH_BEFORE,
                         margin_after=CONTEXT_AFTER + 16 + PRODUCT_REACH_AFTER)



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
        """Presidio's analysis, with bare digit runs and numbers not grouped like a card's
        lowered below the threshold (a keyword lifts them)."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags
        )
        if "-" in text:
            results = [r for r in results if not _in_guid(text, r.start, r.end)]
        return cap_scores(results, text, _not_card_grouped, BARE_NUMBER_SCORE)

    def prefilter(self, threshold: float) -> Prefilter:
        """Presidio's card shape with at least one separator; bare runs need a keyword."""
        first, group, last = "[13456]\\d{3}", "\\d{3,4}", "\\d{3,5}"
        separated = (f"{first}[- ]{group}[- ]?{group}[- ]?{last}"
                     f"|{first}{group}[- ]{group}[- ]?{last}"
                     f"|{first}{group}{group}[- ]{last}")
        reach = 4
        # Presidio's pattern stands between word boundaries: a group of a longer run
        # of digits (ids and timings in columns) is no card.
        # (Not \\b, which hyperscan refuses in Unicode mode: an ASCII word character
        # is the looser test.)
        before, after = "(?:^|[^0-9A-Za-z_])", "(?:[^0-9A-Za-z_]|$)"
        triggers = [Trigger(f"{before}(?:{separated}){after}", before=reach, after=reach,
                            name="separated", accept=_outside_guid)]
        if threshold <= BARE_NUMBER_SCORE:
            triggers.append(Trigger(f"{before}{first}{group}{group}{last}{after}",
                                    before=reach, after=reach, name="bare"))
        elif _keyword_lifts(threshold):
            triggers.extend(_keyword_triggers(self, 24))
        return Prefilter("CREDIT_CARD", tuple(triggers))


#: A GUID (``{54849625-5478-4994-A5BA-3E3B0328C30D}``: a Windows event's provider, an
#: object's id), whose first groups of digits have a card's separated shape: no card.
_GUID: Final = re.compile(
    r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_GUID_CHARS: Final = 36


def _in_guid(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside a GUID."""
    low, high = max(0, start - _GUID_CHARS), min(len(text), end + _GUID_CHARS)
    for match in _GUID.finditer(text, low, high):
        if match.start() <= start and end <= match.end():
            return True
        if match.start() > start:
            break
    return False


def _outside_guid(text: str, start: int, end: int) -> bool:
    """The separated card trigger's accept: its digits (the hit less the characters
    around them) lie outside every GUID, as the card recognizer's findings do."""
    if start < end and not text[start].isalnum():
        start += 1
    if end > start and not text[end - 1].isalnum():
        end -= 1
    return not _in_guid(text, start, end)


def _ip_patterns() -> list[Pattern]:
    """Presidio's IP patterns; an IPv4 address is not part of a longer dotted number.

    ``1.3.6.1.4.1.2021`` (an SNMP OID, a version) holds no address, and a run of
    ``1.1.1.1...`` would otherwise be one address every eight characters.  The same
    rule as Presidio's IPv6 pattern, which may not be followed by ``.`` and a digit.
    """
    return [Pattern(p.name, f"(?<![0-9]\\.)(?:{p.regex})(?!\\.[0-9])" if p.name == "IPv4"
                    else p.regex, p.score)
            for p in IpRecognizer.PATTERNS]


#: What stands right before a version number written like an address: a product name
#: and a slash (``Firefox/2.0.0.14``), ``rv:`` or ``v``, or a word naming a version, maybe
#: glued to the word before it by a space lost in rendering (``vejaSeção 1.3.2.3``: the
#: word starts where a capital follows a lower-case letter); a word naming a section
#: may end the line before, in prose wrapped in lines (``Seção\n    15.8.3.1``).
_VERSION_BEFORE: Final = re.compile(
    r"(?:[A-Za-z][\w.+-]*/|\brv:|\b[vV]|(?:\b|(?<=[a-zà-ÿ])(?=[A-ZÀ-Ý]))"
    r"(?:(?i:vers[aã]o|version|release|kernel|build|"
    r"se[cç][aã]o|section|cap[ií]tulo|chapter|item|passo|step|rfc|oid)[ \t]*[:=]?[ \t]*"
    r"|(?i:se[cç][aã]o|section|cap[ií]tulo|chapter)[ \t]*\r?\n[ \t]*))\Z")
#: A heading's section number: at a line's start, followed by a title ("3.11.3.3 Configurando").
_TITLE_AFTER: Final = re.compile(r"\.[ \t]{1,8}\S|[ \t]{1,4}[A-ZÀ-Ý][a-zà-ÿ]")
#: A Debian or Ubuntu revision after a four-part version, by its marks: ``-0ubuntu1``,
#: ``-2build1``, ``-3+deb12u8``, ``-1~bpo11+1``, ``-1+b2`` (at most 13 characters: the
#: IPv4 trigger's window reads 16 past the address).
_DISTRO_REVISION: Final = re.compile(r"-[0-9]{1,3}(?:ubuntu|build|\+deb[0-9]|~bpo|~deb|\+b[0-9])")
#: A plain revision (``-2``, an NMU's ``-0.1``) and the character after it.
_PLAIN_REVISION: Final = re.compile(r"-[0-9]{1,3}(?:\.[0-9]{1,3})?(?![0-9]|\.[0-9])(.?)")
#: What stands before a version in a package's dependency (``libxft-dev <= 2.1.8.2-5``)
#: or in dpkg's log after the package and its architecture (``alsa-topology-conf:all
#: <none> 1.2.5.1-2``, ``libfoo:amd64 1.2.3.4-1 1.2.3.5-1``).
_PACKAGE_BEFORE: Final = re.compile(
    r"(?:[<>]=|<<|>>|\(=)[ \t]?\Z|:(?:all|amd64|arm64|armhf|armel|i386|ppc64el|s390x"
    r"|riscv64|mips64el)[ \t]+(?:<none>[ \t]+|[0-9][\w.:+~-]{0,20}[ \t]+)?\Z")
#: apt's history of an upgrade, before its new version: ``libasound2:amd64 (1.2.4.1-1,
#: 1.2.5.1-2)``.
_UPGRADE_BEFORE: Final = re.compile(r"\([0-9][\w.:+~]{0,12}-[\w.+~]{1,6},[ \t]?\Z")
_EPOCH: Final = re.compile(r"(?<![0-9:])[0-9]{1,2}:\Z")


def _package_version(text: str, written: str, before: str, end: int) -> bool:
    """Whether the dotted quad ``written`` ending at ``end`` (``before`` the text before it) is a
    package's version with its revision: one of Debian's or Ubuntu's marks, or a plain
    revision inside parentheses (``alsa-lib (1.2.5.1-1)``, dpkg's ``Unpacking x
    (1.2.5.1-2)``, apt's ``x:amd64 (1.2.5.1-2, automatic)`` and ``(old, new)``),
    between the underscores of a package file (``x_1.2.5.1-2_all.deb``), after a
    dependency's operator or after dpkg's package and architecture.  Address ranges
    (``192.0.2.1-10``, ``10.0.0.1-10.0.0.9``) are none of these."""
    if any(len(part) > 2 for part in written.split(".")):
        return False  # a part over 99: versions count in small numbers, addresses not
    if _DISTRO_REVISION.match(text, end):
        return True
    plain = _PLAIN_REVISION.match(text, end)
    if plain is None:
        return False
    after = plain.group(1)
    epoch = _EPOCH.search(before)
    if epoch is not None:
        before = before[:epoch.start()]  # libxfixes (1:3.0.1.2-5)
    return (before.endswith("(") and after != "" and after in "),") \
        or (before.endswith("_") and after == "_") \
        or (after == ")" and _UPGRADE_BEFORE.search(before) is not None) \
        or _PACKAGE_BEFORE.search(before) is not None


#: A release's number, written like an address: a one-digit first part and parts of
#: at most two digits (``2.0.3.5``, ``4.3.99.16``).  Few addresses are written so
#: (0.24 % of random ones; the resolvers ``1.1.1.1`` and ``8.8.8.8`` are); those
#: :func:`_narrates_a_release` holds are read as releases.
_RELEASE_SHAPED: Final = re.compile(r"[1-9](?:\.(?:[1-9]?[0-9])){3}")
#: Before a release's number: a package's name glued to it by a hyphen (``linux-2.6.8.1``,
#: ``zlib-1.2.8.1``: three letters or digits at least, in lower case) or before it,
#: holding a hyphen between letters (``man-db 2.8.6.1``, ``base-passwd 2.0.3.5``); a
#: dependency's operator (``zlib >= 1.2.2.3``); Debian's words of its policy
#: (``Policy 3.6.1.1``, ``Standards-Version updated to 4.6.0.1``); or a word that bumps or fixes
#: a release (``Bump to 1.2.99.1``, ``fixed in 1.5.4.1``).  (Words a log writes before
#: an address are none of these: ``since``, ``upstream``, ``updated to``, ``->``, ``eth0``.)
_RELEASE_BEFORE: Final = re.compile(
    r"(?:(?<![\w.+-])[a-z0-9][a-z0-9+]{2,}-"
    r"|(?<![\w.+-])[A-Za-z][\w+.]*[A-Za-z]-[A-Za-z][\w+.-]*[ \t]"
    r"|(?:[<>]=|<<|>>)[ \t]*"
    r"|\b(?:(?:Debian[ \t]+)?Policy|(?i:standards-version)(?:[ \t]+(?:updated|bumped))?"
    r"(?:[ \t]+to)?"
    r"|(?i:bump(?:ed)?[ \t]+to|fixed[ \t]+in))[ \t]+)\Z")
#: After a release's number: words that name it one (``1.5.4.1 release``, ``Git
#: 1.7.12.2 Release Notes``) or the date of a heading (``man-db 2.8.6.1 (5 August
#: 2019)``).
_RELEASE_AFTER: Final = re.compile(
    r"[ \t]+(?i:release|release[ \t]+notes)\b(?![ \t]*[:=])"
    r"|[ \t]+\([0-9]{1,2}[ \t]+[A-Z][a-z]+[ \t]+[0-9]{4}\)")
#: After a release's number alone in parentheses: a changelog's heading goes on with its
#: distributions and urgency (``base-passwd (2.0.3.5) unstable; urgency=high``), a
#: reference to a section with a colon (``(5.3.6.7):``).  (``nmap``'s ``host (192.0.2.7)``
#: at a line's end, ``traceroute to x (192.0.2.7), 30 hops``, ``ping``'s ``(8.8.8.8)
#: 56(84)`` and ``arp``'s ``(192.0.2.7) at`` are addresses.)
_CLOSED_AFTER: Final = re.compile(r"\)(?:[ \t]+[a-z][a-z-]*(?:[ \t]+[a-z][a-z-]*)*;|:)")
#: A heading alone on its line, then an indented list's first item (a NEWS file:
#: ``3.23.91.1\n  - fullcolor image icons``).
_HEADING_AFTER: Final = re.compile(r"[ \t]*\r?\n[ \t]+[-*+][ \t]")


#: How far back _narrates_a_release reads (``Standards-Version updated to``).
_RELEASE_LOOKBACK: Final = 48


def _narrates_a_release(text: str, written: str, before: str, end: int) -> bool:
    """Whether the dotted quad ``written`` ending at ``end`` (``before``: the text before
    it) is a release's number as documentation writes one: shaped like one
    (_RELEASE_SHAPED) and named so by what stands around it (_RELEASE_BEFORE,
    _RELEASE_AFTER, parentheses holding it alone, a heading of its own)."""
    if _RELEASE_SHAPED.fullmatch(written) is None:
        return False
    if _RELEASE_BEFORE.search(before) is not None or _RELEASE_AFTER.match(text, end):
        return True
    if before.endswith("(") and _CLOSED_AFTER.match(text, end):
        return True
    line_start = before.rfind("\n")
    return line_start >= 0 and not before[line_start + 1:].strip(" \t") \
        and _HEADING_AFTER.match(text, end) is not None


#: A port in parentheses right after an address: Cisco ASA's ``outside/198.51.100.7(51234)``
#: (its interface before a slash, as a product stands before its version) is an address.
_PORT_IN_PARENTHESES: Final = re.compile(r"\([0-9]{1,5}\)")
#: How far back the checks of :func:`not_a_host` read (the prefilter's margin is wider).
_HOST_LOOKBACK: Final = 24
_PREFIX_LENGTH: Final = re.compile(r"/([0-9]{1,3})(?![0-9])")


@lru_cache(maxsize=8192)
def _address(written: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``written`` parsed as an address, None when it is none (remembered: a log repeats
    its addresses, and parsing one costs more than finding it)."""
    import ipaddress

    try:
        return ipaddress.ip_address(written)
    except ValueError:
        return None


def _may_end_version_words(before: str) -> bool:
    """Whether :data:`_VERSION_BEFORE` may match at the end of ``before``, by its last
    characters (each of its forms ends in a slash, a colon, an equals sign or a letter,
    then blanks, or in a section word, blanks and a line break): the pattern, tried
    from every place of the look-back, costs more than an address's other checks."""
    tail = before.rstrip(" \t")
    last = tail[-1:]
    if last == "\n":
        last = tail[:-1].rstrip("\r").rstrip(" \t")[-1:]
        return last.isalpha()
    if last in (":", "="):
        # Only after ``rv`` or a word naming a version (``SRC=``, ``DST=`` of a firewall
        # log are none), read so in ASCII; beyond it the pattern decides (its words
        # ignore case as ``re`` does: ``İtem``, ``ſection``).
        word = tail[:-1].rstrip(" \t")
        return not word.isascii() or word.lower().endswith(_VERSION_WORDS)
    return last == "/" or last.isalpha()


#: The ASCII words of _VERSION_BEFORE that may stand before a colon or an equals sign.
_VERSION_WORDS: Final = ("versao", "version", "release", "kernel", "build", "secao",
                         "section", "capitulo", "chapter", "item", "passo", "step", "rfc",
                         "oid", "rv")


#: What an address says of itself (see _host_kind).
_NO_HOST: Final = "no host"
_HOST_V4: Final = "IPv4 host"
_HOST_V6: Final = "IPv6 host"


#: A dotted quad as ipaddress reads one: four parts of ASCII digits, none written
#: with a leading zero (refused since Python 3.9.5), each at most three digits.
_DOTTED_QUAD: Final = re.compile(r"(?:0|[1-9][0-9]{0,2})(?:\.(?:0|[1-9][0-9]{0,2})){3}")
#: Digits and dots alone: no IPv6 address is written so.
_DIGITS_AND_DOTS: Final = re.compile(r"[0-9.]+")


def _ipv4_value(written: str) -> int | None:
    """The IPv4 address ``written`` as an integer, read as ``ipaddress.IPv4Address``
    reads it (None where it refuses it): for a log's many distinct addresses, which
    the cache of :func:`_address` does not hold (tests/unit/test_ipv4_reading.py)."""
    if _DOTTED_QUAD.fullmatch(written) is None:
        return None
    first, second, third, fourth = map(int, written.split("."))
    if first > 255 or second > 255 or third > 255 or fourth > 255:
        return None
    return first << 24 | second << 16 | third << 8 | fourth


def _is_address(written: str) -> bool:
    """Does ``written`` parse as an address (``ipaddress.ip_address``)?"""
    if _DIGITS_AND_DOTS.fullmatch(written) is not None:
        # (remembered by _host_kind, which not_a_host asks next of the same address)
        return _host_kind(written, False) is not None
    return _address(written) is not None


@lru_cache(maxsize=8192)
def _host_kind(written: str, with_length: bool) -> str | None:
    """What the address ``written`` (before any ``/``, which ``with_length`` tells)
    says without the text around it: _NO_HOST when it can name no host, else which
    version it is; None when it is no address.  Remembered: a log repeats its
    addresses, and ipaddress's tests of a range cost more than finding the address."""
    if _DIGITS_AND_DOTS.fullmatch(written) is not None:
        value = _ipv4_value(written)
        if value is None:
            return None
        # ipaddress's loopback (127/8), unspecified, multicast (224/4) and reserved
        # (240/4) IPv4 addresses.
        if value >> 24 == 127 or value == 0 or value >> 28 >= 0xE:
            return _NO_HOST
        return _ipv4_host_kind(written, value, with_length)
    address = _address(written.split("%", 1)[0])
    if address is None:
        return None
    # An IPv4-mapped address (``::ffff:93.184.216.34``, as a dual-stack sshd logs its
    # clients) names the IPv4 host it maps: ipaddress counts all of ::ffff:0:0/96 as
    # reserved.
    host = address.ipv4_mapped if address.version == 6 and address.ipv4_mapped else address
    if host.is_loopback or host.is_unspecified or host.is_multicast or host.is_reserved:
        return _NO_HOST
    if address.version == 6:
        return _HOST_V6
    return _ipv4_host_kind(written, int(address), with_length)


def _ipv4_host_kind(written: str, value: int, with_length: bool) -> str:
    """What the IPv4 address ``written`` (of ``value``), none of the ranges that name no
    host, says of itself (see _host_kind)."""
    if value & 0xFF in (0, 0xFF) and not with_length:
        return _NO_HOST  # x.y.z.0 names a network, x.y.z.255 its broadcast address
    if value >> 24 == 0:
        return _NO_HOST  # 0.0.0.0/8, "this network" (RFC 1122): no host's address
    zeros = ~value & 0xFFFFFFFF
    if written.startswith("255.") and zeros & (zeros + 1) == 0:
        return _NO_HOST  # a netmask: ones, then zeros
    return _HOST_V4


def not_a_host(text: str, start: int, end: int) -> bool:
    """Whether the address at ``text[start:end]`` names no one's machine.

    Loopback, unspecified, multicast and reserved addresses, the broadcast address and
    netmasks (``255.255.255.0``) belong to no host; a network written with its prefix
    (``192.168.1.0/24``, host bits all zero) and an address ending in ``.0`` are networks,
    one ending in ``.255`` a broadcast address;
    a version number written like an address (``Firefox/2.0.0.14``, ``rv:1.8.1.14``,
    ``kernel 2.6.23.6``) and a section number (``3.11.3.3. Testando``, ``Seção 3.11.3.3``,
    ``vejaSeção 3.11.3.3`` where a render lost a space) are no addresses.
    """
    import ipaddress

    written, _, length = text[start:end].partition("/")
    kind = _host_kind(written, bool(length))
    if kind is None:
        return False
    if kind == _NO_HOST:
        return True
    if kind == _HOST_V4:
        before = text[max(0, start - _HOST_LOOKBACK):start]
        if text.startswith("-", end) and _package_version(text, written, before, end):
            return True  # alsa-lib (1.2.5.1-2), x_1.2.5.1-2_all.deb, foo 4.3.2.1-0ubuntu1
        if _may_end_version_words(before) and _VERSION_BEFORE.search(before) \
                and not _PORT_IN_PARENTHESES.match(text, end):
            return True
        if _narrates_a_release(text, written, text[max(0, start - _RELEASE_LOOKBACK):start],
                               end):
            return True
        newline = before.rfind("\n")
        at_line_start = not before[newline + 1:].strip(" \t") and (
            newline >= 0 or start <= _HOST_LOOKBACK)
        if at_line_start and _TITLE_AFTER.match(text, end):
            return True
    prefix = _PREFIX_LENGTH.match(text, end)
    if length or prefix is not None:
        with contextlib.suppress(ValueError):
            network = ipaddress.ip_network(
                f"{written}/{length or (prefix.group(1) if prefix else '')}", strict=False)
            if network.prefixlen < network.max_prefixlen \
                    and network.network_address == _address(written.split("%", 1)[0]):
                return True
    return False


class BrIpRecognizer(_Tuned, StdlibPatterns, IpRecognizer):
    """IPv4 and IPv6 addresses (an IPv4 address not inside a longer dotted number) that
    may name someone's machine (see :func:`not_a_host`)."""

    DEFAULT_CONTEXT = ("ip", "ipv4", "ipv6", "endereco ip", "host", "servidor")

    def __init__(self, supported_language: str = "pt",
                 context: Iterable[str] | None = None) -> None:
        super().__init__(supported_language, context)
        self.patterns: list[Pattern] = _ip_patterns()
        self._invalid_cache: dict[str, bool] = {}

    #: ``analyze`` takes the prefilter's hits and reads only the windows around them.
    takes_hits: Final = True
    ASCII_ONLY = True  # Presidio's IP patterns use \b and \w
    #: How many answers of ``invalidate_result`` are remembered (then it starts over).
    INVALID_CACHE_SIZE: Final = 8192

    def _usable(self, text: str, compiled: list[tuple[Pattern, list[Any]]]
                ) -> list[tuple[Pattern, list[Any]]]:
        """Presidio's IPv6 patterns (mapped and embedded IPv4 too) match a colon: on a
        piece without one, only the others run."""
        if ":" in text:
            return compiled
        return [pair for pair in compiled if pair[0].name not in _COLON_PATTERNS]

    def invalidate_result(self, pattern_text: str) -> bool:
        """Presidio's test (the match must parse as an interface), remembered per text.

        Without a ``/``, a text parses as an interface exactly when it parses as an
        address: the parse not_a_host reads (and remembers) then answers both."""
        if "/" not in pattern_text:
            return not _is_address(pattern_text)
        cache = self._invalid_cache
        known = cache.get(pattern_text, _UNKNOWN)
        if known is _UNKNOWN:
            if len(cache) >= self.INVALID_CACHE_SIZE:
                cache.clear()
            known = cache[pattern_text] = bool(super().invalidate_result(pattern_text))
        return bool(known)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
        hits: Sequence[tuple[int, int, str]] | None = None,
    ) -> list[RecognizerResult]:
        """Presidio's analysis, less the addresses that name no host.

        With ``hits`` (the prefilter's, when the engine analyses the windows around
        them), Presidio's patterns run once on the stretches of text that hold a hit,
        between blanks, quotes or brackets, instead of on the whole windows: every
        address holds a hit (its dotted quad, its ``::`` or its eight groups) and no
        separator, so a log with an address on every line is read a few dozen
        characters per address.
        """
        # A dotted quad alone between separators (a web log's client, a firewall's SRC=)
        # is the IPv4 pattern's whole match or none: asked without windows.
        quads: list[RecognizerResult] | None = None
        if hits is not None:
            plain, rest = _plain_quads(text, hits)
            quads = self.whole_matches(text, plain, "IPv4", regex_flags) if plain else None
            if quads is not None:
                hits = rest
        windows = None if hits is None else windows_near(
            text, [_inside_separators(text, first, last) for first, last, _ in hits], 0, 0,
            IP_SEPARATORS)
        results: list[RecognizerResult]
        if windows is None:
            results = super().analyze(text, entities, nlp_artifacts, regex_flags)
        else:
            def analyze(piece: str) -> list[RecognizerResult]:
                found: list[RecognizerResult] = super(BrIpRecognizer, self).analyze(
                    piece, entities, nlp_artifacts, regex_flags)
                return found

            # ASCII windows apart from the others, which take Presidio's way (see
            # ASCII_ONLY): one accented word would send every address there.  And the
            # windows holding a colon apart from those without one: the IPv6 patterns
            # (see _usable) then read only the first (an ``address:port`` in a web log
            # made them read every address).  Results in the order of one call of the
            # ASCII windows (by score, then place), and with wider ones, by pattern,
            # then place.
            groups: dict[tuple[bool, bool], list[tuple[int, int]]] = {}
            for window in windows:
                stretch = text[window[0]:window[1]]
                groups.setdefault((stretch.isascii(), ":" in stretch), []).append(window)
            results = []
            for group in groups.values():
                results.extend(analyze_windows(analyze, text, group))
            if quads is not None:
                # As if their windows were of the group of ASCII ones without a colon,
                # whose one call ranks its results (disjoint: remove_duplicates).
                results.extend(quads)
                groups.setdefault((True, False), [])
            if any(not ascii_only for ascii_only, _ in groups):
                order = {p.name: i for i, p in enumerate(self.patterns)}
                results.sort(key=lambda r: (order.get(_pattern_name(r), -1), r.start))
            elif len(groups) > 1 or quads is not None:
                results.sort(key=ranked)
        if "IP " in text and " > " in text:
            results = results + self._packet_addresses(text, results)
        return [r for r in results if not not_a_host(text, r.start, r.end)]

    def _packet_addresses(self, text: str, results: list[RecognizerResult],
                          ) -> list[RecognizerResult]:
        """The addresses of tcpdump's packet lines (``IP 198.51.100.7.51234 >
        203.0.113.9.22:``), each written with its port after a dot, which Presidio's
        IPv4 pattern, kept from longer dotted numbers (versions, OIDs), leaves: found by
        the line's own shape.  The shape lies within the prefilter's margins around
        either address, so every window holding one reads it whole."""
        taken = {(r.start, r.end) for r in results}
        found: list[RecognizerResult] = []
        for match in _PACKET_LINE.finditer(text):
            for group in ("source", "target"):
                start, end = match.span(group)
                if (start, end) not in taken and _is_address(text[start:end]):
                    taken.add((start, end))
                    found.append(make_result(self, "IP_ADDRESS", start, end,
                                             score=_PACKET_SCORE, pattern_name="IPv4"))
        return found

    def prefilter(self, threshold: float) -> Prefilter:
        """A dotted quad, or IPv6 (every form but the full eight groups holds ``::``)."""
        hex4 = "[0-9A-Fa-f]{1,4}"
        return Prefilter("IP_ADDRESS", (
            # No digit on either side: Presidio's pattern holds \b there.  Without
            # them, an address was hit once per digit of its last part, and any dotted
            # run of digits at every place it could start.
            Trigger("(?:^|[^0-9])[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(?:[^0-9]|$)",
                    before=IP_REACH, after=16, name="ipv4", alone=True),
            Trigger("::", before=48, after=IP_REACH, name="ipv6", alone=True,
                    accept=_compressed_may_be_address),
            # Presidio's patterns hold at most eight groups, and one holding these eight
            # is exactly them: neither preceded nor followed by an ASCII word character
            # or a colon, written in the trigger itself (an iptables ``MAC=`` field of
            # fourteen groups had hit it at every group's end, each hit asked alone).
            Trigger(f"(?:^|[^0-9A-Za-z_:]){hex4}(?::{hex4}){{7}}(?:$|[^0-9A-Za-z_:])",
                    before=48, after=IP_REACH, name="ipv6 full", alone=True),
        ))


def _plain_quads(text: str, hits: Sequence[tuple[int, int, str]],
                 ) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Of the ``ipv4`` trigger's hits, the dotted quads written alone between separators
    (or the text's ends), each once, in order; and the other hits.  Such a quad is all
    of the window the analysis would read around it, and the IPv4 pattern, which reads
    four parts, matches the whole of it or nothing (see BrIpRecognizer.analyze)."""
    plain: dict[tuple[int, int], None] = {}
    rest: list[tuple[int, int, str]] = []
    size = len(text)
    for first, last, name in hits:
        if name == "ipv4":
            lo, hi = _inside_separators(text, first, last)
            if (lo == 0 or text[lo - 1] in IP_SEPARATORS) \
                    and (hi == size or text[hi] in IP_SEPARATORS) \
                    and _FOUR_PARTS.fullmatch(text, lo, hi) is not None:
                plain[(lo, hi)] = None
                continue
        rest.append((first, last, name))
    return sorted(plain), rest


#: Four parts of one to three digits, between dots.
_FOUR_PARTS: Final = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")


def _inside_separators(text: str, first: int, last: int) -> tuple[int, int]:
    """A hit without the separator its trigger reads on either side (``ipv4`` and
    ``ipv6 full`` hold the character before and after the address, which must not be a
    digit, or a word character or colon): the window is the address's stretch alone."""
    if last - first > 2:
        if text[first] in IP_SEPARATORS:
            first += 1
        if text[last - 1] in IP_SEPARATORS:
            last -= 1
    return first, last


#: tcpdump's packet line: ``IP``, the source address and port, ``>``, the target's.
_PACKET_LINE: Final = re.compile(
    r"\bIP[ ](?P<source>(?:[0-9]{1,3}\.){3}[0-9]{1,3})\.[0-9]{1,5}[ ]>[ ]"
    r"(?P<target>(?:[0-9]{1,3}\.){3}[0-9]{1,3})\.[0-9]{1,5}:")
#: Presidio's IPv4 pattern's score.
_PACKET_SCORE: Final = 0.6


def _ascii_word_or_colon(char: str) -> bool:
    return char == ":" or (char.isascii() and (char.isalnum() or char == "_"))


#: The groups and colons that may stand before a ``::`` in an address, up to its start.
_HEX_COLON_TAIL: Final = re.compile(r"[0-9A-Fa-f:]*\Z")
#: The longest text of an address before its ``::`` (seven groups and their colons).
_BEFORE_COMPRESSION: Final = 7 * 5


def _compressed_may_be_address(text: str, start: int, end: int) -> bool:
    """A ``::`` may be part of an address: one starts where the run of hex digits and
    colons holding it starts, which no word character may precede (Presidio's
    ``(?<![\\w:])``).  Ruby's ``Api::V1`` and an ARN's ``sts::123456789012`` hold none."""
    low = max(0, start - _BEFORE_COMPRESSION - 1)
    run = _HEX_COLON_TAIL.search(text, low, start)
    first = run.start() if run is not None else start
    if first == 0 or (first == low and low > 0):
        return True  # the text's start, or a run longer than an address may reach
    return not _ascii_word_or_colon(text[first - 1])  # (no colon: the run holds those)


def _pattern_name(result: RecognizerResult) -> str:
    explanation = result.analysis_explanation
    return str(explanation.pattern_name) if explanation is not None else ""


_UNKNOWN: Final = object()
#: Presidio's IP patterns whose every match holds a colon.
_COLON_PATTERNS: Final = frozenset({"IPv4_mapped", "IPv4_embedded", "IPv6", "IPv6_unspecified"})

#: How far from an IP_ADDRESS trigger's hit an address may stand (the triggers' reach,
#: wider than needed: an address holds its hit).
IP_REACH: Final = 64
#: Characters no address holds, which Presidio's IP patterns (word boundaries,
#: ``(?<![\\w:])``, ``(?![\\w:]|\\.\\d)``) read as they read a text's start or end.
IP_SEPARATORS: Final = " \t\n\r\f\v\"'<>()[]{},;|=&!?*"



class BrIbanRecognizer(_Tuned, IbanRecognizer):
    """IBANs, Brazilian ones included (BR + 27 characters)."""

    DEFAULT_CONTEXT = ("iban", "conta", "banco", "transferencia", "bank", "account",
                       "transaction")

    def prefilter(self, threshold: float) -> Prefilter:
        """Country code, check digits and two groups of four start every IBAN."""
        return Prefilter("IBAN_CODE", (
            Trigger("[A-Z]{2}[0-9]{2}(?:[ -]?[A-Z0-9]{4}){2}", after=48, name="iban"),
        ))


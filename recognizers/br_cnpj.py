"""BR_CNPJ: Cadastro Nacional da Pessoa Jurídica, numeric and alphanumeric (IN RFB 2.229/2024)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final

import regex
from presidio_analyzer import Pattern, RecognizerResult

from recognizers._escapes import (
    AFTER_ESCAPE,
    ESCAPE_EDGE,
    decode_separators,
    escaped_separator,
    separator,
)
from recognizers.base import (
    CHECKSUM_PASS_SCORE,
    CONTEXT_BOOST,
    CONTEXT_FLOOR,
    JOINED_GROUPS_SCORE,
    PackPatternRecognizer,
    bounded,
    cap_scores,
    spaced_with_groups_joined,
)
from recognizers.checksums import canonical, cnpj_is_valid
from recognizers.prefilter import Prefilter, Trigger, checked, keyword_triggers

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["BrCnpjRecognizer", "looks_like_timestamp"]

# The mask is the same for both formats; lower case is accepted here and folded
# before the check (validate-docbr accepts it, it is not part of the format).  Each of
# its four separators may have a space on either side (python-stdnum's example
# ``12. ABC.345 /01DE-35``; dash variants are mapped onto ``-`` before matching): all
# four marks in place are as distinctive as the plain mask.
# Each mark may also be written escaped (``%2F``, ``\\/``, ``&#x2F;``: see
# recognizers._escapes).


def _mask_forms(escapes: bool) -> tuple[str, str]:
    """The masked and the numeric forms; ``escapes=False``: the plain forms, for a text
    without any escape character (where both match alike)."""
    dot = separator(".", plain=" ?\\. ?", escapes=escapes)
    slash = separator("/", plain=" ?/ ?", escapes=escapes)
    dash = separator("-", plain=" ?- ?", escapes=escapes)
    masked = (rf"[0-9A-Za-z]{{2}}{dot}[0-9A-Za-z]{{3}}{dot}[0-9A-Za-z]{{3}}{slash}"
              rf"[0-9A-Za-z]{{4}}{dash}[0-9]{{2}}")
    # Fourteen digits, with or without separators in the mask's places (one pattern for
    # the separated and the bare forms, which score the same: each pattern is one more
    # pass over every region), the separators maybe escaped.
    gap = separator(". ", escapes=escapes)
    numeric = (rf"[0-9]{{2}}{gap}?[0-9]{{3}}{gap}?[0-9]{{3}}"
               rf"{separator('/. ', escapes=escapes)}?[0-9]{{4}}"
               rf"{separator('-. ', escapes=escapes)}?[0-9]{{2}}")
    return masked, numeric


_MASKED, _NUMERIC = _mask_forms(escapes=True)
_MASKED_PLAIN, _NUMERIC_PLAIN = _mask_forms(escapes=False)
# A number may also start right after an escape that ends in a letter or digit
# (``%2011222333000181``, a JSON ``\\n``) or glued to its keyword (``cnpj112...``).
_GLUED: Final = "[Cc][Nn][Pp][Jj]"
_START: Final = rf"(?:(?<![0-9A-Za-z])|{AFTER_ESCAPE}|(?<={_GLUED}))"
_START_PLAIN: Final = rf"(?:(?<![0-9A-Za-z])|(?<={_GLUED}))"


def _bounded(core: str, start: str = _START) -> str:
    """``core`` not touching a letter or digit, except an escape's or the keyword's."""
    return rf"{start}(?:{core})(?![0-9A-Za-z])"


# Unmasked alphanumeric, compact or with some of the mask's marks (``AA345678/000A-29``):
# letters all upper case or all lower case, at least one of them.  Lower case, which
# hex and base32 identifiers are written in, also needs a digit among the first twelve
# characters (checked in invalidate_result): ``usuarioteste01`` is no CNPJ.  Or its
# groups separated by single spaces (``12 ABC 345 01DE 35``): words and numbers of
# prose fall into that shape, so it scores SPACED_SCORE (analyze) and needs a keyword.
# One pattern for both cases and both layouts; a value mixing cases is dropped in
# invalidate_result.
_ALNUM: Final = (r"(?:(?=[0-9./-]{0,15}[A-Za-z])"
                 r"[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}[/.]?[0-9A-Za-z]{4}[-.]?"
                 r"|(?=[0-9 ]{0,16}[A-Za-z])"
                 r"[0-9A-Za-z]{2} [0-9A-Za-z]{3} [0-9A-Za-z]{3} [0-9A-Za-z]{4} )[0-9]{2}")
_MASKED_RE: Final = regex.compile(_MASKED)
_NOT_ALNUM: Final = regex.compile(r"[^0-9A-Za-z]")
_DIGITS14_RE: Final = regex.compile(r"[0-9]{14}")

#: Score of a bare 14-digit run that also reads as YYYYMMDDhhmmss: below the
#: threshold, so only a CNPJ keyword nearby brings it back.
TIMESTAMP_SCORE: Final = 0.1
#: Score of the space-separated alphanumeric form: a CNPJ keyword lifts it.
SPACED_SCORE: Final = 0.1


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


# ----------------------------------------------------------------- prefilter
# A numeric CNPJ is 14 digits with optional separators after digits 2, 5, 8 and 12.
# Runs that certainly read as a timestamp (years 19xx/20xx, days 01-28, valid time,
# not the order 0001) score TIMESTAMP_SCORE; the trigger below hits every other
# numeric run, as a union of "first group that breaks the timestamp reading".
_SEPARATOR_AFTER: Final = {1: "[. ]?", 4: "[. ]?", 7: "[/. ]?", 11: "[-. ]?"}
_Group = tuple[tuple[str, ...], ...]  # alternatives, each one class per digit

_ANY: Final = "[0-9]"
_YEAR_OK: Final[_Group] = (("1", "9", _ANY, _ANY), ("2", "0", _ANY, _ANY))
_YEAR_BAD: Final[_Group] = (("[03-9]", _ANY, _ANY, _ANY), ("1", "[0-8]", _ANY, _ANY),
                            ("2", "[1-9]", _ANY, _ANY))
_MONTH_OK: Final[_Group] = (("0", "[1-9]"), ("1", "[0-2]"))
_MONTH_BAD: Final[_Group] = (("0", "0"), ("1", "[3-9]"), ("[2-9]", _ANY))
_DAY_OK: Final[_Group] = (("0", "[1-9]"), ("1", _ANY), ("2", "[0-8]"))
_DAY_BAD: Final[_Group] = (("0", "0"), ("2", "9"), ("[3-9]", _ANY))
_HOUR_OK: Final[_Group] = (("[01]", _ANY), ("2", "[0-3]"))
_HOUR_BAD: Final[_Group] = (("2", "[4-9]"), ("[3-9]", _ANY))
_SIXTY_OK: Final[_Group] = (("[0-5]", _ANY),)
_SIXTY_BAD: Final[_Group] = (("[6-9]", _ANY),)


def _any(count: int) -> _Group:
    return ((_ANY,) * count,)


def _digits_pattern(groups: tuple[_Group, ...]) -> str:
    """Concatenate digit groups, inserting the optional CNPJ separators by digit index."""
    out: list[str] = []
    index = 0
    for group in groups:
        options = []
        for option in group:
            text = ""
            for offset, token in enumerate(option):
                text += token + _SEPARATOR_AFTER.get(index + offset, "")
            options.append(text)
        out.append(options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")")
        index += len(group[0])
    return "".join(out)


def _not_timestamp_pattern() -> str:
    ok = (_YEAR_OK, _MONTH_OK, _DAY_OK, _HOUR_OK, _SIXTY_OK, _SIXTY_OK)
    bad = (_YEAR_BAD, _MONTH_BAD, _DAY_BAD, _HOUR_BAD, _SIXTY_BAD, _SIXTY_BAD)
    widths = (4, 2, 2, 2, 2, 2)
    alternatives = []
    for position in range(len(ok)):
        tail = sum(widths[position + 1:])
        groups = (*ok[:position], bad[position], *((_any(tail),) if tail else ()))
        alternatives.append(_digits_pattern(groups))
    alternatives.append(_digits_pattern((_any(8), (("0", "0", "0", "1"),), _any(2))))
    return "(?:" + "|".join(alternatives) + ")"


_EDGE: Final = "(?:^|[^0-9A-Za-z])"
_END_EDGE: Final = "(?:[^0-9A-Za-z]|$)"
_NUMERIC_ANY: Final = _digits_pattern((_any(14),))


#: Every unmasked alphanumeric form, either case, the mask's places optionally separated
#: (digit runs match too).
#: Spelling out where the first letter stands, as a pattern, made hyperscan's database
#: too large once the separators were added.
_ALNUM_ANY: Final = ("[0-9A-Za-z]{2}[-./]?[0-9A-Za-z]{3}[-./]?[0-9A-Za-z]{3}[-./]?"
                     "[0-9A-Za-z]{4}[-./]?[0-9]{2}")


def _spaced_with_letter() -> str:
    """The space-separated form (``12 ABC 345 01DE 35``) holding a letter, by the place of
    its first letter: with a space allowed between any groups, every date and time of a
    log (``20241111 101500``) was a hit to refuse."""
    groups = (2, 3, 3, 4)
    places = [(g, i) for g, size in enumerate(groups) for i in range(size)]
    alternatives = []
    for first_group, first_index in places:
        parts = []
        for g, size in enumerate(groups):
            if g < first_group:
                parts.append(f"[0-9]{{{size}}}")
            elif g == first_group:
                rest = size - first_index - 1
                parts.append((f"[0-9]{{{first_index}}}" if first_index else "") + "[A-Za-z]"
                             + (f"[0-9A-Za-z]{{{rest}}}" if rest else ""))
            else:
                parts.append(f"[0-9A-Za-z]{{{size}}}")
        alternatives.append(" ".join(parts) + " [0-9]{2}")
    return "(?:" + "|".join(alternatives) + ")"


def _unmasked(numeric: str) -> str:
    """Every unmasked form in one expression: the alphanumeric forms (digit runs
    included), the numeric runs of ``numeric``, the spaced form holding a letter.

    One expression, not one trigger per form: a digit run was a hit of two of them, and
    hyperscan scans the union no slower than the three patterns apart.  A space
    allowed in every gap of the alphanumeric form instead made every log time stamp
    (``20241111 101500``) a hit for the accept to refuse.
    """
    return f"{_EDGE}(?:{_ALNUM_ANY}|{numeric}|{_spaced_with_letter()}){_END_EDGE}"


_LEAD: Final = f"(?:{ESCAPE_EDGE}|{_GLUED})"


def _escaped_numeric() -> str:
    """The numeric forms the plain triggers leave out: after an escape or the glued
    keyword, or with at least one separator escaped (by the place of the first).  Not
    every form with a plain edge and plain separators: a log's timestamps would hit."""
    sep = separator("-./ ")
    plain = "[-./ ]"
    escaped = escaped_separator("-./ ")
    widths = (2, 3, 3, 4)
    alternatives = [f"{_LEAD}[0-9]{{2}}{sep}?[0-9]{{3}}{sep}?[0-9]{{3}}{sep}?[0-9]{{4}}{sep}?"
                    "[0-9]{2}"]
    for first in range(len(widths)):
        parts = []
        for index, width in enumerate(widths):
            gap = plain + "?" if index < first else escaped if index == first else sep + "?"
            parts.append(f"[0-9]{{{width}}}{gap}")
        alternatives.append(f"(?:^|[^0-9A-Za-z]){''.join(parts)}[0-9]{{2}}")
    return "(?:" + "|".join(alternatives) + f"){_END_EDGE}"


def _unmasked_check(threshold: float) -> Callable[[str], bool]:
    """What a hit of the unmasked trigger must pass to hold a finding at ``threshold``:
    its check digits, and, where a timestamp's score cannot reach the threshold, not
    reading as one (a keyword's own triggers bring those back)."""
    timestamps_fall = threshold > TIMESTAMP_SCORE

    def check(candidate: str) -> bool:
        return cnpj_is_valid(candidate) and not (
            timestamps_fall and _reads_as_timestamp(candidate))

    return check


# Digit runs a keyword may lift: those the numeric trigger leaves out (no edges: a
# superset is enough to accept a keyword's hit).
_TIMESTAMP_RE: Final = re.compile(
    _digits_pattern((_YEAR_OK, _MONTH_OK, _DAY_OK, _HOUR_OK, _SIXTY_OK, _SIXTY_OK)))


def _near_timestamp(trigger: Trigger) -> Trigger:
    """``trigger`` accepting only hits with a timestamp-shaped run within its reach."""
    before, after = trigger.before, trigger.after

    def accept(text: str, start: int, end: int) -> bool:
        return _TIMESTAMP_RE.search(text, max(0, start - before), end + after) is not None

    return dataclasses.replace(trigger, accept=accept)


def _spaced_alphanumeric(written: str) -> bool:
    """The alphanumeric form with its groups separated by spaces (a letter among them;
    the masked form's spaces sit next to its marks)."""
    if _MASKED_RE.fullmatch(written):
        return False
    decoded = decode_separators(written)
    return " " in decoded and not decoded.replace(" ", "").isdigit()


def _groups_joined(written: str) -> bool:
    return spaced_with_groups_joined(written, (2, 5, 8, 12), apart=(8, 12))


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

    Letters are upper case in the format; systems that lower-case text write
    ``12abc34501de35``, which counts as well (with a digit among its first twelve
    characters, so that words followed by two digits stay out), as does the mask with
    a space around its marks.  Groups separated by spaces alone need a keyword.
    """

    ENTITY = "BR_CNPJ"
    PATTERNS = (
        Pattern("CNPJ (masked)", _bounded(_MASKED), 1.0),
        Pattern("CNPJ (numeric)", _bounded(_NUMERIC), CHECKSUM_PASS_SCORE),
        Pattern("CNPJ (alphanumeric)", bounded(_ALNUM), CHECKSUM_PASS_SCORE),
    )
    PLAIN_PATTERNS: ClassVar[dict[str, str]] = {
        "CNPJ (masked)": _bounded(_MASKED_PLAIN, _START_PLAIN),
        "CNPJ (numeric)": _bounded(_NUMERIC_PLAIN, _START_PLAIN),
    }
    BASIC_PATTERNS: ClassVar[dict[str, str]] = {
        "CNPJ (masked)": bounded(_MASKED_PLAIN),
        "CNPJ (numeric)": bounded(_NUMERIC_PLAIN),
    }
    GLUED: ClassVar[re.Pattern[str] | None] = re.compile(r"[Cc][Nn][Pp][Jj][0-9A-Za-z]")
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
        """Run the patterns, then lower bare runs that read as timestamps, the
        alphanumeric form separated by spaces alone, and a numeric form separated by
        spaces that runs some of its groups together (``45471 200 486047``, three
        fields of a log line)."""
        results: list[RecognizerResult] = super().analyze(
            text, entities, nlp_artifacts, regex_flags
        )
        cap_scores(results, text, _spaced_alphanumeric, SPACED_SCORE)
        cap_scores(results, text, _groups_joined, JOINED_GROUPS_SCORE)
        return cap_scores(results, text, _reads_as_timestamp, TIMESTAMP_SCORE)

    def prefilter(self, threshold: float) -> Prefilter:
        """Where a CNPJ can be.

        Every form passing its check digits, except numeric runs that certainly read
        as a timestamp, which scores TIMESTAMP_SCORE and needs a keyword nearby: when
        the threshold can be reached that way, the keywords become triggers too, each
        hit accepted only when a run that may read as a timestamp lies within its
        reach (a window at every "emitente" of a log cost more than the rest).
        """
        numeric = _NUMERIC_ANY if threshold <= TIMESTAMP_SCORE else _not_timestamp_pattern()
        reach = 20
        # Each hit is one written form the patterns match, and every match whose check
        # digits fail is dropped (invalidate_result): the hit must pass them too.
        triggers = [
            Trigger(_MASKED, accept=checked(cnpj_is_valid), name="masked"),
            Trigger(_unmasked(numeric), accept=checked(_unmasked_check(threshold)),
                    name="unmasked"),
            Trigger(_escaped_numeric(), accept=checked(_unmasked_check(threshold), _LEAD),
                    name="escaped"),
        ]
        # At or below TIMESTAMP_SCORE the numeric trigger already hits every run.
        if TIMESTAMP_SCORE < threshold <= max(TIMESTAMP_SCORE + CONTEXT_BOOST, CONTEXT_FLOOR):
            triggers.extend(_near_timestamp(t)
                            for t in keyword_triggers(self.context_words.keywords, reach))
        return Prefilter(self.ENTITY, tuple(triggers))

    def validate_result(self, pattern_text: str) -> bool | None:
        """The mask is decided by its check digits; other forms keep their score."""
        if _MASKED_RE.fullmatch(pattern_text):
            return cnpj_is_valid(pattern_text)
        return None

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop any form whose check digits fail, and unmasked alphanumeric forms that
        mix cases or, in lower case or spaced, have no digit among their first twelve
        characters (words: ``de uma vez para 10``)."""
        if not cnpj_is_valid(pattern_text):
            return True
        if _MASKED_RE.fullmatch(pattern_text):
            return False
        core = _NOT_ALNUM.sub("", decode_separators(pattern_text))
        if core.isdigit():
            return False
        if not (core.isupper() or core.islower()):
            return True
        return (core.islower() or " " in pattern_text) and not any(
            c.isdigit() for c in core[:12])

"""DATA_NASCIMENTO: a birth date, in its usual written forms, next to its keyword.

Dates are everywhere in logs and documents; only one that a birth keyword
(``nascimento``, ``nasc.``, ``DN``, ``dob``, ``born``, a ``data_nascimento`` key) stands
next to is personal data here.  The forms: ``12/03/1980``, ``12-03-1980``,
``12.03.1980``, ``1980-03-12``, ``12/03/80`` and ``12 de março de 1980`` (month names
in Portuguese or English, any case, accents optional).  The day and month must form a
real calendar date.
"""

from __future__ import annotations

import datetime
import re
from typing import Final

from presidio_analyzer import Pattern

from recognizers._text import fold
from recognizers.base import PackPatternRecognizer, bounded

__all__ = ["BrDataNascimentoRecognizer"]

_MONTHS: Final = {
    "janeiro": 1, "jan": 1, "january": 1, "fevereiro": 2, "fev": 2, "february": 2, "feb": 2,
    "marco": 3, "mar": 3, "march": 3, "abril": 4, "abr": 4, "april": 4, "apr": 4,
    "maio": 5, "mai": 5, "may": 5, "junho": 6, "jun": 6, "june": 6, "julho": 7, "jul": 7,
    "july": 7, "agosto": 8, "ago": 8, "august": 8, "aug": 8, "setembro": 9, "set": 9,
    "september": 9, "sep": 9, "sept": 9, "outubro": 10, "out": 10, "october": 10, "oct": 10,
    "novembro": 11, "nov": 11, "november": 11, "dezembro": 12, "dez": 12, "december": 12,
    "dec": 12,
}
_MONTH_WORD: Final = (r"(?i:janeiro|jan|january|fevereiro|fev|february|feb|mar[cç]o|mar|march|"
                      r"abril|abr|april|apr|maio|mai|may|junho|jun|june|julho|jul|july|agosto|"
                      r"ago|august|aug|setembro|set|sept?|september|outubro|out|october|oct|"
                      r"novembro|nov|november|dezembro|dez|december|dec)\.?")
_DAY: Final = r"(?:0?[1-9]|[12][0-9]|3[01])"
_MONTH: Final = r"(?:0?[1-9]|1[0-2])"
_YEAR: Final = r"(?:1[89][0-9]{2}|20[0-9]{2})"
_NUMERIC_DMY: Final = rf"{_DAY}(?P<s>[/.-]){_MONTH}(?P=s)(?:{_YEAR}|[0-9]{{2}})"
_ISO: Final = rf"{_YEAR}-{_MONTH}-{_DAY}"
_WRITTEN: Final = (rf"{_DAY}(?:º|o)?[ ]{{1,3}}(?:de[ ]{{1,3}})?{_MONTH_WORD}"
                   rf"(?:[ ]{{1,3}}de[ ]{{1,3}}|[ ]{{1,3}}|,[ ]{{0,3}})"
                   rf"{_YEAR}")
_WRITTEN_EN: Final = rf"{_MONTH_WORD}[ ]{{1,3}}{_DAY}(?:st|nd|rd|th)?,?[ ]{{1,3}}{_YEAR}"

#: "DN" (data de nascimento) only in capitals, right before the date: as a context
#: word it would also match "dns" and LDAP's "dn:".
_AFTER_DN: Final = r"(?<=(?<![A-Za-z0-9])(?:DN|D\.N\.)[ \t]{0,3}[:=]?[ \t]{0,3})"

#: Supersets of the forms, in the prefilter's syntax.  Below the threshold without a
#: keyword, they serve only engines with a threshold that low; the keywords are
#: triggers too (see PackPatternRecognizer.prefilter).
_ANY_NUMERIC: Final = r"[0-9]{1,4}[/.-][0-9]{1,2}[/.-][0-9]{2,4}"
_ANY_WRITTEN: Final = (r"[0-9](?:º|o)?[ ]{1,3}(?:de[ ]{1,3})?"
                       r"(?i:jan|fe|mar|ab|ap|mai|may|jun|jul|ag|au|se|ou|oc|no|de)")
_ANY_WRITTEN_EN: Final = (r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[A-Za-z]*\.?"
                          r"[ ]{1,3}[0-9]")
_DN_TRIGGER: Final = r"(?:DN|D\.N\.)[ \t]{0,3}[:=]?[ \t]{0,3}[0-9]"

_NUMBERS: Final = re.compile(r"[0-9]+")
_WORDS: Final = re.compile(r"[^\W\d_]+")


def _is_real_date(written: str) -> bool:
    """True when the day, month and year of ``written`` form a calendar date."""
    numbers = [int(n) for n in _NUMBERS.findall(written)]
    month_words = [m for m in (_MONTHS.get(fold(w).rstrip(".")) for w in _WORDS.findall(written))
                   if m is not None]
    if month_words and len(numbers) == 2:
        day, year = numbers
        month = month_words[0]
    elif len(numbers) == 3 and numbers[0] > 31:
        year, month, day = numbers
    elif len(numbers) == 3:
        day, month, year = numbers
        if year < 100:  # two digits: the past century for a birth date
            year += 1900
    else:
        return False
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


class BrDataNascimentoRecognizer(PackPatternRecognizer):
    """Birth dates: any written date, kept only with a birth keyword nearby."""

    ENTITY = "DATA_NASCIMENTO"
    PATTERNS = (
        Pattern("date (d/m/y)", bounded(_NUMERIC_DMY), 0.05),
        Pattern("date (ISO)", bounded(_ISO), 0.05),
        Pattern("date (written)", bounded(_WRITTEN), 0.05),
        Pattern("date (written, English)", bounded(_WRITTEN_EN), 0.05),
        Pattern("date after DN", _AFTER_DN + bounded(f"{_NUMERIC_DMY}|{_ISO}|{_WRITTEN}"), 0.9),
    )
    PREFILTER = ((_ANY_NUMERIC, 0.05), (_ANY_WRITTEN, 0.05), (_ANY_WRITTEN_EN, 0.05),
                 (_DN_TRIGGER, 0.9))
    MAX_LENGTH = 40
    CONTEXT_SCORE = 0.9
    DEFAULT_CONTEXT = (
        "nascimento", "nasc", "nascido", "nascida", "nasceu", "data de nascimento",
        "dt nasc", "aniversario", "born", "dob", "birth", "birthdate", "birthday",
        "date of birth",
        # camelCase keys are one word to the context scorer
        "datanascimento", "datanasc", "dtnascimento", "dtnasc", "datadenascimento",
        "dateofbirth", "birthdate",
    )

    def invalidate_result(self, pattern_text: str) -> bool | None:
        """Drop impossible dates (31/02/1980, 00/13/1990)."""
        return not _is_real_date(pattern_text)

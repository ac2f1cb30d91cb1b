"""Synthetic test data: identifiers computed from their algorithms, never real ones.

The check-digit code here is deliberately independent of validate-docbr (which the
recognizers use), so that tests compare two implementations of the same rules.
Every function takes a ``random.Random`` so that corpora are reproducible.
"""

from __future__ import annotations

import random
import string
from typing import Final

CPF_W1: Final = tuple(range(10, 1, -1))
CPF_W2: Final = tuple(range(11, 1, -1))
CNPJ_W1: Final = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
CNPJ_W2: Final = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
ALNUM: Final = string.digits + string.ascii_uppercase


def _mod11(values: list[int], weights: tuple[int, ...]) -> int:
    remainder = sum(v * w for v, w in zip(values, weights, strict=True)) % 11
    return 0 if remainder < 2 else 11 - remainder


def cpf_check_digits(base: str) -> str:
    """The two DVs of a 9-digit CPF base."""
    values = [int(c) for c in base]
    first = _mod11(values, CPF_W1)
    second = _mod11([*values, first], CPF_W2)
    return f"{first}{second}"


def cnpj_check_digits(base: str) -> str:
    """The two DVs of a 12-character CNPJ base (digits or A-Z valued ASCII - 48)."""
    values = [ord(c) - 48 for c in base.upper()]
    first = _mod11(values, CNPJ_W1)
    second = _mod11([*values, first], CNPJ_W2)
    return f"{first}{second}"


def cpf_is_valid_reference(value: str) -> bool:
    """Reference check used as an oracle in tests (bare 11 digits only)."""
    return (len(value) == 11 and value.isascii() and value.isdigit() and len(set(value)) > 1
            and cpf_check_digits(value[:9]) == value[9:])


def cnpj_is_valid_reference(value: str) -> bool:
    """Reference check used as an oracle in tests (bare 14 characters only)."""
    return (len(value) == 14 and all(c in ALNUM for c in value[:12])
            and value[12:].isascii() and value[12:].isdigit() and len(set(value)) > 1
            and cnpj_check_digits(value[:12]) == value[12:])


def random_cpf(rng: random.Random) -> str:
    """A valid bare CPF whose digits are not all equal."""
    while True:
        base = "".join(rng.choice(string.digits) for _ in range(9))
        if len(set(base)) > 1:
            return base + cpf_check_digits(base)


def random_cnpj(rng: random.Random, *, alphanumeric: bool = False,
                order: str | None = None) -> str:
    """A valid bare CNPJ; alphanumeric ones have at least one letter in the root."""
    chars = ALNUM if alphanumeric else string.digits
    while True:
        root = "".join(rng.choice(chars) for _ in range(8))
        tail = order if order is not None else "".join(rng.choice(chars) for _ in range(4))
        base = root + tail
        if alphanumeric and not any(c.isalpha() for c in base):
            continue
        if len(set(base)) > 1:
            return base + cnpj_check_digits(base)


def invalid_cpf(rng: random.Random) -> str:
    """11 digits that fail the CPF check."""
    while True:
        value = "".join(rng.choice(string.digits) for _ in range(11))
        if not cpf_is_valid_reference(value):
            return value


def invalid_cnpj(rng: random.Random, *, alphanumeric: bool = False) -> str:
    """14 characters in CNPJ shape that fail the check."""
    while True:
        chars = ALNUM if alphanumeric else string.digits
        value = "".join(rng.choice(chars) for _ in range(12))
        value += "".join(rng.choice(string.digits) for _ in range(2))
        if alphanumeric and not any(c.isalpha() for c in value):
            continue
        if not cnpj_is_valid_reference(value):
            return value


# Written forms -----------------------------------------------------------------

def cpf_forms(cpf: str) -> dict[str, str]:
    """Every written form of a CPF that the recognizer must find."""
    a, b, c, d = cpf[0:3], cpf[3:6], cpf[6:9], cpf[9:11]
    return {
        "masked": f"{a}.{b}.{c}-{d}",
        "bare": cpf,
        "dash": f"{a}{b}{c}-{d}",
        "dots": f"{a}.{b}.{c}.{d}",
        "spaces": f"{a} {b} {c} {d}",
        "hyphens": f"{a}-{b}-{c}-{d}",
        "ocr_slash": f"{a}.{b}.{c}/{d}",
    }


def cnpj_forms(cnpj: str) -> dict[str, str]:
    """Every written form of a CNPJ that the recognizer must find."""
    a, b, c, d, e = cnpj[0:2], cnpj[2:5], cnpj[5:8], cnpj[8:12], cnpj[12:14]
    forms = {
        "masked": f"{a}.{b}.{c}/{d}-{e}",
        "bare": cnpj,
    }
    if cnpj.isdigit():
        forms.update({
            "dotted": f"{a}.{b}.{c}.{d}-{e}",
            "spaces": f"{a} {b} {c} {d} {e}",
            "slash_only": f"{a}{b}{c}/{d}-{e}",
        })
    else:
        forms["masked_lower"] = forms["masked"].lower()
    return forms


#: Escaped spellings of the separators (issue 29, item 5): name -> {char: spelling}.
ESCAPES: Final = {
    "percent": {"-": "%2D", ".": "%2E", "/": "%2F", " ": "%20"},
    "percent_lower": {"-": "%2d", ".": "%2e", "/": "%2f", " ": "%20"},
    "percent_twice": {"-": "%252D", ".": "%252E", "/": "%252F", " ": "%2520"},
    "json": {"-": "\\u002d", ".": "\\u002e", "/": "\\/", " ": "\\u0020"},
    "html_hex": {"-": "&#x2D;", ".": "&#x2E;", "/": "&#x2F;", " ": "&#x20;"},
    "html_decimal": {"-": "&#45;", ".": "&#46;", "/": "&#47;", " ": "&#32;"},
    "html_named": {"-": "&hyphen;", ".": "&period;", "/": "&sol;", " ": "&nbsp;"},
}


def _escaped(written: str, escapes: dict[str, str], only: str) -> str:
    return "".join(escapes[c] if c in only else c for c in written)


def _glued(bare: str, keyword: str) -> dict[str, str]:
    return {"glued_keyword": keyword + bare, "glued_upper": keyword.upper() + bare,
            "after_percent": "%2F" + bare, "after_space_escape": "%20" + bare,
            "after_json_break": "\\n" + bare, "after_json_tab": "\\t" + bare}


def cpf_encoded_forms(cpf: str) -> dict[str, str]:
    """A CPF's written forms with escaped separators, a spaced dash, a glued keyword."""
    forms = cpf_forms(cpf)
    out: dict[str, str] = {}
    for name, escapes in ESCAPES.items():
        out[f"masked_{name}"] = _escaped(forms["masked"], escapes, "-.")
        out[f"dash_{name}"] = _escaped(forms["masked"], escapes, "-")
        out[f"spaces_{name}"] = _escaped(forms["spaces"], escapes, " ")
        out[f"ocr_slash_{name}"] = _escaped(forms["ocr_slash"], escapes, "/")
    masked = forms["masked"]
    out["spaced_dash"] = masked.replace("-", " - ")
    out["spaced_dash_before"] = masked.replace("-", " -")
    out.update(_glued(cpf, "cpf"))
    return out


def cnpj_encoded_forms(cnpj: str) -> dict[str, str]:
    """A CNPJ's written forms with escaped separators and a glued keyword."""
    forms = cnpj_forms(cnpj)
    out: dict[str, str] = {}
    for name, escapes in ESCAPES.items():
        out[f"masked_{name}"] = _escaped(forms["masked"], escapes, "-./")
        out[f"slash_{name}"] = _escaped(forms["masked"], escapes, "/")
        if cnpj.isdigit():
            out[f"slash_only_{name}"] = _escaped(forms["slash_only"], escapes, "/")
            out[f"spaces_{name}"] = _escaped(forms["spaces"], escapes, " ")
    if cnpj.isdigit():
        out.update(_glued(cnpj, "cnpj"))
    return out


def timestamp14(rng: random.Random) -> str:
    """A plausible YYYYMMDDhhmmss timestamp."""
    return (f"{rng.randint(2000, 2030):04d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            f"{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}")


def mobile_not_cpf(rng: random.Random) -> str:
    """An 11-digit São Paulo mobile number that does not pass the CPF check."""
    while True:
        value = "119" + "".join(rng.choice(string.digits) for _ in range(8))
        if not cpf_is_valid_reference(value):
            return value


# User names -----------------------------------------------------------------------

_FIRST: Final = ("ana", "bruno", "carla", "diego", "elisa", "fabio", "gabriela", "heitor",
                 "iara", "joaquim", "larissa", "marcos", "natalia", "otavio", "priscila",
                 "rafael", "sabrina", "tiago", "ursula", "vinicius", "wesley", "yasmin")
_LAST: Final = ("almeida", "barros", "cardoso", "duarte", "esteves", "figueira", "goulart",
                "henriques", "igarashi", "junqueira", "kuster", "lacerda", "moraes",
                "nogueira", "pacheco", "queiroz", "rezende", "siqueira", "teixeira", "valadares")


def username(rng: random.Random, *, style: str | None = None) -> str:
    """A synthetic login name in one of the common corporate styles."""
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    style = style or rng.choice(("initial", "dotted", "sap", "digits"))
    if style == "initial":
        return first[0] + last
    if style == "dotted":
        return f"{first}.{last}"
    if style == "sap":
        return (first[0] + last).upper()[:12]
    return f"{first[:3]}{last[:3]}{rng.randint(1, 99)}"


# The other Brazilian identifiers (br-identifiers.md §4-13), generated from their rules.

def _digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(count))


def _varied(rng: random.Random, count: int) -> str:
    while True:
        value = _digits(rng, count)
        if len(set(value)) > 1:
            return value


def cnh_check_digits(base: str, *, discount: bool = True) -> str:
    """CNH DVs; ``discount`` is validate-docbr's rule (DV2 - 2 when the first remainder is 10)."""
    first = sum(int(d) * w for d, w in zip(base, range(9, 0, -1), strict=True)) % 11
    dsc = 0
    if first >= 10:
        first, dsc = 0, (2 if discount else 0)
    second = sum(int(d) * w for d, w in zip(base, range(1, 10), strict=True)) % 11 - dsc
    if second < 0:
        second += 11
    if second >= 10:
        second = 0
    return f"{first}{second}"


def random_cnh(rng: random.Random) -> str:
    base = _varied(rng, 9)
    return base + cnh_check_digits(base)


PIS_WEIGHTS: Final = (3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


def pis_check_digit(base: str) -> str:
    return str(_mod11([int(c) for c in base], PIS_WEIGHTS))


def random_pis(rng: random.Random) -> str:
    base = _varied(rng, 10)
    return base + pis_check_digit(base)


def renavam_check_digit(base: str) -> str:
    value = (10 * sum(int(d) * w for d, w in zip(base, PIS_WEIGHTS, strict=True))) % 11
    return "0" if value == 10 else str(value)


def random_renavam(rng: random.Random) -> str:
    base = _varied(rng, 10)
    return base + renavam_check_digit(base)


def titulo_check_digits(base: str) -> str:
    """Voter ID DVs without the SP/MG exception (validate-docbr's reading)."""
    first = sum(int(d) * w for d, w in zip(base[:8], range(2, 10), strict=True)) % 11
    first = 0 if first == 10 else first
    second = (int(base[8]) * 7 + int(base[9]) * 8 + first * 9) % 11
    second = 0 if second == 10 else second
    return f"{first}{second}"


def random_titulo(rng: random.Random) -> str:
    base = _varied(rng, 8) + f"{rng.randint(3, 28):02d}"  # UF 03-28: no SP/MG variant
    return base + titulo_check_digits(base)


def random_cns(rng: random.Random) -> str:
    """A provisional CNS (first digit 7, 8 or 9): the weighted sum is a multiple of 11."""
    while True:
        body = rng.choice("789") + _digits(rng, 13)
        total = sum(int(d) * (15 - i) for i, d in enumerate(body))
        last = (-total) % 11  # weight 1 for the 15th digit
        if last < 10:
            return body + str(last)


def rg_sp_check_digit(base: str) -> str:
    total = sum(int(d) * w for d, w in zip(base.rjust(8, "0"), range(2, 10), strict=True))
    value = (11 - total % 11) % 11
    return "X" if value == 10 else str(value)


def random_rg_sp(rng: random.Random) -> str:
    base = _varied(rng, 8)
    return f"{base[:2]}.{base[2:5]}.{base[5:]}-{rg_sp_check_digit(base)}"


DDDS: Final = (11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37,
               38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66,
               67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92,
               93, 94, 95, 96, 97, 98, 99)


def phone_forms(rng: random.Random) -> dict[str, str]:
    """One Brazilian number (mobile or landline) in its common written forms."""
    ddd = rng.choice(DDDS)
    mobile = rng.random() < 0.6
    first = ("9" + _digits(rng, 4)) if mobile else (str(rng.randint(2, 5)) + _digits(rng, 3))
    last = _digits(rng, 4)
    return {
        "international": f"+55 {ddd} {first}-{last}",
        "international_parens": f"+55 ({ddd}) {first}-{last}",
        "parens": f"({ddd}) {first}-{last}",
        "bare": f"{ddd}{first}{last}",
    }


def random_cep(rng: random.Random) -> str:
    value = _digits(rng, 8)
    return f"{value[:5]}-{value[5:]}"


def random_evp(rng: random.Random) -> str:
    value = f"{rng.getrandbits(128):032x}"
    return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, bit by bit (independent of binascii)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def brcode(key: str, name: str, city: str) -> str:
    """A static Pix BR Code for ``key`` with a valid CRC."""
    def tlv(tag: str, value: str) -> str:
        return f"{tag}{len(value):02d}{value}"

    account = tlv("00", "br.gov.bcb.pix") + tlv("01", key)
    body = (tlv("00", "01") + tlv("26", account) + tlv("52", "0000") + tlv("53", "986")
            + tlv("58", "BR") + tlv("59", name) + tlv("60", city) + tlv("62", tlv("05", "***"))
            + "6304")
    return body + f"{crc16_ccitt_false(body.encode()):04X}"


def random_plate(rng: random.Random, *, mercosul: bool) -> str:
    letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
    if mercosul:
        return f"{letters}{rng.randint(0, 9)}{rng.choice(string.ascii_uppercase)}{_digits(rng, 2)}"
    return f"{letters}-{_digits(rng, 4)}"


def cnj_number(rng: random.Random) -> str:
    """A case number NNNNNNN-DD.AAAA.J.TR.OOOO with ISO 7064 mod 97-10 check digits."""
    number, year = _digits(rng, 7), str(rng.randint(2000, 2026))
    segment, court, origin = str(rng.randint(1, 9)), f"{rng.randint(1, 27):02d}", _digits(rng, 4)
    check = 98 - int(number + year + segment + court + origin + "00") % 97
    return f"{number}-{check:02d}.{year}.{segment}.{court}.{origin}"

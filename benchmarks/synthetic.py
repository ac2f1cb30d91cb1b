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

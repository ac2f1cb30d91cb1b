"""Other projects' published test values through ``redactor.redact()``.

``tests/data/peers/values.tsv`` holds the valid and invalid identifiers of the test
suites of tarja, validate-docbr, python-stdnum, brutils, @brazilian-utils/brazilian-utils
and cpf-cnpj-validator (versions, files and licences in ``tests/data/peers/LICENSES.md``).
Its ``valid`` column is redactor's reading under its documented rules (check digits,
lengths and layouts of br-identifiers.md); ``peer_valid`` is the peer's own verdict,
and the ``note`` column says why the two differ where they do.

Each value is written bare, after its label (``CPF: …``), in a sentence with its keyword
and in a sentence without one.  A valid value is redacted whole wherever a keyword
stands next to it, and also without one when its form counts alone (a CPF, a CNPJ, a
CNJ mask, a Mercosul plate…); an invalid one is left alone, unless it is a valid CPF or
CNPJ, which redactor redacts wherever it stands (recall first).  In no case is part of a
value redacted and the rest left: a partial redaction leaks the rest and reads as noise.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

from recognizers.br_cnpj import looks_like_timestamp
from recognizers.checksums import canonical, cnpj_is_valid, cpf_is_valid
from redactor import redact

DATA: Final = Path(__file__).resolve().parent.parent / "data" / "peers" / "values.tsv"

#: Per kind: the placeholder, the label written before a value and the keyword of a sentence.
KINDS: Final = {
    "cpf": ("[CPF]", "CPF", "CPF"),
    "cnpj": ("[CNPJ]", "CNPJ", "CNPJ"),
    "cnh": ("[CNH]", "CNH", "CNH"),
    "pis": ("[PIS]", "PIS", "NIS"),
    "titulo": ("[TITULO_ELEITOR]", "Título de eleitor", "título eleitoral"),
    "cns": ("[CNS]", "CNS", "cartão SUS"),
    "renavam": ("[RENAVAM]", "RENAVAM", "RENAVAM"),
    "cnj": ("[PROCESSO]", "Processo", "processo"),
    "placa": ("[PLACA]", "Placa", "placa"),
}
_PLACEHOLDER: Final = re.compile(r"\[[A-Z_]+\]")
_SPACED_ALNUM_CNPJ: Final = re.compile(
    r"[0-9A-Za-z]{2} [0-9A-Za-z]{3} [0-9A-Za-z]{3} [0-9A-Za-z]{4} [0-9]{2}")
_CNJ_BARE: Final = re.compile(r"[0-9]{20}")
_MERCOSUL: Final = re.compile(r"[A-Z]{3}-?[0-9][A-Z][0-9]{2}")


@dataclass(frozen=True)
class Value:
    kind: str
    value: str
    valid: bool
    sources: tuple[str, ...]


def _values() -> list[Value]:
    merged: dict[tuple[str, str], Value] = {}
    with DATA.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            key = (row["kind"], row["value"])
            source = f"{row['peer']} {row['version']}: {row['file']}"
            seen = merged.get(key)
            valid = row["valid"] == "1"
            if seen is not None:
                assert seen.valid == valid, key  # one reading per value
                merged[key] = Value(*key, valid, (*seen.sources, source))
            else:
                merged[key] = Value(*key, valid, (source,))
    return list(merged.values())


VALUES: Final = _values()


def counts_alone(item: Value) -> bool:
    """True when the value's form is redacted without any keyword (docs/detection.md, "What is
    detected"): CPF and CNPJ when their check digits pass (but a CNPJ spaced like
    ``12 ABC 345 01DE 35`` or a 14-digit run read as a timestamp), the CNJ masks, the
    PIS and CNS masks and the upper-case Mercosul plate."""
    value, digits = item.value, canonical(item.value)
    if item.kind == "cpf":
        return True
    if item.kind == "cnpj":
        return not _SPACED_ALNUM_CNPJ.fullmatch(value) and not looks_like_timestamp(digits)
    if item.kind == "cnj":
        return not _CNJ_BARE.fullmatch(value)
    if item.kind == "pis":
        return "." in value
    if item.kind == "cns":
        return " " in value
    if item.kind == "placa":
        return _MERCOSUL.fullmatch(value) is not None
    return False


def redacted_anyway(item: Value) -> bool:
    """An invalid value of its kind that is a valid CPF or CNPJ all the same."""
    return cpf_is_valid(item.value) or cnpj_is_valid(item.value)


def contexts(item: Value) -> Iterator[tuple[str, str, bool]]:
    """``(before, after, keyword)`` around the value."""
    _, label, keyword = KINDS[item.kind]
    yield "", "", False
    yield f"{label}: ", "", True
    yield f"Favor conferir {keyword} ", " no sistema ainda hoje.", True
    yield "Favor conferir o código ", " no sistema ainda hoje.", False


def outcome(before: str, value: str, after: str) -> str:
    """``intact``, ``whole [X]`` (one placeholder for the whole value) or the output."""
    out = redact(before + value + after).text
    if out == before + value + after:
        return "intact"
    if out.startswith(before) and out.endswith(after):
        middle = out[len(before):len(out) - len(after)]
        if _PLACEHOLDER.fullmatch(middle):
            return f"whole {middle}"
    return out


def _report(wrong: list[tuple[str, str, str]]) -> str:
    return "\n".join(f"{text!r} -> {got!r} ({source})" for text, got, source in wrong)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_valid_values_are_redacted_whole(kind: str) -> None:
    placeholder = KINDS[kind][0]
    wrong = []
    for item in (v for v in VALUES if v.kind == kind and v.valid):
        alone = counts_alone(item)
        for before, after, keyword in contexts(item):
            got = outcome(before, item.value, after)
            if keyword or alone:
                expected = {f"whole {placeholder}"}
            else:  # left to context: maybe another identifier, never in part
                expected = {"intact"} | ({got} if got.startswith("whole ") else set())
            if got not in expected:
                wrong.append((before + item.value + after, got, item.sources[0]))
    assert not wrong, _report(wrong)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_invalid_values_are_left_alone(kind: str) -> None:
    wrong = []
    for item in (v for v in VALUES if v.kind == kind and not v.valid):
        anyway = redacted_anyway(item)
        for before, after, _ in contexts(item):
            got = outcome(before, item.value, after)
            if got != "intact" and not (anyway and got.startswith("whole ")):
                wrong.append((before + item.value + after, got, item.sources[0]))
    assert not wrong, _report(wrong)


def test_the_data_covers_every_peer_and_kind() -> None:
    peers = {source.split(" ")[0] for item in VALUES for source in item.sources}
    assert peers == {"tarja", "validate-docbr", "python-stdnum", "brutils",
                     "@brazilian-utils/brazilian-utils", "cpf-cnpj-validator"}
    for kind in KINDS:
        assert any(v.valid for v in VALUES if v.kind == kind), kind
        assert any(not v.valid for v in VALUES if v.kind == kind), kind


@pytest.mark.parametrize(("text", "expected"), [
    # The forms issue 28 found missed, as their peers publish them.
    ("12abc34501de35", "[CNPJ]"),
    ("CNPJ: 12abc34501de35", "CNPJ: [CNPJ]"),
    ("12. ABC.345 /01DE\u201335", "[CNPJ]"),
    ("Placa: abc1d23", "Placa: [PLACA]"),
    ("Placa: abc-1234", "Placa: [PLACA]"),
    ("0000001-83.2017.8.26.0100", "[PROCESSO]"),
    ("RENAVAM: 8166853556-2", "RENAVAM: [RENAVAM]"),
    ("RENAVAM: 0199352001-2", "RENAVAM: [RENAVAM]"),
])
def test_forms_once_missed(text: str, expected: str) -> None:
    assert redact(text).text == expected

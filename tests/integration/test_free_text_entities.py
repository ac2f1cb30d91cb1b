"""Street addresses (BR_ENDERECO) and birth dates (DATA_NASCIMENTO) in pt-BR text."""

from __future__ import annotations

import pytest

from redactor.engine import Redactor


def found(engine: Redactor, text: str) -> list[tuple[str, str]]:
    return [(f.entity_type, text[f.start:f.end]) for f in engine.analyze(text)]


@pytest.mark.parametrize(("text", "address"), [
    ("Rua Augusta, 1500, apto 32", "Rua Augusta, 1500, apto 32"),
    ("entregar na Rua das Flores, 10 amanhã", "Rua das Flores, 10"),
    ("Av. Paulista, 1578 - conj. 42, São Paulo - SP", "Av. Paulista, 1578 - conj. 42"),
    ("RUA AUGUSTA 1500 APTO 32 BLOCO B", "RUA AUGUSTA 1500 APTO 32 BLOCO B"),
    ("R. das Flores, 10 - casa 2", "R. das Flores, 10 - casa 2"),
    ("na rua Sete de Setembro, 45", "rua Sete de Setembro, 45"),
    ("Praça da Sé, s/n", "Praça da Sé, s/n"),
    ("Rodovia Anhanguera, km 23", "Rodovia Anhanguera, km 23"),
    ("Av Brasil 500", "Av Brasil 500"),
    ("Travessa Dona Ana Néri, nº 12", "Travessa Dona Ana Néri, nº 12"),
    ("Alameda Santos, 2000 sala 5", "Alameda Santos, 2000 sala 5"),
    ("Rua 25 de Março, 100", "Rua 25 de Março, 100"),
    ("mora na Avenida Santos Dumont 5526 CEP 71785-182", "Avenida Santos Dumont 5526"),
    ("Av. Brasil, 1.500", "Av. Brasil, 1.500"),
    ("Rua Augusta 1500-1600", "Rua Augusta 1500-1600"),
    ("Rua\tAugusta, 1500", "Rua\tAugusta, 1500"),
    ("Rua A, 10, apto 32, bloco B, casa 2, sala 3", "Rua A, 10, apto 32, bloco B, casa 2, sala 3"),
    ("Rua A, 100-B fim", "Rua A, 100-B"),
])
def test_street_addresses(engine: Redactor, text: str, address: str) -> None:
    assert ("BR_ENDERECO", address) in found(engine, text)


@pytest.mark.parametrize("text", [
    "a rua estava alagada em 2020",
    "Dr. Silva, 10 anos de casa",
    "avenida principal fechada até 22h",
    "São Paulo - SP, 01310-100",
    "GET /rua/10 200",
    "Av. principal",
    "Rua A 1500lorem",
])
def test_not_addresses(engine: Redactor, text: str) -> None:
    assert "BR_ENDERECO" not in [e for e, _ in found(engine, text)]


@pytest.mark.parametrize(("text", "date"), [
    ("Data de nascimento: 12/03/1980", "12/03/1980"),
    ("nascido em 12 de março de 1980 em Campinas", "12 de março de 1980"),
    ("nasc. 12/03/80", "12/03/80"),
    ("DN: 1980-03-12", "1980-03-12"),
    ("dt_nasc=12.03.1980", "12.03.1980"),
    ("date of birth: March 12, 1980", "March 12, 1980"),
    ("nascida em 1º de MARCO de 1975", "1º de MARCO de 1975"),
    ("nascido em 10 set 1980", "10 set 1980"),
    ("dataNascimento: 12/03/1980", "12/03/1980"),
    ("dateOfBirth: 1980-03-12", "1980-03-12"),
    ("DN: 20 de junho de 1986", "20 de junho de 1986"),
])
def test_birth_dates_next_to_their_keyword(engine: Redactor, text: str, date: str) -> None:
    assert found(engine, text) == [("DATA_NASCIMENTO", date)]


@pytest.mark.parametrize("text", [
    "pedido criado em 12/03/2024",
    "2024-03-12 10:15:00 INFO started",
    "dns lookup 2024-03-12 ok",
    "dn: uid=x,ou=y 2024-03-12",
    "nascimento 31/02/1980",        # no such day
    "nascimento 12/13/1980",        # no such month
])
def test_other_dates_stay(engine: Redactor, text: str) -> None:
    assert "DATA_NASCIMENTO" not in [e for e, _ in found(engine, text)]


def test_birth_date_under_a_json_key(engine: Redactor) -> None:
    result = engine.redact_json({"data_nascimento": "1980-03-12", "criado": "2024-01-02",
                                 "dob": "12/03/1980"})
    assert result.value == {"data_nascimento": "[DATA_NASCIMENTO]", "criado": "2024-01-02",
                            "dob": "[DATA_NASCIMENTO]"}


def test_entities_limit_what_json_redaction_replaces(engine: Redactor) -> None:
    value = {"cmd": "echo 'Rua Augusta, 1500' 529.982.247-25 nascimento 12/03/1980"}
    only_ids = engine.redact_json(value, entities=["BR_CPF"])
    assert only_ids.value == {"cmd": "echo 'Rua Augusta, 1500' [CPF] nascimento 12/03/1980"}
    everything = engine.redact_json(value)
    assert everything.value == {"cmd": "echo '[ENDERECO]' [CPF] nascimento [DATA_NASCIMENTO]"}


@pytest.mark.parametrize("size", [4_000, 16_000])
def test_bad_shapes_stay_bounded(engine: Redactor, size: int) -> None:
    # Walls of street words, capitals and dates: linear, nothing crashes.
    for unit in ("Rua ", "Rua A ", "RUA AUGUSTA ", "nascimento 12/03/1980 ", "Av. 1 ",
                 "R. " * 3 + "1 ", "A " * 9 + "1 "):
        text = (unit * (size // len(unit) + 1))[:size]
        engine.redact(text)

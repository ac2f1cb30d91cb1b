"""The other Brazilian identifiers through the real engine: forms, keywords, collisions."""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks import synthetic as syn
from recognizers import ENTITIES
from redactor.config import DEFAULT_ENTITIES, Settings
from redactor.engine import Redactor

BRCODE = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802"
          "BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def found(engine: Redactor, text: str) -> list[tuple[str, str]]:
    return [(f.entity_type, text[f.start:f.end]) for f in engine.analyze(text)]


@pytest.mark.parametrize(("text", "entity", "value"), [
    ("CNH nº 02926434554 categoria B", "BR_CNH", "02926434554"),
    ("carteira de motorista 029 264 345 54", "BR_CNH", "029 264 345 54"),
    ("habilitação 82391823702", "BR_CNH", "82391823702"),
    ("PIS 120.38619.49-4", "BR_PIS", "120.38619.49-4"),
    ("NIS do beneficiário: 12016784018", "BR_PIS", "12016784018"),
    ("título de eleitor 1000 0000 0124 zona 12", "BR_TITULO_ELEITOR", "1000 0000 0124"),
    ("inscrição eleitoral 356659360141", "BR_TITULO_ELEITOR", "356659360141"),
    ("cartão SUS 898 0000 0004 3208", "BR_CNS", "898 0000 0004 3208"),
    ("paciente CNS 737944386427509", "BR_CNS", "737944386427509"),
    ("RENAVAM 0199352001-2 do veículo", "BR_RENAVAM", "0199352001-2"),
    ("RG 12.345.678-2 SSP/SP", "BR_RG", "12.345.678-2"),
    ("identidade MG-12.345.678", "BR_RG", "MG-12.345.678"),
    ("CEP 01310-100, São Paulo", "BR_CEP", "01310-100"),
    ("endereço: rua X, 100, CEP 01310100", "BR_CEP", "01310100"),
    ("ligue +55 (11) 98765-4321", "BR_PHONE", "+55 (11) 98765-4321"),
    ("fixo (21) 2345-6789", "BR_PHONE", "(21) 2345-6789"),
    ("chave pix 123e4567-e12b-12d1-a456-426655440000", "BR_PIX_EVP",
     "123e4567-e12b-12d1-a456-426655440000"),
    (f"pague com {BRCODE} hoje", "BR_PIX_BRCODE", BRCODE),
    ("placa ABC1D23", "BR_PLACA", "ABC1D23"),
    ("veículo placa ABC-1234", "BR_PLACA", "ABC-1234"),
    ("conta corrente 12345-6", "BR_BANK_ACCOUNT", "12345-6"),
    ("processo 0000001-54.2014.8.26.0564", "BR_CNJ", "0000001-54.2014.8.26.0564"),
])
def test_each_identifier_in_its_setting(engine: Redactor, text: str, entity: str,
                                         value: str) -> None:
    assert (entity, value) in found(engine, text)


def test_bank_agency_and_account_keep_their_keywords(engine: Redactor) -> None:
    text = "Banco 341 Ag. 1234-5 C/C 01234-5"
    assert found(engine, text) == [("BR_BANK_ACCOUNT", "1234-5"), ("BR_BANK_ACCOUNT", "01234-5")]
    assert engine.redact(text).text == "Banco 341 Ag. [CONTA_BANCARIA] C/C [CONTA_BANCARIA]"


@pytest.mark.parametrize("text", [
    "valor 02926434554 lançado",          # a CNH, no keyword: CPF check fails, nothing
    "lote 12016784018",                   # a PIS without keyword
    "build 202403020159 ok",              # a Título / a timestamp
    "ts 20240115103059",                  # a CNPJ by checksum / a timestamp
    "traceId=123e4567-e12b-12d1-a456-426655440000",
    "preço BRL1000 e GRU1234",
    "protocolo 12345-678",                # CEP shape without address words
    "(23) 98765-4321 e 0800 123 4567",    # no such area code; a service number
    "data 20240115 e 01310100",
    "processo 0000001-55.2014.8.26.0564",  # wrong check digits
    "pix 00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802"
    "BR5913Fulano de Tal6008BRASILIA62070503***63041D3E",  # wrong CRC
])
def test_look_alikes_without_their_keyword_are_left_alone(engine: Redactor, text: str) -> None:
    assert found(engine, text) == []


# 56835394633 passes the CPF, PIS, RENAVAM and CNH checks at once (br-identifiers.md §1.1).
@pytest.mark.parametrize(("text", "entity"), [
    ("valor 56835394633", "BR_CPF"),               # no keyword: a valid CPF stays a CPF
    ("PIS 56835394633", "BR_PIS"),
    ("RENAVAM 56835394633", "BR_RENAVAM"),
    ("CNH 56835394633", "BR_CNH"),
    ("CPF 56835394633", "BR_CPF"),
    ("CPF do pai, PIS 56835394633", "BR_PIS"),     # the nearest keyword decides
    ("PIS do pai, CPF 56835394633", "BR_CPF"),
    ("celular 11905058942", "BR_PHONE"),           # a mobile number that passes the CPF check
    ("documento 11905058942", "BR_CPF"),
    ("CNPJ 20240115103059", "BR_CNPJ"),            # a timestamp only with its keyword
    ("título de eleitor 202403020159", "BR_TITULO_ELEITOR"),
])
def test_collision_rules(engine: Redactor, text: str, entity: str) -> None:
    assert [e for e, _ in found(engine, text)] == [entity]


def test_every_pack_entity_is_on_by_default_and_can_be_switched_off() -> None:
    assert set(DEFAULT_ENTITIES) == set(ENTITIES)
    settings = dataclasses.replace(Settings(), entities=tuple(
        e for e in DEFAULT_ENTITIES if e not in ("BR_CEP", "BR_PLACA")))
    engine = Redactor(settings)
    assert found(engine, "CEP 01310-100 placa ABC1D23") == []


def test_generated_identifiers_with_keywords_are_found(engine: Redactor) -> None:
    rng = random.Random(4)
    cases = []
    for _ in range(30):
        cases += [
            (f"CNH {syn.random_cnh(rng)}", "BR_CNH"),
            (f"PIS {syn.random_pis(rng)}", "BR_PIS"),
            (f"RENAVAM {syn.random_renavam(rng)}", "BR_RENAVAM"),
            (f"título de eleitor {syn.random_titulo(rng)}", "BR_TITULO_ELEITOR"),
            (f"cartão SUS {syn.random_cns(rng)}", "BR_CNS"),
            (f"RG {syn.random_rg_sp(rng)}", "BR_RG"),
            (f"processo {syn.cnj_number(rng)}", "BR_CNJ"),
            (f"placa {syn.random_plate(rng, mercosul=True)}", "BR_PLACA"),
            (syn.phone_forms(rng)["parens"], "BR_PHONE"),
            (f"copia e cola {syn.brcode(syn.random_evp(rng), 'Maria', 'NATAL')}", "BR_PIX_BRCODE"),
        ]
    missed = [(t, e) for t, e in cases if e not in {x for x, _ in found(engine, t)}]
    assert missed == []


# Forms of other projects' test suites (issue 28; tests/integration/test_peer_values.py
# runs their published values).  Each finding is the whole written value.
@pytest.mark.parametrize(("text", "entity", "value"), [
    ("placa abc1d23", "BR_PLACA", "abc1d23"),
    ("Placa: abc-1234", "BR_PLACA", "abc-1234"),
    ("veículo abc1234 multado", "BR_PLACA", "abc1234"),
    ("Placa: ABC 1234", "BR_PLACA", "ABC 1234"),
    ("placa abc 1d23", "BR_PLACA", "abc 1d23"),
    ("ABC-1D23 na garagem", "BR_PLACA", "ABC-1D23"),
    ("ver 0002080/25.2012.5.15.0049 hoje", "BR_CNJ", "0002080/25.2012.5.15.0049"),
    ("ver 0002080-25.2012.515.0049 hoje", "BR_CNJ", "0002080-25.2012.515.0049"),
    ("processo 0000001 83 2017 8 26 0100", "BR_CNJ", "0000001 83 2017 8 26 0100"),
    ("RENAVAM: 8166853556-2", "BR_RENAVAM", "8166853556-2"),
    ("RENAVAM 0063988.4962", "BR_RENAVAM", "0063988.4962"),
    ("renavam 00639884-962", "BR_RENAVAM", "00639884-962"),
    ("RENAVAM 01993520012-5", "BR_RENAVAM", "01993520012-5"),   # a valid run and its -D
    ("RENAVAM 01993520012/2024", "BR_RENAVAM", "01993520012"),  # another token after it
    ("título eleitoral 2776 2712 28 52", "BR_TITULO_ELEITOR", "2776 2712 28 52"),
    ("CNPJ 12 ABC 345 01DE 35", "BR_CNPJ", "12 ABC 345 01DE 35"),
])
def test_forms_of_other_test_suites(engine: Redactor, text: str, entity: str,
                                    value: str) -> None:
    assert found(engine, text) == [(entity, value)]


# A lower-case plate is never a plate alone: seven characters of three letters, a digit,
# a letter or digit and two digits are also short git hashes and identifiers.  A space
# after the letters counts only right after "placa" ("com 1234" is prose).
@pytest.mark.parametrize("text", [
    "commit abc1d23 merged", "git log fed1a23..bad4c56", "id abc1234 user-abc-1234",
    "carro com 1234 km rodados", "multa de BRL 1000", "moto g52 abc 1234",
    "ABC 1234", "12 ABC 345 01DE 35",    # spaced: a keyword is needed
    "0000001 83 2017 8 26 0100",         # the CNJ fields spaced: a keyword is needed
    "0000100-69.2008.0.00.0000",         # check digits pass, but segment 0 does not exist
    "8166853556-2", "RENAVAM: 0639884963",  # no keyword; a wrong check digit
    "RENAVAM 0199352001-3",              # neither reading passes: left whole
])
def test_forms_that_need_more(engine: Redactor, text: str) -> None:
    assert found(engine, text) == []

"""Pseudonym mode in the engine: the listed entities become tokens through the Presidio
custom operator, the rest stay placeholders, a token survives a second redaction, and
each call lists what it wrote as tokens (for the vault) without ever showing it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor.config import Settings, settings_from_toml
from redactor.engine import Redactor
from redactor.errors import ConfigError
from redactor.pseudonyms import tokens
from tests.strategies import cpfs

KEY = "p" * 32
ENV = {"REDACTOR_HASH_KEY": KEY}
CPF = "529.982.247-25"


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor(Settings(pseudonyms=True), environ=ENV)


def test_listed_entities_become_tokens_and_the_rest_placeholders(engine: Redactor) -> None:
    text = f"cliente {CPF} ({CPF.replace('.', '').replace('-', '')}) e-mail ana@exemplo.com.br"
    result = engine.redact(text)
    token = f"[CPF:{tokens.digest(KEY.encode(), 'BR_CPF', CPF)}]"
    assert result.text == f"cliente {token} ({token}) e-mail [EMAIL]"
    # What was written as a token is listed for the vault: entity, digest, value.
    assert [(i.digest, i.entity, i.value) for i in result.issued] == [
        (token[5:-1], "BR_CPF", CPF), (token[5:-1], "BR_CPF", "52998224725")]
    assert CPF not in repr(result) and CPF not in repr(result.issued)
    assert "52998224725" not in repr(result.issued)


def test_json_values_keys_and_numbers_list_their_tokens(engine: Redactor) -> None:
    value = {"cpf": 52998224725, "cliente": {"doc": CPF}}
    result = engine.redact_json(value, keys_and_numbers=True)
    token = f"[CPF:{tokens.digest(KEY.encode(), 'BR_CPF', CPF)}]"
    assert result.value == {"cpf": token, "cliente": {"doc": token}}
    assert sorted(i.value for i in result.issued) == [CPF, "52998224725"]


def test_a_token_is_left_alone_by_a_second_redaction(engine: Redactor) -> None:
    once = engine.redact(f"o cpf {CPF} de Maria Aparecida Souza").text
    assert engine.redact(once).text == once
    # A 16-digit digest that passes a card's checksum is still a token, not a card.
    card_shaped = "pagamento [CREDIT_CARD:4111111111111111] ok"
    assert engine.redact(card_shaped).text == card_shaped
    # ...while the same digits outside a token's shape are a card.
    assert "4111111111111111" not in engine.redact("cartao 4111111111111111 ok").text


@settings(max_examples=40, deadline=None)
@given(cpfs(), st.sampled_from(["cpf {} ok", "{}", "login x cpf={};", "[{}]"]))
def test_redaction_with_tokens_is_idempotent(engine: Redactor, cpf: str, shape: str) -> None:
    once = engine.redact(shape.format(cpf)).text
    assert cpf not in once
    assert engine.redact(once).text == once


def test_the_hash_operator_writes_the_same_token_without_a_vault() -> None:
    hashed = Redactor(settings_from_toml('[operators.BR_CPF]\ntype = "hash"\n'), environ=ENV)
    result = hashed.redact(f"cpf {CPF}")
    assert result.text == f"cpf [CPF:{tokens.digest(KEY.encode(), 'BR_CPF', CPF)}]"
    assert result.issued == ()
    no_vault = Redactor(Settings(pseudonyms=True, vault=False), environ=ENV)
    assert no_vault.redact(f"cpf {CPF}").text == result.text
    assert no_vault.redact(f"cpf {CPF}").issued == ()


def test_the_token_entities_are_configurable() -> None:
    chosen = settings_from_toml('[pseudonyms]\nenabled = true\nentities = ["EMAIL_ADDRESS"]\n')
    result = Redactor(chosen, environ=ENV).redact(f"cpf {CPF} ana@exemplo.com.br")
    assert re.fullmatch(r"cpf \[CPF\] \[EMAIL:[0-9a-f]{16}\]", result.text)


def test_an_entity_with_its_own_operator_cannot_also_be_a_pseudonym() -> None:
    with pytest.raises(ConfigError, match="BR_CPF"):
        settings_from_toml('[pseudonyms]\nenabled = true\n[operators.BR_CPF]\ntype = "mask"\n')


def test_a_project_file_cannot_switch_pseudonyms_on(tmp_path: Path) -> None:
    from redactor.config import load_settings

    project = tmp_path / ".redactor.toml"
    project.write_text("[pseudonyms]\nenabled = true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot be set by a project file"):
        load_settings(files=[(project, "project")])

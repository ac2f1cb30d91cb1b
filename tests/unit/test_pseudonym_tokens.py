"""Pseudonym tokens and keys: one token per identifier however it is written, distinct
tokens for distinct identifiers, the legacy hash tokens as prefixes, the grammar and its
near misses, and where the key comes from (never a loose file)."""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redactor.config import Settings
from redactor.errors import ConfigError
from redactor.pseudonyms import keys, tokens
from tests.strategies import cnpjs, cpfs

KEY = b"k" * 32


def formatted_cpf(bare: str) -> str:
    return f"{bare[:3]}.{bare[3:6]}.{bare[6:9]}-{bare[9:]}"


@given(cpfs())
def test_a_cpf_written_two_ways_is_one_token(cpf: str) -> None:
    assert tokens.digest(KEY, "BR_CPF", cpf) == tokens.digest(KEY, "BR_CPF", formatted_cpf(cpf))
    assert len(tokens.digest(KEY, "BR_CPF", cpf)) == tokens.DIGEST_CHARS == 16


@given(cnpjs(alphanumeric=True))
def test_an_alphanumeric_cnpj_in_either_case_is_one_token(cnpj: str) -> None:
    assert tokens.digest(KEY, "BR_CNPJ", cnpj) == tokens.digest(KEY, "BR_CNPJ", cnpj.lower())


@given(cpfs(), cpfs())
def test_distinct_cpfs_get_distinct_tokens(first: str, second: str) -> None:
    if first != second:
        assert tokens.digest(KEY, "BR_CPF", first) != tokens.digest(KEY, "BR_CPF", second)


def test_the_entity_and_the_key_are_part_of_the_token() -> None:
    assert tokens.digest(KEY, "BR_CPF", "52998224725") != tokens.digest(KEY, "BR_PIS",
                                                                         "52998224725")
    assert tokens.digest(KEY, "BR_CPF", "52998224725") != tokens.digest(b"j" * 32, "BR_CPF",
                                                                         "52998224725")


@pytest.mark.parametrize(("entity", "same", "other"), [
    ("EMAIL_ADDRESS", ("Joao.Silva@Exemplo.com.br", "joao.silva@exemplo.com.br"),
     "joaosilva@exemplo.com.br"),
    ("IP_ADDRESS", ("2001:db8::1", "2001:0db8:0000:0000:0000:0000:0000:0001"), "2001:db8::10"),
    ("IP_ADDRESS", ("10.0.1.0", "10.0.1.0"), "1.0.0.10"),
    ("PERSON", ("Ana  Maria Souza", "ana maria souza"), "Anamaria Souza"),
    ("USERNAME", ("PRDADM", "prdadm"), "prd.adm"),
    ("BR_PHONE", ("+55 (11) 91234-5678", "(011) 91234-5678"), "(11) 91234-5679"),
])
def test_canonical_forms_keep_distinct_values_apart(entity: str, same: tuple[str, str],
                                                    other: str) -> None:
    first, second = same
    assert tokens.digest(KEY, entity, first) == tokens.digest(KEY, entity, second)
    assert tokens.digest(KEY, entity, first) != tokens.digest(KEY, entity, other)


def test_a_secret_keeps_its_case() -> None:
    assert tokens.digest(KEY, "SECRET", "AbC123xyz") != tokens.digest(KEY, "SECRET",
                                                                      "abc123xyz")


@given(cpfs())
def test_the_legacy_hash_token_is_the_prefix_of_an_identifiers_token(cpf: str) -> None:
    # What the hash operator wrote before: HMAC-SHA256(key, entity NUL value), 12 hex.
    old = hmac.new(KEY, f"BR_CPF\0{cpf}".encode(), hashlib.sha256).hexdigest()[:12]
    assert tokens.legacy_digest(KEY, "BR_CPF", formatted_cpf(cpf)) == old
    assert tokens.digest(KEY, "BR_CPF", cpf).startswith(old)


def test_the_grammar_finds_new_and_legacy_tokens_only() -> None:
    text = ("a [CPF:0123456789abcdef] b [NOME:0123456789ab] c [CPF:0123456789ABCDEF] "
            "d [cpf:0123456789abcdef] e [CPF:0123456789abcde] f [CPF:0123456789abcdeg]")
    found = tokens.find_tokens(text)
    assert [t.text for t in found] == ["[CPF:0123456789abcdef]", "[NOME:0123456789ab]"]
    assert [t.legacy for t in found] == [False, True]
    assert all(text[t.start:t.end] == t.text for t in found)


@pytest.mark.parametrize("mangled", [
    "[CPF:0123456789ABCDEF]",      # case changed
    "[cpf:0123456789abcdef]",      # label's case changed
    "[CPF:0123456789abcde]",       # one character short
    "[CPF:0123456789abcdef0]",     # one character long
    "[CPF:0123456789abcdeg]",      # one character not hexadecimal
    "[CPF:0123456789abcdef",       # bracket lost
    "CPF:0123456789abcdef]",
])
def test_an_altered_token_is_a_near_miss(mangled: str) -> None:
    text = f"grep '{mangled}' clientes.csv"
    assert tokens.find_tokens(text) == [] or tokens.near_tokens(text)
    assert tokens.near_tokens(text), mangled


@pytest.mark.parametrize("ordinary", [
    "host:8080", "CPF:52998224725", "user:password", "sha256:" + "ab" * 32,
    "http://exemplo.com.br:443/a", "12:30:45", "[INFO] main:42 started", "[a:b]",
    "grep '[CPF:0123456789abcdef]' f",
])
def test_ordinary_text_with_colons_is_no_near_miss(ordinary: str) -> None:
    assert tokens.near_tokens(ordinary) == []


@settings(max_examples=300)
@given(st.text(alphabet="[]:CPFNOMEabcdef0123456789 xyz_", max_size=60))
def test_near_misses_never_overlap_exact_tokens(text: str) -> None:
    exact = [(t.start, t.end) for t in tokens.find_tokens(text)]
    for start, end in tokens.near_tokens(text):
        assert not any(s <= start and end <= e for s, e in exact)


# --------------------------------------------------------------------------- keys


def test_the_hash_variable_is_the_token_key_itself() -> None:
    found = keys.pseudonym_key(Settings(), {"REDACTOR_HASH_KEY": "x" * 20})
    assert found is not None and found.token_key == b"x" * 20
    assert found.vault_key != found.token_key and len(found.vault_key) == 32
    assert "x" * 20 not in repr(found) and found.source == "REDACTOR_HASH_KEY"


def test_a_short_key_is_refused_without_showing_it() -> None:
    with pytest.raises(ConfigError, match="shorter than 16 bytes") as caught:
        keys.pseudonym_key(Settings(), {"REDACTOR_HASH_KEY": "curtinha"})
    assert "curtinha" not in str(caught.value)


def test_the_user_key_is_created_private_and_read_again(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    assert keys.pseudonym_key(Settings(), env, create=False) is None
    first = keys.pseudonym_key(Settings(), env)
    assert first is not None and first.created
    path = tmp_path / "cfg" / "redactor" / "baseline.key"
    assert first.source == str(path) and (path.stat().st_mode & 0o777) == 0o600
    again = keys.pseudonym_key(Settings(), env)
    assert again is not None and not again.created
    assert (again.token_key, again.key_id) == (first.token_key, first.key_id)
    # Derived, never the secret itself; and not the baseline's key either.
    from redactor import baseline

    secret = path.read_bytes().strip()
    assert first.token_key != secret
    found = baseline.baseline_key(env)
    assert found is not None and found.key not in (first.token_key, first.vault_key)


@pytest.mark.parametrize("loose", ["mode", "link"])
def test_a_loose_key_file_is_refused(tmp_path: Path, loose: str) -> None:
    real = tmp_path / "real.key"
    real.write_text("s" * 40, encoding="utf-8")
    os.chmod(real, 0o600)
    path = real
    if loose == "mode":
        os.chmod(real, 0o644)
    else:
        path = tmp_path / "link.key"
        path.symlink_to(real)
    with pytest.raises(ConfigError) as caught:
        keys.pseudonym_key(Settings(hash_key_file=path), {})
    assert "s" * 40 not in str(caught.value)
    if loose == "mode":
        assert "chmod 600" in str(caught.value)


def test_a_private_hash_key_file_is_the_token_key(tmp_path: Path) -> None:
    path = tmp_path / "hash.key"
    path.write_text("s" * 40 + "\n", encoding="utf-8")
    os.chmod(path, 0o600)
    found = keys.pseudonym_key(Settings(hash_key_file=path), {"REDACTOR_HASH_KEY": "y" * 30})
    assert found is not None and found.token_key == b"s" * 40  # the file wins


def test_a_token_escaped_for_a_regex_is_one_token() -> None:
    text = r"grep '\[CPF:0123456789abcdef\]' f; \[NOME:0123456789abcdef]"
    found = tokens.find_tokens(text)
    assert [(text[t.start:t.end], t.escaped) for t in found] == [
        (r"\[CPF:0123456789abcdef\]", True), (r"\[NOME:0123456789abcdef]", True)]
    assert tokens.near_tokens(text) == []
    half = r"grep '[CPF:0123456789abcdef\]' f"
    assert tokens.find_tokens(half) == [] and tokens.near_tokens(half)

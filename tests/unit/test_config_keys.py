"""The configuration keys table: every key one row, and the tighten-only rule for project
files checked over every row.

A project file may come from a repository the user does not control.  RULES pins, key by
key, how such a file may change a key; VALUES gives values of each key, from the loosest
to the tightest for the keys that have an order.  Both are written here on purpose, apart
from config.KEYS: a change of the policy must change this test too.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from redactor.config import KEYS, KeyRow, Settings, load_settings
from redactor.errors import ConfigError

RULES = {
    "detection.entities": "adds",
    "detection.disabled_entities": "refused",
    "detection.score_threshold": "lowers",
    "detection.spacy_model": "refused",
    "usernames.known_users_file": "adds",
    "usernames.service_accounts": "refused",
    "usernames.builtin_service_accounts": "tightens",
    "allowlist.values": "refused",
    "hash.key_env": "refused",
    "hash.key_file": "refused",
    "messages.language": "free",
    "messages.prompt_blocked": "free",
    "hooks.prompt_block_entities": "adds",
    "hooks.prompt_block_secrets": "adds",
    "hooks.input_entities": "adds",
    "hooks.permission_decision": "refused",
    "hooks.wrap_bash": "tightens",
    "hooks.time_budget_seconds": "refused",
    "hooks.own_account": "tightens",
    "gateway.port": "refused",
    "gateway.upstream": "refused",
    "gateway.binary": "tightens",
    "gateway.time_budget_seconds": "refused",
    "pseudonyms.enabled": "refused",
    "pseudonyms.entities": "refused",
    "pseudonyms.vault": "tightens",
    "pseudonyms.expiry_days": "lowers",
    "pseudonyms.display": "tightens",
    "pseudonyms.allow": "refused",
    "hermes.mode": "tightens",
}

#: Valid values of each key; for "lowers" and "tightens" keys from the loosest to the
#: tightest.
VALUES: dict[str, tuple[Any, ...]] = {
    "detection.entities": (["BR_CPF", "PERSON"], ["IP_ADDRESS", "BR_CPF"]),
    "detection.disabled_entities": (["IP_ADDRESS"], ["PERSON", "SECRET"]),
    "detection.score_threshold": (0.9, 0.5, 0.2, 0),
    "detection.spacy_model": ("pt_core_news_sm",),
    "usernames.known_users_file": ("user-list.txt", "users.txt"),
    "usernames.service_accounts": (["svc_build"], []),
    "usernames.builtin_service_accounts": (True, False),
    "allowlist.values": (["exemplo"],),
    "hash.key_env": ("MY_HASH_KEY",),
    "hash.key_file": ("key.bin",),
    "messages.language": ("en", "pt-BR"),
    "messages.prompt_blocked": ("Bloqueado: {entities}", "Blocked"),
    "hooks.prompt_block_entities": (["BR_CPF"], ["PERSON", "BR_CPF"]),
    "hooks.prompt_block_secrets": (["jwt"], ["private_key", "jwt"]),
    "hooks.input_entities": (["BR_CPF"], ["BR_CNPJ", "PERSON"]),
    "hooks.permission_decision": ("ask", "none"),
    "hooks.wrap_bash": (False, True),
    "hooks.time_budget_seconds": (10, 20),
    "hooks.own_account": ("keep", "redact"),
    "gateway.port": (48000, 47821),
    "gateway.upstream": ("https://llm.example.com/anthropic", "http://127.0.0.1:8080"),
    "gateway.binary": ("pass", "block"),
    "gateway.time_budget_seconds": (30, 120.5),
    "pseudonyms.enabled": (True,),
    "pseudonyms.entities": (["BR_CPF"], ["PERSON", "USERNAME"]),
    "pseudonyms.vault": (True, False),
    "pseudonyms.expiry_days": (90, 30, 7),
    "pseudonyms.display": (True, False),
    "pseudonyms.allow": ([{"server": "sap", "tool": "lock_user", "argument": "user"}],),
    "hermes.mode": ("redact", "block"),
}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):  # an inline table
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)  # numbers, and ASCII strings as TOML basic strings


def write_key(path: Path, key: str, value: Any) -> Path:
    section, _, name = key.partition(".")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[{section}]\n{name} = {toml_value(value)}\n", encoding="utf-8")
    return path


def test_every_key_is_one_row_with_a_pinned_rule() -> None:
    keys = [row.key for row in KEYS]
    assert len(set(keys)) == len(keys)
    assert set(keys) == set(RULES) == set(VALUES)
    fields = set(Settings.__dataclass_fields__)
    for row in KEYS:
        assert row.project == RULES[row.key], row.key
        assert row.field in fields, row.key
        if row.project == "tightens":
            assert len(row.order) >= 2 and row.refusal[0] and row.refusal[1]
        if row.project == "lowers":
            assert row.refusal[0] and row.refusal[1]


def _layers(tmp_path: Path, row: KeyRow, user: Any, project: Any) -> list[tuple[Path, Any]]:
    files: list[tuple[Path, Any]] = []
    if user is not None:
        files.append((write_key(tmp_path / "xdg/redactor/config.toml", row.key, user), "user"))
    files.append((write_key(tmp_path / "repo/.redactor.toml", row.key, project), "project"))
    return files


def _as_user(tmp_path: Path, row: KeyRow, value: Any) -> Any:
    """The field's value when the user file alone sets the key."""
    path = write_key(tmp_path / "only/config.toml", row.key, value)
    return getattr(load_settings(files=[(path, "user")]), row.field)


def _loosens(tmp_path: Path, row: KeyRow, before: Any, project: Any) -> bool:
    """Would the project's value loosen the one in force, by the order of VALUES?"""
    value = _as_user(tmp_path, row, project)
    if RULES[row.key] == "lowers":
        return bool(value > before)
    if RULES[row.key] == "tightens":
        order = [_as_user(tmp_path, row, item) for item in VALUES[row.key]]
        return order.index(value) < order.index(before)
    return False


@pytest.mark.parametrize("row", KEYS, ids=lambda row: row.key)
def test_a_project_file_may_only_tighten(tmp_path: Path, row: KeyRow) -> None:
    values = VALUES[row.key]
    checked = 0
    for user, project in itertools.product((None, *values), values):
        files = _layers(tmp_path, row, user, project)
        before = getattr(Settings() if user is None else load_settings(files=files[:1]),
                         row.field)
        if RULES[row.key] == "refused":
            with pytest.raises(ConfigError, match=rf"key '{row.key}' cannot be set by a project "
                               r"file \(it could loosen your policy\); move it to your user "
                               "configuration"):
                load_settings(files=files)
            checked += 1
            continue
        if _loosens(tmp_path, row, before, project):
            with pytest.raises(ConfigError, match=rf"key '{row.key}' .*; a project file may "
                               "only "):
                load_settings(files=files)
            checked += 1
            continue
        after = getattr(load_settings(files=files), row.field)
        if RULES[row.key] == "adds":
            # What the earlier layers set stays, in its order; the project's items join it.
            parse = row.project_parse or row.parse
            added = parse(files[-1][0], row.key, project)
            assert after[:len(before)] == before
            assert set(added) <= set(after)
        else:
            assert after == _as_user(tmp_path, row, project)
        checked += 1
    assert checked == len(values) * (len(values) + 1)


@pytest.mark.parametrize("row", KEYS, ids=lambda row: row.key)
def test_a_user_file_sets_every_value(tmp_path: Path, row: KeyRow) -> None:
    for value in VALUES[row.key]:
        path = write_key(tmp_path / "user/config.toml", row.key, value)
        expected = row.join(getattr(Settings(), row.field), row.parse(path, row.key, value))
        assert getattr(load_settings(files=[(path, "user")]), row.field) == expected


@pytest.mark.parametrize(("key", "value"), [
    ("gateway.upstream", "http://llm.example.com"),      # plain http off this machine
    ("gateway.upstream", "https://user:pw@llm.example.com"),
    ("gateway.upstream", "https://llm.example.com/?a=1"),
    ("gateway.upstream", "ftp://llm.example.com"),
    ("gateway.upstream", 443),
    ("gateway.port", 80),
    ("gateway.port", 70000),
    ("gateway.port", True),
    ("gateway.binary", "maybe"),
    ("gateway.time_budget_seconds", 0),
    ("gateway.time_budget_seconds", 601),
])
def test_a_bad_gateway_value_is_a_loud_error(tmp_path: Path, key: str, value: Any) -> None:
    path = write_key(tmp_path / "user/config.toml", key, value)
    with pytest.raises(ConfigError, match=key.partition(".")[2]):
        load_settings(files=[(path, "user")])

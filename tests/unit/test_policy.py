"""Policy rules: patterns over nested inputs, hour windows, quota flags."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from redactor.config import Rule, load_settings
from redactor.errors import ConfigError
from redactor.policy import match_prompt, match_tool

NIGHT = datetime(2026, 11, 29, 23, 30)
NOON = datetime(2026, 11, 29, 12, 0)


def test_pattern_over_nested_strings_and_tool_names() -> None:
    rule = Rule(name="prd", reason="r", pattern=r"\bPRD\b", tools="Bash|mcp__.*")
    assert match_tool([rule], "mcp__sap__rfc", {"a": [{"b": "PRD"}]}) is rule
    assert match_tool([rule], "Read", {"file_path": "PRD"}) is None
    assert match_tool([rule], "Bash", {"command": "DEV"}) is None


def test_deny_wins_over_ask() -> None:
    ask = Rule(name="a", reason="ask", pattern="X", action="ask")
    deny = Rule(name="d", reason="deny", pattern="X")
    assert match_tool([ask, deny], "Bash", {"c": "X"}) is deny


def test_hour_window_wraps_midnight() -> None:
    gate = Rule(name="night", reason="Fora do horário", hours=(22, 6), on=("prompt",))
    assert match_prompt([gate], "qualquer coisa", now=NIGHT) is gate
    assert match_prompt([gate], "qualquer coisa", now=datetime(2026, 11, 29, 5, 59)) is gate
    assert match_prompt([gate], "qualquer coisa", now=NOON) is None
    day = Rule(name="day", reason="r", hours=(9, 18), pattern="deploy")
    assert match_prompt([day], "faça o deploy", now=NOON) is day
    assert match_prompt([day], "faça o deploy", now=NIGHT) is None


def test_quota_flag_file(tmp_path: Path) -> None:
    flag = tmp_path / "quota-exceeded"
    gate = Rule(name="quota", reason="Cota esgotada", flag_file=str(flag))
    assert match_prompt([gate], "oi") is None
    flag.touch()
    assert match_prompt([gate], "oi") is gate
    assert match_tool([gate], "Bash", {"command": "ls"}) is gate


def test_rule_config_parsing(tmp_path: Path) -> None:
    config = tmp_path / "xdg" / "redactor" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[[rules]]\nname = "custo"\nreason = "Cota"\nhours = "22-06"\n'
                      'flag_file = "quota.flag"\non = ["prompt"]\n', encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    [rule] = load_settings(cwd=tmp_path, env=env).rules
    assert rule.hours == (22, 6) and rule.pattern is None
    assert rule.flag_file == str(config.parent / "quota.flag")


@pytest.mark.parametrize(("body", "expected"), [
    ('name = "x"\nreason = "r"\n', "has no condition"),
    ('name = "x"\nreason = "r"\nhours = "25-3"\n', "window like"),
    ('name = "x"\nreason = "r"\npattern = "("\n', "not a valid regular expression"),
    ('name = "x"\npattern = "a"\n', "reason"),
    ('name = "x"\nreason = "r"\npattern = "a"\naction = "log"\n', "unknown action"),
    ('name = "x"\nreason = "r"\npattern = "a"\nwhen = "now"\n', "is unknown"),
])
def test_broken_rules_are_loud(tmp_path: Path, body: str, expected: str) -> None:
    config = tmp_path / "xdg" / "redactor" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[[rules]]\n" + body, encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    with pytest.raises(ConfigError, match=expected):
        load_settings(cwd=tmp_path, env=env)

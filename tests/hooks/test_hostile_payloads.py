"""Crafted hook events from the hostile-input audit: each gets a correct or a safe answer.

Every case runs in process (``claude.run``) and through ``redactor hook claude`` as a
process; the outputs must be one valid JSON object (strict: no NaN) that encodes to
UTF-8, the exit code 0 or 2, and no planted value anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from redactor import Settings
from redactor.config import Rule
from redactor.hosts import claude, hermes

CPF = "529.982.247-25"
CPF_BARE = "52998224725"
CNPJ_BARE = "11222333000181"
CNPJ_KEY = "12.ABC.345/01DE-35"
PLANTED = (CPF, CPF_BARE, CNPJ_BARE)
BASE = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "permission_mode": "default"}


def strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} on stdout is not JSON")

    return json.loads(text, parse_constant=refuse)


def pre(tool_input: Any, tool: str = "mcp__crm__lookup") -> dict[str, Any]:
    return {**BASE, "hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": tool_input, "tool_use_id": "toolu_1"}


def post(response: Any, tool: str = "mcp__crm__lookup") -> dict[str, Any]:
    return {**BASE, "hook_event_name": "PostToolUse", "tool_name": tool, "tool_input": {},
            "tool_response": response, "tool_use_id": "toolu_1"}


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def check(stdout: str | None, stderr: str | None, code: int) -> Any:
    """The invariants of every answer; returns the parsed stdout (or None)."""
    assert code in (0, 2)
    for stream in (stdout or "", stderr or ""):
        stream.encode("utf-8")  # never a lone surrogate or raw byte
        for value in PLANTED:
            assert value not in stream
        assert "Traceback" not in stream
    return strict_json(stdout) if stdout else None


def in_process(raw: bytes, settings: Settings | None = None) -> tuple[Any, claude.Outcome]:
    outcome = claude.run(raw, settings or Settings())
    return check(outcome.stdout, outcome.stderr, outcome.exit_code), outcome


def as_process(raw: bytes, tmp_path: Path) -> tuple[Any, int]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "redactor", "hook", "claude"], input=raw,
                          capture_output=True, timeout=120, env=env, check=False)
    stdout = done.stdout.decode("utf-8")
    stderr = done.stderr.decode("utf-8")
    return check(stdout.strip() or None, stderr, done.returncode), done.returncode


def withheld_everywhere(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert "saída retida pelo redactor" in text
    for planted in PLANTED:
        assert planted not in text


# ------------------------------------------------------------------ 1. deep nesting


@pytest.mark.parametrize("depth", [500, 990])
def test_a_deeply_nested_tool_response_is_withheld(depth: int, tmp_path: Path) -> None:
    # Built as text: the test's own json.dumps would recurse too deep at 990.
    head = json.dumps(post({"r": "PLACE"}))
    raw = head.replace('"PLACE"', "[" * depth + json.dumps(CPF) + "]" * depth).encode()
    parsed, outcome = in_process(raw)
    for answer, code in ((parsed, outcome.exit_code), as_process(raw, tmp_path)):
        if code == 2:
            # Past the parser's own limit (which depends on the caller's stack) the
            # event is unreadable: the turn stops, which also keeps the output away.
            assert depth > 900 and answer["continue"] is False
        else:
            withheld_everywhere(answer["hookSpecificOutput"]["updatedToolOutput"])


def test_nesting_deeper_than_the_parser_takes_stops_the_turn() -> None:
    raw = json.dumps(post({"r": "x"}))[:-1].encode() + b', "deep": ' + b"[" * 5000 \
        + CPF.encode() + b"]" * 5000 + b"}"
    answer, outcome = in_process(raw)
    assert outcome.exit_code == 2 and answer["continue"] is False


def test_moderate_nesting_is_redacted_not_withheld() -> None:
    raw = json.dumps(post({"r": nested(300, f"CPF {CPF}")})).encode()
    answer, _ = in_process(raw)
    updated = answer["hookSpecificOutput"]["updatedToolOutput"]
    assert updated == {"r": nested(300, "CPF [CPF]")}


def test_a_deeply_nested_tool_input_blocks_the_call(tmp_path: Path) -> None:
    raw = json.dumps(pre({"q": nested(600, CPF)})).encode()
    _, outcome = in_process(raw)
    assert outcome.exit_code == 2
    _, code = as_process(raw, tmp_path)
    assert code == 2


# ------------------------------------------------------------------ 2. lone surrogates


def test_lone_surrogates_in_keys_and_commands(tmp_path: Path) -> None:
    # json.dumps writes the escapes; the parsed strings hold lone surrogates.
    raw = json.dumps(post({"\udc00chave": f"CPF {CPF}", "texto": "ok"})).encode()
    answer, outcome = in_process(raw)
    assert outcome.exit_code == 0
    updated = answer["hookSpecificOutput"]["updatedToolOutput"]
    assert updated == {"\udc00chave": "CPF [CPF]", "texto": "ok"}
    assert as_process(raw, tmp_path)[0] == answer
    raw = json.dumps(pre({"command": f"echo \ud800 {CPF}"}, tool="Bash")).encode()
    answer, outcome = in_process(raw)
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "echo \ud800 [CPF]"}
    assert as_process(raw, tmp_path)[0] == answer


def test_latin1_bytes_in_an_event_are_answered(tmp_path: Path) -> None:
    raw = json.dumps(post({"stdout": "Jo\u00e3o CPF " + CPF, "stderr": ""}, tool="Bash"),
                     ensure_ascii=False).encode("latin-1")
    answer, outcome = in_process(raw)
    assert outcome.exit_code == 0
    updated = answer["hookSpecificOutput"]["updatedToolOutput"]
    assert updated["stdout"].endswith("CPF [CPF]")
    as_process(raw, tmp_path)


# ------------------------------------------------------------------ 3. NaN and friends


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_json_numbers_get_the_safe_answer(constant: str, tmp_path: Path) -> None:
    body = '{"n": ' + constant + ', "texto": "CPF ' + CPF + '"}'
    head = '{"session_id": "s", "cwd": "/tmp", "tool_name": "mcp__x__y", '
    post_raw = (head + '"hook_event_name": "PostToolUse", "tool_input": {}, '
                '"tool_response": ' + body + "}").encode()
    answer, outcome = in_process(post_raw)
    assert outcome.exit_code == 2 and answer["continue"] is False
    answer, code = as_process(post_raw, tmp_path)
    assert code == 2 and answer["continue"] is False
    pre_raw = (head + '"hook_event_name": "PreToolUse", "tool_input": ' + body + "}").encode()
    assert in_process(pre_raw)[1].exit_code == 2
    prompt_raw = ('{"hook_event_name": "UserPromptSubmit", "prompt": "oi", "n": '
                  + constant + "}").encode()
    assert in_process(prompt_raw)[0]["decision"] == "block"


# ------------------------------------------------------------------ 13. numbers and keys


def test_identifier_numbers_and_keys_are_redacted_in_tool_input() -> None:
    tool_input = {"cpf": int(CPF_BARE), "pedido": 4500012345, "ativo": True,
                  "clientes": {CPF: {"cnpj": int(CNPJ_BARE)}}, CPF_BARE: "x"}
    answer, _ = in_process(json.dumps(pre(tool_input)).encode())
    updated = answer["hookSpecificOutput"]["updatedInput"]
    assert updated == {"cpf": "[CPF]", "pedido": 4500012345, "ativo": True,
                       "clientes": {"[CPF]": {"cnpj": "[CNPJ]"}}, "[CPF]": "x"}


def test_identifier_numbers_and_keys_are_redacted_in_tool_output() -> None:
    response = [{"type": "text", "text": "ok"}, {CPF: 1, f"{CPF} ": 2, "n": int(CPF_BARE)}]
    answer, _ = in_process(json.dumps(post(response)).encode())
    updated = answer["hookSpecificOutput"]["updatedToolOutput"]
    assert updated == [{"type": "text", "text": "ok"},
                       {"[CPF]": 1, "[CPF] ": 2, "n": "[CPF]"}]


def test_colliding_redacted_keys_are_kept_apart() -> None:
    response = {CPF: 1, "529.982.247-25": 2, CPF_BARE: 3}
    raw = json.dumps(post(response))
    answer, _ = in_process(raw.encode())
    assert answer["hookSpecificOutput"]["updatedToolOutput"] == {"[CPF]": 2, "[CPF]#2": 3}


def test_hermes_shell_hook_on_hostile_input() -> None:
    for raw in (b"\xff\xfe", b"[" * 5000, b'{"hook_event_name": "pre_tool_call", "n": NaN}',
                json.dumps({"hook_event_name": "pre_tool_call", "tool_name": "t",
                            "tool_input": {"q": nested(600, CPF)}}).encode()):
        answer = strict_json(hermes.shell(raw))
        assert answer["action"] == "block"
        for value in PLANTED:
            assert value not in json.dumps(answer)
    surrogate = json.dumps({"hook_event_name": "pre_tool_call", "tool_name": "t",
                            "tool_input": {"q": f"\udc00 {CPF}", "n": int(CPF_BARE)}}).encode()
    answer = strict_json(hermes.shell(surrogate))
    assert answer == {"action": "modify", "args": {"q": "\udc00 [CPF]", "n": "[CPF]"}}
    renamed = json.dumps({"hook_event_name": "pre_tool_call", "tool_name": "t",
                          "tool_input": {CPF: "x"}}).encode()
    assert strict_json(hermes.shell(renamed))["action"] == "block"


# ------------------------------------------------------------------ 5. ask rules


def test_an_ask_rule_carries_the_redacted_input() -> None:
    rule = Rule(name="x", reason="confirme", action="ask", hours=(0, 24), on=("tool",))
    tool_input = {"command": f"grep {CPF} a.log", "timeout": 1000}
    answer, _ = in_process(json.dumps(pre(tool_input, tool="Bash")).encode(),
                           Settings(rules=(rule,)))
    decided = answer["hookSpecificOutput"]
    assert decided["permissionDecision"] == "ask"
    assert decided["updatedInput"] == {"command": "grep [CPF] a.log", "timeout": 1000}
    clean_input = {"command": "ls", "timeout": 1000}
    answer, _ = in_process(json.dumps(pre(clean_input, tool="Bash")).encode(),
                           Settings(rules=(rule,)))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert "updatedInput" not in answer["hookSpecificOutput"]


# ------------------------------------------------------------------ review findings


def test_the_withheld_copy_keeps_no_key_number_or_discriminator_that_holds_data() -> None:
    deep = "[" * 402 + '"x"' + "]" * 402
    raw = ('{"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "mcp__a__b", '
           '"tool_input": {}, "tool_response": {"' + CPF + '": "a", "cpf": ' + CPF_BARE
           + ', "type": "CPF ' + CPF + '", "mode": "text", "n": 3, "deep": ' + deep
           + "}}").encode()
    answer, outcome = in_process(raw)
    assert outcome.exit_code == 0
    updated = answer["hookSpecificOutput"]["updatedToolOutput"]
    assert updated["cpf"] == 0 and updated["n"] == 3 and updated["mode"] == "text"
    withheld_everywhere(updated)


def test_numbers_that_lost_leading_zeros_or_carry_a_sign() -> None:
    answer, _ = in_process(json.dumps(pre({"cpf": 1234567890, "n": -int(CPF_BARE),
                                           "pedido": 1234567890})).encode())
    assert answer["hookSpecificOutput"]["updatedInput"] == {
        "cpf": "[CPF]", "n": "[CPF]", "pedido": 1234567890}


def test_a_slow_project_configuration_is_bounded(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from redactor import config
    from redactor.hosts import core

    def slow_load(*args: Any, **kwargs: Any) -> Settings:
        time.sleep(60)
        return Settings()

    monkeypatch.setattr(config, "MAX_TIME_BUDGET", 0.5)
    monkeypatch.setattr(core, "MAX_TIME_BUDGET", 0.5)
    monkeypatch.setattr(core, "load_settings", slow_load)
    started = time.monotonic()
    outcome = claude.run(json.dumps(pre({"q": CPF})).encode())
    assert outcome.exit_code == 2 and "HookTimeout" in (outcome.stderr or "")
    assert time.monotonic() - started < 30


def test_hermes_requests_redact_system_text_and_participant_names() -> None:
    from redactor.hermes_plugin import HermesPlugin

    plugin = HermesPlugin(can_block=True, can_modify=True)
    request = {"messages": [{"role": "user", "name": CPF, "content": "oi"}],
               "system": f"CPF {CPF}", "instructions": [CPF], "model": "m"}
    plugin.llm_request(request=request, turn_id="t")
    assert request == {"messages": [{"role": "user", "name": "[CPF]", "content": "oi"}],
                       "system": "CPF [CPF]", "instructions": ["[CPF]"], "model": "m"}


@pytest.mark.parametrize("hidden", ["529\u200b.982.247-25", "5299\u00ad8224725",
                                    "529.982\u2060.247-25", "\ufeff529.982.247-25\u200d"])
def test_invisible_characters_cannot_split_a_value(hidden: str) -> None:
    answer, _ = in_process(json.dumps(post({"stdout": f"cliente {hidden} ok", "stderr": ""},
                                           tool="Bash")).encode())
    stdout = answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert stdout.startswith("cliente ") and stdout.endswith(" ok") and "[CPF]" in stdout
    assert not any(c.isdigit() for c in stdout)
    prompt, _ = in_process(json.dumps({**BASE, "hook_event_name": "UserPromptSubmit",
                                       "prompt": f"CPF {hidden}"}).encode())
    assert prompt["decision"] == "block"


def test_an_identifier_number_under_a_redacted_cnpj_key() -> None:
    # Found by the fuzz harness: the renamed key "[CNPJ]" made the number look like a
    # CNPJ with lost zeros, and the padded 14 digits hid the CPF it is.
    answer, _ = in_process(json.dumps(post({CNPJ_KEY: int(CPF_BARE)}, tool="Bash")).encode())
    assert answer["hookSpecificOutput"]["updatedToolOutput"] == {"[CNPJ]": "[CPF]"}


def test_integral_floats_are_numbers_like_any_other() -> None:
    """Issue 29, item 3: pandas exports a column with nulls as floats."""
    response = {"cpf": float(CPF_BARE), "rows": [{"cnpj": float(CNPJ_BARE), "valor": 12.5},
                                                  {"n": 4500012345.0, "x": 1e300}]}
    raw = json.dumps(post(response))
    assert "52998224725.0" in raw
    answer, _ = in_process(raw.encode())
    assert answer["hookSpecificOutput"]["updatedToolOutput"] == {
        "cpf": "[CPF]", "rows": [{"cnpj": "[CNPJ]", "valor": 12.5},
                                 {"n": 4500012345.0, "x": 1e300}]}
    tool_input = {"cpf": float(CPF_BARE), "lost_zeros": {"cpf": 1234567890.0}}
    answer, _ = in_process(json.dumps(pre(tool_input)).encode())
    assert answer["hookSpecificOutput"]["updatedInput"] == {
        "cpf": "[CPF]", "lost_zeros": {"cpf": "[CPF]"}}

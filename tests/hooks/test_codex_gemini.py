"""The Codex CLI and Gemini CLI adapters on payloads, hostile input and fuzzing.

What the real CLIs do with these answers is proven in tests/e2e/test_codex_cli.py and
tests/e2e/test_gemini_cli.py; here every branch and the fail-closed forms are pinned,
and arbitrary bytes get the safe answer: never exit 1, a traceback, a planted value,
or (for Codex, which rejects a whole answer over one unknown key) an undocumented key.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from redactor import Settings
from redactor.config import Rule
from redactor.drills import SWITCHES_ENV
from redactor.hosts import codex, gemini
from redactor.hosts.core import adapter
from tests.hooks.test_fuzz_hooks import (
    FUZZ,
    PLANTED,
    any_text,
    dumps_any,
    json_values,
    planted_in,
    strict_json,
)

CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"


def drills_on() -> dict[str, str]:
    """The test run's switch file (tests/conftest.py): the failure drills need it."""
    return {SWITCHES_ENV: os.environ[SWITCHES_ENV]}


CODEX_TOP = {"decision", "reason", "hookSpecificOutput"}
CODEX_SPECIFIC = {"hookEventName", "permissionDecision", "permissionDecisionReason",
                  "updatedInput", "additionalContext"}


def answer(outcome: Any) -> Any:
    return strict_json(outcome.stdout) if outcome.stdout else None


def codex_run(payload: dict[str, Any], settings: Settings | None = None) -> Any:
    return codex.ADAPTER.run(json.dumps(payload).encode(), settings or Settings(), env={})


def gemini_run(payload: dict[str, Any], settings: Settings | None = None) -> Any:
    return gemini.ADAPTER.run(json.dumps(payload).encode(), settings or Settings(), env={})


def pre(command: str, mode: str = "bypassPermissions", tool: str = "Bash") -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "tool_name": tool, "permission_mode": mode,
            "tool_input": {"command": command}, "cwd": "/tmp"}


# ------------------------------------------------------------------ Codex


def test_codex_rewrites_and_allows_only_where_it_asks_nobody() -> None:
    out = answer(codex_run(pre(f"echo {CPF}")))
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["updatedInput"] == {"command": "echo [CPF]"}
    assert "CPF" in specific["additionalContext"]


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", None])
def test_codex_refuses_without_echo_where_it_would_ask(mode: str | None) -> None:
    payload = pre(f"echo {CPF} > x")
    if mode is None:
        del payload["permission_mode"]
    else:
        payload["permission_mode"] = mode
    outcome = codex_run(payload)
    assert outcome.exit_code == 0 and CPF not in (outcome.stdout or "")
    specific = answer(outcome)["hookSpecificOutput"]
    # The call becomes one that prints the refusal and fails; nothing of it is echoed.
    assert specific["permissionDecision"] == "allow"
    command = specific["updatedInput"]["command"]
    assert command.startswith("printf '%s\\n' ") and command.endswith(">&2; exit 1")
    assert "chamada recusada" in command


def test_codex_refusal_of_another_tool_is_a_deny() -> None:
    outcome = codex_run(pre(f"*** Begin Patch\n+{CPF}\n", "default", tool="apply_patch"))
    specific = answer(outcome)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert CPF not in specific["permissionDecisionReason"]


def test_codex_deny_and_ask_rules_refuse() -> None:
    rules = (Rule(name="prd", pattern=r"\bPRD\b", reason="sem PRD", action="deny"),
             Rule(name="rm", pattern=r"\brm\b", reason="confirme rm", action="ask"))
    settings = Settings(rules=rules)
    for command, reason in (("ssh PRD", "sem PRD"), ("rm -rf x", "confirme rm")):
        specific = answer(codex_run(pre(command), settings))["hookSpecificOutput"]
        assert reason in specific["updatedInput"]["command"]
        assert command not in specific["updatedInput"]["command"]


def test_codex_clean_input_gets_no_answer() -> None:
    assert codex_run(pre("ls -la")).stdout is None


def test_codex_output_replacement_says_redacted_not_failed() -> None:
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": "cat x"}, "tool_response": f"CPF {CPF}\nCNPJ {CNPJ}\n"}
    out = answer(codex_run(payload))
    assert out["decision"] == "block"
    assert out["reason"].endswith("CPF [CPF]\nCNPJ [CNPJ]\n")
    assert "executou normalmente" in out["reason"]
    assert CPF not in out["reason"] and CNPJ not in out["reason"]


def test_codex_prompt_with_a_cpf_is_blocked() -> None:
    out = answer(codex_run({"hook_event_name": "UserPromptSubmit", "prompt": f"CPF {CPF}"}))
    assert out["decision"] == "block" and "CPF" in out["reason"] and CPF not in out["reason"]


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "UserPromptSubmit"])
def test_codex_failure_drills_fail_closed(event: str) -> None:
    payload = {**pre(f"echo {CPF}"), "hook_event_name": event, "prompt": CPF,
               "tool_response": CPF}
    outcome = codex.ADAPTER.run(json.dumps(payload).encode(), Settings(),
                                env={"REDACTOR_TEST_FAULT": event, **drills_on()})
    assert outcome.exit_code == 0
    out = answer(outcome)
    assert CPF not in outcome.stdout
    if event == "PreToolUse":
        assert "exit 1" in out["hookSpecificOutput"]["updatedInput"]["command"]
    else:
        assert out["decision"] == "block" and "redactor" in out["reason"]


@pytest.mark.parametrize("raw", [b"", b"{", b"[1,2]", b'{"hook_event_name": 5}',
                                 b"\xff\xfe{" + CPF.encode("latin-1"),
                                 b'{"hook_event_name": "PreToolUse", "x": NaN}',
                                 b"[" * 5000 + b"]" * 5000])
def test_codex_unreadable_events_get_a_block(raw: bytes) -> None:
    outcome = codex.ADAPTER.run(raw, Settings(), env={})
    assert outcome.exit_code == 0
    out = answer(outcome)
    assert "decision" in out or "hookSpecificOutput" in out


# ------------------------------------------------------------------ Gemini


def test_gemini_before_tool_sends_the_whole_input() -> None:
    payload = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "cwd": "/tmp",
               "tool_input": {"command": f"echo {CPF}", "description": "x", "dir_path": "sub"}}
    out = answer(gemini_run(payload))
    assert out["hookSpecificOutput"]["tool_input"] == {
        "command": "echo [CPF]", "description": "x", "dir_path": "sub"}


def test_gemini_after_tool_denies_with_the_redacted_output() -> None:
    payload = {"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
               "tool_input": {"command": "cat x"},
               "tool_response": {"llmContent": f"Output: CPF {CPF}", "returnDisplay": CPF}}
    outcome = gemini_run(payload)
    out = answer(outcome)
    assert outcome.exit_code == 2 and out["decision"] == "deny"
    assert out["reason"].endswith("Output: CPF [CPF]")
    assert CPF not in outcome.stdout and CPF not in (outcome.stderr or "")


def test_gemini_after_tool_leaves_clean_output_alone() -> None:
    payload = {"hook_event_name": "AfterTool", "tool_name": "x", "tool_input": {},
               "tool_response": {"llmContent": "ok", "returnDisplay": "ok"}}
    assert gemini_run(payload).stdout is None


def test_gemini_before_agent_denies_a_prompt_with_a_cpf() -> None:
    outcome = gemini_run({"hook_event_name": "BeforeAgent", "prompt": f"o CPF {CPF}"})
    assert answer(outcome)["decision"] == "deny" and CPF not in outcome.stdout


def test_gemini_before_model_returns_every_message() -> None:
    messages = [{"role": "user", "content": "contexto"},
                {"role": "model", "content": "ok"},
                {"role": "user", "content": "escreva para fulano.tal@example.com"}]
    payload = {"hook_event_name": "BeforeModel",
               "llm_request": {"model": "m", "messages": messages}}
    out = answer(gemini_run(payload))
    sent = out["hookSpecificOutput"]["llm_request"]
    assert list(sent) == ["messages"]  # the model is not changed
    assert [m["role"] for m in sent["messages"]] == ["user", "model", "user"]
    assert "fulano.tal@example.com" not in json.dumps(sent)
    assert sent["messages"][:2] == messages[:2]


@pytest.mark.parametrize("event", ["BeforeAgent", "BeforeTool", "AfterTool", "BeforeModel"])
def test_gemini_failure_drills_deny_on_both_channels(event: str) -> None:
    payload = {"hook_event_name": event, "prompt": CPF, "tool_name": "run_shell_command",
               "tool_input": {"command": CPF}, "tool_response": {"llmContent": CPF},
               "llm_request": {"messages": [{"role": "user", "content": CPF}]}}
    outcome = gemini.ADAPTER.run(json.dumps(payload).encode(), Settings(),
                                 env={"REDACTOR_TEST_FAULT": event, **drills_on()})
    assert outcome.exit_code == 2
    assert answer(outcome)["decision"] == "deny"
    assert outcome.stderr and "redactor" in outcome.stderr
    assert CPF not in outcome.stdout + outcome.stderr


# ------------------------------------------------------------------ fuzzing

CODEX_EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "")
GEMINI_EVENTS = ("BeforeAgent", "BeforeTool", "AfterTool", "BeforeModel", "AfterModel", "")


@st.composite
def host_events(draw: st.DrawFn, names: tuple[str, ...]) -> bytes:
    payload: dict[str, Any] = {"session_id": "s", "cwd": "/tmp"}
    name = draw(st.sampled_from(names))
    if name:
        payload["hook_event_name"] = name
    payload["tool_name"] = draw(st.sampled_from(["Bash", "run_shell_command", "apply_patch", ""]))
    payload["permission_mode"] = draw(st.sampled_from(["bypassPermissions", "default"]))
    payload["prompt"] = draw(st.one_of(any_text, json_values))
    payload["tool_input"] = draw(st.one_of(st.dictionaries(any_text, json_values, max_size=3),
                                           json_values))
    payload["tool_response"] = draw(json_values)
    payload["llm_request"] = {"messages": draw(st.lists(
        st.fixed_dictionaries({"role": st.just("user"), "content": any_text}), max_size=3))}
    raw = dumps_any(payload).encode("utf-8", errors="surrogatepass")
    how = draw(st.sampled_from(["utf8", "truncated", "mutated"]))
    if how == "truncated":
        return raw[:draw(st.integers(0, len(raw)))]
    if how == "mutated":
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.binary(max_size=8)) + raw[at:]
    return raw


def _common(outcome: Any) -> Any:
    out = outcome.stdout or ""
    err = outcome.stderr or ""
    (out + err).encode("utf-8")
    assert "Traceback" not in out + err
    for value in PLANTED:
        assert value not in out and value not in err
    found = strict_json(out) if out.strip() else None
    assert found is None or isinstance(found, dict)
    return found


def _event(raw: bytes) -> dict[str, Any] | None:
    try:
        event = json.loads(raw.decode("utf-8", errors="surrogateescape"))
    except (ValueError, RecursionError):
        return None
    return event if isinstance(event, dict) else None


@FUZZ
@given(raw=host_events(CODEX_EVENTS))
def test_codex_adapter_fuzzed(raw: bytes) -> None:
    outcome = codex.ADAPTER.run(raw, Settings(), env={})
    assert outcome.exit_code == 0  # exit 2 would echo the command back to the model
    found = _common(outcome)
    if found is not None:
        assert set(found) <= CODEX_TOP
        assert set(found.get("hookSpecificOutput", {})) <= CODEX_SPECIFIC
    event = _event(raw)
    if event is None:
        # Unreadable: blocked; a PreToolUse whose name shows is refused as a call.
        assert found is not None
        assert found.get("decision") == "block" or found["hookSpecificOutput"][
            "permissionDecision"] == "deny"
        return
    name = event.get("hook_event_name")
    if name == "PreToolUse" and planted_in(event.get("tool_input")):
        assert found is not None and "hookSpecificOutput" in found
    if name == "PostToolUse" and planted_in(event.get("tool_response")):
        assert found is not None and found.get("decision") == "block"
    if name == "UserPromptSubmit" and planted_in(event.get("prompt")):
        assert found is not None and found.get("decision") == "block"


@FUZZ
@given(raw=host_events(GEMINI_EVENTS))
def test_gemini_adapter_fuzzed(raw: bytes) -> None:
    outcome = gemini.ADAPTER.run(raw, Settings(), env={})
    assert outcome.exit_code in (0, 2)
    found = _common(outcome)
    if outcome.exit_code == 2:
        assert found is not None and found.get("decision") == "deny"
    event = _event(raw)
    if event is None:
        assert outcome.exit_code == 2
        return
    name = event.get("hook_event_name")
    denied = found is not None and found.get("decision") == "deny"
    specific = found.get("hookSpecificOutput", {}) if found is not None else {}
    if name == "BeforeTool" and planted_in(event.get("tool_input")):
        assert denied or "tool_input" in specific
    if name == "BeforeAgent" and planted_in(event.get("prompt")):
        assert denied
    if name == "AfterTool":
        response = event.get("tool_response")
        shown = {k: response[k] for k in gemini.MODEL_FIELDS if k in response} \
            if isinstance(response, dict) else response
        if planted_in(shown):
            assert denied


def test_every_host_has_an_adapter() -> None:
    for name in ("claude", "codex", "gemini", "hermes"):
        assert adapter(name).name == name
    with pytest.raises(ValueError, match="unknown host"):
        adapter("other")

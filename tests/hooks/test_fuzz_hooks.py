"""Fuzzing every hook entry with arbitrary JSON, strings and bytes.

The entries: the Claude Code adapter in process (``claude.run``), the Hermes shell
hook (``hermes.shell``), the Hermes plugin's callbacks, and, as processes, the
``redactor hook claude|hermes`` command and the import-light client script that
``redactor install`` registers.  The only acceptable outcomes are a correct answer
or the documented safe one (PreToolUse exit 2, PostToolUse withheld replacement or
stopped turn, prompt blocked): never exit 1, a traceback, stdout that is not one
strict JSON object in UTF-8, or a planted value in any output.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import redactor.serve.protocol as client_module
from redactor import Settings
from redactor.hermes_plugin import HermesPlugin
from redactor.hosts import claude, core, hermes

CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"
#: Percent-encoded forms, as in a URL in a command or a log (issue 29, item 5).
ENCODED = ("529.982.247%2D25", "11.222.333%2F0001-81")
PLANTED = (CPF, "52998224725", CNPJ, "12ABC34501DE35", *ENCODED)
CLIENT = str(Path(client_module.__file__).resolve().with_name("entry.py"))
STATE = tempfile.mkdtemp(prefix="redactor-fuzz-state-")
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "PostToolUseFailure", "Stop", "")
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ_PROCESS = settings(max_examples=12, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.data_too_large])

# Text with surrogates, control characters and accents; a planted value stands alone
# between spaces so that it is a value by any reading.
texts = st.text(st.characters(codec=None), max_size=40)
planted_texts = st.builds(lambda a, v, b: f"{a} {v} {b}", texts,
                          st.sampled_from((*PLANTED[:3], *ENCODED)),
                          texts)
# Runs of capitalised words, titles and name keys reach the people's-name recognizer and
# its propagation (they are not asserted gone: tool input keeps names by default).
name_words = st.sampled_from(["Maria", "SILVA", "da", "Dr.", "cliente", "J.", "D'Ávila",
                              "Ana-Maria", "nome:", "NAME1=", "São", "José", "\ud800", "ção"])
name_texts = st.lists(st.one_of(name_words, texts), max_size=12).map(" ".join)
any_text = st.one_of(texts, planted_texts, name_texts)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), any_text,
    st.just(52998224725), st.just(11222333000181))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(any_text, inner, max_size=4)),
    max_leaves=12)


def planted_in(value: Any) -> bool:
    return any(p in json.dumps(value, ensure_ascii=False, default=str) for p in PLANTED)


def dumps_any(value: Any) -> str:
    """JSON text of a fuzzed value, NaN and friends included (as Python writes them)."""
    return json.dumps(value, ensure_ascii=False)


@st.composite
def events(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(EVENTS))
    payload: dict[str, Any] = {"session_id": "s", "cwd": draw(st.sampled_from(["/tmp", ""]))}
    if name:
        payload["hook_event_name"] = name
    payload["tool_name"] = draw(st.sampled_from(["Bash", "Read", "mcp__crm__q", ""]))
    body = draw(json_values)
    if name == "UserPromptSubmit":
        payload["prompt"] = draw(st.one_of(any_text, json_values))
    else:
        payload["tool_input"] = draw(st.one_of(st.dictionaries(any_text, json_values,
                                                               max_size=3), json_values))
        payload["tool_response"] = body
        payload["error"] = draw(any_text)
    text = dumps_any(payload)
    how = draw(st.sampled_from(["utf8", "latin1", "truncated", "mutated", "deep"]))
    if how == "latin1":
        return text.encode("latin-1", errors="replace")
    raw = text.encode("utf-8", errors="surrogatepass")
    if how == "truncated":
        return raw[:draw(st.integers(0, len(raw)))]
    if how == "mutated":
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.binary(max_size=8)) + raw[at:]
    if how == "deep":
        depth = draw(st.integers(300, 1200))
        return raw.replace(b'"session_id"', b'"d": ' + b"[" * depth + CPF.encode().join(
            [b'"', b'"']) + b"]" * depth + b', "session_id"', 1)
    return raw


def strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} on stdout")

    return json.loads(text, parse_constant=refuse)


def check_claude(raw: bytes, code: int, stdout: bytes | str | None,
                 stderr: bytes | str | None) -> None:
    """The invariants of any answer to a Claude Code event."""
    assert code in (0, 2), code
    out = stdout.decode("utf-8") if isinstance(stdout, bytes) else (stdout or "")
    err = stderr.decode("utf-8") if isinstance(stderr, bytes) else (stderr or "")
    out.encode("utf-8")
    err.encode("utf-8")
    assert "Traceback" not in out + err
    for value in PLANTED:
        assert value not in out and value not in err
    answer = strict_json(out) if out.strip() else None
    assert answer is None or isinstance(answer, dict)
    try:
        event = json.loads(raw.decode("utf-8", errors="surrogateescape"))
    except (ValueError, RecursionError):
        event = None
    if not isinstance(event, dict):
        # Unreadable: blocked (a prompt whose event name shows is blocked by decision).
        assert code == 2 or (answer is not None and answer.get("decision") == "block")
        return
    name = event.get("hook_event_name")
    if name == "PreToolUse" and planted_in(event.get("tool_input")):
        assert code == 2 or (answer is not None and "hookSpecificOutput" in answer)
    if name == "PostToolUse" and planted_in(event.get("tool_response")):
        assert code == 2 or (answer is not None and (
            "updatedToolOutput" in answer.get("hookSpecificOutput", {})
            or answer.get("continue") is False))
    if name == "UserPromptSubmit" and planted_in(event.get("prompt")):
        assert code == 2 or (answer is not None and answer.get("decision") == "block")


def check_hermes(out: str) -> Any:
    out.encode("utf-8")
    answer = strict_json(out)
    assert isinstance(answer, dict)
    for value in PLANTED:
        assert value not in out
    return answer


# ------------------------------------------------------------------ in process


@FUZZ
@given(raw=events())
def test_claude_adapter_in_process(raw: bytes) -> None:
    outcome = claude.run(raw, Settings())
    check_claude(raw, outcome.exit_code, outcome.stdout, outcome.stderr)


@FUZZ
@given(raw=events())
def test_claude_answer_after_the_deadline(raw: bytes) -> None:
    """Out of time before it starts: the safe answer, from the bounded withheld copy."""
    outcome = claude.ADAPTER.run(raw, Settings(), env={"XDG_STATE_HOME": STATE},
                                 deadline=0.0)
    check_claude(raw, outcome.exit_code, outcome.stdout, outcome.stderr)
    fallback = claude.ADAPTER.fail_closed_raw(raw, core.HookTimeout("x"),
                                              env={"XDG_STATE_HOME": STATE})
    check_claude(raw, fallback.exit_code, fallback.stdout, fallback.stderr)


@FUZZ
@given(value=json_values, limit=st.integers(1, 40))
def test_withheld_copy_is_bounded_and_holds_no_value(value: Any, limit: int) -> None:
    try:
        copy = core.withheld(value, "[x]", limit)
    except core.TooLargeToWithhold:
        return
    assert not planted_in(copy)
    json.dumps(copy, allow_nan=False)


@FUZZ
@given(raw=st.one_of(events(), st.binary(max_size=200)))
def test_hermes_shell_hook_in_process(raw: bytes) -> None:
    answer = check_hermes(hermes.shell(raw, env={}))
    assert answer == {} or answer.get("action") in ("block", "modify")


@FUZZ
@given(message=st.one_of(any_text, json_values), tool_name=texts,
       args=st.one_of(st.dictionaries(any_text, json_values, max_size=4), json_values),
       result=st.one_of(any_text, json_values), chat=json_values)
def test_hermes_plugin_callbacks(message: Any, tool_name: str, args: Any, result: Any,
                                 chat: Any) -> None:
    plugin = HermesPlugin(can_block=True, can_modify=True)
    outputs: list[Any] = []
    blocked = plugin.pre_llm_call(user_message=message, turn_id="t")
    outputs.append(blocked)
    if isinstance(message, str) and any(p in message for p in (CPF, CNPJ)):
        assert blocked is not None and blocked["action"] == "block"
    answer = plugin.transform_tool_result(result=result)
    outputs.append(answer)
    if isinstance(result, str) and planted_in(result):
        assert isinstance(answer, str)
    request = {"messages": chat}
    outputs.append(plugin.llm_request(request=request, turn_id="u"))
    if isinstance(chat, list | dict) and planted_in(chat):
        assert not planted_in(request)
    arguments = json.loads(json.dumps(args)) if not _has_nan(args) else args
    outputs.append(plugin.tool_request(tool_name=tool_name, args=arguments))
    if isinstance(args, dict) and planted_in(args):
        assert not planted_in(arguments)
    outputs.append(plugin.pre_tool_call(tool_name=tool_name, args=args))
    for output in outputs:
        assert not planted_in(output)


class StuckGuard(hermes.Guard):
    """A guard whose work lasts until the test ends it, under a budget of 10 ms: every
    callback runs past its budget and must answer its safe answer."""

    def __init__(self) -> None:
        super().__init__(env={})
        self.release = threading.Event()
        self.waited = False

    def settings(self) -> Settings:
        return Settings(hermes_mode="redact", hook_time_budget=0.01)

    def engine(self, settings: Settings) -> Any:
        if not self.release.wait(30):
            self.waited = True  # the plugin waited for its work past the budget
        raise RuntimeError("no engine")


@FUZZ
@given(message=st.one_of(any_text, json_values), tool_name=texts,
       args=st.one_of(st.dictionaries(any_text, json_values, max_size=4), json_values),
       result=st.one_of(any_text, json_values), chat=json_values, text=any_text)
def test_hermes_plugin_callbacks_past_the_budget(*, message: Any, tool_name: str, args: Any,
                                                 result: Any, chat: Any, text: str) -> None:
    guard = StuckGuard()
    plugin = HermesPlugin(guard, can_block=True, can_modify=True)
    try:
        outputs = [plugin.pre_llm_call(user_message=message, turn_id="t"),
                   plugin.transform_tool_result(result=result),
                   plugin.llm_request(request={"messages": chat, "system": text}),
                   plugin.tool_request(tool_name=tool_name, args=args),
                   plugin.pre_tool_call(tool_name=tool_name, args=args),
                   plugin.pre_gateway_dispatch(event=type("Event", (), {"text": text})())]
    finally:
        guard.release.set()
    assert not guard.waited
    # Whatever needs the engine got the safe answer.
    assert outputs[0]["action"] == "block"
    assert outputs[1] is None if not isinstance(result, str) else outputs[1].startswith("[sa")
    assert outputs[2]["reason"] == "withheld"
    if isinstance(args, dict):
        assert isinstance(outputs[3]["args"], dict) and outputs[4]["action"] == "block"
    assert outputs[5] is None if not text else outputs[5]["action"] == "skip"
    for output in outputs:
        assert not planted_in(output)
        json.dumps(output, allow_nan=False)


def _nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(1 + _nodes(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(1 + _nodes(item) for item in value)
    return 1


@FUZZ
@given(value=st.one_of(json_values, st.lists(st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "tool"]), "content": json_values}), max_size=8)),
       limit=st.integers(1, 60))
def test_withheld_messages_is_bounded_and_holds_no_value(value: Any, limit: int) -> None:
    copy = hermes.withheld_messages(value, "[x]", limit)
    assert not planted_in(copy)
    json.dumps(copy, allow_nan=False)
    # The copy is no larger than the bound, or is the fixed form.
    assert _nodes(copy) <= 2 * limit or copy in ([{"role": "user", "content": "[x]"}], {})


def _has_nan(value: Any) -> bool:
    text = json.dumps(value)
    return "NaN" in text or "Infinity" in text or any(
        isinstance(v, float) and not math.isfinite(v) for v in [value])


# ------------------------------------------------------------------ processes


@pytest.fixture(scope="module")
def process_env() -> Iterator[dict[str, str]]:
    runtime = tempfile.mkdtemp(prefix="rdxf", dir="/tmp")
    home = tempfile.mkdtemp(prefix="rdxh")
    env = {**os.environ, "XDG_RUNTIME_DIR": runtime, "HOME": home,
           "XDG_CONFIG_HOME": f"{home}/cfg", "XDG_STATE_HOME": f"{home}/state"}
    try:
        yield env
    finally:
        from tests.e2e.engine import stop_engine

        stop_engine(env)
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


@FUZZ_PROCESS
@given(raw=events())
def test_redactor_hook_command(raw: bytes, process_env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "redactor", "hook", "claude"], input=raw,
                          capture_output=True, env=process_env, timeout=120, check=False)
    check_claude(raw, done.returncode, done.stdout, done.stderr)


@FUZZ_PROCESS
@given(raw=events())
def test_light_client_and_warm_engine(raw: bytes, process_env: dict[str, str]) -> None:
    # The first call answers in process and starts the warm engine; later ones go to it.
    done = subprocess.run([sys.executable, "-I", "-S", CLIENT, "claude"], input=raw,
                          capture_output=True, env=process_env, timeout=120, check=False)
    check_claude(raw, done.returncode, done.stdout, done.stderr)


@FUZZ_PROCESS
@given(raw=st.one_of(events(), st.binary(max_size=200)))
def test_light_client_hermes(raw: bytes, process_env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-I", "-S", CLIENT, "hermes"], input=raw,
                          capture_output=True, env=process_env, timeout=120, check=False)
    assert done.returncode == 0
    check_hermes(done.stdout.decode("utf-8"))
    assert b"Traceback" not in done.stderr

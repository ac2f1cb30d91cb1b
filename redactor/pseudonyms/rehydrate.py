"""Rehydration: where a token in a tool call may turn back into its value.

The model works with tokens; a tool may need the value (``grep`` for a customer's other
records, an MCP tool locking a user).  A token in a tool's input is replaced by its value
only where this policy allows, and the whole call is denied otherwise — with a reason that
names the token's type, never its value:

- the token must be well formed (an altered, partial or unknown one is never corrected
  to a near one), be in the vault under the same type, and have been issued in this
  session (its output or the gateway showed it to this session's model, or the person
  typed it);
- file tools, on paths inside the project: a value goes only into a locator, a path to
  read (which must exist) or a search pattern (the token alone for a regex, escaped for
  its syntax); content a tool writes keeps its tokens, as a file holding the value would
  hand it to any later call that reads, runs or sends it without a token in sight;
- the shell tool: a single search or listing with the token as its pattern
  (redactor.pseudonyms.shell decides, with a shell parser);
- MCP tools: only the arguments a ``[[pseudonyms.allow]]`` entry names;
- web tools, subagents and every tool not listed: never.

How this meets redaction in a hook (hosts.core.check_tool_input): the input the model
wrote is redacted first, as always, with its tokens shielded from the detectors
(engine.analysis); rehydration then replaces tokens in that redacted input.  A value put
in by rehydration is therefore never redacted again, and a raw value the model wrote
itself is redacted as before.

This module imports only the standard library; the vault and the shell parser are
imported when a token is present.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from redactor.pseudonyms.tokens import Token, find_tokens, near_tokens

__all__ = ["HOST_TOOLS", "CallContext", "Rehydration", "has_tokens", "rehydrate"]

#: How a host's tools treat tokens: "file" (values only in the keys it lists), "shell"
#: (the command key, through the shell policy), "keep" (the tool's input stays inside
#: the agent: tokens pass as they are).  Any other tool is denied.
ToolKind = Literal["file", "shell", "keep"]


@dataclass(frozen=True)
class ToolRule:
    kind: ToolKind
    #: Keys holding paths, which must be inside the project (the working folder when
    #: absent and ``default_cwd``); one given a value must name an existing regular file
    #: or folder (a missing one's error message would echo the value).
    paths: tuple[str, ...] = ()
    #: The keys that may receive values: locators (a path to read, a search pattern),
    #: never content a tool writes.  A written file would keep the value for any later
    #: call to read, run or send without a token in sight.
    values: tuple[str, ...] = ()
    #: Keys holding search patterns, and their syntax: "rust" or "ere" regex (the token
    #: alone, anchors allowed) or "glob" (text around it allowed: a glob filters names).
    patterns: tuple[tuple[str, str], ...] = ()
    default_cwd: bool = False
    #: Tokens in the other keys stay tokens (content a tool writes) instead of denying.
    keeps_others: bool = False
    #: The key of the shell command.
    command: str = "command"


HOST_TOOLS: Final[Mapping[str, Mapping[str, ToolRule]]] = {
    "claude": {
        "Read": ToolRule("file", paths=("file_path",), values=("file_path",)),
        "Write": ToolRule("file", paths=("file_path",), keeps_others=True),
        "Edit": ToolRule("file", paths=("file_path",), keeps_others=True),
        "MultiEdit": ToolRule("file", paths=("file_path",), keeps_others=True),
        "NotebookEdit": ToolRule("file", paths=("notebook_path",), keeps_others=True),
        "Grep": ToolRule("file", paths=("path",), default_cwd=True, values=("pattern", "path"),
                         patterns=(("pattern", "rust"),)),
        "Glob": ToolRule("file", paths=("path",), default_cwd=True, values=("pattern", "path"),
                         patterns=(("pattern", "glob"),)),
        "Bash": ToolRule("shell"),
        "TodoWrite": ToolRule("keep"),
    },
    # Gemini CLI 0.61's tool names and parameters (its bundle's *_TOOL_NAME, PARAM_*).
    "gemini": {
        "read_file": ToolRule("file", paths=("file_path",), values=("file_path",)),
        "write_file": ToolRule("file", paths=("file_path",), keeps_others=True),
        "replace": ToolRule("file", paths=("file_path",), keeps_others=True),
        "glob": ToolRule("file", paths=("dir_path",), default_cwd=True,
                         values=("pattern", "dir_path"), patterns=(("pattern", "glob"),)),
        "grep_search": ToolRule("file", paths=("dir_path",), default_cwd=True,
                                values=("pattern", "dir_path"), patterns=(("pattern", "ere"),)),
        "run_shell_command": ToolRule("shell", paths=("dir_path",)),
    },
    # Hermes Agent's tools (tools/file_tools.py, terminal_tool.py); its tool results go
    # through the plugin's transform_tool_result, so commands need no wrapping there.
    "hermes": {
        "read_file": ToolRule("file", paths=("path",), values=("path",)),
        "write_file": ToolRule("file", paths=("path",), keeps_others=True),
        "patch": ToolRule("file", paths=("path",), keeps_others=True),
        "search_files": ToolRule("file", paths=("path",), default_cwd=True,
                                 values=("pattern", "path"), patterns=(("pattern", "rust"),)),
        "terminal": ToolRule("shell", paths=("workdir",)),
    },
    # Codex runs its shell tool as Bash; other tools get no value.
    "codex": {
        "Bash": ToolRule("shell"),
    },
}

#: Tools that never get a value, named in the reason (they reach the network or another
#: model).
_NEVER: Final = frozenset({"WebFetch", "WebSearch", "Task", "Agent"})


@dataclass(frozen=True)
class CallContext:
    """Who is calling: the host, its session and call ids, and the working folder."""

    host: str
    session: str | None
    call_id: str | None
    cwd: Path | None
    project: Path | None


@dataclass(frozen=True)
class Rehydration:
    """``none``: no token in the input.  ``keep``: tokens, left as they are.
    ``rewrite``: ``updated`` holds the values.  ``deny``: ``reason`` says why."""

    action: Literal["none", "keep", "rewrite", "deny"]
    reason: str = ""
    updated: dict[str, Any] | None = field(default=None, repr=False)
    #: The digests of the tokens put back (for the PostToolUse that follows).
    digests: tuple[str, ...] = ()


#: Resolves a token in this call's session: its value, or None when it must not resolve.
Resolver = Callable[[Token], "str | None"]


def has_tokens(value: Any) -> bool:
    """Does any string (value or key) of ``value`` hold a token or a near one?"""
    return any(find_tokens(text) or near_tokens(text) for text in _strings(value))


def _strings(value: Any) -> Iterable[str]:
    """Every string of a tool's input, keys included."""
    from redactor.policy import string_leaves

    return string_leaves(value, keys=True)


def _kind_names(tokens: Iterable[Token]) -> str:
    return ", ".join(sorted({t.label for t in tokens}))


def rehydrate(tool_name: str, tool_input: dict[str, Any], context: CallContext,
              resolve: Resolver, *, mcp_allow: Iterable[tuple[str, str, str]] = (),
              written: Any = None) -> Rehydration:
    """The policy for one call (see the module's docstring).

    ``written``: the input as the model wrote it, when ``tool_input`` is its redacted
    copy.  Only the tokens the model wrote are candidates; a token the redaction itself
    just wrote for a raw value stays a token, as a placeholder would.
    """
    source = tool_input if written is None else written
    mine = {t.text for text in _strings(source) for t in find_tokens(text)}
    present = [t for text in _strings(tool_input) for t in find_tokens(text)
               if t.text in mine]
    near = any(near_tokens(text) for text in _strings(source))
    if not present and not near:
        return Rehydration("none")
    kinds = _kind_names(present) or "token"
    if near:
        return Rehydration("deny", f"an altered or partial token ({kinds}) is never "
                                   "resolved; use the token exactly as you received it")
    rule = HOST_TOOLS.get(context.host, {}).get(tool_name)
    if rule is not None and rule.kind == "keep":
        return Rehydration("keep")
    if any(isinstance(k, str) and find_tokens(k) for k in _keys(tool_input)):
        return Rehydration("deny", f"a {kinds} token in a key of the tool's input")
    values: dict[str, str] = {}

    def value_of(token: Token) -> str | None:
        if token.text not in mine:
            return token.text  # the redaction's own token: left as it is
        if token.text not in values:
            found = resolve(token)
            if found is None:
                return None
            values[token.text] = found
        return values[token.text]

    if tool_name in _NEVER:
        return Rehydration("deny", f"{tool_name} never receives the value of a {kinds} "
                                   "token (it reaches the network or another agent)")
    if tool_name.startswith("mcp__"):
        result = _mcp(tool_name, tool_input, value_of, list(mcp_allow), kinds)
    elif rule is None:
        return Rehydration("deny", f"the tool {_safe_name(tool_name)} may not receive the "
                                   f"value of a {kinds} token")
    elif rule.kind == "shell":
        result = _shell(tool_input, rule, context, value_of, kinds)
    else:
        result = _file(tool_input, rule, context, value_of, kinds)
    if result.action != "rewrite":
        return result
    digests = tuple(dict.fromkeys(t.digest for t in present))
    return Rehydration("rewrite", updated=result.updated, digests=digests)


def _keys(value: Any) -> Iterable[Any]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield from item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _safe_name(name: str) -> str:
    """A tool name for a reason: a name is the host's, but print only a plain one."""
    return name if re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name) else "(this tool)"


def _unresolved(kinds: str) -> Rehydration:
    return Rehydration("deny", f"a {kinds} token that does not resolve here (unknown, "
                               "expired, or issued in another session)")


def _substitute(text: str, value_of: Callable[[Token], str | None],
                escape: Callable[[str], str] | None = None) -> str | None:
    """``text`` with its tokens replaced by their values (escaped); None when one
    does not resolve."""
    out: list[str] = []
    cursor = 0
    for token in find_tokens(text):
        value = value_of(token)
        if value is None:
            return None
        start, end = token.start, token.end
        out.append(text[cursor:start])
        out.append(escape(value) if escape is not None else value)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _inside(path: str, context: CallContext) -> bool:
    if context.project is None:
        return False
    base = context.cwd or context.project
    full = os.path.realpath(os.path.join(base, os.path.expanduser(path)))
    root = os.path.realpath(context.project)
    return full == root or full.startswith(root.rstrip("/") + "/")


def _file(tool_input: dict[str, Any], rule: ToolRule, context: CallContext,
          value_of: Callable[[Token], str | None], kinds: str) -> Rehydration:
    if context.project is None:
        return Rehydration("deny", f"the value of a {kinds} token goes only to files of a "
                                   "project, and this folder is in none")
    updated = dict(tool_input)
    patterns = dict(rule.patterns)
    given: list[str] = []
    for key, item in tool_input.items():
        holds = any(find_tokens(text) for text in _strings(item))
        if not holds:
            continue
        if key not in rule.values:
            if rule.keeps_others and key not in rule.paths:
                continue  # content the tool writes keeps its tokens
            return Rehydration("deny", f"a {kinds} token where this tool takes no value "
                                       "(only a path to read or a search pattern does)")
        syntax = patterns.get(key)
        if syntax in ("rust", "ere") and not _token_alone(item):
            return Rehydration("deny", f"a search pattern other than the {kinds} token "
                                       "alone")
        new = _walk(item, value_of, _ESCAPES[syntax] if syntax is not None else None)
        if new is _UNRESOLVED:
            return _unresolved(kinds)
        updated[key] = new
        given.append(key)
    if not given:
        return Rehydration("keep")  # tokens only in content the tool writes
    for key in rule.paths:
        path = updated.get(key)
        if path is None and rule.default_cwd:
            path = str(context.cwd) if context.cwd is not None else None
        if not isinstance(path, str) or not _inside(path, context):
            return Rehydration("deny", f"the value of a {kinds} token goes only to files "
                                       "inside the project")
        if key in given and not _ordinary(path, context):
            return Rehydration("deny", f"a {kinds} token in a path that names no file or "
                                       "folder here")
    return Rehydration("rewrite", updated=updated)


def _token_alone(item: Any) -> bool:
    """A regex pattern that is one token (``\\[…\\]`` too), anchors allowed: regex text
    around a value could print it in pieces, or echo it in a compile error."""
    if not isinstance(item, str):
        return False
    body = item.removeprefix("^").removesuffix("$")
    found = find_tokens(body)
    return len(found) == 1 and found[0].start == 0 and found[0].end == len(body)


def _ordinary(path: str, context: CallContext) -> bool:
    base = context.cwd or context.project
    full = os.path.join(str(base), os.path.expanduser(path))
    try:
        mode = os.stat(full).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


_UNRESOLVED: Final = object()


def _walk(item: Any, value_of: Callable[[Token], str | None],
          escape: Callable[[str], str] | None) -> Any:
    if isinstance(item, str):
        new = _substitute(item, value_of, escape)
        return _UNRESOLVED if new is None else new
    if isinstance(item, list):
        out = [_walk(sub, value_of, escape) for sub in item]
        return _UNRESOLVED if any(sub is _UNRESOLVED for sub in out) else out
    if isinstance(item, dict):
        mapped = {key: _walk(sub, value_of, escape) for key, sub in item.items()}
        return _UNRESOLVED if any(sub is _UNRESOLVED for sub in mapped.values()) else mapped
    return item


def _shell(tool_input: dict[str, Any], rule: ToolRule, context: CallContext,
           value_of: Callable[[Token], str | None], kinds: str) -> Rehydration:
    command = tool_input.get(rule.command)
    if not isinstance(command, str) or not find_tokens(command):
        # A token in the description alone: shown to the person, never run.
        return Rehydration("keep")
    if context.project is None or context.cwd is None:
        return Rehydration("deny", f"the value of a {kinds} token goes only to a search "
                                   "inside a project, and this folder is in none")
    cwd = context.cwd
    for key in rule.paths:  # a folder the command runs in (Gemini's dir_path)
        folder = tool_input.get(key)
        if folder is None:
            continue
        if not isinstance(folder, str) or find_tokens(folder) or not _inside(folder, context):
            return Rehydration("deny", f"the value of a {kinds} token goes only to a "
                                       "search inside the project")
        cwd = Path(os.path.realpath(os.path.join(context.cwd, folder)))
    from redactor.pseudonyms.shell import rehydrate_command

    def resolve_text(text: str) -> str | None:
        found = find_tokens(text)
        return value_of(found[0]) if len(found) == 1 and found[0].text == text else None

    verdict = rehydrate_command(command, resolve_text, cwd=cwd, project=context.project)
    if not verdict.allowed:
        return Rehydration("deny", f"a {kinds} token in a command that is not a single "
                                   f"search inside the project ({verdict.reason})")
    return Rehydration("rewrite", updated={**tool_input, rule.command: verdict.command})


def _mcp(tool_name: str, tool_input: dict[str, Any], value_of: Callable[[Token], str | None],
         allow: list[tuple[str, str, str]], kinds: str) -> Rehydration:
    _, _, rest = tool_name.partition("mcp__")
    server, _, tool = rest.partition("__")
    allowed = [tuple(argument.split(".")) for s, t, argument in allow
               if s == server and t == tool]
    updated = _copy(tool_input)
    for path, holder, key in _leaves(updated):
        text = holder[key]
        if not isinstance(text, str) or not find_tokens(text):
            continue
        if path not in allowed:
            return Rehydration("deny", f"a {kinds} token in an argument no "
                                       "[[pseudonyms.allow]] entry names for this MCP tool")
        new = _substitute(text, value_of)
        if new is None:
            return _unresolved(kinds)
        holder[key] = new
    return Rehydration("rewrite", updated=updated)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _leaves(value: dict[str, Any]) -> Iterable[tuple[tuple[str, ...], Any, Any]]:
    """(path of keys, holder, key) of every leaf; list items share their list's path."""
    stack: list[tuple[tuple[str, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        entries = item.items() if isinstance(item, dict) else enumerate(item)
        for key, sub in entries:
            sub_path = (*path, key) if isinstance(key, str) else path
            if isinstance(sub, dict | list):
                stack.append((sub_path, sub))
            else:
                yield sub_path, item, key


# Escapes of a value put into a search pattern.
_RUST_META: Final = frozenset("\\.+*?()|[]{}^$#&-~")


def _rust_regex(value: str) -> str:
    return "".join("\\" + ch if ch in _RUST_META else ch for ch in value)


#: POSIX extended and JavaScript regexes alike (no escape of ``-`` or ``~``, which a
#: JavaScript regex in unicode mode refuses).
_ERE_META: Final = frozenset("\\.+*?()|[]{}^$")


def _ere(value: str) -> str:
    return "".join("\\" + ch if ch in _ERE_META else ch for ch in value)


def _glob(value: str) -> str:
    return "".join("[" + ch + "]" if ch in "*?[]{}\\" else ch for ch in value)


_ESCAPES: Final[Mapping[str, Callable[[str], str]]] = {"rust": _rust_regex, "ere": _ere,
                                                       "glob": _glob}

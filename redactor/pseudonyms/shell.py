"""Which shell commands may carry a pseudonym's real value, and how they are rewritten.

The model sees tokens (``[CPF:0123456789abcdef]``), never values.  When it runs a shell
command holding a token, the hook may put the real value back, but only where the value
cannot leave: one search or listing (grep, rg, git grep, awk '/re/', find -name), maybe
piped into sort, uniq, wc, head or tail, with the token as the whole search pattern
and nowhere else.  Anything else is refused: a prompt-injected model must not be able to
send, print, encode or hand the value to another program.

The decision is an allowlist over two independent readings of the command, which must
agree: tree-sitter-bash's syntax tree, and this module's own strict lexer (which also
computes each argument as bash would).  The command that runs is not the model's text
but one rebuilt from that argument list: every argument quoted with ``shlex.quote``
(the value escaped for its pattern's syntax), plain globs in path operands left for the
shell to expand, ``command`` before the program name (no alias or function of the user's
shell applies), and fixed options that close the programs' own escape hatches
(``rg --no-config``, ``git -c core.fsmonitor=false --no-pager``, ``--`` before operands).

Refusal reasons are fixed English phrases: the command may hold personal data, so no
text of it appears in a reason unless it is a command or flag name from the tables here.
"""

from __future__ import annotations

import fnmatch
import functools
import glob
import os
import re
import shlex
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["TOKEN_RE", "ShellVerdict", "rehydrate_command"]

#: A pseudonym token: a label, then 16 lowercase hex digits (12 in legacy tokens).
TOKEN_RE: Final = re.compile(r"\[[A-Z][A-Z0-9_]{1,30}:(?:[0-9a-f]{16}|[0-9a-f]{12})\]")

#: A token inside a pattern, also in the form a model writes for a regex, with escaped
#: brackets (``\[CPF:…\]``): the whole of it is replaced.  Group 1 is label and digits.
_PATTERN_TOKEN_RE: Final = re.compile(
    r"\\?\[([A-Z][A-Z0-9_]{1,30}:(?:[0-9a-f]{16}|[0-9a-f]{12}))\\?\]")

#: Text that looks like a token but is not one (case changed, digits added or dropped,
#: a bracket lost).  Looked for once the real tokens are blanked out: such a command is
#: refused rather than matched to a near token.
_NEAR_TOKEN_RE: Final = re.compile(
    r"\[[A-Za-z_][A-Za-z0-9_]{1,30}:[0-9A-Za-z]{8,24}\]?"
    r"|[A-Za-z_][A-Za-z0-9_]{1,30}:[0-9A-Za-z]{8,24}\]"
    r"|\b[A-Z][A-Z0-9_]{1,30}:[0-9A-Fa-f]{10,20}\b")

#: Longer commands are refused unread (no search needs them; the parser's cost is bounded).
MAX_COMMAND_CHARS: Final = 8192

#: Glob operands expanding to more names than this are refused (each is checked).
MAX_GLOB_MATCHES: Final = 4096


@dataclass(frozen=True)
class ShellVerdict:
    """The decision on one command.  ``reason`` is empty when allowed and otherwise a
    fixed phrase that quotes nothing of the command; ``command`` is the command to run
    instead when allowed, else empty."""

    allowed: bool
    reason: str
    command: str = field(repr=False)  # holds the value when allowed


# The reasons, a fixed vocabulary.
PARSE_ERROR: Final = "a parse error"
COMMAND_SUBSTITUTION: Final = "command substitution"
PROCESS_SUBSTITUTION: Final = "process substitution"
EXPANSION: Final = "a shell expansion"
COMMAND_LIST: Final = "a command list"
BACKGROUND: Final = "a background job"
STDERR_PIPE: Final = "a pipe of standard error"
NEGATION: Final = "a negation"
GROUP: Final = "a subshell or group"
FUNCTION: Final = "a function definition"
CONTROL: Final = "a control structure"
TEST: Final = "a test expression"
ASSIGNMENT: Final = "a variable assignment"
HEREDOC: Final = "a heredoc or herestring"
REDIRECTION: Final = "redirection"
COMMENT: Final = "a comment"
CONSTRUCT: Final = "a shell construct outside the allowlist"
PARENTHESIS: Final = "an unquoted parenthesis"
BRACE: Final = "an unquoted brace"
BRACKET: Final = "an unquoted bracket"
EXCLAMATION: Final = "an unquoted exclamation mark"
TILDE: Final = "tilde expansion"
LEADING_EQUALS: Final = "a leading equals sign"
UNUSUAL_CHARACTER: Final = "an unusual character"
CONTROL_CHARACTER: Final = "a control character"
TOO_LONG: Final = "a command too long"
EMPTY_STAGE: Final = "an empty pipeline stage"
SEARCH_COMMAND: Final = "a command outside the search allowlist"
PIPE_COMMAND: Final = "a command outside the pipeline allowlist"
GIT_COMMAND: Final = "a git command other than grep"
GIT_OPTION: Final = "a git option before grep"
OPTION: Final = "an option outside the allowlist"
MISSING_ARGUMENT: Final = "an option without its argument"
MISSING_PATTERN: Final = "a search without a pattern"
CONFLICTING_SYNTAX: Final = "conflicting pattern syntax flags"
AWK_PROGRAM: Final = "an awk program other than /regex/"
AWK_OPTION: Final = "an awk option"
AWK_ASSIGNMENT: Final = "an awk variable assignment"
FIND_EXPRESSION: Final = "a find expression outside the allowlist"
FIND_ARGUMENT: Final = "a find test argument outside the allowlist"
STAGE_OPERAND: Final = "a file operand in a later pipeline stage"
TOKEN_OUTSIDE: Final = "a token outside a search pattern"  # noqa: S105
ALTERED_TOKEN: Final = "an altered or partial token"  # noqa: S105
UNRESOLVED: Final = "a token that does not resolve"
VALUE_CONTROL: Final = "a value with a control character"
GLOB_OUTSIDE_PATH: Final = "an unquoted glob outside a path"
GLOB_CHARACTERS: Final = "a glob path with unusual characters"
GLOB_TOO_MANY: Final = "a glob with too many matches"
PATH_OUTSIDE: Final = "a path outside the project"
CWD_OUTSIDE: Final = "a working directory outside the project"
PATHSPEC_MAGIC: Final = "a git pathspec with magic"
PATTERN_NOT_TOKEN: Final = "a search pattern other than the token alone"  # noqa: S105
SPECIAL_FILE: Final = "a file that is not a regular file or folder"


class _Deny(Exception):
    """Refusal, with its fixed reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------------------
# tree-sitter's reading

_parser_lock = threading.Lock()

#: Node types a searching command is made of; every other one refuses it, with the
#: reason given in _NODE_REASONS (or CONSTRUCT).
_NAMED_NODES: Final = frozenset({
    "program", "pipeline", "command", "command_name", "redirected_statement",
    "file_redirect", "file_descriptor", "word", "raw_string", "string", "string_content",
    "concatenation", "number"})
_ANONYMOUS_NODES: Final = frozenset({"|", '"', ">", ">&"})
_NODE_REASONS: Final = {
    "command_substitution": COMMAND_SUBSTITUTION, "`": COMMAND_SUBSTITUTION,
    "$(": COMMAND_SUBSTITUTION,
    "process_substitution": PROCESS_SUBSTITUTION,
    "simple_expansion": EXPANSION, "expansion": EXPANSION,
    "arithmetic_expansion": EXPANSION, "ansi_c_string": EXPANSION,
    "translated_string": EXPANSION, "$": EXPANSION, "brace_expression": BRACE,
    "list": COMMAND_LIST, "&&": COMMAND_LIST, "||": COMMAND_LIST, ";": COMMAND_LIST,
    ";;": COMMAND_LIST, "&": BACKGROUND, "|&": STDERR_PIPE,
    "negated_command": NEGATION, "!": NEGATION,
    "subshell": GROUP, "compound_statement": GROUP,
    "function_definition": FUNCTION,
    "if_statement": CONTROL, "for_statement": CONTROL, "c_style_for_statement": CONTROL,
    "while_statement": CONTROL, "case_statement": CONTROL,
    "test_command": TEST,
    "variable_assignment": ASSIGNMENT, "variable_assignments": ASSIGNMENT,
    "declaration_command": ASSIGNMENT, "unset_command": ASSIGNMENT,
    "heredoc_redirect": HEREDOC, "herestring_redirect": HEREDOC,
    "comment": COMMENT, "ERROR": PARSE_ERROR,
    **dict.fromkeys((">>", "<", "&>", "&>>", ">|", "<&", "<&-", ">&-", "<>"), REDIRECTION),
    **dict.fromkeys(("<<", "<<-", "<<<"), HEREDOC),
}


@functools.cache
def _tree_parser() -> Parser:
    """The one parser, made on first use: tree_sitter is imported only by a hook that
    meets a token in a command."""
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def _node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "surrogateescape")


def _tree_items(command: str) -> list[tuple[str, str]]:
    """tree-sitter's reading as a flat list: ("w", argument text), ("r", redirection),
    ("|", "|").  Raises _Deny on any node outside the allowlist, walking every child,
    anonymous ones included (``&``, ``;``, ``|&`` are anonymous)."""
    with _parser_lock:
        tree = _tree_parser().parse(command.encode("utf-8"))
    root = tree.root_node
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if node.is_missing or node.is_error:
            raise _Deny(PARSE_ERROR)
        allowed = _NAMED_NODES if node.is_named else _ANONYMOUS_NODES
        if kind not in allowed:
            raise _Deny(_NODE_REASONS.get(kind, CONSTRUCT))
        stack.extend(node.children)
    if root.has_error:
        raise _Deny(PARSE_ERROR)
    named = [child for child in root.children if child.is_named]
    if len(named) != 1 or len(root.children) != 1:
        raise _Deny(COMMAND_LIST)
    items: list[tuple[str, str]] = []
    _collect(named[0], items)
    return items


def _collect(node: Node, items: list[tuple[str, str]]) -> None:
    """Arguments, pipes and redirections in source order.  tree-sitter hangs the words
    that follow a redirection (``grep 2>/dev/null x f``) under it, and a redirection after
    a pipeline's last stage under the pipeline: both are read as bash does."""
    kind = node.type
    if kind in ("program", "pipeline", "redirected_statement", "command"):
        if kind == "redirected_statement" and node.children[0].type not in (
                "command", "pipeline"):
            raise _Deny(CONSTRUCT)
        for child in node.children:
            _collect(child, items)
    elif kind == "command_name":
        if len(node.children) != 1 or node.children[0].type != "word":
            raise _Deny(SEARCH_COMMAND)
        items.append(("w", _node_text(node)))
    elif kind == "file_redirect":
        items.append(("r", _redirect_form(node.children[:3])))
        for extra in node.children[3:]:
            if extra.type not in ("word", "raw_string", "string", "concatenation", "number"):
                raise _Deny(REDIRECTION)
            items.append(("w", _node_text(extra)))
    elif kind == "|":
        items.append(("|", "|"))
    elif kind in ("word", "raw_string", "string", "concatenation", "number"):
        items.append(("w", _node_text(node)))
    else:
        raise _Deny(CONSTRUCT)


def _redirect_form(parts: Sequence[Node]) -> str:
    """The two redirections allowed on a stage: ``2>/dev/null`` and ``2>&1``."""
    if len(parts) == 3 and parts[0].type == "file_descriptor" and _node_text(parts[0]) == "2":
        if parts[1].type == ">" and parts[2].type == "word" \
                and _node_text(parts[2]) == "/dev/null":
            return "2>/dev/null"
        if parts[1].type == ">&" and _node_text(parts[2]) == "1":
            return "2>&1"
    raise _Deny(REDIRECTION)


# --------------------------------------------------------------------------------------
# The module's own reading: words as bash computes them

@dataclass(frozen=True)
class _Word:
    """One argument: its text in the command, its value for the program, whether it has
    an unquoted ``*`` or ``?`` (a glob) and whether it is made only of plain glob-path
    characters, with no quoting."""

    raw: str
    value: str
    globbed: bool
    plain: bool


@dataclass
class _Stage:
    words: list[_Word] = field(default_factory=list)
    redirects: list[str] = field(default_factory=list)


_REDIRECT_RE: Final = re.compile(r"2>(?:[ \t]*/dev/null|&1)(?=[ \t|]|$)")
_PLAIN_RE: Final = re.compile(r"[A-Za-z0-9_./*?-]+")
#: Unquoted characters that mean the same in bash and zsh and nothing special in either.
_SAFE_UNQUOTED: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,^-#")


def _lex(command: str) -> list[_Stage]:
    """Splits a command into pipeline stages of words, bash's way, refusing (_Deny) every
    character whose meaning is not plain text: expansions, operators other than ``|``,
    globs other than ``*``/``?``, tilde, brace, history and zsh's ``=cmd``."""
    stages = [_Stage()]
    i, n = 0, len(command)
    while i < n:
        char = command[i]
        if char in " \t":
            i += 1
        elif char == "|":
            following = command[i + 1:i + 2]
            if following == "|":
                raise _Deny(COMMAND_LIST)
            if following == "&":
                raise _Deny(STDERR_PIPE)
            if not stages[-1].words:
                raise _Deny(EMPTY_STAGE)
            stages.append(_Stage())
            i += 1
        elif (match := _REDIRECT_RE.match(command, i)) is not None:
            stages[-1].redirects.append("2>&1" if match.group().endswith("&1")
                                        else "2>/dev/null")
            i = match.end()
        else:
            word, i = _lex_word(command, i)
            stages[-1].words.append(word)
    if not stages[-1].words:
        raise _Deny(EMPTY_STAGE)
    return stages


def _unquoted_reason(command: str, i: int, at_start: bool) -> str | None:
    """Why an unquoted character cannot be read as plain text, or None if it can."""
    char = command[i]
    following = command[i + 1:i + 2]
    if char == "$":
        return COMMAND_SUBSTITUTION if following == "(" else EXPANSION
    if char == "`":
        return COMMAND_SUBSTITUTION
    if char == ";":
        return COMMAND_LIST
    if char == "&":
        return COMMAND_LIST if following == "&" else BACKGROUND
    if char in "<>":
        if following == "(":
            return PROCESS_SUBSTITUTION
        return HEREDOC if command[i:i + 2] == "<<" else REDIRECTION
    if char in "()":
        return PARENTHESIS
    if char in "{}":
        return BRACE
    if char in "[]":
        return BRACKET
    if char == "!":
        return EXCLAMATION
    if char == "~":
        return TILDE
    if at_start and char == "#":
        return COMMENT
    if at_start and char == "=":
        return LEADING_EQUALS
    if char in _SAFE_UNQUOTED or (not char.isascii() and char.isalnum()):
        return None
    return UNUSUAL_CHARACTER


def _lex_word(command: str, i: int) -> tuple[_Word, int]:
    start, n = i, len(command)
    value: list[str] = []
    globbed = False
    while i < n and command[i] not in " \t|":
        char = command[i]
        if char == "'":
            end = command.find("'", i + 1)
            if end < 0:
                raise _Deny(PARSE_ERROR)
            value.append(command[i + 1:end])
            i = end + 1
        elif char == '"':
            i = _lex_double_quoted(command, i + 1, value)
        elif char == "\\":
            if i + 1 >= n:
                raise _Deny(PARSE_ERROR)
            value.append(command[i + 1])
            i += 2
        elif char in "*?":
            globbed = True
            value.append(char)
            i += 1
        elif char == "2" and i == start and command[i + 1:i + 2] == ">":
            raise _Deny(REDIRECTION)
        else:
            reason = _unquoted_reason(command, i, at_start=i == start)
            if reason is not None:
                raise _Deny(reason)
            value.append(char)
            i += 1
    raw = command[start:i]
    return _Word(raw, "".join(value), globbed, _PLAIN_RE.fullmatch(raw) is not None), i


def _lex_double_quoted(command: str, i: int, value: list[str]) -> int:
    """Inside "…": only ``\\$ \\` \\" \\\\`` are escapes; an unescaped ``$`` or backtick
    is an expansion, refused."""
    n = len(command)
    while i < n:
        char = command[i]
        if char == '"':
            return i + 1
        if char == "\\" and command[i + 1:i + 2] in ("$", "`", '"', "\\"):
            value.append(command[i + 1])
            i += 2
        elif char == "$":
            raise _Deny(COMMAND_SUBSTITUTION if command[i + 1:i + 2] == "(" else EXPANSION)
        elif char == "`":
            raise _Deny(COMMAND_SUBSTITUTION)
        else:
            value.append(char)
            i += 1
    raise _Deny(PARSE_ERROR)


def _read(command: str) -> list[_Stage]:
    """Both readings; they must agree word for word, or the command is refused."""
    tree_reason: str | None = None
    items: list[tuple[str, str]] = []
    try:
        items = _tree_items(command)
    except _Deny as deny:
        tree_reason = deny.reason
    try:
        stages = _lex(command)
    except _Deny:
        if tree_reason is None or tree_reason in (PARSE_ERROR, CONSTRUCT):
            raise
        raise _Deny(tree_reason) from None
    if tree_reason is not None:
        raise _Deny(tree_reason)
    mine: list[tuple[str, str]] = []
    for index, stage in enumerate(stages):
        if index:
            mine.append(("|", "|"))
        mine.extend(("w", word.raw) for word in stage.words)
    theirs = [item for item in items if item[0] != "r"]
    # Redirections are compared by count and form per command (tree-sitter may hang a
    # pipeline's last one on the pipeline).
    their_redirects = sorted(text for kind, text in items if kind == "r")
    my_redirects = sorted(text for stage in stages for text in stage.redirects)
    if mine != theirs or their_redirects != my_redirects:
        raise _Deny(PARSE_ERROR)
    return stages


# --------------------------------------------------------------------------------------
# Options

@dataclass(frozen=True)
class _Spec:
    """A program's allowed options: short ones without and with an argument, long ones
    without, with (``--x=v`` or ``--x v``) and with an optional one (``--x[=v]`` only);
    ``digits``: ``-NUM`` alone is allowed; ``denied``: names worth naming in a reason."""

    program: str
    short_flags: str = ""
    short_args: str = ""
    long_flags: frozenset[str] = frozenset()
    long_args: frozenset[str] = frozenset()
    long_optional: frozenset[str] = frozenset()
    digits: bool = False
    denied: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Opt:
    """One option word (a short cluster like ``-inA``, or a long option) with its
    argument, if the last option in it takes one."""

    names: tuple[str, ...]
    text: str                 # emitted before the argument (or alone)
    arg: str | None
    joined: bool              # ``--name=value``, emitted as one word
    word: _Word
    arg_word: _Word | None    # the next word, when the argument is there

    @property
    def name(self) -> str:
        return self.names[-1]


def _refuse_option(spec: _Spec, name: str) -> _Deny:
    if name in spec.denied:
        return _Deny(f"the {name} flag of {spec.program}")
    return _Deny(OPTION)


def _parse_options(spec: _Spec, words: Sequence[_Word]
                   ) -> tuple[list[_Opt], list[_Word], int]:
    """GNU-style option parsing (options anywhere before ``--``, clusters, attached
    arguments), exact names only: getopt's abbreviations (``--fi`` for ``--file``) and
    everything unknown are refused.  Returns the options, the operands and how many of
    these came before ``--``."""
    options: list[_Opt] = []
    operands: list[_Word] = []
    i = 0
    ended = False
    before = -1
    while i < len(words):
        word = words[i]
        value = word.value
        if ended or value == "-" or not value.startswith("-"):
            operands.append(word)
            i += 1
            continue
        if value == "--":
            ended = True
            before = len(operands)
            i += 1
            continue
        if value.startswith("--"):
            name, equals, argument = value.partition("=")
            if name in spec.long_flags and not equals:
                options.append(_Opt((name,), name, None, False, word, None))
                i += 1
            elif name in spec.long_optional:
                options.append(_Opt((name,), value, None, False, word, None))
                i += 1
            elif name in spec.long_args and equals:
                options.append(_Opt((name,), name, argument, True, word, None))
                i += 1
            elif name in spec.long_args:
                if i + 1 >= len(words):
                    raise _Deny(MISSING_ARGUMENT)
                options.append(_Opt((name,), name, words[i + 1].value, False, word,
                                    words[i + 1]))
                i += 2
            else:
                raise _refuse_option(spec, name)
            continue
        cluster = value[1:]
        if cluster.isdigit() and cluster.isascii():
            if not spec.digits:
                raise _Deny(OPTION)
            options.append(_Opt(("-NUM",), value, None, False, word, None))
            i += 1
            continue
        names: list[str] = []
        taken = False
        for k, char in enumerate(cluster):
            names.append("-" + char)
            if char in spec.short_flags:
                continue
            if char not in spec.short_args:
                raise _refuse_option(spec, "-" + char)
            rest = cluster[k + 1:]
            text = "-" + cluster[:k + 1]
            if rest:
                options.append(_Opt(tuple(names), text, rest, False, word, None))
                i += 1
            else:
                if i + 1 >= len(words):
                    raise _Deny(MISSING_ARGUMENT)
                options.append(_Opt(tuple(names), text, words[i + 1].value, False, word,
                                    words[i + 1]))
                i += 2
            taken = True
            break
        if not taken:
            options.append(_Opt(tuple(names), value, None, False, word, None))
            i += 1
    return options, operands, len(operands) if before < 0 else before


def _check_option(option: _Opt, glob_valued: bool = False) -> None:
    """An option outside a pattern: no token in it, and a glob only in the argument of
    an option whose argument is a glob (``--include=*.py``), which is emitted quoted."""
    if _has_token(option.word.value) or (option.arg is not None and _has_token(option.arg)):
        raise _Deny(TOKEN_OUTSIDE)
    for word in (option.word, option.arg_word):
        if word is not None and word.globbed and not (glob_valued and option.arg is not None):
            raise _Deny(GLOB_OUTSIDE_PATH)


def _emit_option(option: _Opt) -> list[str | _Pattern]:
    if option.arg is None:
        return [shlex.quote(option.text)]
    if option.joined:
        return [shlex.quote(f"{option.text}={option.arg}")]
    return [shlex.quote(option.text), shlex.quote(option.arg)]


# --------------------------------------------------------------------------------------
# Tokens and patterns

FIXED: Final = "fixed"
BRE: Final = "bre"
ERE: Final = "ere"
AWK: Final = "awk"
PCRE: Final = "pcre"
RUST: Final = "rust"
GLOB: Final = "glob"

_ESCAPED: Final = {
    BRE: frozenset("\\.[]*^$"),
    ERE: frozenset("\\.[]*^$+?(){}|"),
    AWK: frozenset("\\.[]*^$+?(){}|/"),
    # The rust regex crate's meta characters: escaping any other character is an error
    # in its older releases (ripgrep 13 among them).
    RUST: frozenset("\\.+*?()|[]{}^$#&-~"),
    GLOB: frozenset("\\*?[]"),
}


def escape_value(value: str, syntax: str) -> str:
    """The value as a literal in a pattern of the given syntax.  PCRE: every ASCII
    character other than a letter, digit or underscore is escaped (always a literal
    there)."""
    if syntax == FIXED:
        return value
    if syntax == PCRE:
        return "".join("\\" + c if c.isascii() and not (c.isalnum() or c == "_") else c
                       for c in value)
    meta = _ESCAPED[syntax]
    return "".join("\\" + c if c in meta else c for c in value)


def _has_token(text: str) -> bool:
    return _PATTERN_TOKEN_RE.search(text) is not None


def _near_token(text: str) -> bool:
    """Whether token-like text remains once the real tokens (both forms) are blanked."""
    blanked = _PATTERN_TOKEN_RE.sub(lambda match: " " * len(match.group()), text)
    return _NEAR_TOKEN_RE.search(blanked) is not None


@dataclass(frozen=True)
class _Pattern:
    """A search pattern to fill in: the value of each token in it escaped for
    ``syntax``, then the word quoted (with ``prefix`` and ``suffix`` around it)."""

    pattern: str
    syntax: str
    prefix: str = ""
    suffix: str = ""

    def tokens(self) -> list[str]:
        found = []
        for match in _PATTERN_TOKEN_RE.finditer(self.pattern):
            # A backslash before the token would escape the value's first character.
            if match.start() and self.pattern[match.start() - 1] == "\\":
                raise _Deny(ALTERED_TOKEN)
            found.append(f"[{match.group(1)}]")
        # A pattern holding a token is that token and nothing else: regex text around
        # the value (a lookahead, ``.{7}``, a class, an unbalanced parenthesis whose
        # error message echoes it) could print it in pieces or reshaped, which the
        # output's redaction would not know again.
        # Globs only filter names, which hold the whole value or nothing: text around a
        # token is fine there.  Anchors of a regex are too.
        if found and self.syntax != GLOB:
            body = self.pattern
            if self.syntax != FIXED:
                body = body.removeprefix("^").removesuffix("$")
            if _PATTERN_TOKEN_RE.fullmatch(body) is None:
                raise _Deny(PATTERN_NOT_TOKEN)
        return found

    def render(self, values: dict[str, str]) -> str:
        filled = _PATTERN_TOKEN_RE.sub(
            lambda match: escape_value(values[f"[{match.group(1)}]"], self.syntax),
            self.pattern)
        return shlex.quote(self.prefix + filled + self.suffix)


Piece = str | _Pattern


def _emit_pattern(option: _Opt, syntax: str) -> list[Piece]:
    """A ``-e PATTERN`` style option: the pattern is filled in."""
    if option.word.globbed or (option.arg_word is not None and option.arg_word.globbed):
        raise _Deny(GLOB_OUTSIDE_PATH)
    assert option.arg is not None
    if option.joined:
        return [_Pattern(option.arg, syntax, prefix=option.text + "=")]
    return [shlex.quote(option.text), _Pattern(option.arg, syntax)]


# --------------------------------------------------------------------------------------
# Paths

@dataclass(frozen=True)
class _Place:
    cwd: str
    project: str

    def inside(self, path: str) -> bool:
        real = os.path.realpath(os.path.join(self.cwd, path))
        return real == self.project or real.startswith(self.project.rstrip(os.sep) + os.sep)


def _path(word: _Word, place: _Place, dot_prefix: bool = False) -> str:
    """A path operand, checked to lie in the project (symlinks resolved), emitted quoted;
    a plain glob is checked through its fixed prefix and every name it matches now, and
    left unquoted for the shell to expand (``./`` before it when a name it expands to
    must not read as an option or an awk assignment)."""
    value = word.value
    if _has_token(value):
        raise _Deny(TOKEN_OUTSIDE)
    if not word.globbed:
        if not place.inside(value):
            raise _Deny(PATH_OUTSIDE)
        _ordinary(os.path.join(place.cwd, value))
        return shlex.quote(value)
    if not word.plain:
        raise _Deny(GLOB_CHARACTERS)
    parts = value.split("/")
    first = next(k for k, part in enumerate(parts) if "*" in part or "?" in part)
    prefix = "/".join(parts[:first]) or ("/" if value.startswith("/") else ".")
    # A name starting with a dot is matched only by a pattern starting with one; bash
    # before 5.2 lets such a pattern (``.*``) match ``..``.
    if any(part.startswith(".") and fnmatch.fnmatchcase("..", part) for part in parts[first:]):
        raise _Deny(PATH_OUTSIDE)
    if "***" in value:  # zsh: ** that follows symlinks
        raise _Deny(GLOB_CHARACTERS)
    if not place.inside(prefix):
        raise _Deny(PATH_OUTSIDE)
    # Hidden names and ** too: the user's shell may have dotglob or globstar set.
    names = glob.iglob(value, root_dir=place.cwd, recursive=True, include_hidden=True)
    for count, name in enumerate(names):
        if count >= MAX_GLOB_MATCHES:
            raise _Deny(GLOB_TOO_MANY)
        if not place.inside(name):
            raise _Deny(PATH_OUTSIDE)
        _ordinary(os.path.join(place.cwd, name))
    if dot_prefix and not value.startswith(("/", "./")):
        return "./" + value
    return value


def _ordinary(path: str) -> None:
    """A named operand is a regular file, a folder, or absent: a FIFO would hold the
    search (its value in its arguments) for as long as another process wants."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise _Deny(SPECIAL_FILE)


# --------------------------------------------------------------------------------------
# Stage 1: the searches

def _frozen(*names: str) -> frozenset[str]:
    return frozenset(names)


_GREP: Final = _Spec(
    "grep",
    short_flags="iywxvclLoqsbHhnrREFGTZaIU",
    short_args="eABCmdD",
    long_flags=_frozen(
        "--ignore-case", "--no-ignore-case", "--word-regexp", "--line-regexp",
        "--invert-match", "--count", "--files-with-matches", "--files-without-match",
        "--only-matching", "--quiet", "--silent", "--no-messages", "--byte-offset",
        "--with-filename", "--no-filename", "--line-number", "--recursive",
        "--dereference-recursive", "--extended-regexp", "--fixed-strings",
        "--basic-regexp", "--initial-tab", "--null", "--text", "--binary",
        "--line-buffered"),
    long_args=_frozen(
        "--regexp", "--after-context", "--before-context", "--context", "--max-count",
        "--include", "--exclude", "--exclude-dir", "--directories", "--devices",
        "--binary-files"),
    digits=True,
    # -P: lookarounds and \K print a value in pieces; --color splits it with escapes;
    # -z reads NUL-separated records.
    denied=_frozen("-f", "--file", "--exclude-from", "-P", "--perl-regexp", "--color",
                   "--colour", "-z", "--null-data"))
_GREP_GLOBS: Final = _frozen("--include", "--exclude", "--exclude-dir")
_GREP_SYNTAX: Final = {
    "-E": ERE, "--extended-regexp": ERE, "-F": FIXED, "--fixed-strings": FIXED,
    "-G": BRE, "--basic-regexp": BRE, "-P": PCRE, "--perl-regexp": PCRE}

_RG: Final = _Spec(
    "rg",
    short_flags="isSwxvclnNoqHIFUaLu0b",
    short_args="eABCmgtTjM",
    long_flags=_frozen(
        "--ignore-case", "--case-sensitive", "--smart-case", "--word-regexp",
        "--line-regexp", "--invert-match", "--count", "--count-matches",
        "--files-with-matches", "--files-without-match", "--line-number",
        "--no-line-number", "--only-matching", "--quiet", "--with-filename",
        "--no-filename", "--fixed-strings", "--hidden", "--no-ignore", "--no-ignore-vcs",
        "--no-ignore-dot", "--no-ignore-parent", "--no-ignore-global", "--follow",
        "--multiline", "--multiline-dotall", "--text", "--null", "--column", "--no-column",
        "--vimgrep", "--heading", "--no-heading", "--trim", "--no-messages",
        "--crlf", "--stats", "--byte-offset", "--unrestricted"),
    long_args=_frozen(
        "--regexp", "--after-context", "--before-context", "--context", "--max-count",
        "--glob", "--iglob", "--type", "--type-not", "--threads", "--max-depth",
        "--max-filesize", "--sort", "--sortr"),
    # --replace rewrites the matched value in the output (see _LATER).
    # -P/--pcre2 (lookarounds), --json (escapes a value), --color, --max-columns (cuts
    # a line): each could hand a value over in a form the output's redaction misses.
    denied=_frozen("--pre", "--pre-glob", "-z", "--search-zip", "--hostname-bin", "-f",
                   "--file", "--ignore-file", "--no-config", "-r", "--replace", "-P",
                   "--pcre2", "--json", "--color", "--colors", "--max-columns",
                   "--max-columns-preview"))
_RG_GLOBS: Final = _frozen("-g", "--glob", "--iglob")

_GIT_GREP: Final = _Spec(
    "git grep",
    short_flags="aIiwvhHnlLcoqEGFpW",
    short_args="eABC",
    long_flags=_frozen(
        "--cached", "--untracked", "--no-index", "--exclude-standard",
        "--no-exclude-standard", "--text", "--ignore-case", "--word-regexp",
        "--invert-match", "--full-name", "--extended-regexp", "--basic-regexp",
        "--fixed-strings", "--line-number", "--column",
        "--files-with-matches", "--name-only", "--files-without-match", "--count",
        "--only-matching", "--quiet", "--null", "--break", "--heading", "--show-function",
        "--function-context", "--recursive", "--no-recursive"),
    long_args=_frozen("--max-depth", "--threads", "--after-context", "--before-context",
                      "--context", "--max-count"),
    digits=True,
    denied=_frozen("-O", "--open-files-in-pager", "--textconv", "--ext-grep", "-f", "-P",
                   "--perl-regexp", "--color", "-z", "--null"))
_GIT_SYNTAX: Final = {
    "-E": ERE, "--extended-regexp": ERE, "-F": FIXED, "--fixed-strings": FIXED,
    "-G": BRE, "--basic-regexp": BRE, "-P": PCRE, "--perl-regexp": PCRE}


def _grep(name: str, words: Sequence[_Word], place: _Place) -> list[Piece]:
    options, operands, _ = _parse_options(_GREP, words)
    syntaxes = {"egrep": {ERE}, "fgrep": {FIXED}}.get(name, set())
    syntaxes |= {_GREP_SYNTAX[n] for option in options for n in option.names
                 if n in _GREP_SYNTAX}
    if len(syntaxes) > 1:
        raise _Deny(CONFLICTING_SYNTAX)  # grep itself refuses them
    syntax = syntaxes.pop() if syntaxes else BRE
    return _search([name], options, operands, syntax=syntax, globs=_GREP_GLOBS, place=place)


def _search(head: list[Piece], options: Sequence[_Opt], operands: Sequence[_Word], *,
            syntax: str, globs: frozenset[str], place: _Place) -> list[Piece]:
    """grep's and rg's shared shape: options (``-e`` patterns filled in, glob-valued
    ones checked), then ``--``, the positional pattern when no ``-e`` was given, and
    the paths."""
    pieces = list(head)
    has_e = False
    for option in options:
        if option.arg is not None and option.name in ("-e", "--regexp"):
            has_e = True
            pieces += _emit_pattern(option, syntax)
        else:
            _check_option(option, glob_valued=option.name in globs)
            pieces += _emit_option(option)
    tail: list[Piece] = []
    rest = list(operands)
    if not has_e:
        if not rest:
            raise _Deny(MISSING_PATTERN)
        tail.append(_positional_pattern(rest[0], syntax))
        rest = rest[1:]
    tail += [_path(word, place) for word in rest]
    return [*pieces, "--", *tail] if tail else pieces


def _positional_pattern(word: _Word, syntax: str) -> _Pattern:
    if word.globbed:
        raise _Deny(GLOB_OUTSIDE_PATH)
    return _Pattern(word.value, syntax)


def _rg(words: Sequence[_Word], place: _Place) -> list[Piece]:
    options, operands, _ = _parse_options(_RG, words)
    names = {n for option in options for n in option.names}
    syntax = FIXED if names & {"-F", "--fixed-strings"} else RUST  # -P is refused
    return _search(["rg", "--no-config"], options, operands, syntax=syntax, globs=_RG_GLOBS,
                   place=place)


def _git_grep(words: Sequence[_Word], place: _Place) -> list[Piece]:
    if not words:
        raise _Deny(GIT_COMMAND)
    if words[0].value != "grep":
        raise _Deny(GIT_OPTION if words[0].value.startswith("-") else GIT_COMMAND)
    options, operands, before = _parse_options(_GIT_GREP, words[1:])
    chosen = [_GIT_SYNTAX[n] for option in options for n in option.names
              if n in _GIT_SYNTAX]
    syntax = chosen[-1] if chosen else BRE  # git: the last one given wins
    # -G pins the default against the grep.patternType setting.
    pieces: list[Piece] = ["git", "-c", "core.fsmonitor=false", "--no-pager", "grep",
                           *([] if chosen else ["-G"])]
    has_e = False
    for option in options:
        if option.arg is not None and option.name == "-e":
            has_e = True
            pieces += _emit_pattern(option, syntax)
        else:
            _check_option(option)
            pieces += _emit_option(option)
    if not has_e:
        if not before:  # after --, git reads only pathspecs
            raise _Deny(MISSING_PATTERN)
        pieces += ["-e", _positional_pattern(operands[0], syntax)]
        operands = operands[1:]
    if any(word.value.startswith(":") for word in operands):
        raise _Deny(PATHSPEC_MAGIC)
    paths = [_path(word, place) for word in operands]
    return [*pieces, "--", *paths] if paths else pieces


_AWK_PROGRAM_RE: Final = re.compile(r"/((?:[^/\\\n]|\\.)*)/", re.DOTALL)


def _awk(name: str, words: Sequence[_Word], place: _Place) -> list[Piece]:
    """``awk '/regex/' [file…]`` only: no option (-f, -v, -e, -W… all refused), the
    program exactly one regex, no ``var=value`` operand."""
    if not words:
        raise _Deny(AWK_PROGRAM)
    program, *operands = words
    if program.value.startswith("-"):
        raise _Deny(AWK_OPTION)
    match = _AWK_PROGRAM_RE.fullmatch(program.value)
    if match is None or program.globbed:
        raise _Deny(AWK_PROGRAM)
    paths: list[Piece] = []
    for word in operands:
        if "=" in word.value and not word.globbed:
            raise _Deny(AWK_ASSIGNMENT)
        paths.append(_path(word, place, dot_prefix=True))
    return [name, _Pattern(match.group(1), AWK, prefix="/", suffix="/"), *paths]


_FIND_PATTERNS: Final = _frozen("-name", "-iname", "-path", "-ipath", "-wholename",
                                "-iwholename")
_FIND_VALUES: Final = {
    "-type": re.compile(r"[fdlpsbcD](?:,[fdlpsbcD])*"),
    "-maxdepth": re.compile(r"[0-9]{1,4}"),
    "-mindepth": re.compile(r"[0-9]{1,4}"),
}
_FIND_ALONE: Final = _frozen("-print", "-print0", "-o", "-or", "-a", "-and", "-not", "!",
                             "(", ")", "-true", "-false", "-empty")
_FIND_DENIED: Final = _frozen(
    "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf",
    "-fls", "-printf", "-ls", "-newer", "-anewer", "-cnewer", "-newerXY", "-files0-from",
    "-L", "-H", "-P", "-D", "-O")


def _find(words: Sequence[_Word], place: _Place) -> list[Piece]:
    """``find [path…] [test…]`` with the tests -name, -iname, -path, -ipath (patterns:
    the token goes there), -type, -maxdepth, -mindepth and the operators."""
    pieces: list[Piece] = ["find"]
    i = 0
    while i < len(words) and not (words[i].value.startswith("-")
                                  or words[i].value in ("(", ")", "!")):
        # ./ before a glob: a name it expands to must not read as an expression.
        pieces.append(_path(words[i], place, dot_prefix=True))
        i += 1
    while i < len(words):
        word = words[i]
        test = word.value
        if _has_token(test):
            raise _Deny(TOKEN_OUTSIDE)
        if word.globbed:
            raise _Deny(GLOB_OUTSIDE_PATH)
        if test in _FIND_ALONE:
            pieces.append(shlex.quote(test))
            i += 1
            continue
        if test in _FIND_DENIED or test.startswith(("-exec", "-ok", "-newer", "-fprint")):
            name = test if test in _FIND_DENIED else next(
                prefix for prefix in ("-exec", "-ok", "-newer", "-fprint")
                if test.startswith(prefix))
            raise _Deny(f"the {name} flag of find")
        if test not in _FIND_PATTERNS and test not in _FIND_VALUES:
            raise _Deny(FIND_EXPRESSION)
        if i + 1 >= len(words):
            raise _Deny(MISSING_ARGUMENT)
        argument = words[i + 1]
        pieces.append(test)
        if test in _FIND_PATTERNS:
            # An unquoted * or ? here is find's own glob: emitted quoted, find matches it.
            pieces.append(_Pattern(argument.value, GLOB))
        else:
            if _has_token(argument.value):
                raise _Deny(TOKEN_OUTSIDE)
            if argument.globbed or not _FIND_VALUES[test].fullmatch(argument.value):
                raise _Deny(FIND_ARGUMENT)
            pieces.append(argument.value)
        i += 2
    return pieces


# --------------------------------------------------------------------------------------
# Later stages: filters of the search's output
#
# None may cut a line inside a value: the output goes back through redaction, which must
# still see each value whole (head/tail -c would hand it over piece by piece; cut, even
# by fields, splits a value at its own punctuation and rejoins it with another).

_LATER: Final = {
    "sort": _Spec(
        "sort", short_flags="bdfgiMhnRrVuszcC", short_args="ktS",
        long_flags=_frozen(
            "--ignore-leading-blanks", "--dictionary-order", "--ignore-case",
            "--general-numeric-sort", "--ignore-nonprinting", "--month-sort",
            "--human-numeric-sort", "--numeric-sort", "--random-sort", "--reverse",
            "--version-sort", "--unique", "--stable", "--check", "--zero-terminated",
            "--debug"),
        long_args=_frozen("--key", "--field-separator", "--buffer-size", "--parallel",
                          "--sort"),
        denied=_frozen("-o", "--output", "--compress-program", "-T",
                       "--temporary-directory", "--files0-from", "--random-source")),
    "uniq": _Spec(
        "uniq", short_flags="cdDuiz", short_args="fsw",
        long_flags=_frozen("--count", "--repeated", "--unique", "--ignore-case",
                           "--zero-terminated"),
        long_args=_frozen("--skip-fields", "--skip-chars", "--check-chars")),
    "wc": _Spec(
        "wc", short_flags="lwcmL",
        long_flags=_frozen("--lines", "--words", "--bytes", "--chars",
                           "--max-line-length"),
        denied=_frozen("--files0-from")),
    "head": _Spec(
        "head", short_flags="qvz", short_args="n", digits=True,
        long_flags=_frozen("--quiet", "--silent", "--verbose", "--zero-terminated"),
        long_args=_frozen("--lines"),
        denied=_frozen("-c", "--bytes")),
    "tail": _Spec(
        "tail", short_flags="qvz", short_args="n", digits=True,
        long_flags=_frozen("--quiet", "--silent", "--verbose", "--zero-terminated"),
        long_args=_frozen("--lines"),
        denied=_frozen("-f", "-F", "--follow", "--retry", "--pid", "-s",
                       "--sleep-interval", "-c", "--bytes")),
}


def _later(stage: _Stage) -> list[Piece]:
    """A filter after the search: allowlisted options only, no operand (a file to read,
    or uniq's output file), no token."""
    name, *words = stage.words
    if any(_has_token(word.value) for word in stage.words):
        raise _Deny(TOKEN_OUTSIDE)
    spec = _LATER.get(name.value)
    if spec is None or name.globbed:
        raise _Deny(PIPE_COMMAND)
    options, operands, _ = _parse_options(spec, words)
    if operands:
        raise _Deny(STAGE_OPERAND)
    pieces: list[Piece] = ["command", name.value]
    for option in options:
        _check_option(option)
        pieces += _emit_option(option)
    return pieces


def _first(stage: _Stage, place: _Place) -> list[Piece]:
    words = list(stage.words)
    if words[0].value == "command" and len(words) > 1 and not words[0].globbed:
        words = words[1:]  # emitted anyway
    head, *rest = words
    if head.globbed:
        raise _Deny(SEARCH_COMMAND)
    if re.match(r"[A-Za-z_][A-Za-z0-9_]*=", head.raw):
        raise _Deny(ASSIGNMENT)
    name = head.value
    if name in ("grep", "egrep", "fgrep"):
        pieces = _grep(name, rest, place)
    elif name == "rg":
        pieces = _rg(rest, place)
    elif name == "git":
        pieces = _git_grep(rest, place)
    elif name in ("awk", "gawk", "mawk"):
        pieces = _awk(name, rest, place)
    elif name == "find":
        pieces = _find(rest, place)
    else:
        raise _Deny(SEARCH_COMMAND)
    return ["command", *pieces]


# --------------------------------------------------------------------------------------

def _place(cwd: Path, project: Path) -> _Place:
    project_real = os.path.realpath(project)
    place = _Place(os.path.realpath(cwd), project_real)
    if not place.inside(place.cwd):
        raise _Deny(CWD_OUTSIDE)
    return place


def _decide(command: str, resolve: Callable[[str], str | None], cwd: Path,
            project: Path) -> str:
    if len(command) > MAX_COMMAND_CHARS:
        raise _Deny(TOO_LONG)
    if any((ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F for c in command):
        raise _Deny(CONTROL_CHARACTER)
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        raise _Deny(UNUSUAL_CHARACTER) from None
    place = _place(cwd, project)
    stages = _read(command)
    if any(_near_token(word.value) for stage in stages for word in stage.words):
        raise _Deny(ALTERED_TOKEN)
    plan = [_first(stages[0], place)] + [_later(stage) for stage in stages[1:]]
    patterns = [piece for pieces in plan for piece in pieces if isinstance(piece, _Pattern)]
    values: dict[str, str] = {}
    for pattern in patterns:
        for token in pattern.tokens():
            if token in values:
                continue
            value = resolve(token)
            if value is None:
                raise _Deny(UNRESOLVED)
            if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
                raise _Deny(VALUE_CONTROL)  # grep reads a newline as a second pattern
            values[token] = value
    rendered = []
    for stage, pieces in zip(stages, plan, strict=True):
        text = " ".join(p.render(values) if isinstance(p, _Pattern) else p for p in pieces)
        rendered.append(" ".join([text, *stage.redirects]))
    return " | ".join(rendered)


def rehydrate_command(command: str, resolve: Callable[[str], str | None], *, cwd: Path,
                      project: Path) -> ShellVerdict:
    """Decides whether ``command`` may run with its tokens' real values, and rewrites it.

    ``resolve(token)`` gives a token's value (None: it must not resolve, and the command
    is refused).  ``cwd`` is where the command runs, and every path it names, as well as
    ``cwd`` itself, must lie in ``project``.  A command without any token is returned
    unchanged and allowed (callers call this only when a token is present; there is
    nothing to put back then, and the command runs as the model wrote it).  Text that
    looks like a token but is not exactly one refuses the command: it is never matched
    to a near token.
    """
    has_token = _PATTERN_TOKEN_RE.search(command) is not None
    if _near_token(command):
        return ShellVerdict(False, ALTERED_TOKEN, "")
    if not has_token:
        return ShellVerdict(True, "", command)
    try:
        return ShellVerdict(True, "", _decide(command, resolve, cwd, project))
    except _Deny as deny:
        return ShellVerdict(False, deny.reason, "")

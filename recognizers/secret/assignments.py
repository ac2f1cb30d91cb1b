"""Assignments: the value of a key that names a secret.

In key/value, ``.env``/``export``, JSON, YAML, XML, SAP profile (``PASSWD=``), connection
string (``Password=…;``), command-line flag (``--password x``), ``.netrc``,
``redis.conf`` (``requirepass x``), a table of keys and values (``vault kv get``), a
secret-named ``name`` with its ``value`` (a pod's env, SSM), a key of a few words
(``senha do cofre: X``) and a chat sentence (:mod:`recognizers.secret.chat`).  Which
keys count, and how, is :mod:`recognizers.secret.keys`; which values are none,
:mod:`recognizers.secret.filters`.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Final

from recognizers._text import CAMEL_CASE, LEAF_KEY_MAX, help_listing_value, leaf_key_end
from recognizers.secret.chat import chat_value
from recognizers.secret.common import (
    ENTROPY_SCORE,
    KEYED_SCORE,
    MAX_KEY,
    MAX_VALUE,
    Hit,
    Value,
)
from recognizers.secret.filters import (
    DIGITS_ONLY,
    PROSE_WORD,
    WORDY,
    chave_is_other,
    high_entropy,
    placeholder,
    prose,
)
from recognizers.secret.keys import NOT_SECRET_TAILS, key_class, key_words, value_class
from recognizers.secret.kinds import (
    AWS_SECRET_KEY,
    HIGH_ENTROPY,
    PASSWORD_ASSIGNMENT,
    SECRET_ASSIGNMENT,
    Kind,
)


def keyed_kind(key_kind: str) -> Kind:
    """The kind of a value given to a key of class ``password``, ``secret`` or ``aws``
    (see :func:`recognizers.secret.keys.key_class`)."""
    return {"aws": AWS_SECRET_KEY, "password": PASSWORD_ASSIGNMENT}.get(key_kind,
                                                                         SECRET_ASSIGNMENT)


#: Characters of a key.
_KEY_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/")
_IDENTIFIER: Final = re.compile(r"[a-z_][a-z0-9_]*", re.ASCII)

_ASSIGN: Final = re.compile(r"[ \t]*(?::=|=>|=(?!=)|::(?=[ \t])|:(?![:/]))[ \t]*")
_LINE_PREFIX: Final = re.compile(r"[ \t]*(?:-[ \t]+)?(?:export[ \t]+|set[ \t]+)?[\"']?$")
_YAML_COMMENT: Final = re.compile(r"[ \t]+#.*$")


def _quoted(text: str, start: int) -> Value | None:
    """The inside of a quoted string starting at ``start`` (``"``, ``'`` or ``\\"``),
    closed within MAX_VALUE characters on its line.

    Inside ``"`` or ``'``, a backslash escapes the character after it (a line break
    too), and a quote right after a backslash closes nothing.  Inside ``\\"`` (a JSON
    string's escaped quotes) the first ``\\"`` closes.  Read by a pattern: a walk in
    Python took 40 µs per value of a JSON debug log (tests/unit/test_secret_quoted.py
    holds that walk and proves the same answers).
    """
    if text.startswith('\\"', start):
        inner = start + 2
        limit = min(len(text), inner + MAX_VALUE + 1)
        close = text.find('\\"', inner, limit + 1)
        if close < 0 or text.find("\n", inner, close) >= 0:
            return None
        return Value(inner, close) if close > inner else None
    quote = text[start]
    body = _QUOTED_BODY.get(quote)
    if body is None:
        return None
    inner = start + 1
    limit = min(len(text), inner + MAX_VALUE + 1)
    end = body.match(text, inner, limit).end()  # type: ignore[union-attr]  # matches ""
    if end < limit and text[end] == quote:
        return Value(inner, end) if end > inner else None
    return None


#: A quoted string's inside up to its closing quote (see _quoted): escape pairs, a quote
#: after a backslash, anything but a backslash, a line break or the quote; possessive.
_QUOTED_BODY: Final = {quote: re.compile(rf"(?:\\.|(?<=\\){quote}|[^\\\n{quote}])*+",
                                         re.DOTALL)
                       for quote in "\"'"}


_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}


_UNQUOTED_RUN: Final = re.compile(r"[^ \t\r\n\"'`;&,<>]*")


_RUNS: Final = threading.local()


def _run_end(text: str, start: int) -> int:
    """Where the run of value characters from ``start`` ends.  The last run found is
    remembered (per thread), so keys packed into one long run ("key=key=key=…") cost
    one scan of it, not one per key."""
    last = getattr(_RUNS, "last", None)
    if last is not None and last[0] is text and last[1] <= start < last[2]:
        return int(last[2])
    run = _UNQUOTED_RUN.match(text, start)
    end = run.end() if run else start
    _RUNS.last = (text, start, end)
    return end


def _unquoted(text: str, start: int) -> Value | None:
    position = _run_end(text, start)
    if position - start > MAX_VALUE:
        return None  # longer than any value
    # A closing bracket of the structure around the value (not one it opened itself).
    while position > start and text[position - 1] in _CLOSERS \
            and _CLOSERS[text[position - 1]] not in text[start:position - 1]:
        position -= 1
    return Value(start, position) if position > start else None


def _rest_of_line(text: str, start: int) -> Value | None:
    # The end of the text counts as a line break (the prefiltered path adds one).
    window = start + MAX_VALUE + _LINE_SLACK
    end = text.find("\n", start, window)
    if end < 0:
        if window < len(text):
            return None  # a line longer than any value
        end = len(text)
    line = text[start:end]
    comment = _YAML_COMMENT.search(line)
    if comment:
        line = line[:comment.start()]
    line = line.rstrip(" \t\r,;")
    if len(line) > MAX_VALUE:
        return None
    if _NEXT_KEY.search(line):
        # More fields follow on the line ("password: x9 user: bob"): the first word only.
        line = line.split(None, 1)[0] if line.strip() else ""
        return Value(start, start + len(line)) if line else None
    return Value(start, start + len(line)) if line else None


#: Blanks and punctuation a line may hold after its longest value.
_LINE_SLACK: Final = 64
_NEXT_KEY: Final = re.compile(r"(?:^|\s)[A-Za-z_][\w.\-]*(?::\s|=)")


def _value_after(text: str, key_start: int, key_end: int) -> tuple[Value, str] | None:
    """The value a key at ``text[key_start:key_end]`` is given, with its syntax name."""
    size = len(text)
    position = key_end
    # XML element: <password>value</password>
    if key_start > 0 and text[key_start - 1] == "<" and text.startswith(">", key_end):
        close = text.find("<", key_end + 1, key_end + 2 + MAX_VALUE)
        if close > key_end + 1:
            inner = text[key_end + 1:close]
            stripped = inner.strip()
            if stripped and "\n" not in stripped:
                offset = inner.index(stripped)
                return Value(key_end + 1 + offset, key_end + 1 + offset + len(stripped)), "xml"
        return None
    opening = text[key_start - 1] if key_start > 0 else " "
    if opening in "\"'" and text.startswith(opening, position):
        position += 1
    elif opening == '"' and text.startswith('\\"', position):
        position += 2
    separator = _ASSIGN.match(text, position)
    if separator is None or separator.end() == position:
        # A key of a few words (Portuguese puts them after): "senha do cofre: X".
        phrase = _PHRASE_KEY.match(text, position, min(size, position + 64))
        if phrase is not None and phrase.end() < size:
            if _phrase_names_other(text[key_start:key_end], phrase.group()):
                return None
            value = _unquoted(text, phrase.end())
            written = text[value.start:value.end] if value is not None else ""
            if value is not None and not written.isalpha() \
                    and not DIGITS_ONLY.fullmatch(written):
                return value, "phrase"  # (not "Password Last Changed: 2024-01-01")
        # A sentence of a chat or a ticket: "a senha do wifi é X", "the password is X".
        said = chat_value(text, key_start, key_end)
        if said is not None:
            return said, "chat"
        # A value after blanks: a command-line flag (--password value), a .netrc entry
        # (login x password y), redis.conf (requirepass x), SQL (WITH PASSWORD 'x'), a
        # table of keys and values (vault kv get: "password    x").
        gap = _BLANKS.match(text, position)
        if gap is not None and gap.end() < size and _space_separated(
                text, key_start, key_end, gap.end() - position):
            start = gap.end()
            value = _quoted(text, start) if text[start] in "\"'" else _unquoted(text, start)
            return (value, "spaced") if value else None
        return None
    start = separator.end()
    if start >= size:
        return None
    if text[start] in "\"'" or text.startswith('\\"', start):
        value = _quoted(text, start)
        return (value, "quoted") if value else None
    colon = ":" in separator.group()
    if colon and _starts_line(text, key_start):
        if text[start] in "|>":
            return None  # a YAML block scalar: rare for a password, left to the K8s rule
        value = _rest_of_line(text, start)
        if value is not None and prose(text[value.start:value.end]):
            return None  # "Senha: alterada com sucesso", "Token: expirado, gere outro"
        return (value, "line") if value else None
    value = _unquoted(text, start)
    if value is not None and not colon and separator.group().startswith((" ", "\t")) \
            and separator.group().endswith((" ", "\t")) \
            and _CODE_VALUE.fullmatch(text, value.start, value.end):
        return None  # code: token = self.stream.current, api_key = config.value
    if value is not None and _identifier_value(text, key_start, key_end, value,
                                               separator.group()):
        return None  # code: tokenData.packages = packages, token = tokenReg;
    if value is not None and colon and text[value.start:value.end].removesuffix(".").isalpha():
        # A word after a colon in a sentence: "senha: incorreta", "token: expirado", a
        # change log's "* tests/private-key-format.scm: Rename."
        return None
    return (value, "inline") if value else None


#: Words that name a secret's owner after a preposition ("Password for server: x",
#: "Password for user: x", "Token de acesso: x"), though a key's last segment would say
#: it holds something else.
_PHRASE_OWNERS: Final = frozenset({
    "server", "host", "user", "username", "usuario", "login", "email", "service", "endpoint",
    "vault", "store", "keystore", "truststore", "storage", "mount", "acesso", "url", "uri",
})
#: Key words of Portuguese keys, which put their qualifiers after them ("Senha email: x").
_HEAD_FIRST: Final = ("senha", "chave", "segredo", "credencia")


def _phrase_names_other(key: str, phrase: str) -> bool:
    """Whether the words after a key name something about the secret rather than the
    secret.  An English compound's last word is its head, as a key's last segment is
    ("Signature Algorithm: sha256WithRSAEncryption", "Token Type: Bearer", "Secret
    Name: prod/db", "Token Last Used: 2024-05-01", "Password Server Host: db-01").
    After a preposition the words name the secret's owner ("Password for server: x"),
    unless the last of them names an attribute ("Token of type: x", "Password of user
    ID: x").  A Portuguese key's head comes first ("Senha email: x")."""
    words = phrase.replace(":", " ").lower().split()
    if not words or key.lower().startswith(_HEAD_FIRST):
        return False
    if words[0] in _PREPOSITIONS:
        return words[-1] in NOT_SECRET_TAILS and words[-1] not in _PHRASE_OWNERS
    return key_class("_".join([key, *words])) is None


#: Words that put a key's owner after it: "password for server", "senha do usuário".
_PREPOSITIONS: Final = frozenset({"for", "of", "to", "on", "at", "in", "de", "do", "da", "dos",
                                  "das", "para", "no", "na", "em", "pro", "pra"})


_BLANKS: Final = re.compile(r"[ \t]{1,32}")
_PHRASE_KEY: Final = re.compile(
    r"[ \t]{1,4}(?:[^\W\d_]{1,20}[ \t]{1,4}){0,2}[^\W\d_]{2,20}[ \t]*:[ \t]{1,8}")
#: An attribute chain: in code (key = value, blanks around "="), a reference.
_CODE_VALUE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


#: A statement's end glued to its value, then the line's end (``token.prev = prev;``).
_STATEMENT_END: Final = re.compile(r";[ \t]*(?:\r?\n|\Z)")


def _identifier_value(text: str, key_start: int, key_end: int, value: Value,
                      separator: str) -> bool:
    """The value is a name of code, not a secret, after ``=`` between blanks: an
    attribute given the variable of its own name (``tokenData.packages = packages``,
    ``exports.X509KeyUsageExtension = X509KeyUsageExtension``), or a name in camel case
    ending a statement with a semicolon glued to it (``token = tokenReg;``).  An INI or
    properties file's ``password = correctHorse`` or ``api_key = key`` is a value."""
    start, end = value.start, value.end
    written = text[start:end]
    if ":" in separator or not (separator.startswith((" ", "\t"))
                                and separator.endswith((" ", "\t"))):
        return False
    if CAMEL_CASE.fullmatch(written) is not None and _STATEMENT_END.match(text, end):
        return True
    head = key_start
    while head > max(0, key_start - MAX_KEY) and (text[head - 1].isalnum()
                                                   or text[head - 1] in "_."):
        head -= 1
    key = text[head:key_end]
    owner, dot, last = key.rpartition(".")
    return bool(owner) and bool(dot) and written == last


#: Keys of configuration files that take their value after a blank.
_SPACED_KEYS: Final = frozenset({"requirepass", "masterauth", "rootpw", "bindpw", "bind_pw"})
#: A SQL statement that sets a role's password (PostgreSQL, Oracle, MySQL).
_SQL_ROLE: Final = re.compile(r"(?i)\b(?:create|alter)[ \t]+(?:user|role|login)\b[^;\n]*\Z")


def _space_separated(text: str, key_start: int, key_end: int, blanks: int) -> bool:
    key = text[key_start:key_end]
    if key.startswith("--"):
        return True
    lower = key.lower()
    value_at = key_end + blanks
    if lower in ("password", "passwd"):
        if _NETRC_LOGIN.search(text, max(0, key_start - MAX_KEY * 2), key_start):
            return True
        if text[value_at] in "'\"" and _SQL_ROLE.search(text, max(0, key_start - 200),
                                                          key_start):
            return True  # CREATE ROLE app WITH LOGIN PASSWORD 'x'
    if not _starts_line(text, key_start):
        return False
    if lower in _SPACED_KEYS:
        return True  # redis.conf requirepass, slapd rootpw
    # A table of keys and values (vault kv get): two blanks or more, then one value
    # that is not a word (PAM's "password  sufficient  pam_unix.so" has more fields).
    if blanks < 2 or key_class(key) not in ("password", "secret", "aws"):
        return False
    line_end = text.find("\n", value_at, value_at + MAX_VALUE + _LINE_SLACK)
    rest = text[value_at:line_end if line_end >= 0 else value_at + MAX_VALUE + _LINE_SLACK]
    fields = rest.split()
    return len(fields) == 1 and not fields[0].isalpha()


def _starts_line(text: str, key_start: int) -> bool:
    """Only blanks, a list dash, ``export``/``set`` or a quote stand before the key on
    its line (read back at most MAX_KEY characters), on a text's first line maybe after a
    JSON leaf's key (see _line_body)."""
    near = max(0, key_start - MAX_KEY)
    line_start = text.rfind("\n", near, key_start) + 1
    if line_start == 0 and near > 0:
        return False
    if _LINE_PREFIX.fullmatch(text, line_start, key_start) is not None:
        return True
    # A text's first line, after a JSON leaf's key: a tool output's "password: x".
    return line_start == 0 and _LINE_PREFIX.fullmatch(
        text, _line_body(text, 0, key_start), key_start) is not None


#: A key that is the value of a name field, and the value field that follows it:
#: ``- name: DB_PASSWORD`` / ``value: x`` (a pod's env), ``{"name": "X", "value": "x"}``,
#: ``{"Name": "/prod/db/password", "Value": "x"}`` (SSM), ``<add key="ApiKey" value="x"/>``.
_NAME_FIELD: Final = re.compile(
    r"(?:(?:name|Name|NAME)[\"']?[ \t]*[:=][ \t]*[\"']?|(?:key|Key|KEY)[\"']?[ \t]*[:=][ \t]*[\"'])"
    r"[./]{0,2}\Z")
_VALUE_FIELD: Final = re.compile(
    r"[\"']?[ \t]*[,;]?[ \t]*(?:\r?\n[ \t]{0,64}(?:-[ \t]+)?)?[\"']?(?:value|Value|VALUE)[\"']?"
    r"[ \t]*[:=][ \t]*")


#: Where a name's object or list item ends: a brace, a new item, another name.
_OBJECT_END: Final = re.compile(r"[{}\[\]]|\n[ \t]*-[ \t]|(?i:[\"'\s,]name[\"']?[ \t]*[:=])")
_VALUE_FIELD_ANYWHERE: Final = re.compile(
    r"(?<![\w-])[\"']?(?:value|Value|VALUE)[\"']?[ \t]*[:=][ \t]*")


def _named_value(text: str, key_start: int, key_end: int) -> tuple[Value, str] | None:
    if not _NAME_FIELD.search(text, max(0, key_start - 16), key_start):
        return None
    field = _VALUE_FIELD.match(text, key_end, min(len(text), key_end + 128))
    if field is None:
        # Other fields first (SSM: "Name", "Type", "Value"): within the same object or
        # list item, before any other name.
        reach = min(len(text), key_end + 160)
        stop = _OBJECT_END.search(text, key_end, reach)
        field = _VALUE_FIELD_ANYWHERE.search(text, key_end, stop.start() if stop else reach)
    if field is None or field.end() >= len(text):
        return None
    start = field.end()
    if text[start] in "\"'" or text.startswith('\\"', start):
        value = _quoted(text, start)
    elif "\n" in field.group() or ":" in field.group():
        value = _rest_of_line(text, start)
    else:
        value = _unquoted(text, start)
    return (value, "named") if value else None


_NETRC_LOGIN: Final = re.compile(r"(?:machine\s+\S+|default)\s+login\s+\S+\s+$", re.ASCII)


_KEY_CHARS_TEXT: Final = "".join(sorted(_KEY_CHARS))


def _key_bounds(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The key holding the word at ``start:end``; None when it runs on for more than
    MAX_KEY characters on either side."""
    before = text[max(0, start - MAX_KEY - 1):start]
    left = start - (len(before) - len(before.rstrip(_KEY_CHARS_TEXT)))
    if start - left > MAX_KEY:
        return None
    after = text[end:end + MAX_KEY + 1]
    right = end + (len(after) - len(after.lstrip(_KEY_CHARS_TEXT)))
    if right - end > MAX_KEY:
        return None
    # Dots and slashes end a key (a sentence's full stop, a path's separator).
    while right > end and text[right - 1] in "./-":
        right -= 1
    while left < start and text[left] in "./":
        left += 1
    return left, right


def assignment(text: str, word_start: int, word_end: int) -> tuple[int, int, Hit | None]:
    """The key holding the word at ``word_start`` and the finding of its value, if any."""
    bounds = _key_bounds(text, word_start, word_end)
    if bounds is None:
        return word_start, word_end, None
    key_start, key_end = bounds
    key = text[key_start:key_end]
    found = _assignment_of(text, key_start, key_end, key)
    return key_start, key_end, found


#: The verdicts a test driver writes at the start of a line, before a colon and the
#: test's name: automake's test-suite logs (PASS, FAIL, XFAIL, XPASS, SKIP) and
#: DejaGnu's summaries (those and KPASS, KFAIL, UNRESOLVED, UNTESTED, UNSUPPORTED).
#: ERROR, which both write too, is left out: any log writes it.
_VERDICT: Final = re.compile(
    r"(?:PASS|FAIL|XFAIL|XPASS|KPASS|KFAIL|SKIP|UNRESOLVED|UNTESTED|UNSUPPORTED):[ \t]")
#: A line giving a login, as the line before or after a password's writes it.
_USER_FIELD: Final = re.compile(r"[ \t]*(?i:user(?:_?name)?|login|usu[aá]rio)[ \t]*[:=]")
#: A test's verdict stands among others: at least this many verdict lines in a row, the
#: ``PASS:`` line one of them (a list of credentials puts a ``USER:`` line between its
#: ``PASS:`` lines; a summary lists one verdict per line).
VERDICT_RUN: Final = 3
#: The longest verdict line read around a ``PASS:`` line (a test's name is short).
VERDICT_LINE_MAX: Final = 160


def _line_body(text: str, line_start: int, line_end: int) -> int:
    """Where the line of ``text`` from ``line_start`` starts its own words: at
    ``line_start``, or, on a text's first line, after a JSON leaf's key written before it
    (``stdout: PASS: t1``: a hook's tool output as the engine reads it), when that key is
    no login's nor secret's."""
    if line_start:
        return line_start
    key_end = leaf_key_end(text, line_end)
    if not key_end or key_class(text[:key_end - 2]) is not None \
            or _USER_FIELD.match(text, 0, key_end) is not None:
        return 0
    return key_end


def _verdict_line(text: str, line_start: int, line_end: int) -> bool:
    """Whether the line of ``text`` from ``line_start`` to ``line_end`` is a verdict."""
    return _VERDICT.match(text, _line_body(text, line_start, line_end), line_end) is not None


def _test_verdict(text: str, key_start: int, key_end: int) -> bool:
    """``PASS: name`` at the very start of a line that is one of VERDICT_RUN verdict lines
    in a row or more (lines of at most VERDICT_LINE_MAX characters, as automake's and
    DejaGnu's logs list their tests): a test-suite log's verdict, no password.  A line
    alone, or next to a login's line (``USER: x`` / ``PASS: y``), is a password still.
    A text's first line may start after a JSON leaf's key (see _line_body)."""
    if text[key_start:key_end] != "PASS" or _VERDICT.match(text, key_start) is None:
        return False
    if key_start and text[key_start - 1] != "\n" and (
            key_start > LEAF_KEY_MAX or "\n" in text[:key_start]
            or _line_body(text, 0, key_start) != key_start):
        return False
    end = text.find("\n", key_end, key_start + VERDICT_LINE_MAX)
    if end < 0 and len(text) > key_start + VERDICT_LINE_MAX:
        return False  # a line longer than a verdict's
    before = ""
    if key_start:
        before_start = text.rfind("\n", max(0, key_start - 1 - VERDICT_LINE_MAX),
                                  key_start - 1) + 1
        before = text[_line_body(text, before_start, key_start - 1):key_start - 1]
    after = text[end + 1:text.find("\n", end + 1, end + 1 + VERDICT_LINE_MAX)] \
        if end >= 0 else ""
    if _USER_FIELD.match(before) or _USER_FIELD.match(after):
        return False  # USER: admin / PASS: x: a login's password, among verdicts or not
    run = 1
    # The verdict lines right before it, then right after it.
    start = key_start
    while run < VERDICT_RUN and start > 0:
        previous = text.rfind("\n", max(0, start - 1 - VERDICT_LINE_MAX), start - 1) + 1
        if (previous == 0 and start - 1 > VERDICT_LINE_MAX) \
                or not _verdict_line(text, previous, start - 1):
            break
        run, start = run + 1, previous
    while run < VERDICT_RUN and end >= 0:
        following = end + 1
        end = text.find("\n", following, following + VERDICT_LINE_MAX)
        if not _verdict_line(text, following, end if end >= 0 else len(text)):
            break
        run += 1
    return run >= VERDICT_RUN


def _assignment_of(text: str, key_start: int, key_end: int, key: str) -> Hit | None:
    kind = key_class(key)
    if kind is None:
        return None
    if kind == "password" and _test_verdict(text, key_start, key_end):
        return None
    if key_start > 0 and text[key_start - 1] == "[" and text.startswith(":", key_end):
        return None  # a placeholder of the hash operator: [SECRET:9f86d081884c7d65]
    after = _named_value(text, key_start, key_end) or _value_after(text, key_start, key_end)
    if after is None:
        return None
    span, _syntax = after
    if key.startswith("-") and help_listing_value(text, key_start, key_end, span.start,
                                                  span.end):
        return None
    value = text[span.start:span.end]
    verdict = _verdict(key, value)
    if verdict is None:
        return None
    if kind != "weak" and "chave" in key.lower() and chave_is_other(text, key_start, value):
        return None
    return Hit(span.start, span.end, *verdict)


#: How many (key, value) verdicts :func:`_verdict` remembers: the accepts of a block's
#: key words (a megabyte of JSON debug lines holds about 15,000) are asked before the
#: recognizer reads the same words.
VERDICT_CACHE_SIZE: Final = 1 << 15


@functools.lru_cache(maxsize=VERDICT_CACHE_SIZE)
def _verdict(key: str, value: str) -> tuple[Kind, float] | None:
    """The kind and score of ``value`` given to ``key`` (a key of some class), or None
    when it is none: what depends on the two texts alone, remembered.

    The prefilter's key trigger asks this of each key it hits and the recognizer asks
    again of the same values; logs repeat their values too (a session in each request
    line).  The values stay in this process's memory only, like the text being redacted
    (as the check digits' cache does: recognizers.checksums)."""
    kind = key_class(key)
    if kind is None or placeholder(value) or PROSE_WORD.fullmatch(value.strip()):
        return None
    if _IDENTIFIER.fullmatch(value) and value_class(value) in ("password", "secret", "aws"):
        return None  # a variable named after the secret: password=db_password
    if value.lower() == key.lower().lstrip("-"):
        return None
    if kind == "weak":
        if not high_entropy(value) or WORDY.search(value):
            return None
        return HIGH_ENTROPY, ENTROPY_SCORE
    return keyed_kind(kind), KEYED_SCORE


_KEY_RUN: Final = re.compile(r"[A-Za-z0-9_./\-]+")


#: How far past its hit the key trigger's accept looks for the word it judges
#: (recognizers.secret.recognizer._accept_key_word).
ACCEPT_SLACK: Final = 8


def key_values(text: str, accepted: Sequence[tuple[int, int]] | None = None) -> Iterator[Hit]:
    """The values given to keys that name a secret.

    ``accepted``: the key trigger's hits in ``text`` (sorted by start) that its accept
    accepted or was not asked about (redactor.candidates._merged: a hit inside a
    region joins it unasked), from the prefilter that scanned every key word of the
    text.  A word no such hit reaches was judged to give nothing (its hit's accept
    asked :func:`assignment` about this very word): only its key's end is read, which
    later words need.  (The trigger's words include every word of KEY_WORD, and a hit stands
    at each word's start: python's ``re`` and RE2 are restarted at every position,
    and hyperscan reports each end, with its leftmost start.)"""
    done_to = -1
    pending = iter(accepted) if accepted is not None else None
    reach = -1  # the furthest a word may end and still be one an accepted hit judged
    upcoming = next(pending, None) if pending is not None else None
    for word in key_words(text):
        if word.start() < done_to:
            continue
        if pending is not None:
            while upcoming is not None and upcoming[0] <= word.start():
                reach = max(reach, upcoming[1] + ACCEPT_SLACK)
                upcoming = next(pending, None)
        if pending is not None and word.end() > reach:
            # Judged to give nothing: only where its key ends is read.
            bounds = _key_bounds(text, word.start(), word.end())
            key_end, found = (bounds[1] if bounds is not None else word.end()), None
        else:
            _, key_end, found = assignment(text, word.start(), word.end())
        done_to = key_end
        if key_end == word.end() and found is None:
            # A run of key characters too long for a key: none of its words is one.
            run = _KEY_RUN.match(text, word.start())
            done_to = run.end() if run else key_end
        if found is not None:
            yield found


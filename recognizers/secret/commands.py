"""Passwords on command lines, as a shell history or a migration script holds them:
``mysql -p…``, ``sshpass -p``, ``curl -u user:…``, ``sqlplus user/…@db``, ``redis-cli
-a``, ``keytool -storepass`` (every one), ``docker login -p``, SAP's ``sapcontrol`` and
``hdbuserstore``, Apache's ``htpasswd -b``, Oracle JDBC URLs and SQL's ``IDENTIFIED BY``.
They are reported as :data:`~recognizers.secret.kinds.PASSWORD_ASSIGNMENT`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from recognizers.secret.common import KEYED_SCORE, Hit
from recognizers.secret.filters import PROSE_WORD, placeholder
from recognizers.secret.kinds import PASSWORD_ASSIGNMENT

#: The longest password of a command line (``mysql -p…``, ``IDENTIFIED BY '…'``).
MAX_COMMAND_VALUE: Final = 512

#: ``mysql -pSecret`` (the password glued to -p), ``sshpass -p x`` and SQL's
#: ``IDENTIFIED BY 'x'``: passwords a shell history or a migration script holds.
_MYSQL_P: Final = re.compile(
    r"(?<![\w-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|hdbsql)(?![\w-])"
    r"[^\n|;&]{0,200}?[ \t]-p(?=[^\s-])('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|\S{1,512})",
    re.ASCII)
#: Other clients with a password flag: (command, flag).
_CLIENT_FLAGS: Final = (
    ("redis-cli", "-a"), ("hdbsql", "-p"), ("sqlcmd", "-P"), ("mongo|mongosh", "-p"),
    ("ldapsearch|ldapmodify|ldapadd|ldapdelete|ldapwhoami", "-w"),
    ("keytool", "-(?:src|dest|new)?(?:store|key)?pass"),
    ("docker[ \\t]+login|podman[ \\t]+login", "-p"),  # docker run -p is a port
)
_CLIENT_PASSWORD: Final = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?:{c})(?![\\w-])[^\n|;&]{{0,200}}?[ \t]{f}"
                                 for c, f in _CLIENT_FLAGS)
    + r")[ \t]{1,8}('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|[^\s'\"]{1,512})", re.ASCII)
_CURL_USER: Final = re.compile(
    r"(?<![\w-])curl(?![\w-])[^\n|;&]{0,200}?[ \t](?:-u|--user)[ \t]{0,8}['\"]?"
    r"[^\s:'\"]{1,64}:([^\s'\"]{1,512})", re.ASCII)
_SQLPLUS: Final = re.compile(r"(?<![\w-])sqlplus(?:64)?[ \t]{1,8}[^\s/@]{1,64}/([^\s@]{1,512})",
                             re.ASCII)
#: SAP: sapcontrol -user <sid>adm <password>; hdbuserstore SET <key> <env> <user> <password>.
_SAPCONTROL: Final = re.compile(
    r"(?<![\w-])sapcontrol(?![\w-])[^\n|;&]{0,200}?[ \t]-user[ \t]{1,8}\S{1,64}[ \t]{1,8}"
    r"('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|[^\s'\"-][^\s'\"]{0,511})", re.ASCII)
_HDBUSERSTORE: Final = re.compile(
    r"(?i)(?<![\w-])hdbuserstore(?![\w-])[^\n|;&]{0,64}?[ \t]SET[ \t]{1,8}\S{1,64}[ \t]{1,8}"
    r"\S{1,256}[ \t]{1,8}\S{1,64}[ \t]{1,8}('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|\S{1,512})",
    re.ASCII)
#: jdbc:oracle:thin:scott/tiger@//db:1521/ORCL
_JDBC_ORACLE: Final = re.compile(r"jdbc:oracle:[a-z]{1,8}:[^\s/@:]{1,64}/([^\s@]{1,512})@",
                                 re.ASCII)
#: keytool takes several passwords on one line: the second and later ones.
_KEYTOOL_MORE: Final = re.compile(
    r"(?<![\w-])keytool(?![\w-])[^\n|;&]{0,400}?[ \t]-(?:src|dest|new)?(?:store|key)?pass"
    r"[ \t]{1,8}\S{1,512}[^\n|;&]{0,400}?[ \t]-(?:src|dest|new)?(?:store|key)?pass[ \t]{1,8}"
    r"('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|[^\s'\"]{1,512})", re.ASCII)
_SSHPASS: Final = re.compile(
    r"(?<![\w-])sshpass[ \t]+-p[ \t]*('[^'\n]{1,512}'|\"[^\"\n]{1,512}\"|\S{1,512})",
    re.ASCII)
_IDENTIFIED_BY: Final = re.compile(
    r"(?i)(?<![\w])(?:create|alter|grant)[ \t]{1,16}[^\n;]{0,200}?"
    r"(?<![\w])identified[ \t]{1,16}(?:with[ \t]{1,16}\w{1,64}[ \t]{1,16})?by[ \t]{1,16}"
    r"(?:password[ \t]{1,16})?(?:(['\"])([^'\"\n]{1,512})\1|([^\s'\";]{1,512}))", re.ASCII)
#: Apache's htpasswd with its password on the command line (batch mode, ``-b``): its
#: flags (``-b -c``, ``-nbB``, ``-B -C 12``, then maybe ``--``), then the file (none with
#: ``-n``), the user and the password (see _htpasswd_password).  An argument is quoted,
#: or runs to a blank or a character the shell reads (``|;&<>``, a quote), a backslash
#: taking the character after it (``pass\ word``) unless it starts an escape of the
#: string around the command (``\n``, ``\"`` in a JSON log).
_SHELL_ARGUMENT: Final = (r"'[^'\n]{1,512}'|\"[^\"\n]{1,512}\""
                          r"|(?:[^\s'\"|;&<>\\]|\\[^nrtu\"\\\n]){1,512}")
_HTPASSWD: Final = re.compile(
    r"htpasswd(?:\.exe)?(?![\w-])"
    r"(?P<flags>(?:[ \t]+-[A-Za-z0-9]{1,8}(?:[ \t]+[0-9]{1,6}(?=[ \t]))?){1,6})"
    rf"(?:[ \t]+--(?=[ \t]))?[ \t]+(?P<a>{_SHELL_ARGUMENT})[ \t]+(?P<b>{_SHELL_ARGUMENT})"
    rf"(?:[ \t]+(?P<c>{_SHELL_ARGUMENT}))?", re.ASCII)
_HTPASSWD_WORD: Final = re.compile("htpasswd")
_COMMAND_WORDS: Final = ("mysql", "mariadb", "sshpass", "identified", "IDENTIFIED", "Identified",
                         "redis-cli", "hdbsql", "sqlcmd", "mongo", "ldap", "keytool", "docker",
                         "curl", "sqlplus", "podman", "sapcontrol", "hdbuserstore",
                         "jdbc:oracle", "htpasswd")


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and text[start] in "'\"" and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


#: Each pattern with the words one of which every match of it starts with (any case for
#: the caseless one): a pattern is tried only where one stands, so that a log whose
#: user agents say ``curl/8.5.0`` is not read ten times over.  (Where two of these words
#: overlap, ``hdbsqlcmd``, the later one follows a letter, which no match's start does.)
_PATTERN_WORDS: Final = (
    (_MYSQL_P, re.compile("mysql|mariadb|hdbsql")),
    (_SSHPASS, re.compile("sshpass")),
    (_CLIENT_PASSWORD, re.compile("redis-cli|hdbsql|sqlcmd|mongo|ldap|keytool|docker|podman")),
    (_CURL_USER, re.compile("curl")),
    (_SQLPLUS, re.compile("sqlplus")),
    (_SAPCONTROL, re.compile("sapcontrol")),
    (_HDBUSERSTORE, re.compile("(?i)hdbuserstore")),
    (_JDBC_ORACLE, re.compile("jdbc:oracle")),
    (_KEYTOOL_MORE, re.compile("keytool")),
)
_IDENTIFIED_WORD: Final = re.compile("(?i)identified")


def _matches_at(pattern: re.Pattern[str], words: re.Pattern[str],
                text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose matches start with ``words``: the
    same matches, tried only where a word starts (a scan for a literal instead of a
    look-behind at every character)."""
    done = 0
    for word in words.finditer(text):
        if word.start() < done:
            continue
        match = pattern.match(text, word.start())
        if match is not None:
            done = match.end()
            yield match


def may_hold_command_password(text: str, start: int, end: int) -> bool:
    """The command word at ``text[start:end]`` may open a password on its command line:
    a pattern starting with that word matches there (an accept for the prefilter; a user
    agent's ``curl/8.5.0`` gives none).  SQL's ``IDENTIFIED BY``, whose match starts
    before the word, is always accepted."""
    if _IDENTIFIED_WORD.match(text, start, end) is not None:
        return True
    if _HTPASSWD_WORD.match(text, start) is not None:
        return _htpasswd_password(text, start) is not None
    return any(words.match(text, start) is not None and pattern.match(text, start) is not None
               for pattern, words in _PATTERN_WORDS)


def _htpasswd_password(text: str, start: int) -> tuple[int, int] | None:
    """Where the password of an ``htpasswd`` command at ``start`` stands, when its flags
    ask for batch mode (``-b``): the third argument after them, the second with ``-n``
    (which writes to the terminal instead of a file).  Written unquoted, it must look
    like a password, as in a chat sentence: letters mixed with digits or symbols, or
    four digits or more.  ``htpasswd -nb prints results to stdout`` is prose about the
    command, ``htpasswd -nb {{ user }} {{ password }}`` a template."""
    if start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
        return None
    match = _HTPASSWD.match(text, start)
    if match is None:
        return None
    letters = "".join(flag[1:] for flag in match.group("flags").split() if flag[0] == "-")
    if "b" not in letters:
        return None
    password = "b" if "n" in letters else "c"
    value = match.group(password)
    if value is None:
        return None
    if value[0] not in "'\"" and not _password_like(value.replace("\\", "")):
        return None
    return match.span(password)


def _password_like(value: str) -> bool:
    """A word that may be a password where a sentence might stand: letters mixed with
    digits or symbols, or four digits or more (never a word alone)."""
    letters = any(c.isalpha() for c in value)
    if letters:
        return any(not c.isalpha() for c in value)
    return value.isdigit() and len(value) >= 4


def command_passwords(text: str) -> Iterator[Hit]:
    """The passwords given to clients on their command lines."""
    if not any(word in text for word in _COMMAND_WORDS):
        return
    for pattern, words in _PATTERN_WORDS:
        for match in _matches_at(pattern, words, text):
            start, end = _unquote(text, *match.span(1))
            if end > start and not placeholder(text[start:end]) \
                    and not PROSE_WORD.fullmatch(text[start:end]):
                # (prose about the flag: "sshpass -p option is unsafe")
                yield Hit(start, end, PASSWORD_ASSIGNMENT, KEYED_SCORE)
    if "htpasswd" in text:
        for word in _HTPASSWD_WORD.finditer(text):
            found = _htpasswd_password(text, word.start())
            if found is None:
                continue
            start, end = _unquote(text, *found)
            if end > start and not placeholder(text[start:end]):
                yield Hit(start, end, PASSWORD_ASSIGNMENT, KEYED_SCORE)
    if _IDENTIFIED_WORD.search(text) is None:
        return
    for match in _IDENTIFIED_BY.finditer(text):
        group = 2 if match.group(2) is not None else 3
        if not placeholder(match.group(group)) and not PROSE_WORD.fullmatch(match.group(group)):
            yield Hit(match.start(group), match.end(group), PASSWORD_ASSIGNMENT, KEYED_SCORE)


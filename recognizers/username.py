"""USERNAME: the login names of people, as they appear in logs and tool output.

Two recognizers share the entity:

* ``UsernameRecognizer`` finds names by the shape around them: key/value pairs in
  Portuguese and English, SAP user fields and messages, ``uid=1000(x)``, command
  flags, home directories, ``x@host`` prompts and ssh targets.  Only the name itself
  is reported, not the key or the path around it.
* ``KnownUsernameRecognizer`` finds the names of a configured list wherever they
  stand as whole words, case and accent insensitively.

Service accounts are not people: ``root``, ``DDIC``, ``<sid>adm`` and the like are
left alone unless the caller switches that allowlist off.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import regex
from presidio_analyzer import EntityRecognizer, RecognizerResult

from recognizers._text import (
    CAMEL_CASE,
    QUOTE,
    ContextWords,
    fold,
    help_listing_value,
    is_latin1,
    literal_database,
    longest_first,
)
from recognizers.base import FLAGS, LABEL_PREFIX_CHARS, RawContextMixin, make_result
from recognizers.generic import not_a_person_address
from recognizers.lexicon import is_common_word, is_portuguese_adjective
from recognizers.prefilter import Prefilter, Trigger, literal_pattern

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.catalogue import PackOptions

__all__ = [
    "DEFAULT_SERVICE_ACCOUNTS",
    "KnownUsernameRecognizer",
    "ServiceAccounts",
    "UsernameRecognizer",
    "login_spans",
    "pack_recognizers",
]

ENTITY: Final = "USERNAME"
#: Metadata key of a result whose name may be spread to its other occurrences, and how:
#: the same token exactly (Unix, most systems) or in any case (SAP, Windows).
SPREAD_KEY: Final = "spread"
SPREAD_EXACT: Final = "exact"
SPREAD_CASELESS: Final = "caseless"
#: Lists longer than this are not compiled into prefilter triggers (see
#: KnownUsernameRecognizer.prefilter).
MAX_COMPILED_NAMES: Final = 16
#: Characters around a listed name that its recognizer reads: a window cutting a
#: longer token (``abc___joao``) could show a part of it as a whole word.
KNOWN_MARGIN: Final = 256
#: White space as ``str.split`` and ``str.strip`` see it, spelled out: hyperscan's
#: ``\s`` leaves out U+001C-U+001F.
_SPACES: Final = "[" + "".join(chr(code) for code in range(0x3001) if chr(code).isspace()) + "]+"
#: Longest alternation of listed names in one trigger: hyperscan refuses patterns past
#: a parsed size (4,000 characters of these letter classes pass, 6,000 do not).
KNOWN_TRIGGER_CHARS: Final = 3_000

#: Accounts of systems and software, never redacted by default (compared case-folded).
DEFAULT_SERVICE_ACCOUNTS: Final = frozenset({
    # Unix and common daemons
    "root", "nobody", "daemon", "bin", "sys", "sync", "games", "man", "lp", "mail", "news",
    "uucp", "proxy", "www-data", "www", "backup", "list", "irc", "gnats", "systemd-network",
    "systemd-resolve", "systemd-timesync", "messagebus", "syslog", "sshd", "_apt", "polkitd",
    "postgres", "mysql", "redis", "nginx", "apache", "httpd", "tomcat", "jenkins", "git",
    "docker", "ubuntu", "debian", "centos", "ec2-user", "admin", "administrator", "guest",
    "oracle", "grid", "db2inst1", "hdbadm", "mongodb", "elasticsearch", "kafka", "zookeeper",
    "node", "runner", "vagrant", "ftp", "nfsnobody", "operator", "halt", "shutdown",
    # Windows built-ins and profile folders
    "public", "default", "default user", "all users", "defaultapppool", "system",
    "localsystem", "localservice", "networkservice", "shared", "iusr", "iis_iusrs", "krbtgt",
    "network service", "local service", "anonymous logon",
    "wdagutilityaccount", "defaultaccount", "defaultuser0", "dnsupdateproxy",
    # Windows built-in groups (event 4799 names a group in TargetUserName)
    "administrators", "users", "guests", "dnsadmins", "replicator",
    # SAP technical users
    "sap*", "sap", "ddic", "tmsadm", "tmssup", "earlywatch", "sapcpic", "sapjsf",
    "sapsupport", "sapadm", "sapsys", "batch", "batchuser", "wf-batch", "sap_wfrt", "bwremote",
    "aleremote", "sap_system",
    # Placeholders used in documentation
    "user", "username", "usuario", "usr", "someone", "anonymous", "me", "you",
})

# <sid>adm (SAP OS admin), SAPService<SID> (Windows), ora<sid>, <sid>hdb-like names.
_SERVICE_PATTERNS: Final = (
    re.compile(r"[a-z][a-z0-9]{2}adm"),
    re.compile(r"sapservice[a-z][a-z0-9]{2}"),
    re.compile(r"ora[a-z][a-z0-9]{2}"),
    re.compile(r"systemd-[a-z-]+"),
    # Service accounts by the usual naming (svc-erp, svc_backup, erp-svc), and Windows'
    # virtual accounts of the window manager and font driver hosts (DWM-1, UMFD-0).
    re.compile(r"svc[-_.][a-z0-9][\w.-]*|[a-z0-9][\w.-]*[-_]svc"),
    re.compile(r"(?:dwm|umfd)-[0-9]+"),
    # Placeholders of documentation and examples: my-name, your_user, seu.usuario
    re.compile(r"(?:my|your|some|the|example|sample|meu|minha|seu|sua)[-_.]?"
               r"(?:name|user|user-?name|login|account|usuario|nome|conta)"),
)
#: The patterns above as one (a name matching any of them whole matches it whole): a
#: run of distinct names asked each of them in turn.
_SERVICE_PATTERN: Final = re.compile("|".join(f"(?:{p.pattern})" for p in _SERVICE_PATTERNS))

#: Words that follow a user key in ordinary text without being a name.
_STOPWORDS: Final = frozenset({
    "a", "an", "the", "is", "not", "has", "was", "are", "be", "been", "for", "and", "or",
    "in", "on", "of", "to", "with", "from", "by", "at", "as", "if", "it", "this", "that",
    "de", "do", "da", "dos", "das", "o", "os", "e", "em", "no", "na", "nos", "nas",
    "com", "para", "por", "pelo", "pela", "que", "se", "pode", "foi", "esta", "nao", "sim",
    "um", "uma", "ao", "aos", "seu", "sua", "ja", "sem", "tem", "ter", "deve", "ser",
    "failed", "failure", "fail", "success", "successful", "succeeded", "ok", "true", "false",
    "none", "null", "nil", "undefined", "unknown", "invalid", "valid", "empty", "yes",
    "falha", "falhou", "sucesso", "erro", "error", "denied", "granted", "locked", "unlocked",
    "ativo", "inativo", "active", "inactive", "disabled", "enabled", "required", "optional",
    "string", "str", "int", "integer", "object", "type", "name", "id", "current", "default",
    "self", "all", "any", "new", "other", "info", "data", "group", "master", "logged",
    "logon", "login", "logoff", "logout", "session", "account", "accounts", "password",
    "bloqueado", "desbloqueado", "logado", "nome", "senha", "conta", "tipo", "changed",
    "created", "deleted", "updated", "alterado", "criado", "excluido", "origin", "upstream",
    "interface", "agent", "profile", "settings", "mode", "list", "details",
    # type names (``session_user: dict``)
    "dict", "bool", "boolean", "float", "double", "tuple", "bytes", "number", "void",
    "array", "set", "map",
})

_NAME: Final = r"(?P<v>[^\W\d][\w.-]{0,63}(?<![.-]))"
# A login, or a display name of up to four capitalised words ("Maria da Silva").
_DISPLAY_NAME: Final = (
    r"(?P<v>(?:\p{Lu}[\p{Ll}\p{Lu}]+(?:[ ](?:d[aeo]s?[ ])?\p{Lu}[\p{Ll}]+){1,3})"
    r"|[^\W\d][\w.-]{0,63}(?<![.-]))"
)
_SAP_NAME: Final = r"(?P<v>[A-Z][A-Z0-9_.-]{1,11}(?<![.-]))"
_END: Final = r"(?![\w-])"
# A key's value ends so too, and a Windows computer account (WS01$, as a logon event's
# data names a machine) or a GitHub App's bot (renovate[bot]) is none; a prompt's
# /home/jsilva$ keeps its name.
_VALUE_END: Final = r"(?![\w$-]|\[bot\])"
# Commands whose -u / -U flag names a user; a bare -u elsewhere (git push -u,
# python -u, sort -u) means something else.
_USER_COMMANDS: Final = re.compile(
    r"(?:^|(?<=[\s;|&(]))(?:sudo|su|runuser|ps|pgrep|pkill|killall|crontab|top|htop|w|who|last|"
    r"lastlog|passwd|chage|usermod|userdel|useradd|id|groups|finger|quota|mysql|mariadb|"
    r"mysqldump|psql|pg_dump|pg_dumpall|createdb|dropdb|docker|podman|kubectl|exec|curl|"
    r"journalctl|systemctl|loginctl|chown|rsync|smbclient|ldapsearch)(?=\s)",
    re.MULTILINE,
)
#: How far before a short flag its command may stand, on the same line.
_COMMAND_REACH: Final = 200
_NON_USER_HOSTS: Final = frozenset({
    "latest", "next", "beta", "alpha", "canary", "rc", "stable", "dev", "main", "master",
    "head", "edge", "nightly", "lts",
})
#: A symbol's version after its name: LZ4_attach_dictionary@Base in a Debian symbols
#: file, memcpy@GLIBC_2.14, __cxa_throw@CXXABI_1.3.
_SYMBOL_VERSION: Final = re.compile(r"Base|[A-Z][A-Z0-9]*_[0-9]+\.[0-9][0-9.]*")
#: roff's renamed requests and macros (.rn wh wh@old, .als bp@orig bp, .de sgr@dummy),
#: of a short name, on a line that starts with roff's control character.
_ROFF_HOSTS: Final = frozenset({"old", "orig", "dummy", "new", "saved"})
_ROFF_LINE: Final = re.compile(r"[ \t]*[.']")
_ROFF_REACH: Final = 24
#: roff's request and macro names are short (wh, bp, sgr, de1); a login is longer.
_ROFF_NAME: Final = 4


@dataclass(frozen=True, slots=True)
class _Shape:
    name: str
    pattern: regex.Pattern[str]
    score: float
    check: Callable[[str, regex.Match[str]], bool] | None = None
    #: The form admits nothing but a user name (``uid=1000(x)``, ``Invalid user x from``):
    #: a common word there is still a (tried) login.  ``None``: decided per match.
    strong: bool | None = False
    #: The name comes from a system whose user names ignore case (SAP, Windows).
    caseless: bool = False
    #: The names of the prefilter triggers one of which hits every match of the shape
    #: (its start, or the text right after the name): with the prefilter's hits, a
    #: shape none of them hit is not run.
    anchors: frozenset[str] = frozenset()


#: The Portuguese user word right before a value (``usuário efetivo``).
_PT_USER_WORD_BEFORE: Final = re.compile(r"(?i)usu[aá]rio[ \t]+\Z")


def _adjective_after_user_word(text: str, match: regex.Match[str]) -> bool:
    """The value follows the Portuguese user word and is a Portuguese adjective in lower
    case (``ID do usuário efetivo``, ``credenciais do usuário expiradas``): Portuguese
    puts the adjective after its noun (see recognizers.lexicon.is_portuguese_adjective).
    A login in capitals is SAP's (``Usuário MORGADO bloqueado``)."""
    start = match.start("v")
    value = match.group("v")
    return value.islower() \
        and _PT_USER_WORD_BEFORE.search(text[max(0, start - 16):start]) is not None \
        and is_portuguese_adjective(value)


def _flag_needs_command(text: str, match: regex.Match[str]) -> bool:
    """A short ``-u``/``-U`` counts only after a command that takes a user; no flag's
    argument in a help text counts (``--owner=DONO    define o dono``, see
    help_listing_value)."""
    flag = match.group("flag")
    if help_listing_value(text, *match.span("flag"), *match.span("v")):
        return False
    if flag.startswith("--"):
        return True
    # Only the reach is searched for the line start: one long line must not cost
    # a scan back to its beginning per flag.
    start = match.start()
    line_start = text.rfind("\n", max(0, start - _COMMAND_REACH), start) + 1
    return bool(_USER_COMMANDS.search(text, max(line_start, start - _COMMAND_REACH), start))


#: URI schemes and prefixes of qualified names: ``User: arn:aws:iam::…`` names no login
#: "arn" (the AWS shape below finds the user in the ARN).
_SCHEMES: Final = frozenset({
    "arn", "urn", "http", "https", "ftp", "sftp", "ssh", "git", "mailto", "ldap", "ldaps",
    "file", "s3", "gs", "jdbc", "tag", "did", "spiffe", "smb", "nfs",
})


#: A variable named after what it holds, as code names the value it passes under a user
#: key: ``sender_id``, ``route_name``, ``userId`` (a login is no such word).
_NAMED_VARIABLE: Final = re.compile(r"(?:_(?:ids?|names?|uid)|(?<=[a-z0-9])(?:Ids?|Names?))\Z")
#: Objects whose attributes code reads: ``user=self._user_id``.
_CODE_OBJECTS: Final = ("self.", "cls.", "this.")
#: Words of the user keys themselves: a value that is one (``user=uid``), or an
#: attribute named so (``login=current_user.username``), names the field, not a login.
_FIELD_WORDS: Final = frozenset({"uid", "id", "userid", "user_id", "username", "user_name",
                                 "user", "login", "name", "key", "owner"})


#: Words of programming languages that stand where a value would, code after them
#: (``username = await read.username(…)``, ``login = async (opener) =>``): no login.
_CODE_WORDS: Final = frozenset({"await", "async", "new", "typeof", "yield", "lambda"})
#: What follows a word of a programming language: more code on the line.
_CODE_GOES_ON: Final = re.compile(r"[ \t]*\(|[ \t]+[A-Za-z_$(]")


def _code_value(text: str, match: regex.Match[str]) -> bool:
    """The value after a user key is code, not a login: a call or a subscript (see
    _called), a word of a programming language with code after it (``username = await
    read.username(…)``), a word of the keys (``user=uid``,
    ``login=current_user.username``), the
    key's own name passed on (``user_id=user_id``, ``operatorName=operatorName``), an
    object's attribute (``self._user_id``) or a variable named after what it holds
    (``user_name=route_name``, ``"user_id": normalized_user_id``).  Source code is what
    a coding agent reads most."""
    value = match.group("v")
    if value.startswith(_CODE_OBJECTS) or _NAMED_VARIABLE.search(value) is not None \
            or value.rpartition(".")[2].casefold() in _FIELD_WORDS or _called(text, match) \
            or (value in _CODE_WORDS and _CODE_GOES_ON.match(text, match.end("v"))):
        return True
    start = match.start("key")
    head = start
    while head > max(0, start - _KEY_REACH) and (text[head - 1].isalnum() or text[head - 1] == "_"):
        head -= 1
    return value.casefold() == text[head:match.end("key")].casefold()


def _called(text: str, match: regex.Match[str]) -> bool:
    """The value is a function called or an object subscripted (``login=src.get('x')``,
    ``typing.Optional[str]``, ``user = getattr(cfg``): a bracket right after it, opening
    no number nor ``uid=`` (a log's ``user=xuxa88(1001)``, ``owner=x(uid=1001)``), after
    a name of code (a leading ``_``, a dot) or after ``=`` between blanks in lower case;
    after ``=`` between blanks, a name in camel case called or subscripted, a number
    too (``user = decodeURIComponent(path)``, ``user = nameMatch[1]``); a log's
    ``usr=x[DOMAIN]`` or ``BNAME = X(100)`` stays a login."""
    end = match.end("v")
    if not text.startswith(("(", "["), end) or text.startswith("uid=", end + 1):
        return False
    value = match.group("v")
    separator = match.group("sep")
    if " =" in separator and "= " in separator and CAMEL_CASE.fullmatch(value):
        return True  # user = decodeURIComponent(path), user = nameMatch[1]
    if text[end + 1:end + 2].isdigit():
        return False
    return value.startswith("_") or "." in value or (
        " =" in separator and "= " in separator and value.islower())


def _value_stands_alone(text: str, match: regex.Match[str]) -> bool:
    """The value after the key is a whole login: no URI scheme (``User: arn:aws:…``,
    ``user: https://…``), no key of its own (``login = "uid=x,ou=people"``), no local
    part of a person's e-mail address (``…-user=example.com@example.com``), no code
    (see _code_value), no option's argument in a help text (see help_listing_value)."""
    if _code_value(text, match):
        return False
    key_start = match.start("key")
    if text[max(0, key_start - 2):key_start] == "--" and help_listing_value(
            text, key_start - 2, match.end("key"), *match.span("v")):
        return False  # a help text's --owner=DONO
    end = match.end("v")
    following = text[end:end + 1]
    if following == "=":
        return False
    if following == " " and text[end + 1:end + 8].casefold() == "service" \
            and f"{match.group('v')} service".casefold() in DEFAULT_SERVICE_ACCOUNTS:
        return False  # Windows' built-in NETWORK SERVICE and LOCAL SERVICE
    if following == "@":
        # A domain name before an "@" is part of an encoded address (VERP), no login:
        # spread, it would take every mention of the domain.  Another value is a login
        # (user=jsilva@10.0.0.5); where an address is found whole, the address is the
        # finding (the engine drops logins inside addresses).
        return not _is_domain_name(match.group("v"))
    return not (following == ":" and match.group("v").casefold() in _SCHEMES)


def _is_domain_name(value: str) -> bool:
    """``value`` is a host name under a public suffix (example.com), by the suffix list
    EMAIL_ADDRESS checks domains with."""
    if "." not in value:
        return False
    from recognizers.generic import _offline_tldextract

    return bool(_offline_tldextract()(value).fqdn)


def _strong_separator(text: str, match: regex.Match[str]) -> bool:
    """A qualified key counts written as data writes it (``remote_user=x``,
    ``"targetUserName": "x"``, a line ``remote_user: x`` of its own), not as code
    declares a name (``current_user: User``, ``fetchUser: async``)."""
    return (_as_data(match.group("sep")) or _line_of_its_own(text, match)) \
        and _value_stands_alone(text, match)


#: How far back from a qualified key's "_user" its key's start is looked for.
_KEY_REACH: Final = 64
_KEY_HEAD: Final = regex.compile(r"[A-Za-z0-9_.-]*")
#: A login as a setting's value may write it: small letters, digits, ``._-``.
_PLAIN_LOGIN: Final = regex.compile(r"[\p{Ll}0-9_.-]+")


def _line_of_its_own(text: str, match: regex.Match[str]) -> bool:
    """The key starts its line, unindented, right before a colon, and the value, a
    plain login, ends it (quoted or not): ``remote_user: x`` as a YAML setting or a
    JSON member's ``key: value`` writes it.  Code declares names inside a signature or
    a block (``def me(current_user: User)``, an indented field, ``fetchUser: async
    (id) =>``) and writes types with capitals (``current_user: UserModel``,
    ``models.User``); a key in capitals names a constant.  A login found so is weak: it
    is not spread to the word's other places (see :func:`_weak_setting`)."""
    if not match.group("sep").lstrip("\"'").startswith(":"):
        return False  # ``x_user : dict``: no setting's colon
    end = match.end("v")
    quote = match.group("sep")[-1]
    if quote in "\"'" and text[end:end + 1] == quote:
        end += 1
    if text[end:end + 1] not in ("", "\n", "\r") \
            or _PLAIN_LOGIN.fullmatch(match.group("v")) is None:
        return False
    start = match.start()
    line_start = text.rfind("\n", max(0, start - _KEY_REACH), start) + 1
    if line_start == 0 and start > _KEY_REACH:
        return False
    head = _KEY_HEAD.fullmatch(text, line_start, start)
    # A key of capitals alone names a constant (``SRP_USERNAME: DEPRECATED`` in a list
    # of API changes), not a setting.
    return head is not None and any(c.islower() for c in text[line_start:match.end("key")])


#: A login's trailing digits (``mferreira2``, ``jsilva01``).
_TRAILING_DIGITS: Final = re.compile(r"[0-9]{1,4}\Z")
#: The separators of a login's parts (``joao.silva``, ``pedro_martins``).
_LOGIN_PARTS: Final = re.compile(r"[._-]")
#: Letters of a surname after an initial in a login, at least (``jsilva``: five; shorter
#: ones make words of other languages, ``ahora``, ``vlans``).
_LOGIN_SURNAME_MIN: Final = 5


def _login_of_a_name(text: str, match: regex.Match[str]) -> bool:
    """The word after a user word is a login made of a person's name, as companies
    build them, in lower case: an initial or a given name, then a surname, maybe
    parted by ``.``, ``_`` or ``-`` and followed by digits (``mferreira``, ``j.silva``,
    ``joao.silva``, ``pedrosouza2``).  A word of any other shape there may be prose
    (``o usuário final``, ``user namespaces``); one in capitals is the "user message"
    shape's."""
    from recognizers.names import fold_name, given_names, surnames

    value = match.group("v")
    if not value.islower():
        return False
    core = _TRAILING_DIGITS.sub("", value)
    if not core.isascii() and not core.replace(".", "").replace("_", "").isalpha():
        return False
    parts = _LOGIN_PARTS.split(core)
    if len(parts) == 2:
        first, rest = fold_name(parts[0]), fold_name(parts[1])
        if len(rest) >= 3 and rest in surnames() and (len(first) == 1 or first in given_names()):
            return True  # j.silva, joao.silva
        return _joined_name(first)  # jsilva.adm, mferreira_ext
    return len(parts) == 1 and _joined_name(fold_name(core))


def _joined_name(folded: str) -> bool:
    """A login's part (folded) is an initial and a surname, or a given name and a
    surname, written together (``MFERREIRA``, ``PEDROSOUZA``)."""
    from recognizers.names import given_names, surnames

    if len(folded) < _LOGIN_SURNAME_MIN + 1:
        return False
    given, last = given_names(), surnames()
    if len(folded) - 1 >= _LOGIN_SURNAME_MIN and folded[1:] in last \
            and not is_common_word(folded[1:].lower()):
        return True  # mferreira
    return any(folded[:cut] in given and folded[cut:] in last
               for cut in range(3, len(folded) - 2))  # pedrosouza


def _mailbox_of_no_one(text: str, shape: _Shape, match: regex.Match[str]) -> bool:
    """A user@host match that is an e-mail address (its host a domain name under a public
    suffix) whose mailbox is named after no person: a role's, a list's or a program's
    (``dev@``, ``coreutils@gnu.org``).  The address is redacted whole; its mailbox is
    not spread to its other places, where it is a word of the text (``/dev/null``,
    "GNU coreutils").  A login's own host (``dev@build01``, ``dev@10.0.0.5``) is no
    domain name, and a target after ``ssh``, ``scp`` or ``rsync`` on its line, a host
    followed by a path or a prompt's ``:~``, or a prompt in brackets, is a login's: those
    logins spread."""
    if shape.anchors is not _AT or not _is_domain_name(match.group("host")) \
            or text.startswith((":", "~", "]"), match.end()):
        return False  # a login's host (a prompt's, scp's and rsync's host: and path)
    start = match.start()
    if text[start - 1:start] == "[":
        return False  # a prompt: [xuxa88@web01.empresa.com.br ~]$
    line = text[max(text.rfind("\n", max(0, start - _COMMAND_REACH), start) + 1,
                    start - _COMMAND_REACH):start]
    if _REMOTE_COMMANDS.search(line) is not None:
        return False  # ssh xuxa88@bastion.empresa.com.br: a login at a host
    return not _mailbox_of_a_person(match.group("v"))


#: Commands whose target is a login at a host, not an address.
_REMOTE_COMMANDS: Final = re.compile(
    r"(?:^|[\s;|&(])(?:ssh|scp|sftp|rsync|mosh|autossh|ssh-copy-id|telnet|ftp)(?:\s|$)")


def _mailbox_of_a_person(mailbox: str) -> bool:
    """A mailbox named after a person, as logins are: a given name or a surname of the
    name lists (Brazilian or foreign: ``david``, ``souza``), an initial or a given name
    joined to a surname (``jsilva``, ``pedrosouza``), names and initials parted by
    ``.``, ``_`` or ``-`` (``maria.souza``, ``j.silva``), digits after it."""
    from recognizers.names import (
        fold_name,
        foreign_given_names,
        foreign_surnames,
        given_names,
        surnames,
    )

    def named(word: str) -> bool:
        return len(word) >= 3 and (word in given_names() or word in surnames()
                                   or word in foreign_given_names()
                                   or word in foreign_surnames())

    parts = [fold_name(part) for part in _LOGIN_PARTS.split(_TRAILING_DIGITS.sub("", mailbox))]
    if len(parts) == 1:
        return named(parts[0]) or _joined_name(parts[0])
    return all(len(part) == 1 or named(part) for part in parts) and any(map(named, parts))


#: Extensions of files a project's sources, data and logs are kept in (wider than
#: recognizers.secret.keys' list of files named after a key, which leaves out .txt).
_HOME_FILE_EXTENSIONS: Final = frozenset({
    "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "java", "kt", "c", "h",
    "cc", "cpp", "hpp", "cs", "php", "pl", "sh", "bash", "json", "yaml", "yml", "toml",
    "ini", "cfg", "conf", "xml", "html", "css", "md", "rst", "txt", "log", "csv", "sql",
    "lock", "zip", "tar", "gz", "tgz", "xz", "bz2", "deb", "rpm", "jar", "whl", "so",
})


def _no_file_name(text: str, match: regex.Match[str]) -> bool:
    """What a home path holds is no file's name (``/home/index.js:1:15`` of a stack trace
    run from /home, ``/home/app.log``): a login has no file extension."""
    stem, dot, extension = match.group("v").rpartition(".")
    return not (dot and stem and extension.lower() in _HOME_FILE_EXTENSIONS
                and not text.startswith("/", match.end("v")))


def _weak_setting(shape: _Shape, match: regex.Match[str]) -> bool:
    """A qualified key's login found on a line of its own only (not written as data
    writes it): ``prometheus_system_user: prometheus`` names a service's account
    after its software, whose name the text then uses everywhere."""
    return shape.check is _strong_separator and not _as_data(match.group("sep"))


def _as_data(separator: str) -> bool:
    """A key/value separator as code or data writes it: ``=``, or a quoted key and value
    (their quotes escaped or not)."""
    separator = separator.replace("\\", "")
    return "=" in separator or (separator[0] in "\"'" and separator[-1] in "\"'")


def _host_is_plausible(text: str, match: regex.Match[str]) -> bool:
    """Not a tag (``npm i x@latest``), a symbol's version (``x@Base``, ``x@GLIBC_2.14``),
    a roff macro's other name (``.rn wh wh@old``), nor a role or list address
    (``bug-grep@gnu.org``)."""
    host = match.group("host")
    if fold(host) in _NON_USER_HOSTS or _SYMBOL_VERSION.fullmatch(host) is not None:
        return False
    if host in _ROFF_HOSTS and len(match.group("v")) <= _ROFF_NAME:
        # (read back a few characters only: the prefilter's margin holds them)
        start = match.start()
        line = text.rfind("\n", max(0, start - _ROFF_REACH), start) + 1
        if (line > 0 or start <= _ROFF_REACH) and _ROFF_LINE.match(text, line, start):
            return False
    return not not_a_person_address(f"{match.group('v')}@{host}")


#: What may follow "user" in a user key: user_name, userId, user.login.
_USER_KEY: Final = r"(?:[._-]?(?:name|id|login))?"
_KEYS: Final = (
    rf"(?:user|usu[aá]rio){_USER_KEY}|usr|login|logon|owner|uname|bname|usnam|"
    r"ernam|aenam|sy-uname|userid|benutzer|operador|operator_?name|created_?by|changed_?by"
)

# A user key may be qualified: remote_user, targetUserName, TargetUser (db-user is a key
# after a word boundary already).  The key then follows "_", or a small letter or digit
# with a capital U.
_QUALIFIED_KEY: Final = (
    rf"(?:(?<=[A-Za-z0-9])_(?i:(?P<key>(?:user|usu[aá]rio){_USER_KEY}))"
    rf"|(?<=[a-z0-9])(?P<key>U(?i:ser{_USER_KEY})))\b"
)
# Keys of an XML name/value pair (<Data Name="TargetUserName">x</Data>, Windows events):
# a user or account name, maybe qualified.
_PAIR_KEYS: Final = r"(?:[A-Za-z]+)?(?:User|Account)Name|User(?:Id|Login)?|Login"
# Apache's and nginx's common and combined log formats: host, ident, authuser, [time].
_CLF_TIME: Final = r"\[[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2}[ ][+-][0-9]{4}\]"
# SAP work processes, as the system log (SM21) and statistics records (STAD) list them.
_SAP_WP: Final = r"(?:DIA|UPD|UP2|BTC|SPO|ENQ|BGD)"

# Quotes escaped too (QUOTE): a JSON document inside a string.
_SEPARATOR: Final = rf"(?:{QUOTE})?[ \t]*[=:][ \t]*(?:{QUOTE}|<)?"

# The names of the prefilter's triggers that anchor several shapes (see _Shape.anchors).
_KEY: Final = frozenset({"key/value"})
_USER_WORD: Final = frozenset({"user word"})
_HOME: Final = frozenset({"home path"})
_AT: Final = frozenset({"at"})

_SHAPES: Final = (
    # user=jsilva, usuário: jsilva, "login": "jsilva", BNAME = JSILVA
    _Shape("key/value", regex.compile(
        rf"(?i:\b(?P<key>{_KEYS})\b)(?P<sep>{_SEPARATOR}){_DISPLAY_NAME}{_VALUE_END}",
        FLAGS), 0.85, _value_stands_alone, strong=None, anchors=_KEY),
    # remote_user=jsilva, "targetUserName": "jsilva" (one pattern with the above was
    # several times slower: a qualifier tried at every word)
    _Shape("key/value", regex.compile(
        rf"{_QUALIFIED_KEY}(?P<sep>{_SEPARATOR}){_DISPLAY_NAME}{_VALUE_END}",
        FLAGS), 0.85, _strong_separator, strong=None, anchors=_KEY),
    # <Data Name="TargetUserName">jsilva</Data>
    _Shape("xml name/value", regex.compile(
        rf"<(?P<tag>[\w:.-]+)[ \t]+(?i:name=[\"'](?:{_PAIR_KEYS})[\"'])[ \t]{{0,8}}>"
        rf"[ \t]{{0,8}}{_NAME}[ \t]*</(?P=tag)>", FLAGS), 0.85, strong=True, caseless=True,
        anchors=frozenset({"xml name/value"})),
    # 192.0.2.7 - jsilva [10/Oct/2024:13:55:36 -0300] "GET / HTTP/1.1" 200 ...
    _Shape("access log", regex.compile(
        rf"(?<=[^\s:])[ ](?:-|[\w.@-]{{1,64}})[ ]{_NAME}[ ]{_CLF_TIME}", FLAGS),
        0.85, strong=True, anchors=frozenset({"access log"})),
    # 20:11:15 DIA 034 100 JSILVA  VA02 AB0 ...; 07.11.2024 03:19:35 DIA 030 JSILVA  BP ...
    _Shape("sap work process", regex.compile(
        rf"(?<![\w:])[0-9]{{2}}:[0-9]{{2}}:[0-9]{{2}}[ \t]{{1,8}}{_SAP_WP}[ \t]{{1,8}}[0-9]{{3}}"
        rf"(?:[ \t]{{1,8}}[0-9]{{3}})?[ ]{{1,2}}{_SAP_NAME}(?=[ \t])", FLAGS), 0.85,
        strong=True, caseless=True, anchors=frozenset({"sap work process"})),
    # arn:aws:iam::123456789012:user/jsilva (IAM users, in errors and audit records)
    _Shape("aws user", regex.compile(
        rf"\barn:aws[\w-]{{0,16}}:iam::[0-9]{{12}}:user/(?:[\w+=,.@-]{{1,64}}/){{0,3}}"
        rf"{_NAME}(?![\w/*-])", FLAGS),
        0.85, strong=True, anchors=frozenset({"aws user"})),
    # <user>jsilva</user>, <login>jsilva</login>
    _Shape("xml element", regex.compile(
        rf"<(?i:(?P<tag>{_KEYS}))>[ \t]*{_NAME}[ \t]*</(?P=tag)>", FLAGS), 0.85, strong=True,
        anchors=frozenset({"xml element"})),
    # An LDAP entry's name: uid=jsilva,ou=people,dc=example,dc=com
    _Shape("ldap uid", regex.compile(
        rf"(?<![\w-])(?i:uid)={_NAME},(?=(?i:ou|dc|o|cn|uid)=)", FLAGS), 0.85, strong=True,
        anchors=frozenset({"uid"})),
    # uid=1000(jsilva); a gid names a group, caught by propagation when it is the user's
    _Shape("uid", regex.compile(rf"\be?uid=[0-9]{{1,10}}\({_NAME}\)", FLAGS), 0.85, strong=True,
           anchors=frozenset({"uid"})),
    # sudo's own log line: "sudo: jsilva : TTY=pts/0 ; PWD=..."
    _Shape("sudo log", regex.compile(
        rf"\bsudo(?:\[[0-9]+\])?:[ \t]+{_NAME}[ \t]+:[ \t]", FLAGS), 0.85, strong=True,
        anchors=frozenset({"sudo"})),
    # --user jsilva, --user=jsilva, sudo -u jsilva, psql -U jsilva
    _Shape("command flag", regex.compile(
        rf"(?<![\w-])(?P<flag>--user(?:name)?|--login|--owner|-u|-U)(?:[ \t]+|=)"
        rf"[\"']?{_NAME}{_END}",
        FLAGS), 0.75, _flag_needs_command, anchors=frozenset({"command flag"})),
    # SAP system log and audit messages: "Logon failed for user JSILVA", "usuário JSILVA"
    _Shape("user message", regex.compile(
        # One space: a wider gap is a page layout ("Comandos de usuário     CKSUM(1)"),
        # and a name never stands before a manual section.
        # (not an adjective's: per-user PKCS#11, multi-user X)
        rf"(?<![\w-])(?i:(?:user|usu[aá]rio|benutzer)[ \t]){_SAP_NAME}(?![\w-]|\([0-9])", FLAGS),
        0.75,
        caseless=True, anchors=_USER_WORD),
    # "usuário mferreira bloqueado", "user joao.silva logged in": after a user word, a
    # login made of a person's name in lower case (see _login_of_a_name)
    _Shape("user message", regex.compile(
        rf"(?<![\w-])(?i:(?:user|usu[aá]rio|benutzer)[ \t]){_NAME}(?![\w-]|\([0-9])", FLAGS),
        0.75, _login_of_a_name, anchors=_USER_WORD),
    _Shape("quoted user", regex.compile(
        rf"(?i:\b(?:user|usu[aá]rio|benutzer)[ \t]+)[\"'`]{_NAME}[\"'`]", FLAGS), 0.8,
        anchors=_USER_WORD),
    # sshd and PAM: "Failed password for invalid user jsilva from", "session opened for user
    # jsilva"; not a kind of setting named after it (npm's 'Unknown user config "x"').
    _Shape("auth log", regex.compile(
        rf"(?i:\b(?:password|publickey|keyboard-interactive(?:/pam)?|hostbased)[ \t]+for"
        rf"[ \t]+(?:invalid[ \t]+user[ \t]+)?){_NAME}(?=[ \t]+from\b)", FLAGS), 0.85,
        strong=True, anchors=frozenset({"auth for"})),
    _Shape("auth log", regex.compile(
        rf"(?i:\b(?:(?:invalid|unknown|illegal)[ \t]+user|session[ \t]+(?:opened|closed)[ \t]+"
        rf"for[ \t]+user)[ \t]+){_NAME}{_END}(?![ \t]+[\"'`])", FLAGS), 0.7,
        strong=True, anchors=_USER_WORD),
    _Shape("auth log", regex.compile(
        rf"(?i:\b(?:for[ \t]+user|by[ \t]+user|por[ \t]+usu[aá]rio|"
        rf"pelo[ \t]+usu[aá]rio|do[ \t]+usu[aá]rio)[ \t]+){_NAME}{_END}", FLAGS), 0.7,
        anchors=_USER_WORD),
    # Home directories on Linux and macOS, then Windows.  Two patterns: joined in one
    # alternation, the regex module tried every branch at every character of any text.
    _Shape("home path", regex.compile(
        rf"(?:(?<![\w.])/home/|(?<![\w.])/Users/|(?<![\w.])/export/home/){_NAME}{_END}",
        FLAGS), 0.85, _no_file_name, strong=True, anchors=_HOME),
    _Shape("home path", regex.compile(
        rf"(?i:\b[A-Z]:(?:\\\\|\\|/)(?:Users|Documents and Settings)(?:\\\\|\\|/)){_NAME}{_END}",
        FLAGS), 0.85, strong=True, caseless=True, anchors=_HOME),
    # jsilva@srv01:~$, [jsilva@srv01 ~]$, ssh jsilva@10.0.0.5, scp f jsilva@host:/tmp
    _Shape("user@host", regex.compile(
        rf"(?<![\w.%+/@-]){_NAME}@(?P<host>[A-Za-z][\w-]*(?:\.[\w-]+)*"
        rf"|[0-9]{{1,3}}(?:\.[0-9]{{1,3}}){{3}})(?=[:\s\]~]|$)", FLAGS), 0.7, _host_is_plausible,
        anchors=_AT),
)


# ----------------------------------------------------------------- prefilter
# Every shape above starts with one of these anchors (case-insensitive parts kept so),
# and the name lies after it (or, for user@host, just before the "@").
_KEY_VALUE_TRIGGER: Final = rf"(?i:{_KEYS})(?:{QUOTE})?[ \t]*[=:]"
# Anchors of the shapes whose field is most often empty or a technical account (an
# Apache line's "-", SAP's DDIC, Windows' SYSTEM): their hits are accepted only when
# the field holds a plausible name.  Each is the start of its shape's pattern or the
# text right after the name (the access log's time, 29 characters).
_PAIR_ANCHOR: Final = rf"(?i:name=[\"'](?:{_PAIR_KEYS})[\"'])"
_CLF_ANCHOR: Final = rf"[ ]{_CLF_TIME}"
_CLF_ANCHOR_CHARS: Final = 29
_SAP_WP_ANCHOR: Final = rf"[0-9]{{2}}:[0-9]{{2}}[ \t]+{_SAP_WP}[ \t]+[0-9]{{3}}"
# What follows each anchor up to the name (SAP, Windows), or the name's token before it.
_PAIR_VALUE: Final = regex.compile(rf"[ \t]{{0,8}}>[ \t]{{0,8}}{_NAME}[ \t]*</")
_SAP_WP_VALUE: Final = regex.compile(rf"(?:[ \t]{{1,8}}[0-9]{{3}})?[ ]{{1,2}}{_SAP_NAME}(?=[ \t])")
_CLF_VALUE: Final = regex.compile(rf"[ ]{_NAME}\Z")
#: The anchors' patterns and trigger names (each shape lists the names it needs).
_ANCHORS: Final = (
    (rf"<(?i:{_KEYS})>", "xml element"),
    (r"(?i:uid)=", "uid"),
    (r"sudo(?:\[[0-9]+\])?:", "sudo"),
    (r"(?:--user(?:name)?|--login|--owner|-u|-U)(?:[ \t]|=)", "command flag"),
    (r"(?i:user|usu[aá]rio|benutzer)[ \t]", "user word"),
    (r"(?i:password|publickey|keyboard-interactive(?:/pam)?|hostbased)[ \t]+(?i:for)",
     "auth for"),
    (r"/home/|/Users/|(?i:[a-z]:(?:\\|/)+(?:users|documents and settings)(?:\\|/))",
     "home path"),
    (r"@", "at"),
)
#: The names of every trigger of the shapes (a hit named otherwise runs every shape).
_ANCHOR_NAMES: Final = frozenset({name for _, name in _ANCHORS} | {
    "key/value", "xml name/value", "sap work process", "access log", "aws user"})
#: How far after the IAM anchor's start a user's name may end (3 path segments, a name).
_ARN_REACH: Final = 300
#: How far after a key the name may end: spaces, a display name of four words.
_NAME_REACH: Final = 160
_VALUE_AFTER_KEY: Final = regex.compile(rf"[ \t]*(?:{QUOTE}|<)?([^\W\d][\w.-]*)")
# What must follow the first word of a display name for it to go on.
_DISPLAY_NEXT: Final = regex.compile(r"[ ](?:d[aeo]s?[ ])?\p{Lu}\p{Ll}")


#: The sets of anchors the shapes list.
_ANCHOR_SETS: Final = tuple(dict.fromkeys(shape.anchors for shape in _SHAPES))
#: Lines of hits this close are read in one run (a run per line costs more than the
#: characters between them).
_LINES_GAP: Final = 256


def _anchor_lines(text: str, hits: Sequence[tuple[int, int, str]],
                  ) -> dict[frozenset[str], list[tuple[int, int]]]:
    """Per set of anchors (as the shapes list them), the stretches of ``text`` a shape
    anchored so reads: the lines holding a hit of one of them, those less than
    _LINES_GAP apart read together (from a line's start to another's end, its line
    break excluded)."""
    if "\n" not in text:  # one line: each shape with a hit of its anchors reads it all
        named = {name for _, _, name in hits}
        return {anchors: [(0, len(text))] if not named.isdisjoint(anchors) else []
                for anchors in _ANCHOR_SETS}
    by_name: dict[str, list[int]] = {}
    for first, _last, name in hits:
        by_name.setdefault(name, []).append(first)
    by_anchors: dict[frozenset[str], list[tuple[int, int]]] = {}
    for anchors in _ANCHOR_SETS:
        merged: list[tuple[int, int]] = []
        for first in sorted(first for name in anchors for first in by_name.get(name, ())):
            if merged and merged[-1][0] <= first <= merged[-1][1]:
                continue  # on a line read already (a stretch holds whole lines)
            low = text.rfind("\n", 0, first) + 1
            found = text.find("\n", first)
            high = len(text) if found < 0 else found
            if merged and low - merged[-1][1] <= _LINES_GAP:
                if high > merged[-1][1]:
                    merged[-1] = (merged[-1][0], high)
            else:
                merged.append((low, high))
        by_anchors[anchors] = merged
    return by_anchors


def _shape_matches(shape: _Shape, text: str,
                   lines: dict[frozenset[str], list[tuple[int, int]]] | None,
                   ) -> Iterator[regex.Match[str]]:
    r"""The matches of ``shape`` in ``text``, overlapping: everywhere (``lines`` None), or
    only in the lines holding a hit of its anchors.

    Every match of a shape holds a hit of one of its anchors and no line break, so it
    lies in that hit's line.  Read from the line's start to its end (``pos`` and
    ``endpos`` of the whole text), a pattern matches there as in the whole text: its
    look-behinds see the characters before the line, and each test it makes of the line
    break after it (``\b``, ``$``, ``(?![\w-])``, ``(?=[:\s\]~]|$)``, ``(?=[ \t])``)
    answers at the end of the text as it answers there; nothing of a shape reads past a
    line break (tests/integration/test_username_anchors.py).  Its checks read the whole
    text."""
    stretches = [(0, len(text))] if lines is None else lines.get(shape.anchors, ())
    if shape.anchors is _AT:
        yield from _matches_at_signs(shape.pattern, text, stretches)
        return
    for low, high in stretches:
        yield from shape.pattern.finditer(text, low, high, overlapped=True)


#: A run of the characters a login before an "@" is made of, read backwards from the
#: "@", as long as the longest login (where a longer run stops, the look-behind fails).
_RUN_BEFORE_AT: Final = regex.compile(r"(?r)[\w.-]{1,64}", FLAGS)


def _matches_at_signs(pattern: regex.Pattern[str], text: str,
                      stretches: Iterable[tuple[int, int]]) -> Iterator[regex.Match[str]]:
    """The user@host shape's overlapping matches in ``stretches``, as ``finditer`` with
    ``overlapped`` finds them there, tried at one place per "@" instead of at every
    character of the line (a database log with ``app@vendas`` on every line).

    A match holds one "@", right after the name, and the name starts a run of word
    characters, dots and dashes (the look-behind refuses one of them before it) that
    ends at the "@": the start of that run (if within 64 characters) is the only place
    a match holding that "@" can start; tried there with the same end position, the
    pattern finds what ``finditer`` finds at that place."""
    for low, high in stretches:
        at = text.find("@", low, high)
        while at >= 0:
            run = _RUN_BEFORE_AT.match(text, low, at)
            if run is not None:
                match = pattern.match(text, run.start(), high)
                if match is not None:
                    yield match
            at = text.find("@", at + 1, high)


class ServiceAccounts:
    """The allowlist of accounts that belong to software, not to people."""

    __slots__ = ("_names", "_pattern", "_verdicts")

    #: Verdicts remembered (logs name the same accounts over and over).
    MEMORY: Final = 4_096

    def __init__(self, names: Iterable[str] = DEFAULT_SERVICE_ACCOUNTS,
                 *, patterns: bool = True) -> None:
        self._names = frozenset(fold(name) for name in names)
        self._pattern = _SERVICE_PATTERN if patterns else None
        self._verdicts: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        verdict = self._verdicts.get(name)
        if verdict is None:
            folded = fold(name)
            verdict = folded in self._names or (
                self._pattern is not None and self._pattern.fullmatch(folded) is not None)
            if len(self._verdicts) >= self.MEMORY:
                self._verdicts.clear()
            self._verdicts[name] = verdict
        return verdict


_TOKEN: Final = re.compile(r"[^\W_](?:[\w.-]*[^\W_])?")

# ----------------------------------------------------------------- propagation
# A name stands as a whole word when no word character, nor a word character and a
# "." or "-", touches it on either side: it then starts where a chain of words
# joined by single dots or hyphens starts, and ends where one ends.
_CHAIN: Final = regex.compile(r"\w+(?:[.-]\w+)*")
_CHAIN_ASCII: Final = re.compile(r"\w+(?:[.-]\w+)*", re.ASCII)
_WORD_CHAR: Final = regex.compile(r"\w")
#: Text characters per folded character of a name: a letter and MAX_MARKS marks.
_SPELLING_WIDTH: Final = 3


def name_spans(text: str, names: Iterable[str]) -> list[tuple[int, int]]:
    """Where the (folded) ``names`` stand in ``text`` as whole words, left to right.

    A name matches where :func:`~recognizers.prefilter.literal_pattern` spells it
    (case and accents free), not touching a word character, nor a word character
    and a "." or "-", on either side; the longest name wins where several start.
    One pass over the word chains of the text with set lookups, so the cost does
    not grow with the number of names.
    """
    from recognizers.prefilter import spells

    wanted = {fold(name) for name in names}
    wanted.discard("")
    if not wanted:
        return []
    if any(not (_WORD_CHAR.match(name) and _WORD_CHAR.match(name[-1])) for name in wanted):
        return _alternation_spans(text, wanted)
    # Every fold of a run of chains (and what lies between them) that can grow into
    # a name: the names cut before each of their non-word characters.
    prefixes = {name[:cut] for name in wanted for cut in range(1, len(name))
                if not _WORD_CHAR.match(name[cut])} | wanted
    longest = max(len(name) for name in wanted)
    reach = _SPELLING_WIDTH * longest
    spans: list[tuple[int, int]] = []
    chain = _CHAIN.search(text)
    while chain is not None:
        start, end = chain.span()
        found = None
        while end - start <= reach:
            written = text[start:end]
            folded = fold(written)
            if folded not in prefixes:
                break
            if folded in wanted and (written.isascii() or spells(written, folded)):
                found = end
            # The next chain, unless it starts or ends beyond reach: a match cut short
            # at the window's end stops at most one character before it, past reach.
            word = _WORD_CHAR.search(text, end, min(len(text), start + reach))
            if word is None:
                break
            following = _CHAIN.match(text, word.start(), word.start() + reach + 2)
            if following is None:  # pragma: no cover - a word character starts a chain
                break
            end = following.end()
        if found is not None:
            spans.append((start, found))
        chain = _CHAIN.search(text, found if found is not None else chain.end())
    return spans


#: Up to this many names are each searched with ``str.find``; more, with one pass over
#: the word chains of the text and set lookups.  On a PostgreSQL log (1 MB, a login on
#: every line) the pass took 55 ms whatever the number of names, the searches 22 ms for
#: 33 names, 32 ms for 64, 56 ms for 128 and 87 ms for 256.
_FIND_NAMES: Final = 96


def login_spans(text: str, exact: Collection[str], caseless: Collection[str] = ()
                ) -> dict[tuple[str, bool], list[tuple[int, int]]]:
    """Where each user name stands in ``text`` as a whole token, left to right.

    ``exact`` names match as written (Unix and most systems); ``caseless`` ones, given
    case-folded, in any case (SAP, Windows).  A whole token touches no word character,
    nor a word character and a "." or "-", on either side: ``jsilva`` is not found in
    ``jsilva.bak`` or ``a-jsilva``.  Keys are ``(name, caseless)``.
    """
    found: dict[tuple[str, bool], list[tuple[int, int]]] = {}
    if exact:
        _token_spans(text, text, exact, False, found)
    if caseless:
        folded = text.casefold()
        if len(folded) == len(text):
            _token_spans(text, folded, caseless, True, found)
        else:  # a character whose case fold is longer (ß): offsets must stay the text's
            for name in caseless:
                pattern = re.compile(re.escape(name), re.IGNORECASE)
                spans = [m.span() for m in pattern.finditer(text)
                         if m.group().casefold() == name and _whole(text, *m.span())]
                if spans:
                    found[(name, True)] = spans
    return found


def _whole(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 2):start]
    after = text[end:end + 2]
    return not (before[-1:].isalnum() or before[-1:] == "_"
                or (before[-1:] in (".", "-") and len(before) == 2
                    and (before[0].isalnum() or before[0] == "_"))
                or after[:1].isalnum() or after[:1] == "_"
                or (after[:1] in (".", "-") and len(after) == 2
                    and (after[1].isalnum() or after[1] == "_")))


def _token_spans(text: str, haystack: str, names: Collection[str], caseless: bool,
                 found: dict[tuple[str, bool], list[tuple[int, int]]]) -> None:
    # Past _FIND_NAMES names, the pass over word chains reads a name as a token where
    # \w ends: the search, where isalnum does (``²`` is one to isalnum alone).  In ASCII
    # they agree, and the scan stands for either.
    many = len(names) > _FIND_NAMES
    ascii_text = haystack.isascii() and text.isascii()
    starts = _literal_starts(haystack, names) if not many or ascii_text else None
    if starts is _CROWDED:
        # Names written inside one another at every place: in ASCII the pass over word
        # chains reads them in one go (the search would read the text once per name
        # and each time find nearly every place).  Beyond ASCII the two readings may
        # differ (see above): the search then, as before the scan.
        starts, many = None, many or ascii_text
    if starts is not None and many:
        # Entered as the search and the pass over word chains enter them: the names that
        # are no chain (``ana@corp``) first, then the others by their first place.
        entered = []
        for name in names:
            size = len(name)
            spans = [(index, index + size) for index in starts.get(name, ())
                     if _whole(text, index, index + size)]
            if not spans:
                continue
            if _CHAIN.fullmatch(name):
                entered.append((spans[0][0], name, spans))
            else:
                found[(name, caseless)] = spans
        for _, name, spans in sorted(entered):
            found[(name, caseless)] = spans
        return
    chained = {name for name in names if _CHAIN.fullmatch(name)} if many else set()
    # The search, like the scan, gives up in ASCII past one occurrence per
    # _CHARS_PER_OCCURRENCE characters (the same crowded names, without hyperscan or on
    # a short text): the pass over word chains then reads them.
    budget = len(haystack) // _CHARS_PER_OCCURRENCE + 1_024 \
        if ascii_text and not many and starts is None else None
    own: dict[tuple[str, bool], list[tuple[int, int]]] = {}
    for name in names:
        if name in chained or not name:
            continue
        size = len(name)
        if starts is not None:
            spans = [(index, index + size) for index in starts.get(name, ())
                     if _whole(text, index, index + size)]
        else:
            searched = _whole_spans(text, haystack, name, budget)
            if searched is None:
                # Crowded: the chains are read in one pass, the names that are no chain
                # (``ana@corp``) searched to the end.
                chained = {name for name in names if _CHAIN.fullmatch(name)}
                own = {key: spans for key, spans in own.items() if key[0] not in chained}
                budget = None
                if name in chained:
                    continue
                searched = _whole_spans(text, haystack, name, None)
                assert searched is not None  # (no budget)
            spans, examined = searched
            if budget is not None:
                budget -= examined
        if spans:
            own[(name, caseless)] = spans
    found.update(own)
    if chained:
        _chain_spans(haystack, chained, caseless, found)


def _whole_spans(text: str, haystack: str, name: str, budget: int | None,
                 ) -> tuple[list[tuple[int, int]], int] | None:
    """Where ``name`` stands in ``haystack`` as a whole token (see _whole), and how many
    of its occurrences were read; None past ``budget`` occurrences."""
    size = len(name)
    spans = []
    examined = 0
    index = haystack.find(name)
    while index >= 0:
        examined += 1
        if budget is not None and examined > budget:
            return None
        if _whole(text, index, index + size):
            spans.append((index, index + size))
        index = haystack.find(name, index + 1)
    return spans, examined


def _chain_spans(haystack: str, chained: Collection[str], caseless: bool,
                 found: dict[tuple[str, bool], list[tuple[int, int]]]) -> None:
    """The pass over word chains: where each of ``chained`` stands as a whole chain."""
    # In ASCII, where a word character is a letter, a digit or "_" to either module, the
    # chains are read by re (40 against 61 ms for a 1 MB web server log).
    chains = _CHAIN_ASCII if haystack.isascii() else _CHAIN
    for match in chains.finditer(haystack):
        token = match.group()
        if token in chained:
            found.setdefault((token, caseless), []).append(match.span())


#: A text from this long up is searched for several names in one hyperscan scan (when
#: hyperscan is installed and the text is Latin-1) rather than with ``str.find`` per
#: name: ``str.find`` reads the text once per name (0.35 ms per name per MB: 14 ms for
#: the 40 names of a 1 MB web server log), the scan reads it once (0.2 ms per MB).
_SCAN_FROM: Final = 1 << 16
#: A new set of names is compiled (2 ms for 100 names, 25 for 1,000) only when
#: ``str.find`` would read at least this many characters in all (names times text
#: length): about 5 ms of searching.
_COMPILE_FROM: Final = 16_000_000
#: Past _FIND_NAMES names, a database is compiled for a text of at least this many
#: characters per name (25 us to compile a name, 40 ns to read a character's chain).
_CHARS_PER_COMPILED_NAME: Final = 625
#: A scan reports at most one occurrence per this many characters of the text (and a
#: thousand more), or is given up: a log's whole tokens are rarer by far (a login on each
#: line of a PostgreSQL log is one per 150 characters).
_CHARS_PER_OCCURRENCE: Final = 8
#: What _literal_starts answers when the scan gave up (see _CHARS_PER_OCCURRENCE).
_CROWDED: Final[dict[str, list[int]]] = {}
#: Up to this many names are scanned for (more: see _token_spans).  Thousands that share
#: their prefixes (``u1`` of ``u12`` and ``u123``) make the scan report every prefix, and
#: compile in half a second.
_SCAN_NAMES_MAX: Final = 2_048
#: A stream's names grow block by block: a database compiled for the names so far serves
#: the next blocks, the names it lacks searched with ``str.find``, until they are more
#: than this share of it (compiling costs about as much as searching that many).
_EXTRA_SHARE: Final = 16
#: Recently compiled name sets, each with its names in the order of the database's ids.
_LITERAL_DATABASES: dict[frozenset[str], tuple[tuple[str, ...], Any]] = {}
_LITERAL_DATABASES_KEPT: Final = 8
_LITERAL_LOCK: Final = threading.Lock()


def _literal_starts(haystack: str, names: Collection[str]) -> dict[str, list[int]] | None:
    """Where each of ``names`` starts in ``haystack``, every occurrence, overlapping ones
    too (what ``str.find`` from each occurrence on finds), read in one hyperscan scan
    (and ``str.find`` for the few names the database at hand lacks); None when the text
    is short, the names are many, hyperscan is missing, or the text is not Latin-1
    (where a byte offset is a character offset); _CROWDED when they stand everywhere."""
    if len(haystack) < _SCAN_FROM or not 2 <= len(names) <= _SCAN_NAMES_MAX:
        return None
    try:
        import hyperscan
    except ImportError:  # pragma: no cover - the fast extra is installed in tests
        return None
    try:
        data = haystack.encode("latin-1")
    except UnicodeEncodeError:
        return None
    # A name that is not Latin-1 is not written in a Latin-1 text.
    wanted = frozenset(name for name in names if name and is_latin1(name))
    if not wanted:
        return {}
    held = _database_for(wanted)
    if held is None:
        # Compiled when the search it spares costs more: str.find per name, or past
        # _FIND_NAMES names the pass over the word chains (40 ms per MB, about what
        # compiling 1,600 names costs).
        if len(names) * len(haystack) < _COMPILE_FROM if len(names) <= _FIND_NAMES \
                else len(haystack) < len(names) * _CHARS_PER_COMPILED_NAME:
            return None
        ordered = tuple(sorted(wanted))
        database = literal_database(ordered)
        if database is None:  # pragma: no cover - literals compile; str.find then
            return None
        held = (ordered, database)
        with _LITERAL_LOCK:
            while len(_LITERAL_DATABASES) >= _LITERAL_DATABASES_KEPT:
                _LITERAL_DATABASES.pop(next(iter(_LITERAL_DATABASES)))
            _LITERAL_DATABASES[wanted] = held
    ordered, database = held
    ends: list[tuple[int, int]] = []
    # Names written inside one another (``ab``, ``aba``, ``abab``... on a line of
    # ``abab``) match at nearly every place of the text for each of them: the scan stops
    # past this many occurrences, and the caller searches as without it.
    most = len(haystack) // _CHARS_PER_OCCURRENCE + 1_024

    def on_match(ident: int, start: int, end: int, flags: int, context: Any) -> bool:
        ends.append((ident, end))
        return len(ends) > most  # (True stops the scan)

    try:
        # A scratch per scan: one may not serve two threads at once.
        database.scan(data, match_event_handler=on_match, scratch=hyperscan.Scratch(database))
    except hyperscan.ScanTerminated:
        return _CROWDED
    starts: dict[str, list[int]] = {}
    for ident, end in ends:
        name = ordered[ident]
        starts.setdefault(name, []).append(end - len(name))
    for found in starts.values():
        found.sort()  # hyperscan reports by end; kept in order whatever the backend does
    if len(ordered) < len(wanted):
        for name in wanted.difference(ordered):
            index = haystack.find(name)
            if index >= 0:
                at = starts[name] = []
                while index >= 0:
                    at.append(index)
                    index = haystack.find(name, index + 1)
    return starts


def _database_for(wanted: frozenset[str]) -> tuple[tuple[str, ...], Any] | None:
    """A database kept for ``wanted``, or for most of them: names of ``wanted`` alone,
    lacking at most one in _EXTRA_SHARE of them."""
    with _LITERAL_LOCK:
        kept = list(_LITERAL_DATABASES.items())
    best: tuple[tuple[str, ...], Any] | None = None
    for names, held in kept:
        if names == wanted:
            return held
        if len(names) <= len(wanted) <= len(names) + max(1, len(names) // _EXTRA_SHARE) \
                and names <= wanted and (best is None or len(names) > len(best[0])):
            best = held
    return best


def is_chain(name: str) -> bool:
    """Whether ``name`` is written as words joined by dots or dashes: a token
    :func:`whole_tokens` may list."""
    return (_CHAIN_ASCII if name.isascii() else _CHAIN).fullmatch(name) is not None


def whole_tokens(text: str) -> set[str]:
    """The distinct tokens of ``text`` that login_spans finds a many-names list among
    (words joined by dots or dashes, taken whole).  In ASCII, where a word character is
    a letter, a digit or ``_`` to either module, Python's ``re`` lists them as strings
    (no match object per token: a JSON Lines stream asks this of every line)."""
    if text.isascii():
        return set(_CHAIN_ASCII.findall(text))
    return {match.group() for match in _CHAIN.finditer(text)}


def _alternation_spans(text: str, names: set[str]) -> list[tuple[int, int]]:
    """:func:`name_spans` for names that do not start and end with a word character."""
    pattern = regex.compile(
        r"(?<![\w])(?<![\w][.-])(?:"
        + "|".join(literal_pattern(n) for n in longest_first(names))
        + r")(?![\w])(?![.-][\w])"
    )
    return [match.span() for match in pattern.finditer(text) if fold(match.group()) in names]


def _make_result(recognizer: EntityRecognizer, start: int, end: int, score: float,
                 shape: str) -> RecognizerResult:
    return make_result(recognizer, ENTITY, start, end, score=score, pattern_name=shape)


#: SAP user fields: the value is a user name whatever word it is, in SAP's case rules.
_SAP_KEYS: Final = frozenset({"bname", "usnam", "ernam", "aenam", "sy-uname", "uname"})


def _strength(shape: _Shape, match: regex.Match[str]) -> tuple[bool, bool]:
    """Whether the form admits nothing but a user name, and whether case is ignored.

    A key/value pair is such a form when written as code or data writes it:
    ``user=x``, ``user = x``, ``"login": "x"`` (a quoted key and value) or an SAP
    user field (``BNAME = X``); ``login: Disconnected`` in a log line is not.
    """
    if shape.strong is not None:
        return shape.strong, shape.caseless
    key = fold(match.group("key"))
    if key in _SAP_KEYS:
        return True, True
    return _as_data(match.group("sep")), key == "benutzer"


#: A JSON key that names a user as the key/value shapes read it: a user key
#: (``user``, ``login``, ``owner``, ``userName``) or a qualified one (``remote_user``,
#: ``TargetUserName``, ``DB_USER``).
_DATA_KEY: Final = regex.compile(
    rf"(?i:{_KEYS})|[A-Za-z0-9.-]*(?:[A-Za-z0-9]_(?i:(?:user|usu[aá]rio){_USER_KEY})"
    rf"|[a-z0-9]U(?i:ser{_USER_KEY}))", FLAGS)
#: The longest JSON value read as a member written as data (a login is shorter).
_MEMBER_MAX: Final = 128


def _is_data_key(label: str) -> bool:
    """A label (a JSON key) that names a user as data writes it (:data:`_DATA_KEY`): the
    engine then hands the recognizer the labels of such a member (see
    UsernameRecognizer.enhance_using_context)."""
    return _DATA_KEY.fullmatch(label) is not None


def _is_plausible_name(value: str) -> bool:
    folded = fold(value)
    # One character over and over (XXXXXX, xxxx) masks a name, it is none.
    return len(value) >= 2 and folded not in _STOPWORDS and not folded.isdigit() \
        and len({c for c in folded if c.isalnum()}) > 1


class UsernameRecognizer(RawContextMixin, EntityRecognizer):
    """Find user names by the shapes around them (see the module docstring)."""

    #: Score of further occurrences of a name that was found by its shape.
    PROPAGATED_SCORE: Final = 0.6

    DEFAULT_CONTEXT = ("usuario", "user", "login", "logon", "owner", "conta", "account",
                       "operador", "benutzer")

    def __init__(
        self,
        supported_language: str = "pt",
        service_accounts: ServiceAccounts | None = None,
        context: Iterable[str] | None = None,
        name: str | None = None,
    ) -> None:
        self.service_accounts = service_accounts if service_accounts is not None \
            else ServiceAccounts()
        #: _may_report's answers, for the allowlist they were given with.
        self._reportable: dict[str, bool] = {}
        self._reportable_for = self.service_accounts
        words = self._init_context(context)
        self.context_words = ContextWords(words, label_key=_is_data_key)
        super().__init__(
            supported_entities=[ENTITY],
            supported_language=supported_language,
            context=words,
            name=name or "UsernameRecognizer",
        )

    def load(self) -> None:
        """Nothing to load: the patterns are compiled at import."""

    #: ``analyze`` takes the prefilter's hits: a shape that none of its anchors hit is
    #: not run.
    takes_hits: Final = True
    #: The engine hands this recognizer the labels of a JSON value (its keys) even when
    #: its text held nothing (see enhance_using_context).
    reads_labels: Final = True

    def enhance_using_context(
        self,
        text: str,
        raw_recognizer_results: list[RecognizerResult],
        other_raw_recognizer_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts | None,
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """A JSON member under a user key is read as data writes it, then scored.

        redactor's engine analyses a JSON value as ``"<key>: <value>"`` with its keys as
        labels, which reads like a log line's ``login: Disconnected`` or a YAML setting.
        The text of a JSON line reads ``"login": "x"``, a form that admits nothing but a
        login: the member is judged as that text would be (``{"user": "clima"}``,
        ``{"TargetUserName": "PFreitas"}``, ``{"DB_USER": "APP_RW"}``)."""
        results = raw_recognizer_results
        if context:
            results = self._member_as_data(text, results, context[-1])
            if not self.context_words.keyword_in_labels(context):
                # A key that lifts the recognizer only as a user key read as data
                # (TargetUserName) lends no score: the text of the line does not.
                context = None
        return super().enhance_using_context(text, results, other_raw_recognizer_results,
                                             nlp_artifacts, context)

    def _member_as_data(self, text: str, results: list[RecognizerResult],
                        label: str) -> list[RecognizerResult]:
        prefix = f"{label[:LABEL_PREFIX_CHARS]}: "
        if not text.startswith(prefix) or _DATA_KEY.fullmatch(label) is None:
            return results
        value = text[len(prefix):]
        if not value or len(value) > _MEMBER_MAX or value != value.strip() \
                or any(c in value for c in "\"'\\\n\r"):
            return results
        written = f'"{label}": "{value}"'
        start = len(label) + 5  # where the value stands in ``written``
        shift = len(prefix) - start
        found = [r for r in self.analyze(written, [ENTITY])
                 if start <= r.start and r.end <= start + len(value)]
        if not found:
            return results
        kept = {(r.start, r.end): r for r in results}
        for result in found:
            result.start += shift
            result.end += shift
            known = kept.get((result.start, result.end))
            if known is None or known.score < result.score \
                    or SPREAD_KEY not in (known.recognition_metadata or {}):
                kept[(result.start, result.end)] = result
        return sorted(kept.values(), key=lambda r: (r.start, r.end))

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        hits: Sequence[tuple[int, int, str]] | None = None,
    ) -> list[RecognizerResult]:
        """Return one result per name, spanning the name only.

        ``hits``: the prefilter's accepted hits in ``text`` with their triggers' names,
        when the engine analyses the windows around them.  Every match of a shape holds
        a hit of one of its anchors (_Shape.anchors), so a shape whose anchors did not
        hit finds nothing there and is skipped: a PostgreSQL log's ``user=x`` lines run
        the key/value shapes only, not all nineteen.  A hit of a union of triggers
        (named "any": backends that cannot tell its triggers apart) runs every shape."""
        names = self._anchors_in(text) if hits is None else {name for _, _, name in hits}
        if names is not None and not names <= _ANCHOR_NAMES:
            names = None
        # With the hits, each shape reads only the lines holding a hit of its anchors.
        lines = _anchor_lines(text, hits) if hits is not None and names is not None else None
        best: dict[tuple[int, int], RecognizerResult] = {}
        spread: dict[tuple[int, int], str] = {}
        for shape in _SHAPES:
            if names is not None and names.isdisjoint(shape.anchors):
                continue
            for match in _shape_matches(shape, text, lines):
                value = match.group("v")
                if not self._may_report(value):
                    continue
                if shape.check is not None and not shape.check(text, match):
                    continue
                strong, caseless = _strength(shape, match)
                common = is_common_word(value.strip("_"))
                if common and not strong:
                    continue  # "login: Disconnected", "do usuário ou"
                if not strong and _adjective_after_user_word(text, match):
                    continue  # "ID do usuário efetivo"
                start, end = match.span("v")
                # Spread to the name's other occurrences only when it is no word, nor
                # a setting's value alone.
                how = "" if common or _weak_setting(shape, match) \
                    or _mailbox_of_no_one(text, shape, match) \
                    else (SPREAD_CASELESS if caseless else SPREAD_EXACT)
                if how and spread.get((start, end)) != SPREAD_CASELESS:
                    spread[(start, end)] = how
                known = best.get((start, end))
                if known is not None and known.score >= shape.score:
                    continue
                best[(start, end)] = _make_result(self, start, end, shape.score, shape.name)
        for key, result in best.items():
            if key in spread:
                result.recognition_metadata[SPREAD_KEY] = spread[key]
        return sorted(best.values(), key=lambda r: (r.start, r.end))

    def _anchors_in(self, text: str) -> set[str] | None:
        """The names of the prefilter's triggers that match somewhere in ``text``, their
        accepts not asked (a superset of the hits the prefilter would pass), for a text
        analysed without hits (a JSON value under a user key, read whole): the shapes
        none of whose anchors match there find nothing.  None beyond ASCII, where
        Python's ``re`` and the ``regex`` module may read a caseless letter apart."""
        if not text.isascii():
            return None
        scans = self._anchor_scans
        if scans is None:
            scans = self._anchor_scans = tuple(
                (trigger.name, re.compile(trigger.pattern))
                for trigger in self.prefilter(0.0).triggers)
        return {name for name, pattern in scans if pattern.search(text) is not None}

    _anchor_scans: tuple[tuple[str, re.Pattern[str]], ...] | None = None

    def prefilter(self, threshold: float) -> Prefilter:
        """The anchors of the shapes; a key naming a service account is no hit.

        Margins: the command-flag shape looks up to 200 characters back on its line.
        """
        # The name follows the key: where the key starts does not matter (max_length).
        triggers = [Trigger(_KEY_VALUE_TRIGGER, after=_NAME_REACH, accept=self._key_may_name,
                            name="key/value", max_length=1)]
        triggers.extend(Trigger(anchor, before=72, after=_NAME_REACH, name=name)
                        for anchor, name in _ANCHORS)
        triggers += [
            Trigger(_PAIR_ANCHOR, before=72, after=_NAME_REACH, name="xml name/value",
                    accept=self._names_after(_PAIR_VALUE)),
            Trigger(_SAP_WP_ANCHOR, before=72, after=_NAME_REACH, name="sap work process",
                    accept=self._names_after(_SAP_WP_VALUE)),
            # Not after "-" (the accept refuses that field: most requests have no
            # login), written in the pattern: a hit per line was asked to refuse it.
            Trigger(f"[^-]{_CLF_ANCHOR}", before=72, after=_NAME_REACH, name="access log",
                    accept=self._access_log_names, max_length=_CLF_ANCHOR_CHARS + 1),
            # The name after up to three path segments of 64 characters.
            Trigger(r":iam::[0-9]{12}:user/", after=_ARN_REACH, name="aws user"),
        ]
        return Prefilter(ENTITY, tuple(triggers), margin_before=300, margin_after=96)

    def _names_after(self, value: regex.Pattern[str]) -> Callable[[str, int, int], bool]:
        """An ``accept`` for an anchor its shape's name follows: the name there is one
        the shape would report (plausible, no service account)."""
        def accept(text: str, start: int, end: int) -> bool:
            match = value.match(text, end)
            return match is not None and self._may_report(match.group("v"))
        return accept

    def _access_log_names(self, text: str, start: int, end: int) -> bool:
        """The access-log anchor's accept: the authuser field before the time is a name
        the shape would report (not "-", the field of a request without a login)."""
        time_start = end - _CLF_ANCHOR_CHARS
        if text[time_start - 1:time_start] in ("-", ""):
            return False  # "-" (most requests), or no field: no name ends there
        match = _CLF_VALUE.search(text, max(0, time_start - 66), time_start)
        return match is not None and self._may_report(match.group("v"))

    def _may_report(self, value: str) -> bool:
        """Whether the shapes may report ``value`` as a login: "_usuário_" and "<user>"
        are placeholders of documentation, marked up, and service accounts none.

        Remembered per value (a log names the same few logins on every line)."""
        if self._reportable_for is not self.service_accounts:
            self._reportable_for = self.service_accounts  # replaced since: start over
            self._reportable.clear()
        known = self._reportable.get(value)
        if known is None:
            core = value.strip("_")
            known = _is_plausible_name(core) and value not in self.service_accounts \
                and core not in self.service_accounts
            if len(self._reportable) >= ServiceAccounts.MEMORY:
                self._reportable.clear()
            self._reportable[value] = known
        return known

    def _key_may_name(self, text: str, start: int, end: int) -> bool:
        """False only when the value after this key can be nothing but a non-name.

        Mirrors the key/value shape: a display name ("Maria Silva") may follow,
        or a login that ends where the token ends or before one of its dots.
        """
        match = _VALUE_AFTER_KEY.match(text, end)
        if match is None:
            return False
        token = match.group(1)
        if len(token) > 64:
            return True
        if token[0].isupper() and token.isalpha() and _DISPLAY_NEXT.match(text, match.end(1)):
            return True
        cuts = [len(token), *(i for i, c in enumerate(token) if c == ".")]
        for cut in cuts:
            value = token[:cut]
            if value and value[-1] not in ".-" and _is_plausible_name(value) \
                    and value not in self.service_accounts:
                return True
        return False



class KnownUsernameRecognizer(EntityRecognizer):
    """Find the names of a configured list as whole words, case and accent insensitively.

    An entry may hold several words ("joao silva"); they must then follow each other
    separated by white space only.  Lookup is one dictionary probe per word of text,
    so lists of thousands of names cost no more than short ones.
    """

    SCORE: Final = 0.95

    def __init__(
        self,
        known_usernames: Iterable[str],
        supported_language: str = "pt",
        name: str | None = None,
    ) -> None:
        index: dict[str, list[tuple[str, ...]]] = {}
        for entry in known_usernames:
            tokens = tuple(fold(token) for token in entry.split())
            if tokens:
                index.setdefault(tokens[0], []).append(tokens[1:])
        for tails in index.values():
            tails.sort(key=lambda tail: (-len(tail), tail))  # longest entry first
        self._index = index
        #: An entry of several words matches across any white space, line breaks too:
        #: texts joined by line breaks (Analysis.found_many) would join their words.
        self.matches_across_lines = any(tail for tails in index.values() for tail in tails)
        super().__init__(
            supported_entities=[ENTITY],
            supported_language=supported_language,
            name=name or "KnownUsernameRecognizer",
        )

    def __len__(self) -> int:
        return sum(len(tails) for tails in self._index.values())

    def load(self) -> None:
        """Nothing to load: the list is indexed in the constructor."""

    def prefilter(self, threshold: float) -> Prefilter:
        """Every listed name, in any case and accents, its words apart by any white space.

        A finding is always one whole entry, so the hit covers it.  The margins cover
        the tokens a window could cut (a token is a word with its ``.``, ``-`` and ``_``).
        """
        margin = KNOWN_MARGIN
        spelled = all(fold(word).isascii() for head, tails in self._index.items()
                      for word in (head, *(w for tail in tails for w in tail)))
        if len(self) > MAX_COMPILED_NAMES or not spelled:
            # Thousands of accent-insensitive alternatives take minutes to compile
            # (hyperscan) or exceed the pattern limits, and literal_pattern spells
            # Latin letters only: the recognizer finds these hits itself.
            return Prefilter(ENTITY, (), margin_before=margin, margin_after=margin,
                             finder=self._listed_name_hits)
        # Hyperscan refuses a pattern past a parsed size (a few dozen names): chunks.
        patterns: list[str] = []
        current: list[str] = []
        size = 0
        for alternative in self._alternatives(self._index):
            if current and size + len(alternative) > KNOWN_TRIGGER_CHARS:
                patterns.append("|".join(current))
                current, size = [], 0
            current.append(alternative)
            size += len(alternative) + 1
        if current:  # none when no entry has a word ("  "): nothing to find, no trigger
            patterns.append("|".join(current))
        return Prefilter(ENTITY, tuple(Trigger(p, name="listed name") for p in patterns),
                         margin_before=margin, margin_after=margin)

    @staticmethod
    def _alternatives(index: Mapping[str, Iterable[tuple[str, ...]]]) -> list[str]:
        """One pattern per entry: its words in any case and accents, apart by white space."""
        entries = sorted({(head, *tail) for head, tails in index.items() for tail in tails})
        return [_SPACES.join(literal_pattern(word) for word in entry) for entry in entries]

    def _listed_name_hits(self, text: str) -> list[tuple[int, int]]:
        """Where the listed entries stand, for lists the triggers cannot hold.

        The distinct tokens of the text are folded and looked up among the entries'
        first words: a text with none of them costs one tokenisation.  Otherwise the
        hits are the recognizer's own matches.
        """
        heads = {fold(token) for token in set(_TOKEN.findall(text))}
        if heads.isdisjoint(self._index):
            return []
        return self._matches(text)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
    ) -> list[RecognizerResult]:
        """Return one result per listed name found as whole words."""
        return [_make_result(self, start, end, self.SCORE, "known user name")
                for start, end in self._matches(text)]

    def _matches(self, text: str) -> list[tuple[int, int]]:
        if not self._index:
            return []
        tokens = [(m.start(), m.end(), fold(m.group())) for m in _TOKEN.finditer(text)]
        found: list[tuple[int, int]] = []
        index = 0
        while index < len(tokens):
            start, end, token = tokens[index]
            consumed = 0
            for tail in self._index.get(token, ()):
                if self._tail_matches(text, tokens, index, tail):
                    consumed = len(tail) + 1
                    end = tokens[index + len(tail)][1]
                    break
            if consumed:
                found.append((start, end))
                index += consumed
            else:
                index += 1
        return found

    @staticmethod
    def _tail_matches(
        text: str, tokens: list[tuple[int, int, str]], index: int, tail: tuple[str, ...]
    ) -> bool:
        if index + len(tail) >= len(tokens):
            return False
        for offset, expected in enumerate(tail, start=1):
            previous_end = tokens[index + offset - 1][1]
            start, _, token = tokens[index + offset]
            if token != expected or text[previous_end:start].strip():
                return False
        return True


def pack_recognizers(language: str, options: PackOptions) -> list[EntityRecognizer]:
    """The USERNAME recognizers of the pack for one language (its catalogue factory): the
    shape-based one with the pack's service accounts, and the list-based one when names
    are known."""
    built: list[EntityRecognizer] = [
        UsernameRecognizer(supported_language=language,
                           service_accounts=options.service_accounts)]
    if options.known_usernames:
        built.append(KnownUsernameRecognizer(options.known_usernames,
                                             supported_language=language))
    return built

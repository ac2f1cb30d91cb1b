"""SECRET: credentials in tool output and logs — provider tokens, private keys, passwords.

One Presidio recognizer reports every kind; the kind is in each finding's recognizer
name (``SecretRecognizer:github_token``; see :func:`secret_kind`).  What it finds:

* **provider tokens** by their fixed formats, with the patterns of Yelp's
  detect-secrets plugins (AWS access keys, GitHub, GitLab, Slack, Stripe, SendGrid,
  OpenAI, PyPI, Azure storage keys...).  Only the plugins whose patterns run in linear
  time are used: the IBM, SoftLayer, Cloudant, keyword, NPM and JWT plugins backtrack
  badly on crafted lines (upstream PR #977) and are replaced by the linear rules below.
  Their patterns are searched with ``finditer``, so each finding has its offsets
  (detect-secrets itself scans line by line and reports none);
* **JSON Web Tokens** (``eyJ…``) whose header decodes to a JSON object;
* **private keys**: whole PEM blocks (``-----BEGIN … PRIVATE KEY-----`` to its END
  line, also with ``\\n`` escapes inside a JSON string), PuTTY key files and PEM
  private keys encoded in base64 (a Kubernetes ``tls.key``);
* **passwords in URLs**: only the password of ``scheme://user:password@host``;
* **assignments**: the value of a key that names a secret, in key/value, ``.env``,
  JSON, YAML, XML, SAP profile (``PASSWD=``) and command-line (``--password x``)
  syntax.  Password keys (``senha``, ``password``, ``passwd``, ``pwd``...) and secret
  keys (``secret``, ``token``, ``chave``, ``api_key``...) take any value that is not
  a placeholder; weaker keys (``key``, ``auth``, ``session``, ``cookie``...) only a
  value of high entropy (detect-secrets' Shannon entropy);
* ``Authorization: Bearer``/``Basic`` credentials;
* every value under ``data:``/``stringData:`` of a Kubernetes ``Secret`` manifest,
  in YAML and JSON, when its ``kind: Secret`` line stands within
  :data:`MANIFEST_REACH` characters.

Not secrets: the shell's ``PWD=`` (and any ``pwd`` holding a path), ``chave`` next to
an NF-e or Pix word or holding an access-key-like number (they have their own
entities), placeholders (``<password>``, ``${TOKEN}``, ``********``, ``[SECRET]``),
code references (``self.password``, ``os.environ[...]``) and public keys.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import json
import re
import string
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult

from recognizers._text import fold, longest_first
from recognizers.base import CONTEXT_DISTANCE_KEY

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

__all__ = [
    "ENTITY",
    "KINDS",
    "MANIFEST_REACH",
    "SecretRecognizer",
    "secret_kind",
]

ENTITY: Final = "SECRET"

#: The longest private key block (PEM text or base64) a finding covers in one piece.
#: A longer block is covered from both ends (the BEGIN line onwards and up to the END
#: line), so blocks up to twice this size are covered whole.
KEY_REACH: Final = 12_000
#: How far the ``kind: Secret`` line of a Kubernetes manifest may stand from a value
#: of its ``data:`` block (and from the block's header line): ``kubectl`` prints the
#: data before the kind, so a block of up to about this size is covered.
MANIFEST_REACH: Final = 8_000
#: The longest value of an assignment.
MAX_VALUE: Final = 4_096
#: The longest password of a command line (``mysql -p…``, ``IDENTIFIED BY '…'``).
MAX_COMMAND_VALUE: Final = 512
#: The longest PEM key encoded in base64 (a Kubernetes tls.key of an 8192-bit RSA key
#: is about 8,700 characters).
MAX_B64_KEY: Final = 16_000
#: The longest key of an assignment, on either side of the word that names a secret.
MAX_KEY: Final = 64
#: The longest JSON Web Token.
MAX_JWT: Final = 8_192
#: How far from a finding the recognizer reads (the prefilter's margins).  The engine
#: analyses long texts in chunks whose half-overlap (redactor.engine.CHUNK_OVERLAP / 2)
#: must hold this reading plus the longest finding.
MARGIN: Final = MANIFEST_REACH + 256

# Scores: a format or a key that names a secret is certain (1.0); a high-entropy value
# of a weaker key less so.  Every finding is reported at context distance 0 (its key
# or format is its keyword), so that between equal scores a secret is not cut by an
# identifier inside it.
FORMAT_SCORE: Final = 1.0
KEYED_SCORE: Final = 1.0
ENTROPY_SCORE: Final = 0.8


# ------------------------------------------------------------------ provider formats

#: detect-secrets plugins used, with the kind each denylist pattern reports and the
#: group holding the value (0: the whole match).  A pattern marked None is not used:
#: Artifactory's ``AP[0-9A-F]…`` hits ordinary upper-case words of SAP logs.
_PLUGINS: Final = (
    ("aws", "AWSKeyDetector", (("aws_access_key", 0), ("aws_secret_key", 1))),
    ("artifactory", "ArtifactoryDetector", (("artifactory_token", 0), None)),
    ("azure_storage_key", "AzureStorageKeyDetector", (("azure_storage_key", 0),)),
    ("basic_auth", "BasicAuthDetector", (("connection_string_password", 1),)),
    ("discord", "DiscordBotTokenDetector", (("discord_token", 0),)),
    ("github_token", "GitHubTokenDetector", (("github_token", 0),)),
    ("gitlab_token", "GitLabTokenDetector", (("gitlab_token", 0),) * 7),
    ("mailchimp", "MailchimpDetector", (("mailchimp_key", 0),)),
    ("openai", "OpenAIDetector", (("openai_key", 0),)),
    ("pypi_token", "PypiTokenDetector", (("pypi_token", 0),) * 2),
    ("sendgrid", "SendGridDetector", (("sendgrid_key", 0),)),
    ("slack", "SlackDetector", (("slack_token", 0), ("slack_webhook", 0))),
    ("square_oauth", "SquareOAuthDetector", (("square_secret", 0),)),
    ("stripe", "StripeDetector", (("stripe_key", 0),)),
    ("telegram_token", "TelegramBotTokenDetector", (("telegram_token", 0),)),
    ("twilio", "TwilioKeyDetector", (("twilio_key", 0),) * 2),
)

#: Formats detect-secrets 1.5.0 does not know, in the same shape: (kind, pattern).
_EXTRA_FORMATS: Final = (
    ("anthropic_key", r"sk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{80,120}"),
    ("openai_key", r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}"),
    ("github_token", r"github_pat_[A-Za-z0-9_]{60,100}"),
    ("google_api_key", r"AIza[0-9A-Za-z_-]{35}"),
    ("npm_token", r"npm_[A-Za-z0-9]{36}"),
)

#: Substrings every match of a format holds, tested with ``in`` before its pattern
#: runs (a pattern without a literal start costs a regex step at every character).
_NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    "aws_access_key": ("A3T", "ABIA", "ACCA", "AKIA", "ASIA"),
    "aws_secret_key": ("aws", "AWS", "Aws"),
    "artifactory_token": ("AKC",),
    "azure_storage_key": ("AccountKey=",),
    "connection_string_password": ("://",),
    "discord_token": (".",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab_token": ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "GR1348941", "glcbt-",
                     "glimt-", "glptt-", "glagent-", "gloas-"),
    "mailchimp_key": ("-us",),
    "openai_key": ("sk-",),
    "anthropic_key": ("sk-ant-",),
    "pypi_token": ("pypi-",),
    "sendgrid_key": ("SG.",),
    "slack_token": ("xox",),
    "slack_webhook": ("hooks.slack.com",),
    "square_secret": ("sq0csp-",),
    "stripe_key": ("k_live_",),
    "telegram_token": (":",),
    "twilio_key": ("AC", "SK"),
    "google_api_key": ("AIza",),
    "npm_token": ("npm_",),
}

#: Formats whose pattern starts without a literal: a fast pattern for a part every
#: match holds, and how far the match may reach before and after that part.  The
#: format's pattern then runs only on that window (matches equal: a window holds every
#: character a match and its look-arounds read).
#: Patterns whose length has no bound run in windows too, so that the prefilter's
#: reach (FORMAT_REACH after a format's start) holds every match; OpenAI's backtracks
#: on a run of "sk-" and only runs near its fixed middle part.  Keyed by plugin and
#: pattern index.
_CORES: Final[dict[tuple[str, int], tuple[str, int, int]]] = {
    ("ArtifactoryDetector", 0): ("AKC", 1, 1_000),
    ("MailchimpDetector", 0): (r"-us\d", 33, 4),
    ("TelegramBotTokenDetector", 0): (r":[0-9A-Za-z_-]{35}", 11, 37),
    ("DiscordBotTokenDetector", 0): (r"\.[a-zA-Z\d_-]{6}\.", 27, 36),
    ("AWSKeyDetector", 1): ("(?i:aws)", 1, 90),
    ("OpenAIDetector", 0): ("T3BlbkFJ", 240, 24),
    ("BasicAuthDetector", 0): ("://", 0, 1_000),
    ("PypiTokenDetector", 0): ("pypi-", 0, 1_000),
    ("PypiTokenDetector", 1): ("pypi-", 0, 1_000),
    ("SlackDetector", 0): ("xox", 0, 1_000),
    ("SlackDetector", 1): ("hooks[.]slack[.]com", 8, 1_000),
}
#: How far after a format's literal start its match may run (windows above included).
FORMAT_REACH: Final = 1_100

#: The separators detect-secrets' Artifactory pattern includes around a token.
_BOUNDARY_CHARS: Final = frozenset(' \t\r\n\f\v=:"')

#: A token's neighbours may not continue it.
_NO_RUN_BEFORE: Final = frozenset(string.ascii_letters + string.digits + "_")
_NO_RUN_AFTER: Final = r"(?![A-Za-z0-9_])"

#: Literal starts of every provider format, for the prefilter (case as written).
_FORMAT_STARTS: Final = (
    "A3T", "ABIA", "ACCA", "AKIA", "ASIA", "AKC", "AccountKey=", "://", "ghp_", "gho_",
    "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glft-", "glsoat-", "glrt-",
    "GR1348941", "glcbt-", "glimt-", "glptt-", "glagent-", "gloas-", "-us", "sk-",
    "pypi-", "SG.", "xox", "hooks.slack.com", "sq0csp-", "k_live_", "AIza", "npm_",
)


@dataclass(frozen=True, slots=True)
class _Format:
    kind: str
    pattern: re.Pattern[str]
    group: int
    needles: tuple[str, ...]
    core: tuple[re.Pattern[str], int, int] | None = None

    def matches(self, text: str) -> Iterator[re.Match[str]]:
        if self.core is None:
            yield from self.pattern.finditer(text)
            return
        core, before, after = self.core
        # Windows around the core's hits, merged where they overlap: each character is
        # searched once.  A match must end before its window does (or at the text's end),
        # so that the window held everything it read.
        windows: list[list[int]] = []
        for hit in core.finditer(text):
            low, high = max(0, hit.start() - before), min(len(text), hit.end() + after)
            if windows and low <= windows[-1][1]:
                windows[-1][1] = max(windows[-1][1], high)
            else:
                windows.append([low, high])
        for low, high in windows:
            for match in self.pattern.finditer(text, low, high):
                if match.end() < high or high == len(text):
                    yield match


@functools.cache
def _formats() -> tuple[_Format, ...]:
    """The provider patterns, bounded so that a longer token does not hold one."""
    import importlib

    formats: list[_Format] = []
    for module, name, uses in _PLUGINS:
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        patterns = list(plugin.denylist)
        if len(patterns) != len(uses):
            raise RuntimeError(f"detect-secrets {name}: {len(patterns)} patterns, "
                               f"expected {len(uses)}")
        for index, (pattern, use) in enumerate(zip(patterns, uses, strict=True)):
            if use is None:
                continue
            kind, group = use
            source = pattern.pattern
            if group == 0 and kind != "artifactory_token":  # that one bounds itself
                # The start is checked in Python (_NO_RUN_BEFORE): a look-behind first
                # would cost a regex step at every character instead of a literal search.
                source = f"(?:{source}){_NO_RUN_AFTER}"
            # ASCII classes only: \d and \w of detect-secrets' patterns are meant so.
            flags = (pattern.flags & ~re.UNICODE) | re.ASCII
            core = _CORES.get((name, index))
            formats.append(_Format(kind, re.compile(source, flags), group, _NEEDLES[kind],
                                   None if core is None else (re.compile(core[0], re.ASCII),
                                                              core[1], core[2])))
    for kind, source in _EXTRA_FORMATS:
        formats.append(_Format(kind, re.compile(f"{source}{_NO_RUN_AFTER}", re.ASCII), 0,
                               _NEEDLES[kind]))
    return tuple(formats)


# ------------------------------------------------------------------ findings


@dataclass(frozen=True, slots=True)
class _Hit:
    start: int
    end: int
    kind: str
    score: float


def secret_kind(recognizer_name: str) -> str | None:
    """The kind of a SECRET finding from its recognizer name, else None."""
    prefix, _, kind = recognizer_name.partition(":")
    return kind if prefix == SecretRecognizer.NAME and kind else None


# ------------------------------------------------------------------ JSON Web Tokens

_JWT: Final = re.compile(
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*+\.[A-Za-z0-9_-]++(?:\.[A-Za-z0-9_-]*+)?", re.ASCII)


def _b64_text(data: str, limit: int = 4_096) -> str | None:
    """``data`` (base64 or base64url, padding optional) decoded as Latin-1, else None."""
    data = data[:limit - limit % 4].replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(data + "=" * (-len(data) % 4), validate=True).decode("latin-1")
    except (binascii.Error, ValueError):
        return None


def _jwts(text: str) -> Iterator[_Hit]:
    if "eyJ" not in text:
        return
    for match in _JWT.finditer(text):
        if match.end() - match.start() > MAX_JWT:
            continue
        header = _b64_text(match.group().split(".", 1)[0])
        if header is None:
            continue
        try:
            decoded = json.loads(header)
        except (ValueError, RecursionError):  # a crafted header nested a thousand deep
            continue
        if isinstance(decoded, dict) and ("alg" in decoded or "typ" in decoded):
            yield _Hit(match.start(), match.end(), "jwt", FORMAT_SCORE)


# ------------------------------------------------------------------ private keys

_PEM_LABEL: Final = r"(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?"
_PEM_BEGIN: Final = re.compile(rf"-----BEGIN ({_PEM_LABEL})-----")
_PEM_END: Final = re.compile(rf"-----END ({_PEM_LABEL})-----")
#: What stands between the armour lines: base64 runs, RFC 1421 headers, line breaks
#: (also escaped, as in a JSON string) and blanks.  Possessive: linear.
_PEM_BODY: Final = re.compile(
    r"(?:[A-Za-z0-9+/=]++|\\[rn]|[\r\n\t ]++|(?:Proc-Type|DEK-Info|Comment):[^\r\n\\]*+)*+")
_PUTTY: Final = re.compile(r"PuTTY-User-Key-File-\d+: ")
#: The end of a PuTTY file: its MAC line.
_PUTTY_MAC: Final = re.compile(r"Private-MAC: [0-9a-fA-F]+")
#: A PEM private key in base64 ("-----BEGIN" encodes to "LS0tLS1CRUdJTi").
_B64_PEM: Final = re.compile(
    rf"(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{{0,{MAX_B64_KEY}}}+={{0,2}}")


def _body_end(text: str, start: int, limit: int) -> int:
    match = _PEM_BODY.match(text, start, min(len(text), limit))
    end = match.end() if match else start
    # Blanks after the last base64 run belong to what follows.
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


#: One line of a PEM body once its prefix is cut: base64, an RFC 1421 header or blank.
_PEM_BODY_LINE: Final = re.compile(r"[A-Za-z0-9+/=]*+|(?:Proc-Type|DEK-Info|Comment):.*")


def _line_prefix(text: str, at: int) -> str | None:
    """What stands before ``at`` on its line (at most MAX_KEY characters), else None."""
    near = max(0, at - MAX_KEY)
    line_start = text.rfind("\n", near, at) + 1
    if line_start == 0 and near > 0:
        return None
    return text[line_start:at]


def _prefixed_body_end(text: str, line_end: int, prefix: str, limit: int,
                       label: str) -> int | None:
    """The end of the body (or of its footer) of a key whose lines all start with
    ``prefix`` (a diff's ``-``, a log prefix, ``# ``), from the BEGIN line's end."""
    last = None
    position = line_end
    limit = min(len(text), limit)
    while position < limit and text[position] == "\n":
        start = position + 1
        newline = text.find("\n", start, limit)
        stop = newline if newline >= 0 else limit
        line = text[start:stop].rstrip("\r")
        if not line.startswith(prefix):
            break
        rest = line[len(prefix):]
        footer = _PEM_END.match(rest)
        if footer is not None:
            return start + len(prefix) + footer.end() if footer.group(1) == label else last
        if _PEM_BODY_LINE.fullmatch(rest.strip()) is None:
            break
        if rest.strip():
            last = start + len(line.rstrip())
        if newline < 0:
            break
        position = newline
    return last


def _body_start(text: str, end: int, limit: int) -> int:
    """The start of the body lines before a footer at ``end``, reading back to ``limit``.

    Real line breaks only (a key escaped inside a JSON string has its BEGIN line on
    the same line and is found from there).  The walk stops at the first line that is
    not body, so it costs the body's length.  Returns ``end`` when there is no body.
    """
    floor = max(0, limit)
    prefix = _line_prefix(text, end)
    if prefix is None:
        return end
    position = end - len(prefix)
    start = end
    while position > floor:
        line_end = position - 1
        line_start = text.rfind("\n", floor, line_end) + 1
        if line_start == 0 and floor > 0:
            break  # a line longer than the reach
        line = text[line_start:line_end].rstrip("\r")
        if not line.startswith(prefix):
            break
        rest = line[len(prefix):]
        if rest.strip():
            if _PEM_BODY.fullmatch(rest) is None:
                break
            start = line_start + len(prefix) if prefix.strip() else line_start
        position = line_start
    return start


def _private_keys(text: str) -> Iterator[_Hit]:
    if "PRIVATE KEY" not in text and "PuTTY-User-Key-File-" not in text \
            and "LS0tLS1CRUdJTi" not in text:
        return
    ends: set[int] = set()
    covered_to = -1
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < covered_to:
            continue
        end = _body_end(text, begin.end(), begin.end() + KEY_REACH)
        gap = len(text[end:end + 8]) - len(text[end:end + 8].lstrip(" \t\r\n"))
        footer = _PEM_END.match(text, end + gap)
        if footer is not None and footer.group(1) == begin.group(1):
            end = footer.end()
            ends.add(end)
        else:
            # Lines that all start with what precedes BEGIN on its line (a diff's "-")?
            prefix = _line_prefix(text, begin.start())
            line_end = text.find("\n", begin.end(), begin.end() + MAX_KEY)
            if prefix and prefix.strip() and line_end >= 0:
                walked = _prefixed_body_end(text, line_end, prefix, begin.end() + KEY_REACH,
                                            begin.group(1))
                if walked is not None and walked > end:
                    end = walked
        covered_to = end
        yield _Hit(begin.start(), end, "private_key", FORMAT_SCORE)
    for footer in _PEM_END.finditer(text):
        if footer.end() in ends:
            continue
        start = _body_start(text, footer.start(), footer.start() - KEY_REACH)
        if start < footer.start():
            yield _Hit(start, footer.end(), "private_key", FORMAT_SCORE)
    macs = [m.end() for m in _PUTTY_MAC.finditer(text)]
    covered_to = -1
    for putty in _PUTTY.finditer(text):
        if putty.start() < covered_to:
            continue
        following = bisect.bisect_left(macs, putty.end())
        if following < len(macs) and macs[following] <= putty.end() + KEY_REACH:
            end = macs[following]
        else:
            line_end = text.find("\n", putty.end(), putty.end() + MAX_VALUE)
            end = line_end if line_end >= 0 else min(len(text), putty.end() + MAX_VALUE)
        covered_to = end
        yield _Hit(putty.start(), end, "private_key", FORMAT_SCORE)
    for match in _B64_PEM.finditer(text):
        head = _b64_text(match.group()[:64])
        if head is not None and "PRIVATE KEY" in head:
            yield _Hit(match.start(), match.end(), "private_key", FORMAT_SCORE)


# ------------------------------------------------------------------ assignments

#: Words that name a secret inside a key (found anywhere in the key; the key's
#: segments then decide).  ASCII only: case-insensitive on ASCII letters.
_KEY_WORD: Final = re.compile(
    r"pass|pwd|pw\b|senha|secret|token|chave|api-?key|credencia|credential|auth|key|cookie"
    r"|session|sid\b|signature|sig\b|hmac|psk\b", re.IGNORECASE | re.ASCII)
#: Characters of a key.
_KEY_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/")
_CAMEL: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

PASSWORD_WORDS: Final = frozenset({"password", "passwd", "pass", "pwd", "pw", "senha",
                                   "passphrase", "passwort", "pword", "pswd", "requirepass",
                                   "masterauth", "rootpw", "bindpw"})
#: Segments that may end with a password word (``dbpassword``, ``rootpwd``).
_PASSWORD_ENDINGS: Final = ("password", "passwd", "senha", "passphrase", "pwd")
SECRET_WORDS: Final = frozenset({"secret", "secrets", "token", "apikey", "chave", "credential",
                                 "authtok", "psk",
                                 "credentials", "credencial", "credenciais", "secreta",
                                 "secreto", "privatekey", "accesskey", "secretkey"})
_SECRET_ENDINGS: Final = ("secret", "token", "apikey", "accesskey", "secretkey")
#: ``key`` after one of these is a secret key (``api_key``, ``AWS_SECRET_ACCESS_KEY``).
_KEY_QUALIFIERS: Final = frozenset({"api", "access", "secret", "private", "master", "signing",
                                    "encryption", "client", "app", "service", "license",
                                    "privada", "secreta", "acesso"})
#: Keys whose values count only when of high entropy.
WEAK_WORDS: Final = frozenset({"key", "auth", "cookie", "session", "sessionid", "jsessionid",
                               "sid", "signature", "sig", "hmac", "authorization"})
#: A key ending in one of these holds something about a secret, not the secret.
_NOT_SECRET_TAILS: Final = frozenset({
    "file", "path", "dir", "directory", "name", "nome", "type", "tipo", "length", "len",
    "min", "max", "minlength", "maxlength", "policy", "expiry", "expires", "expiration",
    "expiresat", "expiresin", "ttl", "timeout", "enabled", "enable", "required", "hint",
    "label", "field", "prompt", "reset", "url", "uri", "endpoint", "id", "count",
    "attempts", "age", "changed", "format", "mode", "user", "username", "usuario", "login",
    "email", "scope", "scopes", "algorithm", "alg", "provider", "manager", "service",
    "validator", "strength", "regex", "pattern", "ref", "arn", "version", "store",
    "location", "header", "param", "placeholder", "size", "bits", "rotation", "valid",
    "validity", "env", "var", "source", "lifetime", "duration", "limit", "used", "usage",
    "text", "message", "msg", "error", "errors", "status", "link", "page", "method",
    "class", "handler", "flow", "grant", "server", "host", "port", "issuer",
    "audience", "mount", "vault", "backend", "kind", "id_token_hint", "style", "icon",
    "button", "title", "description", "help", "tooltip", "confirmation_url", "level",
    "fingerprint", "checksum", "digest", "integrity", "sha", "sha1", "sha256", "sha512",
    "md5", "public", "pub", "cert", "certificate", "keyring", "keystore", "truststore",
    "storage", "dn", "cn", "acesso", "nfe", "pix", "cte", "mdfe", "nf", "nota",
})
#: Segments that make a key about something public or paginated.
_NOT_SECRET_SEGMENTS: Final = frozenset({"public", "pub", "page", "continuation", "cursor",
                                         "next", "csrf_param", "publishable", "checksum",
                                         "digest", "fingerprint", "hash", "sha256", "csrf",
                                         "xsrf", "authenticity"})
#: Words whose nearness makes ``chave`` an NF-e or Pix key (their own entities).
_CHAVE_NEIGHBOURS: Final = re.compile(
    r"nf-?e|nfc-?e|ct-?e|mdf-?e|nota\s+fiscal|danfe|sefaz|pix|acesso|cpf|cnpj|e-?mail"
    r"|telefone|celular|aleat[oó]ria|evp")  # searched in lower case


def _segments(key: str) -> list[str]:
    """``AWS_SECRET_ACCESS_KEY`` -> ``aws secret access key``; camelCase split too."""
    pieces = re.split(r"[_.\-/]+", _CAMEL.sub("_", key))
    return [p.lower() for p in pieces if p]


def _names_secret(segments: list[str], index: int) -> bool:
    segment = segments[index]
    if segment in SECRET_WORDS or segment.endswith(_SECRET_ENDINGS) or segment.startswith("chave"):
        return True
    return segment == "key" and index > 0 and segments[index - 1] in _KEY_QUALIFIERS


@functools.lru_cache(maxsize=4096)
def _key_class(key: str) -> str | None:
    """``password``, ``secret``, ``aws`` (an AWS secret key), ``weak`` or None."""
    segments = _segments(key.lstrip("-"))
    if not segments or segments[-1] in _NOT_SECRET_TAILS:
        return None
    if any(s in _NOT_SECRET_SEGMENTS for s in segments):
        return None
    password = secret = weak = False
    for index, segment in enumerate(segments):
        if segment in PASSWORD_WORDS or segment.endswith(_PASSWORD_ENDINGS):
            password = True
        elif _names_secret(segments, index):
            secret = True
        elif segment in WEAK_WORDS:
            weak = True
    if "aws" in segments and (secret or password) and "secret" in "".join(segments):
        return "aws"
    if password:
        return "password"
    if secret:
        return "secret"
    return "weak" if weak else None


#: Values that stand for a secret without being one.
_PLACEHOLDER: Final = re.compile(
    r"""(?ix)
    [*xX#.?•·_\-]*                           # ********, xxxx, ..., ___
    | \$\{.* | \$\(.* | \$[A-Za-z_][A-Za-z0-9_]*(?:-.*|\[.*|::.*)?  # ${V}, $(c), $v, $_POST[
    | \d+[ \t]+bytes                          # kubectl describe secret: "16 bytes"
    | %\(\w*\)[sdr]? | %[sd] | %\w+% | \{\w*\} | \{\{.*\}\} | \{%.*%\}
    | <[^<>]*> | \[[^\[\]]*\] | \([^()]*\)   # <password>, [SECRET], (hidden)
    | (?:none|null|nil|true|false|yes|no|sim|n[aã]o|on|off|undefined|empty|required
       |optional|redacted|masked|hidden|removed|omitted|filtered|protected|secret|secrets
       |password|passwd|senha|token|string|str|int|bytes|any|object|text|value|default
       |example|exemplo|placeholder|dummy|changeit
       |test|teste|foo|bar|baz|qux|na|n/a|tbd|todo|fixme|unset|not[_\- ]set
       |(?:your|sua|seu|my|minha|meu)[_\-][\w\-]* | [\w\-]*[_\-](?:here|aqui)
       |await|new|this|self|function|lambda|yield|return|typeof|nullptr|undef|values
       |expired|expirad[oa]|invalid|inv[aá]lid[oa]|incorret[oa]|wrong|errad[oa]|required
       |obrigat[oó]ri[oa]|missing|ausente|valid|v[aá]lid[oa]|ok|valor|changed|alterad[oa]
       |reset|redefinid[oa]|enviad[oa]|sent|accepted|aceit[oa]|rejected|rejeitad[oa]|yes|set)
    | \([^()]*                                # cut at a blank: (sensitive value)
    | [A-Za-z_][A-Za-z0-9_.]*[\[(].*          # code: os.environ["X"], jwt.encode(p, …
    """)
#: A reference in code: ``self.password``, ``process.env.TOKEN``, ``args.token``,
#: ``settings.SECRET_KEY`` (an attribute chain whose last name names a secret; a dotted
#: token such as ``hvs.CAES…`` or a password such as ``Winter.Is.Coming24`` is none).
_REFERENCE: Final = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+", re.ASCII)
_IDENTIFIER: Final = re.compile(r"[a-z_][a-z0-9_]*", re.ASCII)
_UUID: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_DIGITS_ONLY: Final = re.compile(r"[\d.\-/ ]+", re.ASCII)
_EMAIL: Final = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_PHONE: Final = re.compile(r"\+?[\d ()\-]{10,}", re.ASCII)
_URL: Final = re.compile(r"[a-z][a-z0-9+.\-]*://", re.IGNORECASE | re.ASCII)


def _placeholder(value: str) -> bool:
    """True for a value that stands in for a secret or refers to one elsewhere."""
    stripped = value.strip()
    if stripped.endswith(":"):
        return True  # the next key of the line: "password: user: bob"
    if len(stripped) < 3 or _PLACEHOLDER.fullmatch(stripped):
        return True
    if _REFERENCE.fullmatch(stripped) and _key_class(stripped.rsplit(".", 1)[-1]) is not None:
        return True
    if _URL.match(stripped):
        return True  # a URL (a URL's own password is found by the URL rule)
    if stripped.startswith(("~/", "./", "../", "file:", "vault:", "arn:", "sha256:",
                            "sha512-", "sha384-", "sha1-", "secretsmanager:", "ssm:")):
        return True
    if stripped.startswith("/") and not high_entropy(stripped):
        return True  # a path (/run/secrets/db); base64 may start with a slash too
    if " " in stripped:
        # Prose (a label of a login form, a log message) rather than a passphrase.
        words = stripped.split()
        if len(words) >= 5 or any(_KEY_WORD.search(word) for word in words):
            return True
    return False


def _entropy(value: str, kind: str = "base64") -> float:
    """detect-secrets' Shannon entropy of ``value`` over the kind's character set."""
    return float(_entropy_plugin(kind).calculate_shannon_entropy(value))


@functools.cache
def _entropy_plugin(kind: str) -> Any:
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    return Base64HighEntropyString() if kind == "base64" else HexHighEntropyString()


_HEX: Final = re.compile(r"[0-9a-fA-F]+")
#: A word of four or more lower-case letters between separators: a path or a name
#: (``uploads/2024/report-final.pdf``, ``node-modules-<hash>``), not a random token.
_WORDY: Final = re.compile(r"(?:^|[-_/.])[a-z]{4,}(?=$|[-_/.])")
_B64_CHARS: Final = re.compile(r"[A-Za-z0-9+/\-_=.~]+")
#: Entropy limits per character (detect-secrets' defaults: hex 3.0, base64 4.5) and the
#: shortest value judged.  Shannon entropy over a short string cannot reach 4.5 bits
#: (20 distinct characters give 4.32), so base64 values count from 3.5 bits and 16
#: characters, plus a digit and a letter.
HEX_LIMIT: Final = 3.0
BASE64_LIMIT: Final = 3.5
MIN_ENTROPY_LENGTH: Final = 16
#: Characters of a value whose entropy is measured.
ENTROPY_SAMPLE: Final = 256


def high_entropy(value: str) -> bool:
    """A random-looking token: hex over 3.0 bits or base64 over 3.5 bits per character
    (percent-escapes decoded first: an Azure SAS signature ends in ``%3D``)."""
    if "%" in value:
        from urllib.parse import unquote

        value = unquote(value)
    if len(value) < MIN_ENTROPY_LENGTH or _UUID.fullmatch(value):
        return False
    value = value[:ENTROPY_SAMPLE]  # the entropy of a prefix: a 4 KB value costs no more
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    if _HEX.fullmatch(value):
        return _entropy(value, "hex") > HEX_LIMIT
    if _B64_CHARS.fullmatch(value):
        return _entropy(value) > BASE64_LIMIT
    return False


_ASSIGN: Final = re.compile(r"[ \t]*(?::=|=>|=(?!=)|::(?=[ \t])|:(?![:/]))[ \t]*")
_LINE_PREFIX: Final = re.compile(r"[ \t]*(?:-[ \t]+)?(?:export[ \t]+|set[ \t]+)?[\"']?$")
_YAML_COMMENT: Final = re.compile(r"[ \t]+#.*$")


@dataclass(frozen=True, slots=True)
class _Value:
    start: int
    end: int


def _quoted(text: str, start: int) -> _Value | None:
    """The inside of a quoted string starting at ``start`` (``"``, ``'`` or ``\\"``)."""
    escaped = text.startswith('\\"', start)
    quote = '\\"' if escaped else text[start]
    inner = start + len(quote)
    position = inner
    limit = min(len(text), inner + MAX_VALUE + 1)
    while position < limit:
        char = text[position]
        if char == "\n":
            return None
        if text.startswith(quote, position) and not (
                not escaped and position > inner and text[position - 1] == "\\"):
            return _Value(inner, position) if position > inner else None
        position += 2 if char == "\\" and not escaped else 1
    return None


_UNQUOTED_STOP: Final = frozenset(" \t\r\n\"'`;&,<>")
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


def _unquoted(text: str, start: int) -> _Value | None:
    position = _run_end(text, start)
    if position - start > MAX_VALUE:
        return None  # longer than any value
    # A closing bracket of the structure around the value (not one it opened itself).
    while position > start and text[position - 1] in _CLOSERS \
            and _CLOSERS[text[position - 1]] not in text[start:position - 1]:
        position -= 1
    return _Value(start, position) if position > start else None


def _rest_of_line(text: str, start: int) -> _Value | None:
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
        return _Value(start, start + len(line)) if line else None
    return _Value(start, start + len(line)) if line else None


#: Blanks and punctuation a line may hold after its longest value.
_LINE_SLACK: Final = 64
_NEXT_KEY: Final = re.compile(r"(?:^|\s)[A-Za-z_][\w.\-]*(?::\s|=)")


def _value_after(text: str, key_start: int, key_end: int) -> tuple[_Value, str] | None:
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
                return _Value(key_end + 1 + offset, key_end + 1 + offset + len(stripped)), "xml"
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
            value = _unquoted(text, phrase.end())
            written = text[value.start:value.end] if value is not None else ""
            if value is not None and not written.isalpha() \
                    and not _DIGITS_ONLY.fullmatch(written):
                return value, "phrase"  # (not "Password Last Changed: 2024-01-01")
        # A sentence of a chat or a ticket: "a senha do wifi é X", "the password is X".
        said = _chat_value(text, key_start, key_end)
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
        if value is not None and _prose(text[value.start:value.end]):
            return None  # "Senha: alterada com sucesso", "Token: expirado, gere outro"
        return (value, "line") if value else None
    value = _unquoted(text, start)
    if value is not None and not colon and separator.group().startswith((" ", "\t")) \
            and separator.group().endswith((" ", "\t")) \
            and _CODE_VALUE.fullmatch(text, value.start, value.end):
        return None  # code: token = self.stream.current, api_key = config.value
    if value is not None and colon and text[value.start:value.end].isalpha():
        return None  # a word after a colon in a sentence: "senha: incorreta", "token: expirado"
    return (value, "inline") if value else None


_BLANKS: Final = re.compile(r"[ \t]{1,32}")
_PHRASE_KEY: Final = re.compile(
    r"[ \t]{1,4}(?:[^\W\d_]{1,20}[ \t]{1,4}){0,2}[^\W\d_]{2,20}[ \t]*:[ \t]{1,8}")
#: An attribute chain: in code (key = value, blanks around "="), a reference.
_CODE_VALUE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_PUNCTUATION: Final = ",.;:!?()\"'"


# ------------------------------------------------------------------ chat sentences

#: The key, up to three words about it ("do wifi", "for the router", "que te passei"),
#: a copula ("é", "is"; "agora"/"now" may follow) and the value.  The cue words are
#: the password words of a sentence and the secret words; "pass" and "pw" are not
#: (a bus pass, a boarding pass).
_CHAT: Final = re.compile(
    r"(?P<words>(?:[ \t]{1,4}[^\W\d_]{1,20}){0,3}?)[ \t]{1,4}"
    "(?:\u00e9|e\u0301|eh|era|ser\u00e1|sera|seria|continua|is|was|will[ \t]+be)"
    r"(?:[ \t]{1,4}(?:agora|now|atual|still|ainda))?"
    r"(?:[ \t]*:[ \t]*|[ \t]{1,4})(?=\S)", re.IGNORECASE)
_CHAT_KEYS: Final = frozenset({"senha", "senhas", "password", "passwords", "passwd", "pwd",
                               "passphrase", "passwort", "token", "secret", "chave"})
#: Words between the key and the copula that make the sentence about something else
#: than the value ("the password hash is …", "a política de senha é …" has no value).
_CHAT_NOT_ABOUT: Final = frozenset({
    "hash", "hashes", "length", "tamanho", "policy", "politica", "field", "campo", "hint",
    "dica", "prompt", "reset", "expiry", "expiration", "expiracao", "validade", "strength",
    "forca", "requirement", "requirements", "requisito", "requisitos", "rule", "rules",
    "regra", "regras", "format", "formato", "manager", "gerenciador", "file", "arquivo",
    "path", "caminho", "attempt", "attempts", "tentativa", "tentativas", "change", "troca",
    "mudanca", "alteracao", "age", "history", "historico", "salt", "digest", "checksum",
    "fingerprint", "type", "tipo", "size", "minimum", "maximum", "minimo", "maximo",
    "limit", "limite", "count", "label", "rotation", "rotacao", "storage", "encryption",
    "criptografia", "algorithm", "algoritmo",
})
#: ... and negations there ("a senha não é 1234", "the password is never …" has none).
_CHAT_NEGATIONS: Final = frozenset({"not", "nao", "never", "nunca"})
#: Names of encodings, hashes and versions that a sentence about a password holds
#: ("the password is base64-encoded", "SHA256", "2FA"): not passwords.
_TECHNICAL: Final = re.compile(
    r"(?:sha|md|base|utf|aes|rsa|ecdsa|pbkdf|argon|crc|oauth|http|ipv|tls|ssl|ntlmv|totp"
    r"|hotp|x509|pkcs)-?[0-9]+(?:[-.][0-9a-z]+)*"
    r"|[0-9]+(?:fa|x|k|kb|mb|gb|bits?|bytes?|chars?|caracteres|d[ií]gitos|digits|dias|days"
    r"|hours|horas|h|min|s|%)", re.IGNORECASE)
#: After the value, what ends its clause: the end of the line, punctuation, a
#: conjunction or a word of a chat message.
_CLAUSE_END: Final = re.compile(
    r"[ \t]*(?:$|[\r\n,;)\]\"'`\u201d\u2019]|[.!?](?:\s|$)"
    r"|(?:e|and|mas|but|ou|or|ent[aã]o|so|pra|para|please|por|ok|obrigad[oa]|thanks|valeu"
    r"|t[aá]|n[eé]|viu|blz|beleza)(?![^\W_]))", re.IGNORECASE)
_CHAT_QUOTES: Final = "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb"
_WORD_RUN: Final = re.compile(r"[^\W\d_]+")
#: A value said in a sentence runs to the next blank (``Tr0ub4dor&3``).
_CHAT_RUN: Final = re.compile(r"\S+")
#: Sentence punctuation a value may end with that is not part of it ("!" may be).
_CHAT_TRAILING: Final = ".,:;?)]"


def _chat_value(text: str, key_start: int, key_end: int) -> _Value | None:
    """The value a sentence gives a password: ``A senha é gatinho558!``, ``a senha do
    wifi é Casa@2024``, ``the password is hunter2`` (the value only).

    A sentence that goes on with ordinary words says something about the password
    ("a senha é muito fraca", "the password is incorrect", "is stored in vault"), so the
    value must look like one: quoted, or a token mixing letters with digits or symbols,
    or four digits or more ending their clause.  Words alone are never taken unquoted.
    """
    if text[key_start:key_end].lower() not in _CHAT_KEYS:
        return None
    said = _CHAT.match(text, key_end, min(len(text), key_end + 96))
    if said is None:
        return None
    # "the password hash is …", "o hash da senha é …", "a política de senha é …".
    before = [fold(w) for w in _WORD_RUN.findall(text, max(0, key_start - 40), key_start)[-2:]]
    between = [fold(w) for w in said.group("words").split()]
    if any(w in _CHAT_NOT_ABOUT for w in (*before, *between)) or any(
            w in _CHAT_NEGATIONS for w in between):
        return None
    start = said.end()
    if text[start] in _CHAT_QUOTES:
        quote = {"\u201c": "\u201d", "\u2018": "\u2019", "\u00ab": "\u00bb"}.get(
            text[start], text[start])
        end = text.find(quote, start + 1, start + 2 + MAX_VALUE)
        if end <= start + 1 or "\n" in text[start + 1:end] or _prose(text[start + 1:end]):
            return None
        return _Value(start + 1, end)
    run = _CHAT_RUN.match(text, start, min(len(text), start + MAX_VALUE + 1))
    if run is None or run.end() - start > MAX_VALUE:
        return None
    end = run.end()
    while end > start and text[end - 1] in _CHAT_TRAILING + _CHAT_QUOTES:
        end -= 1
    token = text[start:end]
    technical = _TECHNICAL.match(token)
    if len(token) < 4 or _EMAIL.fullmatch(token) or (technical is not None and (
            technical.end() == len(token) or token[technical.end()] in "-_/")):
        return None  # "base64", "SHA256", "base64-encoded", "2FA"
    letters = any(c.isalpha() for c in token)
    others = any(not c.isalpha() and c not in "-'\u2019" for c in token)
    if letters:
        return _Value(start, end) if others else None
    # Digits (and symbols) alone: a PIN, or a number the sentence goes on to explain
    # ("the password is 12345678 characters long" has none).
    if not token.isdigit() or not _CLAUSE_END.match(text, run.end()):
        return None
    return _Value(start, end)


def _prose(value: str) -> bool:
    """Words, at least two and half of them of letters only: a sentence, not a password."""
    words = value.split()
    if len(words) < 2:
        return False
    letters = sum(1 for w in words
                  if len(w.strip(_PUNCTUATION)) >= 2 and w.strip(_PUNCTUATION).isalpha())
    return letters >= 2 and 2 * letters >= len(words)


def _message(value: str) -> bool:
    """A sentence written to a person (capitalised or ending in a stop), as a JSON value
    under a secret key holds in a form's labels or errors; a passphrase is neither."""
    stripped = value.strip()
    return _prose(stripped) and (stripped[0].isupper() or stripped[-1] in ".!?:")
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
    if blanks < 2 or _key_class(key) not in ("password", "secret", "aws"):
        return False
    line_end = text.find("\n", value_at, value_at + MAX_VALUE + _LINE_SLACK)
    rest = text[value_at:line_end if line_end >= 0 else value_at + MAX_VALUE + _LINE_SLACK]
    fields = rest.split()
    return len(fields) == 1 and not fields[0].isalpha()


def _starts_line(text: str, key_start: int) -> bool:
    """Only blanks, a list dash, ``export``/``set`` or a quote stand before the key on
    its line (read back at most MAX_KEY characters)."""
    near = max(0, key_start - MAX_KEY)
    line_start = text.rfind("\n", near, key_start) + 1
    if line_start == 0 and near > 0:
        return False
    return _LINE_PREFIX.fullmatch(text, line_start, key_start) is not None


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


def _named_value(text: str, key_start: int, key_end: int) -> tuple[_Value, str] | None:
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


def _chave_is_other(text: str, key_start: int, value: str) -> bool:
    """``chave`` of an NF-e, CT-e or Pix (own entities), not a secret."""
    if _DIGITS_ONLY.fullmatch(value) or _UUID.fullmatch(value) or _EMAIL.fullmatch(value) \
            or _PHONE.fullmatch(value):
        return True
    # Its line, up to CHAVE_REACH characters on either side of the key.
    low, high = max(0, key_start - CHAVE_REACH), min(len(text), key_start + CHAVE_REACH)
    line_start = text.rfind("\n", low, key_start) + 1
    line_end = text.find("\n", key_start, high)
    line = text[max(line_start, low):line_end if line_end >= 0 else high]
    return _CHAVE_NEIGHBOURS.search(line.lower()) is not None


#: How far from ``chave`` an NF-e or Pix word is looked for on its line.
CHAVE_REACH: Final = 160


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


def _assignment(text: str, word_start: int, word_end: int) -> tuple[int, int, _Hit | None]:
    """The key holding the word at ``word_start`` and the finding of its value, if any."""
    bounds = _key_bounds(text, word_start, word_end)
    if bounds is None:
        return word_start, word_end, None
    key_start, key_end = bounds
    key = text[key_start:key_end]
    found = _assignment_of(text, key_start, key_end, key)
    return key_start, key_end, found


def _assignment_of(text: str, key_start: int, key_end: int, key: str) -> _Hit | None:
    kind = _key_class(key)
    if kind is None:
        return None
    if key_start > 0 and text[key_start - 1] == "[" and text.startswith(":", key_end):
        return None  # a placeholder of the hash operator: [SECRET:9f86d081884c7d65]
    after = _named_value(text, key_start, key_end) or _value_after(text, key_start, key_end)
    if after is None:
        return None
    span, _syntax = after
    value = text[span.start:span.end]
    if _placeholder(value):
        return None
    if _IDENTIFIER.fullmatch(value) and _key_class(value) in ("password", "secret", "aws"):
        return None  # a variable named after the secret: password=db_password
    if value.lower() == key.lower().lstrip("-"):
        return None
    if kind == "weak":
        if not high_entropy(value) or _WORDY.search(value):
            return None
        return _Hit(span.start, span.end, "high_entropy", ENTROPY_SCORE)
    if "chave" in key.lower() and _chave_is_other(text, key_start, value):
        return None
    name = {"aws": "aws_secret_key", "password": "password_assignment"}.get(
        kind, "secret_assignment")
    return _Hit(span.start, span.end, name, KEYED_SCORE)


#: _KEY_WORD's words in lower case, case-sensitive: searched in the lower-cased text it
#: runs several times faster than the case-insensitive pattern in Python's ``re``.
_KEY_WORD_LOWER: Final = re.compile(
    r"pass|pwd|pw\b|senha|secret|token|chave|api-?key|credencia|credential|auth|key|cookie"
    r"|session|sid\b|signature|sig\b|hmac|psk\b", re.ASCII)


def _key_words(text: str) -> Iterator[re.Match[str]]:
    lower = text.lower()
    # Lower-casing keeps offsets unless a character grows (U+0130): then the slow way.
    return (_KEY_WORD_LOWER if len(lower) == len(text) else _KEY_WORD).finditer(
        lower if len(lower) == len(text) else text)


_KEY_RUN: Final = re.compile(r"[A-Za-z0-9_./\-]+")


def _assignments(text: str) -> Iterator[_Hit]:
    done_to = -1
    for word in _key_words(text):
        if word.start() < done_to:
            continue
        _, key_end, found = _assignment(text, word.start(), word.end())
        done_to = key_end
        if key_end == word.end() and found is None:
            # A run of key characters too long for a key: none of its words is one.
            run = _KEY_RUN.match(text, word.start())
            done_to = run.end() if run else key_end
        if found is not None:
            yield found


# ------------------------------------------------------------------ command lines

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
_COMMAND_WORDS: Final = ("mysql", "mariadb", "sshpass", "identified", "IDENTIFIED", "Identified",
                         "redis-cli", "hdbsql", "sqlcmd", "mongo", "ldap", "keytool", "docker",
                         "curl", "sqlplus", "podman", "sapcontrol", "hdbuserstore",
                         "jdbc:oracle")


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and text[start] in "'\"" and text[end - 1] == text[start]:
        return start + 1, end - 1
    return start, end


def _command_passwords(text: str) -> Iterator[_Hit]:
    if not any(word in text for word in _COMMAND_WORDS):
        return
    for pattern in (_MYSQL_P, _SSHPASS, _CLIENT_PASSWORD, _CURL_USER, _SQLPLUS, _SAPCONTROL,
                    _HDBUSERSTORE, _JDBC_ORACLE, _KEYTOOL_MORE):
        for match in pattern.finditer(text):
            start, end = _unquote(text, *match.span(1))
            if end > start and not _placeholder(text[start:end]):
                yield _Hit(start, end, "password_assignment", KEYED_SCORE)
    for match in _IDENTIFIED_BY.finditer(text):
        group = 2 if match.group(2) is not None else 3
        if not _placeholder(match.group(group)):
            yield _Hit(match.start(group), match.end(group), "password_assignment", KEYED_SCORE)


# ------------------------------------------------------------------ HTTP credentials

_AUTH_SCHEME: Final = re.compile(
    r"(?<![A-Za-z0-9_])(Bearer|Basic|Token|Digest|Negotiate|NTLM|ApiKey|SSWS|Splunk|Bot)"
    r"[ \t]{1,8}"
    r"([A-Za-z0-9._~+/\-]{1,4096}+=*)(?![A-Za-z0-9._~+/\-])", re.ASCII)
_AUTH_KEY: Final = re.compile(r"(?:proxy-)?authori[sz]ation[\"']?[ \t]*[:=][ \t]*[\"']?$",
                              re.IGNORECASE | re.ASCII)


_SCHEMES: Final = ("Bearer", "Basic", "Token", "Digest", "Negotiate", "NTLM", "ApiKey", "SSWS",
                   "Splunk", "Bot")


def _auth_credentials(text: str) -> Iterator[_Hit]:
    if not any(scheme in text for scheme in _SCHEMES):
        return
    for match in _AUTH_SCHEME.finditer(text):
        scheme, token = match.group(1), match.group(2)
        before = text[max(0, match.start() - 40):match.start()]
        after_key = _AUTH_KEY.search(before) is not None
        if scheme == "Basic":
            decoded = _b64_text(token)
            if decoded is None or ":" not in decoded:
                continue
            yield _Hit(match.start(2), match.end(2), "basic_auth", FORMAT_SCORE)
        elif scheme == "Bearer" and (after_key or len(token) >= 16):
            if not _placeholder(token):
                yield _Hit(match.start(2), match.end(2), "bearer_token", KEYED_SCORE)
        elif after_key and not _placeholder(token):
            yield _Hit(match.start(2), match.end(2), "authorization", KEYED_SCORE)


# ------------------------------------------------------------------ Kubernetes Secrets

#: The deepest indentation of a manifest's keys that is looked at (a list of lists of
#: manifests nests them a few levels deep).
MAX_MANIFEST_INDENT: Final = 32
_INDENT: Final = f"^([ \\t]{{0,{MAX_MANIFEST_INDENT}}})(- )?"
_YAML_KIND: Final = re.compile(_INDENT + r"kind:[ \t]*[\"']?Secret[\"']?[ \t]*\r?$", re.MULTILINE)
_YAML_DATA: Final = re.compile(_INDENT + r"(?:data|stringData):[ \t]*\r?$", re.MULTILINE)
_YAML_ENTRY: Final = re.compile(r"[ \t]+[\"']?[A-Za-z0-9_.\-]+[\"']?:(?:[ \t]+(.*)|[ \t]*)")
_JSON_KIND: Final = re.compile(r'\\?"kind\\?"[ \t]*:[ \t]*\\?"Secret\\?"')
_JSON_DATA: Final = re.compile(r'\\?"(?:data|stringData)\\?"[ \t\r\n]*:[ \t\r\n]*\{')
_JSON_ENTRY: Final = re.compile(
    r'\\?"[A-Za-z0-9_.\-]+\\?"[ \t\r\n]*:[ \t\r\n]*\\?"((?:[^"\\\n]|\\[^"])*)\\?"')
_BLOCK_SCALAR: Final = frozenset({"|", ">", "|-", ">-", "|+", ">+"})


def _depth(match: re.Match[str]) -> int:
    """The indentation of a manifest key's line (a list item's dash counts)."""
    return len(match.group(1)) + (2 if match.group(2) else 0)


@functools.lru_cache(maxsize=64)
def _boundary_pattern(depth: int) -> re.Pattern[str]:
    """Lines that close a mapping indented by ``depth``: a document separator, or a
    line (not blank, not a comment) indented less."""
    shallower = rf"|^[ \t]{{0,{depth - 1}}}[^ \t\r\n#]" if depth else ""
    return re.compile(rf"^(?:---|\.\.\.){shallower}", re.MULTILINE)


class _Mappings:
    """Answers "do these two lines stand in the same mapping?" with one scan per depth."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.boundaries: dict[int, list[int]] = {}

    def same(self, first: int, second: int, depth: int) -> bool:
        starts = self.boundaries.get(depth)
        if starts is None:
            starts = [m.start() for m in _boundary_pattern(depth).finditer(self.text)]
            self.boundaries[depth] = starts
        low, high = sorted((first, second))
        # A boundary line strictly after the earlier line and up to the later one.
        index = bisect.bisect_right(starts, low)
        return index == len(starts) or starts[index] > high


def _owner(kinds: dict[int, list[int]], mappings: _Mappings, at: int, depth: int) -> int | None:
    """The ``kind: Secret`` line of the mapping holding a key at ``at``: the nearest at
    the same depth on either side, within reach and in the same mapping."""
    positions = kinds.get(depth, [])
    index = bisect.bisect_left(positions, at)
    for candidate in (index - 1, index):
        if 0 <= candidate < len(positions):
            kind = positions[candidate]
            if abs(kind - at) <= MANIFEST_REACH and mappings.same(at, kind, depth):
                return kind
    return None


def _yaml_values(text: str) -> Iterator[_Hit]:
    if "Secret" not in text:
        return
    kinds: dict[int, list[int]] = {}
    for kind in _YAML_KIND.finditer(text):
        kinds.setdefault(_depth(kind), []).append(kind.start())
    if not kinds:
        return
    mappings = _Mappings(text)
    for header in _YAML_DATA.finditer(text):
        base = _depth(header)
        owner = _owner(kinds, mappings, header.start(), base)
        if owner is None:
            continue
        yield from _yaml_block(text, header.end() + 1, base, owner)


def _yaml_block(text: str, position: int, base: int, owner: int) -> Iterator[_Hit]:
    """The values of the block of entries indented deeper than ``base`` from ``position``."""
    scalar: tuple[int, int, int] | None = None  # a block scalar's (start, end, indent)
    limit = min(len(text), owner + MANIFEST_REACH)
    while position < limit:
        line_end = text.find("\n", position, limit)
        if line_end < 0:
            if limit < len(text):
                break  # the line runs past the reach of the kind line
            line_end = limit
        line = text[position:line_end]
        if line.strip():
            indent = len(line) - len(line.lstrip(" \t"))
            if scalar is not None and indent > scalar[2]:
                first = scalar[0] if scalar[0] >= 0 else position + indent
                scalar = (first, len(line.rstrip("\r \t")) + position, scalar[2])
            else:
                if scalar is not None:
                    yield from _k8s_hit(text, scalar[0], scalar[1], owner)
                    scalar = None
                entry = _YAML_ENTRY.fullmatch(line.rstrip("\r")) if indent > base else None
                if entry is None:
                    return
                value = (entry.group(1) or "").rstrip()
                if value in _BLOCK_SCALAR:
                    scalar = (-1, -1, indent)
                elif value:
                    start = position + entry.start(1)
                    end = start + len(value)
                    if len(value) > 1 and value[0] in "\"'" and value[-1] == value[0]:
                        start, end = start + 1, end - 1
                    yield from _k8s_hit(text, start, end, owner)
        position = line_end + 1
    if scalar is not None:
        yield from _k8s_hit(text, scalar[0], scalar[1], owner)


def _k8s_hit(text: str, start: int, end: int, kind_at: int) -> Iterator[_Hit]:
    if start < 0 or end <= start or max(abs(start - kind_at),
                                        abs(end - kind_at)) > MANIFEST_REACH:
        return
    value = text[start:end].strip()
    if value and not _PLACEHOLDER.fullmatch(value):
        yield _Hit(start, end, "kubernetes_secret", KEYED_SCORE)


class _Braces:
    """Brace depth of a JSON text, for "do these two keys stand in the same object?"."""

    def __init__(self, text: str) -> None:
        self.positions: list[int] = []
        self.depths: list[int] = []  # depth after each brace
        depth = 0
        for match in re.finditer(r"[{}]", text):
            depth += 1 if match.group() == "{" else -1
            self.positions.append(match.start())
            self.depths.append(depth)

    def depth_at(self, index: int) -> int:
        return self.depths[index - 1] if index else 0

    def same(self, first: int, second: int) -> bool:
        low, high = sorted((first, second))
        lo = bisect.bisect_left(self.positions, low)
        hi = bisect.bisect_left(self.positions, high)
        level = self.depth_at(lo)
        return all(d >= level for d in self.depths[lo:hi]) and self.depth_at(hi) == level


def _json_values(text: str) -> Iterator[_Hit]:
    if "Secret" not in text:
        return
    kinds = [m.start() for m in _JSON_KIND.finditer(text)]
    if not kinds:
        return
    braces = _Braces(text)
    for header in _JSON_DATA.finditer(text):
        at = header.start()
        index = bisect.bisect_left(kinds, at)
        owner = None
        for candidate in (index - 1, index):
            if 0 <= candidate < len(kinds) and abs(kinds[candidate] - at) <= MANIFEST_REACH \
                    and braces.same(at, kinds[candidate]):
                owner = kinds[candidate]
                break
        if owner is None:
            continue
        close = text.find("}", header.end(), header.end() + MANIFEST_REACH)
        if close < 0 or "{" in text[header.end():close]:
            continue
        for entry in _JSON_ENTRY.finditer(text, header.end(), close):
            yield from _k8s_hit(text, entry.start(1), entry.end(1), owner)


# ------------------------------------------------------------------ the recognizer


#: ``scheme://user:password@host`` with characters a URL should have escaped (``!``,
#: ``*``, ``$``, even ``@``): the password runs to the last ``@`` before the host.
_URL_PASSWORD: Final = re.compile(
    r"://[^\s:/?#@\[\]]{1,256}+:([^\s/?#\[\]]{1,512})@[A-Za-z0-9_\-]", re.ASCII)


def _url_passwords(text: str) -> Iterator[_Hit]:
    if "://" not in text:
        return
    for match in _URL_PASSWORD.finditer(text):
        if not _placeholder(match.group(1)):
            yield _Hit(match.start(1), match.end(1), "connection_string_password", FORMAT_SCORE)


def _provider_tokens(text: str) -> Iterator[_Hit]:
    present: dict[str, bool] = {}

    def holds(needle: str) -> bool:
        found = present.get(needle)
        if found is None:
            found = present[needle] = needle in text
        return found

    for entry in _formats():
        if not any(holds(needle) for needle in entry.needles):
            continue
        for match in entry.matches(text):
            start, end = match.span(entry.group)
            if end <= start:
                continue
            if entry.kind == "artifactory_token":
                # Its pattern holds the blank or quote on either side: the token only.
                while start < end and text[start] in _BOUNDARY_CHARS:
                    start += 1
                while end > start and text[end - 1] in _BOUNDARY_CHARS:
                    end -= 1
            elif entry.group == 0 and start and text[start - 1] in _NO_RUN_BEFORE:
                continue
            if entry.kind == "connection_string_password" and _placeholder(match.group(1)):
                continue
            yield _Hit(start, end, entry.kind, FORMAT_SCORE)


_DETECTORS: Final = (_provider_tokens, _url_passwords, _jwts, _private_keys, _assignments,
                     _command_passwords, _auth_credentials, _yaml_values, _json_values)


#: Kinds known from their surroundings only: on the same span, a kind known from the
#: value's own format (github_token, jwt…) is reported instead.
#: (Listed from the most to the least specific.)
GENERIC_KINDS: Final = ("kubernetes_secret", "bearer_token", "authorization",
                        "connection_string_password", "aws_secret_key", "password_assignment",
                        "secret_assignment", "high_entropy")


def _rank(hit: _Hit) -> tuple[float, int]:
    generic = GENERIC_KINDS.index(hit.kind) if hit.kind in GENERIC_KINDS else -1
    return hit.score, -generic


def find_secrets(text: str) -> list[tuple[int, int, str, float]]:
    """Every secret in ``text`` as ``(start, end, kind, score)``, sorted; one kind per
    span (the most specific); spans may overlap."""
    best: dict[tuple[int, int], _Hit] = {}
    for detect in _DETECTORS:
        for hit in detect(text):
            key = (hit.start, hit.end)
            current = best.get(key)
            if current is None or _rank(hit) > _rank(current):
                best[key] = hit
    return sorted((h.start, h.end, h.kind, h.score) for h in best.values())


class SecretRecognizer(EntityRecognizer):
    """Keys, tokens and passwords (entity SECRET); see the module docstring."""

    NAME: Final = "SecretRecognizer"
    ENTITY: Final = ENTITY

    def __init__(self, supported_language: str = "pt", name: str | None = None) -> None:
        from recognizers._text import ContextWords

        super().__init__(supported_entities=[ENTITY], supported_language=supported_language,
                         name=name or self.NAME)
        #: Labels holding one of these words make the engine pass them (see _lifted_by).
        self.context_words = ContextWords(LABEL_WORDS)

    #: The engine hands this recognizer the labels of a JSON value (its keys) even when
    #: its text held nothing (see enhance_using_context).
    reads_labels: Final = True

    def load(self) -> None:
        """Compile the provider patterns now (they import detect-secrets)."""
        _formats()

    def enhance_using_context(
        self,
        text: str,
        raw_recognizer_results: list[RecognizerResult],
        other_raw_recognizer_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts | None,
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """A JSON value under a key that names a secret is one whole, spaces and all.

        redactor's engine analyses a value as ``"<key>: <value>"`` with its keys as
        labels; the text alone reads a phrase after ``password:`` as prose.
        """
        if not context:
            return raw_recognizer_results
        label = context[-1]
        kind = _key_class(label)
        prefix = f"{label[:LABEL_PREFIX_CHARS]}: "
        if kind not in ("password", "secret", "aws") or not text.startswith(prefix):
            return raw_recognizer_results
        start, end = len(prefix), len(text.rstrip())
        while start < end and text[start] in " \t\r\n":
            start += 1
        value = text[start:end]
        if end <= start or _placeholder(value) or _message(value) or any(
                r.start <= start and end <= r.end for r in raw_recognizer_results):
            return raw_recognizer_results
        if "chave" in label.lower() and _chave_is_other(text, start, value):
            return raw_recognizer_results
        name = {"aws": "aws_secret_key", "password": "password_assignment"}.get(
            kind, "secret_assignment")
        return [*raw_recognizer_results, self._result(start, end, name, KEYED_SCORE)]

    def _result(self, start: int, end: int, kind: str, score: float) -> RecognizerResult:
        name = f"{self.NAME}:{kind}"
        return RecognizerResult(
            entity_type=ENTITY, start=start, end=end, score=score,
            analysis_explanation=AnalysisExplanation(
                recognizer=name, original_score=score, pattern_name=kind),
            recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: name,
                                  RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                                  CONTEXT_DISTANCE_KEY: 0})

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None) -> list[RecognizerResult]:
        """One result per secret; the kind is in the recognizer name."""
        return [self._result(start, end, kind, score)
                for start, end, kind, score in find_secrets(text)]

    def prefilter(self, threshold: float) -> Prefilter:
        """Format starts, armour lines, key words, auth schemes and manifest kinds."""
        from recognizers.prefilter import Prefilter, Trigger

        starts = "|".join(re.escape(s) for s in _FORMAT_STARTS)
        key_words = "|".join(longest_first({
            "pass", "pwd", "pw", "senha", "secret", "token", "chave", "apikey", "api-key",
            "credencia", "credential", "auth", "key", "cookie", "session", "sid",
            "signature", "sig", "hmac", "psk"}))
        triggers = [
            # A format's start: the token runs on after it (the longest: a GitLab agent
            # token, 1,032 characters); a URL's password stands before and after "://".
            Trigger(f"(?:{starts})", before=64, after=FORMAT_REACH, name="format"),
            # Formats without a literal start: Twilio, Telegram and Discord tokens, and
            # detect-secrets' AWS secret-key pattern (which starts at "aws", any case).
            Trigger("(?:AC|SK)[a-z0-9]{32}|[0-9]{8,10}:[0-9A-Za-z_-]{35}"
                    "|[MNO][a-zA-Z0-9_-]{23,25}[.][a-zA-Z0-9_-]{6}[.]", after=64,
                    name="format-shape"),
            Trigger("(?i:aws)", after=128, name="aws"),
            Trigger("eyJ", after=MAX_JWT, name="jwt"),
            Trigger(f"BEGIN {_PEM_LABEL}", before=16, after=KEY_REACH + 256,
                    name="pem-begin"),
            Trigger(f"END {_PEM_LABEL}", before=KEY_REACH + 256, after=32, name="pem-end"),
            Trigger("PuTTY-User-Key-File-", after=KEY_REACH + 64, name="putty"),
            Trigger("LS0tLS1CRUdJTi", after=MAX_B64_KEY + 32, name="pem-base64"),
            # A key holding a word that names a secret, and its value.
            Trigger(f"(?i:{key_words})", before=MAX_KEY + 8,
                    after=MAX_KEY + 8 + MAX_VALUE + 8, name="key",
                    accept=_accept_key_word),
            Trigger("(?:Bearer|Basic|Token|Digest|Negotiate|NTLM|ApiKey|SSWS|Splunk|Bot)[ \t]",
                    after=MAX_VALUE + 16,
                    name="auth-scheme"),
            Trigger("(?:mysql|mariadb|sshpass|redis-cli|hdbsql|sqlcmd|mongo|ldap|keytool|docker"
                    "|podman|curl|sqlplus|sapcontrol|(?i:hdbuserstore)|jdbc:oracle"
                    "|(?i:identified))", after=2 * MAX_COMMAND_VALUE + 64,
                    name="command"),
            Trigger('kind\\\\?"?[ \t]*:[ \t]*\\\\?"?[\'"]?Secret', before=MANIFEST_REACH + 64,
                    after=MANIFEST_REACH + 64, name="manifest"),
        ]
        return Prefilter(ENTITY, tuple(triggers), margin_before=MARGIN, margin_after=MARGIN)


def _accept_key_word(text: str, start: int, end: int) -> bool:
    """The trigger's word is in a key that is given a value that counts."""
    match = _KEY_WORD.search(text, start, min(len(text), end + 8))
    if match is None:
        return True  # a spelling the finder reads otherwise: keep (a superset)
    return _assignment(text, match.start(), match.end())[2] is not None


#: The words of keys whose JSON values are taken whole (see enhance_using_context).
LABEL_WORDS: Final = ("password", "passwd", "pwd", "senha", "secret", "token", "chave",
                      "apikey", "api_key", "credential", "credentials", "passphrase")
#: How much of a key the engine writes before a JSON value (redactor.engine.KEY_PREFIX_CHARS).
LABEL_PREFIX_CHARS: Final = 40

#: Every kind a SECRET finding may carry (for settings that list kinds).
KINDS: Final = tuple(sorted({
    *(use[0] for _, _, uses in _PLUGINS for use in uses if use is not None),
    *(kind for kind, _ in _EXTRA_FORMATS),
    "jwt", "private_key", "password_assignment", "secret_assignment", "aws_secret_key",
    "high_entropy", "bearer_token", "basic_auth", "authorization", "kubernetes_secret",
}))

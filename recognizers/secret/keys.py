"""The keys that name a secret: which words count, and what class of value a key holds.

``password`` and ``secret`` keys take any value that is not a placeholder; ``weak`` keys
(``key``, ``auth``, ``session``...) only a value of high entropy; ``aws`` is an AWS
secret access key.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

#: Words that name a secret inside a key (found anywhere in the key; the key's
#: segments then decide).  ASCII only: case-insensitive on ASCII letters.
KEY_WORD: Final = re.compile(
    r"pass|pwd|pw\b|senha|secret|token|chave|api-?key|credencia|credential|auth|key|cookie"
    r"|session|sid\b|signature|sig\b|hmac|psk\b", re.IGNORECASE | re.ASCII)
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
NOT_SECRET_TAILS: Final = frozenset({
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


#: A key ending in one of these after a dot is a file's name (``signing-key.asc``,
#: ``<rpcsvc/yppasswd.h>``): public keys, certificates, sources and archives, whose
#: name is followed by prose in change logs.  (Not ``.txt``, ``.pem``, ``.env`` or a
#: configuration file: ``grep -r . secrets/`` writes ``password.txt:value``.)
_FILE_EXTENSIONS: Final = frozenset({
    "asc", "gpg", "pgp", "sig", "crt", "cer", "csr", "h", "hh", "hpp", "c", "cc", "cpp",
    "py", "rb", "go", "rs", "java", "js", "ts", "php", "pl", "sh", "md", "rst", "html",
    "so", "dll", "jar", "gz", "xz", "bz2", "zip", "tar", "deb", "rpm",
})


def _segments(key: str) -> list[str]:
    """``AWS_SECRET_ACCESS_KEY`` -> ``aws secret access key``; camelCase split too."""
    pieces = re.split(r"[_.\-/]+", _CAMEL.sub("_", key))
    return [p.lower() for p in pieces if p]


def _names_secret(segments: list[str], index: int) -> bool:
    segment = segments[index]
    if segment in SECRET_WORDS or segment.endswith(_SECRET_ENDINGS) or segment.startswith("chave"):
        return True
    return segment == "key" and index > 0 and segments[index - 1] in _KEY_QUALIFIERS


#: Every word of the classes above, as key_class reads it in a segment (the segment, its
#: end, ``chave`` at its start, ``key``): a key whose lower case holds none of them is
#: of no class (a segment is the lower case of a stretch of the key).
_CLASS_WORDS: Final = re.compile("|".join(sorted(
    map(re.escape, {*PASSWORD_WORDS, *_PASSWORD_ENDINGS, *SECRET_WORDS, *_SECRET_ENDINGS,
                    *WEAK_WORDS, "chave", "key"}), key=lambda word: (-len(word), word))))


def value_class(value: str) -> str | None:
    """:func:`key_class` of a value read as a key (a variable named after a secret,
    ``password=db_password``): one holding no word of a class is ruled out first.  The
    values asked about are mostly random tokens, each new, which would push the keys
    out of key_class's memory."""
    if _CLASS_WORDS.search(value.lower()) is None:
        return None
    return key_class(value)


@functools.lru_cache(maxsize=4096)
def key_class(key: str) -> str | None:
    """``password``, ``secret``, ``aws`` (an AWS secret key), ``weak`` or None."""
    stem, dot, extension = key.rpartition(".")
    if dot and stem and extension.lower() in _FILE_EXTENSIONS:
        return None
    segments = _segments(key.lstrip("-"))
    if not segments:
        return None
    tail = segments[-1]
    if tail in NOT_SECRET_TAILS or (tail.endswith("s") and tail[:-1] in NOT_SECRET_TAILS):
        return None  # about a secret (token_type), or about several (--list-token-urls)
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


#: KEY_WORD's words in lower case, case-sensitive: searched in the lower-cased text it
#: runs several times faster than the case-insensitive pattern in Python's ``re``.
_KEY_WORD_LOWER: Final = re.compile(
    r"pass|pwd|pw\b|senha|secret|token|chave|api-?key|credencia|credential|auth|key|cookie"
    r"|session|sid\b|signature|sig\b|hmac|psk\b", re.ASCII)


def key_words(text: str) -> Iterator[re.Match[str]]:
    """Every word of ``text`` that may name a secret inside a key (KEY_WORD's matches)."""
    lower = text.lower()
    # Lower-casing keeps offsets unless a character grows (U+0130): then the slow way.
    return (_KEY_WORD_LOWER if len(lower) == len(text) else KEY_WORD).finditer(
        lower if len(lower) == len(text) else text)


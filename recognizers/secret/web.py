"""Credentials of the web: JSON Web Tokens, the password of a URL and the credentials of
an ``Authorization`` header (``Bearer``, ``Basic``, ``ApiKey``...)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Final

from recognizers.secret.common import FORMAT_SCORE, KEYED_SCORE, Hit, b64_text
from recognizers.secret.filters import PROSE_WORD, placeholder
from recognizers.secret.formats import FORMAT_REACH
from recognizers.secret.kinds import (
    AUTHORIZATION,
    BASIC_AUTH,
    BEARER_TOKEN,
    CONNECTION_STRING_PASSWORD,
    JWT,
)

#: The longest JSON Web Token.
MAX_JWT: Final = 8_192


# ------------------------------------------------------------------ JSON Web Tokens

_JWT: Final = re.compile(
    r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*+\.[A-Za-z0-9_-]++(?:\.[A-Za-z0-9_-]*+)?", re.ASCII)


def jwts(text: str) -> Iterator[Hit]:
    """JSON Web Tokens: ``eyJ…`` whose header decodes to a JSON object."""
    if "eyJ" not in text:
        return
    for match in _JWT.finditer(text):
        if match.end() - match.start() > MAX_JWT:
            continue
        header = b64_text(match.group().split(".", 1)[0])
        if header is None:
            continue
        try:
            decoded = json.loads(header)
        except (ValueError, RecursionError):  # a crafted header nested a thousand deep
            continue
        if isinstance(decoded, dict) and ("alg" in decoded or "typ" in decoded):
            yield Hit(match.start(), match.end(), JWT, FORMAT_SCORE)


# ------------------------------------------------------------------ passwords in URLs

#: ``scheme://user:password@host`` with characters a URL should have escaped (``!``,
#: ``*``, ``$``, even ``@``): the password runs to the last ``@`` before the host.
_URL_PASSWORD: Final = re.compile(
    r"://[^\s:/?#@\[\]]{0,256}+:([^\s/?#\[\]]{1,512})@[A-Za-z0-9_\-\[/]", re.ASCII)


#: What every match of a URL password holds from its ``://`` on, under both patterns
#: that find one (detect-secrets' BasicAuthDetector and _URL_PASSWORD): a user without
#: blanks, slashes, colons or at-signs (none at all in Redis' ``redis://:password@host``),
#: a colon, then an at-sign before any blank or slash.  A wider class than either
#: pattern's: a superset of their matches.
_URL_CREDENTIALS: Final = re.compile(r"://[^\s/:@]*:[^\s/]*@", re.ASCII)


def may_hold_url_password(text: str, start: int, end: int) -> bool:
    """The ``://`` at ``text[start:end]`` may open a URL's credentials (an accept for
    the prefilter: a referer or a link without ``user:password@`` holds none)."""
    return _URL_CREDENTIALS.match(text, start, min(len(text), start + FORMAT_REACH)) is not None


def url_passwords(text: str) -> Iterator[Hit]:
    """The password of ``scheme://user:password@host`` (only the password)."""
    if "://" not in text:
        return
    for match in _URL_PASSWORD.finditer(text):
        if not placeholder(match.group(1)):
            yield Hit(match.start(1), match.end(1), CONNECTION_STRING_PASSWORD, FORMAT_SCORE)


# ------------------------------------------------------------------ HTTP credentials

_AUTH_SCHEME: Final = re.compile(
    r"(?<![A-Za-z0-9_])(Bearer|Basic|Token|Digest|Negotiate|NTLM|ApiKey|SSWS|Splunk|Bot)"
    r"[ \t]{1,8}"
    r"([A-Za-z0-9._~+/\-]{1,4096}+=*)(?![A-Za-z0-9._~+/\-])", re.ASCII)
_AUTH_KEY: Final = re.compile(r"(?:proxy-)?authori[sz]ation[\"']?[ \t]*[:=][ \t]*[\"']?$",
                              re.IGNORECASE | re.ASCII)


_SCHEMES: Final = ("Bearer", "Basic", "Token", "Digest", "Negotiate", "NTLM", "ApiKey", "SSWS",
                   "Splunk", "Bot")


def auth_credentials(text: str) -> Iterator[Hit]:
    """The credentials of an ``Authorization`` header's scheme."""
    if not any(scheme in text for scheme in _SCHEMES):
        return
    for match in _AUTH_SCHEME.finditer(text):
        scheme, token = match.group(1), match.group(2)
        before = text[max(0, match.start() - 40):match.start()]
        after_key = _AUTH_KEY.search(before) is not None
        if scheme == "Basic":
            decoded = b64_text(token)
            if decoded is None or ":" not in decoded:
                continue
            yield Hit(match.start(2), match.end(2), BASIC_AUTH, FORMAT_SCORE)
        elif scheme == "Bearer" and (after_key or len(token) >= 16):
            if not placeholder(token):
                yield Hit(match.start(2), match.end(2), BEARER_TOKEN, KEYED_SCORE)
        elif after_key and not placeholder(token) and not PROSE_WORD.fullmatch(token):
            # (not a sentence about the header: "Authorization: Token was rejected")
            yield Hit(match.start(2), match.end(2), AUTHORIZATION, KEYED_SCORE)


"""The false-positive filters: what looks like a secret's value and is none.

Placeholders (``<password>``, ``${TOKEN}``, ``********``, ``[SECRET]``), references in
code (``self.password``, ``os.environ[...]``), paths and URLs, prose (``senha:
incorreta``), ``chave`` of an NF-e or Pix key (their own entities) and, for a weak key,
a value of low entropy.  The detectors ask these before they report a value.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import Any, Final

from recognizers.secret.keys import KEY_WORD, value_class

#: Values that stand for a secret without being one.
PLACEHOLDER: Final = re.compile(
    r"""(?ix)
    [*xX#.?•·_\-]*                           # ********, xxxx, ..., ___
    | \$\{.* | \$\(.* | \$[A-Za-z_][A-Za-z0-9_]*(?:-.*|\[.*|::.*)?  # ${V}, $(c), $v, $_POST[
    | \d+[ \t]+bytes                          # kubectl describe secret: "16 bytes"
    | %\(\w*\)[sdr]? | %\w+% | \{\w*\} | \{\{.*\}\} | \{%.*%\}
    | %(?:\d\$)?[-+\x20\#0']{0,2}(?:\d{1,2}|\*)?(?:\.(?:\d{1,2}|\*))?  # a printf conversion:
      (?:hh|h|ll|l|L|q|j|z|t)?[diouxefgacspn][.,;:]?   # %s, %ld, %.*s, %-10s, %1$s.
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
#: Words that stand after a key in prose, not as its value: a change list's status
#: (gnutls NEWS: "gnutls_psk_set_client_credentials2: Added"), what a flag is called
#: ("the --password option is not given"), a word of the sentence ("--password for
#: PKCS #12", "even if --password was").  Asked of a key's value only: in a URL's
#: password place (scheme://user:for@host) such a word is the password.
PROSE_WORD: Final = re.compile(
    r"""(?ix)
    added|adicionad[oa]s?|deprecated|obsolete|obsolet[oa]|descontinuad[oa]|modified
    |modificad[oa]|updated|atualizad[oa]|renamed|renomead[oa]|introduced|unchanged
    |fixed|corrigid[oa]|moved|replaced|substitu[ií]d[oa]|deleted|exclu[ií]d[oa]
    |removid[oa]|unsupported|supported|experimental
    |options?|op[cç][aã]o|op[cç][oõ]es|flags?|arguments?|argumentos?|parameters?
    |par[aâ]metros?|switch|switches|fields?|campos?|variables?|vari[aá]vel|settings?
    |and|the|for|was|were|are|from|with|that|this|its|but|not|can|may|will|when|then
    |into|onto|has|have|had|does|did|also|only|than|which|what|there|here
    |que|para|com|por|uma|foi|ser|pelo|pela|como|mais|mas|quando|onde|sem|seu|sua
    """)
#: A reference in code: ``self.password``, ``process.env.TOKEN``, ``args.token``,
#: ``settings.SECRET_KEY`` (an attribute chain whose last name names a secret; a dotted
#: token such as ``hvs.CAES…`` or a password such as ``Winter.Is.Coming24`` is none).
_REFERENCE: Final = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+", re.ASCII)
_UUID: Final = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
DIGITS_ONLY: Final = re.compile(r"[\d.\-/ ]+", re.ASCII)
EMAIL: Final = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_PHONE: Final = re.compile(r"\+?[\d ()\-]{10,}", re.ASCII)
_URL: Final = re.compile(r"[a-z][a-z0-9+.\-]*://", re.IGNORECASE | re.ASCII)


def placeholder(value: str) -> bool:
    """True for a value that stands in for a secret or refers to one elsewhere."""
    stripped = value.strip()
    if stripped.endswith(":"):
        return True  # the next key of the line: "password: user: bob"
    if len(stripped) < 3 or PLACEHOLDER.fullmatch(stripped):
        return True
    if _REFERENCE.fullmatch(stripped) and value_class(stripped.rsplit(".", 1)[-1]) is not None:
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
        if len(words) >= 5 or any(KEY_WORD.search(word) for word in words):
            return True
    return False


def _entropy(value: str, kind: str = "base64") -> float:
    """detect-secrets' Shannon entropy of ``value`` over the kind's character set."""
    return float(_entropy_plugin(kind).calculate_shannon_entropy(value))


#: How near its limit an entropy computed here is asked of detect-secrets instead.
_ENTROPY_MARGIN: Final = 1e-6


def _entropy_over(value: str, kind: str, limit: float) -> bool:
    """Whether detect-secrets' entropy of ``value`` (at most ENTROPY_SAMPLE characters)
    is over ``limit``.

    The plugin counts each of its set's characters in ``value`` (66 counts for base64:
    a third of a JSON debug line's cost).  The same sum, -Σ p·log2 p over the characters
    of the set that ``value`` holds (p = count / length), is taken here from one count
    of ``value`` and a table of c·log2 c; a sum within a millionth of the limit, where
    the order of the additions might tip the answer, and a hex value of decimal digits
    alone (the plugin lowers a number's entropy) are the plugin's to answer
    (tests/unit/test_secret_entropy.py)."""
    size = len(value)
    if size == 0 or size > ENTROPY_SAMPLE or (kind == "hex" and value.isdigit()):
        return _entropy(value, kind) > limit
    charset = _charset(kind)
    counts = Counter(value)
    inside = [count for char, count in counts.items() if char in charset]
    entropy = (math.log2(size) * sum(inside) - sum(map(_C_LOG_C.__getitem__, inside))) / size
    if abs(entropy - limit) < _ENTROPY_MARGIN:
        return _entropy(value, kind) > limit
    return entropy > limit


@functools.cache
def _charset(kind: str) -> frozenset[str]:
    """The kind's character set."""
    return frozenset(_entropy_plugin(kind).charset)


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
WORDY: Final = re.compile(r"(?:^|[-_/.])[a-z]{4,}(?=$|[-_/.])")
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
#: c·log2 c for each count a sample's character may have.
_C_LOG_C: Final = (0.0, *(count * math.log2(count) for count in range(1, ENTROPY_SAMPLE + 1)))


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
        return _entropy_over(value, "hex", HEX_LIMIT)
    if _B64_CHARS.fullmatch(value):
        return _entropy_over(value, "base64", BASE64_LIMIT)
    return False


_PUNCTUATION: Final = ",.;:!?()\"'"


def prose(value: str) -> bool:
    """Words, at least two and half of them of letters only: a sentence, not a password."""
    words = value.split()
    if len(words) < 2:
        return False
    letters = sum(1 for w in words
                  if len(w.strip(_PUNCTUATION)) >= 2 and w.strip(_PUNCTUATION).isalpha())
    return letters >= 2 and 2 * letters >= len(words)


def message(value: str) -> bool:
    """A sentence written to a person (capitalised or ending in a stop), as a JSON value
    under a secret key holds in a form's labels or errors; a passphrase is neither."""
    stripped = value.strip()
    return prose(stripped) and (stripped[0].isupper() or stripped[-1] in ".!?:")


#: Words whose nearness makes ``chave`` an NF-e or Pix key (their own entities).
_CHAVE_NEIGHBOURS: Final = re.compile(
    r"nf-?e|nfc-?e|ct-?e|mdf-?e|nota\s+fiscal|danfe|sefaz|pix|acesso|cpf|cnpj|e-?mail"
    r"|telefone|celular|aleat[oó]ria|evp")  # searched in lower case

#: How far from ``chave`` an NF-e or Pix word is looked for on its line.
CHAVE_REACH: Final = 160


def chave_is_other(text: str, key_start: int, value: str) -> bool:
    """``chave`` of an NF-e, CT-e or Pix (own entities), not a secret."""
    if DIGITS_ONLY.fullmatch(value) or _UUID.fullmatch(value) or EMAIL.fullmatch(value) \
            or _PHONE.fullmatch(value):
        return True
    # Its line, up to CHAVE_REACH characters on either side of the key.
    low, high = max(0, key_start - CHAVE_REACH), min(len(text), key_start + CHAVE_REACH)
    line_start = text.rfind("\n", low, key_start) + 1
    line_end = text.find("\n", key_start, high)
    line = text[max(line_start, low):line_end if line_end >= 0 else high]
    return _CHAVE_NEIGHBOURS.search(line.lower()) is not None

"""Pseudonym tokens: one keyed digest per (entity, canonical value), and their grammar.

A token reads ``[CPF:0123456789abcdef]``: the entity's label and the first 64 bits of
HMAC-SHA256(key, entity NUL canonical value), in lowercase hexadecimal.  The same value
written two ways (``529.982.247-25``, ``52998224725``) has one canonical form, hence one
token, in every process that holds the same key: hooks, the gateway, batch and Spark.

Odds: with n distinct values of one entity, the chance that two share a token is about
n²/2⁶⁵; for 10⁷ values that is 2.7·10⁻⁶ (and tokens of different entities never
compare equal: the label differs).  The vault keeps the first value stored under a
token, so in that unlikely case the second value's token would resolve to the first.

The tokens of the older ``hash`` operator (12 hexadecimal characters, every entity's value
read with :func:`redactor.engine.build.allow_key`) still parse: :func:`legacy_digest`
computes them, and the vault resolves them.

This module imports only the standard library (it runs in hooks).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = ["DIGEST_CHARS", "LEGACY_CHARS", "TOKEN_RE", "Token", "canonical", "digest",
           "find_tokens", "legacy_digest", "near_tokens"]

#: Hexadecimal characters of a token's digest (64 bits).
DIGEST_CHARS: Final = 16
#: Hexadecimal characters of the older ``hash`` operator's tokens (48 bits).
LEGACY_CHARS: Final = 12
#: A label: what ENTITY_LABELS holds (``CPF``, ``TITULO_ELEITOR``).
_LABEL: Final = r"[A-Z][A-Z0-9_]{1,30}"
#: A token as the operator writes it, new or legacy (the closing bracket may carry the
#: backslash of a regex that escaped both: ``\[CPF:…\]``).
TOKEN_RE: Final = re.compile(rf"\[({_LABEL}):([0-9a-f]{{{DIGEST_CHARS}}}|"
                             rf"[0-9a-f]{{{LEGACY_CHARS}}})\\?\]")
#: Anything that looks like a token someone altered: another case, another length, a
#: character that is not hexadecimal, a bracket missing.  Never corrected: refused.
_NEAR_RE: Final = re.compile(r"\[?\b[A-Za-z][A-Za-z0-9_]{1,30}:[0-9A-Za-z]{8,24}\b\]?")

#: Entities whose values are identifiers written with separators: the canonical form is
#: the pack's own (separators dropped, NFKC, upper case, then case-folded), as the
#: ``hash`` operator always read them, so a legacy token is the prefix of the new one.
_SEPARATED: Final = frozenset({
    "BR_CPF", "BR_CNPJ", "BR_CNH", "BR_PIS", "BR_TITULO_ELEITOR", "BR_CNS", "BR_RENAVAM",
    "BR_RG", "BR_CEP", "BR_PLACA", "BR_BANK_ACCOUNT", "BR_CNJ", "CREDIT_CARD",
    "IBAN_CODE", "DATA_NASCIMENTO", "BR_PIX_EVP",
})
_PHONES: Final = frozenset({"BR_PHONE", "PHONE_NUMBER"})
#: Exact values: a secret or a payment code differs by one character's case.
_EXACT: Final = frozenset({"SECRET", "BR_PIX_BRCODE"})
_SPACES: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Token:
    """One token found in a text: where it is, its label and its digest (no value)."""

    start: int
    end: int
    label: str
    digest: str
    #: Written ``\[CPF:…\]`` (``start`` is then at the first backslash).
    escaped: bool = False

    @property
    def legacy(self) -> bool:
        return len(self.digest) == LEGACY_CHARS

    @property
    def text(self) -> str:
        return f"[{self.label}:{self.digest}]"


def canonical(entity: str, value: str) -> str:
    """The form of ``value`` that its token is computed from: one per identifier, however
    it is written, and distinct for distinct identifiers (``joao.silva@x.com`` and
    ``joaosilva@x.com`` are two people)."""
    if entity in _SEPARATED:
        from redactor.engine.build import allow_key

        return allow_key(value)
    if entity in _EXACT:
        return value
    text = unicodedata.normalize("NFKC", value).strip()
    if entity in _PHONES:
        digits = "".join(ch for ch in text if ch.isdigit())
        if len(digits) >= 12 and digits.startswith("55"):
            digits = digits[2:]  # +55: Brazil's country code
        return digits.lstrip("0")  # a trunk prefix (0 11 ...)
    if entity == "IP_ADDRESS":
        try:
            return ipaddress.ip_address(text.strip("[]")).compressed
        except ValueError:
            return text.casefold()
    # Names, addresses, user names, e-mail addresses: case and spacing only.
    return _SPACES.sub(" ", text).casefold()


def digest(key: bytes, entity: str, value: str) -> str:
    """The token digest of ``value`` (64 bits, hexadecimal)."""
    message = f"{entity}\0{canonical(entity, value)}".encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:DIGEST_CHARS]


def legacy_digest(key: bytes, entity: str, value: str) -> str:
    """What the ``hash`` operator wrote for ``value`` before tokens took 16 characters."""
    from redactor.engine.build import allow_key

    message = f"{entity}\0{allow_key(value)}".encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:LEGACY_CHARS]


def find_tokens(text: str) -> list[Token]:
    """Every well-formed token of ``text``, in order."""
    if "[" not in text:
        return []
    found: list[Token] = []
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        opening = start > 0 and text[start - 1] == "\\"
        if text[end - 2] == "\\" and not opening:
            continue  # ``[CPF:…\]``: neither a token nor its escaped form (a near miss)
        # ``\[CPF:…\]`` (or ``\[CPF:…]``): the escapes belong to the token.
        found.append(Token(start - 1 if opening else start, end, match.group(1),
                           match.group(2), opening))
    return found


def near_tokens(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that look like a token but are not one exactly (a case changed,
    a character off, a bracket lost): a caller refuses them rather than guess."""
    if ":" not in text:
        return []
    exact = [(t.start, t.end) for t in find_tokens(text)]
    found: list[tuple[int, int]] = []
    for match in _NEAR_RE.finditer(text):
        start, end = match.span()
        if any(s <= start and end <= e for s, e in exact):
            continue
        body = match.group().strip("[]")
        label, _, tail = body.partition(":")
        # Ordinary text with a colon (``host:8080``, ``user:password``) is not a token:
        # only a label-like word before a hexadecimal-looking tail is.
        if not _looks_like_digest(tail) or not label.replace("_", "").isalnum():
            continue
        if not (label.isupper() or label.upper() in _KNOWN_LABELS):
            continue
        # A bracket on one side at least: ``CPF:52998224725`` is a raw value written
        # after its name (redacted as such), not a token.
        if not (match.group().startswith("[") or match.group().endswith("]")):
            continue
        found.append((start, end))
    return found


def _looks_like_digest(tail: str) -> bool:
    hexish = sum(ch in "0123456789abcdefABCDEF" for ch in tail)
    return hexish >= len(tail) - 2 and any(ch.isdigit() for ch in tail)


def _labels() -> frozenset[str]:
    from recognizers.catalogue import CATALOGUE

    return frozenset(e.label for e in CATALOGUE)


_KNOWN_LABELS: Final = _labels()

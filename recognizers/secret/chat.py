"""Passwords said in a sentence of a chat or a ticket: ``A senha é gatinho558!``, ``a
senha do wifi é "Casa 2024"``, ``the password is hunter2``.  The value must look like a
password; a plain word, a negation or a sentence about the password is none."""

from __future__ import annotations

import re
from typing import Final

from recognizers._text import fold
from recognizers.secret.common import MAX_VALUE, Value
from recognizers.secret.filters import EMAIL, prose

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


def chat_value(text: str, key_start: int, key_end: int) -> Value | None:
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
        if end <= start + 1 or "\n" in text[start + 1:end] or prose(text[start + 1:end]):
            return None
        return Value(start + 1, end)
    run = _CHAT_RUN.match(text, start, min(len(text), start + MAX_VALUE + 1))
    if run is None or run.end() - start > MAX_VALUE:
        return None
    end = run.end()
    while end > start and text[end - 1] in _CHAT_TRAILING + _CHAT_QUOTES:
        end -= 1
    token = text[start:end]
    technical = _TECHNICAL.match(token)
    if len(token) < 4 or EMAIL.fullmatch(token) or (technical is not None and (
            technical.end() == len(token) or token[technical.end()] in "-_/")):
        return None  # "base64", "SHA256", "base64-encoded", "2FA"
    letters = any(c.isalpha() for c in token)
    others = any(not c.isalpha() and c not in "-'\u2019" for c in token)
    if letters:
        return Value(start, end) if others else None
    # Digits (and symbols) alone: a PIN, or a number the sentence goes on to explain
    # ("the password is 12345678 characters long" has none).
    if not token.isdigit() or not _CLAUSE_END.match(text, run.end()):
        return None
    return Value(start, end)


"""Encoded and escaped forms of the punctuation inside identifiers (issue 29, item 5).

Access logs, curl commands, PHP and JSON output and HTML write ``/``, ``-``, ``.``, a
space and ``@`` as ``%2F`` (``%252F`` when encoded twice), ``\\/`` or ``\\u002F``,
``&#x2F;``, ``&#47;`` or ``&sol;``.  The recognizers accept these spellings in place of
the character (:func:`separator`) and read a candidate through them
(:func:`decode_separators`); the text itself is never rewritten, so offsets stay those
of the original.  :func:`decode_span` decodes a small window with the original offset
of each decoded character, for recognizers that read a candidate's surroundings.

The patterns use only syntax that both Python's ``re`` and hyperscan accept, and no
nested quantifier: every alternative is a fixed literal shape.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

__all__ = [
    "AFTER_ESCAPE",
    "ESCAPE_CHARS",
    "ESCAPE_EDGE",
    "decode_separators",
    "decode_span",
    "escaped_separator",
    "has_escape",
    "separator",
]

#: Each character and its HTML named references (HTML5).
_NAMED: Final = {"/": ("sol",), ".": ("period",), "-": ("hyphen", "dash", "minus"),
                 " ": ("nbsp",), "@": ("commat",), "+": ("plus",)}


def _hex_class(digit: str) -> str:
    return f"[{digit.lower()}{digit.upper()}]" if digit.isalpha() else digit


@cache
def _encodings(char: str) -> tuple[str, ...]:
    """Patterns of the escaped spellings of ``char`` (not the character itself)."""
    code = ord(char)
    digits = f"{code:02X}"
    hex2 = _hex_class(digits[0]) + _hex_class(digits[1])
    forms = [
        f"%{hex2}", f"%25{hex2}",                          # percent-encoded, once or twice
        f"\\\\u00{hex2}",                                  # JSON / JavaScript
        f"&#[xX]0{{0,2}}{hex2};", f"&#0{{0,2}}{code};",    # HTML numeric references
    ]
    if char == "/":
        forms.append("\\\\/")                              # JSON's escaped slash
    forms.extend(f"&{name};" for name in _NAMED.get(char, ()))
    return tuple(forms)


def escaped_separator(chars: str) -> str:
    """A pattern for one of ``chars`` written escaped (not plainly)."""
    return "(?:" + "|".join(form for char in chars for form in _encodings(char)) + ")"


def separator(chars: str, *, plain: str | None = None, escapes: bool = True) -> str:
    """A pattern for one of ``chars`` written plainly or escaped (no quantifier).

    ``plain`` overrides how the plain characters are matched (``" ?- ?"`` for a dash
    with spaces around it).  ``escapes=False``: the plain characters only, the form a
    recognizer runs on a text without any escape character (see :data:`ESCAPE_CHARS`):
    every escaped form starts with one, so both match the same there."""
    literal = plain if plain is not None else "[" + "".join(
        "\\" + c if c in "-]\\^[" else c for c in chars) + "]"
    if not escapes:
        return "(?:" + literal + ")"
    escaped = [form for char in chars for form in _encodings(char)]
    return "(?:" + literal + "|" + "|".join(escaped) + ")"


#: The characters every escaped form starts with: a text holding none of them holds no
#: escape, and a pattern's plain form (``escapes=False``) matches there as the full one.
ESCAPE_CHARS: Final = ("%", "\\", "&")
#: An escape that ends with a letter or a digit of its own, after which an identifier may
#: start even though it touches that letter or digit: ``%2F52998224725``, a JSON line
#: break ``\n52998224725``, ``\u003a``.  As a pattern (a trigger's left edge).
ESCAPE_EDGE: Final = "(?:%[0-9A-Fa-f]{2}|\\\\[nrtbf]|\\\\u[0-9A-Fa-f]{4})"
#: The same as look-behinds, for a pattern's left boundary (``re`` wants fixed widths).
AFTER_ESCAPE: Final = ("(?<=%[0-9A-Fa-f]{2})|(?<=\\\\[nrtbf])|(?<=\\\\u[0-9A-Fa-f]{4})")

_ANY_ESCAPE: Final = re.compile(
    r"%(?:25)?[0-9A-Fa-f]{2}|\\u00[0-9A-Fa-f]{2}|\\/|&#[xX]0{0,2}[0-9A-Fa-f]{2};|&#0{0,2}\d{2,3};"
    r"|&(?:sol|period|hyphen|dash|minus|nbsp|commat|plus);")
_BY_NAME: Final = {name: char for char, names in _NAMED.items() for name in names}
_NBSP: Final = "\u00a0"


def _char_of(escape: str) -> str:
    """The character an escape of _ANY_ESCAPE stands for (ASCII only; others unchanged)."""
    if escape[0] == "%":
        code = int(escape[-2:], 16)
    elif escape == "\\/":
        return "/"
    elif escape[0] == "\\":
        code = int(escape[2:], 16)
    elif escape[1] == "#":
        body = escape[2:-1]
        code = int(body[1:], 16) if body[0] in "xX" else int(body)
    else:
        return _BY_NAME[escape[1:-1]].replace(_NBSP, " ")
    return chr(code) if code < 0x80 else escape


def has_escape(text: str) -> bool:
    """Whether ``text`` may hold an escape: a ``%``, a backslash or an ``&``."""
    return "%" in text or "\\" in text or "&" in text


def decode_separators(text: str) -> str:
    """``text`` with each escape of an ASCII character replaced by that character."""
    if not has_escape(text):
        return text
    return _ANY_ESCAPE.sub(lambda m: _char_of(m.group()), text)


_PERCENT: Final = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def decode_span(text: str, start: int, end: int, *,
                plus_is_space: bool = False) -> tuple[str, list[int]]:
    """``text[start:end]`` with its percent escapes decoded (UTF-8; each ``%25`` once,
    so ``%2540`` reads ``%40``... and is decoded again: twice-encoded text reads as
    once), and ``offsets``: the original index of each decoded character, plus ``end``.

    ``plus_is_space``: read ``+`` as a space (form data).  Bytes that are no UTF-8 stay
    as written."""
    out: list[str] = []
    offsets: list[int] = []
    position = start
    for match in _PERCENT.finditer(text, start, end):
        for index in range(position, match.start()):
            char = text[index]
            out.append(" " if plus_is_space and char == "+" else char)
            offsets.append(index)
        _decode_run(match.group(), match.start(), out, offsets)
        position = match.end()
    for index in range(position, end):
        char = text[index]
        out.append(" " if plus_is_space and char == "+" else char)
        offsets.append(index)
    offsets.append(end)
    decoded = "".join(out)
    if "%" in decoded and decoded != text[start:end] and _PERCENT.search(decoded):
        # Encoded twice (%2540): decode the decoded text once more, offsets composed.
        again, inner = decode_span(decoded, 0, len(decoded), plus_is_space=False)
        return again, [offsets[i] for i in inner]
    return decoded, offsets


def _decode_run(run: str, at: int, out: list[str], offsets: list[int]) -> None:
    """Decode a run of ``%XX`` escapes as UTF-8, one character per sequence; a byte that
    starts no valid sequence stays as its three characters."""
    data = bytes(int(run[i + 1:i + 3], 16) for i in range(0, len(run), 3))
    index = 0
    while index < len(data):
        lead = data[index]
        size = 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else \
            4 if lead >> 3 == 30 else 0
        try:
            char = data[index:index + size].decode("utf-8") if size else ""
        except UnicodeDecodeError:
            char = ""
        if len(char) == 1:
            out.append(char)
            offsets.append(at + 3 * index)
            index += size
        else:
            out.extend(run[3 * index:3 * index + 3])
            offsets.extend(range(at + 3 * index, at + 3 * index + 3))
            index += 1

"""Private keys: whole PEM blocks (``-----BEGIN … PRIVATE KEY-----`` to its END line, also
with ``\\n`` escapes inside a JSON string or every line behind the same prefix, as in a
diff or a log), PuTTY key files and PEM private keys encoded in base64 (a Kubernetes
``tls.key``).  Public keys and certificates are not secrets."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import Final

from recognizers.secret.common import FORMAT_SCORE, MAX_KEY, MAX_VALUE, Hit, b64_text
from recognizers.secret.kinds import PRIVATE_KEY

#: The longest private key block (PEM text or base64) a finding covers in one piece.
#: A longer block is covered from both ends (the BEGIN line onwards and up to the END
#: line), so blocks up to twice this size are covered whole.
KEY_REACH: Final = 12_000
#: The longest PEM key encoded in base64 (a Kubernetes tls.key of an 8192-bit RSA key
#: is about 8,700 characters).
MAX_B64_KEY: Final = 16_000

PEM_LABEL: Final = r"(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?"
_PEM_BEGIN: Final = re.compile(rf"-----BEGIN ({PEM_LABEL})-----")
_PEM_END: Final = re.compile(rf"-----END ({PEM_LABEL})-----")
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


def private_keys(text: str) -> Iterator[Hit]:
    """Private keys: PEM blocks, PuTTY key files and base64-encoded PEM keys."""
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
        yield Hit(begin.start(), end, PRIVATE_KEY, FORMAT_SCORE)
    for footer in _PEM_END.finditer(text):
        if footer.end() in ends:
            continue
        start = _body_start(text, footer.start(), footer.start() - KEY_REACH)
        if start < footer.start():
            yield Hit(start, footer.end(), PRIVATE_KEY, FORMAT_SCORE)
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
        yield Hit(putty.start(), end, PRIVATE_KEY, FORMAT_SCORE)
    for match in _B64_PEM.finditer(text):
        head = b64_text(match.group()[:64])
        if head is not None and "PRIVATE KEY" in head:
            yield Hit(match.start(), match.end(), PRIVATE_KEY, FORMAT_SCORE)


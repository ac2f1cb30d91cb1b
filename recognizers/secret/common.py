"""What every secret detector shares: the hits it reports, their scores and the bounds
of keys and values.  Presidio-free (the recognizer wraps hits)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Final

from recognizers.secret.kinds import Kind

ENTITY: Final = "SECRET"
#: The recognizer's name; a finding's recognizer name is ``SecretRecognizer:<kind>``.
RECOGNIZER_NAME: Final = "SecretRecognizer"

#: The longest value of an assignment.
MAX_VALUE: Final = 4_096
#: The longest key of an assignment, on either side of the word that names a secret.
MAX_KEY: Final = 64

# Scores: a format or a key that names a secret is certain (1.0); a high-entropy value
# of a weaker key less so.  Every finding is reported at context distance 0 (its key
# or format is its keyword), so that between equal scores a secret is not cut by an
# identifier inside it.
FORMAT_SCORE: Final = 1.0
KEYED_SCORE: Final = 1.0
ENTROPY_SCORE: Final = 0.8


@dataclass(frozen=True, slots=True)
class Hit:
    """A secret a detector found: its span, kind and score."""

    start: int
    end: int
    kind: Kind
    score: float


@dataclass(frozen=True, slots=True)
class Value:
    """The span of a value given to a key."""

    start: int
    end: int


def secret_kind(recognizer_name: str) -> str | None:
    """The kind of a SECRET finding from its recognizer name, else None."""
    prefix, _, kind = recognizer_name.partition(":")
    return kind if prefix == RECOGNIZER_NAME and kind else None


def b64_text(data: str, limit: int = 4_096) -> str | None:
    """``data`` (base64 or base64url, padding optional) decoded as Latin-1, else None."""
    data = data[:limit - limit % 4].replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return base64.b64decode(data + "=" * (-len(data) % 4), validate=True).decode("latin-1")
    except (binascii.Error, ValueError):
        return None

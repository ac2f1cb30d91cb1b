"""Findings and results: offsets and types, never the matched values."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Finding", "Issued", "JsonPath", "JsonRedaction", "RedactionResult"]

#: Keys and list indexes from the root of a JSON value down to a string leaf.
JsonPath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One detected span of the original text.

    ``start`` and ``end`` index the original string (for JSON, the string leaf at
    ``path``).  There is deliberately no field for the matched text: print or log
    a Finding freely.
    """

    start: int
    end: int
    entity_type: str
    score: float
    recognizer: str
    path: JsonPath = ()

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError("a finding needs 0 <= start < end")


@dataclass(frozen=True, slots=True)
class Issued:
    """A value written as a pseudonym token: its digest, entity and value, and the token
    the older ``hash`` operator wrote for it.  It holds the value: its repr does not,
    and it is for the vault alone."""

    digest: str
    entity: str
    value: str = field(repr=False)
    legacy: str = field(repr=False, default="")


def _summary(findings: tuple[Finding, ...]) -> str:
    counts = Counter(f.entity_type for f in findings)
    return ", ".join(f"{name}={count}" for name, count in sorted(counts.items())) or "none"


class _Counts:
    __slots__ = ()
    findings: tuple[Finding, ...]

    @property
    def changed(self) -> bool:
        """True when anything was detected (and therefore replaced)."""
        return bool(self.findings)

    def entity_counts(self) -> dict[str, int]:
        """Number of findings per entity type."""
        return dict(Counter(f.entity_type for f in self.findings))


@dataclass(frozen=True, slots=True, repr=False)
class RedactionResult(_Counts):
    """The redacted text and what was found in the original."""

    text: str
    findings: tuple[Finding, ...] = ()
    #: With [pseudonyms] on: the values written as tokens, for the vault (never shown).
    issued: tuple[Issued, ...] = field(default=(), compare=False)

    def __repr__(self) -> str:
        # The redacted text is left out too: with an operator switched off by
        # configuration it could still hold personal data.
        return (f"RedactionResult(chars={len(self.text)}, "
                f"findings={len(self.findings)} [{_summary(self.findings)}])")


@dataclass(frozen=True, slots=True, repr=False)
class JsonRedaction(_Counts):
    """A redacted JSON value, its findings (with paths) and the minimal patch.

    ``patch`` holds only the top-level keys (or, for a list, indexes) whose values
    changed, each with its complete new value; it is empty when nothing changed.
    """

    value: Any
    findings: tuple[Finding, ...] = ()
    patch: dict[str | int, Any] = field(default_factory=dict)
    issued: tuple[Issued, ...] = field(default=(), compare=False)

    def __repr__(self) -> str:
        return (f"JsonRedaction(findings={len(self.findings)} [{_summary(self.findings)}], "
                f"patched_keys={len(self.patch)})")

"""Every detector over a text, one kind per span: :func:`find_secrets`.  Presidio-free;
:class:`~recognizers.secret.recognizer.SecretRecognizer` reports what it finds."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Final

from recognizers.secret.assignments import key_values
from recognizers.secret.commands import command_passwords
from recognizers.secret.common import Hit
from recognizers.secret.formats import provider_tokens
from recognizers.secret.kubernetes import json_values, yaml_values
from recognizers.secret.pem import private_keys
from recognizers.secret.web import auth_credentials, jwts, url_passwords

#: The detectors, in the order they are asked: between two findings of the same span
#: and rank, the first one found stays.
DETECTORS: Final[tuple[Callable[[str], Iterator[Hit]], ...]] = (
    provider_tokens, url_passwords, jwts, private_keys, key_values, command_passwords,
    auth_credentials, yaml_values, json_values)


#: The prefilter triggers (SecretRecognizer.prefilter, by name) one of which hits within
#: reach of each finding of a detector: a region none of whose hits is one of them holds
#: nothing that detector finds, and it is not run there (it would read the whole region,
#: which reaches kilobytes around a key word).  key_values reads its trigger's hits.
DETECTOR_TRIGGERS: Final[dict[Callable[[str], Iterator[Hit]], frozenset[str]]] = {
    provider_tokens: frozenset({"format", "format-shape", "aws", "url"}),
    url_passwords: frozenset({"url"}),
    jwts: frozenset({"jwt"}),
    private_keys: frozenset({"pem-begin", "pem-end", "putty", "pem-base64"}),
    key_values: frozenset({"key"}),
    command_passwords: frozenset({"command"}),
    auth_credentials: frozenset({"auth-scheme"}),
    yaml_values: frozenset({"manifest"}),
    json_values: frozenset({"manifest"}),
}
#: Every trigger named above: hits of any other name (a backend's union of triggers,
#: "any") say nothing of which detectors may find something.
TRIGGER_NAMES: Final = frozenset().union(*DETECTOR_TRIGGERS.values())

#: Kinds known from their surroundings only: on the same span, a kind known from the
#: value's own format (github_token, jwt…) is reported instead.
#: (Listed from the most to the least specific.)
GENERIC_KINDS: Final = ("kubernetes_secret", "bearer_token", "authorization",
                        "connection_string_password", "aws_secret_key", "password_assignment",
                        "secret_assignment", "high_entropy")


def _rank(hit: Hit) -> tuple[float, int]:
    name = hit.kind.name
    generic = GENERIC_KINDS.index(name) if name in GENERIC_KINDS else -1
    return hit.score, -generic


def find_secrets(text: str, key_hits: Sequence[tuple[int, int]] | None = None,
                 triggers: Collection[str] | None = None,
                 ) -> list[tuple[int, int, str, float]]:
    """Every secret in ``text`` as ``(start, end, kind, score)``, sorted; one kind per
    span (the most specific); spans may overlap.

    ``key_hits``: the key trigger's accepted hits, sorted by start, when the prefilter
    judged the key words of ``text`` (see :func:`~recognizers.secret.assignments.key_values`).
    ``triggers``: the names of the prefilter's triggers that hit in ``text``, when the
    prefilter read it (all of :data:`TRIGGER_NAMES`): the detectors none of whose
    triggers hit are not run (see :data:`DETECTOR_TRIGGERS`)."""
    best: dict[tuple[int, int], Hit] = {}
    for detect in DETECTORS:
        if triggers is not None and DETECTOR_TRIGGERS[detect].isdisjoint(triggers):
            continue
        found = key_values(text, key_hits) if detect is key_values else detect(text)
        for hit in found:
            key = (hit.start, hit.end)
            current = best.get(key)
            if current is None or _rank(hit) > _rank(current):
                best[key] = hit
    return sorted((h.start, h.end, h.kind.name, h.score) for h in best.values())

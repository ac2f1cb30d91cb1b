"""The Redactor: an analysis plus the Presidio operators applied to what it finds."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from redactor import config
from redactor.config import Settings
from redactor.engine import build
from redactor.engine.analysis import Analysis, bytes_read, checked_names, unescaped
from redactor.engine.jsonredact import redact_json
from redactor.engine.propagation import StreamNames
from redactor.engine.spans import Span
from redactor.errors import ConfigError, EngineError
from redactor.pseudonyms.tokens import DIGEST_CHARS
from redactor.results import Finding, Issued, JsonRedaction, RedactionResult


class Redactor(Analysis):
    """Detects and replaces personal data.  Build once, call many times; thread-safe."""

    def __init__(self, settings: Settings | None = None,
                 environ: Mapping[str, str] | None = None, *,
                 prefilter: bool | str = True, hash_key: bytes | None = None) -> None:
        if settings is None:
            settings = config.load_settings()
        # ``hash_key``: the token key itself, read elsewhere (a Spark job ships it to
        # executors, where neither the variable nor the key file exists).
        if hash_key is not None and len(hash_key) < 16:
            raise ConfigError("the pseudonym key is shorter than 16 bytes; use a longer "
                              "random key (for example: openssl rand -hex 32)")
        self._token_key = (hash_key if hash_key is not None
                           else build.token_key(settings, os.environ if environ is None
                                                else environ))
        super().__init__(settings, prefilter=prefilter)
        self._operators = {e: build.operator_config(settings, e, self._token_key)
                           for e in self._entities}
        #: The entities whose tokens a vault may turn back into values: each call lists
        #: the values it wrote as tokens (RedactionResult.issued).
        self._pseudonymous = frozenset(
            e for e in self._entities
            if settings.vault and settings.operator_for(e).kind == "pseudonym")
        #: Called with each value written as a token (a batch run's vault writer); set
        #: and cleared by the one caller that owns the engine meanwhile, like ``baseline``.
        self.issued_sink: Callable[[Issued], None] | None = None
        self._operate = build.operator_functions(self._operators)
        self._check_placeholders()

    def redact(self, text: str, *, context: Sequence[str] | None = None,
               names: StreamNames | None = None) -> RedactionResult:
        """Return ``text`` with every finding replaced by its entity's operator.

        ``names``: see :meth:`analyze`.
        """
        redacted, spans, issued = self._redacted(text, context, names, "redact")
        findings = tuple(
            Finding(s.start, s.end, s.entity, round(s.score, 4), s.recognizer) for s in spans
        )
        return RedactionResult(redacted, findings, tuple(issued) if issued else ())

    def redact_counting(self, text: str, *, names: StreamNames | None = None,
                        ) -> tuple[str, list[str]]:
        """:meth:`redact`'s text, and the entity of each of its findings (in order),
        without the findings themselves: what a batch run keeps of a block, which
        holds thousands of findings."""
        redacted, spans, _ = self._redacted(text, None, names, "redact_counting")
        return redacted, [s.entity for s in spans]

    def _redacted(self, text: str, context: Sequence[str] | None,
                  names: StreamNames | None, caller: str,
                  ) -> tuple[str, list[Span], list[Issued] | None]:
        """The redacted text, its spans and the tokens issued (None for an engine that
        writes none), for :meth:`redact` and :meth:`redact_counting`."""
        if not isinstance(text, str):
            raise TypeError(f"{caller}() needs str, not {type(text).__name__}")
        spans = self._spans(text, context, checked_names(names))
        issued: list[Issued] | None = [] if self._pseudonymous else None
        return self._apply(text, spans, issued), spans, issued

    def apply(self, text: str, findings: Sequence[Finding]) -> str:
        """Replace the given findings (from :meth:`analyze` on this text) with their operators."""
        spans = [Span(f.start, f.end, f.entity_type, f.score, f.recognizer)
                 for f in sorted(findings)]
        return self._apply(text, spans)

    def redact_json(self, value: Any, *, keys_and_numbers: bool = False,
                    entities: Collection[str] | None = None,
                    numbers: str = "placeholder",
                    names: StreamNames | None = None) -> JsonRedaction:
        """Redact every string leaf of a JSON value (dict, list, str, numbers...).

        Each leaf is analysed as ``"<key>: <leaf>"``, so that its key reads as it
        would in a log line (``{"user": "jsilva"}`` is a user name, ``{"cpf": ...}`` is
        context); the keys above it count as context too.  By default keys, numbers
        and booleans are kept as they are (the contract of batch JSON files).

        ``keys_and_numbers`` (the hooks' contract): an integer, or an integral float,
        whose digits are a detected identifier (``{"cpf": 52998224725}``,
        ``52998224725.0``) becomes the placeholder string,
        and an object key that holds a detected value is redacted like a string (a
        key that then collides with another gets ``#2``...).

        ``numbers`` (with ``keys_and_numbers``): ``"placeholder"`` writes such a number
        as the placeholder string; ``"masked"`` keeps its type, every digit a 9
        (``52998224725`` → ``99999999999``, ``52998224725.0`` → ``99999999999.0``), for
        typed loads that a string would break.

        ``entities`` limits what is redacted to those entities (the hooks' tool input
        leaves names and addresses alone: see ``Settings.input_entities``).

        ``names`` carries user names across the documents of one stream (the lines of
        a JSON Lines file), as :meth:`redact` does across a text's pieces: the names
        in it are redacted in this document's values too, and the user names found
        in the document are added to it.

        Returns the new value, the findings with their paths (offsets into the leaf
        or key; paths name keys as redacted), and the minimal patch: the top-level
        keys (or indexes) whose values changed, under their new names.
        """
        return redact_json(self, value, keys_and_numbers=keys_and_numbers, entities=entities,
                           numbers=numbers, names=checked_names(names))

    def issue(self, entity: str, value: str) -> Issued:
        """The token of ``value`` as this engine writes it, with what a vault keeps."""
        from redactor.pseudonyms.tokens import digest, legacy_digest

        key = self._token_key
        if key is None:
            raise EngineError("this engine writes no tokens")
        return Issued(digest(key, entity, value), entity, value,
                      legacy_digest(key, entity, value))

    def _apply(self, text: str, spans: list[Span], issued: list[Issued] | None = None) -> str:
        """Replace each span with its entity's Presidio operator.

        The spans are disjoint and sorted (see :func:`redactor.engine.spans.resolve`), so
        the operators are applied one span at a time, as Presidio's AnonymizerEngine
        applies them, without its pairwise conflict check, which costs quadratic time on
        dense findings (tests/integration/test_redact.py proves the same output).
        """
        if not spans:
            return text
        out: list[str] = []
        cursor = 0
        try:
            for span in spans:
                out.append(text[cursor:span.start])
                # As the analysis read it: a name written with escapes (``Jo\u00e3o``) or
                # in Latin-1 bytes hashes and is issued a token as the same name written
                # plainly (a mask covers every character: it writes none of them).
                value = bytes_read(unescaped(text[span.start:span.end]))
                out.append(self._operate[span.entity](value))
                if span.entity in self._pseudonymous:
                    item = self.issue(span.entity, value)
                    if issued is not None:
                        issued.append(item)
                    if self.issued_sink is not None:
                        self.issued_sink(item)
                cursor = span.end
        except Exception as exc:
            raise EngineError(f"anonymization failed ({type(exc).__name__})") from None
        out.append(text[cursor:])
        return "".join(out)

    def _check_placeholders(self) -> None:
        """Placeholders must never be detected themselves, or redaction is not idempotent."""
        for entity in self.settings.entities:
            spec = self.settings.operator_for(entity)
            if spec.kind not in ("replace", "hash", "pseudonym"):
                continue
            # Digits only: the worst case of a digest, which a checksum could accept.
            sample = spec.render(entity, "4" * DIGEST_CHARS)
            hits = self._spans(f"valor {sample} fim", None)
            if hits:
                raise ConfigError(
                    f"the placeholder configured for {entity} is itself detected as "
                    f"{hits[0].entity}; choose a template without digits or names"
                )

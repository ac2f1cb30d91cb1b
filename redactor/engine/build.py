"""Building an engine from Settings: the Presidio analyzer with the pack's recognizers, the
NLP engine, the anonymize operators, and what the analysis needs to know of them.

Everything Presidio is imported inside the functions: importing this module stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from redactor import config
from redactor.config import OperatorSpec, Settings
from redactor.engine.spans import NO_KEYWORD
from redactor.errors import ConfigError, EngineError

if TYPE_CHECKING:
    from presidio_analyzer import AnalyzerEngine, RecognizerResult
    from presidio_anonymizer.entities import OperatorConfig

    from redactor.candidates import Scanner

LANGUAGE: Final = "pt"
#: Entity reported by a configured spaCy model's NER (people's names).
NER_ENTITY: Final = "PERSON"


def allow_key(value: str) -> str:
    """How a value is compared with the allowlist, and hashed: canonical, case-folded."""
    from recognizers.checksums import canonical

    return canonical(value).casefold()


def check_without_presidio(settings: Settings, environ: Mapping[str, str]) -> None:
    """The engine's checks of ``settings`` that need no Presidio (a ConfigError each): the
    pseudonym key of the entities written as tokens, the known-users files."""
    token_key(settings, environ)
    config.read_known_users(settings.known_users_files)


def token_key(settings: Settings, environ: Mapping[str, str]) -> bytes | None:
    """The key of the entities written as tokens (``hash``, ``pseudonym``), the user's
    key file being created on first use; None when no entity is."""
    if not config.tokenised(settings):
        return None
    from redactor.pseudonyms.keys import pseudonym_key

    found = pseudonym_key(settings, environ, create=True)
    if found is None:  # pragma: no cover - create=True always finds or makes one
        raise ConfigError("no pseudonym key could be read or created")
    return found.token_key


# ---------------------------------------------------------------------- operators


def operator_config(settings: Settings, entity: str, token_key: bytes | None) -> OperatorConfig:
    """The Presidio operator configured for ``entity``: Presidio's own for placeholders,
    masks and removal; a custom one writing the value's token for ``hash`` and
    ``pseudonym`` (``token_key`` is then required)."""
    from presidio_anonymizer.entities import OperatorConfig

    spec = settings.operator_for(entity)
    if spec.kind == "replace":
        return OperatorConfig("replace", {"new_value": spec.render(entity)})
    if spec.kind == "mask":
        return OperatorConfig("mask", {"masking_char": spec.mask_char,
                                       "chars_to_mask": 1 << 30, "from_end": False})
    if spec.kind == "redact":
        return OperatorConfig("redact", {})
    if token_key is None:
        raise EngineError(f"the {spec.kind} operator of {entity} has no key")
    return OperatorConfig("custom", {"lambda": _tokenizer(entity, spec, token_key)})


def _tokenizer(entity: str, spec: OperatorSpec, key: bytes) -> Callable[[str], str]:
    from redactor.pseudonyms.tokens import digest

    def token(value: str) -> str:
        return spec.render(entity, digest(key, entity, value))

    return token


def operator_functions(configs: Mapping[str, OperatorConfig]) -> dict[str, Callable[[str], str]]:
    """One function per entity applying its Presidio anonymize operator (validated here)."""
    from presidio_anonymizer.operators import OperatorsFactory, OperatorType

    factory = OperatorsFactory()  # type: ignore[no-untyped-call]
    functions: dict[str, Callable[[str], str]] = {}
    for entity, operator_conf in configs.items():
        operator = factory.create_operator_class(operator_conf.operator_name,
                                                 OperatorType.Anonymize)
        try:
            operator.validate(params=operator_conf.params)
        except Exception as exc:
            raise ConfigError(f"the operator for {entity} is invalid "
                              f"({type(exc).__name__})") from None

        def apply(value: str, operator: Any = operator,
                  params: Any = operator_conf.params) -> str:
            return str(operator.operate(text=value, params=params))

        functions[entity] = apply
    return functions


# ---------------------------------------------------------------------- analyzer


def nlp_engine(settings: Settings) -> Any:
    """Presidio's NLP engine: a configured spaCy model's, or the no-op one."""
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    if settings.spacy_model:
        import spacy.util

        if not (Path(settings.spacy_model).expanduser().is_dir()
                or spacy.util.is_package(settings.spacy_model)):
            # Presidio would try to download a missing model; a privacy tool must not.
            raise ConfigError(f"detection.spacy_model: {settings.spacy_model!r} is neither an "
                              "installed spaCy package nor a model folder; install it or "
                              "remove the key")
        conf = {"nlp_engine_name": "spacy",
                "models": [{"lang_code": LANGUAGE, "model_name": settings.spacy_model}]}
    else:
        conf = {"nlp_engine_name": "no_op",
                "models": [{"lang_code": LANGUAGE, "model_name": "none"}]}
    try:
        return NlpEngineProvider(nlp_configuration=conf).create_engine()
    except Exception as exc:
        raise ConfigError(f"detection.spacy_model: cannot load {settings.spacy_model!r} "
                          f"({type(exc).__name__}); install the model or remove the key") from None


def build_analyzer(settings: Settings) -> AnalyzerEngine:
    """The analyzer: the pack's recognizers of ``settings.entities`` (and a spaCy model's
    NER when one is configured), the known users read from their files."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

    import recognizers
    from recognizers.username import DEFAULT_SERVICE_ACCOUNTS, ServiceAccounts

    unknown = set(settings.entities) - set(recognizers.ENTITIES)
    if unknown:
        raise ConfigError(f"unknown entities {sorted(unknown)} in settings")
    base = DEFAULT_SERVICE_ACCOUNTS if settings.builtin_service_accounts else frozenset()
    accounts = ServiceAccounts((*base, *settings.service_accounts),
                               patterns=settings.builtin_service_accounts)
    known = [*settings.known_users, *config.read_known_users(settings.known_users_files)]
    registry = RecognizerRegistry(supported_languages=[LANGUAGE])
    recognizers.register(registry, languages=(LANGUAGE,), entities=settings.entities,
                         known_usernames=known, service_accounts=accounts)
    if settings.spacy_model:
        # A trained model brings named-entity recognition of people's names.
        from presidio_analyzer.predefined_recognizers import SpacyRecognizer

        registry.add_recognizer(SpacyRecognizer(supported_language=LANGUAGE,
                                                supported_entities=[NER_ENTITY]))
    enhancer = None
    if not settings.spacy_model:
        # Every recognizer of the pack scores its context on the raw text itself;
        # Presidio's lemma enhancer would only deep-copy the results to find no lemma.
        from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer

        class _PackScoresContext(ContextAwareEnhancer):
            def enhance_using_context(self, text: str, raw_results: list[RecognizerResult],
                                      nlp_artifacts: Any, recognizers: Any,
                                      context: list[str] | None = None
                                      ) -> list[RecognizerResult]:
                return raw_results

        enhancer = _PackScoresContext(0.0, 0.0, 0, 0)
    try:
        return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine(settings),
                              supported_languages=[LANGUAGE],
                              default_score_threshold=settings.score_threshold,
                              context_aware_enhancer=enhancer)
    except ConfigError:
        raise
    except Exception as exc:
        raise EngineError(f"cannot build the analyzer ({type(exc).__name__})") from None


# ---------------------------------------------------------------------- what analysis reads


def person_recognizer(analyzer: AnalyzerEngine) -> Any:
    """The pack's PersonRecognizer in the registry, or None (a spaCy model's alone)."""
    from recognizers.person import PersonRecognizer

    for recognizer in analyzer.registry.get_recognizers(LANGUAGE, [NER_ENTITY]):
        if isinstance(recognizer, PersonRecognizer):
            return recognizer
    return None


def direct_analysis_applies(analyzer: AnalyzerEngine, entities: list[str]) -> bool:
    """True when the engine may run Presidio's analysis steps itself (Analysis._detect).

    That holds for the pack's recognizers with the no-op NLP engine: none reads the
    NLP artifacts or the other recognizers' results, and context is scored by each
    recognizer (the engine's own enhancer is the pack's pass-through).
    """
    from presidio_analyzer import EntityRecognizer
    from presidio_analyzer.nlp_engine import NoOpNlpEngine

    from recognizers.base import RawContextMixin

    if not isinstance(analyzer.nlp_engine, NoOpNlpEngine):
        return False
    for recognizer in analyzer.registry.get_recognizers(LANGUAGE, entities):
        if not type(recognizer).__module__.startswith("recognizers."):
            return False
        own = type(recognizer).enhance_using_context
        if not (isinstance(recognizer, RawContextMixin)
                or own is EntityRecognizer.enhance_using_context
                or getattr(recognizer, "reads_labels", False)):
            return False
    return True


def bare_skippers(analyzer: AnalyzerEngine, entities: list[str],
                  threshold: float) -> tuple[Any, ...]:
    """The recognizers that may skip bare numbers nobody's keyword can lift (see
    BrPhoneRecognizer.analyze's ``bare_needs_keyword``): none at a threshold such a
    number reaches."""
    from recognizers.generic import BARE_NUMBER_SCORE, BrPhoneRecognizer

    if threshold <= BARE_NUMBER_SCORE:
        return ()
    return tuple(r for r in analyzer.registry.get_recognizers(LANGUAGE, entities=entities)
                 if isinstance(r, BrPhoneRecognizer))


def scanned_recognizers(analyzer: AnalyzerEngine, entities: list[str],
                        settings: Settings) -> list[Any]:
    """The recognizers the prefilter's scanner is built from, in a stable order; empty
    when a spaCy model is configured (its NER reads every text whole).

    A TypeError when one of them declares no ``prefilter()``: every recognizer of the
    pack must say where its findings can lie, or the prefilter would have to be off
    for every text (a recognizer added to the pack without one is a programming error,
    not a configuration the user can fix).
    """
    if settings.spacy_model:
        return []
    found = analyzer.registry.get_recognizers(LANGUAGE, entities=entities)
    missing = sorted({type(r).__name__ for r in found
                      if not callable(getattr(r, "prefilter", None))})
    if missing:
        raise TypeError(f"recognizers without prefilter(): {', '.join(missing)}; every "
                        "recognizer of the pack must declare where its findings can lie "
                        "(recognizers.prefilter.Prefilter)")

    # The registry's order varies between processes; a stable one keeps the compiled
    # database's cache key stable.
    def order(recognizer: Any) -> tuple[list[str], str]:
        return sorted(recognizer.supported_entities), str(recognizer.name)

    return sorted(found, key=order)


def build_scanner(scanned: Iterable[Any], threshold: float,
                  prefilter: bool | str) -> Scanner | None:
    """The candidate scanner of ``scanned`` (see :func:`scanned_recognizers`), or None
    when there are none or ``prefilter`` is False.

    ``prefilter`` is False (never), True (the fastest backend installed) or a backend
    name ("hyperscan", "re2", "re").
    """
    recognizers = list(scanned)
    if prefilter is False or not recognizers:
        return None
    from redactor.candidates import Scanner

    declared = [recognizer.prefilter(threshold) for recognizer in recognizers]
    return Scanner(declared, backend=None if prefilter is True else prefilter)


#: recognizers.base.CONTEXT_DISTANCE_KEY, written here: importing it would import Presidio
#: with this module, and importing it in context_distance, once per finding, cost a tenth
#: of a dense text's time (tests/unit/test_engine_build_light.py holds the two equal).
CONTEXT_DISTANCE_KEY: Final = "context_distance"


def context_distance(result: RecognizerResult) -> int:
    """Words between a result and the keyword that lifted it (NO_KEYWORD: none)."""
    metadata = result.recognition_metadata or {}
    value = metadata.get(CONTEXT_DISTANCE_KEY)
    return int(value) if isinstance(value, int) else NO_KEYWORD


def recognizer_name(result: RecognizerResult) -> str:
    metadata = result.recognition_metadata or {}
    return str(metadata.get("recognizer_name", "unknown"))

"""A Presidio recognizer pack for Brazilian personal data.

Usable in any Presidio ``AnalyzerEngine``::

    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    import recognizers

    registry = RecognizerRegistry(supported_languages=["pt", "en"])
    recognizers.register(registry)
    engine = AnalyzerEngine(registry=registry, supported_languages=["pt", "en"], ...)

Patterns use ASCII digits and separators.  redactor's engine maps fullwidth
digits, dash and space variants onto ASCII (length-preserving) before analysis;
a plain Presidio engine sees the text as it is.

The entities and their recognizers are listed in :mod:`recognizers.catalogue`.  This
package imports them (and Presidio) only when a recognizer class, ``ALL_RECOGNIZERS``,
:func:`build` or :func:`register` is first used: ``import recognizers`` and the
catalogue stay light, for the configuration on the hook path.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from recognizers.catalogue import CATALOGUE, PackOptions
from recognizers.catalogue import ENTITIES as _ENTITIES

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer, RecognizerRegistry

    from recognizers.br_bank import BrBankAccountRecognizer
    from recognizers.br_cep import BrCepRecognizer
    from recognizers.br_cnh import BrCnhRecognizer
    from recognizers.br_cnj import BrCnjRecognizer
    from recognizers.br_cnpj import BrCnpjRecognizer
    from recognizers.br_cns import BrCnsRecognizer
    from recognizers.br_cpf import BrCpfRecognizer
    from recognizers.br_endereco import BrEnderecoRecognizer
    from recognizers.br_nascimento import BrDataNascimentoRecognizer
    from recognizers.br_phone import BrPhoneNumberRecognizer
    from recognizers.br_pis import BrPisRecognizer
    from recognizers.br_pix import BrPixBrCodeRecognizer, BrPixEvpRecognizer
    from recognizers.br_placa import BrPlacaRecognizer
    from recognizers.br_renavam import BrRenavamRecognizer
    from recognizers.br_rg import BrRgRecognizer
    from recognizers.br_titulo import BrTituloEleitorRecognizer
    from recognizers.generic import (
        BrCreditCardRecognizer,
        BrEmailRecognizer,
        BrIbanRecognizer,
        BrIpRecognizer,
        BrPhoneRecognizer,
    )
    from recognizers.person import PersonRecognizer
    from recognizers.secret import SecretRecognizer
    from recognizers.username import (
        DEFAULT_SERVICE_ACCOUNTS,
        KnownUsernameRecognizer,
        ServiceAccounts,
        UsernameRecognizer,
    )

    #: Every recognizer class of the pack, with the entity it reports.
    ALL_RECOGNIZERS: dict[str, tuple[type[EntityRecognizer], ...]]

__all__ = [
    "ALL_RECOGNIZERS",
    "DEFAULT_SERVICE_ACCOUNTS",
    "ENTITIES",
    "BrBankAccountRecognizer",
    "BrCepRecognizer",
    "BrCnhRecognizer",
    "BrCnjRecognizer",
    "BrCnpjRecognizer",
    "BrCnsRecognizer",
    "BrCpfRecognizer",
    "BrCreditCardRecognizer",
    "BrDataNascimentoRecognizer",
    "BrEmailRecognizer",
    "BrEnderecoRecognizer",
    "BrIbanRecognizer",
    "BrIpRecognizer",
    "BrPhoneNumberRecognizer",
    "BrPhoneRecognizer",
    "BrPisRecognizer",
    "BrPixBrCodeRecognizer",
    "BrPixEvpRecognizer",
    "BrPlacaRecognizer",
    "BrRenavamRecognizer",
    "BrRgRecognizer",
    "BrTituloEleitorRecognizer",
    "KnownUsernameRecognizer",
    "PersonRecognizer",
    "SecretRecognizer",
    "ServiceAccounts",
    "UsernameRecognizer",
    "build",
    "register",
]

#: The entity names the pack can report, in a stable order.
ENTITIES: Final = _ENTITIES

# Names imported on first use (PEP 562): the recognizer classes of the catalogue and
# the service-account allowlist, each from its module.
_LAZY: Final[dict[str, str]] = {
    **{reference.partition(":")[2]: reference.partition(":")[0]
       for entry in CATALOGUE for reference in entry.recognizers},
    "DEFAULT_SERVICE_ACCOUNTS": "recognizers.username",
    "ServiceAccounts": "recognizers.username",
}


def __getattr__(name: str) -> Any:
    """The recognizer classes and ``ALL_RECOGNIZERS``, imported on first use."""
    import importlib

    if name == "ALL_RECOGNIZERS":
        value: Any = {entry.entity: entry.classes() for entry in CATALOGUE}
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        # Also how ``from recognizers import person`` finds a submodule not yet imported.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def build(
    languages: Sequence[str] = ("pt", "en"),
    *,
    entities: Collection[str] | None = None,
    known_usernames: Iterable[str] = (),
    service_accounts: ServiceAccounts | None = None,
) -> list[EntityRecognizer]:
    """Instantiate the pack's recognizers, one set per language.

    ``entities`` limits the pack to those entity names (default: all of ENTITIES);
    an unknown name is a ``ValueError``.  ``known_usernames`` feeds the list-based
    USERNAME recognizer; ``service_accounts`` replaces the default allowlist.
    """
    from recognizers.username import ServiceAccounts

    wanted = ENTITIES if entities is None else tuple(entities)
    unknown = sorted(set(wanted) - set(ENTITIES))
    if unknown:
        raise ValueError(f"unknown entities {unknown}; known: {list(ENTITIES)}")
    options = PackOptions(
        known_usernames=tuple(known_usernames),
        service_accounts=service_accounts if service_accounts is not None
        else ServiceAccounts())
    built: list[EntityRecognizer] = []
    for language in languages:
        for entry in CATALOGUE:
            if entry.entity in wanted:
                built.extend(entry.build(language, options))
    return built


def register(
    registry: RecognizerRegistry,
    languages: Sequence[str] = ("pt", "en"),
    *,
    entities: Collection[str] | None = None,
    known_usernames: Iterable[str] = (),
    service_accounts: ServiceAccounts | None = None,
) -> list[EntityRecognizer]:
    """Add the pack to a Presidio ``RecognizerRegistry``; returns what was added.

    The options are those of :func:`build`.
    """
    added = build(languages, entities=entities, known_usernames=known_usernames,
                  service_accounts=service_accounts)
    for recognizer in added:
        registry.add_recognizer(recognizer)
    return added

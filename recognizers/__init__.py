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
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Final

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

#: Every recognizer class of the pack, with the entity it reports.
ALL_RECOGNIZERS: Final[dict[str, tuple[type[EntityRecognizer], ...]]] = {
    "BR_CPF": (BrCpfRecognizer,),
    "BR_CNPJ": (BrCnpjRecognizer,),
    "USERNAME": (UsernameRecognizer, KnownUsernameRecognizer),
    "EMAIL_ADDRESS": (BrEmailRecognizer,),
    "PHONE_NUMBER": (BrPhoneRecognizer,),
    "CREDIT_CARD": (BrCreditCardRecognizer,),
    "IP_ADDRESS": (BrIpRecognizer,),
    "IBAN_CODE": (BrIbanRecognizer,),
    "BR_CNH": (BrCnhRecognizer,),
    "BR_PIS": (BrPisRecognizer,),
    "BR_TITULO_ELEITOR": (BrTituloEleitorRecognizer,),
    "BR_CNS": (BrCnsRecognizer,),
    "BR_RENAVAM": (BrRenavamRecognizer,),
    "BR_RG": (BrRgRecognizer,),
    "BR_CEP": (BrCepRecognizer,),
    "BR_PHONE": (BrPhoneNumberRecognizer,),
    "BR_PIX_EVP": (BrPixEvpRecognizer,),
    "BR_PIX_BRCODE": (BrPixBrCodeRecognizer,),
    "BR_PLACA": (BrPlacaRecognizer,),
    "BR_BANK_ACCOUNT": (BrBankAccountRecognizer,),
    "BR_CNJ": (BrCnjRecognizer,),
    "BR_ENDERECO": (BrEnderecoRecognizer,),
    "DATA_NASCIMENTO": (BrDataNascimentoRecognizer,),
    "PERSON": (PersonRecognizer,),
    "SECRET": (SecretRecognizer,),
}

#: The entity names the pack can report, in a stable order.
ENTITIES: Final = tuple(ALL_RECOGNIZERS)


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
    wanted = ENTITIES if entities is None else tuple(entities)
    unknown = sorted(set(wanted) - set(ENTITIES))
    if unknown:
        raise ValueError(f"unknown entities {unknown}; known: {list(ENTITIES)}")
    names = tuple(known_usernames)
    accounts = service_accounts if service_accounts is not None else ServiceAccounts()
    factories: dict[str, Callable[[str], list[EntityRecognizer]]] = {
        "BR_CPF": lambda lang: [BrCpfRecognizer(supported_language=lang)],
        "BR_CNPJ": lambda lang: [BrCnpjRecognizer(supported_language=lang)],
        "USERNAME": lambda lang: [UsernameRecognizer(supported_language=lang,
                                                     service_accounts=accounts)]
        + ([KnownUsernameRecognizer(names, supported_language=lang)] if names else []),
        "EMAIL_ADDRESS": lambda lang: [BrEmailRecognizer(supported_language=lang)],
        "PHONE_NUMBER": lambda lang: [BrPhoneRecognizer(supported_language=lang)],
        "CREDIT_CARD": lambda lang: [BrCreditCardRecognizer(supported_language=lang)],
        "IP_ADDRESS": lambda lang: [BrIpRecognizer(supported_language=lang)],
        "IBAN_CODE": lambda lang: [BrIbanRecognizer(supported_language=lang)],
    }

    def plain(classes: tuple[type[EntityRecognizer], ...]
              ) -> Callable[[str], list[EntityRecognizer]]:
        return lambda lang: [cls(supported_language=lang)  # type: ignore[call-arg]
                             for cls in classes]

    for entity, classes in ALL_RECOGNIZERS.items():
        factories.setdefault(entity, plain(classes))
    built: list[EntityRecognizer] = []
    for language in languages:
        for entity in ENTITIES:
            if entity in wanted:
                built.extend(factories[entity](language))
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

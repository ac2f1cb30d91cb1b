"""The catalogue of the pack: one entry per entity, readable without Presidio.

Each :class:`Entry` says what an entity is called, the label its placeholders carry,
which recognizer classes report it and how the hooks treat it by default.  Every
table that lists entities is derived from :data:`CATALOGUE`: ``recognizers.ENTITIES``,
``recognizers.ALL_RECOGNIZERS`` and :func:`recognizers.build`, and in
:mod:`redactor.config` ``DEFAULT_ENTITIES``, ``ENTITY_LABELS``,
``DEFAULT_INPUT_ENTITIES`` and ``DEFAULT_PROMPT_BLOCK``.

Recognizers are named as ``"module:Class"`` strings and imported only when the pack
is built: the recognizer modules import Presidio, and this module is read by the
configuration on the hook path, which must stay light (``import redactor.config``
loads no Presidio; a test checks it).

Adding an identifier
--------------------

1. Write the recognizer in a module of its own, ``recognizers/br_xyz.py``.  A
   :class:`~recognizers.base.PackPatternRecognizer` subclass sets ``ENTITY``,
   ``PATTERNS``, ``DEFAULT_CONTEXT`` and ``PREFILTER`` (its triggers: cheap superset
   patterns of where a finding can be, see :mod:`recognizers.prefilter`); any other
   recognizer defines ``prefilter(threshold)`` returning a
   :class:`~recognizers.prefilter.Prefilter` for its entity.  The engine's prefilter
   needs the triggers of every recognizer, and the catalogue's test refuses one
   without them.
2. Add one :class:`Entry` to :data:`CATALOGUE` below, where the entity should stand
   in the order (the order is that of ``recognizers.ENTITIES`` and of the default
   settings).  Give the label its placeholder shows (``[XYZ]``) and say whether the
   hooks redact it in tool input and whether it makes a prompt bounce.
3. Write its tests: synthetic values only (generated from the check-digit algorithm
   or documented examples).  ``tests/integration/test_catalogue.py`` already checks
   that the entry is built, that its recognizers report its entity and that they
   declare triggers.

Nothing else lists entities: the configuration, the placeholders and the pack's
``build()`` and ``register()`` read this catalogue.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer

    from recognizers.username import ServiceAccounts

__all__ = [
    "CATALOGUE",
    "ENTITIES",
    "Entry",
    "PackOptions",
    "entry",
    "load",
]


@dataclass(frozen=True, slots=True)
class PackOptions:
    """What :func:`recognizers.build` passes to an entry's factory besides the language."""

    known_usernames: tuple[str, ...]
    service_accounts: ServiceAccounts


#: An entry's factory: the recognizers of one language, given the pack's options.
Factory = Callable[[str, PackOptions], "list[EntityRecognizer]"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entity of the pack and its defaults.

    ``recognizers``: the classes reporting it, as ``"module:Class"``.  Each is built
    with ``cls(supported_language=language)`` unless ``factory`` (``"module:function"``,
    a :data:`Factory`) builds them with the pack's options instead.

    ``on_by_default``: detected unless the configuration leaves it out.
    ``in_tool_input``: the hooks redact it in a tool's input (a command, a file being
    written) too, not only in tool output; free text (names, addresses) and secrets are
    left alone there, where rewriting them breaks the user's work.
    ``blocks_prompt``: a prompt holding it bounces instead of going on redacted.
    """

    entity: str
    label: str
    recognizers: tuple[str, ...]
    on_by_default: bool = True
    in_tool_input: bool = True
    blocks_prompt: bool = False
    factory: str | None = None

    def build(self, language: str, options: PackOptions) -> list[EntityRecognizer]:
        """This entity's recognizers for one language (imports their modules)."""
        if self.factory is not None:
            factory: Factory = load(self.factory)
            return factory(language, options)
        return [load(reference)(supported_language=language) for reference in self.recognizers]

    def classes(self) -> tuple[type[EntityRecognizer], ...]:
        """The recognizer classes (imports their modules)."""
        return tuple(load(reference) for reference in self.recognizers)


def load(reference: str) -> Any:
    """The object a ``"module:name"`` reference names, importing its module."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


#: Every entity of the pack, in the stable order of ``recognizers.ENTITIES``.
CATALOGUE: Final[tuple[Entry, ...]] = (
    Entry("BR_CPF", "CPF", ("recognizers.br_cpf:BrCpfRecognizer",), blocks_prompt=True),
    Entry("BR_CNPJ", "CNPJ", ("recognizers.br_cnpj:BrCnpjRecognizer",), blocks_prompt=True),
    Entry("USERNAME", "USERNAME", ("recognizers.username:UsernameRecognizer",
                                   "recognizers.username:KnownUsernameRecognizer"),
          factory="recognizers.username:pack_recognizers"),
    Entry("EMAIL_ADDRESS", "EMAIL", ("recognizers.generic:BrEmailRecognizer",)),
    Entry("PHONE_NUMBER", "PHONE", ("recognizers.generic:BrPhoneRecognizer",)),
    Entry("CREDIT_CARD", "CREDIT_CARD", ("recognizers.generic:BrCreditCardRecognizer",),
          blocks_prompt=True),
    Entry("IP_ADDRESS", "IP", ("recognizers.generic:BrIpRecognizer",)),
    Entry("IBAN_CODE", "IBAN", ("recognizers.generic:BrIbanRecognizer",), blocks_prompt=True),
    Entry("BR_CNH", "CNH", ("recognizers.br_cnh:BrCnhRecognizer",)),
    Entry("BR_PIS", "PIS", ("recognizers.br_pis:BrPisRecognizer",)),
    Entry("BR_TITULO_ELEITOR", "TITULO_ELEITOR",
          ("recognizers.br_titulo:BrTituloEleitorRecognizer",)),
    Entry("BR_CNS", "CNS", ("recognizers.br_cns:BrCnsRecognizer",)),
    Entry("BR_RENAVAM", "RENAVAM", ("recognizers.br_renavam:BrRenavamRecognizer",)),
    Entry("BR_RG", "RG", ("recognizers.br_rg:BrRgRecognizer",)),
    Entry("BR_CEP", "CEP", ("recognizers.br_cep:BrCepRecognizer",)),
    Entry("BR_PHONE", "PHONE", ("recognizers.br_phone:BrPhoneNumberRecognizer",)),
    Entry("BR_PIX_EVP", "PIX", ("recognizers.br_pix:BrPixEvpRecognizer",)),
    Entry("BR_PIX_BRCODE", "PIX_BRCODE", ("recognizers.br_pix:BrPixBrCodeRecognizer",)),
    Entry("BR_PLACA", "PLACA", ("recognizers.br_placa:BrPlacaRecognizer",)),
    Entry("BR_BANK_ACCOUNT", "CONTA_BANCARIA", ("recognizers.br_bank:BrBankAccountRecognizer",)),
    Entry("BR_CNJ", "PROCESSO", ("recognizers.br_cnj:BrCnjRecognizer",)),
    Entry("BR_ENDERECO", "ENDERECO", ("recognizers.br_endereco:BrEnderecoRecognizer",),
          in_tool_input=False),
    Entry("DATA_NASCIMENTO", "DATA_NASCIMENTO",
          ("recognizers.br_nascimento:BrDataNascimentoRecognizer",), in_tool_input=False),
    Entry("PERSON", "NOME", ("recognizers.person:PersonRecognizer",), in_tool_input=False),
    Entry("SECRET", "SECRET", ("recognizers.secret:SecretRecognizer",), in_tool_input=False),
)

#: The entity names, in catalogue order.
ENTITIES: Final = tuple(item.entity for item in CATALOGUE)

_BY_ENTITY: Final[Mapping[str, Entry]] = {item.entity: item for item in CATALOGUE}


def entry(entity: str) -> Entry:
    """The catalogue entry of an entity (KeyError for an unknown one)."""
    return _BY_ENTITY[entity]

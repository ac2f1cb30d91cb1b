"""BR_ENDERECO: a street address — street type, name, number and complement.

``Rua das Flores, 10``, ``Av. Paulista, 1578 - conj. 42``, ``RUA AUGUSTA 1500 APTO 32``,
``Rodovia Anhanguera, km 23``.  The street type is one of the usual words or
abbreviations (any case); the name is one to eight words that start with a capital
letter or a digit, with the particles ``da``, ``de``, ``do``, ``das``, ``dos`` and ``e``
between them; then the number (or ``s/n``, or ``km`` and a number), optionally after
``nº``, and the complements that follow (``apto 32``, ``bloco B``, ``casa 2``...).  The
city, the state and the CEP are left as they are (the CEP is its own entity).  A street
word followed by ordinary words (``a rua estava alagada em 2020``) is no address: the
name must be capitalised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from presidio_analyzer import Pattern

from recognizers.base import PackPatternRecognizer

if TYPE_CHECKING:
    from recognizers.prefilter import Prefilter

__all__ = ["BrEnderecoRecognizer"]

#: Street types, full words and their usual abbreviations (the abbreviations need
#: their dot, except ``Av``).
_TYPES: Final = (
    r"(?i:rua|avenida|av\.?|travessa|trav\.|tv\.|alameda|al\.|rodovia|rod\.|estrada|estr\.|"
    r"pra[çc]a|p[çc]a\.|largo|lgo\.|ladeira|viela|beco|servid[ãa]o)|R\."
)
_UPPER: Final = "A-ZÀ-ÖØ-Þ"
#: A word of the street's name: capitalised (not a complement or CEP keyword), or a
#: number followed by a particle ("25 de Março").
_WORD: Final = (rf"(?!(?i:cep|apto?|bloco|casa|sala|km|n[º°o])(?![\w]))"
                rf"(?:[{_UPPER}][\w'’.-]{{0,29}}|[0-9]{{1,4}}(?:º|ª)?(?=[ ]{{1,3}}d[aeo]s?[ ]))")
_PARTICLE: Final = r"(?i:d[aeo]s?|e)"
_NAME: Final = rf"{_WORD}(?:[ ]{{1,3}}(?:{_PARTICLE}[ ]{{1,3}})?{_WORD}){{0,7}}"
_NUMBER: Final = (r"(?:(?i:n[º°o.]?|n[úu]mero)[ ]{0,3})?(?:(?:[0-9]{1,3}\.[0-9]{3}|[0-9]{1,5})"
                  r"(?:-[0-9]{1,5}|-?[A-Za-z](?![A-Za-z]))?(?![0-9A-Za-z]|-[0-9])|"
                  r"(?i:s/?n(?![A-Za-z]))|(?i:km)[ ]{0,3}[0-9]{1,4}(?:[.,][0-9]{1,3})?)")
_COMPLEMENT: Final = (r"(?:[ ]{0,3}[,-]?[ ]{0,3}(?i:apto?|apartamento|ap|bloco|bl|casa|sala|"
                      r"cj|conj|conjunto|andar|lote|lt|quadra|qd|loja|fundos)\.?[ ]{0,3}"
                      r"(?:n[º°o.]?[ ]{0,3})?[0-9A-Za-z]{1,5}(?![\w]))")
_ADDRESS: Final = (rf"(?<![\w])(?:{_TYPES})[ \t]{{1,3}}(?:{_PARTICLE}[ ]{{1,3}})?{_NAME}"
                   rf"[ ]{{0,3}},?[ ]{{0,3}}"
                   rf"{_NUMBER}{_COMPLEMENT}{{0,5}}")

#: An address's score without a keyword.
SCORE: Final = 0.6

#: The street types in the prefilter's syntax, with what must follow them.
_TRIGGER: Final = (r"(?:^|[^A-Za-z0-9])(?:(?i:rua|avenida|av|travessa|trav|tv|alameda|al|"
                   r"rodovia|rod|estrada|estr|pra[çc]a|p[çc]a|largo|lgo|ladeira|viela|beco|"
                   r"servid[ãa]o)|R)\.?[ \t]")


class BrEnderecoRecognizer(PackPatternRecognizer):
    """Street addresses by their shape: type word, capitalised name, number."""

    ENTITY = "BR_ENDERECO"
    PATTERNS = (Pattern("street address", _ADDRESS, SCORE),)
    PREFILTER = ((_TRIGGER, SCORE),)
    MAX_LENGTH = 480  # 8 words of up to 30 letters, the number, 5 complements
    DEFAULT_CONTEXT = ("endereco", "residente", "domiciliado", "domiciliada", "logradouro",
                       "mora", "moradora", "morador", "address", "entrega")

    def prefilter(self, threshold: float) -> Prefilter:
        """The street words; the context words only when an address needs their lift.

        ``address`` and ``entrega`` are frequent in machine logs, and an address
        already scores above the default threshold without them.
        """
        from recognizers.prefilter import Prefilter, Trigger

        if threshold <= SCORE:
            return Prefilter(self.ENTITY, (Trigger(_TRIGGER, before=self.MAX_LENGTH,
                                                   after=self.MAX_LENGTH, name="street"),))
        return super().prefilter(threshold)

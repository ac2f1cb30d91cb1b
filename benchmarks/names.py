"""Names benchmark: recall of people's names and intactness of name look-alikes.

Seeded, synthetic Portuguese documents (chat prompts, support tickets, CSV rows, JSON
payloads, SAP and bank lines, e-mail and git headers, titled names and prose) in which
people's names are planted next to words that look like names and are not: cities and
states, companies and public bodies, products, months, weekdays, holidays, greetings,
capitalised sentence openers and surnames used as ordinary lower-case words.

Names are composed at random from the project's vendored lists
(:func:`recognizers.names.given_names`, ``recognizers/data/surnames_hand.txt``) and
written in Title Case with accents, without accents, or in capitals.  Every person in
the corpus is generated; none is real.

* **name recall**: the fraction of planted names every word of which lies inside some
  finding (of any entity): what a reader of the redacted text could not recover.
* **look-alikes intact**: the fraction of planted look-alikes that no finding touches.

    python benchmarks/names.py [--seed 7] [--docs 400] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recognizers.names import fold_name, given_names, places

if TYPE_CHECKING:
    from redactor.engine import Redactor

#: Targets of the integration test (tests/integration/test_names_benchmark.py).
RECALL_TARGET = 0.95
INTACT_TARGET = 0.95

#: How many of the most frequent given names the generator draws from.
TOP_GIVEN = 2000
#: Example misses and false hits kept per category (texts only when verbose).
EXAMPLES = 4

SURNAMES_HAND = Path(__file__).resolve().parent.parent / "recognizers" / "data" / \
    "surnames_hand.txt"

#: Common accented spellings of folded given names.
ACCENTED: dict[str, str] = {
    "JOAO": "João", "JOSE": "José", "ANTONIO": "Antônio", "ANTONIA": "Antônia",
    "MARCIA": "Márcia", "LUIS": "Luís", "SEBASTIAO": "Sebastião", "CONCEICAO": "Conceição",
    "FABIO": "Fábio", "FABIA": "Fábia", "LUCIA": "Lúcia", "PATRICIA": "Patrícia",
    "CLAUDIA": "Cláudia", "CLAUDIO": "Cláudio", "VITORIA": "Vitória", "FLAVIO": "Flávio",
    "FLAVIA": "Flávia", "MONICA": "Mônica", "INES": "Inês", "ANDRE": "André",
    "MARCIO": "Márcio", "SERGIO": "Sérgio", "ROGERIO": "Rogério", "VINICIUS": "Vinícius",
    "CESAR": "César", "JULIA": "Júlia", "JULIO": "Júlio", "LETICIA": "Letícia",
    "TANIA": "Tânia", "SONIA": "Sônia", "VANIA": "Vânia", "FATIMA": "Fátima",
    "ANGELA": "Ângela", "ROSANGELA": "Rosângela", "DEBORA": "Débora", "BARBARA": "Bárbara",
    "CECILIA": "Cecília", "NATALIA": "Natália", "OTAVIO": "Otávio", "VALERIA": "Valéria",
    "HELIO": "Hélio", "CICERO": "Cícero", "LIVIA": "Lívia", "ALVARO": "Álvaro",
    "JOAQUIM": "Joaquim", "GLORIA": "Glória", "SIMAO": "Simão", "ESTEVAO": "Estevão",
}
PARTICLES = ("da", "de", "do", "dos", "das")
SUFFIXES = ("Filho", "Júnior", "Neto", "Sobrinho")

#: Well-known places (all in ``recognizers.names.places()``; checked on first use).
KNOWN_PLACES = (
    "São Paulo", "Rio de Janeiro", "Belo Horizonte", "Porto Alegre", "São José dos Campos",
    "Santa Catarina", "Rio Grande do Sul", "Rio Grande do Norte", "Mato Grosso do Sul",
    "Mato Grosso", "Espírito Santo", "Minas Gerais", "Campo Grande", "Juiz de Fora",
    "Ribeirão Preto", "Foz do Iguaçu", "São Luís", "João Pessoa", "Feira de Santana",
    "Campina Grande", "Vitória da Conquista", "Santo André", "São Bernardo do Campo",
    "Duque de Caxias", "Nova Iguaçu", "Aparecida de Goiânia", "Cabo Frio", "Angra dos Reis",
    "Distrito Federal", "São Gonçalo", "Volta Redonda", "Praia Grande", "Mogi das Cruzes",
    "Caxias do Sul", "Ponta Grossa", "Governador Valadares", "Presidente Prudente",
    "Montes Claros", "Porto Velho", "Boa Vista", "Rio Branco", "São Carlos", "Santa Maria",
    "Sete Lagoas", "Nova Friburgo", "Lauro de Freitas", "Bento Gonçalves", "São Vicente",
    "Curitiba", "Campinas", "Florianópolis", "Fortaleza", "Recife", "Manaus", "Goiânia",
    "Belém", "Londrina", "Joinville", "Sorocaba", "Salvador", "Teresina", "Maceió",
    "Aracaju", "Cuiabá", "Niterói", "Bahia", "Pernambuco", "Paraná", "Goiás", "Ceará",
)
ORGS = (
    "Magazine Luiza", "Banco do Brasil", "Receita Federal", "Caixa Econômica Federal",
    "Petrobras", "Correios", "Tribunal de Justiça", "Polícia Federal",
    "Prefeitura de Campinas", "Supremo Tribunal Federal", "Ministério da Saúde",
    "Mercado Livre", "Casas Bahia", "Lojas Renner", "Itaú Unibanco", "Bradesco",
)
#: The article of each organisation (the others take "a").
ORG_ARTICLES = {"Banco do Brasil": "o", "Correios": "os", "Tribunal de Justiça": "o",
                "Supremo Tribunal Federal": "o", "Ministério da Saúde": "o",
                "Mercado Livre": "o", "Casas Bahia": "as", "Lojas Renner": "as",
                "Itaú Unibanco": "o", "Bradesco": "o"}
PRODUCTS = ("Microsoft Teams", "Google Chrome", "Visual Studio Code", "SAP GUI",
            "Microsoft Excel", "Google Meet", "Power BI")
MONTHS = ("Janeiro", "Fevereiro", "Março", "Abril", "Maio", "Junho", "Julho", "Agosto",
          "Setembro", "Outubro", "Novembro", "Dezembro")
WEEKDAYS = ("Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira",
            "Segunda", "Terça", "Quarta", "Quinta", "Sexta", "Sábado", "Domingo")
HOLIDAYS = ("Natal", "Carnaval", "Páscoa", "Dia das Mães", "Dia dos Pais", "Ano Novo",
            "Finados", "Corpus Christi")
GREETINGS = ("Bom dia", "Boa tarde", "Boa noite", "Obrigado", "Obrigada", "Abraços",
             "Atenciosamente")
OPENERS = ("Hoje", "Ontem", "Amanhã", "Segundo o relatório", "Conforme", "Conforme combinado",
           "Infelizmente", "Depois", "Além disso", "Enquanto isso")
#: Surnames used as ordinary words, lower case, with the sentences that hold them.
LOWER_WORDS = (
    ("Fomos de carro pela ", "costa", " até o fim da tarde."),
    ("O barco bateu na ", "rocha", " perto do cais."),
    ("Ela pintou a parede de verde-", "lima", " no fim de semana."),
    ("Subimos a ", "serra", " de bicicleta."),
    ("O navio atracou no ", "porto", " às seis."),
    ("Plantamos uma ", "rosa", " no jardim."),
    ("Faltou ", "luz", " no prédio inteiro."),
    ("O ", "leão", " do zoológico dormiu o dia todo."),
    ("A ", "guerra", " de preços derrubou a margem."),
    ("Comprei uma mesa de ", "madeira", " maciça."),
)


def _title(word: str) -> str:
    return "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))


@cache
def _surnames() -> tuple[str, ...]:
    """The hand-written surnames, as written (accents kept), without duplicates."""
    seen: dict[str, None] = {}
    for line in SURNAMES_HAND.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        for word in line.split():
            seen.setdefault(word, None)
    return tuple(seen)


@cache
def _given() -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The TOP_GIVEN most frequent given names (folded) and their weights (sqrt of count)."""
    top = sorted(given_names().items(), key=lambda item: (-item[1], item[0]))[:TOP_GIVEN]
    return tuple(name for name, _ in top), tuple(count ** 0.5 for _, count in top)


@cache
def _places() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Well-known places, and the other multi-word places of ``places()``."""
    every = set(places())
    missing = [p for p in KNOWN_PLACES if p not in every]
    if missing:
        raise ValueError(f"not in recognizers.names.places(): {missing}")
    known = set(KNOWN_PLACES)
    others = tuple(p for p in places() if " " in p and p not in known)
    return KNOWN_PLACES, others


def lookalike_vocabulary() -> frozenset[str]:
    """Every look-alike the generator may plant, folded (for checking planted spans)."""
    words: set[str] = {*KNOWN_PLACES, *_places()[1], *ORGS, *PRODUCTS, *MONTHS, *WEEKDAYS,
                       *HOLIDAYS, *GREETINGS, *OPENERS}
    words.update(w for _, w, _ in LOWER_WORDS)
    return frozenset(fold_name(w) for w in words)


# ---------------------------------------------------------------- documents


@dataclass
class NameDoc:
    """A document with the spans of the planted names and look-alikes."""

    kind: str
    text: str = ""
    names: list[tuple[int, int]] = field(default_factory=list)
    lookalikes: list[tuple[int, int]] = field(default_factory=list)
    #: The category of each look-alike (parallel to ``lookalikes``).
    categories: list[str] = field(default_factory=list)

    def add(self, text: str) -> NameDoc:
        self.text += text
        return self

    def name(self, value: str) -> NameDoc:
        self.names.append((len(self.text), len(self.text) + len(value)))
        self.text += value
        return self

    def look(self, value: str, category: str) -> NameDoc:
        self.lookalikes.append((len(self.text), len(self.text) + len(value)))
        self.categories.append(category)
        self.text += value
        return self

    def json_line(self, fields: dict[str, str | NameDoc]) -> NameDoc:
        """Append ``json.dumps(fields, ensure_ascii=False)``; the spans planted in the
        NameDoc values are carried over to where their strings land."""
        plain = {k: (v.text if isinstance(v, NameDoc) else v) for k, v in fields.items()}
        encoded = json.dumps(plain, ensure_ascii=False)
        base = len(self.text)
        cursor = 0
        for key, value in fields.items():
            if not isinstance(value, NameDoc):
                continue
            literal = json.dumps(value.text, ensure_ascii=False)
            if literal != f'"{value.text}"':
                raise ValueError(f"value needs escaping: {value.text!r}")
            member = json.dumps(key, ensure_ascii=False) + ": " + literal
            at = encoded.index(member, cursor)
            offset = base + at + len(member) - len(literal) + 1
            self.names.extend((offset + s, offset + e) for s, e in value.names)
            self.lookalikes.extend((offset + s, offset + e) for s, e in value.lookalikes)
            self.categories.extend(value.categories)
            cursor = at + len(member)
        self.text += encoded
        return self


class _Generator:
    """Seeded composer of names, look-alikes and documents."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.given, self.weights = _given()
        self.surnames = _surnames()
        self.known_places, self.other_places = _places()
        self.known_folded = frozenset(fold_name(p) for p in self.known_places)

    # -- names

    def given_name(self, style: str) -> str:
        key = self.rng.choices(self.given, self.weights)[0]
        return self._render(ACCENTED.get(key, _title(key)), style)

    def surname(self, style: str) -> str:
        return self._render(self.rng.choice(self.surnames), style)

    @staticmethod
    def _render(word: str, style: str) -> str:
        if style == "plain":
            return _title(fold_name(word))
        if style == "caps":
            return word.upper()
        if style == "plain_caps":
            return fold_name(word)
        return word

    def style(self, caps: bool = False) -> str:
        if caps:
            return "plain_caps" if self.rng.random() < 0.8 else "caps"
        return self.rng.choices(("accents", "plain", "caps", "plain_caps"),
                                (0.65, 0.2, 0.05, 0.1))[0]

    def full_name(self, style: str | None = None, caps: bool = False) -> str:
        """2 to 4 words (given names and surnames), sometimes a particle or a suffix."""
        style = style or self.style(caps)
        upper = style in ("caps", "plain_caps")
        words = self.rng.choices((2, 3, 4), (0.45, 0.4, 0.15))[0]
        given_count = 1 if words == 2 or self.rng.random() < 0.6 else 2
        parts = [self.given_name(style) for _ in range(given_count)]
        surname_count = words - given_count
        suffix = None
        if surname_count >= 2 and self.rng.random() < 0.15:
            surname_count -= 1
            suffix = self._render(self.rng.choice(SUFFIXES), style)
        for _ in range(surname_count):
            surname = self.surname(style)
            if self.rng.random() < 0.3:
                plural = surname.lower().endswith("s") and self.rng.random() < 0.5
                particle = self.rng.choice(PARTICLES[3:] if plural else PARTICLES[:3])
                parts.append(particle.upper() if upper else particle)
            parts.append(surname)
        if suffix:
            parts.append(suffix)
        return " ".join(parts)

    # -- look-alikes

    def place(self, upper: bool = False) -> str:
        pool = self.known_places if self.rng.random() < 0.8 else self.other_places
        value = self.rng.choice(pool)
        return fold_name(value) if upper else value

    def place_category(self, value: str) -> str:
        return "place" if fold_name(value) in self.known_folded else "place_other"

    def plant_place(self, doc: NameDoc, upper: bool = False) -> NameDoc:
        value = self.place(upper)
        return doc.look(value, self.place_category(value))

    def plant_holiday(self, doc: NameDoc, before: str) -> NameDoc:
        """`` antes do Natal``, `` depois da Páscoa``, `` antes de Finados``."""
        value = self.pick(HOLIDAYS)
        contraction = {"Páscoa": "da", "Finados": "de", "Corpus Christi": "de"}.get(value, "do")
        return doc.add(f"{before} {contraction} ").look(value, "holiday")

    def plant_org(self, doc: NameDoc, before: str = "") -> NameDoc:
        """An organisation after its article: ``a Receita Federal``, with ``before="de"``
        ``do Banco do Brasil``, with ``before="com"`` ``com os Correios``."""
        value = self.pick(ORGS)
        article = ORG_ARTICLES.get(value, "a")
        if before == "de":
            lead = "d" + article
        elif before == "A":
            lead = article.capitalize()
        else:
            lead = f"{before} {article}".strip()
        return doc.add(lead + " ").look(value, "org")

    def plant_weekday(self, doc: NameDoc) -> NameDoc:
        """``na Sexta``, ``no Sábado``."""
        value = self.pick(WEEKDAYS)
        return doc.add("no " if value in ("Sábado", "Domingo") else "na ").look(value, "weekday")

    def pick(self, values: Sequence[str]) -> str:
        return self.rng.choice(values)

    def digits(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789") for _ in range(n))

    def cpf_like(self) -> str:
        if self.rng.random() < 0.5:
            return "000.000.000-00"
        d = self.digits(11)
        return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"

    def user(self, name: str) -> str:
        words = [fold_name(w).lower() for w in name.split() if w.lower() not in PARTICLES]
        return f"{words[0]}.{words[-1]}" if len(words) > 1 else words[0]

    # -- kinds

    def chat(self) -> NameDoc:
        d = NameDoc("chat")
        lines = self.rng.sample(range(8), self.rng.randint(2, 4))
        for n in lines:
            if n == 0:
                d.add("Meu nome é ").name(self.full_name()).add(" e moro em ")
                self.plant_place(d).add(".")
            elif n == 1:
                d.add("Preciso falar com a ").name(self.full_name()).add(" sobre o boleto ")
                self.plant_org(d, "de").add(".")
            elif n == 2:
                d.add("Oi, aqui é o ").name(self.full_name()).add(". ")
                d.look(self.pick(OPENERS), "opener").add(" o ").look(
                    self.pick(PRODUCTS), "product").add(" travou de novo.")
            elif n == 3:
                d.look(self.pick(GREETINGS[:3]), "greeting").add("! Pode encaminhar para ")
                d.name(self.full_name()).add("? Volta ")
                self.plant_weekday(d).add(".")
            elif n == 4:
                d.add("Quem assina o contrato é ").name(self.full_name()).add(
                    ", da filial de ")
                self.plant_place(d).add(".")
            elif n == 5:
                d.add("Encaminhei o e-mail para ").name(self.full_name()).add(" e para ")
                d.name(self.full_name())
                self.plant_holiday(d, " antes").add(".")
            elif n == 6:
                before, word, after = self.rng.choice(LOWER_WORDS)
                d.add(before).look(word, "lower_word").add(after)
            else:
                d.look(self.pick(MONTHS), "month").add(" foi corrido: a ").name(
                    self.full_name()).add(" cobriu as férias do time.")
            d.add("\n")
        return d

    def ticket(self) -> NameDoc:
        d = NameDoc("ticket")
        d.add(f"Chamado #{self.digits(6)} - ").look(self.pick(PRODUCTS), "product").add(
            " não abre\n")
        d.add(self.pick(("Cliente: ", "Solicitante: "))).name(self.full_name()).add("\n")
        d.add("Cidade: ")
        self.plant_place(d).add("\n")
        d.add("Atendente ")
        if self.rng.random() < 0.5:
            d.name(self.given_name(self.style())).add("\n")
        else:
            d.name(self.full_name()).add("\n")
        d.add("Descrição: ").look(self.pick(OPENERS), "opener").add(
            ", a usuária relata erro no ").look(self.pick(PRODUCTS), "product").add(
            " desde ").look(self.pick(WEEKDAYS), "weekday").add(".\n")
        if self.rng.random() < 0.5:
            self.plant_holiday(d.add("Obs.: reagendado para"), " depois").add("; pendência ")
            self.plant_org(d, "com").add(".\n")
        return d

    def csv(self) -> NameDoc:
        d = NameDoc("csv")
        layout = self.rng.randrange(3)
        d.add(("nome;cpf;cidade", "nome;cidade", "name,email,city")[layout] + "\n")
        for _ in range(self.rng.randint(2, 4)):
            name = self.full_name()
            d.name(name)
            if layout == 0:
                d.add(f";{self.cpf_like()};")
            elif layout == 1:
                d.add(";")
            else:
                d.add(f",{self.user(name)}@example.com,")
            self.plant_place(d).add("\n")
        return d

    def json(self) -> NameDoc:
        d = NameDoc("json")
        for _ in range(self.rng.randint(1, 3)):
            shape = self.rng.randrange(3)
            if shape == 0:
                city = NameDoc("")
                self.plant_place(city)
                d.json_line({"nome": NameDoc("").name(self.full_name()), "cidade": city})
            elif shape == 1:
                obs = NameDoc("").look(self.pick(OPENERS), "opener").add(
                    " ligou pedindo segunda via; mora em ")
                self.plant_place(obs)
                d.json_line({"cliente": NameDoc("").name(self.full_name()), "obs": obs})
            else:
                d.json_line({"id": self.digits(5),
                             "solicitante": NameDoc("").name(self.full_name()),
                             "empresa": NameDoc("").look(self.pick(ORGS), "org"),
                             "mes": NameDoc("").look(self.pick(MONTHS), "month")})
            d.add("\n")
        return d

    def sap(self) -> NameDoc:
        d = NameDoc("sap")
        for _ in range(self.rng.randint(2, 4)):
            shape = self.rng.randrange(4)
            d.add(f"2026{self.rng.randint(1, 12):02d}{self.rng.randint(1, 28):02d} ")
            if shape == 0:
                d.add(f"XD02 KUNNR={self.digits(10)} NAME1=").name(
                    self.full_name(caps=True)).add(" KNA1 changed")
            elif shape == 1:
                d.add("FAVORECIDO: ").name(self.full_name(caps=True)).add(
                    f"  VALOR: {self.rng.randint(1, 9)}.{self.digits(3)},{self.digits(2)}")
            elif shape == 2:
                d.add(f"XD02 KUNNR={self.digits(10)} ORT01=")
                self.plant_place(d, upper=True).add(f" REGIO={self.pick(('SP', 'MG', 'RJ'))}")
            else:
                d.add("F110 PAGTO FORNECEDOR ").look(fold_name(self.pick(ORGS)), "org").add(
                    f" DOC {self.digits(10)}")
            d.add("\n")
        return d

    def bank(self) -> NameDoc:
        d = NameDoc("bank")
        for _ in range(self.rng.randint(2, 4)):
            shape = self.rng.randrange(5)
            d.add(f"{self.rng.randint(1, 28):02d}/{self.rng.randint(1, 12):02d} ")
            value = f"{self.rng.randint(10, 9999)},{self.digits(2)}"
            if shape == 0:
                d.add("TED ENVIADA FAVORECIDO ").name(self.full_name(caps=True)).add(
                    f" AG {self.digits(4)} CC {self.digits(5)}-{self.digits(1)} {value}")
            elif shape == 1:
                d.add("PIX RECEBIDO ").name(self.full_name(caps=True)).add(f" {value}")
            elif shape == 2:
                d.add("PIX ENVIADO - ").name(self.full_name(caps=True)).add(f" -{value}")
            elif shape == 3:
                d.add("PAGTO BOLETO ").look(fold_name(self.pick(ORGS)), "org").add(
                    f" -{value}")
            else:
                d.add("COMPRA CARTAO ").look(fold_name(self.pick(ORGS[:4])), "org").add(" ")
                self.plant_place(d, upper=True).add(f" -{value}")
            d.add("\n")
        return d

    def email(self) -> NameDoc:
        d = NameDoc("email")
        sender = self.full_name()
        to = self.full_name()
        d.add("De: ").name(sender).add(f" <{self.user(sender)}@example.com>\n")
        d.add("Para: ").name(to).add(f" <{self.user(to)}@example.com>\n")
        d.add("Assunto: Reunião de ").look(self.pick(MONTHS), "month").add(" em ")
        self.plant_place(d).add("\n\n")
        d.add("Olá, ").name(self.given_name("accents")).add(",\n")
        self.plant_org(d.look(self.pick(OPENERS), "opener").add(" ")).add(
            " confirmou a visita.\n")
        d.look(self.pick(GREETINGS[3:]), "greeting").add(",\n")
        return d

    def git(self) -> NameDoc:
        d = NameDoc("git")
        author = self.full_name(style=self.rng.choice(("accents", "plain")))
        d.add(f"commit {''.join(self.rng.choice('0123456789abcdef') for _ in range(40))}\n")
        d.add("Author: ").name(author).add(f" <{self.user(author)}@example.org>\n")
        d.add(f"Date:   Mon Mar {self.rng.randint(1, 28)} 10:00:00 2026 -0300\n\n")
        d.add("    Corrige integração com o ").look(self.pick(PRODUCTS), "product").add("\n")
        if self.rng.random() < 0.5:
            co = self.full_name(style="accents")
            d.add("\n    Co-authored-by: ").name(co).add(f" <{self.user(co)}@example.org>\n")
        return d

    def titled(self) -> NameDoc:
        d = NameDoc("title")
        for _ in range(self.rng.randint(2, 3)):
            shape = self.rng.randrange(4)
            if shape == 0:
                d.add(self.pick(("Consulta com a Dra. ", "Consulta com o Dr. "))).name(
                    self.full_name()).add(" ")
                self.plant_weekday(d).add(", na unidade de ")
                self.plant_place(d).add(".")
            elif shape == 1:
                d.add(self.pick(("O Sr. ", "A Sra. "))).name(self.given_name(self.style())).add(
                    " ligou ")
                self.plant_org(d, "de").add(".")
            elif shape == 2:
                d.look(self.pick(OPENERS), "opener").add(" o Prof. ").name(
                    self.full_name()).add(" adiou a banca para")
                self.plant_holiday(d, " depois").add(".")
            else:
                d.add("Encaminhar ao Dr. ").name(self.surname(self.style())).add(" o parecer ")
                self.plant_org(d, "de").add(".")
            d.add("\n")
        return d

    def prose(self) -> NameDoc:
        """Look-alikes only: no person in the text."""
        d = NameDoc("prose")
        for _ in range(self.rng.randint(3, 5)):
            shape = self.rng.randrange(6)
            if shape == 0:
                d.look(self.pick(GREETINGS[:3]), "greeting").add("! ").look(
                    self.pick(OPENERS), "opener").add(" ")
                self.plant_org(d).add(" abriu uma agência em ")
                self.plant_place(d).add(".")
            elif shape == 1:
                self.plant_weekday(d.add("Foi ")).add(",")
                self.plant_holiday(d, " depois").add(" migramos o ").look(
                    self.pick(PRODUCTS), "product").add(".")
            elif shape == 2:
                d.look(self.pick(MONTHS), "month").add(" fecha o trimestre; ")
                self.plant_org(d).add(" pediu os dados de ")
                self.plant_place(d).add(" e de ")
                self.plant_place(d).add(".")
            elif shape == 3:
                before, word, after = self.rng.choice(LOWER_WORDS)
                d.add(before).look(word, "lower_word").add(after)
            elif shape == 4:
                first, second = self.rng.sample(PRODUCTS, 2)
                d.look(self.pick(OPENERS), "opener").add(", o ").look(first, "product").add(
                    " e o ").look(second, "product").add(" ficaram fora do ar em ")
                self.plant_place(d).add(".")
            else:
                self.plant_org(self.plant_org(d, "A").add(" e"), "").add(
                    " assinaram o convênio em ").look(
                    self.pick(MONTHS), "month").add(". ").look(
                    self.pick(GREETINGS[3:]), "greeting").add(".")
            d.add("\n")
        return d


#: Document kinds, in the order they are drawn.
KINDS: tuple[str, ...] = ("chat", "ticket", "csv", "json", "sap", "bank", "email", "git",
                          "title", "prose")


def documents(seed: int = 7, count: int = 400) -> list[NameDoc]:
    """``count`` seeded documents, the kinds in turn (the same seed, the same documents)."""
    generator = _Generator(seed)
    makers: dict[str, Callable[[], NameDoc]] = {
        "chat": generator.chat, "ticket": generator.ticket, "csv": generator.csv,
        "json": generator.json, "sap": generator.sap, "bank": generator.bank,
        "email": generator.email, "git": generator.git, "title": generator.titled,
        "prose": generator.prose,
    }
    return [makers[KINDS[i % len(KINDS)]]() for i in range(count)]


# ---------------------------------------------------------------- measurement

_WORD = re.compile(r"[^\W\d_]+")


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def measure(docs: Sequence[NameDoc], redactor: Redactor, *,
            verbose: bool = False) -> dict[str, Any]:
    """Name recall and look-alikes intact over ``docs``, overall, per kind and per
    look-alike category.

    Misses are grouped by kind and by ``missed`` (no word covered) or ``partial``; false
    hits by look-alike category and the entities that touched it.  Each group has its
    count and, when ``verbose``, up to EXAMPLES examples with their texts.
    """
    kinds: dict[str, Counter[str]] = {}
    categories: dict[str, Counter[str]] = {}
    misses: dict[str, dict[str, Any]] = {}
    false_hits: dict[str, dict[str, Any]] = {}
    totals: Counter[str] = Counter()

    def note(groups: dict[str, dict[str, Any]], group: str, doc: NameDoc, *, start: int,
             end: int, findings: list[tuple[int, int, str]]) -> None:
        entry = groups.setdefault(group, {"count": 0, "examples": []})
        entry["count"] += 1
        if verbose and len(entry["examples"]) < EXAMPLES:
            entry["examples"].append(_example(doc, start, end, findings))

    for doc in docs:
        findings = [(f.start, f.end, f.entity_type) for f in redactor.redact(doc.text).findings]
        counts = kinds.setdefault(doc.kind, Counter())
        for start, end in doc.names:
            words = [(m.start(), m.end()) for m in _WORD.finditer(doc.text, start, end)]
            covered = [any(fs <= ws and we <= fe for fs, fe, _ in findings) for ws, we in words]
            for counter in (counts, totals):
                counter["names"] += 1
                counter["found"] += all(covered)
            if not all(covered):
                reason = "partial" if any(covered) else "missed"
                totals[reason] += 1
                note(misses, f"{doc.kind}/{reason}", doc, start=start, end=end,
                     findings=findings)
        for (start, end), category in zip(doc.lookalikes, doc.categories, strict=True):
            hits = [f for f in findings if f[0] < end and start < f[1]]
            by_category = categories.setdefault(category, Counter())
            for counter in (counts, by_category, totals):
                counter["lookalikes"] += 1
                counter["intact"] += not hits
            if hits:
                entities = "+".join(sorted({f[2] for f in hits}))
                note(false_hits, f"{category}/{entities}", doc, start=start, end=end,
                     findings=findings)
    return {
        "documents": len(docs),
        "names": totals["names"],
        "name_recall": _ratio(totals["found"], totals["names"]),
        "names_missed": totals["missed"],
        "names_partial": totals["partial"],
        "lookalikes": totals["lookalikes"],
        "lookalikes_intact": _ratio(totals["intact"], totals["lookalikes"]),
        "kinds": {kind: {"names": c["names"], "recall": _ratio(c["found"], c["names"]),
                         "lookalikes": c["lookalikes"],
                         "intact": _ratio(c["intact"], c["lookalikes"])}
                  for kind, c in kinds.items()},
        "categories": {cat: {"lookalikes": c["lookalikes"],
                             "intact": _ratio(c["intact"], c["lookalikes"])}
                       for cat, c in sorted(categories.items())},
        "misses": dict(sorted(misses.items())),
        "false_hits": dict(sorted(false_hits.items())),
    }


def _example(doc: NameDoc, start: int, end: int,
             findings: list[tuple[int, int, str]]) -> dict[str, Any]:
    """A planted span, its line and the findings on that line."""
    line_start = doc.text.rfind("\n", 0, start) + 1
    line_end = doc.text.find("\n", end)
    if line_end < 0:
        line_end = len(doc.text)
    return {"kind": doc.kind, "planted": doc.text[start:end],
            "line": doc.text[line_start:line_end],
            "findings": [(doc.text[s:e], entity) for s, e, entity in findings
                         if s < line_end and line_start < e]}


def run(seed: int = 7, docs: int = 400, *, verbose: bool = False) -> dict[str, Any]:
    """Generate the corpus, redact it with the default engine, return the figures."""
    from redactor import Settings
    from redactor.engine import Redactor

    corpus = documents(seed, docs)
    engine = Redactor(Settings())
    started = time.perf_counter()
    result = measure(corpus, engine, verbose=verbose)
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["seed"] = seed
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--docs", type=int, default=400)
    parser.add_argument("--verbose", action="store_true",
                        help="print the texts of example misses and false hits")
    args = parser.parse_args(argv)
    result = run(args.seed, args.docs, verbose=args.verbose)
    print(f"seed {result['seed']}, {result['documents']} documents, "
          f"redacted in {result['seconds']} s")
    print(f"name recall        {result['name_recall']:.4f}  ({result['names']} names, "
          f"{result['names_missed']} missed, {result['names_partial']} partly covered; "
          f"target {RECALL_TARGET})")
    print(f"look-alikes intact {result['lookalikes_intact']:.4f}  ({result['lookalikes']} "
          f"look-alikes; target {INTACT_TARGET})")
    print(f"\n{'kind':<8} {'names':>6} {'recall':>7} {'look':>6} {'intact':>7}")
    for kind, k in result["kinds"].items():
        print(f"{kind:<8} {k['names']:>6} {k['recall']:>7.4f} {k['lookalikes']:>6} "
              f"{k['intact']:>7.4f}")
    print(f"\n{'look-alike':<12} {'planted':>7} {'intact':>7}")
    for category, c in result["categories"].items():
        print(f"{category:<12} {c['lookalikes']:>7} {c['intact']:>7.4f}")
    for title, key in (("misses", "misses"), ("false hits", "false_hits")):
        print(f"\n{title}:" if result[key] else f"\n{title}: none")
        for group, entry in result[key].items():
            print(f"  {group}: {entry['count']}")
            for example in entry["examples"]:
                print(f"    {example['planted']!r} in {example['line']!r}")
                print(f"      findings: {example['findings']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

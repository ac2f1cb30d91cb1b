"""PERSON: people's names in Brazilian text, found from word lists, without a trained model.

Trained Portuguese spaCy pipelines are not on PyPI, so names are recognised from what
is known about the words (``recognizers.names``, the common-word list of
``pyspellchecker`` and the hand-written word classes below):

* **Runs of capitalised words** (Title Case or ALL CAPS, accents optional) are read one
  word at a time; each word gets a class: given name, surname, unknown, initial
  (``J.``), particle (``da``, ``DOS``), suffix (``Filho``), title or role word
  (``Dra.``, ``cliente``), ordinary word, place.  A run of two or more name words holding
  a known given name or surname is a name (``João Carlos da Silva``, ``JOSE DAS CHAGAS
  PEREIRA``); ordinary words split a run unless a name that is no ordinary word anchors
  it (``Maria Costa`` yes, ``Costa, Lima e Rocha`` no).
* **A single name** counts after a title or role word (``Dra. Helena``, ``o atendente
  Marcos``) or as the whole value of a name key (``{"nome": "Fernanda"}``, ``NAME1=``,
  ``Cliente:``), in an e-mail or git header (``De: Nome <x@y>``) and in citations
  (``SILVA, João``).
* **Person cues of real prose** (issue 28), read around the run's first words:

  - an *attribution*: a dash at a line's start, glued or not (``-- Nome``, ``—Nome``),
    or after the end of a sentence or a spaced double dash, the run ending its line (or
    followed by a comma or a parenthesis): a single unknown word (``-- Voltaire``) or
    a run without a known name is a name there, and a name's ordinary words belong to
    it (``-- Salvador Dali``); a dash that opens an item of a list or a line of a
    dialogue (a neighbouring line opens with the same dash, or the line before ends
    in ``:``), or a single hyphen glued to one word (``-Onível``), is none;
  - a *speaker's label*: ``Nome:`` at a line's start (maybe after a time stamp), in a
    dialogue (a neighbouring line opens with a label too);
  - a *verb of saying* before or after the run (``disse Kevin``, ``Kevin afirmou``),
    or of a life's event (``Morre Thiemo Seufer``: two or three unknown words too);
  - an *article* before a given name that is no ordinary word (``o João``, ``a
    Maria``, ``do Pedro``, ``O Manuel chega``), not before an acronym (``pela IANA``).

  Next to these cues and titles, a **foreign given name** (Faker's lists of other
  countries, ``recognizers.names.foreign_given_names``) is a given name; without a
  cue, only before a foreign surname (``Bill Mitchell``) or, if it is no English word,
  before an unknown word (``Linus Torvalds``).
* **Shapes**: a run may start right after an opening quote or a dash (``'Bruno
  Rocha'``, ``--Nome``) and go on past a line break where the line is wrapped prose;
  two initials or more make a name with an unknown word (``H. L. Mencken``, ``R.`` is
  an initial there, not ``Rua``); a town's name right after a given name is a
  surname (``Mário Quintana``), unless a place cue stands before them (``em Olavo
  Bilac``); so is a head word of a street or a company that is a surname too
  (``Manuel Estrada Sainz``); ``McIntyre`` is no camelCase word.
* **Not names**: cities and states (``São José dos Campos``, and big cities whose
  names read as a person's: ``João Pessoa``, unless a title stands before them), what
  follows a company, street or public-body head word (``Banco do Brasil``, ``Rua``),
  ``S. Paulo`` (São Paulo), months, weekdays, holidays, English and Portuguese month
  and weekday names next to a number or each other (``[Fri Jan 03 09:20:23 2014]``),
  and runs that end in a company suffix (``Ltda``, ``S/A``) or in ``do Brasil``
  (``FUJIFILM do Brasil``), or in a software noun (``Claude Code``, ``Claude Agent SDK``)
  or stand before a version number (``Claude Opus 5.5``) without a person cue; common
  English words that are no names, even after an
  honorific (``General Public License``, ``General Motors``: an adjective there); a
  runs of English words (each a common English word of no name list or a name that is
  a very frequent English word, ``PRESS ANY KEY``, ``Nice Try``), whatever the cue;
  "anonymous" misspelt or cut short (``-- Anomino``); the title of a work after an
  attribution's name (``-- Machado de Assis (Quincas Borba)``, ``--Lewis Carroll, em
  Alice no País das Maravilhas``); a
  given name of Brazil and abroad that is a surname in no list, right after an unknown
  word and ending the run (``Debian Edu``, ``Banja Luka``: given names come first).
* **A person of an organisation**: a run that ends in a particle and a word naming an
  organisation is a name (or a product) and its organisation: a web site's name
  (``Ana Lima da Exemplo.org``), or after ``da``/``do`` a word of no name list or a
  common English word (``Ana Lima do Zyxware``, ``Java da Sun``); the particle and the
  word are cut off.  A known given name or surname after the particle stays
  (``João da Silva``, ``Maria do Carmo``), and so does any word in a name written in
  capitals (a form's field).

The engine also redacts, elsewhere in the same text or JSON document, the given name
and the rarer surnames of a name found in full (``Redactor`` asks
:meth:`PersonRecognizer.propagation_keys` and :meth:`PersonRecognizer.standalone`),
unless such a word stands alone far more often than the names found hold it
(SPREAD_RATIO): then that one name was the mistake; a word followed by a capitalised
ordinary word that is no name is the head of a company's or a product's name there
(``Baldwin Linguas``), not the person.  Nor is it the person right after a capitalised
ordinary word inside a sentence (``até Papai Noel``: a figure; not after a form of
address, ``Seu``, ``Dom``), nor, far (SPREAD_NEAR) from every name holding it, right
after an ordinary lower-case word of no stop list (``bolacha Maria``): a text of
unrelated items (fortunes, a log) spreads a name into another item's thing.

Decisions are local, so that the engine may analyse only the windows around the
prefilter's hits: a word is at most MAX_WORD letters (plus two hyphenated or apostrophe
parts), a run of more than MAX_RUN name words is a heading or a list, not a name, and
a decision reads at most CONTEXT_TOKENS words before the run and one after it, and the
lines next to it within LINES_READ characters (attributions, labels, wrapped lines).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Final, NamedTuple

from presidio_analyzer import EntityRecognizer, RecognizerResult

from recognizers._text import QUOTE, cache_dir
from recognizers.base import make_result
from recognizers.names import (
    fold_name,
    foreign_given_names,
    foreign_surnames,
    given_names,
    places,
    surnames,
)

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

__all__ = ["ENTITY", "PersonRecognizer", "common_words"]

ENTITY: Final = "PERSON"

#: Scores: a name found in full, a single name after a title or as a key's value.
FULL_SCORE: Final = 0.85
TITLE_SCORE: Final = 0.8
KEY_SCORE: Final = 0.85

#: Letters of a word's first part, at most (longer words are no names).
MAX_WORD: Final = 24
#: Letters of each of at most two further parts after ``-`` or ``'`` (``Ana-Maria``).
MAX_PART: Final = 16
#: Name words in a run, at most; a longer run of capitalised words is no name.
MAX_RUN: Final = 10
#: Words before a run that its decision reads (titles, company heads).
CONTEXT_TOKENS: Final = 3
#: Characters of the line before a run that its decision reads.
PREVIOUS_CHARS: Final = 48
#: The most characters of blanks between two words: spaces, or a line break between
#: spaces (a name wrapped at the end of a line).
SPACE_CHARS: Final = 4 + 2 + 8
#: The most characters one word and the gap after it take (see _TOKEN and _GAP).
TOKEN_SPAN: Final = (MAX_WORD + 2 * (MAX_PART + 1)) + SPACE_CHARS + 2 * (5 + SPACE_CHARS)
#: How far a finding may stand from a trigger hit, and what a decision reads around it.
REACH: Final = (MAX_RUN + 1) * TOKEN_SPAN
MARGIN: Final = (MAX_RUN + CONTEXT_TOKENS + 2) * TOKEN_SPAN + PREVIOUS_CHARS + 64

# ---------------------------------------------------------------- character classes

_UPPER_EXTRA: Final = "".join(chr(c) for c in range(0x100, 0x180) if chr(c).isupper())
_LOWER_EXTRA: Final = "".join(chr(c) for c in range(0x100, 0x180)
                              if chr(c).isalpha() and not chr(c).isupper())
#: Upper-case letters of the Latin alphabets the triggers spell (see recognizers.prefilter).
UPPER: Final = "A-ZÀ-ÖØ-Þ" + _UPPER_EXTRA
#: Every letter of those alphabets, with combining accents.
LETTER: Final = "A-Za-zÀ-ÖØ-öø-ÿ" + _UPPER_EXTRA + _LOWER_EXTRA + "\u0300-\u036f"
_L: Final = f"[{LETTER}]"
_U: Final = f"[{UPPER}]"
#: Lower-case particles that may stand between the words of a name.
_PARTICLE: Final = r"(?:d[aeo]s?|e|di|du|del|della|van|von|der|den|y)"
#: A capitalised word; one followed by ``=`` is a key (``MSG=``), never part of a name.
_WORD: Final = (rf"{_U}{_L}{{0,{MAX_WORD - 1}}}(?:['’-]{_L}{{1,{MAX_PART}}}){{0,2}}"
                rf"(?![{LETTER}0-9_=])")
_INITIAL: Final = rf"{_U}\.(?![{LETTER}0-9_])"
#: A surname glued to its elided particle (``Marco d'Itri``, ``João d'Ávila``): a word of a
#: run, never its first (see _RUN_START).
_ELIDED: Final = rf"d['’]{_U}{_L}{{1,{MAX_WORD - 1}}}(?![{LETTER}0-9_='’-])"
_TOKEN: Final = rf"(?:{_INITIAL}|{_WORD})"
_NEXT_TOKEN: Final = rf"(?:{_INITIAL}|{_WORD}|{_ELIDED})"
#: Blanks between two words of a name: spaces, or one line break (text wrapped in lines).
_SPACE: Final = r"(?:[ \t]{1,4}|[ \t]{0,4}\r?\n[ \t]{0,8})"
_GAP: Final = rf"{_SPACE}(?:{_PARTICLE}{_SPACE}){{0,2}}"
#: Dashes: the hyphen, the figure, en and em dashes, the horizontal bar, the minus sign.
DASHES: Final = "\\-\u2012\u2013\u2014\u2015\u2212"
#: Where a run of capitalised words may start: not right after a letter, digit or one
#: of ``_@/\\.'’-`` (``d'Ávila``, ``Ex-Presidente``, ``a.Nome``), except after an opening
#: quote or a dash that follows no letter or digit (``'Bruno Rocha'``, ``--Nome``).
_RUN_START: Final = (rf"(?:(?<![{LETTER}0-9_@/\\.'’{DASHES}])|(?<=[^{LETTER}0-9_]['’{DASHES}])"
                     rf"|(?<=^['’{DASHES}]))")
#: A run of capitalised words (the "chain"), lower-case particles between them.
_CHAIN: Final = re.compile(rf"{_RUN_START}{_TOKEN}(?:{_GAP}{_NEXT_TOKEN})*")
_TOKENS: Final = re.compile(rf"{_INITIAL}|{_L}+(?:['’-]{_L}+)*")
_LETTERS: Final = re.compile(f"{_L}+")

# ---------------------------------------------------------------- hand-written word classes
# All folded (no accents, upper case).

_PARTICLES: Final = frozenset({"DA", "DE", "DO", "DAS", "DOS", "E", "DI", "DU", "DEL", "DELLA",
                               "VAN", "VON", "DER", "DEN", "Y", "D"})
_LOWER_PARTICLES: Final = frozenset({"da", "de", "do", "das", "dos", "e", "di", "du", "del",
                                     "della", "van", "von", "der", "den", "y"})
#: Particles that stand capitalised inside a name, after a known given name, surname or
#: initial and before another word (``Fabio M. Di Nitto``, ``Hans Van Der Berg``); first,
#: or after another word, they are words (``Van Snyder``, ``The Von Neumann
#: architecture``).
_INNER_PARTICLES: Final = frozenset({"Di", "Du", "Del", "Della", "Van", "Von", "Der", "Den"})
#: Titles of Mary that Brazilian women bear as the second part of their given name after
#: ``Maria`` and a particle (``Maria das Graças``, ``Maria do Socorro``, ``Maria da
#: Luz``), ordinary words elsewhere (as fold_name writes them).
MARIAN_TITLES: Final = frozenset({
    "AJUDA", "ANJOS", "ANUNCIACAO", "APARECIDA", "ASSUNCAO", "BONFIM", "CANDELARIA", "CARMO",
    "CONCEICAO", "CONSOLACAO", "CRUZ", "DORES", "ENCARNACAO", "ESPERANCA", "FATIMA", "GLORIA",
    "GRACAS", "GRACIA", "GUIA", "LIVRAMENTO", "LOURDES", "LUZ", "MERCES", "NATIVIDADE",
    "NAZARE", "NEVES", "PAZ", "PENHA", "PERPETUO", "PIEDADE", "PILAR", "PURIFICACAO",
    "REMEDIOS", "ROSARIO", "SALETE", "SAUDE", "SOCORRO", "SOLEDADE", "VISITACAO", "VITORIA"})
_SUFFIXES: Final = frozenset({"FILHO", "FILHA", "JUNIOR", "JR", "NETO", "NETA", "NETTO",
                              "SOBRINHO", "SOBRINHA", "SEGUNDO", "TERCEIRO"})
#: Honorifics and ranks: the capitalised words after them are a name, whatever they are.
HONORIFICS: Final = frozenset({
    "SR", "SRA", "SRTA", "SENHOR", "SENHORA", "DONA", "DR", "DRA", "DOUTOR", "DOUTORA", "PROF",
    "PROFA", "MIN", "MINISTRO", "MINISTRA", "DES", "DESA", "DESEMBARGADOR", "DESEMBARGADORA",
    "SGT", "SARGENTO", "SUBTENENTE", "SUBOFICIAL", "CABO", "SOLDADO", "SD", "TENENTE", "TEN",
    "CAPITAO", "CAP", "CEL", "CORONEL", "MAJOR", "MAJ", "GENERAL", "GEN", "ALMIRANTE", "BRIG",
    "BRIGADEIRO", "PADRE", "FREI", "PASTOR", "PASTORA", "EXMO", "EXMA", "BEL", "BACHAREL",
})
#: Title and role words: a single given name or surname right after one is a person.
TITLES: Final = HONORIFICS | frozenset({
    "REL", "RELATOR", "RELATORA", "CONSELHEIRO", "CONSELHEIRA", "DEPUTADO", "DEPUTADA",
    "SENADOR", "SENADORA", "VEREADOR", "VEREADORA", "DELEGADO", "DELEGADA", "PROMOTOR",
    "PROMOTORA", "JUIZ", "JUIZA", "PROFESSOR", "PROFESSORA", "ADVOGADO", "ADVOGADA",
    "PROCURADOR", "PROCURADORA", "DEFENSOR", "DEFENSORA", "PRESIDENTE", "PREFEITO", "PREFEITA",
    "GOVERNADOR", "GOVERNADORA", "COMANDANTE", "IRMA", "PACIENTE", "CLIENTE", "TITULAR",
    "FAVORECIDO", "FAVORECIDA", "BENEFICIARIO", "BENEFICIARIA", "RESPONSAVEL", "ATENDENTE",
    "SOLICITANTE", "AUTOR", "AUTORA", "REU", "IMPETRANTE", "AGRAVANTE", "AGRAVADO", "AGRAVADA",
    "RECORRENTE", "RECORRIDO", "RECORRIDA", "APELANTE", "APELADO", "APELADA", "REQUERENTE",
    "REQUERIDO", "REQUERIDA", "EMBARGANTE", "EMBARGADO", "TESTEMUNHA", "VITIMA", "ACUSADO",
    "ACUSADA", "DENUNCIADO", "DENUNCIADA", "INTERESSADO", "INTERESSADA", "MAE", "PAI", "ESPOSA",
    "ESPOSO", "MARIDO", "IRMAO", "COMPANHEIRO", "COMPANHEIRA", "GENITOR", "GENITORA", "TIO",
    "TIA", "ALUNO", "ALUNA", "FUNCIONARIO", "FUNCIONARIA", "EMPREGADO", "EMPREGADA",
    "COLABORADOR", "COLABORADORA", "GERENTE", "DIRETOR", "DIRETORA", "SECRETARIO",
    "ASSINADO", "ASSINADA", "OLA", "OI", "PREZADO", "PREZADA", "CARO", "CARA", "NOME",
    "INVESTIGADO", "INVESTIGADA", "INDICIADO", "INDICIADA", "CONTRATANTE", "CONTRATADO",
    "CONTRATADA", "LOCATARIO", "LOCATARIA", "LOCADOR", "DEVEDOR", "DEVEDORA", "CREDOR",
    "CREDORA", "SEGURADO", "SEGURADA", "EMITENTE", "DESTINATARIO", "DESTINATARIA", "REMETENTE",
    "USUARIO", "USUARIA", "MOTORISTA", "MEDICO", "MEDICA", "ENFERMEIRO", "ENFERMEIRA",
    "CONDUTOR", "CONDUTORA", "PROPRIETARIO", "PROPRIETARIA", "SOCIO", "SOCIA",
    "REPRESENTANTE", "IMPETRADO", "EXECUTADO", "EXECUTADA", "EXEQUENTE", "RECLAMANTE",
    "RECLAMADO", "RECLAMADA", "ASSISTENTE", "OBRIGADO", "OBRIGADA", "VALEU", "ATT", "ABRACO",
    "ABRACOS", "ABS", "QUERIDO", "QUERIDA",
})
#: Words that are never part of a person's name, whatever the lists say.
_NEVER: Final = frozenset({
    "JANEIRO", "FEVEREIRO", "ABRIL", "MAIO", "JUNHO", "JULHO", "AGOSTO", "SETEMBRO",
    "OUTUBRO", "NOVEMBRO", "DEZEMBRO", "SEGUNDA", "TERCA", "QUARTA", "QUINTA", "SEXTA",
    "SABADO", "DOMINGO", "FEIRA", "NATAL", "PASCOA", "CARNAVAL", "REVEILLON", "FINADOS",
    "TIRADENTES", "CORPUS", "CHRISTI", "DEUS", "SAO", "SANTA", "SANTO", "NOSSA", "SENHORA",
    "UNIAO", "ESTADO", "FEDERAL", "NACIONAL", "ESTADUAL", "MUNICIPAL", "REPUBLICA", "JUSTICA",
    "TRIBUNAL", "SUPREMO", "SUPERIOR", "CODIGO", "LEI", "ARTIGO", "ART", "INCISO", "PARAGRAFO",
    "SUMULA", "CONSTITUICAO", "RECURSO", "AGRAVO", "HABEAS", "MANDADO", "ACAO", "PROCESSO",
    "TURMA", "CAMARA", "SECAO", "PLENARIO", "VARA", "COMARCA", "FORO", "DJ", "DJE", "STF",
    "STJ", "TST", "TSE", "TCU", "OAB", "CPF", "RG", "CNPJ", "FLS", "FL", "PUBLICA", "PUBLICO",
    "GERAL", "BOM", "BOA", "DIA", "TARDE", "NOITE", "FELIZ", "FERIADO", "MONDAY", "TUESDAY",
    "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY", "JANUARY", "FEBRUARY", "SEPTEMBER",
    "OCTOBER", "NOVEMBER", "DECEMBER", "ANON", "ANONYMOUS", "ANONIMO", "ANONIMA", "UNKNOWN",
    "DESCONHECIDO", "DESCONHECIDA",
})
#: Heads of company, public-body, street and place names: the name after them is no person.
ORG_HEADS: Final = frozenset({
    "BANCO", "CAIXA", "CASAS", "RECEITA", "FUNDACAO", "INSTITUTO", "UNIVERSIDADE", "FACULDADE",
    "ESCOLA", "COLEGIO", "HOSPITAL", "CLINICA", "EMPRESA", "COMPANHIA", "CIA", "MAGAZINE",
    "LOJAS", "LOJA", "SUPERMERCADO", "SUPERMERCADOS", "FARMACIA", "DROGARIA", "EDIFICIO",
    "CONDOMINIO", "SHOPPING", "HOTEL", "IGREJA", "PAROQUIA", "ASSOCIACAO", "SINDICATO",
    "COOPERATIVA", "CLUBE", "RUA", "R", "AVENIDA", "AV", "TRAVESSA", "TV", "ALAMEDA", "AL",
    "RODOVIA", "ROD", "ESTRADA", "PRACA", "LARGO", "VIADUTO", "PONTE", "BAIRRO", "VILA",
    "JARDIM", "PARQUE", "CONJUNTO", "RESIDENCIAL", "DECRETO", "OPERACAO", "PROJETO", "PROGRAMA",
    "PREMIO", "FORUM", "TEATRO", "ESTADIO", "AEROPORTO", "ESTACAO", "USINA", "FAZENDA", "SITIO",
    "CRECHE", "CENTRO", "UNIDADE", "DELEGACIA", "BATALHAO", "QUARTEL", "NAVIO", "MATERNIDADE",
    "PREFEITURA", "SECRETARIA", "MINISTERIO", "GOVERNO", "MUNICIPIO", "CIDADE", "GRUPO",
    "EDITORA", "CONSTRUTORA", "TRANSPORTADORA", "AUTO", "POSTO", "MERCADO", "ACADEMIA", "MUSEU",
    "BIBLIOTECA", "CAPELA", "CEMITERIO", "PENITENCIARIA", "PRESIDIO", "COMPLEXO",
    "ORGANIZACOES", "INDUSTRIA", "INDUSTRIAS", "COMERCIO", "DISTRIBUIDORA", "RODOVIARIA",
    "TERMINAL", "LADEIRA", "BECO", "QUADRA", "LOTEAMENTO", "NUCLEO", "REGIAO", "TRECHO",
    "ZONA", "DEFENSORIA", "PROCURADORIA", "ADVOCACIA", "CORREGEDORIA", "OUVIDORIA", "AGENCIA",
    "AUTARQUIA", "CONSELHO", "COMISSAO", "ASSEMBLEIA", "SENADO", "CONGRESSO", "POLICIA",
    "GUARDA", "EXERCITO", "MARINHA", "AERONAUTICA", "DEPARTAMENTO", "DIRETORIA",
    "SUPERINTENDENCIA", "GERENCIA", "COORDENACAO", "INSPETORIA", "SERVICO", "REVISTA",
    "JORNAL", "LIVRARIA", "SEGURADORA", "CARTORIO", "TABELIONATO", "OFICIO", "RADIO", "CANAL",
    "TIME", "ESPORTE", "FUTEBOL", "EQUIPE", "SETOR", "TRAV", "ESTR",
})
#: Street types: what follows is a street's name, even after a title (``Rua Dr. Silva``).
_STREET_HEADS: Final = frozenset({"RUA", "R", "AVENIDA", "AV", "TRAVESSA", "TRAV", "TV",
                                  "ALAMEDA", "AL", "RODOVIA", "ROD", "ESTRADA", "ESTR", "PRACA",
                                  "LARGO", "LADEIRA", "BECO", "VIELA"})
#: Heads of place names that are also surnames (``Rio``, ``Porto``, ``Vale``).
_PLACE_HEADS: Final = frozenset({"LAGO", "VALE", "SERRA", "MONTE", "PORTO", "RIO", "MORRO",
                                 "ILHA", "BARRA", "PRAIA", "PONTA", "CAMPO", "CACHOEIRA",
                                 "LAGOA", "SERTAO", "CHAPADA", "FOZ"})
#: Words before a place (``em``, ``natural de``): a place phrase after them is a place.
_PLACE_CUES: Final = frozenset({"EM", "MUNICIPIO", "CIDADE", "COMARCA", "ESTADO", "DISTRITO",
                                "NATURAL", "RESIDENTE", "DOMICILIADO", "DOMICILIADA",
                                "NASCIDO", "NASCIDA", "PARA", "REGIAO", "LOCALIDADE"})
#: Participles before ``por``: the name after ``assinado por`` is a person.
BY_CUES: Final = frozenset({
    "ASSINADO", "ASSINADA", "INTERPOSTO", "INTERPOSTA", "AJUIZADA", "AJUIZADO", "PROPOSTA",
    "PROPOSTO", "MOVIDA", "MOVIDO", "IMPETRADO", "IMPETRADA", "REPRESENTADO", "REPRESENTADA",
    "ELABORADO", "REDIGIDO", "ENVIADO", "ENVIADA", "CRIADO", "CRIADA", "ATUALIZADO",
    "ALTERADO", "SOLICITADO", "SOLICITADA", "ATENDIDO", "ATENDIDA", "APROVADO", "APROVADA",
    "AUTORIZADO", "AUTORIZADA", "PRESIDIDA", "PRESIDIDO",
})
_STATES: Final = frozenset({"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT",
                            "MS", "MG", "PA", "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO",
                            "RR", "SC", "SP", "SE", "TO"})
#: Articles and contractions of a preposition with an article: a given name right after
#: one is a person (``o João``, ``a Maria``, ``do Pedro``), a strong Portuguese cue.
ARTICLES: Final = frozenset({"O", "A", "AO", "DO", "DA", "NO", "NA", "PELO", "PELA", "PRO",
                             "PRA"})
#: Verbs of saying: a name right before or after one is a person (``disse Kevin``,
#: ``Kevin Mitnick afirmou``); ``segundo`` only before it.
SPEECH_VERBS: Final = frozenset({
    "DISSE", "DIZ", "DIZIA", "AFIRMOU", "AFIRMA", "DECLAROU", "DECLARA", "EXPLICOU", "EXPLICA",
    "ESCREVEU", "PERGUNTOU", "RESPONDEU", "COMENTOU", "CONTOU", "LEMBROU", "ACRESCENTOU",
    "RESSALTOU", "DESTACOU", "AVALIOU", "CRITICOU", "ARGUMENTOU", "OBSERVOU", "CONCLUIU",
    "COMPLETOU", "INDAGOU", "PONDEROU", "REBATEU", "ADMITIU", "CONTINUOU", "SAID", "SAYS",
    "WROTE", "ASKED", "REPLIED",
})
#: Verbs of what only people do (``morreu``, ``nasceu``): before or after them, a run of
#: two or three unknown capitalised words is a name too (``Morre Thiemo Seufer``).
LIFE_VERBS: Final = frozenset({"MORREU", "MORRE", "MORREM", "MORRERAM", "FALECEU", "FALECE",
                               "NASCEU", "NASCE", "CASOU"})
SPEECH_BEFORE: Final = SPEECH_VERBS | LIFE_VERBS | {"SEGUNDO", "CONFORME", "THANKS"}
#: Big Brazilian cities whose names read as a person's (``João Pessoa``): places unless a
#: title, an attribution or another name word stands next to them.
_PERSON_SHAPED_CITIES: Final = frozenset({
    ("JOAO", "PESSOA"), ("TEOFILO", "OTONI"), ("LAURO", "DE", "FREITAS"),
    ("BENTO", "GONCALVES"), ("PAULO", "AFONSO"), ("TEIXEIRA", "DE", "FREITAS"),
    ("SIMOES", "FILHO"), ("FERRAZ", "DE", "VASCONCELOS"), ("FRANCISCO", "MORATO"),
    ("FRANCO", "DA", "ROCHA"), ("FRANCISCO", "BELTRAO"), ("VENANCIO", "AIRES"),
    ("MARECHAL", "DEODORO"), ("BELFORD", "ROXO"), ("GOVERNADOR", "VALADARES"),
})
#: Countries: a run that ends in ``do Brasil`` is a company or a body (``FUJIFILM do Brasil``).
_COUNTRIES: Final = frozenset({"BRASIL", "PORTUGAL", "ANGOLA", "MOCAMBIQUE", "ARGENTINA",
                               "URUGUAI", "PARAGUAI", "MEXICO", "JAPAO", "CANADA", "ITALIA",
                               "ALEMANHA", "INGLATERRA", "ESPANHA", "CHILE", "PERU"})
#: Month and weekday names and abbreviations (English and Portuguese) that are given names
#: too (``July``, ``Jan``, ``Fri``...): no name next to a number or another of them.
_DATE_WORDS: Final = frozenset({
    "JAN", "FEB", "FEV", "MAR", "APR", "ABR", "MAY", "MAI", "JUN", "JUL", "AUG", "AGO", "SEP",
    "SEPT", "SET", "OCT", "OUT", "NOV", "DEC", "DEZ", "APRIL", "JUNE", "JULY", "AUGUST",
    "MARCH", "MON", "TUE", "TUES", "WED", "THU", "THUR", "THURS", "FRI", "SAT", "SUN", "SEG",
    "TER", "QUA", "QUI", "SEX", "SAB", "DOM", "MARCO",
})
#: Cues next to which a foreign given name is a name (a pending attribution or speaker's
#: label is confirmed by what follows the run).
_FOREIGN_CUES: Final = frozenset({"attribution?", "dash?", "speaker?", "attribution", "dash",
                                  "speaker", "speech", "life", "role"})
#: Cues next to which a foreign given name may be a Portuguese word too (``Bill``).
_LABEL_CUES: Final = frozenset({"attribution?", "dash?", "speaker?", "attribution", "dash",
                                "speaker"})
#: Cues strong enough to hold rare ordinary words in a name (``-- Mark Twain``).
_STRONG_CUES: Final = frozenset({"attribution", "dash", "speaker", "speech", "life"})
#: Capitalised articles that open a sentence (``O Manuel chega``).
_CAPITAL_ARTICLES: Final = frozenset({"O", "A", "À", "Ao", "Do", "Da", "No", "Na", "Pelo",
                                      "Pela"})
#: How far around a run the attribution and speaker-label cues read (lines before and
#: after it), in characters: well within MARGIN.
LINES_READ: Final = 320

_DASH_RUN: Final = rf"[{DASHES}]{{1,3}}"
#: A dash at a line's start: ``-- Nome``, ``—Nome`` (and the text before the run).
_LINE_START_DASH: Final = re.compile(rf"(?:^|[\n\r])[ \t]{{0,8}}(?P<dash>{_DASH_RUN})[ \t]{{0,4}}$")
#: A dash after the end of a sentence, maybe closing a quotation: ``... vida." -- Nome``
#: (not after a quoted term: ``cvs' - Concurrent Versions System``).
_SENTENCE_DASH: Final = re.compile(rf"[.!?…][\"”»'’]?[ \t]{{0,4}}{_DASH_RUN}[ \t]{{0,4}}$")
#: A double dash after a space: ``texto -- Nome``.
_SPACED_DOUBLE_DASH: Final = re.compile(r"[ \t](?:-{2,3}|[\u2014\u2015]{1,2})[ \t]{0,4}$")
#: What may follow an attribution: the end of the line, ``,``, ``;``, a parenthesis...
_ATTRIBUTION_END: Final = re.compile(
    rf"[ \t]*(?:$|[\n\r,;(\[]|[.!?…][ \t]*(?:$|[\n\r])|[{DASHES}][ \t])")
#: What may stand before a speaker's label on its line: a time or date stamp, in brackets
#: or parentheses (``[10:15]``), or followed by a dash (``12/03/2024 10:15 - ``).
_SPEAKER_PREFIX: Final = (r"(?:[\[(][0-9][0-9/.,: ]{0,28}(?:[AaPp]\.?[Mm]\.?)?[\])][ \t]{0,3}"
                          r"|[0-9][0-9/.,: ]{2,30}(?:[AaPp]\.?[Mm]\.?[ \t]{0,3})?"
                          rf"[{DASHES}][ \t]{{0,3}})?")
_SPEAKER_BEFORE: Final = re.compile(rf"(?:^|[\n\r])[ \t]{{0,8}}{_SPEAKER_PREFIX}$")
#: A line that opens with a speaker's label (``ANA: Bom dia``, ``[10:15] Carlos: oi``).
_SPEAKER_LINE: Final = re.compile(
    rf"(?m)^[ \t]{{0,8}}{_SPEAKER_PREFIX}{_U}[{LETTER}'’.-]{{0,{MAX_WORD}}}"
    rf"(?:[ \t]{{1,2}}(?:{_PARTICLE}[ \t]{{1,2}})?{_U}[{LETTER}'’.-]{{0,{MAX_WORD}}}){{0,3}}"
    rf"[ \t]{{0,2}}:(?:[ \t]|$)")
_LOWER_WORD_AFTER: Final = re.compile(r"[ \t]{1,3}[a-zà-ÿ]")
_SPEAKER_COLON: Final = re.compile(r"[ \t]{0,2}:(?:[ \t]|$)", re.MULTILINE)
_ARTICLE_BEFORE: Final = re.compile(
    rf"(?<![{LETTER}0-9_])(?:o|a|à|ao|do|da|no|na|pelo|pela|pro|pra)[ \t]{{1,3}}$")
_SPEECH_AFTER: Final = re.compile(rf",?[ \t]{{1,3}}({_L}+)")
_NUMBER_NEAR: Final = re.compile(r"[ \t,]{0,3}(?:de[ \t]{1,3})?[0-9]")
_NUMBER_BEFORE: Final = re.compile(r"[0-9](?:[ \t]{1,3}de)?[ \t,]{0,3}$")
_ORG_TAIL: Final = re.compile(
    r"[ \t]{0,3}(?:-[ \t]{0,3})?(?:S[ ]?/[ ]?A\b|S\.[ ]?A\.?|Ltda\b|LTDA\b|EIRELI\b|ME\b|EPP\b|"
    r"&|Cia\b|CIA\b|Advogados\b|ADVOGADOS\b|Associados\b|ASSOCIADOS\b|Engenharia\b|"
    r"ENGENHARIA\b|Com[ée]rcio\b|COM[ÉE]RCIO\b)")
#: Words that end a product's name, not a person's (``Claude Code``, ``Claude Agent SDK``,
#: ``Maria Studio``): software and service nouns of English, folded, none a surname.
_PRODUCT_HEADS: Final = frozenset({
    "CODE", "SDK", "AGENT", "AGENTS", "DESKTOP", "STUDIO", "APP", "APPS", "CLOUD", "SERVER",
    "CLIENT", "API", "CLI", "BOT", "ASSISTANT", "ENGINE", "FRAMEWORK", "PLATFORM", "TOOLKIT",
    "PLUGIN", "EXTENSION", "SUITE", "IDE", "EDITOR", "BROWSER", "RUNTIME", "CONSOLE",
    "DASHBOARD", "CONNECTOR", "GATEWAY", "PLAYGROUND", "WORKBENCH", "COPILOT", "CHAT",
})
#: A version number right after a run: a product and its release (``Claude Opus 5.5``,
#: ``Ubuntu Server 24.04``), never how a person's name goes on.
#: What follows a word that starts an e-mail address (``Ralf.Wildenhues@gmx.de``).
_EMAIL_GLUED: Final = re.compile(r"[\w.+-]{0,64}@[\w-]")
_VERSION_AFTER: Final = re.compile(r"[ \t]{1,2}v?[0-9]+(?:\.[0-9]+)+\b")
_VERSION_IN: Final = re.compile(r"(?<![0-9.])v?[0-9]+(?:\.[0-9]+)+(?![0-9])")


def _product_head(word: str) -> bool:
    """A software noun that ends a product's name (``Code``, ``Code's``), no surname."""
    key = fold_name(re.sub(r"['’][sS]$", "", word))
    return key in _PRODUCT_HEADS and not _is_any_name_word(key.title())


#: A word in Title Case (not an acronym in capitals, nor camelCase).
_TITLE_CASE: Final = re.compile(rf"{_U}[a-zà-ÿ'’-]+$")
#: Surnames written with a capital inside: McIntyre, MacKenzie, DeVito, LaGuardia, DiCaprio.
_PREFIXED_SURNAME: Final = re.compile(
    rf"(?:Mc|Mac|De|Di|Da|La|Le|Van|Fitz|[OD]['’]|d['’])[{UPPER}][a-zà-ÿ]{{2,}}$")
_CLITIC: Final = re.compile(r"(?i).+-(?:se|lhe|lhes|lo|la|los|las|me|te|nos|vos|o|a|os|as|no|na)$")
_LOWER_AFTER_HYPHEN: Final = re.compile(r"-[a-zà-ÿ]")

#: Keys whose whole value is a person's name (JSON, CSV headers, SAP fields, headers).
_NAME_KEYS: Final = (
    r"nome(?:_completo|_cliente|_titular|_mae|_pai|_social)?|name[1-4]?|full_?name|"
    r"first_?name|last_?name|display_?name|customer_?name|respons[aá]vel|favorecid[oa]|"
    r"titular|paciente|benefici[aá]ri[oa]|solicitante|contato|m[aã]e|pai|author|autor|"
    r"committer|cliente")
#: (Quotes escaped too, QUOTE: a JSON line inside a string.)
_KEY_VALUE: Final = re.compile(
    rf"""(?<![{LETTER}0-9_])(?:{QUOTE})?(?i:{_NAME_KEYS})(?:{QUOTE})?"""
    rf"""[ \t]{{0,3}}[:=][ \t]{{0,3}}(?:{QUOTE})?"""
    rf"""(?P<v>{_U}[^"'\n\r,;:{{}}<>|=\[\]0-9]{{0,80}}?)[ \t]*"""
    rf"""(?={QUOTE}|[\n\r,;}}<|]|$|[ \t]{{2}})""")
#: A name key's value in a query string or form data: up to a ``&``, a ``#``, a blank
#: or a quote, spaces written ``+`` or ``%20`` and other characters percent-encoded
#: (one way to read each character: the runs between escapes hold none of their marks).
_FORM_VALUE: Final = re.compile(
    rf"""(?<![{LETTER}0-9_])(?i:{_NAME_KEYS})=(?P<v>{_U}[^\s&#=;"'<>%+]{{0,{MAX_WORD}}}"""
    rf"""(?:(?:\+|%[0-9A-Fa-f]{{2}})[^\s&#=;"'<>%+]{{0,{MAX_WORD}}}){{0,{4 * MAX_RUN}}})"""
    r"""(?=[\s&#;"'<>]|$)""")
#: Where a name key may start, in lower-cased ASCII text (see _from_keys).
_KEY_START: Final = re.compile(f"(?:{_NAME_KEYS})")
#: What the plain key-value pattern refuses in a value (digits, marks of structure).
_NOT_IN_NAME_VALUE: Final = re.compile(r"""[0-9"'\n\r,;:{}<>|=\[\]]""")
#: E-mail and git headers whose value is a person and an address.
_HEADER_KEYS: Final = (r"(?i:de|from|para|to|cc|author|commit|committer|reply-to|signed-off-by|"
                       r"co-authored-by)")
_HEADER: Final = re.compile(
    rf"""(?m)^[ \t]{{0,8}}{_HEADER_KEYS}[ \t]{{0,3}}:"""
    rf"""[ \t]{{0,3}}"?(?P<v>{_U}[^"<\n@]{{0,80}}?)"?[ \t]{{0,3}}<[^>\n]{{1,254}}@""")
#: ABNT citations: SURNAME, Given Names.
_CITATION: Final = re.compile(
    rf"(?<![{LETTER}0-9_])(?P<left>{_U}{{2,{MAX_WORD}}}(?:[ ](?:D[AEO]S?[ ])?{_U}{{2,{MAX_WORD}}})"
    rf"{{0,3}})[ ]?,[ ]?(?P<right>(?:{_INITIAL}|{_WORD})(?:[ ](?:{_PARTICLE}[ ])?"
    rf"(?:{_INITIAL}|{_WORD})){{0,5}})")
_SEX_MARK: Final = re.compile(r"\([ \t]?[SAsa][ \t]?\)")
_PREVIOUS: Final = re.compile(
    rf"({_L}+)[ \t.:,ºª\"']{{0,6}}(?:\([ \t]?[SAsa][ \t]?\)[ \t]{{0,3}}:?[ \t]{{0,3}})?$")


def _from_keys(pattern: re.Pattern[str], text: str, pos: int = 0,
               endpos: int | None = None) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text, pos, endpos)`` for a pattern whose every match starts
    with a name key (_NAME_KEYS), maybe after a quote: on ASCII text, the pattern is
    tried only where a key starts, found in the lower-cased text at ``re``'s speed for
    a plain alternation.  (Its look-behind and ignored case made ``re`` try the whole
    pattern at every position: a sixth of the time on Windows events, whose every
    element has a ``Name=``.)

    A match of the pattern starts at a key, or at the quote right before one, and no
    key's start is passed over: the scan of keys consumes only letters, digits and
    ``_``, which the pattern's look-behind refuses before a key.
    """
    end = len(text) if endpos is None else endpos
    segment = text[pos:end]
    if not segment.isascii():
        yield from pattern.finditer(text, pos, end)
        return
    resume = pos  # where the last match ended: a match starts no earlier
    for key in _KEY_START.finditer(segment.lower()):
        at = pos + key.start()
        starts = (at - 1, at) if at - 1 >= resume and text[at - 1] in "\"'" else (at,)
        for start in starts:
            if start < resume:
                continue
            match = pattern.match(text, start, end)
            if match is not None:
                yield match
                resume = match.end()
                break


# ---------------------------------------------------------------- word data


#: Part of the cache key of the folded word list: change it when fold_name changes.
WORDS_CACHE_VERSION: Final = b"fold-1"


@cache
def common_words() -> Mapping[str, int]:
    """Folded Portuguese words and their frequency, from ``pyspellchecker``'s list.

    The list holds 417,000 words (subtitles); folding them takes about a second, so
    the folded dictionary is kept as JSON under ``$XDG_CACHE_HOME/redactor``, keyed by
    a hash of the source file (JSON, not pickle: a file in a cache folder must not be
    able to run code).  A cache that cannot be read, or holds anything but words and
    counts, is rebuilt; one that cannot be written is skipped.
    """
    source = resources.files("spellchecker") / "resources" / "pt.json.gz"
    raw = source.read_bytes()
    key = hashlib.sha256(raw + WORDS_CACHE_VERSION).hexdigest()[:24]
    path = cache_dir() / f"words-pt-{key}.json"
    with contextlib.suppress(OSError, ValueError, RecursionError):
        loaded = json.loads(path.read_bytes())
        if isinstance(loaded, dict) and all(
                type(v) is int for v in loaded.values()):
            return loaded
    frequencies: dict[str, int] = {}
    for word, count in json.loads(gzip.decompress(raw)).items():
        folded = fold_name(word)
        if folded.isalpha() and folded.isascii() and count > frequencies.get(folded, 0):
            frequencies[folded] = int(count)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(frequencies, separators=(",", ":")), encoding="ascii")
        os.replace(temporary, path)
    return frequencies


def _stop_words() -> frozenset[str]:
    text = (resources.files("recognizers") / "data" / "stop_words.txt").read_text(
        encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@cache
def _english_stop_words() -> frozenset[str]:
    """English function words (``AND``, ``OF``, ``YOU``), upper-cased."""
    text = (resources.files("recognizers") / "data" / "english_stop_words.txt").read_text(
        encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


#: A word at least this frequent in the common-word list is an ordinary word.
LEXICON_MIN: Final = 50
#: An ordinary word rarer than this may sit inside a name next to a known name ("soft").
SOFT_MAX: Final = 500
#: A given name beats the common-word list when it is this many times more frequent.
NAME_OVER_WORD: Final = 4.0
#: Given names this short count only with this many bearers (``Gui`` has 252).
SHORT_NAME: Final = 3
SHORT_NAME_MIN: Final = 2000
#: A given name that is also a one-word city counts as a place below this many bearers.
CITY_NAME_MIN: Final = 5000
#: A foreign given name this frequent as an English word is no name (``Love``, ``Said``).
FOREIGN_WORD_MAX: Final = 60_000
#: A foreign given name rarer than this as an English word makes a name before an unknown
#: word without a cue (``Linus Torvalds``, not ``Urban Planning``).
FOREIGN_FIRST_EN_MAX: Final = 3_000
#: ... nor, next to an attribution or a label, one this frequent in Portuguese (``Durante``).
FOREIGN_WORD_PT_MAX: Final = 5_000


def _place_key(word: str) -> str:
    return fold_name(word).replace("'", "")


@dataclass(frozen=True, slots=True)
class _Lexicon:
    classes: Mapping[str, str]
    words: Mapping[str, int]
    given: Mapping[str, int]
    surnames: frozenset[str]
    hard: frozenset[str]
    place_first: Mapping[str, tuple[tuple[str, ...], ...]]
    city_single: frozenset[str]
    foreign: frozenset[str]
    foreign_first: frozenset[str]
    foreign_surnames: frozenset[str]


@cache
def _lexicon() -> _Lexicon:
    """The word classes (built once per process, on the first run of capitalised words)."""
    given = given_names()
    words = common_words()
    known_surnames = surnames()
    stop = _stop_words()
    classes: dict[str, str] = {}
    for word, count in words.items():
        if count >= LEXICON_MIN:
            classes[word] = "C"
    for word, count in given.items():
        frequency = words.get(word, 0)
        if len(word) <= SHORT_NAME and count < SHORT_NAME_MIN:
            continue  # GUI, ADI: too rare and too short to be told from an acronym
        if frequency < LEXICON_MIN or count >= NAME_OVER_WORD * frequency:
            classes[word] = "G"
    for word in known_surnames:
        classes[word] = "S"  # the surname list wins over the common words
    # English function words that no name list holds are ordinary words too: a licence's
    # capitals ("AND ANY EXPRESS OR IMPLIED WARRANTIES") are no name.
    foreign_names = foreign_given_names().keys() | foreign_surnames()
    english = frozenset(word for word in _english_stop_words()
                        if len(word) > 1 and word not in classes
                        and word not in foreign_names)
    for word in english:
        classes[word] = "C"
    for group, label in ((stop, "C"), (_NEVER | ORG_HEADS, "C"), (TITLES, "T"),
                         (_PARTICLES, "P"), (_SUFFIXES, "X")):
        for word in group:
            classes[word] = label
    place_first: dict[str, list[tuple[str, ...]]] = {}
    city_single: set[str] = set()
    for name in places():
        tokens = tuple(_place_key(t) for t in re.split(r"[\s\-]+", name) if t)
        if len(tokens) == 1:
            city_single.add(tokens[0])
        elif tokens:
            place_first.setdefault(tokens[0], []).append(tokens)
    hard = stop | english | _NEVER | ORG_HEADS | TITLES | _PLACE_HEADS | {
        _place_key(p) for p in ("Acre", "Alagoas", "Amapá", "Amazonas", "Bahia", "Ceará",
                                "Goiás", "Maranhão", "Paraná", "Paraíba", "Pará",
                                "Pernambuco", "Piauí", "Rondônia", "Roraima", "Sergipe",
                                "Tocantins")}
    foreign = frozenset(name for name, frequency in foreign_given_names().items()
                        if frequency < FOREIGN_WORD_MAX and name not in hard)
    foreign_first = frozenset(name for name in _foreign_first_names()
                              if name in foreign and words.get(name, 0) < SOFT_MAX)
    return _Lexicon(
        classes, words, given, known_surnames, frozenset(hard),
        {k: tuple(sorted(v, key=lambda p: (-len(p), p))) for k, v in place_first.items()},
        frozenset(city_single), foreign, foreign_first,
        frozenset(name for name in foreign_surnames() if name not in hard))


@cache
def _foreign_first_names() -> frozenset[str]:
    """Foreign given names that are rare English words (``Kevin``, ``Linus``, not ``Mark``):
    before an unknown word they make a name without a cue (Linus Torvalds)."""
    return frozenset(name for name, frequency in foreign_given_names().items()
                     if frequency < FOREIGN_FIRST_EN_MAX)


@cache
def _name_words() -> frozenset[str]:
    """Folded given names and surnames: the prefilter's cheap test of a trigger hit."""
    return frozenset(given_names()) | surnames()


@lru_cache(maxsize=1 << 16)
def _is_name_word(word: str) -> bool:
    """The word, or a part of it between hyphens or apostrophes, is a known name."""
    names = _name_words()
    if fold_name(word) in names:
        return True
    return any(len(p) > 1 and fold_name(p) in names for p in re.split(r"['’-]", word))


def _is_foreign_pair(first: str, last: str) -> bool:
    """A foreign given name before a foreign surname, or, if it is a rare English word,
    before any word (a superset of what _mark_context reads as a name)."""
    key = fold_name(first)
    return key in _foreign_first_names() or (
        key in foreign_given_names() and fold_name(last) in foreign_surnames())


@lru_cache(maxsize=1 << 16)
def _is_cued_name_word(word: str) -> bool:
    """A known name, or a foreign given name (a name next to a person cue)."""
    return _is_name_word(word) or fold_name(word) in foreign_given_names()


@lru_cache(maxsize=1 << 16)
def _is_any_name_word(word: str) -> bool:
    """A name of any list: a given name or surname, Brazilian or foreign."""
    return _is_cued_name_word(word) or fold_name(word) in foreign_surnames()


@lru_cache(maxsize=1 << 16)
def _is_foreign_word(word: str) -> bool:
    """A common word of English (or of computing) that no Portuguese text uses: common
    by :func:`recognizers.lexicon.is_common_word`, rarer than LEXICON_MIN in Portuguese
    (``Public``, ``License``, ``Sun``, not ``Geral``)."""
    from recognizers.lexicon import is_common_word

    return is_common_word(word) and _lexicon().words.get(fold_name(word), 0) < LEXICON_MIN


#: Words meaning "anonymous" or "unknown author", folded: a word one slip away from one
#: of them (a letter changed, missing, added or two swapped), or cut short to at least
#: ANONYMOUS_PREFIX letters, or its letters shuffled after the first two, is no name
#: (``-- Anomino``, ``-- Anôn.``).
_ANONYMOUS: Final = ("ANONIMO", "ANONIMA", "ANONYMOUS", "ANONYME", "ANONIMOUS", "ANONIMUS")
ANONYMOUS_PREFIX: Final = 4


def _one_slip(word: str, target: str) -> bool:
    """``word`` is ``target`` with one letter changed, missing, added, or two neighbours
    swapped (Damerau-Levenshtein distance at most 1)."""
    if word == target:
        return True
    m, n = len(word), len(target)
    if abs(m - n) > 1:
        return False
    k = next((q for q in range(min(m, n)) if word[q] != target[q]), min(m, n))
    if m == n:
        return word[k + 1:] == target[k + 1:] or (
            k + 1 < m and word[k] == target[k + 1] and word[k + 1] == target[k]
            and word[k + 2:] == target[k + 2:])
    return word[k + 1:] == target[k:] if m > n else word[k:] == target[k + 1:]


@lru_cache(maxsize=1 << 12)
def _anonymous(key: str) -> bool:
    """The folded word means "anonymous", maybe misspelt or cut short (see _ANONYMOUS)."""
    return len(key) >= ANONYMOUS_PREFIX and any(
        target.startswith(key) or (len(key) >= 6 and (
            _one_slip(key, target) or (key[:2] == target[:2] and sorted(key) == sorted(target))))
        for target in _ANONYMOUS)


# ---------------------------------------------------------------- the recognizer

#: Classes of words that may make up a name: given name, surname, unknown word,
#: initial, soft (rare) ordinary word.
_NAMEISH: Final = frozenset("GSUIw")
_IN_RUN: Final = frozenset("GSUIPXw")


class _Token(NamedTuple):
    """A word of the text as name runs read it (a named tuple: one is made per word, and
    a frozen dataclass's ``__init__`` costs twice a tuple's)."""

    start: int
    end: int
    text: str
    key: str
    cls: str


class PersonRecognizer(EntityRecognizer):
    """People's names (entity ``PERSON``) from word lists; see the module docstring."""

    CLASS_CACHE_SIZE: Final = 200_000
    #: ``analyze`` takes the prefilter's hits and reads only the runs next to them.
    takes_hits: Final = True

    def __init__(self, supported_language: str = "pt", name: str | None = None) -> None:
        super().__init__(supported_entities=[ENTITY], supported_language=supported_language,
                         name=name or type(self).__name__)
        self._classes: dict[str, str] = {}
        self._person_values: dict[str, bool] = {}

    def load(self) -> None:
        """Nothing to load up front: the word data is read on first use."""

    # -- word classes

    def classify(self, token: str) -> str:
        """The class of one word of a run (see the module docstring); cached."""
        cls = self._classes.get(token)
        if cls is None:
            cls = self._classify(token)
            if len(self._classes) >= self.CLASS_CACHE_SIZE:
                self._classes.clear()
            self._classes[token] = cls
        return cls

    def _classify(self, token: str) -> str:
        if token.islower():
            return "P" if token in _LOWER_PARTICLES else "c"
        if token.endswith("."):
            return "C" if fold_name(token[:-1]) in ORG_HEADS else "I"  # R. das Flores
        if ("ç" in token or "Ç" in token) and token.lower() == "março":
            return "C"  # folds to the given name Marco
        if len(token) == 1:
            return "C"  # a bare capital letter (spaced headings: M E N T A)
        lexicon = _lexicon()
        key = fold_name(token)
        cls = lexicon.classes.get(key)
        if cls is not None:
            if cls == "P" and not token.isupper() and token not in ("Da", "De", "Do", "Das",
                                                                      "Dos"):
                return "C"  # (inside a name, see _INNER_PARTICLES)
            if cls == "G" and key in lexicon.city_single and lexicon.given.get(
                    key, 0) < CITY_NAME_MIN:
                return "p"
            if cls == "C" and lexicon.words.get(key, 0) < SOFT_MAX and key not in lexicon.hard:
                return "w"
            return cls
        if "-" in token or "'" in key:
            if token.isupper() and any(len(x) <= 2 for x in token.split("-")):
                return "C"  # CAU-DF, CREA-SP
            if _LOWER_AFTER_HYPHEN.search(token) and not re.search(r"-d[aeo]s?-", token):
                return "C"  # Infra-estrutura, Procurador-geral
            if _CLITIC.match(token):
                return "C"  # Trata-se
            parts = [self.classify(x) for x in re.split(r"['’-]", token) if len(x) > 1]
            if "-" in token and any(x in "CTw" for x in parts):
                return "C"  # Ex-Presidente
            if any(x in "GS" for x in parts):
                return "S"
            if parts and all(x in "CTP" for x in parts):
                return "C"
        if key in lexicon.city_single:
            return "p"
        if token.isupper() and not re.search("[AEIOUY]", key):
            return "C"  # an acronym without a vowel
        if (any(ch.isupper() for ch in token[1:]) and not token.isupper()
                and not _PREFIXED_SURNAME.match(token)):
            return "C"  # camelCase, but McIntyre, MacKenzie, DeVito
        if _anonymous(key):
            return "C"  # Anônimo misspelt or cut short (Anomino, Anonimo., Anôn)
        return "U"

    # -- context

    def _previous(self, text: str, position: int) -> tuple[str, str]:
        """The two words before ``position`` on its line, folded ("" when none)."""
        segment = text[max(0, position - PREVIOUS_CHARS):position]
        newline = max(segment.rfind("\n"), segment.rfind("\r"))
        if newline >= 0:
            segment = segment[newline + 1:]
        match = _PREVIOUS.search(segment)
        if match is None:
            return "", ""
        before = _LETTERS.findall(segment, 0, match.start(1))
        return fold_name(match.group(1)), (fold_name(before[-1]) if before else "")

    # -- analysis

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None,
                hits: Sequence[tuple[int, int, str]] | None = None,
                ) -> list[RecognizerResult]:
        """Names in ``text``; see the module docstring.  ``hits``: where the prefilter's
        triggers hit ``text`` (start, end, trigger name), when the engine analyses only
        the windows around them: then only what the hits point at is read."""
        if ENTITY not in entities:
            return []
        return [make_result(self, ENTITY, start, end, score=score, pattern_name=why)
                for start, end, score, why in self.spans(text, hits)]

    def spans(self, text: str, hits: Sequence[tuple[int, int, str]] | None = None,
              ) -> list[tuple[int, int, float, str]]:
        """``(start, end, score, reason)`` of every name, disjoint and sorted.

        With ``hits`` (see :meth:`analyze`), the cost follows the candidates, not the
        length of the windows around them:

        * a run of capitalised words is read only within HIT_SLACK characters of a hit
          of a trigger other than the name key's and the header's: each of those
          matches part of the run a finding lies in (a pair of its words, the capital
          after a title, an article or a dash, a speaker's label) or the verb of
          saying right after it.  A pair whose words hold no given name or surname,
          nor two initials, counts for nothing (its accept refuses it: a region lets it
          join unasked; an SAP log's ``ALEREMOTE  MIGO BZY`` by a ``Sun Nov`` date);
        * a name key's value, a header's and a citation are looked for only on the
          lines their own trigger hit (none of them spans a line break, and each
          match of them holds a hit of its trigger).
        """
        if hits is None:
            found = self._chain_spans(text, None)
            found.extend(self._citations(text))
            found.extend(self._key_values(text))
            found.extend(self._headers(text))
            return _merge(found)
        found = self._chain_spans(text, _near([
            (first, last) for first, last, name in hits
            if name not in _WINDOW_TRIGGERS
            and (name != "pair" or _pair_words_may_name(text[first:last]))]))
        for kind, finder in (("name key", self._key_values), ("header", self._headers),
                             ("citation", self._citations)):
            for start, end in _hit_lines(text, [first for first, _, name in hits
                                                if name == kind]):
                found.extend(finder(text, start, end))
        return _merge(found)

    def _chain_spans(self, text: str, near: list[tuple[int, int]] | None,
                     ) -> list[tuple[int, int, float, str]]:
        """Names found in the runs of capitalised words (those touching ``near`` only,
        when given: sorted, disjoint windows)."""
        found: list[tuple[int, int, float, str]] = []
        index = 0
        for start, chain in _chains(text, near):
            if near is not None:
                end = start + len(chain)
                while index < len(near) and near[index][1] <= start:
                    index += 1
                if index == len(near) or near[index][0] >= end:
                    continue
            self._chain(text, start, chain, found, None)
        return found

    def _tokens(self, base: int, chain: str) -> list[_Token]:
        return [_Token(base + m.start(), base + m.end(), m.group(), fold_name(m.group()),
                       self.classify(m.group())) for m in _TOKENS.finditer(chain)]

    def _chain(self, text: str, base: int, chain: str,
               found: list[tuple[int, int, float, str]] | None,
               singles: list[tuple[int, int]] | None) -> None:
        if _in_agent_comment(text, base, base + len(chain)):
            return  # Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)
        tokens = self._tokens(base, chain)
        while tokens and _EMAIL_GLUED.match(text, tokens[-1].end):
            # The local part of an address after the name, a column away ("Ralf
            # Wildenhues <tab>Ralf.Wildenhues@gmx.de"): the address's, not the name's.
            tokens.pop()
        if not tokens or (len(tokens) == 1 and tokens[0].cls not in "GSUwC"):
            return
        if _long_option(text, base, chain):
            return  # less --help: "--HILITE-SEARCH"
        if _in_work_title(text, base):
            return
        classes = [t.cls for t in tokens]
        lexicon = _lexicon()
        if any(t.key.replace("'", "") in lexicon.place_first or t.text == "S." for t in tokens):
            self._mark_places(text, tokens, classes)
        previous = self._previous(text, base)
        _mark_context(text, tokens, classes, previous[0])
        n = len(tokens)
        i = 0
        lead = ""  # the cue a leading word of the chain lends the run after it
        if n > 1 and tokens[0].key in SPEECH_BEFORE:
            # Segundo Kevin Mitnick, ...; Morre Thiemo Seufer
            i, lead = 1, "life" if tokens[0].key in LIFE_VERBS else "speech"
        elif n > 1 and tokens[0].text in _CAPITAL_ARTICLES:
            lead = "article"  # O Manuel chega
        while i < n:
            if i == 0:
                b1, b2 = previous
                b1_cls = "T" if b1 in TITLES else ""
            else:
                b1, b2, b1_cls = tokens[i - 1].key, (tokens[i - 2].key if i > 1
                                                     else previous[0]), classes[i - 1]
            if i == 0:
                cue = self._cue_before(text, tokens, b1, b1_cls)
            else:
                cue = lead if i == 1 and lead else "role" if b1_cls == "T" else ""
            saved = classes[i]
            span: tuple[int, bool] | None = None
            for lending, naming in ((True, True), (False, True), (False, False)):
                # First with what a pending cue lends the run (the words an attribution
                # holds, a foreign given name), then, while it is not confirmed, without.
                lend = lending and cue == "attribution?"
                foreign = naming and self._foreign_here(text, tokens, i, saved, cue)
                if foreign:
                    classes[i] = "G"  # a foreign given name next to a person cue
                span = self._run(tokens, classes, i, b1, b1_cls, lend=lend)
                confirmed = "" if span is None else self._cue_confirmed(text, tokens, cue,
                                                                         span[0])
                if (not foreign or confirmed in _FOREIGN_CUES) and (
                        not lend or confirmed == "attribution"):
                    break
                classes[i] = saved
            cue = confirmed
            if span is None:
                i += 1
                continue
            j, honor = span
            if j - i <= MAX_RUN and not self._after_org(tokens, classes, i, previous):
                self._decide(text, tokens, classes, i, j, b1=b1, b2=b2, b1_cls=b1_cls,
                             honor=honor, found=found, singles=singles, cue=cue)
            i = j

    def _foreign_here(self, text: str, tokens: list[_Token], i: int, cls: str,
                      cue: str) -> bool:
        """tokens[i], of class ``cls``, is a foreign given name next to a person cue: any
        cue for a word that is no ordinary Portuguese word (``Kevin``), an attribution or
        a speaker's label for a rarer ordinary one (``-- Bill Gates``)."""
        lexicon = _lexicon()
        key = tokens[i].key
        if cls not in "CwUp" or key not in lexicon.foreign:
            return False
        if cls == "C" and (cue not in _LABEL_CUES
                           or lexicon.words.get(key, 0) > FOREIGN_WORD_PT_MAX):
            return False
        return cue in _FOREIGN_CUES or bool(self._speech_after(text, tokens[-1].end))

    @staticmethod
    def _run(tokens: list[_Token], classes: list[str], i: int, b1: str, b1_cls: str, *,
             lend: bool = False) -> tuple[int, bool] | None:
        """Where the run of name words starting at tokens[i] ends, and whether an
        honorific (or, with ``lend``, an attribution before a given name or surname)
        stands before it, lending the run its capitalised ordinary words; None when no
        run starts there."""
        n = len(tokens)
        c = classes[i]
        hard = _lexicon().hard
        honor = ((lend and c in "GS") or (
            b1 in HONORIFICS and b1_cls in ("T", "") and c != "P"
            and (c in "GSUw" or (c == "C" and i + 1 < n and classes[i + 1] in "GSUw"))))
        if c not in _IN_RUN and not (honor and c == "C" and tokens[i].key not in hard
                                     and tokens[i].text[0].isupper()):
            return None
        j = _run_end(tokens, classes, i, honor, hard)
        if honor and (j - i > MAX_RUN or _foreign_phrase(tokens, classes, i, j)):
            # An honorific lends its capitalised words to a name of at most MAX_RUN
            # words; a longer run is read as if no honorific stood before it.  So is a
            # run of English words that are no names (``General Public License``,
            # ``General Motors``): ``General`` there is an adjective, not a rank.
            honor = False
            if c not in _IN_RUN:
                return None
            j = _run_end(tokens, classes, i, honor, hard)
        return j, honor

    @staticmethod
    def _cue_before(text: str, tokens: list[_Token], b1: str, b1_cls: str) -> str:
        """The person cue before the chain's first run, as far as the text before it
        tells: ``life``, ``speech``, ``article``, ``role``, "", or one that what follows
        the run must confirm (_cue_confirmed): ``attribution?``, ``dash?``, ``speaker?``."""
        start = tokens[0].start
        line = _line_before(text, start, 64)
        dash = _LINE_START_DASH.search(line) if line is not None else None
        if line is not None and dash is not None and (
                len(tokens) > 1 or len(dash.group("dash")) > 1
                or not line.endswith(dash.group("dash"))):
            # A single dash glued to a single word is a command's option (-Onível).
            return "attribution?"
        if _SPACED_DOUBLE_DASH.search(text, max(0, start - 12), start):
            return "attribution?"
        if _SENTENCE_DASH.search(text, max(0, start - 16), start):
            return "dash?"  # weaker: the dash of a list's item may follow a full stop
        if line is not None and _SPEAKER_BEFORE.match(line):
            return "speaker?"
        if b1 in LIFE_VERBS:
            return "life"
        if b1 in SPEECH_BEFORE:
            return "speech"
        if b1_cls == "T" or b1 in TITLES:
            return "role"
        if b1 in ARTICLES and _ARTICLE_BEFORE.search(text, max(0, start - 8), start):
            return "article"
        return ""

    def _cue_confirmed(self, text: str, tokens: list[_Token], cue: str, j: int) -> str:
        """``cue`` once what follows the run tokens[i:j] is read: an attribution ends its
        line (or is followed by a comma or a parenthesis) and is no item of a list or a
        dialogue; a speaker's label is followed by a colon in a dialogue; a verb of
        saying right after the run is a cue of its own."""
        end = tokens[j - 1].end
        if cue == "attribution?":
            if j == len(tokens) and not _in_list(text, tokens[0].start, end):
                if _ATTRIBUTION_END.match(text, end):
                    return "attribution"
                if _LOWER_WORD_AFTER.match(text, end):
                    return "dash"  # -- Bill Gates sobre o marketing
            cue = ""
        elif cue == "dash?":
            cue = "dash" if j == len(tokens) and _ATTRIBUTION_END.match(text, end) else ""
        elif cue == "speaker?":
            if j == len(tokens) and _SPEAKER_COLON.match(text, end) \
                    and _in_dialogue(text, tokens[0].start, end):
                return "speaker"
            cue = ""
        if not cue and j == len(tokens):
            return self._speech_after(text, end)
        return cue

    @staticmethod
    def _speech_after(text: str, end: int) -> str:
        """``speech`` or ``life`` when a verb of saying or of a life's event follows
        ``end`` (``Kevin Mitnick disse``, ``Clytie Siddall morreu``), else ""."""
        match = _SPEECH_AFTER.match(text, end)
        if match is None or not match.group(1).islower():
            return ""
        verb = fold_name(match.group(1))
        return "life" if verb in LIFE_VERBS else "speech" if verb in SPEECH_VERBS else ""

    @staticmethod
    def _after_org(tokens: list[_Token], classes: list[str], i: int,
                   previous: tuple[str, str]) -> bool:
        """A company, street or public-body head among the words just before the run (a
        head word read as a surname is none)."""
        keys = [t.key for t, c in zip(tokens[max(0, i - CONTEXT_TOKENS):i],
                                      classes[max(0, i - CONTEXT_TOKENS):i], strict=True)
                if c != "S"]
        if i < CONTEXT_TOKENS:
            keys.insert(0, previous[0])
        if any(key in _STREET_HEADS for key in keys):
            return True  # Rua Dona Ana Néri is a street (the address recognizer's)
        for key in reversed(keys):
            if key in TITLES:
                return False
            if key in ORG_HEADS:
                return True
        return False

    def _mark_places(self, text: str, tokens: list[_Token], classes: list[str]) -> None:
        lexicon = _lexicon()
        # S. Paulo is São Paulo.
        keys = ["SAO" if t.text == "S." else t.key.replace("'", "") for t in tokens]
        n = len(tokens)
        # Each phrase is judged on the words' own classes, not on what an earlier phrase
        # made of them, so that the decision stays local.
        own = list(classes)
        for i in range(n):
            hit = 0
            for phrase in lexicon.place_first.get(keys[i], ()):
                if tuple(keys[i:i + len(phrase)]) == phrase:
                    hit = len(phrase)
                    break
            if not hit:
                continue
            person_like = own[i] in "GS" and all(c in "GSPXU" for c in own[i:i + hit])
            inside = (i > 0 and own[i - 1] in "GSUI") or (i + hit < n and own[i + hit] in "GSUI")
            if i == 0:
                p1, p2 = self._previous(text, tokens[0].start)
            else:
                p1, p2 = keys[i - 1], (keys[i - 2] if i > 1 else "")
            cue = p1 in _PLACE_CUES or (p1 in ("DE", "DO", "DA") and p2 in _PLACE_CUES)
            after = text[tokens[i + hit - 1].end:tokens[i + hit - 1].end + 6]
            state = re.match(r"[ \t]*[/\-(][ \t]*([A-Z]{2})\b", after)
            city = tuple(keys[i:i + hit]) in _PERSON_SHAPED_CITIES and not inside and not (
                p1 in TITLES or (i > 0 and own[i - 1] == "T"))
            if cue or city or (state is not None and state.group(1) in _STATES) or not (
                    person_like or inside):
                for q in range(i, i + hit):
                    classes[q] = "p"

    def _decide(self, text: str, tokens: list[_Token], classes: list[str], i: int, j: int, *,
                b1: str, b2: str, b1_cls: str, honor: bool,
                found: list[tuple[int, int, float, str]] | None,
                singles: list[tuple[int, int]] | None, cue: str = "") -> None:
        """Decide on the run tokens[i:j] of name-words, ``cue`` the person cue around it
        (see _cue_before and _cue_confirmed)."""
        lexicon = _lexicon()
        seg = list(range(i, j))
        # A leading particle or suffix is no part of a name, unless the suffix is a
        # given name too (JUNIOR GEOVANI FARIA).
        while seg and (classes[seg[0]] == "P" or (
                classes[seg[0]] == "X"
                and lexicon.given.get(tokens[seg[0]].key, 0) < CITY_NAME_MIN)):
            seg.pop(0)
        while seg and classes[seg[-1]] == "P":
            seg.pop()
        if len(seg) > 2 and _org_after_particle(text, tokens, classes, seg):
            # Frédéric Couchet da April.org, Orion da Marvell: a person (or a product)
            # of an organisation, not a name with a particle.
            seg = seg[:-2]
            while seg and classes[seg[-1]] == "P":
                seg.pop()
        if not seg:
            return
        role = (b1_cls == "T" or b1 in TITLES or (b1 == "POR" and b2 in BY_CUES)
                or cue in ("speech", "life", "speaker", "dash"))
        cs = [classes[q] for q in seg]
        anchors = sum(1 for c in cs if c in "GS")
        if "w" in cs and not honor and cue not in _STRONG_CUES and not any(
                classes[q] in "GS" and self._pure(tokens[q].key) for q in seg):
            # Without a name that is no ordinary word, rare ordinary words split the run.
            parts: list[list[int]] = [[]]
            for q in seg:
                if classes[q] == "w":
                    parts.append([])
                else:
                    parts[-1].append(q)
            for part in parts:
                if part:
                    at = part[0]
                    self._decide(text, tokens, classes, at, part[-1] + 1,
                                 b1=tokens[at - 1].key if at > 0 else b1, b2="",
                                 b1_cls=classes[at - 1] if at > 0 else b1_cls, honor=False,
                                 found=found, singles=singles)
            return
        if not honor:
            # Ordinary words only inside a name: trim them off its end.
            while seg and classes[seg[-1]] in "wP" and anchors:
                if classes[seg[-1]] == "w" and any(classes[q] in "GS" for q in seg[:-1]):
                    break
                seg.pop()
            cs = [classes[q] for q in seg]
        if not seg:
            return
        if (len(seg) == 2 and cs == ["U", "G"] and not (honor or role) and cue != "attribution"
                and tokens[seg[0]].key not in lexicon.foreign
                and _only_given(tokens[seg[1]].key)):
            # A given name comes first: one that is a given name everywhere and a
            # surname nowhere, after an unknown word and ending the run, is a word of a
            # product's or a place's name (Debian Edu, Banja Luka; not Walt Disney,
            # Anatole France: those are surnames abroad, given names in Brazil only).
            return
        if _english_phrase(tokens, seg):
            return  # PRESS ANY KEY, Nice Try: English words, whatever the cue
        names = sum(1 for c in cs if c in _NAMEISH or (honor and c == "C"))
        start, end = tokens[seg[0]].start, tokens[seg[-1]].end
        first = tokens[seg[0]].key
        if (first in _PLACE_HEADS and len(seg) > 1) or _ORG_TAIL.match(text, end):
            return
        if not (honor or role) and len(seg) > 1 and (
                _VERSION_AFTER.match(text, end) or (
                    cue not in _STRONG_CUES and _product_head(tokens[seg[-1]].text))):
            return  # Claude Code, Claude Opus 5.5: a product's name
        if len(seg) > 2 and tokens[seg[-1]].key in _COUNTRIES and tokens[seg[-2]].key in (
                "DO", "DA"):
            return  # FUJIFILM do Brasil
        initials = next((k for k, c in enumerate(cs) if c != "I"), len(cs))
        life = cue == "life" and len(seg) <= 3 and all(
            c in "Uw" and _TITLE_CASE.match(tokens[q].text) for q, c in zip(seg, cs, strict=True))
        if names >= 2 and (anchors >= 1 or honor or role or cue == "attribution"
                           or (initials >= 2 and initials == len(cs) - 1)):
            unanchored = not (honor or life or initials >= 2 or cue == "attribution")
            if anchors == 0 and unanchored and (
                    not all(tokens[q].text.isupper() for q in seg) or cs.count("U") < 2):
                return
            if found is not None:
                found.append((start, end, FULL_SCORE if anchors else TITLE_SCORE,
                              "full name" if anchors else cue or "after a title"))
            return
        if len(seg) == 1 and cs[0] in "GSUw":
            # After a role word, a frequent given name is a person even when a town
            # bears it too (Olá, Carolina).
            if (honor and cs[0] != "w") or (role and cs[0] in "GS" and (
                    first not in lexicon.city_single
                    or lexicon.given.get(first, 0) >= CITY_NAME_MIN)):
                if found is not None:
                    found.append((start, end, TITLE_SCORE, cue or "after a title"))
            elif cue == "attribution" or (
                    cue == "article" and cs[0] == "G" and self._pure(first)
                    and first not in lexicon.city_single
                    and _TITLE_CASE.match(tokens[seg[0]].text)):  # not an acronym (pela IANA)
                if found is not None:
                    found.append((start, end, TITLE_SCORE, cue))
            elif singles is not None and cs[0] != "w" and not _heads_compound(
                    text, tokens, classes, seg[0]):
                singles.append((start, end))

    @staticmethod
    def _pure(key: str) -> bool:
        """A given name or surname that is no ordinary word (Raimundo, not Norma)."""
        lexicon = _lexicon()
        frequency = lexicon.words.get(key, 0)
        count = lexicon.given.get(key, 0)
        if count and count < 1000 and key not in lexicon.surnames:
            return False  # rare given names anchor no ordinary word
        return frequency <= LEXICON_MIN or count >= 100 * frequency

    def _citations(self, text: str, pos: int = 0,
                   endpos: int | None = None) -> list[tuple[int, int, float, str]]:
        found = []
        for match in _every_match(_CITATION, text, pos, endpos):
            left = [self.classify(t) for t in _TOKENS.findall(match.group("left"))]
            right_tokens = list(_TOKENS.finditer(match.group("right")))
            right = [self.classify(t.group()) for t in right_tokens]
            if not all(c in "GSUPXw" for c in left) or not any(c in "GSUw" for c in left):
                continue
            if right[0] not in "GI":
                continue
            k = 1
            while (k < len(right) and right[k] in "GSUIPXw"
                   and fold_name(right_tokens[k].group()) not in _lexicon().hard):
                k += 1
            end = match.start("right") + right_tokens[k - 1].end()
            found.append((match.start(), end, TITLE_SCORE, "citation"))
        return found

    def _key_values(self, text: str, pos: int = 0,
                    endpos: int | None = None) -> list[tuple[int, int, float, str]]:
        """Name keys' values, plain and in form data, in ``text[pos:endpos]``."""
        found = self._values(_from_keys(_KEY_VALUE, text, pos, endpos))
        found.extend(self._form_values(text, pos, endpos))
        return found

    def _headers(self, text: str, pos: int = 0,
                 endpos: int | None = None) -> list[tuple[int, int, float, str]]:
        """The names of e-mail and git headers in ``text[pos:endpos]``."""
        return self._values(_HEADER.finditer(text, pos, len(text) if endpos is None else endpos))

    def _values(self, matches: Iterable[re.Match[str]]) -> list[tuple[int, int, float, str]]:
        found = []
        for match in matches:
            value = match.group("v").rstrip()
            if self._names_a_person(value):
                start = match.start("v")
                found.append((start, start + len(value), KEY_SCORE, "name key"))
        return found

    def _names_a_person(self, value: str) -> bool:
        """The whole value of a name key is a person's name.  Remembered per value (a
        Windows event log's ``<Data Name="TargetUserName">`` on every record: a fifth of
        its time went to reading the same few values again)."""
        known = self._person_values.get(value)
        if known is None:
            if len(self._person_values) >= self.VALUES_REMEMBERED:
                self._person_values.clear()
            known = self._person_values[value] = self._value_names_a_person(value)
        return known

    #: How many values' answers _names_a_person keeps (then it starts over).
    VALUES_REMEMBERED: Final = 4_096

    def _value_names_a_person(self, value: str) -> bool:
        tokens = _TOKENS.findall(value)
        if not tokens or len(tokens) > MAX_RUN:
            return False
        cs = [self.classify(t) for t in tokens]
        if any(c in "cp" for c in cs) or not any(c in "GS" for c in cs):
            return False
        if len(tokens) > 1 and (_VERSION_IN.search(value) or _product_head(tokens[-1])):
            return False  # Co-Authored-By: Claude Opus 5.5 <...>: a product
        return sum(1 for c in cs if c == "C") <= len(tokens) // 2

    def _form_values(self, text: str, pos: int = 0,
                     endpos: int | None = None) -> list[tuple[int, int, float, str]]:
        """A name key's value in a query string or form data (``?nome=Maria+Souza&x=1``,
        ``nome=Jo%C3%A3o%20Silva``), read decoded; the finding covers it as written."""
        if "=" not in text:
            return []
        return [(*match.span("v"), KEY_SCORE, "name key")
                for match in _from_keys(_FORM_VALUE, text, pos, endpos)
                if self._form_value_names(text, match)]

    def _form_value_names(self, text: str, match: re.Match[str]) -> bool:
        """A match of _FORM_VALUE in ``text`` is form data whose value names a person."""
        from recognizers._escapes import decode_span

        start, end = match.span("v")
        encoded = "+" in match.group("v") or "%" in match.group("v")
        in_query = (text.startswith("&", end)
                    or (match.start() > 0 and text[match.start() - 1] in "?&"))
        if not (encoded or in_query):
            return False  # the plain key-value pattern reads it
        decoded = decode_span(text, start, end, plus_is_space=True)[0].strip()
        return _NOT_IN_NAME_VALUE.search(decoded) is None and self._names_a_person(decoded)

    # -- what the engine asks about names found in full

    def propagation_keys(self, name: str) -> set[str]:
        """Folded words of ``name`` (a finding) to redact where they stand alone.

        The given name (the first word, after a citation's comma and past titles,
        initials and particles) when it is a given name or surname that is no ordinary
        word, and the rarer surnames; never a title, particle, place or ordinary word
        (``Norma``, ``Clara``, ``Costa``).
        """
        head, comma, tail = name.partition(",")
        tokens = _TOKENS.findall(tail) + _TOKENS.findall(head) if comma else _TOKENS.findall(name)
        lexicon = _lexicon()
        keys: set[str] = set()
        first = True
        for token in tokens:
            cls = self.classify(token)
            key = fold_name(token)
            if first and cls in "TIPX":
                continue
            if key in lexicon.city_single or key in lexicon.hard:
                first = False
                continue
            rare = cls in "SU" and len(key) > 3 and lexicon.words.get(key, 0) <= LEXICON_MIN
            frequency = lexicon.words.get(key, 0)
            ordinary = frequency > LEXICON_MIN and lexicon.given.get(key, 0) < 100 * frequency
            if (first and cls in "GS" and not ordinary) or rare:
                keys.add(key)
            first = False
        return keys

    def standalone(self, text: str, keys: set[str],
                   taken: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
        """Where a word of ``keys`` (folded) stands alone as a name in ``text``: a single
        name-like word, not part of a place, a company or a longer run of capitalised
        words.  Only the text around the occurrences is read; occurrences inside the
        sorted spans ``taken`` (names already found) are skipped.  A word that stands
        alone more than SPREAD_RATIO times as often as the names in ``taken`` hold it
        (once, when none does) is a word of the text, not a person's: it is left alone."""
        from recognizers.lexicon import is_common_word
        from recognizers.username import name_spans

        starts = [s for s, _ in taken]
        # An acronym (``ISA``) is not the given name ``Isa`` unless a name holding it
        # was written in capitals too (``ISA RAMOS``); a word of the language alone
        # (``This``, ``Java``) is a word, not a name.
        caps = {fold_name(word) for s, e in taken if text[s:e].isupper()
                for word in text[s:e].split()}
        keys = {k for k in keys if not is_common_word(k)}
        occurrences = []
        for s, e in name_spans(text, {k.lower() for k in keys}):
            index = bisect_right(starts, s) - 1
            written = text[s:e]
            if text[s].isupper() and not (index >= 0 and taken[index][1] >= e) \
                    and (e - s < 2 or not written.isupper() or fold_name(written) in caps):
                occurrences.append((s, e))
        if not occurrences:
            return []
        found: list[tuple[int, int]] = []
        # One window per group of nearby occurrences; a decision reads at most MARGIN
        # characters around a word, so the windows decide as the whole text would.
        lo, hi = occurrences[0]
        groups: list[tuple[int, int]] = []
        for start, end in occurrences[1:]:
            if start - hi > 2 * MARGIN:
                groups.append((lo, hi))
                lo = start
            hi = end
        groups.append((lo, hi))
        wanted = set(occurrences)
        for lo, hi in groups:
            begin, stop = max(0, lo - MARGIN), min(len(text), hi + MARGIN)
            window = text[begin:stop]
            singles: list[tuple[int, int]] = []
            for start, chain in _chains(window):
                self._chain(window, start, chain, None, singles)
            found.extend((begin + s, begin + e) for s, e in singles
                         if (begin + s, begin + e) in wanted)
        found = [(s, e) for s, e in found if not self._figure_word_before(text, s)]
        return _spread_bounded(text, _spread_near(text, found, taken), taken)

    def _figure_word_before(self, text: str, start: int) -> bool:
        """A lone name right after a capitalised ordinary word inside a sentence
        (``Até Papai Noel``, ``o Tio Patinhas``): the pair names a figure or a work, not
        the person found in full elsewhere; a title or role word, a form of address
        (``Seu``, ``Dom``) or a sentence's first word is no such word."""
        match = _LONE_WORD_BEFORE.search(text, max(0, start - PREVIOUS_CHARS), start)
        if match is None or not match.group("word")[0].isupper():
            return False
        word = match.group("word")
        if fold_name(word) in _ADDRESS_FORMS or self.classify(word) not in "Cw":
            return False
        head = text[max(0, match.start() - PREVIOUS_CHARS):match.start()].rstrip(" \t")
        return bool(head) and head[-1].isalpha() and head[-1].islower()

    # -- prefilter

    def _key_may_name(self, text: str, start: int, end: int) -> bool:
        """A name key's hit holds a person's name: the key's value, as _key_values reads
        it from that key (maybe from the quote before it), names one.  An XML element's
        ``Name="SubjectUserName"`` opens no window."""
        begins = (start - 1, start) if start and text[start - 1] in "\"'" else (start,)
        for begin in begins:
            plain = _KEY_VALUE.match(text, begin)
            if plain is not None and self._names_a_person(plain.group("v").rstrip()):
                return True
        form = _FORM_VALUE.match(text, start)
        return form is not None and self._form_value_names(text, form)

    def _title_may_name(self, text: str, start: int, end: int) -> bool:
        """A title hit can lead to a name: after an honorific, any capitalised word; after
        ``por``, only behind a participle (``assinado por``); after a role word, a given
        name or surname, or an ALL-CAPS unknown word (``CLIENTE XYZK WBCD``); after a verb
        of a life's event, any capitalised word.  A title glued to the capital is one
        word with it (``SRV-APP01`` holds no ``Sr``)."""
        if end >= 2 and _LETTER_AT.fullmatch(text, end - 2, end - 1) is not None:
            return False
        segment = _SEX_MARK.sub(" ", text[max(0, end - 1 - TITLE_TRIGGER_LENGTH):end - 1])
        words = _LETTERS.findall(segment)
        while words and words[-1] in _LOWER_PARTICLES:
            words.pop()
        if not words:
            return False
        title = fold_name(words[-1])
        if title in HONORIFICS or title in LIFE_VERBS:
            return True
        if title == "POR" and (len(words) < 2 or fold_name(words[-2]) not in BY_CUES):
            return False
        word = _WORD_AT.match(text, end - 1)
        if word is None:
            return False
        value = word.group()
        key = fold_name(value)
        if text.startswith(".", word.end()) or key in _PARTICLES or key in _SUFFIXES:
            return True  # an initial, a particle or a suffix: the name may follow it
        # An unknown ALL-CAPS word has two letters or more and a vowel (the word lists,
        # loaded on first use, are not needed to tell that).
        return _is_cued_name_word(value) or (value.isupper() and len(value) > 1
                                             and re.search("[AEIOUY]", key) is not None)

    def prefilter(self, threshold: float) -> Prefilter:
        """Triggers: two capitalised words, a title, role or speech word and a capitalised
        word, a name key, an e-mail or git header, a citation, an attribution's dash, a
        speaker's label, a capitalised word before a verb of saying, an article before
        a capitalised word.  A pair or citation of words that are neither given names
        nor surnames is no hit, nor a label or an article's word that is no name."""
        from recognizers.prefilter import Prefilter, Trigger

        if threshold > max(FULL_SCORE, TITLE_SCORE, KEY_SCORE):
            return Prefilter(ENTITY, ())
        return Prefilter(ENTITY, (
            Trigger(_PAIR_TRIGGER, before=REACH, after=REACH, accept=_pair_may_name,
                    name="pair"),
            # Bounded: hyperscan need not track where a hit starts (too large otherwise).
            *(Trigger(pattern, before=REACH, after=REACH, name="title", keyword=True,
                      max_length=TITLE_TRIGGER_LENGTH, accept=self._title_may_name)
              for pattern in _title_triggers()),
            Trigger(_KEY_TRIGGER, before=0, after=REACH, name="name key", alone=True,
                    accept=self._key_may_name),
            Trigger(_HEADER_TRIGGER, before=0, after=REACH, name="header", alone=True),
            Trigger(_CITATION_TRIGGER, before=REACH, after=REACH, accept=_citation_may_name,
                    name="citation"),
            *(Trigger(pattern, before=0, after=REACH, name="attribution")
              for pattern in _ATTRIBUTION_TRIGGERS),
            *(Trigger(pattern, before=0, after=REACH, accept=_speaker_may_name, name="speaker")
              for pattern in _SPEAKER_TRIGGERS),
            Trigger(_SPEECH_AFTER_TRIGGER, before=REACH, after=REACH, name="speech",
                    accept=_speech_may_follow_a_name),
            Trigger(_ARTICLE_TRIGGER, before=0, after=REACH, accept=_article_may_name,
                    name="article"),
        ), margin_before=MARGIN, margin_after=MARGIN)


#: A web domain's tail right after a word: ``April.org``, ``Bytemark.co.uk``.
_DOMAIN_AFTER: Final = re.compile(r"\.[a-z]{2,6}(?:\.[a-z]{2,6}){0,2}(?![\w@-])")
#: Particles that join a person to an organisation: ``Ana Lima da Acme``; ``de`` only
#: before a web site (``de Exemplo.com``): foreign names hold it (``Charles de Gaulle``).
_ORG_PARTICLES: Final = frozenset({"da", "do", "das", "dos", "de"})


def _org_after_particle(text: str, tokens: list[_Token], classes: list[str],
                        seg: list[int]) -> bool:
    """The run ``seg`` ends in a particle and a word that names an organisation, not a
    surname: a web site's name (``Couchet da April.org``), or after ``da``/``do`` a word
    of no name list (``Bodnar do Distrowatch``) or a common English word (``Java da
    Sun``).  Not in a name written in capitals (a form's field, where surnames unknown
    to the lists stand after particles too), nor before a known given name or surname
    (``João da Silva``, ``Maria do Carmo``)."""
    particle, last = tokens[seg[-2]], tokens[seg[-1]]
    if (classes[seg[-2]] != "P" or particle.text not in _ORG_PARTICLES
            or classes[seg[-1]] in "GS"
            or all(tokens[q].text.isupper() for q in seg if classes[q] != "P")):
        return False
    if _DOMAIN_AFTER.match(text, last.end):
        return True
    return particle.text != "de" and classes[seg[-1]] == "U" and (
        not _is_any_name_word(last.text) or _is_foreign_word(last.text))


def _heads_compound(text: str, tokens: list[_Token], classes: list[str], q: int) -> bool:
    """tokens[q] is followed, across blanks only, by a capitalised ordinary word that is
    no name of any list: it heads the name of a company or a product (``Baldwin
    Linguas``, ``Silva Transportes``; not ``Helder Camara``)."""
    following = q + 1
    return (following < len(tokens) and classes[following] in "Cw"
            and _TITLE_CASE.match(tokens[following].text) is not None
            and not _is_any_name_word(tokens[following].text)
            and text[tokens[q].end:tokens[following].start].isspace())


def _only_given(key: str) -> bool:
    """``key`` (folded) is a given name in Brazil and abroad, and a surname in no list
    (``EDU``, ``LUKA``; not ``DISNEY``, a given name in Brazil only)."""
    return (key in foreign_given_names() and key not in foreign_surnames()
            and key not in _lexicon().surnames)


def _foreign_phrase(tokens: list[_Token], classes: list[str], i: int, j: int) -> bool:
    """The words tokens[i:j] (particles aside) are all common English words that are no
    names of any list (``Public License``, not ``Young`` nor ``Sun Ramos``)."""
    words = [t.text for t, c in zip(tokens[i:j], classes[i:j], strict=True) if c != "P"]
    return bool(words) and all(_is_foreign_word(w) and not _is_any_name_word(w)
                               for w in words)


def _english_phrase(tokens: list[_Token], seg: list[int]) -> bool:
    """The words tokens[seg] are English words: each either a common English word of no
    name list or a name that is a very frequent English word (FOREIGN_WORD_MAX: ``Any``,
    ``Nice``, ``Key``), and one of them, or the capitalised word right before or after
    them, of the first kind: a phrase of English (``PRESS ANY KEY``, ``Nice Try``), not
    a name (``Mark Twain``, ``Steve Jobs``: ``Mark`` and ``Steve`` are rarer words)."""
    from recognizers.lexicon import english_frequency

    words = [tokens[q].text for q in seg if tokens[q].cls != "P"]
    around = [tokens[q].text for q in (seg[0] - 1, seg[-1] + 1)
              if 0 <= q < len(tokens) and tokens[q].cls != "P"]

    def plain(word: str) -> bool:
        return _is_foreign_word(word) and not _is_any_name_word(word)

    return all(plain(w) or english_frequency(w) >= FOREIGN_WORD_MAX for w in words) and any(
        plain(w) for w in words + around)


def _run_end(tokens: list[_Token], classes: list[str], i: int, honor: bool,
             hard: frozenset[str]) -> int:
    """Where the run of name-like words starting at ``i`` ends (before an ``E``); after an
    honorific, capitalised ordinary words that are not hard words belong to it too."""
    j = i + 1
    while j < len(tokens) and (classes[j] in _IN_RUN or (
            honor and classes[j] == "C" and tokens[j].key not in hard)):
        if tokens[j].key == "E" or tokens[j - 1].text.endswith(_POSSESSIVES):
            break  # a possessive ends the name: John Gruber's Markdown
        j += 1
    return j


#: The English possessive ending a word.
_POSSESSIVES: Final = ("'s", "’s", "'S", "’S")


#: A line at least this long, broken before a capitalised word, is prose wrapped in lines.
WRAP_MIN: Final = 40
#: How far from a prefilter hit a run of capitalised words is still read (see
#: PersonRecognizer.spans): the blanks, comma and stop between a name and the verb of
#: saying after it, with room to spare.
HIT_SLACK: Final = 8


def _near(hits: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``hits`` widened by HIT_SLACK on both sides, sorted and merged."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(hits):
        first, last = start - HIT_SLACK, end + HIT_SLACK
        if merged and first <= merged[-1][1]:
            if last > merged[-1][1]:
                merged[-1] = (merged[-1][0], last)
        else:
            merged.append((first, last))
    return merged


#: Triggers whose hits only open a window: the value or header they point at is read
#: by its own pattern (PersonRecognizer.spans), not from the runs of capitalised words.
_WINDOW_TRIGGERS: Final = frozenset({"name key", "header"})


def _hit_lines(text: str, starts: list[int]) -> list[tuple[int, int]]:
    """The lines of ``text`` holding the positions ``starts``, once each, in order: each
    ``(pos, endpos)`` with its line break included (so a pattern's look-ahead sees it)."""
    lines: list[tuple[int, int]] = []
    for start in sorted(starts):
        if lines and start < lines[-1][1]:
            continue
        first = text.rfind("\n", 0, start) + 1
        last = text.find("\n", start)
        lines.append((first, len(text) if last < 0 else last + 1))
    return lines


#: How much of the line before a line break _chains reads.
WRAP_READ: Final = 160
_FIELD_SEPARATOR: Final = re.compile(r"[;\t|]|,(?! )")
_TOKEN_START: Final = re.compile(_TOKEN)


#: The characters a run of capitalised words may hold (see _CHAIN): any other one
#: stands outside every run.
_RUN_CHARACTERS: Final = frozenset(
    [chr(c) for c in range(0x180) if re.fullmatch(_L, chr(c))]
    + [chr(c) for c in range(0x300, 0x370)] + list("'’-. \t\r\n"))
#: How far back from a window a character outside every run is looked for.
RUN_BARRIER_REACH: Final = 64


def _runs(text: str, near: Sequence[tuple[int, int]] | None) -> Iterator[re.Match[str]]:
    """The matches of _CHAIN in ``text``, left to right; with ``near`` (sorted, disjoint
    windows), those that touch a window, and maybe a few others, found without reading
    the text between windows.

    Each window's search starts after the last character before the window that no run
    may hold (a run touching the window starts after it), or where the previous
    window's search stopped: the leftmost match from such a place is the whole text's
    (no match of the whole text runs across it), so the matches are the whole text's.
    """
    if near is None:
        yield from _CHAIN.finditer(text)
        return
    position = 0
    # The leftmost match from ``position``, once searched for: kept until a window
    # reaches it, so that no stretch of text is searched twice.
    ahead: re.Match[str] | None = None
    for lo, hi in near:
        at = min(max(lo, 0), len(text))
        floor = max(position, at - RUN_BARRIER_REACH)
        while at > floor and text[at - 1] in _RUN_CHARACTERS:
            at -= 1
        if at > position and (at == 0 or text[at - 1] not in _RUN_CHARACTERS):
            position = at
            if ahead is not None and ahead.start() < at:
                ahead = None  # (no match starts between ``position`` and it)
        while True:
            if ahead is None:
                ahead = _CHAIN.search(text, position)
                if ahead is None:
                    return
            if ahead.start() >= hi:
                break
            match, ahead = ahead, None
            position = match.end()
            yield match


def _chains(text: str, near: Sequence[tuple[int, int]] | None = None
            ) -> Iterator[tuple[int, str]]:
    """Where each run of capitalised words starts, and its text (with ``near``, see
    _runs: those touching a window, and maybe a few others).  A run goes on past a
    line break only where the line is prose wrapped in lines (long, without the field
    separators of a table or a CSV file): ``escrita por Ian\\n    Murdock``, not the last
    field of one CSV record and the first of the next."""
    for match in _runs(text, near):
        start, end = match.span()
        cut = text.find("\n", start, end)
        while cut >= 0:
            line = _line_before(text, cut, WRAP_READ)
            line = (text[max(0, cut - WRAP_READ):cut] if line is None else line).rstrip()
            if len(line) >= WRAP_MIN and not _FIELD_SEPARATOR.search(line):
                cut = text.find("\n", cut + 1, end)
                continue
            # The words before the break end with a word or an initial, not a particle.
            head_end = max((m.end() for m in _TOKEN_START.finditer(text, start, cut)),
                           default=start)
            if head_end > start:
                yield start, text[start:head_end]
            rest = _TOKEN_START.search(text, cut, end)
            if rest is None:
                break
            start = rest.start()
            cut = text.find("\n", start, end)
        else:
            yield start, text[start:end]


#: A word of a name found in full stands alone at most this many times per name that
#: holds it (and per text, for words carried from elsewhere): more, and the one name
#: found is the mistake (``Debian de Março`` in a history of Debian).
SPREAD_RATIO: Final = 20


#: A lone given name this many characters or more away from every name found in full that
#: holds it stands in another item of a long text (a fortune, a log's entry).
SPREAD_NEAR: Final = 2000

#: Forms of address that are ordinary words too: a name after one is a person.
_ADDRESS_FORMS: Final = frozenset({"SEU", "SEO", "DOM", "SAO", "SANTO", "SANTA", "FREI", "VOVO",
                                   "MADRE", "SOROR"})

_LONE_WORD_BEFORE: Final = re.compile(rf"(?P<word>{_L}+)[ \t]{{1,4}}$")


def _spread_near(text: str, found: list[tuple[int, int]],
                 taken: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``found`` less the words far (SPREAD_NEAR) from every name found in full holding
    them that follow an ordinary lower-case word of no stop list (``bolacha Maria``): in
    a text of unrelated items, the word there names a thing, not that person."""
    if not found:
        return found
    lexicon = _lexicon()
    stop = _stop_words()
    holders: dict[str, list[int]] = {}
    for s, e in taken:
        for word in _LETTERS.finditer(text, s, e):
            holders.setdefault(fold_name(word.group()), []).append(word.start())
    kept: list[tuple[int, int]] = []
    for s, e in found:
        positions = holders.get(fold_name(text[s:e]), [])
        if any(abs(p - s) < SPREAD_NEAR for p in positions):
            kept.append((s, e))
            continue
        match = _LONE_WORD_BEFORE.search(text, max(0, s - PREVIOUS_CHARS), s)
        before = match.group("word") if match else ""
        key = fold_name(before)
        if before.islower() and lexicon.words.get(key, 0) >= LEXICON_MIN and key not in stop:
            continue
        kept.append((s, e))
    return kept


def _spread_bounded(text: str, found: list[tuple[int, int]],
                    taken: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``found`` (standalone words) less the words spread beyond SPREAD_RATIO."""
    spread: dict[str, int] = {}
    for s, e in found:
        key = fold_name(text[s:e])
        spread[key] = spread.get(key, 0) + 1
    crowded = {key for key, count in spread.items() if count > SPREAD_RATIO}
    if not crowded:
        return found
    evidence = dict.fromkeys(crowded, 0)
    for s, e in taken:
        for word in _LETTERS.findall(text, s, e):
            key = fold_name(word)
            if key in evidence:
                evidence[key] += 1
    dropped = {key for key in crowded if spread[key] > SPREAD_RATIO * max(1, evidence[key])}
    return [(s, e) for s, e in found if fold_name(text[s:e]) not in dropped]


def _line_before(text: str, position: int, reach: int) -> str | None:
    """The text of ``position``'s line before it, when the line starts within ``reach``
    characters (or the text does); else None."""
    low = max(0, position - reach)
    segment = text[low:position]
    cut = max(segment.rfind("\n"), segment.rfind("\r"))
    if cut >= 0:
        return segment[cut + 1:]
    return segment if low == 0 else None


def _neighbour_lines(text: str, start: int, end: int) -> tuple[str | None, str | None]:
    """The nearest non-blank lines before ``start``'s line and after ``end``'s line, read
    within LINES_READ characters (None where there is none, or it starts beyond)."""
    low = max(0, start - LINES_READ)
    before = re.split(r"[\n\r]", text[low:start])
    before.pop()  # the run's own line
    if low > 0 and before:
        before.pop(0)  # cut by the reach
    previous = next((line for line in reversed(before) if line.strip()), None)
    after = re.split(r"[\n\r]", text[end:end + LINES_READ])
    after.pop(0)
    if end + LINES_READ < len(text) and after:
        after.pop()
    following = next((line for line in after if line.strip()), None)
    return previous, following


_LEADING_DASH: Final = re.compile(rf"[ \t]*({_DASH_RUN})")


def _in_list(text: str, start: int, end: int) -> bool:
    """The run at ``start`` follows a dash that opens a list item or a line of dialogue:
    a line next to its line opens with the same dash, or the line before ends in ``:``."""
    line = _line_before(text, start, 64)
    own = _LEADING_DASH.match(line) if line is not None else None
    if own is None:
        return False  # a dash inside the line, after a sentence
    previous, following = _neighbour_lines(text, start, end)
    for neighbour in (previous, following):
        if neighbour is not None:
            match = _LEADING_DASH.match(neighbour)
            if match is not None and match.group(1) == own.group(1):
                return True
    return previous is not None and previous.rstrip().endswith(":")


#: An attribution's name followed by the title of the work quoted, in parentheses or
#: after ``, em``: ``-- Machado de Assis (Quincas Borba)``, ``-- Lewis Carroll, em Alice
#: no País das Maravilhas``; the title opens with a capital (not ``(prefácio por ...``).
_WORK_TITLE_BEFORE: Final = re.compile(
    rf"^[ \t]{{0,8}}{_DASH_RUN}[ \t]{{0,4}}{_U}[^\n\r(),;:\"“”]{{0,64}}?"
    rf"(?:[ \t]{{1,3}}\(|,[ \t]{{1,3}}(?:em|in)[ \t]{{1,3}})(?P<title>(?:{_U}[^\n\r()]{{0,64}})?)$")


def _in_work_title(text: str, start: int) -> bool:
    """The run at ``start`` is in the title of a work after an attribution's name (see
    _WORK_TITLE_BEFORE), not in a list of items opened by dashes."""
    line = _line_before(text, start, 160)
    if line is None or _WORK_TITLE_BEFORE.match(line) is None:
        return False
    return not _in_list(text, start, start)


def _long_option(text: str, base: int, chain: str) -> bool:
    """The run is a command-line option's name in capitals, glued to its two dashes
    (``--HILITE-SEARCH``): capitals joined by hyphens, no blank, not all of them names
    (an attribution glued to its dashes is a name: ``--Neném Prancha``,
    ``--ANA-PAULA``)."""
    return (text[max(0, base - 2):base] == "--" and "-" in chain and chain.isupper()
            and not any(blank in chain for blank in " \t\n\r")
            and (base == 2 or text[base - 3] in " \t\n\r[(|,=")
            and not all(_is_any_name_word(part.title()) for part in chain.split("-") if part))


def _in_dialogue(text: str, start: int, end: int) -> bool:
    """Another line near the run's line opens with a speaker's label."""
    previous, following = _neighbour_lines(text, start, end)
    return any(line is not None and _SPEAKER_LINE.match(line) is not None
               for line in (previous, following))


def _given_like(tokens: list[_Token], classes: list[str], q: int) -> bool:
    """tokens[q] is a given name (or a surname that many bear as a given name: Lucas)."""
    return classes[q] == "G" or (classes[q] == "S"
                                 and _lexicon().given.get(tokens[q].key, 0) >= CITY_NAME_MIN)


def _mark_context(text: str, tokens: list[_Token], classes: list[str], before: str) -> None:
    """A month or weekday next to a number or another one is no name (``[Fri Jan 03``,
    ``July 18th``); ``R.`` after an initial is an initial, not ``Rua`` (``J. R. R.``); a
    town's name right after a given name is a surname, unless a place cue stands before
    them (``em Olavo Bilac``); ``before`` is the word before the chain; a foreign given
    name before a foreign surname or (if it is a rare English word) an unknown word is a
    given name."""
    for q, token in enumerate(tokens):
        if token.key in _DATE_WORDS and classes[q] != "C":
            if (_NUMBER_NEAR.match(text, token.end)
                    or _NUMBER_BEFORE.search(text, max(0, token.start - 12), token.start)
                    or (q > 0 and tokens[q - 1].key in _DATE_WORDS)
                    or (q + 1 < len(tokens) and tokens[q + 1].key in _DATE_WORDS)):
                classes[q] = "C"
        elif (classes[q] == "C" and len(token.text) == 2 and token.text.endswith(".")
              and q > 0 and classes[q - 1] == "I"):
            classes[q] = "I"
        elif (classes[q] == "p" and token.cls == "p" and q > 0
              and _given_like(tokens, classes, q - 1)
              and text[tokens[q - 1].end:token.start].isspace()
              and not (q == 1 and before in _PLACE_CUES)):
            # A town's name right after a given name is a surname (Mário Quintana,
            # Olavo Bilac): towns are named after people.
            classes[q] = "S"
    inner = len(tokens) > 2 and "C" in classes
    for q in range(1, len(tokens) - 1) if inner else ():
        if (tokens[q].text in _INNER_PARTICLES and classes[q] == "C"
                and (classes[q - 1] in "GSI"
                     or (classes[q - 1] == "P" and tokens[q - 1].text in _INNER_PARTICLES))):
            classes[q] = "P"  # Fabio M. Di Nitto, Hans Van Der Berg
    marian = len(tokens) > 2 and "P" in classes
    for q in range(2, len(tokens)) if marian else ():
        if (classes[q] in "Cw" and tokens[q].key in MARIAN_TITLES
                and classes[q - 1] == "P" and tokens[q - 1].key.lower() in _ORG_PARTICLES
                and tokens[q - 2].key == "MARIA"):
            classes[q] = "G"  # Maria das Graças, Maria do Socorro: one given name
    lexicon = _lexicon()
    for q, token in enumerate(tokens):
        if (q > 0 and classes[q] == "C" and token.key in ORG_HEADS
                and _given_like(tokens, classes, q - 1)
                and (token.key in foreign_surnames() or token.key in lexicon.surnames)
                and text[tokens[q - 1].end:token.start].isspace()):
            classes[q] = "S"  # Manuel Estrada Sainz: a head word after a given name
    for q, token in enumerate(tokens[:-1]):
        following = tokens[q + 1]
        if (classes[q] in "CUw" and token.key in lexicon.foreign
                and _TITLE_CASE.match(token.text) and _TITLE_CASE.match(following.text)
                and text[token.end:following.start].isspace()
                and (q == 0 or classes[q - 1] not in _NAMEISH)
                and lexicon.words.get(token.key, 0) <= FOREIGN_WORD_PT_MAX
                and ((classes[q + 1] in "Uw" and following.key in lexicon.foreign_surnames)
                     or (classes[q] in "Uw" and token.key in lexicon.foreign_first
                         and classes[q + 1] in "USw"))):
            # A foreign given name before a foreign surname (Bill Mitchell), or, if it is
            # a rare English word, before an unknown word (Linus Torvalds).
            classes[q] = "G"


# ---------------------------------------------------------------- prefilter triggers
# In the syntax both Python's re and hyperscan accept (no look-around).

_T_LOWER_PARTICLE: Final = r"(?:d[aeo]s?|e|di|du|del|della|van|von|der|den|y)"
_T_SPACE: Final = r"(?:[ \t]{1,4}|[ \t]{0,4}\r?\n[ \t]{0,8})"
#: Two words of a run: a capitalised word or an initial, the gap, a capital letter (maybe
#: after an elided particle, ``d'Itri``).
#: Like the chain, the first word may not follow a letter, digit or ``_@/\.'’-`` (but
#: may follow a quote or dash that follows none), and the second word (or initial) may
#: not run into a digit, ``_`` or ``=``.
_PAIR_TRIGGER: Final = (rf"(?:^|[^{LETTER}0-9_@/\\.'’{DASHES}]|(?:^|[^{LETTER}0-9_])['’{DASHES}])"
                        rf"{_U}[{LETTER}'’-]*\.?{_T_SPACE}"
                        rf"(?:{_T_LOWER_PARTICLE}{_T_SPACE}){{0,2}}"
                        rf"(?:d['’])?{_U}(?:[{LETTER}'’-]*(?:[^{LETTER}0-9_=]|$)|\.)")
_WORD_AT: Final = re.compile(rf"{_L}+(?:['’-]{_L}+)*")
_LETTER_AT: Final = re.compile(_L)


#: Before a user agent's comment: a product token with a dotted version (``Mozilla/5.0``,
#: ``AppleWebKit/605.1.15``) and blanks, right before its open parenthesis.
_AGENT_PRODUCT: Final = re.compile(
    r"[A-Za-z][\w.+-]{0,40}/[0-9]{1,6}\.[0-9][\w.+-]{0,16}[ \t]{1,3}\Z")
_AGENT_PRODUCT_CHARS: Final = 1 + 40 + 1 + 6 + 2 + 16 + 3
#: The characters of a comment on either side of a place in it: no more for _chain; two
#: fewer for the pair trigger's accept, whose hit may start a character before its run
#: and end one after it (``µAna Lima.``): a hit it refuses lies in a run that _chain
#: finds inside the comment too.
_AGENT_COMMENT_CHARS: Final = (150, 148)
#: What a user agent's comment names: its platform, its items parted by semicolons.
_AGENT_PLATFORM: Final = re.compile(
    r"\b(?:Windows|Macintosh|iPhone|iPad|iPod|Android|Linux|X11|CrOS|compatible|Win64"
    r"|WOW64|x86_64|aarch64|arm64|Mac OS X|Mobile|rv:[0-9])")


def _in_agent_comment(text: str, start: int, end: int, *, hit: bool = False) -> bool:
    """Whether ``text[start:end]`` lies inside the comment of a user agent's product:
    items parted by semicolons, a platform among them (``Mozilla/5.0 (iPhone; CPU
    iPhone OS 17_0 like Mac OS X)``): platforms and products, never a person.  A web
    server's log holds one on every line.  (``release/2.1 (Ana Lima; revisão)`` and
    ``x.c (Ana Lima): fix`` are no agents.)  The comment holds no parenthesis nor line
    break, and reaches at most _AGENT_COMMENT_CHARS on either side; ``hit``: asked by
    the pair trigger's accept."""
    reach = _AGENT_COMMENT_CHARS[hit]
    close = text.find(")", end, end + reach + 1)
    if close < 0 or "(" in text[end:close] or "\n" in text[end:close]:
        return False
    opened = text.rfind("(", max(0, start - reach - 1), start)
    if opened < 0 or ")" in text[opened + 1:start] or "\n" in text[opened + 1:start]:
        return False
    if _AGENT_PRODUCT.search(text, max(0, opened - _AGENT_PRODUCT_CHARS), opened) is None:
        return False
    # The whole comment, the same for a hit and for the run that holds it.
    comment = text[opened + 1:close]
    return ";" in comment and _AGENT_PLATFORM.search(comment) is not None


def _pair_may_name(text: str, start: int, end: int) -> bool:
    """A pair of words holding a given name or surname, or two initials (a necessary
    condition of a run that is a name without a title before it), outside a user
    agent's comment (where no run is a name: the run holding the pair lies in it too).

    The answer depends on the hit's text alone, and a log repeats a few pairs
    thousands of times (``INFO  PedidoService``): answers are remembered by that text,
    which costs a fifth of finding the words again.
    """
    if not _pair_words_may_name(text[start:end]):
        return False
    first, last = start, end
    while first < last and not text[first].isalpha():
        first += 1  # the character before the first word
    while last > first and not (text[last - 1].isalpha() or text[last - 1] == "."):
        last -= 1  # the character after the second
    return not _in_agent_comment(text, first, last, hit=True)


def _pair_words_may_name(hit: str) -> bool:
    """The part of :func:`_pair_may_name` that reads the hit's own text: its words hold
    a given name or surname, or two initials."""
    known = _PAIRS_SEEN.get(hit)
    if known is None:
        if len(_PAIRS_SEEN) >= PAIRS_REMEMBERED:
            _PAIRS_SEEN.clear()
        words = _WORD_AT.findall(hit)
        known = _PAIRS_SEEN[hit] = bool(words) and (
            _is_name_word(words[0]) or _is_name_word(words[-1])
            or _INITIALS_PAIR.search(hit) is not None or _is_foreign_pair(words[0], words[-1]))
    return known


#: How many trigger hits' answers _pair_may_name keeps (then it starts over).
PAIRS_REMEMBERED: Final = 4096
_PAIRS_SEEN: dict[str, bool] = {}


#: The longest text a title trigger matches: the word (each letter with up to two
#: combining accents), the gap, "(S):", two particles and the capital.
_TITLE_TRIGGER_WORDS: Final = TITLES | SPEECH_BEFORE | {"POR"}
TITLE_TRIGGER_LENGTH: Final = (3 * max(len(w) for w in _TITLE_TRIGGER_WORDS) + 6 + 14
                               + 2 * (5 + 4) + 1)
#: Characters of one title trigger's alternation (hyperscan limits a pattern's size).
TITLE_TRIGGER_CHARS: Final = 3000


@cache
def _title_triggers() -> tuple[str, ...]:
    """Title, role and speech words (any case, accents optional), the gap, a capital letter;
    the words are split over several patterns of bounded size."""
    from recognizers.prefilter import literal_pattern

    # A stable order: the compiled database is cached under a hash of the patterns.
    words = sorted(_TITLE_TRIGGER_WORDS, key=lambda w: (-len(w), w))
    groups: list[list[str]] = [[]]
    size = 0
    for word in words:
        pattern = literal_pattern(word.lower())
        if groups[-1] and size + len(pattern) > TITLE_TRIGGER_CHARS:
            groups.append([])
            size = 0
        groups[-1].append(pattern)
        size += len(pattern) + 1
    # (a line break too: a run goes on past one where prose is wrapped, see _chains)
    tail = (r"[ \t\r\n.:,ºª\"']{0,6}(?:\([ \t]?[SAsa][ \t]?\)[ \t]{0,3}:?[ \t]{0,3})?"
            rf"(?:{_T_LOWER_PARTICLE}[ \t]{{1,4}}){{0,2}}{_U}")
    return tuple("(?:" + "|".join(group) + ")" + tail for group in groups)


_KEY_TRIGGER: Final = (rf"(?i:{_NAME_KEYS})(?:{QUOTE})?[ \t]{{0,3}}[:=][ \t]{{0,3}}"
                       rf"(?:{QUOTE})?{_U}")
_HEADER_TRIGGER: Final = (rf"{_HEADER_KEYS}[ \t]{{0,3}}:[ \t]{{0,3}}\"?{_U}")
_CITATION_TRIGGER: Final = rf"{_U}{{2}}[ ]?,[ ]?{_U}"


def _citation_may_name(text: str, start: int, end: int) -> bool:
    """The word after the comma is a given name or an initial."""
    word = _WORD_AT.match(text, end - 1)
    if word is None:
        return False
    return text.startswith(".", word.end()) or _is_name_word(word.group())


_INITIALS_PAIR: Final = re.compile(rf"{_U}\.\s{{1,{SPACE_CHARS}}}{_U}\.$")
#: A dash before a capital at a line's start, after the end of a sentence or quotation,
#: and a double dash after a space (_LINE_START_DASH, _SENTENCE_DASH, _SPACED_DOUBLE_DASH).
_ATTRIBUTION_TRIGGERS: Final = (
    rf"(?:^|[\n\r])[ \t]{{0,8}}[{DASHES}]{{1,3}}[ \t]{{0,4}}{_U}",
    rf"[.!?…][\"”»'’]?[ \t]{{0,4}}[{DASHES}]{{1,3}}[ \t]{{0,4}}{_U}",
    rf"[ \t](?:-{{2,3}}|[—―]{{1,2}})[ \t]{{0,4}}{_U}",
)
#: A speaker's label at a line's start (_SPEAKER_LINE): the line's start, maybe a time
#: stamp in brackets or not and a dash, the label's words and the colon.
_SPEAKER_LABEL: Final = (rf"{_U}[{LETTER}'’.-]*(?:[ \t]{{1,2}}(?:{_T_LOWER_PARTICLE}[ \t]{{1,2}})?"
                         rf"{_U}[{LETTER}'’.-]*)*[ \t]{{0,2}}:")
_SPEAKER_TRIGGERS: Final = (
    rf"(?:^|[\n\r])[ \t]{{0,8}}{_SPEAKER_LABEL}",
    r"(?:^|[\n\r])[ \t]{0,8}[\[(][0-9][0-9/.,: ]{0,28}(?:[AaPp]\.?[Mm]\.?)?[\])][ \t]{0,3}"
    + _SPEAKER_LABEL,
    r"(?:^|[\n\r])[ \t]{0,8}[0-9][0-9/.,: ]{2,30}(?:[AaPp]\.?[Mm]\.?[ \t]{0,3})?"
    rf"[{DASHES}][ \t]{{0,3}}{_SPEAKER_LABEL}",
)


def _speaker_may_name(text: str, start: int, end: int) -> bool:
    """A word of the hit (the label's first word among them) is a given name, a surname
    or a foreign given name."""
    return any(_is_cued_name_word(word) for word in _WORD_AT.findall(text, start, end))


#: A blank and a verb of saying or of a life's event (``Kevin disse``): the name, if any,
#: ends right before it (_SPEECH_AFTER; _speech_may_follow_a_name tells).
_SPEECH_AFTER_TRIGGER: Final = (
    r"[ \t](?:" + "|".join(sorted(w.lower() for w in SPEECH_VERBS | LIFE_VERBS))
    + rf")(?:[^{LETTER}0-9_]|$)")
_WORD_BEFORE: Final = re.compile(rf"({_L}+)[.']?,?[ \t]{{1,3}}$")


def _speech_may_follow_a_name(text: str, start: int, end: int) -> bool:
    """The verb follows a capitalised word (maybe an initial, maybe a comma)."""
    match = _WORD_BEFORE.search(text, max(0, start - 2 * MAX_WORD), start + 1)
    return match is not None and match.group(1)[0].isupper()
#: A lower-case article, the gap, a capital letter (_ARTICLE_BEFORE).
_ARTICLE_TRIGGER: Final = (rf"(?:^|[^{LETTER}0-9_])(?:o|a|à|ao|do|da|no|na|pelo|pela|pro|pra)"
                           rf"[ \t]{{1,3}}{_U}")


def _article_may_name(text: str, start: int, end: int) -> bool:
    """The word after the article is a given name."""
    word = _WORD_AT.match(text, end - 1)
    return word is not None and fold_name(word.group()) in given_names()


def _every_match(pattern: re.Pattern[str], text: str, pos: int = 0,
                 endpos: int | None = None) -> list[re.Match[str]]:
    """Every match of ``pattern`` in ``text[pos:endpos]``, one per start, overlapping
    ones included (so that where the text begins cannot change which are found)."""
    end = len(text) if endpos is None else endpos
    found = []
    match = pattern.search(text, pos, end)
    while match is not None:
        found.append(match)
        match = pattern.search(text, match.start() + 1, end)
    return found


def _merge(spans: list[tuple[int, int, float, str]]) -> list[tuple[int, int, float, str]]:
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[tuple[int, int, float, str]] = []
    for span in spans:
        if out and span[0] < out[-1][1]:
            if span[1] > out[-1][1]:
                last = out[-1]
                out[-1] = (last[0], span[1], max(last[2], span[2]), last[3])
            continue
        out.append(span)
    return out

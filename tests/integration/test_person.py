"""People's names (PERSON) in pt-BR text, found without a trained model."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks import lener
from redactor.config import Settings
from redactor.engine import Redactor


@pytest.fixture(scope="module")
def people() -> Redactor:
    return Redactor(Settings(entities=("PERSON",)))


def names(engine: Redactor, text: str) -> list[str]:
    return [text[f.start:f.end] for f in engine.analyze(text) if f.entity_type == "PERSON"]


@pytest.mark.parametrize(("text", "expected"), [
    ("Meu nome é João Carlos da Silva e meu CPF é 529.982.247-25", ["João Carlos da Silva"]),
    ("Cliente: MARIA APARECIDA DOS SANTOS, mãe: Ana Souza",
     ["MARIA APARECIDA DOS SANTOS", "Ana Souza"]),
    ('{"nome": "Fernanda Lima", "cidade": "São José dos Campos"}', ["Fernanda Lima"]),
    ("20261127 082210 SAPMF02D XD02 NAME1=JOSE PEREIRA KNA1 changed", ["JOSE PEREIRA"]),
    ("FAVORECIDO: JOSE DAS CHAGAS PEREIRA  VALOR: 1.500,00", ["JOSE DAS CHAGAS PEREIRA"]),
    ("De: Ricardo Almeida <ricardo@example.com.br>", ["Ricardo Almeida"]),
    ("Author: Paulo Roberto Nunes <paulo@example.org>", ["Paulo Roberto Nunes"]),
    ("Bom dia, Dra. Helena, tudo certo?", ["Helena"]),
    ("O paciente Joao Batista Neto foi atendido pela Dra Carla Mendes.",
     ["Joao Batista Neto", "Carla Mendes"]),
    ("O atendente Marcos respondeu ao chamado.", ["Marcos"]),
    ("Gabriel D'Ávila e Ana-Maria Braga assinaram o contrato.",
     ["Gabriel D'Ávila", "Ana-Maria Braga"]),
    ("nome;cpf\nAntonio Ferreira;000\n", ["Antonio Ferreira"]),
    ("SILVA, João. Curso de direito. 2010.", ["SILVA, João"]),
    ("documento assinado por Roberto em 2020", ["Roberto"]),
    ("joão da silva e JOAO DA SILVA e Joao da Silva", ["JOAO DA SILVA", "Joao da Silva"]),
])
def test_names_are_found(people: Redactor, text: str, expected: list[str]) -> None:
    assert names(people, text) == expected


@pytest.mark.parametrize("text", [
    "Fui ao Banco do Brasil e depois à Receita Federal em Santa Catarina.",
    "A Magazine Luiza abriu em Belo Horizonte na segunda-feira, 3 de Março.",
    "Costa, Lima e Rocha são sobrenomes comuns.",
    "Pedido entregue na Avenida Getúlio Vargas, 200.",
    '"name": "build", "version": "1.0.0"',
    "EM SAO PAULO, A EMPRESA TOTVS ENVIOU O RELATORIO AO CLIENTE.",
    "Feliz Natal e Boa Páscoa! Bom Dia a todos.",
    "Hoje Segunda Feira tem reunião em São José dos Campos.",
    "Universidade Federal de Minas Gerais",
    "Maria",
    "Silva Comércio Ltda",
    "INFO Started Application in 3.2 seconds",
    "ERROR Connection Refused",
])
def test_look_alikes_are_not_names(people: Redactor, text: str) -> None:
    assert names(people, text) == []


def test_a_name_found_in_full_makes_its_given_name_a_name_elsewhere(people: Redactor) -> None:
    text = "A Maria ligou ontem. Cliente: Maria Souza. Depois a Maria confirmou."
    assert names(people, text) == ["Maria", "Maria Souza", "Maria"]
    # An ordinary word or a place is never propagated on its own.
    text = "Contrato de Ana Costa. A Costa Rica fica longe; a Costa ligou."
    assert names(people, text) == ["Ana Costa"]
    text = "José Pereira mora em São José dos Campos."
    assert names(people, text) == ["José Pereira"]


def test_propagation_reaches_the_other_values_of_a_json_document(people: Redactor) -> None:
    for document in ({"cliente": "Maria Souza", "obs": "a Maria confirmou"},
                     {"obs": "a Maria confirmou", "cliente": "Maria Souza"},
                     {"items": [{"obs": "Maria ligou"}], "dados": {"nome": "Maria Souza"}}):
        result = people.redact_json(document)
        text = json.dumps(result.value, ensure_ascii=False)
        assert "Maria" not in text, text
        assert "[NOME]" in text
    # Without the full name, a given name alone stays.
    result = people.redact_json({"obs": "a Maria confirmou"})
    assert result.value == {"obs": "a Maria confirmou"}


def test_propagation_is_carried_along_a_stream(people: Redactor) -> None:
    carried: set[str] = set()
    first = people.redact("Cliente: Maria Souza", names=carried)
    second = people.redact("a Maria confirmou o pedido", names=carried)
    assert len(first.findings) == 1 and len(second.findings) == 1
    assert not any(name.isalpha() for name in carried), "person words are marked"


def test_the_placeholder_is_nome() -> None:
    engine = Redactor(Settings())
    assert engine.redact("Meu nome é João Carlos da Silva").text == "Meu nome é [NOME]"


def test_names_on_lener_br_test_split(people: Redactor) -> None:
    score = lener.evaluate(people)
    assert score.gold == 233
    assert score.recall >= 0.95, score
    assert score.precision >= 0.90, score


def test_prefiltered_equals_unfiltered_on_lener_br(people: Redactor) -> None:
    unfiltered = Redactor(Settings(entities=("PERSON",)), prefilter=False)
    plain_re = Redactor(Settings(entities=("PERSON",)), prefilter="re")
    for doc in lener.documents():
        expected = unfiltered.analyze(doc.text)
        assert people.analyze(doc.text) == expected, doc.name
        assert plain_re.analyze(doc.text) == expected, doc.name


@pytest.mark.parametrize("text", [
    # Found by a hostile review: each differed between the windows and the whole text.
    "PACIENTE J. WIERZBICKI KOWALCZYK",
    "FAVORECIDO DE WIERZBICKI KOWALCZYK",
    "assinado por J. WIERZBICKI KOWALCZYK",
    "cliente DA XYKA WUBO",
    "ABCD, Xyka " * 200 + "AAAA, J. BBBB fim",
    "Dr. Xyka " + "Mesa " * 900 + "Maria Silva",
    "Maria " + "Conselheiro Mairinck " * 450 + "Conselheiro Mairinck  Conselheiro Pena fim",
    "Dr. Xyka " + "Mesa " * 10 + "Maria Silva",
])
def test_windows_decide_as_the_whole_text(people: Redactor, text: str) -> None:
    unfiltered = Redactor(Settings(entities=("PERSON",)), prefilter=False)
    plain_re = Redactor(Settings(entities=("PERSON",)), prefilter="re")
    expected = unfiltered.analyze(text)
    assert people.analyze(text) == expected
    assert plain_re.analyze(text) == expected


def test_propagation_takes_the_given_name_and_never_an_ordinary_word(people: Redactor) -> None:
    assert names(people, "SILVA, João pagou. Depois o João disse") == ["SILVA, João", "João"]
    assert names(people, "nome: Sra. Joana Prado\nJoana ligou.")[-1] == "Joana"
    assert names(people, "Norma Souza veio. Norma técnica da ABNT.") == ["Norma Souza"]
    result = people.redact_json({"autor": "PRADO, Joana", "b": "Joana ligou"})
    assert result.value == {"autor": "[NOME]", "b": "[NOME] ligou"}


def test_the_pack_registers_in_a_plain_presidio_engine() -> None:
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    import recognizers

    registry = RecognizerRegistry(supported_languages=["pt"])
    recognizers.register(registry, languages=("pt",), entities=["PERSON"])
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "no_op", "models": [{"lang_code": "pt", "model_name": "none"}],
    }).create_engine()
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["pt"])
    text = "A cliente Ana Souza ligou."
    results = analyzer.analyze(text=text, language="pt", entities=["PERSON"])
    assert [(r.entity_type, text[r.start:r.end]) for r in results] == [("PERSON", "Ana Souza")]


HOSTILE = textwrap.dedent("""
    import sys, time
    from redactor.config import Settings
    from redactor.engine import Redactor

    engine = Redactor(Settings())
    size = int(sys.argv[1])
    shapes = {
        "caps wall": ("MARIA SILVA COSTA " * size)[:size],
        "title wall": ("Maria Silva Costa Lima " * size)[:size],
        "one word per line": ("Maria\\nSilva\\n" * size)[:size],
        "capitalised words": " ".join(f"Xy{i % 97}z" .replace("1", "a") for i in range(size // 6)),
        "apostrophes and hyphens": ("D'Ávila Ana-Maria " * size)[:size],
        "particles": ("da de do dos das e " * size)[:size],
        "titles": ("Dr. Sr. Dra. cliente " * size)[:size],
    }
    for name, text in shapes.items():
        result = engine.redact(text)
        print(name, len(result.findings))
""")


@pytest.mark.slow
def test_hostile_shapes_finish_and_print_only_counts(tmp_path: object) -> None:
    done = subprocess.run([sys.executable, "-c", HOSTILE, "200000"], capture_output=True,
                          text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == 7
    for line in lines:
        assert line.rsplit(" ", 1)[1].isdigit()
        assert "Maria" not in line and "Silva" not in line


def test_a_spacy_model_adds_its_person_findings_to_the_pack(tmp_path: object) -> None:
    import spacy

    model = Path(str(tmp_path)) / "ruler-pt"
    nlp = spacy.blank("pt")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "PER", "pattern": "Xyzk Wbcd"}])  # type: ignore[attr-defined]
    nlp.to_disk(model)
    engine = Redactor(Settings(spacy_model=str(model)))
    text = "A cliente Ana Souza falou com Xyzk Wbcd ontem; a Ana confirmou."
    assert engine.redact(text).text == (
        "A cliente [NOME] falou com [NOME] ontem; a [NOME] confirmou.")
    # The pack alone does not find the model's name.
    assert "Xyzk Wbcd" in Redactor(Settings()).redact(text).text


def test_the_pair_trigger_test_remembers_answers_by_the_hit_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Remembered answers are the answers: for the same hit text anywhere, after the
    memory fills up and starts over, and for texts that differ in one letter."""
    import re

    from recognizers import person

    def fresh(hit: str) -> bool:
        words = re.findall(person._WORD_AT, hit)
        return bool(words) and (person._is_name_word(words[0])
                                or person._is_name_word(words[-1]))

    monkeypatch.setattr(person, "PAIRS_REMEMBERED", 3)
    monkeypatch.setattr(person, "_PAIRS_SEEN", {})
    hits = [" INFO  PedidoService ", " Maria Silva ", " Mario Service ", " DEBUG Fila ",
            " INFO  PedidoService ", " Maria Silva ", "\nJoão d'Ávila,", " Xmaria Silvx "]
    answers = set()
    for round_ in range(3):
        for index, hit in enumerate(hits):
            text = "x" * (index + round_) + hit + "y"
            start = index + round_
            got = person._pair_may_name(text, start, start + len(hit))
            assert got == fresh(hit), hit
            answers.add(got)
            assert len(person._PAIRS_SEEN) <= 3
    assert answers == {True, False}

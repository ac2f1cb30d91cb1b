"""The texts of a block of JSON lines analysed together (issue 33, JSON Lines at the speed of
text): ``Analysis.found_many`` finds in each text what its analysis alone finds.

Each entity whose recognizers read at most ``BATCH_WALL`` characters past a region has the
regions of all the texts analysed in one run, the texts apart by a wall of line breaks wider
than that reach; the others (people's names, secrets) are analysed text by text.  These
tests hold each text's findings from the batch against the same engine's findings of the
text alone, with texts that end in a keyword and texts that start with a candidate side by
side (what a wall too thin would mix up), on every backend."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import zoo
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.engine.analysis import BATCH_WALL, Memo
from redactor.engine.jsonredact import labelled_texts

CPF = "529.982.247-25"

# Candidates at a text's start or end, keywords at a text's start or end, and values
# of each entity, alone and after a key.
PIECES = (
    CPF, "52998224725", "cpf", "CPF:", "12.ABC.345/01DE-35", "11.222.333/0001-81",
    "10.1.2.3", "ip", "host", "2001:db8::7", "fe80::1", "+55 11 98765-4321",
    "(11) 98765-4321", "celular", "telefone:", "98765-4321", "01310-100", "cep",
    "maria@example.com", "email", "user=jsilva", "usuario", "login: rcunha", "jsilva",
    "Maria Silva", "Sr. João", "password=Xk9mq2Lp7", "senha", "token",
    "AKIAIOSFODNN7EXAMPLE", "4111 1111 1111 1111", "cartao", "ABC1D23", "placa",
    "nascido em 01/02/1990", "12/03/1985", "Rua das Flores, 123", "ag 1234 c/c 56789-0",
    "GET /api?cpf=52998224725 HTTP/1.1", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like "
    "Mac OS X) Mobile/15E148", "ok", "", " ", "-", "nada aqui", "\n", "pedido 12345678",
)

KEYS = ("msg", "cpf", "ip", "user", "remote_addr", "telefone", "senha", "email", "detail",
        "request", "nome", "http_user_agent", "n")


@pytest.fixture(scope="module", params=["hyperscan", "re"])
def engine(request: pytest.FixtureRequest) -> Redactor:
    if request.param == "hyperscan":
        pytest.importorskip("hyperscan")
    return Redactor(Settings(), prefilter=request.param)


def _alone(engine: Redactor, items: list[tuple[str, tuple[str, ...] | None]]) -> Memo:
    """Each text's findings, analysed alone (the path found_many stands in for)."""
    from recognizers._text import normalize_for_matching

    found: Memo = {}
    for text, labels in items:
        normalized = normalize_for_matching(text)
        found[(normalized, labels)] = engine._found(normalized, list(labels or ()) or None,
                                                    engine._scanner)
    return found


def _check(engine: Redactor, items: list[tuple[str, tuple[str, ...] | None]]) -> Memo:
    engine._short_found.clear()  # nothing remembered from an earlier analysis alone
    batched = engine.found_many(items)
    alone = _alone(engine, [item for item in items if item[0]])
    assert set(batched) <= set(alone)
    for key, found in batched.items():
        assert found == alone[key], key
    return batched


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(st.tuples(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map(" ".join),
    st.one_of(st.none(), st.lists(st.sampled_from(KEYS), min_size=1, max_size=2).map(tuple))),
    min_size=1, max_size=12))
def test_each_text_finds_in_the_batch_what_it_finds_alone(
        engine: Redactor, items: list[tuple[str, tuple[str, ...] | None]]) -> None:
    _check(engine, items)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
                      min_size=1, max_size=4),
       filler=st.sampled_from([" palavra" * 40, "\n" + "linha comum\n" * 30, " x" * 400]))
def test_long_texts_keep_only_what_their_regions_trust(
        engine: Redactor, texts: list[list[str]], filler: str) -> None:
    # Candidates far apart: a text has several regions, whose edges it does not trust.
    _check(engine, [(filler.join(pieces), None) for pieces in texts])


def test_a_keyword_ending_one_text_lifts_nothing_in_the_next(engine: Redactor) -> None:
    # Alone, a bare CPF, phone or IP scores without a keyword; a keyword at the end of
    # the text before must not reach it through the wall.
    items: list[tuple[str, tuple[str, ...] | None]] = []
    for keyword, value in (("cpf", "52998224725"), ("celular", "11987654321"),
                           ("ip", "10.1.2.3"), ("cep", "01310100"), ("usuario", "jsilva"),
                           ("cartao", "4111111111111111"), ("placa", "ABC1D23")):
        items += [(f"campo {keyword}", None), (value, None), (f"{value} fim", None)]
    batched = _check(engine, items)
    assert any(found for found in batched.values())


def test_texts_a_wall_apart_are_the_texts_of_each_family_of_the_zoo(engine: Redactor) -> None:
    for family in ("nginx-json", "cloudtrail", "json-debug", "kubernetes-json"):
        text, _ = zoo.generate(family, 0.03)
        items: list[tuple[str, tuple[str, ...] | None]] = []
        for line in text.splitlines()[:60]:
            labelled = labelled_texts(json.loads(line))
            assert labelled is not None
            items += [(piece, labels or None) for piece, labels in labelled]
        batched = _check(engine, items)
        assert sum(len(found) for found in batched.values()) > 0, family


def test_entities_that_read_far_are_analysed_text_by_text(
        engine: Redactor, monkeypatch: pytest.MonkeyPatch) -> None:
    scanner = engine._scanner
    assert scanner is not None
    # The wall is wider than the reach of every entity analysed in one run.
    far = {name for name in scanner.entities if scanner.reach(name) + 1 > BATCH_WALL}
    assert far == {"PERSON", "SECRET"}
    runs: list[tuple[str, int]] = []
    original = engine._group_analysed

    def counted(entity: str, group: Any, founds: Any, wall: int) -> None:
        runs.append((entity, len(group)))
        original(entity, group, founds, wall)

    monkeypatch.setattr(engine, "_group_analysed", counted)
    engine._short_found.clear()
    items: list[tuple[str, tuple[str, ...] | None]] = [
        (f"remote_addr: 10.1.{n}.7 token=Zq8v3LrT9xW2mK7pB4nY{n:04d} Maria Silva", None)
        for n in range(5)]
    engine.found_many(items)
    assert ("IP_ADDRESS", 5) in runs
    assert [size for entity, size in runs if entity in far] == [1] * 5 * len(
        {entity for entity, _ in runs if entity in far})


def test_a_known_user_name_of_several_words_is_never_joined_across_texts() -> None:
    # Found by review: an entry's words match across any white space, a wall of line
    # breaks included: "oi maria" and "souza e maria" made "maria souza" across the wall,
    # and both real findings were lost.  USERNAME is then analysed text by text.
    engine = Redactor(Settings(known_users=("maria", "maria souza", "souza lima")))
    items: list[tuple[str, tuple[str, ...] | None]] = [
        ("oi maria", None), ("souza e maria", None), ("fala maria", None),
        ("souza lima chegou", None), ("souza lima", ("m",))]
    batched = _check(engine, items)
    assert all(any(span.entity == "USERNAME" for span in found.values())
               for found in batched.values())
    text = '{"a": "oi maria"}\n{"b": ["souza e maria"]}\n'
    from tests.integration.test_quiet_texts import _lines_both

    fast, slow = _lines_both(engine, text)
    assert fast == slow and "maria" not in fast

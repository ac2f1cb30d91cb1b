"""The candidate regions of many texts found by one scan of them all (issue 33, JSON Lines
at the speed of text): ``Scanner.regions_many`` gives each text exactly the regions its
own scan gives (``Scanner.regions``) — the same windows, trusted parts and hits.

The texts are joined by line breaks for the scan.  The triggers read a text's edges as
``^`` or ``$`` or a character of a class that holds the line break; a hit on the joining
line break is moved to the text's edge, and a text with a hit reaching past its own
characters is scanned again alone.  These tests put candidates and keywords at the
texts' edges, texts that are line breaks or blanks alone, empty texts, texts beyond
Latin-1, patterns that read across lines (people's names, spaced numbers), and the JSON
texts of every JSON family of the zoo."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks import zoo
from recognizers.prefilter import Prefilter, Trigger
from redactor.candidates import Scanner, anchors_at_edges_only, line_break_at_edges
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.engine.jsonredact import labelled_texts

PIECES = (
    "529.982.247-25", "52998224725", "cpf", "CPF:", "12.ABC.345/01DE-35",
    "11.222.333/0001-81", "10.1.2.3", "10.1.2.3.4", "ip", "host", "2001:db8::7", "fe80::1",
    "::", "a:b:c:d:e:f:0:1", "+55 11 98765-4321", "(11) 98765-4321", "celular", "98765-4321",
    "01310-100", "maria@example.com", "user=jsilva", "usuario", "login: rcunha", "Maria",
    "Silva", "Maria Silva", "João", "de", "Sr.", "password=Xk9mq2Lp7", "senha", "token",
    "key", "AKIAIOSFODNN7EXAMPLE", "4111 1111 1111 1111", "ABC1D23", "placa", "12/03/1985",
    "Rua das Flores, 123", "ag 1234 c/c 56789-0", "GET /api?cpf=52998224725 HTTP/1.1",
    "https://u:p@example.com/", "ok", "", " ", "\n", "\r\n", "-", "€", "日本", "12", "3",
    "11 2", "98765", "4321", "08:15 DIA 001", "sid", " [12/Jan/2024:10:00:00 -0300]",
    "- jsilva", "aws_secret_key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'", "'", "\r",
    "Nome", "Sobrenome", "cnpj%3A", "%2F", "\\n", "morreu", "reu", "afirma", "irma",
    "subtenente", "tenente",
)
TEXT = st.lists(st.sampled_from(PIECES), min_size=0, max_size=5).map(
    lambda pieces: "".join(pieces)) | st.lists(st.sampled_from(PIECES), max_size=5).map(
    " ".join)
SKIPS = st.sampled_from([(), ("USERNAME",), ("SECRET", "PERSON"), ("IP_ADDRESS",)])


@pytest.fixture(scope="module", params=["hyperscan", "re"])
def scanner(request: pytest.FixtureRequest) -> Scanner:
    if request.param == "hyperscan":
        pytest.importorskip("hyperscan")
    found = Redactor(Settings(), prefilter=request.param)._scanner
    assert found is not None and found.backend == request.param
    return found


def _check(scanner: Scanner, texts: list[str], skips: list[tuple[str, ...]]) -> None:
    together = scanner.regions_many(texts, skips)
    assert together == [scanner.regions(text, skip) for text, skip in zip(texts, skips,
                                                                           strict=True)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(st.tuples(TEXT, SKIPS), min_size=1, max_size=10))
@example(items=[("10.1.2.3", ()), ("10.1.2.3", ())])
@example(items=[("Maria", ()), ("Silva", ()), ("Maria\nSilva", ())])
@example(items=[("11 2", ()), ("98765", ()), ("4321 x", ())])
@example(items=[("ip", ()), ("", ()), ("\n", ()), ("10.1.2.3", ("IP_ADDRESS",))])
# Found by review: one text beyond Latin-1 sent the whole block to the UTF-8 scan, whose
# database lists a place two title words end at twice (Latin-1's unions list it once).
@example(items=[("morreu Silva", ()), ("€", ())])
def test_each_text_has_the_regions_of_its_own_scan(
        scanner: Scanner, items: list[tuple[str, tuple[str, ...]]]) -> None:
    _check(scanner, [text for text, _ in items], [skip for _, skip in items])


def test_the_texts_of_the_zoo_json_families(scanner: Scanner) -> None:
    assert scanner._joinable  # the pack's triggers: texts are scanned joined
    regions = 0
    for family in ("nginx-json", "cloudtrail", "json-debug", "kubernetes-json"):
        text, _ = zoo.generate(family, 0.05)
        texts: list[str] = []
        for line in text.splitlines():
            labelled = labelled_texts(json.loads(line))
            assert labelled is not None
            texts += [piece for piece, _ in labelled]
        _check(scanner, texts, [()] * len(texts))
        regions += sum(len(found) for found in scanner.regions_many(texts, [()] * len(texts)))
    assert regions > 500  # the families hold candidates in many of their texts


def test_a_text_with_a_hit_across_the_line_break_is_scanned_alone(
        scanner: Scanner, monkeypatch: pytest.MonkeyPatch) -> None:
    if scanner.backend != "hyperscan":
        pytest.skip("the other backends scan each text alone")
    texts = ["Consulta de Maria", "Silva Pereira hoje", "10.1.2.3", "nada"]
    alone: list[str] = []
    original = scanner.regions

    def regions(text: str, skip: tuple[str, ...] = ()) -> dict[str, list[object]]:
        alone.append(text)
        return original(text, skip)  # type: ignore[return-value]

    monkeypatch.setattr(scanner, "regions", regions)
    together = scanner.regions_many(texts, [()] * len(texts))
    monkeypatch.undo()
    assert together == [scanner.regions(text) for text in texts]
    # A person's name read across the joining line break: both texts it reaches.
    assert alone == texts[:2]


@pytest.mark.parametrize(("pattern", "edges_only"), [
    ("abc", True),
    ("(?:^|[^0-9])[0-9]{3}(?:[^0-9]|$)", True),
    ("(?:^|[^A-Z]|(?:^|[^A-Z])['-])[A-Z][a-z]+", True),
    ("(?:x)|(?:(?:^|[^a-z])y)", True),
    ("[^-][ ]\\[", False),  # no ^: the text alone has no match at its start
    ("a[^0-9]", False),  # no $: nor at its end
    ("Maria[ \\t]*\\n[ \\t]*Silva", False),
    ("a\\sb", False),
    ("(?:^|[^0-9])a[^0-9]b", False),
    ("a.{0,3}b", False),
    ("(?<=x)a", False),
    # Found by review: anchors outside an edge, an edge whose class reads no line break,
    # and an edge branch of more than one character.
    ("^foo", False),
    ("foo$", False),
    ("\\Afoo", False),
    ("(?:^|[ ,])foo", False),
    ("foo(?:[ ,]|$)", False),
    ("(?:^|[^0-9]x)y", False),
    ("y(?:x[^0-9]|$)", False),
    ("\\bfoo\\b", True),
])
def test_which_patterns_read_a_line_break_at_their_edges_only(pattern: str,
                                                              edges_only: bool) -> None:
    assert line_break_at_edges(pattern) is edges_only


@pytest.mark.parametrize("pattern", [
    "^foo", "foo$", "\\Afoo", "(?:^|[ ,])foo", "foo(?:[ ,]|$)", "(?:^|[^0-9]x)y",
    "y(?:x[^0-9]|$)", "(?:^|[^0-9])foo(?:[^0-9]|$)", "fo+", "o\\n?f", "(?:a)|(?:^b)",
])
def test_a_trigger_of_any_shape_gives_each_text_its_own_regions(pattern: str) -> None:
    # (An anchor outside an edge would match at the joined text's edges alone: such a
    # scanner reads each text alone.)
    pytest.importorskip("hyperscan")
    scanner = Scanner([Prefilter("X", (Trigger(pattern, name="t"),))], "hyperscan")
    texts = ["a", "foo", "foo", "a", "xy", "yx", "a", "foo\n", "o", "f", "ofoo", " foo,"]
    _check(scanner, texts, [()] * len(texts))


@pytest.mark.parametrize(("pattern", "joinable"), [
    ("(?:^|[^0-9])a(?:[^0-9]|$)", True), ("fo+", True), ("a\\nb", True), ("\\bfoo\\b", True),
    ("^foo", False), ("foo$", False), ("\\Afoo", False), ("(?:^|[ ,])foo", False),
    ("(?:^|[^0-9]x)y", False), ("(?:a)|(?:^b)", False), ("(?<=x)a", False),
])
def test_which_patterns_hold_anchors_at_their_edges_only(pattern: str, joinable: bool) -> None:
    assert anchors_at_edges_only(pattern) is joinable

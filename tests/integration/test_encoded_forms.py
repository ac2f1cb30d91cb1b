"""Identifiers, addresses and names in their encoded and escaped forms (issue 29, item 5).

Access logs, curl commands, PHP/JSON output and HTML write a value with its separators
percent-encoded (``%2F``), JSON-escaped (``\\/``) or as HTML character references
(``&#x2F;``).  Each case goes through the public API (``redactor.redact``): the finding
must cover the whole written value, escapes included, so that nothing of it is left in
the output; and through the prefiltered and unfiltered engines, which must agree.
"""

from __future__ import annotations

import random

import pytest

import redactor
from benchmarks import synthetic as syn
from redactor.config import Settings
from redactor.engine import Redactor

CPF = "529.982.247-25"  # documented example
CNPJ = "11.222.333/0001-81"  # documented example

#: (text, the written value inside it, its entity).
CASES = [
    # CPF separators percent-encoded, in either case, once or twice
    ("GET /api?cpf=529.982.247%2D25&x=1", "529.982.247%2D25", "BR_CPF"),
    ("GET /api?cpf=529.982.247%2d25&x=1", "529.982.247%2d25", "BR_CPF"),
    ("GET /api?doc=529%2E982%2E247%2D25 HTTP/1.1", "529%2E982%2E247%2D25", "BR_CPF"),
    ("q=529%2E982%2E247-25", "529%2E982%2E247-25", "BR_CPF"),
    ("q=529%252E982%252E247%252D25", "529%252E982%252E247%252D25", "BR_CPF"),
    ("doc: 529%20982%20247%2025 fim", "529%20982%20247%2025", "BR_CPF"),
    # CPF: HTML references and JSON escapes of its separators
    ("<td>529&#46;982&#46;247&#45;25</td>", "529&#46;982&#46;247&#45;25", "BR_CPF"),
    ("<td>529&#x2E;982&#x2E;247&#x2D;25</td>", "529&#x2E;982&#x2E;247&#x2D;25", "BR_CPF"),
    ('{"cpf":"529\\u002e982\\u002e247\\u002d25"}', "529\\u002e982\\u002e247\\u002d25",
     "BR_CPF"),
    # CPF: spaces around the dash; a keyword glued to the number
    ("CPF 529.982.247 - 25 ok", "529.982.247 - 25", "BR_CPF"),
    ("CPF 529.982.247 -25 ok", "529.982.247 -25", "BR_CPF"),
    ("cpf52998224725", "52998224725", "BR_CPF"),
    ("CPF52998224725;", "52998224725", "BR_CPF"),
    ("CPF:52998224725", "52998224725", "BR_CPF"),
    ("cpf529.982.247-25", "529.982.247-25", "BR_CPF"),
    # CPF right after an escape: a percent-encoded path, a JSON line break
    ("GET /clientes/529.982.247-25/pedidos", CPF, "BR_CPF"),
    ("path=%2Fclientes%2F52998224725%2Fpedidos", "52998224725", "BR_CPF"),
    ("q=cpf%3A52998224725&x=1", "52998224725", "BR_CPF"),
    ('{"msg":"linha 1\\n52998224725\\tfim"}', "52998224725", "BR_CPF"),
    # CNPJ separators encoded
    ("cnpj=11.222.333%2F0001-81", "11.222.333%2F0001-81", "BR_CNPJ"),
    ("cnpj=11.222.333%2f0001%2D81&a=b", "11.222.333%2f0001%2D81", "BR_CNPJ"),
    ("cnpj=11.222.333%252F0001-81", "11.222.333%252F0001-81", "BR_CNPJ"),
    ("cnpj=11%2E222%2E333%2F0001%2D81", "11%2E222%2E333%2F0001%2D81", "BR_CNPJ"),
    ("cnpj=11222333%2F0001-81", "11222333%2F0001-81", "BR_CNPJ"),
    ('{"cnpj":"11.222.333\\/0001-81"}', "11.222.333\\/0001-81", "BR_CNPJ"),
    ('{"cnpj":"11.222.333\\u002F0001-81"}', "11.222.333\\u002F0001-81", "BR_CNPJ"),
    ("<td>11.222.333&#x2F;0001-81</td>", "11.222.333&#x2F;0001-81", "BR_CNPJ"),
    ("<td>11.222.333&#47;0001-81</td>", "11.222.333&#47;0001-81", "BR_CNPJ"),
    ("<td>11.222.333&sol;0001-81</td>", "11.222.333&sol;0001-81", "BR_CNPJ"),
    ("cnpj11222333000181", "11222333000181", "BR_CNPJ"),
    ("CNPJ11.222.333/0001-81", CNPJ, "BR_CNPJ"),
    ("q=%2011222333000181", "11222333000181", "BR_CNPJ"),
    # e-mail addresses: percent-encoded "@" and "+", a "+tag" in a query string
    ("email=maria.souza%40example.com", "maria.souza%40example.com", "EMAIL_ADDRESS"),
    ("GET /u?email=maria.souza%40example.com&x=1 HTTP/1.1", "maria.souza%40example.com",
     "EMAIL_ADDRESS"),
    ("?email=maria.souza%2Bnews%40example.com", "maria.souza%2Bnews%40example.com",
     "EMAIL_ADDRESS"),
    ("GET /api?to=maria.souza+news@example.com HTTP/1.1", "maria.souza+news@example.com",
     "EMAIL_ADDRESS"),
    ("to=maria.souza+news@example.com", "maria.souza+news@example.com", "EMAIL_ADDRESS"),
    ("q=maria.souza%252540example.com", "maria.souza%252540example.com", "EMAIL_ADDRESS"),
    ("<a>maria.souza&#64;example.com</a>", "maria.souza&#64;example.com", "EMAIL_ADDRESS"),
    ("<a>maria.souza&#x40;example.com</a>", "maria.souza&#x40;example.com", "EMAIL_ADDRESS"),
    # WhatsApp links: the number is written without its plus sign
    ("https://wa.me/5511987654321", "5511987654321", "BR_PHONE"),
    ("fale https://wa.me/5511987654321?text=oi", "5511987654321", "BR_PHONE"),
    # a name as a form-encoded value
    ("nome=Maria+Souza&idade=30", "Maria+Souza", "PERSON"),
    ("POST /c?nome=Maria%20Souza&idade=30 HTTP/1.1", "Maria%20Souza", "PERSON"),
    ("cliente=Maria+Souza&idade=30", "Maria+Souza", "PERSON"),
    ("name=Jo%C3%A3o+da+Silva&age=30", "Jo%C3%A3o+da+Silva", "PERSON"),
]


def _ids() -> list[str]:
    return [f"{entity}-{index}" for index, (_, _, entity) in enumerate(CASES)]


@pytest.mark.parametrize(("text", "value", "entity"), CASES, ids=_ids())
def test_the_encoded_value_is_redacted_whole(text: str, value: str, entity: str) -> None:
    start = text.index(value)
    end = start + len(value)
    engine = redactor.get_redactor(Settings())
    covering = [f for f in engine.analyze(text)
                if f.start <= start and end <= f.end
                and f.entity_type in (entity, "PHONE_NUMBER" if entity == "BR_PHONE" else entity)]
    assert covering, [(f.entity_type, f.start, f.end) for f in engine.analyze(text)]
    out = redactor.redact(text, settings=Settings()).text
    assert value not in out
    # The text before the value is left as it was, up to where the finding starts.
    assert out.startswith(text[:covering[0].start])


@pytest.mark.parametrize("text", [
    # escapes around ordinary numbers and words stay as they are
    "GET /img%2F2024%2F11%2Fphoto.png HTTP/1.1",
    "q=12345678901%2D99",                 # bad check digits
    "q=529.982.247%2D26",                 # bad check digit
    "cnpj=11.222.333%2F0001-82",          # bad check digit
    "x=2024%2D11%2D05T10%3A15%3A00",
    "order4523456789012",                 # a word glued to digits is no keyword
    "wa.me/5511987654",                   # too short for a mobile
    "nome=maria+souza&idade=30",          # lower case: no name shape
    "email=maria.souza%40localhost",      # no public suffix
    '{"msg":"1\\n2\\t3"}',
])
def test_encoded_look_alikes_are_left_alone(text: str) -> None:
    assert redactor.redact(text, settings=Settings()).text == text


PAD = "lorem ipsum dolor sit amet " * 12


@pytest.fixture(scope="module")
def unfiltered() -> Redactor:
    return Redactor(Settings(), prefilter=False)


@pytest.fixture(scope="module")
def prefiltered() -> Redactor:
    engine = Redactor(Settings())
    engine.prefilter_min_chars = 0
    assert engine.prefilter_backend is not None
    return engine


@pytest.mark.parametrize(("text", "value", "entity"), CASES, ids=_ids())
def test_prefiltered_equals_unfiltered_on_the_encoded_forms(
        prefiltered: Redactor, unfiltered: Redactor, text: str, value: str, entity: str) -> None:
    for sample in (text, f"{PAD}{text} {PAD}", f"{PAD}\n{text} {text}\n{PAD}"):
        expected = unfiltered._spans(sample, None)
        assert prefiltered._spans(sample, None) == expected
        assert any(s.entity in (entity, "PHONE_NUMBER") for s in expected)


@pytest.mark.parametrize("entity", ["BR_CPF", "BR_CNPJ"])
def test_every_encoded_form_is_found_whole(unfiltered: Redactor, entity: str) -> None:
    rng = random.Random(29)
    for _ in range(10):
        if entity == "BR_CPF":
            forms = syn.cpf_encoded_forms(syn.random_cpf(rng))
        else:
            forms = syn.cnpj_encoded_forms(syn.random_cnpj(rng, alphanumeric=rng.random() < 0.3))
        for name, written in forms.items():
            text = f"valor {written} fim"
            start, end = text.index(written), text.index(written) + len(written)
            # The value to its end; a glued keyword or an escape before it may stay.
            shortest = 11 if entity == "BR_CPF" else 14
            spans = unfiltered._spans(text, None)
            assert any(s.entity == entity and start <= s.start <= end - shortest
                       and s.end == end for s in spans), (entity, name)

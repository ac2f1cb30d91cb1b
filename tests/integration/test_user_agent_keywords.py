"""A phone keyword that is part of a product in a user agent (``Mobile/15E148``,
``Chrome/130.0.0.0 Mobile Safari/537.36``, ``(Android 14; Mobile; rv:132.0)``) lifts no
number: a web server's log has one on every other line.  The same word as a word of
the text, or as a JSON key, still does."""

from __future__ import annotations

import pytest

from recognizers.generic import BrPhoneRecognizer
from redactor import Redactor

IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1")
CHROME = ("Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/130.0.0.0 Mobile Safari/537.36")
FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0"
WHATSAPP = "WhatsApp/2.23.20.0 A"


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor()


def _phones(engine: Redactor, text: str) -> list[str]:
    return [text[f.start:f.end] for f in engine.analyze(text) if "PHONE" in f.entity_type]


@pytest.mark.parametrize("agent", [IOS, CHROME, FIREFOX, "Version/17.6 Mobile/15E148"])
def test_a_user_agent_lifts_no_bare_number(engine: Redactor, agent: str) -> None:
    # 4532345678 and 11987654321 are valid Brazilian numbers to python-phonenumbers.
    for line in (f'"{agent}" 4532345678 ok', f"pedido 11987654321 {agent}"):
        assert _phones(engine, line) == [], line


@pytest.mark.parametrize("text, number", [
    ("Mobile: 11987654321", "11987654321"),
    ("mobile 4532345678", "4532345678"),
    ("celular/whatsapp 11987654321", "11987654321"),
    ("tel/fax: 4532345678", "4532345678"),
    ("WhatsApp 11987654321", "11987654321"),
    # alone, the shapes of a user agent are words of the text (found by a hostile review)
    ("Nome; Telefone; Email\nAna; 4532345678; ana@x.com", "4532345678"),
    ("Informe (nome; telefone) 4532345678", "4532345678"),
    ("campos: cpf; celular; 11987654321", "11987654321"),
    ("Celular/1: 11987654321", "11987654321"),
    ("Rua A, 12 Telefone Comercial/2: 4532345678", "4532345678"),
])
def test_the_words_still_lift_a_number_elsewhere(engine: Redactor, text: str,
                                                 number: str) -> None:
    assert number in _phones(engine, text)


def test_a_json_key_still_lifts(engine: Redactor) -> None:
    result = engine.redact_json({"mobile": "11987654321", "agent": IOS})
    assert result.value["mobile"] != "11987654321"
    assert result.value["agent"] == IOS


@pytest.mark.parametrize("text, written", [
    ("Version/17.6 Mobile/15E148 Safari/604.1", "Version/17.6 Qqqqqq/15E148 Safari/604.1"),
    ("Chrome/130.0.0.0 Mobile Safari/537.36", "Chrome/130.0.0.0 Qqqqqq Safari/537.36"),
    ("Mozilla/5.0 (Android 14; Mobile; rv:132.0)", "Mozilla/5.0 (Android 14; Qqqqqq; rv:132.0)"),
    ("(Android 14; Mobile; rv:132.0)", "(Android 14; Mobile; rv:132.0)"),
    ("WhatsApp/2.23.20.0", "WhatsApp/2.23.20.0"),
    ("x WhatsApp/2.23.20.0 Dalvik/2.1.0", "x QqqqqQqq/2.23.20.0 Dalvik/2.1.0"),
    ("São Mobile/1 (x; MOBILE)", "São Mobile/1 (x; QQQQQQ)"),
    ("Mobile: 11987654321", "Mobile: 11987654321"),
    ("celular/whatsapp 1", "celular/whatsapp 1"),
    ("a/1 automobile/1 xmobile/2 émobile/3 mobiles/4",
     "a/1 automobile/1 xmobile/2 émobile/3 mobiles/4"),
    ("_mobile/1 Safari/1", "_qqqqqq/1 Safari/1"),
    ("fone; 11987654321", "fone; 11987654321"),
    ("Nome; Telefone; Email", "Nome; Telefone; Email"),
    ("Informe (nome; telefone) 1", "Informe (nome; telefone) 1"),
    ("Rua A, 12 Telefone Comercial/2: 1", "Rua A, 12 Telefone Comercial/2: 1"),
])
def test_which_keywords_are_part_of_a_product(text: str, written: str) -> None:
    words = BrPhoneRecognizer().context_words
    out = words.outside_products(text)
    assert out == written and len(out) == len(text)


def test_text_without_a_slash_or_semicolon_is_returned_as_is() -> None:
    words = BrPhoneRecognizer().context_words
    text = "Mobile Safari 11987654321"
    assert words.outside_products(text) is text


def test_a_lowered_threshold_keeps_the_prefilters_equivalence() -> None:
    # Below 0.35 the phone recognizers have no keyword triggers: a window ends a margin
    # after the last number, and what makes "Mobile" part of a product must be in it.
    import dataclasses

    from redactor.config import Settings

    settings = dataclasses.replace(Settings(), score_threshold=0.3)
    unfiltered = Redactor(settings, prefilter=False)
    prefiltered = Redactor(settings)
    prefiltered.prefilter_min_chars = 0
    for filler in (60, 61, 62):
        text = ("+55 11 98765-4321" + " " * 16 + "extension 1234567 " + "a" * filler
                + " 1 Mobile " + "S" * 32 + "/5")
        assert prefiltered._spans(text, None) == unfiltered._spans(text, None)

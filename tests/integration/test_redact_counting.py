"""A batch run keeps of a block its redacted text and a count per entity:
``Redactor.redact_counting`` gives them without a Finding per finding (issue 33), and
gives what ``redact`` gives."""

from __future__ import annotations

import io

import pytest

from benchmarks import zoo
from redactor import batch
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.engine.propagation import StreamNames

CPF = "529.982.247-25"


@pytest.fixture(scope="module", params=[False, True], ids=["placeholders", "pseudonyms"])
def engine(request: pytest.FixtureRequest) -> Redactor:
    return Redactor(Settings(pseudonyms=request.param))


def _texts() -> list[str]:
    texts = [f"cpf {CPF} do usuário jsilva", "nada aqui", "", "user=rcunha\nrcunha saiu"]
    texts += [zoo.generate(family, 0.02)[0] for family in zoo.FAMILIES]
    return texts


@pytest.mark.parametrize("text", _texts())
def test_the_text_and_the_entities_are_redacts(engine: Redactor, text: str) -> None:
    result = engine.redact(text)
    redacted, entities = engine.redact_counting(text)
    assert redacted == result.text
    assert entities == [f.entity_type for f in result.findings]
    names, other = StreamNames(), StreamNames()
    with_names = engine.redact(text, names=names)
    assert engine.redact_counting(text, names=other) == (
        with_names.text, [f.entity_type for f in with_names.findings])
    assert (names.usernames, names.caseless_usernames) == \
        (other.usernames, other.caseless_usernames)


def test_a_block_is_counted_through_it(engine: Redactor) -> None:
    from unittest import mock

    text = f"cpf {CPF}\nuser=rcunha\n"
    report = batch.FileReport(path="x")
    with mock.patch.object(Redactor, "redact", side_effect=AssertionError("redact")):
        out = io.BytesIO()
        batch.redact_stream(engine, io.BytesIO(text.encode()), out, "text", report)
    assert report.counts["BR_CPF"] == 1 and report.counts["USERNAME"] >= 1
    assert CPF not in out.getvalue().decode()


def test_not_a_string_is_a_type_error(engine: Redactor) -> None:
    with pytest.raises(TypeError):
        engine.redact_counting(b"cpf")  # type: ignore[arg-type]

"""SECRET takes the prefilter's hits: a key word the key trigger's accept judged to give
nothing is not judged again (issue 33, json-debug).  With the hits, the recognizer must
find what it finds reading every key word, on every backend."""

from __future__ import annotations

import dataclasses
import importlib.util
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks import zoo
from recognizers.secret import assignments
from recognizers.secret.finder import find_secrets
from redactor.candidates import available_backend
from redactor.config import Settings
from redactor.engine import Redactor

PIECES = ['"key": "pedido:123"', '"session_key": "Zq8v3LrT9xW2mK7pB4nY6cJ1"', "apikey=",
          "api-key: ", "password=hunter2x", "pwd", "pw", "pwkey", "sigkey=", "sidekick",
          "senha do cofre: Xk9#mq2Lp", "token", "tokens", "Token:", "x" * 40, "keyboard",
          "key=key=key=", "KEY", "passkey=AbCdEf0123456789ZyXw", "chave", " ", "\n", "=",
          ":", '"', "'", ",", "{", "}", "aws_secret_access_key=", "wJalrXUtnFEMI/K7MDENG",
          "authorization", "cookie: sid=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "é", "\\n"]
BACKENDS = sorted({"re", available_backend()}
                  | ({"re2"} if importlib.util.find_spec("re2") is not None else set()))


def _engines(backend: str) -> tuple[Redactor, Redactor]:
    secret = dataclasses.replace(Settings(), entities=("SECRET",))
    return Redactor(secret, prefilter=backend), Redactor(secret, prefilter=False)


@pytest.fixture(scope="module", params=BACKENDS)
def engines(request: pytest.FixtureRequest) -> tuple[Redactor, Redactor]:
    return _engines(request.param)


@settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES), max_size=40))
@example(["apikey=", "wJalrXUtnFEMI/K7MDENG", " ", "key=", "short"])
def test_with_hits_the_findings_are_those_of_every_key_word(
        engines: tuple[Redactor, Redactor], pieces: list[str]) -> None:
    prefiltered, unfiltered = engines
    text = "".join(pieces)
    assert prefiltered.analyze(text) == unfiltered.analyze(text)


@pytest.mark.parametrize("family", ["json-debug", "java-spring", "cloudtrail"])
def test_the_zoo_gives_the_same_findings(engines: tuple[Redactor, Redactor], family: str) -> None:
    prefiltered, unfiltered = engines
    text, _ = zoo.generate(family, 0.1, seed=4)
    found = prefiltered.analyze(text)
    assert found and found == unfiltered.analyze(text)


def test_words_the_accept_judged_are_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '{"key": "pedido:123", "session_key": "Zq8v3LrT9xW2mK7pB4nY6cJ1"}\n' * 20
    judged: list[int] = []
    original = assignments.assignment

    def spy(text: str, start: int, end: int) -> object:
        judged.append(start)
        return original(text, start, end)

    monkeypatch.setattr(assignments, "assignment", spy)
    everything = find_secrets(text)
    all_words = len(judged)
    judged.clear()
    # The key trigger hits "session" of "session_key" (its first word) and "key" alone;
    # its accept takes the first.
    accepted = [(m.start(), m.start() + len("session"))
                for m in re.finditer("session_key", text)]
    assert find_secrets(text, accepted) == everything
    assert len(judged) == 20 < all_words == 40

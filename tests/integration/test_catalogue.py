"""Every entity of the catalogue is built by the pack and its recognizers declare triggers.

The engine's prefilter needs the triggers of every recognizer (see
recognizers.prefilter): a recognizer without them must not be registered.
"""

from __future__ import annotations

import pytest
from presidio_analyzer import EntityRecognizer

import recognizers
from recognizers.catalogue import CATALOGUE
from recognizers.prefilter import Prefilter
from redactor.config import Settings

# Known user names make the list-based USERNAME recognizer part of the pack too.
BUILT = recognizers.build(known_usernames=["fulano_teste"])


def test_build_covers_every_catalogue_entry() -> None:
    for language in ("pt", "en"):
        built = [r for r in BUILT if r.supported_language == language]
        for item in CATALOGUE:
            mine = [r for r in built if r.supported_entities == [item.entity]]
            assert [type(r) for r in mine] == list(item.classes()), item.entity
    assert len(BUILT) == 2 * sum(len(item.recognizers) for item in CATALOGUE)


@pytest.mark.parametrize("recognizer", [r for r in BUILT if r.supported_language == "pt"],
                         ids=lambda r: f"{r.supported_entities[0]}-{type(r).__name__}")
def test_every_registered_recognizer_declares_triggers(recognizer: EntityRecognizer) -> None:
    declare = getattr(recognizer, "prefilter", None)
    assert callable(declare), f"{type(recognizer).__name__} has no prefilter()"
    declared = declare(Settings().score_threshold)
    assert isinstance(declared, Prefilter)
    assert [declared.entity] == recognizer.supported_entities
    assert declared.triggers or declared.finder is not None


def test_lazy_names_are_the_recognizer_modules_own() -> None:
    import importlib

    for name in recognizers.__all__:
        value = getattr(recognizers, name)
        if isinstance(value, type):
            assert getattr(importlib.import_module(value.__module__), name) is value
    assert list(recognizers.ALL_RECOGNIZERS) == list(recognizers.ENTITIES)
    for item in CATALOGUE:
        assert recognizers.ALL_RECOGNIZERS[item.entity] == item.classes()
    with pytest.raises(AttributeError):
        _ = recognizers.NoSuchRecognizer  # type: ignore[attr-defined]

"""The entity catalogue: one entry per entity, read without Presidio."""

from __future__ import annotations

import subprocess
import sys

import pytest

from recognizers.catalogue import CATALOGUE, ENTITIES, entry


@pytest.mark.parametrize("module", ["redactor.config", "recognizers.catalogue", "recognizers"])
def test_reading_the_catalogue_loads_no_presidio(module: str) -> None:
    code = (f"import sys, {module};"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'presidio_analyzer'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_one_entry_per_entity() -> None:
    assert len(set(ENTITIES)) == len(ENTITIES) == len(CATALOGUE)
    for item in CATALOGUE:
        assert entry(item.entity) is item
        assert item.label and item.label.isascii() and item.label.upper() == item.label
        assert item.recognizers, item.entity


def test_recognizers_are_named_as_module_and_class_of_the_pack() -> None:
    for item in CATALOGUE:
        for reference in (*item.recognizers, *([item.factory] if item.factory else [])):
            module, colon, name = reference.partition(":")
            assert colon and name.isidentifier(), reference
            assert module.startswith("recognizers.") and module != "recognizers.catalogue"


def test_unknown_entity_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        entry("BR_XYZ")

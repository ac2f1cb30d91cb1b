"""The vendored name data: readable, folded, and every file's licence recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from recognizers.lexicon import DATA_FILES as LEXICON_FILES
from recognizers.names import DATA_FILES, fold_name, given_names, places, surnames

DATA = Path(__file__).resolve().parents[2] / "recognizers" / "data"


def test_fold_name() -> None:
    assert fold_name("João") == fold_name("JOAO") == fold_name("Joao") == "JOAO"
    assert fold_name("D\u2019Ávila") == "D'AVILA"


def test_given_names_are_folded_with_census_counts() -> None:
    names = given_names()
    assert len(names) > 20_000
    assert max(names, key=names.__getitem__) == "MARIA"
    assert names["JOAO"] > names["FERNANDA"] >= 200
    assert all(name == fold_name(name) and name.replace("'", "").replace(" ", "").isalpha()
               for name in names)


def test_surnames_and_places() -> None:
    assert {"SILVA", "SOUZA", "PEREIRA", "COSTA", "LIMA"} <= surnames()
    assert all(word == fold_name(word) for word in surnames())
    assert {"São José dos Campos", "Santa Catarina", "Campinas"} <= set(places())


def test_every_data_file_is_listed_with_its_licence() -> None:
    licences = (DATA / "LICENSES.md").read_text(encoding="utf-8")
    on_disk = {p.name for p in DATA.iterdir()} - {"LICENSES.md"}
    listed = {*DATA_FILES, *LEXICON_FILES}
    assert on_disk == listed
    for name in listed:
        assert f"`{name}`" in licences
    assert licences.count("MIT License") + licences.count("Permission is hereby granted") >= 4


def test_a_damaged_word_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recognizers import person

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    person.common_words.cache_clear()
    try:
        words = dict(person.common_words())
        (cache,) = (tmp_path / "redactor").glob("words-pt-*.json")
        for damage in ("[" * 100_000, '{"A": "x"}', "\xff"):
            cache.write_text(damage, encoding="latin-1")
            person.common_words.cache_clear()
            assert dict(person.common_words()) == words
    finally:
        person.common_words.cache_clear()

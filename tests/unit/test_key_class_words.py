"""A value holding no word of a class is ruled out before key_class reads it (issue 33: a
JSON debug log's session and token values, each new, were read as keys and pushed the
keys out of the memory): the answer must be the full reading's, on any text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recognizers.secret import keys

PIECES = sorted({*keys.PASSWORD_WORDS, *keys.SECRET_WORDS, *keys.WEAK_WORDS,
                 *keys._KEY_QUALIFIERS, *keys.NOT_SECRET_TAILS, "aws", "AWS", "Key", "KEY",
                 "Password", "SECRET", "Token", "chaveiro", "db", "x", "id", "_", "-", ".",
                 "/", "İ", "ß", "Σ", "8cb4a0d7", "idem", "asc", "txt", "h"})


@settings(max_examples=3000, deadline=None)
@given(parts=st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
       random=st.text(max_size=12))
@example(parts=["idem", "_", "8cb4a0d7"], random="")
@example(parts=["AWS", "_", "SECRET", "_", "Key"], random="")
@example(parts=["db", "password"], random="")
def test_the_words_rule_out_only_values_of_no_class(parts: list[str], random: str) -> None:
    for key in ("".join(parts), "".join(parts) + random, random):
        assert keys.value_class(key) == keys.key_class.__wrapped__(key), key


def test_a_random_value_is_of_no_class_and_not_remembered() -> None:
    keys.key_class.cache_clear()
    assert keys.value_class("idem_8cb4a0d7d62256758a7d43b5") is None
    assert keys.key_class.cache_info().currsize == 0
    assert keys.value_class("db_password") == "password"
    assert keys.value_class("AWS_SECRET_ACCESS_KEY") == "aws"
    assert keys.value_class("session") == "weak"

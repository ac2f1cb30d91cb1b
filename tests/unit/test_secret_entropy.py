"""SECRET's entropy test answers as detect-secrets' entropy does."""

from __future__ import annotations

import random
import string

import pytest

from recognizers.secret import filters


def samples(kind: str, count: int) -> list[str]:
    """Values of the kind's characters, of others next to them (high_entropy passes "."
    and "~" to base64), and of decimal digits alone (the hex plugin lowers a number's
    entropy), 1 to 300 characters long."""
    plugin = filters._entropy_plugin(kind)
    rng = random.Random(49)
    alphabets = [plugin.charset, plugin.charset + ".~:é", string.digits, "ab", "0", "aB3"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, rng.choice((40, 300)))))
            for alphabet in (rng.choice(alphabets) for _ in range(count))]


@pytest.mark.parametrize(("kind", "limit"), [("base64", filters.BASE64_LIMIT),
                                             ("hex", filters.HEX_LIMIT),
                                             ("base64", 2.0), ("hex", 1.5)])
def test_over_the_limit_as_the_plugins_entropy_says(kind: str, limit: float) -> None:
    plugin = filters._entropy_plugin(kind)
    for value in samples(kind, 20_000):
        expected = plugin.calculate_shannon_entropy(value) > limit
        assert filters._entropy_over(value, kind, limit) is expected, value


@pytest.mark.parametrize("kind", ["base64", "hex"])
def test_a_sum_at_the_limit_is_the_plugins_to_answer(kind: str) -> None:
    # The limit set to the plugin's very entropy: "over" is False, whatever the order of
    # the additions here would have given.
    plugin = filters._entropy_plugin(kind)
    for value in samples(kind, 2_000):
        exact = plugin.calculate_shannon_entropy(value)
        assert filters._entropy_over(value, kind, exact) is False, value
        assert filters._entropy_over(value, kind, exact - 1e-3) is (exact > exact - 1e-3)


def test_the_verdicts_on_random_and_worded_values() -> None:
    assert filters.high_entropy("fe339eca03b1d74bff7d5ec09bc03e20")
    assert filters.high_entropy("idem_af2529cad670a8382054fa81")
    assert not filters.high_entropy("aaaaaaaaaaaaaaaaaaaa1")
    assert not filters.high_entropy("12345678901234567890")

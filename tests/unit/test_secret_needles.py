"""provider_tokens runs the formats whose needles a text holds, found needle by needle
(issue 33: a JSON value is a short text, and each format asked in turn cost ~100 µs per
value).  The findings must be those of asking each format for its needles."""

from __future__ import annotations

import random
from collections.abc import Iterator

from recognizers.secret.common import Hit
from recognizers.secret.formats import compiled_formats, provider_tokens


def _format_by_format(text: str) -> Iterator[Hit]:
    """provider_tokens before issue 33: each format checks its own needles (reference)."""
    from recognizers.secret import formats as module

    for entry in compiled_formats():
        if not any(needle in text for needle in entry.needles):
            continue
        for match in entry.matches(text):
            start, end = match.span(entry.group)
            if end <= start:
                continue
            if entry.kind is module.ARTIFACTORY_TOKEN:
                while start < end and text[start] in module._BOUNDARY_CHARS:
                    start += 1
                while end > start and text[end - 1] in module._BOUNDARY_CHARS:
                    end -= 1
            elif entry.group == 0 and start and text[start - 1] in module._NO_RUN_BEFORE:
                continue
            if entry.kind is module.CONNECTION_STRING_PASSWORD \
                    and module.placeholder(match.group(1)):
                continue
            yield Hit(start, end, entry.kind, module.FORMAT_SCORE)


TOKENS = ["ghp_" + "a1B2" * 9, "AKIA" + "ABCDEFGHIJKLMNOP", "xoxb-123456789012-1234567890123-"
          + "a" * 24, "sk-" + "A1b2C3d4" * 6, "glpat-" + "x1Y2z3W4v5U6t7S8r9Q0", "npm_" + "a" * 36,
          "AIza" + "B" * 35, "SG." + "c" * 22 + "." + "d" * 43, "123456789:" + "E" * 35,
          "Server=db;Password=Xy9#kLm2;", "https://user:pa55w0rd@example.com", "pypi-" + "f" * 60]
NOISE = ["key: ", "value", " ", ":", "-us", "task-", "SG", "xo", "XOXB-12-AB", "XoXp-1-a", "=",
         '"', "\n", "aws", "AKI", "glpat", "10:45:07", "é"]


def test_the_same_tokens_as_format_by_format() -> None:
    rng = random.Random(5)
    found = 0
    for _ in range(3000):
        text = "".join(rng.choice(TOKENS if rng.random() < 0.2 else NOISE)
                       for _ in range(rng.randint(0, 12)))
        expected = list(_format_by_format(text))
        found += len(expected)
        assert list(provider_tokens(text)) == expected, text
    assert found > 500


def test_a_long_text_finds_its_needles_in_one_scan() -> None:
    # From NEEDLE_SCAN_FROM characters up (a batch's region), the needles a text holds are
    # found in one hyperscan scan: the same formats as asking needle by needle, and so
    # the same tokens (here every text counts as long).
    from unittest import mock

    from recognizers.secret import formats as module

    assert module._needle_database() is not None  # the fast extra is installed in tests
    rng = random.Random(9)
    found = 0
    for _ in range(2000):
        text = "".join(rng.choice(TOKENS if rng.random() < 0.2 else [*NOISE, "\udc80", "ç"])
                       for _ in range(rng.randint(0, 12)))
        asked = module._formats_wanted(text)
        with mock.patch.object(module, "NEEDLE_SCAN_FROM", 0):
            scanned = module._formats_wanted(text)
            tokens = list(provider_tokens(text))
        assert scanned == asked, text
        assert tokens == list(_format_by_format(text)), text
        found += len(tokens)
    assert found > 300
    long_text = "x " * 40_000 + TOKENS[1] + " fim"
    assert len(long_text) >= module.NEEDLE_SCAN_FROM
    assert [hit.kind.name for hit in provider_tokens(long_text)] == \
        [hit.kind.name for hit in _format_by_format(long_text)] != []


def test_windows_without_a_quoted_key_hold_no_aws_secret_key() -> None:
    # AWS's secret key pattern runs only in the windows around "aws" that hold a quoted
    # key of forty characters (_Format.required): the same matches as in every window.
    import dataclasses

    from recognizers.secret.kinds import AWS_SECRET_KEY

    entry = next(f for f in compiled_formats() if f.kind is AWS_SECRET_KEY)
    assert entry.required is not None
    everywhere = dataclasses.replace(entry, required=None)
    key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    pieces = ["aws", "AWS", "aWs", "_secret_access_key", "password", "token", " = ", ": ",
              '"', "'", key, key[:39], key + "x", "\n", "arn:aws:iam::123456789012:user/x",
              "awsRegion", " " * 30, "x" * 15, "{", ","]
    rng = random.Random(11)

    def candidate() -> str:
        # "aws", a filler, a key word, a filler, a quoted run: near the pattern's bounds.
        def filler() -> str:
            return "".join(rng.choice("_ =:x\"'") for _ in range(rng.randint(0, 24)))

        quote = rng.choice("\"'")
        run = rng.choice([key, key[:39], key + "x", key.replace("/", "-")])
        return (rng.choice(["aws", "AWS", "aWs"]) + filler() + rng.choice(["key", "pwd", "token"])
                + filler() + quote + run + rng.choice([quote, "\"", "'", ""]))

    found = 0
    for _ in range(4000):
        text = "".join(candidate() if rng.random() < 0.3 else rng.choice(pieces)
                       for _ in range(rng.randint(0, 20)))
        spans = [m.span() for m in entry.matches(text)]
        assert spans == [m.span() for m in everywhere.matches(text)], text
        found += len(spans)
    assert found > 200


def test_the_aws_trigger_is_the_plugin_s_pattern() -> None:
    # The prefilter's "aws" trigger is detect-secrets' AWS secret-key pattern without its
    # lazy quantifiers (a hit where a match ends): a plugin that changes it must be seen.
    import re

    from recognizers.secret.formats import AWS_KEY_TRIGGER, AWS_KEY_TRIGGER_CHARS
    from recognizers.secret.kinds import AWS_SECRET_KEY

    entry = next(f for f in compiled_formats() if f.kind is AWS_SECRET_KEY)
    assert entry.pattern.pattern == (
        r"""aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?[\'\"]([0-9a-zA-Z/+]{40})[\'\"]""")
    assert entry.pattern.flags & re.IGNORECASE
    trigger = re.compile(AWS_KEY_TRIGGER)
    rng = random.Random(13)
    key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    pieces = ["aws", "AWS", "Aws", "_secret_access_", "key", "KEY", "password", "pwd", " = ",
              '"', "'", key, key[:39], "\n", "x" * 9, ": "]
    def candidate() -> str:
        def filler() -> str:
            return "".join(rng.choice("_ =:x\"'\n") for _ in range(rng.randint(0, 24)))

        quote = rng.choice("\"'")
        return (rng.choice(["aws", "AWS", "aWs"]) + filler()
                + rng.choice(["key", "pwd", "token", "PASSWORD", "pw"]) + filler() + quote
                + rng.choice([key, key[:39], key + "x"]) + rng.choice([quote, "\"", "'", ""]))

    agreed = 0
    for _ in range(3000):
        text = "".join(candidate() if rng.random() < 0.4 else rng.choice(pieces)
                       for _ in range(rng.randint(1, 8)))
        for start in range(len(text)):
            expected = entry.pattern.match(text, start) is not None
            found = trigger.match(text, start)
            assert (found is not None) == expected, (text, start)
            if found:
                assert len(found.group()) <= AWS_KEY_TRIGGER_CHARS
                agreed += 1
    assert agreed > 100

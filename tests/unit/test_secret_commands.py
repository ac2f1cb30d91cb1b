"""Command-line passwords: each pattern is tried only where its command's name starts,
with the same matches as a scan of the whole text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers.secret import commands

PIECES = ("mysql -pS3cr3t", "mysqldump -u x -p'a b'", "hdbsqlcmd -p x", "sqlcmd -P pw",
          "redis-cli -a pw", "curl -u ana:pw", "curl/8.5.0", "sshpass -p pw", "sqlplus a/b@c",
          "sapcontrol -nr 00 -user sidadm pw", "HDBUSERSTORE SET k h:3 u pw",
          "jdbc:oracle:thin:scott/tiger@//db", "keytool -storepass a -keypass b",
          "docker login -p pw", "mongosh -p pw", "ldapsearch -w pw", " ", "\n", "x", "-",
          "GRANT ALL TO u IDENTIFIED BY 'pw'")


@pytest.mark.parametrize("pattern,words", commands._PATTERN_WORDS)
def test_every_match_starts_with_one_of_its_words(pattern: object, words: object) -> None:
    text = " | ".join(PIECES) + "\n" + "\n".join(PIECES)
    for match in pattern.finditer(text):  # type: ignore[attr-defined]
        assert words.match(text, match.start()) is not None  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_matches_at_words_equal_a_scan_of_the_whole_text(parts: list[str]) -> None:
    text = "".join(parts)
    for pattern, words in commands._PATTERN_WORDS:
        expected = [m.span() for m in pattern.finditer(text)]
        assert [m.span() for m in commands._matches_at(pattern, words, text)] == expected


def test_a_user_agent_naming_curl_holds_no_password() -> None:
    line = '10.0.0.1 - - [01/Jan/2024:00:00:00 -0300] "GET / HTTP/1.1" 200 1 "-" "curl/8.5.0"'
    assert list(commands.command_passwords(line * 3)) == []
    text = line + "\ncurl -u ana:S3nh4Forte https://x"
    assert [text[h.start:h.end] for h in commands.command_passwords(text)] == ["S3nh4Forte"]

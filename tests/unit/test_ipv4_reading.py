"""IP_ADDRESS reads a dotted quad without ipaddress (issue 33: a web server's log holds
thousands of distinct client addresses per megabyte, more than the parse cache keeps):
the reading must be ipaddress's, on any text of digits and dots."""

from __future__ import annotations

import ipaddress

from hypothesis import example, given, settings
from hypothesis import strategies as st

from recognizers import generic

PARTS = st.one_of(st.integers(0, 300).map(str), st.sampled_from(
    ["", "0", "00", "01", "007", "255", "256", "1000", "٣", "1 ", "+1", "-1"]))


def _parsed(written: str) -> int | None:
    try:
        return int(ipaddress.IPv4Address(written))
    except ValueError:
        return None


@settings(max_examples=3000, deadline=None)
@given(parts=st.lists(PARTS, min_size=1, max_size=6))
@example(parts=["10", "0", "0", "01"])
@example(parts=["192", "168", "1", "256"])
@example(parts=["0", "0", "0", "0"])
def test_a_dotted_quad_is_read_as_ipaddress_reads_it(parts: list[str]) -> None:
    written = ".".join(parts)
    assert generic._ipv4_value(written) == _parsed(written)
    try:
        ipaddress.ip_address(written)
        valid = True
    except ValueError:
        valid = False
    assert generic._is_address(written) is valid


@settings(max_examples=3000, deadline=None)
@given(value=st.integers(0, 2**32 - 1), with_length=st.booleans())
@example(value=0x7F000001, with_length=False)
@example(value=0xE0000001, with_length=False)
@example(value=0xF0000001, with_length=False)
@example(value=0xDFFFFFFE, with_length=False)
def test_the_ranges_that_name_no_host_are_ipaddress_ones(value: int, with_length: bool) -> None:
    address = ipaddress.IPv4Address(value)
    written = str(address)
    generic._host_kind.cache_clear()
    kind = generic._host_kind(written, with_length)
    no_host = address.is_loopback or address.is_unspecified or address.is_multicast \
        or address.is_reserved
    if no_host:
        assert kind == generic._NO_HOST
    else:
        assert kind == generic._ipv4_host_kind(written, value, with_length)
    # The IPv4-mapped form takes ipaddress's way: the same ranges name no host.
    assert generic._host_kind(f"::ffff:{written}", with_length) == (
        generic._NO_HOST if no_host else generic._HOST_V6)


VERSION_PIECES = ["version", "Versão", "VERSION", "rv", "kernel", "build", "seção", "Seção",
                  "section", "item", "İtem", "ſection", "oid", "rfc", "SRC", "DST", "ip",
                  "Firefox", "/", ":", "=", " ", "\t", "\n", "\r\n", "x", "v", "subitem",
                  "capítulo", "passo", "step", "vejaSeção", "1.2"]


@settings(max_examples=3000, deadline=None)
@given(pieces=st.lists(st.sampled_from(VERSION_PIECES), max_size=8))
@example(pieces=["SRC", "="])
@example(pieces=["İtem", ":"])
@example(pieces=["Firefox", "/"])
@example(pieces=["x", " ", "rv", ":"])
@example(pieces=["kernel", " ", "=", " "])
def test_the_version_words_shortcut_rules_out_only_what_the_pattern_refuses(
        pieces: list[str]) -> None:
    before = "".join(pieces)[-generic._HOST_LOOKBACK:]
    if not generic._may_end_version_words(before):
        assert generic._VERSION_BEFORE.search(before) is None, before

"""Recognizers that take the prefilter's hits read only what the hits point at, and find
exactly what they find reading the whole text (issue 33: cost per candidate)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers.base import EDGE_SEARCH, windows_near
from recognizers.generic import IP_SEPARATORS, _inside_separators
from redactor.config import Settings
from redactor.engine import Redactor

IP_PIECES = ["192.168.10.21", "10.0.0.1", "::1", "fe80::1%eth0", "::ffff:10.1.2.3", "2001:db8::7",
             "2001:0db8:0000:0000:0000:ff00:0042:8329", "1.2.3.4/24", "10.1.2.0/24",
             "Firefox/2.0.0.14", "10.0.0.255", "1.1.1.1.1", "255.255.255.0", "a1:b2::c3",
             "abc", "ip", "host", ":", ".", "/", "%", "-", "_", "9", " ", "\n", "\t", '"', "'",
             "[", "]", "(", ")", ",", "=", "&", "?", "é",
             "ca:17:c8:0c:ec:5e:56:a7:56:9f:f4:01:08:00", "0:0:0:0:0:0:0:1", "MAC="]


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor(Settings(entities=("IP_ADDRESS",)), prefilter="re")


def _hits(engine: Redactor, text: str) -> list[tuple[int, int, str]]:
    scanner = engine._scanner
    assert scanner is not None
    return [hit for region in scanner.regions(text).get("IP_ADDRESS", []) for hit in region.hits]


def _found(engine: Redactor, text: str, hits: list[tuple[int, int, str]] | None,
           ) -> set[tuple[int, int, float]]:
    recognizer = next(r for r in engine._analyzer.registry.recognizers
                      if "IP_ADDRESS" in r.supported_entities)
    return {(r.start, r.end, r.score)
            for r in recognizer.analyze(text, ["IP_ADDRESS"], None, hits=hits)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(IP_PIECES), max_size=60))
@example(["x", "10.0.0.1", "x" * 600, " ", "10.0.0.2"])
def test_the_ip_recognizer_finds_with_hits_what_it_finds_in_the_whole_text(
        engine: Redactor, pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _found(engine, text, _hits(engine, text)) == _found(engine, text, None)


def _found_in_order(engine: Redactor, text: str, hits: list[tuple[int, int, str]] | None,
                    ) -> list[tuple[int, int, float]]:
    recognizer = next(r for r in engine._analyzer.registry.recognizers
                      if "IP_ADDRESS" in r.supported_entities)
    return [(r.start, r.end, r.score)
            for r in recognizer.analyze(text, ["IP_ADDRESS"], None, hits=hits)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([p for p in IP_PIECES if p.isascii()]), max_size=60))
@example(["10.0.0.1", " ", "2001:db8::7", " ", "10.0.0.5:80", " ", "9.9.9.9"])
def test_windows_with_and_without_a_colon_give_the_results_of_one_call_in_its_order(
        engine: Redactor, pieces: list[str]) -> None:
    # The windows holding a colon are read apart from the others (only they need the
    # IPv6 patterns): the results, in order, are those of the whole text's analysis.
    text = " ".join(pieces)
    assert _found_in_order(engine, text, _hits(engine, text)) == \
        _found_in_order(engine, text, None)


def test_the_ip_recognizer_reads_only_the_stretches_holding_a_hit(engine: Redactor) -> None:
    line = "GET /index.html HTTP/1.1 200 Mozilla Firefox user agent ok from 10.1.2.3 done\n"
    text = line * 50
    # (the recognizer reads a hit without the separator its trigger reads on either side)
    hits = [_inside_separators(text, a, b) for a, b, _ in _hits(engine, text)]
    windows = windows_near(text, hits, 0, 0, IP_SEPARATORS)
    assert windows is not None and len(windows) == 50
    assert all(text[lo:hi] == "10.1.2.3" for lo, hi in windows)
    assert len(_found(engine, text, _hits(engine, text))) == 50


@pytest.mark.parametrize("backend", ["re", "hyperscan"])
def test_the_full_form_trigger_hits_eight_groups_alone(backend: str) -> None:
    # Eight groups hit the "ipv6 full" trigger only where nothing but them stands
    # between its edges: an iptables MAC= field (fourteen groups) gives no hit at all.
    pytest.importorskip(backend)
    engine = Redactor(Settings(entities=("IP_ADDRESS",)), prefilter=backend)
    scanner = engine._scanner
    assert scanner is not None
    mac = "IN=eth0 OUT= MAC=ca:17:c8:0c:ec:5e:56:a7:56:9f:f4:01:08:00 SRC=x\n"
    assert scanner.regions(mac * 20) == {}
    for text in ("2001:0db8:0000:0000:0000:ff00:0042:8329", "ip 2001:db8:0:0:1:0:0:1\n",
                 "é0:0:0:0:0:0:0:1é"):
        hits = [hit for region in scanner.regions(text)["IP_ADDRESS"] for hit in region.hits]
        assert [name for _, _, name in hits] == ["ipv6 full"]
        # (the recognizer's own pattern reads a letter beyond ASCII as a word's)
        assert len(engine.analyze(text)) == (0 if "é" in text else 1)
    assert scanner.regions("x0:0:0:0:0:0:0:1") == {}
    assert scanner.regions("0:0:0:0:0:0:0:1:") == {}


def test_windows_give_up_without_a_separator_near() -> None:
    text = "x" * (EDGE_SEARCH + 10) + "10.0.0.1" + "y" * (EDGE_SEARCH + 10)
    assert windows_near(text, [(EDGE_SEARCH + 10, EDGE_SEARCH + 18)], 0, 0, " \n") is None
    short = "ab 10.0.0.1 cd"
    assert windows_near(short, [(3, 11)], 0, 0, " \n") == [(3, 11)]
    assert windows_near(short, [(3, 11)], 2, 2, " \n") == [(0, 14)]
    with pytest.raises(ValueError, match="line break"):
        windows_near(short, [(3, 11)], 0, 0, " ")


def _windows_reference(text: str, hits: list[tuple[int, int]], before: int, after: int,
                       separators: str) -> list[tuple[int, int]] | None:
    """windows_near as its docstring says, written the slow way: each window widened to
    the nearest separator within EDGE_SEARCH on each side, then merged.  A hit whose
    window ends inside a window already widened makes no window of its own (it is read
    there, whatever lies around it); one whose window starts inside it needs no
    separator before (the two merge)."""
    size = len(text)
    widened: list[tuple[int, int]] = []
    for first, last in sorted(hits):
        lo, hi = max(0, first - before), min(size, last + after)
        reached = max((end for _, end in widened), default=-1)
        if hi <= reached:
            continue
        right = next((i for i in range(hi, min(size, hi + EDGE_SEARCH))
                      if text[i] in separators), None)
        if right is None and hi < size and hi + EDGE_SEARCH < size:
            return None
        if lo <= reached:
            widened.append((lo, right if right is not None else size))
            continue
        left = next((i for i in range(lo - 1, max(0, lo - EDGE_SEARCH) - 1, -1)
                     if text[i] in separators), None)
        if left is None and lo > EDGE_SEARCH:
            return None
        widened.append((left + 1 if left is not None else 0,
                        right if right is not None else size))
    return _merged_touching(widened)


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(["x" * 40, "a", "1.2.3.4", " ", "\n", '"', "xyz" * 60]),
                       max_size=30),
       picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12)), max_size=6),
       reach=st.integers(0, 20))
# No separator at all: the first hit's window is the whole text, and a later hit too far
# from the text's start for a window of its own is read in it (CI found this case).
@example(pieces=["x" * 40] + ["xyz" * 60] * 3, picks=[(56, 12), (1673, 0)], reach=0)
@example(pieces=["xyz" * 60] * 3 + [" "], picks=[(0, 9), (533, 0)], reach=20)
def test_windows_are_the_stretches_between_separators_around_the_hits(
        pieces: list[str], picks: list[tuple[int, int]], reach: int) -> None:
    text = "".join(pieces)
    if not text:
        return
    hits = [(p % len(text), min(len(text), p % len(text) + width)) for p, width in picks]
    expected = _windows_reference(text, hits, reach, reach, " \n\"")
    found = windows_near(text, hits, reach, reach, " \n\"")
    if expected is None:
        assert found is None
    else:
        # A window that ends where the next starts (a hit inside the one before) merges.
        assert found is not None and _merged_touching(found) == _merged_touching(expected)


def _merged_touching(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for lo, hi in windows:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


@settings(max_examples=600, deadline=None)
@given(before=st.text(st.sampled_from("vV rR:=/\n\t\r.-_9aoçãÇAxSeçãocapítulorelase"
                                      "versãokernel buildsection chapter step item"),
                      max_size=24))
@example(before="Seção\n ")
@example(before="rv:")
@example(before="Firefox/")
@example(before="kernel ")
@example(before="vejaSeção ")
def test_the_version_check_is_skipped_only_where_its_pattern_cannot_match(before: str) -> None:
    from recognizers.generic import _VERSION_BEFORE, _may_end_version_words

    if _VERSION_BEFORE.search(before):
        assert _may_end_version_words(before)

"""The real-text benchmark's own logic (benchmarks/realtext.py) on small synthetic inputs.

Nothing here reaches the network or needs the fetched corpora, except the last test, which
checks the committed gold against ``.cache/realtext/`` and is skipped when it is absent.
"""

from __future__ import annotations

import gzip
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from benchmarks import realtext as rt
from redactor.engine import StreamNames

SOURCES = """
[group.logs]
targets = { wrong_per_mb_max = 50 }

[group.quotes]
targets = { wrong_per_mb_max = 20, person_recall_min = 0.8 }

[[source]]
name = "daemon-logs"
group = "logs"
package = "some-daemon"
version = "1.0-1"
licence = "GPL-2+"
base = "usr/share/some-daemon/tests"
include = ["logs/**/*", "*.log"]
exclude = ["*.bak"]
drop_lines = '^# expect:'

[[source]]
name = "quotes"
group = "quotes"
package = "some-quotes"
version = "2"
licence = "GPL-3+"
base = "usr/share/quotes"
include = "quotes.txt.gz"
render = "gzip"
encoding = "latin-1"
targets = { person_recall_min = 0.9 }
"""


def occurrence(entity: str, text: str, doc: str = "d", start: int = 0) -> rt.Occurrence:
    return rt.Occurrence(doc, start, start + len(text), entity, text)


# ---------------------------------------------------------------- source list


def test_sources_are_parsed_with_their_groups_targets() -> None:
    logs, quotes = rt.parse_sources(SOURCES)
    assert logs.name == "daemon-logs" and logs.package == "some-daemon"
    assert logs.include == ("logs/**/*", "*.log") and logs.exclude == ("*.bak",)
    assert logs.render == "text" and logs.encoding == "utf-8"
    assert dict(logs.targets) == {"wrong_per_mb_max": 50.0}
    assert quotes.include == ("quotes.txt.gz",)
    assert (quotes.render, quotes.encoding) == ("gzip", "latin-1")
    # A source's own targets go over its group's.
    assert dict(quotes.targets) == {"wrong_per_mb_max": 20.0, "person_recall_min": 0.9}


@pytest.mark.parametrize(("change", "message"), [
    (('render = "gzip"', 'render = "pdf"'), "render must be one of"),
    (('group = "quotes"', 'group = "news"'), "has no [group.news]"),
    (('name = "quotes"', 'name = "daemon-logs"'), "repeated"),
    (('name = "quotes"', 'name = "Quotes!"'), "a name is lower case"),
    (('include = "quotes.txt.gz"', 'include = "../../etc/passwd"'), "must stay inside base"),
    (('base = "usr/share/quotes"', 'base = "usr/../../etc"'), "base must stay inside"),
    (('licence = "GPL-3+"', 'licence = "GPL-3+"\nmirror = "x"'), "unknown keys"),
    (('licence = "GPL-3+"\n', ""), "'licence' is missing"),
    (('encoding = "latin-1"', 'encoding = "no-such-codec"'), "unknown encoding"),
    (("drop_lines = '^# expect:'", "drop_lines = '(unclosed'"), "drop_lines"),
    (("person_recall_min = 0.9", "recall = 0.9"), "unknown targets"),
    (("person_recall_min = 0.9", 'person_recall_min = "high"'), "must be a number"),
])
def test_bad_source_lists_are_refused(change: tuple[str, str], message: str) -> None:
    old, new = change
    assert old in SOURCES
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("+", r"\+")):
        rt.parse_sources(SOURCES.replace(old, new, 1))


def test_an_empty_source_list_is_refused() -> None:
    with pytest.raises(ValueError, match="no"):
        rt.parse_sources('[group.logs]\ntargets = {}\n')


def test_the_committed_source_list_parses() -> None:
    sources = rt.load_sources()
    groups = {s.group for s in sources}
    assert {"logs", "prose", "quotes", "news"} <= groups
    for source in sources:
        assert source.licence and source.version
        assert "wrong_per_mb_max" in source.targets
    assert rt.select(sources, ["fortunes-br"])[0].name == "fortunes-br"
    with pytest.raises(SystemExit, match="unknown source"):
        rt.select(sources, ["no-such-source"])


# ---------------------------------------------------------------- fetch (no network)


class FakeApt:
    """Stands in for apt-get and dpkg-deb: 'downloads' a package whose tree it writes itself."""

    def __init__(self, files: dict[str, bytes], version: str = "1.0-1",
                 missing: Sequence[str] = ()) -> None:
        self.files = files
        self.version = version
        self.missing = set(missing)
        self.calls: list[list[str]] = []

    def __call__(self, command: Sequence[str], cwd: Path) -> str:
        command = list(command)
        self.calls.append(command)
        if command[:2] == ["apt-get", "download"]:
            if command[2] in self.missing:
                raise RuntimeError("E: Version not found")
            package = command[2].split("=")[0]
            (cwd / f"{package}_{self.version}_all.deb").write_bytes(b"!<arch>\n")
            return ""
        if command[:2] == ["dpkg-deb", "-f"]:
            return self.version + "\n"
        if command[:2] == ["dpkg-deb", "-x"]:
            root = Path(command[3])
            for name, data in self.files.items():
                path = root / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            return ""
        raise AssertionError(f"unexpected command {command}")


def test_fetch_writes_the_members_and_a_manifest(tmp_path: Path) -> None:
    logs, _ = rt.parse_sources(SOURCES)
    base = "usr/share/some-daemon/tests/"
    apt = FakeApt({
        base + "logs/sshd": b"# expect: {match: true}\nFailed password for dan\n",
        base + "logs/bsd/syslog.txt": b"Invalid user toto from 192.0.2.1\n",
        base + "old.log": b"Accepted password for known\n",
        base + "old.log.bak": b"left out\n",
        base + "README": b"not a log\n",
        "usr/share/doc/some-daemon/copyright": b"GPL\n",
    })
    rt.fetch([logs], tmp_path, run=apt)
    assert apt.calls[0] == ["apt-get", "download", "some-daemon=1.0-1"]
    fetched = rt.load_fetched(logs, tmp_path)
    assert fetched is not None and fetched.version == "1.0-1"
    texts = {d.name: d.text for d in fetched.docs}
    assert texts == {"logs/bsd/syslog.txt": "Invalid user toto from 192.0.2.1\n",
                     "logs/sshd": "Failed password for dan\n",  # the annotation dropped
                     "old.log": "Accepted password for known\n"}
    assert fetched.size == sum(len(t.encode()) for t in texts.values())
    # A file changed after the fetch is noticed.
    (tmp_path / "daemon-logs" / "old.log").write_text("edited\n")
    with pytest.raises(RuntimeError, match="changed since fetch"):
        rt.load_fetched(logs, tmp_path)


def test_fetch_decodes_gzip_and_latin1_and_falls_back_to_the_archive_version(
        tmp_path: Path) -> None:
    _, quotes = rt.parse_sources(SOURCES)
    shipped = "Não há sucesso sem esforço.\n\t-- Fulano de Tal\n".encode("latin-1")
    apt = FakeApt({"usr/share/quotes/quotes.txt.gz": gzip.compress(shipped)}, version="3",
                  missing=["some-quotes=2"])
    rt.fetch([quotes], tmp_path, run=apt)
    assert ["apt-get", "download", "some-quotes"] in apt.calls
    fetched = rt.load_fetched(quotes, tmp_path)
    assert fetched is not None and fetched.version == "3"
    (doc,) = fetched.docs
    assert doc.name == "quotes.txt"
    assert doc.text == "Não há sucesso sem esforço.\n\t-- Fulano de Tal\n"


def test_html_pages_are_read_as_a_reader_sees_them() -> None:
    page = """<!DOCTYPE html><html><head><title>Hidden title</title>
<style>p { color: red }</style><script>var x = "Hidden";</script></head>
<body><ul class="docnav"><li><a href="a.html">Anterior</a></li></ul>
<div id="banner">Banner</div>
<h1>Uma   Breve
História</h1><p>Ian Murdock &amp; Debra
Lynn fundaram o <em>projeto</em>.<br/>Em 1993.</p>
<pre>$ ls
  a  b</pre><p>Fim&#x21;</p><img src="x.png"><p>Depois</p></body></html>"""
    assert rt.html_text(page) == ("Uma Breve História\n\nIan Murdock & Debra Lynn fundaram "
                                  "o projeto.\nEm 1993.\n\n$ ls\n  a  b\n\nFim!\n\nDepois\n")


def test_an_html_source_is_cached_as_text(tmp_path: Path) -> None:
    groups = SOURCES.split("[[source]]", maxsplit=1)[0].replace("logs", "news")
    (source,) = rt.parse_sources(groups + """
[[source]]
name = "handbook"
group = "news"
package = "some-handbook"
version = "1"
licence = "GPL-2+"
base = "usr/share/doc/handbook/html"
include = ["*.html"]
render = "html"
""")
    apt = FakeApt({"usr/share/doc/handbook/html/history.html":
                   b"<html><body><p>Ian Murdock</p></body></html>"})
    rt.fetch([source], tmp_path, run=apt)
    fetched = rt.load_fetched(source, tmp_path)
    assert fetched is not None
    assert [(d.name, d.text) for d in fetched.docs] == [("history.txt", "Ian Murdock\n")]


def test_a_source_that_matches_nothing_is_an_error(tmp_path: Path) -> None:
    logs, _ = rt.parse_sources(SOURCES)
    with pytest.raises(RuntimeError, match="no member"):
        rt.fetch([logs], tmp_path, run=FakeApt({"usr/share/other/file": b"x"}))


def test_an_unfetched_source_is_none(tmp_path: Path) -> None:
    logs, _ = rt.parse_sources(SOURCES)
    assert rt.load_fetched(logs, tmp_path) is None


# ---------------------------------------------------------------- blocks and findings


def test_blocks_end_at_line_breaks_and_keep_offsets() -> None:
    text = "aaaa\nbb\ncccccccccc\nd\n"
    pieces = list(rt.blocks(text, limit=8))
    assert "".join(block for _, block in pieces) == text
    assert [block for _, block in pieces] == ["aaaa\nbb\n", "cccccccccc\n", "d\n"]
    for offset, block in pieces:
        assert text[offset:offset + len(block)] == block
    assert list(rt.blocks("", limit=8)) == []
    # Sizes are UTF-8 bytes, as the CLI's: 'ã' counts 2.
    assert [b for _, b in rt.blocks("ããã\nx\n", limit=7)] == ["ããã\n", "x\n"]


class FakeEngine:
    """Finds every 'dan' as USERNAME; remembers the names set of each call."""

    def __init__(self) -> None:
        self.name_sets: list[int] = []

    def analyze(self, text: str, *, names: StreamNames | None = None) -> list[Any]:
        from redactor.results import Finding

        assert isinstance(names, StreamNames)
        self.name_sets.append(id(names))
        names.usernames.add("dan")
        start = text.find("dan")
        found = []
        while start >= 0:
            found.append(Finding(start, start + 3, "USERNAME", 0.9, "fake"))
            start = text.find("dan", start + 1)
        return found


def test_find_maps_block_offsets_back_and_carries_names_within_a_document(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rt, "BLOCK", 16)
    docs = [rt.Doc("a.log", "login dan ok\nuser x\nbye dan\n"), rt.Doc("b.log", "dan\n")]
    engine = FakeEngine()
    found = rt.find(engine, docs)  # type: ignore[arg-type]
    assert [(o.doc, o.start, o.text) for o in found] == [
        ("a.log", 6, "dan"), ("a.log", 24, "dan"), ("b.log", 0, "dan")]
    for o in found:
        assert {d.name: d.text for d in docs}[o.doc][o.start:o.end] == "dan"
    # One names set per document, shared by its blocks.
    assert len(engine.name_sets) == 3
    assert engine.name_sets[0] == engine.name_sets[1] != engine.name_sets[2]


# ---------------------------------------------------------------- judgments and precision


@pytest.mark.parametrize("value", [
    "plain", "tab\there", "two\nlines\r\n", "back\\slash\\t", "byte \udce9 kept", "",
])
def test_escaping_round_trips(value: str) -> None:
    escaped = rt.escape(value)
    assert "\t" not in escaped and "\n" not in escaped
    assert rt.unescape(escaped) == value


JUDGED = "\n".join([
    "# a comment",
    rt.JUDGED_HEADER,
    rt.judged_row("USERNAME", "dan", "pii"),
    rt.judged_row("USERNAME", "Disconnected", "wrong", note="an ordinary word"),
    rt.judged_row("IP_ADDRESS", "1.2.3.4", "both", pii=1, wrong=3),
    rt.judged_row("PERSON", "Fri\tJan", "wrong"),
    rt.judged_row("USERNAME", "later", "?", note="count=3 pending"),
    rt.judged_row("USERNAME", "blank", ""),
])


def test_judged_rows_are_parsed_and_pending_ones_left_out() -> None:
    judged = rt.parse_judged(JUDGED)
    assert set(judged) == {("USERNAME", "dan"), ("USERNAME", "Disconnected"),
                           ("IP_ADDRESS", "1.2.3.4"), ("PERSON", "Fri\tJan")}
    assert judged["USERNAME", "Disconnected"].note == "an ordinary word"
    both = judged["IP_ADDRESS", "1.2.3.4"]
    assert (both.verdict, both.pii, both.wrong, both.wrong_share) == ("both", 1, 3, 0.75)
    assert judged["USERNAME", "dan"].wrong_share == 0.0
    assert judged["PERSON", "Fri\tJan"].wrong_share == 1.0


@pytest.mark.parametrize(("row", "message"), [
    ("USERNAME\tdan", "needs entity, text and verdict"),
    ("USERNAME\tdan\tmaybe", "is not one of"),
    ("USERNAME\tdan\tboth\t3", "needs pii_count and wrong_count"),
    ("USERNAME\tdan\tboth\tx\t1", "whole numbers"),
    ("USERNAME\tdan\tpii\nUSERNAME\tdan\twrong", "judged twice"),
])
def test_bad_judged_rows_are_refused(row: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rt.parse_judged(row, "x.tsv")


def test_wrong_per_mb_counts_both_verdicts_in_proportion_and_unjudged_apart() -> None:
    judged = rt.parse_judged(JUDGED)
    found = ([occurrence("USERNAME", "dan")] * 5
             + [occurrence("USERNAME", "Disconnected")] * 2
             + [occurrence("IP_ADDRESS", "1.2.3.4")] * 8   # judged 1 pii : 3 wrong
             + [occurrence("USERNAME", "new")] * 3
             + [occurrence("EMAIL_ADDRESS", "x@y.org")])
    p = rt.score_precision(found, judged, size=500_000)
    assert p.findings == {"USERNAME": 10, "IP_ADDRESS": 8, "EMAIL_ADDRESS": 1}
    assert p.wrong == {"USERNAME": 2, "IP_ADDRESS": 6}
    assert p.pii == {"USERNAME": 5, "IP_ADDRESS": 2}
    assert p.wrong_total == 8 and p.pii_total == 7
    assert p.per_mb(p.wrong_total) == 16.0          # 8 wrong in 0.5 MB
    assert p.unjudged == {("USERNAME", "new"): 3, ("EMAIL_ADDRESS", "x@y.org"): 1}
    assert p.top_wrong(1) == [(("IP_ADDRESS", "1.2.3.4"), 6.0)]
    figures = p.as_dict()
    assert figures["wrong_per_mb"] == 16.0 and figures["unjudged"] == 4
    assert figures["unjudged_distinct"] == 2
    assert figures["wrong_per_mb_per_entity"] == {"IP_ADDRESS": 12.0, "USERNAME": 4.0}


def test_groups_sum_bytes_and_occurrences() -> None:
    judged = rt.parse_judged(JUDGED)
    group = rt.Precision()
    group.add(rt.score_precision([occurrence("USERNAME", "Disconnected")], judged, 250_000))
    group.add(rt.score_precision([occurrence("USERNAME", "Disconnected")] * 3, judged, 750_000))
    assert group.bytes == 1_000_000 and group.per_mb(group.wrong_total) == 4.0


def test_a_groups_name_figures_are_the_sums_of_its_sources() -> None:
    # Two small sources of one kind: each misses the multi-word target, their sum meets it.
    group = rt.Names()
    group.add(rt.Names(persons=100, found=80, multiword=80, multiword_found=62, others=40,
                       intact=40))
    group.add(rt.Names(persons=50, found=40, multiword=20, multiword_found=20, others=10,
                       intact=9))
    assert (group.persons, group.found, group.multiword, group.multiword_found) == (150, 120,
                                                                                     100, 82)
    assert group.recall == 0.8 and group.multiword_recall == 0.82
    assert group.intact_ratio == 49 / 50


def test_targets_are_checked_both_ways() -> None:
    judged = rt.parse_judged(JUDGED)
    p = rt.score_precision([occurrence("USERNAME", "Disconnected")] * 30, judged, 1_000_000)
    names = rt.Names(persons=10, found=9, multiword=4, multiword_found=3, others=0)
    checks = rt.checks({"wrong_per_mb_max": 20, "person_recall_min": 0.8,
                        "multiword_recall_min": 0.85, "intact_min": 0.97}, p, names)
    assert checks["wrong_per_mb_max"]["met"] is False
    assert checks["person_recall_min"]["met"] is True
    assert checks["multiword_recall_min"]["met"] is False
    assert "intact_min" not in checks  # no place or organisation labelled: nothing to check


def test_unjudged_findings_become_pending_rows_the_parser_skips() -> None:
    source = rt.parse_sources(SOURCES)[0]
    text = "Invalid user new\tone from x\nuser=new\n"
    found = [occurrence("USERNAME", "new\tone", "a.log", 13), occurrence("USERNAME", "new",
                                                                         "a.log", 33)]
    fetched = rt.Fetched(source.name, "1", (rt.Doc("a.log", text),))
    result = rt.SourceResult(source, "1", 1, rt.score_precision(found, {}, 100), None, 0.0,
                             found, [])
    rows = rt.unjudged_rows(result, fetched)
    assert len(rows) == 2
    assert rows[0].split("\t")[:3] == ["USERNAME", "new", "?"]
    assert "count=1" in rows[0] and "[[new]]" in rows[0]
    assert rows[1].split("\t")[1] == "new\\tone"
    assert rt.parse_judged("\n".join(rows)) == {}
    assert rt.contexts(result, fetched, "USERNAME", "new") == ["a.log:2: user=[[new]]"]


# ---------------------------------------------------------------- names


GOLD_TEXT = "\tAmar é sofrer.\n\t\t-- Carlos Drummond de Andrade, em Belo Horizonte\n" \
            "Disse o Zé à Petrobras.\n"


def gold_span(doc: str, text: str, needle: str, label: str) -> str:
    start = text.index(needle)
    return "\t".join((doc, str(start), str(start + len(needle)), label, rt.escape(needle)))


GOLD = "\n".join([
    "# comment", rt.GOLD_HEADER,
    gold_span("q", GOLD_TEXT, "Carlos Drummond de Andrade", "PER"),
    gold_span("q", GOLD_TEXT, "Belo Horizonte", "LOC"),
    gold_span("q", GOLD_TEXT, "Zé", "PER"),
    gold_span("q", GOLD_TEXT, "Petrobras", "ORG"),
])


def test_gold_spans_are_parsed_and_checked_against_the_text() -> None:
    spans = rt.parse_gold(GOLD)
    assert [(s.label, s.text, s.words) for s in spans] == [
        ("PER", "Carlos Drummond de Andrade", 4), ("LOC", "Belo Horizonte", 2),
        ("PER", "Zé", 1), ("ORG", "Petrobras", 1)]
    assert rt.check_gold(spans, [rt.Doc("q", GOLD_TEXT)]) == []
    problems = rt.check_gold(spans, [rt.Doc("q", GOLD_TEXT.replace("Zé", "Ze"))])
    assert len(problems) == 1 and "'Zé'" in problems[0]
    assert rt.check_gold(spans[:1], [])[0].startswith("q: no such document")


@pytest.mark.parametrize(("row", "message"), [
    ("q\t1\t2\tPESSOA\tx", "not PER, LOC or ORG"),
    ("q\t1\tx\tPER\tx", "must be numbers"),
    ("q\t1\t5\tPER\tx", "bad span"),
    ("q\t1\t2\tPER", "needs doc, start, end, label, text"),
])
def test_bad_gold_rows_are_refused(row: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rt.parse_gold(row)


def test_person_recall_needs_every_word_covered_and_places_must_be_untouched() -> None:
    spans = rt.parse_gold(GOLD)
    start = GOLD_TEXT.index("Carlos")
    # The name covered by two findings (any entity): found.  'Zé' not covered: missed.
    found = [rt.Occurrence("q", start, start + 15, "PERSON", "Carlos Drummond"),
             rt.Occurrence("q", start + 16, start + 26, "USERNAME", "de Andrade")]
    names = rt.score_names(spans, found)
    assert (names.persons, names.found, names.multiword, names.multiword_found) == (2, 1, 1, 1)
    assert names.recall == 0.5 and names.multiword_recall == 1.0
    assert names.intact_ratio == 1.0 and [s.text for s in names.missed] == ["Zé"]
    # Half a name is not a name found; a finding that touches a place breaks it.
    where = GOLD_TEXT.index("Horizonte")
    partial = [rt.Occurrence("q", start, start + 6, "PERSON", "Carlos"),
               rt.Occurrence("q", where, where + 9, "PERSON", "Horizonte")]
    names = rt.score_names(spans, partial)
    assert names.found == 0 and names.multiword_recall == 0.0
    assert names.intact == 1 and names.intact_ratio == 0.5
    assert [s.text for s in names.touched] == ["Belo Horizonte"]
    figures = names.as_dict()
    assert figures["person_recall"] == 0.0 and figures["touched"] == ["LOC Belo Horizonte"]
    assert math.isnan(rt.score_names([], []).recall)


# ---------------------------------------------------------------- committed gold


def test_committed_judgments_and_gold_parse() -> None:
    for source in rt.load_sources():
        judged = rt.load_judged(source.name)
        assert judged, f"{source.name} has no judged findings"
        for judgment in judged.values():
            assert judgment.verdict in rt.VERDICTS
    for name in ("fortunes-br", "debian-history"):
        gold = rt.load_gold(name)
        assert gold is not None
        assert sum(s.label == rt.PERSON_LABEL for s in gold) >= 180


def test_committed_gold_matches_the_fetched_text() -> None:
    sources = {s.name: s for s in rt.load_sources()}
    checked = 0
    for name in ("fortunes-br", "debian-history"):
        fetched = rt.load_fetched(sources[name])
        if fetched is None:
            continue
        gold = rt.load_gold(name)
        assert gold is not None
        assert rt.check_gold(gold, fetched.docs) == []
        checked += 1
    if not checked:
        pytest.skip("the corpora are not fetched (python -m benchmarks.realtext fetch); "
                    "the gold offsets can only be checked against them")

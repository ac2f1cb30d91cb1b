"""Triggers that write in their pattern what their accept used to refuse (issue 33: a hit
per line of a web log, each asked alone): the hits left are those the accept takes."""

from __future__ import annotations

import pytest

from redactor.config import Settings
from redactor.engine import Redactor


def _hits(backend: str, entity: str, text: str) -> list[tuple[int, int, str]]:
    pytest.importorskip(backend)
    engine = Redactor(Settings(entities=(entity,)), prefilter=backend)
    scanner = engine._scanner
    assert scanner is not None
    return [hit for region in scanner.regions(text).get(entity, []) for hit in region.hits]


@pytest.mark.parametrize("backend", ["re", "hyperscan"])
def test_a_url_is_a_hit_only_with_credentials(backend: str) -> None:
    referers = '"GET / HTTP/1.1" 200 "https://exemplo.com.br/a?b=c" "Mozilla/5.0"\n' * 30
    assert _hits(backend, "SECRET", referers) == []
    for url in ("postgres://app:Xk9mq2Lp7@db:5432/x", "https://u:p\u00a0w@h/",
                "ftp://:segredo@host", "redis://:é@cache"):
        text = f"conectando em {url} agora"
        assert [name for _, _, name in _hits(backend, "SECRET", text)] == ["url"], url
    # A blank or a slash ends the credentials, as the accept reads them.
    assert _hits(backend, "SECRET", "https://u: p@h https://u/p:q@h") == []


@pytest.mark.parametrize("backend", ["re", "hyperscan"])
def test_an_access_log_line_without_a_login_is_no_hit(backend: str) -> None:
    line = '203.0.113.9 - - [10/Oct/2024:13:55:36 -0300] "GET / HTTP/1.1" 200 512\n'
    assert _hits(backend, "USERNAME", line * 40) == []
    named = line.replace("- - [", "- jsilva [")
    hits = _hits(backend, "USERNAME", named)
    assert [name for _, _, name in hits] == ["access log"]
    engine = Redactor(Settings(entities=("USERNAME",)), prefilter=backend)
    assert [f.entity_type for f in engine.analyze(named)] == ["USERNAME"]


@pytest.mark.parametrize("backend", ["re", "hyperscan"])
def test_a_trigger_s_edge_on_the_joining_line_break_is_its_piece_s_own(backend: str) -> None:
    # pieces_hit joins a JSON line's texts with line breaks: a hit whose edge character
    # (a trigger's "(?:^|[^0-9])") is that line break, or whose start hyperscan reports
    # as its reach back from its end, is its own piece's, judged there (the review of
    # issue 33's fourteenth stop: each marked the piece before as hit too).
    pytest.importorskip(backend)
    engine = Redactor(Settings(), prefilter=backend)
    assert engine.pieces_hit(["hello world", "1.2.3.4"]) == {1}
    assert engine.pieces_hit(["hello world", "2001:db8:0:0:0:0:0:1"]) == {1}
    assert engine.pieces_hit(["hello", " [10/Oct/2000:13:55:36 -0700]"]) == set()
    assert engine.pieces_hit(["x", "y", 'aws_secret_access_key="' + "A" * 40 + '"']) == {2}
    assert engine.pieces_hit(["1.2.3.4", "ok"]) == {0}

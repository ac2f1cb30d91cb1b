"""PERSON's name-key patterns are tried only where a name key starts (person._from_keys):
the matches must be those of ``finditer`` over the same stretch, on any text."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers import person

PIECES = ["name", "Name", "NAME", "nome", "nome_completo", "first_name", "firstname",
          "FullName", "display_name", "mãe", "mae", "respon\u017fável", "responsável",
          "cliente", "autor", "author", "contato", "titular", "=", ":", " = ", '="', "='", '"',
          "'", "Maria", "Maria Souza", "João", "Silva", "+", "%20", "%C3%A3", "&", "?", "#",
          " ", "  ", "\n", ",", ";", '<Data Name="TargetUserName">', "</Data>", "x", "_", "9",
          "Ana+Paula", "José%20Lima", "xname", "name1", "name5", "\u212a", "é", "ſ"]
ASCII = [p for p in PIECES if p.isascii()]


def _same(text: str, pos: int, end: int | None) -> None:
    for pattern in (person._KEY_VALUE, person._FORM_VALUE):
        stop = len(text) if end is None else end
        expected = [(m.span(), m.group()) for m in pattern.finditer(text, pos, stop)]
        got = [(m.span(), m.group()) for m in person._from_keys(pattern, text, pos, end)]
        assert got == expected, (text, pos, end)


@st.composite
def _stretches(draw: st.DrawFn, pieces: list[str]) -> tuple[str, int, int | None]:
    text = "".join(draw(st.lists(st.sampled_from(pieces), max_size=25)))
    pos = draw(st.integers(0, len(text)))
    end = draw(st.one_of(st.none(), st.integers(pos, len(text))))
    return text, pos, end


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(("x'name=Maria Souza'", 0, None))
@example(('<Data Name="TargetUserName">jsilva</Data> nome=Ana+Paula&x=1', 0, None))
@example(("firstname=Maria name=João", 1, None))
@given(st.one_of(_stretches(ASCII), _stretches(PIECES)))
def test_the_matches_are_finditers(stretch: tuple[str, int, int | None]) -> None:
    _same(*stretch)

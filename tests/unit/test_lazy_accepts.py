"""Regions ask a trigger's accept only when its answer decides something (issue 33).

``redactor.candidates._merged`` must build the regions that asking every accept first
and merging the accepted hits builds (the reference below), and list every accepted
hit; a hit it did not ask about lies inside its region.  On a log with a secret key on
every line, most accepts are never asked.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recognizers.prefilter import Prefilter, Trigger
from redactor.candidates import Region, Scanner, _Entity, _merged, _region


def _eager(text: str, cores: list[tuple[int, int, int, int, Trigger]], gap: int,
           entity: _Entity) -> list[Region]:
    accepted = sorted(c for c in cores if c[4].accept is None or c[4].accept(text, c[2], c[3]))
    regions: list[Region] = []
    hits: list[tuple[int, int, str]] = []
    lo = hi = 0
    for start, end, first, last, trigger in accepted:
        if hits and start - hi <= gap:
            hi = max(hi, end)
            hits.append((first, last, trigger.name))
            continue
        if hits:
            regions.append(_region(lo, hi, entity, len(text), hits))
        lo, hi, hits = start, end, [(first, last, trigger.name)]
    if hits:
        regions.append(_region(lo, hi, entity, len(text), hits))
    return regions


_HIT = st.tuples(st.integers(0, 2000), st.integers(0, 30), st.integers(0, 2),
                 st.booleans())


@settings(max_examples=400, deadline=None)
@given(hits=st.lists(_HIT, max_size=60), gap=st.integers(0, 300))
def test_the_regions_equal_those_of_asking_every_accept_first(
        hits: list[tuple[int, int, int, bool]], gap: int) -> None:
    text = "x" * 2100
    verdicts: dict[tuple[int, int, str], bool] = {}
    asked: list[tuple[int, int, str]] = []
    triggers = []
    for number, (before, after) in enumerate([(0, 40), (25, 90), (60, 10)]):
        name = f"t{number}"

        def accept(text: str, first: int, last: int, name: str = name) -> bool:
            asked.append((first, last, name))
            return verdicts[(first, last, name)]

        triggers.append(Trigger("x", before=before, after=after, name=name,
                                accept=accept if number != 2 else None))
    cores = []
    for first, length, which, verdict in hits:
        trigger = triggers[which]
        last = first + length
        verdicts[(first, last, trigger.name)] = verdict
        cores.append((first - trigger.before, last + trigger.after, first, last, trigger))
    entity = _Entity("E", tuple(triggers), 0, 0, 90, 90)
    expected = _eager(text, list(cores), gap, entity)
    asked.clear()
    cores.sort(key=lambda c: (c[0], c[1], c[2], c[3], c[4].name))
    got = _merged(text, cores, gap, entity, len(text))
    assert [(r.start, r.end, r.trust_from, r.trust_to) for r in got] == \
           [(r.start, r.end, r.trust_from, r.trust_to) for r in expected]
    for mine, theirs in zip(got, expected, strict=True):
        assert set(theirs.hits) <= set(mine.hits)
        for first, last, name in set(mine.hits) - set(theirs.hits):
            trigger = triggers[int(name[1:])]
            assert (first, last, name) not in asked  # joined unasked, never refused
            assert mine.start <= max(0, first - trigger.before)
            assert min(len(text), last + trigger.after) <= mine.end
    assert len(asked) <= len(hits)


def test_a_secret_key_on_every_line_is_judged_by_the_recognizer_not_the_accept() -> None:
    asked = []

    def accept(text: str, first: int, last: int) -> bool:
        asked.append(first)
        return True

    trigger = Trigger("token", before=10, after=300, name="key", accept=accept)
    scanner = Scanner([Prefilter("SECRET", (trigger,))], "re")
    text = "".join(f'{{"n":{i},"token":"idem_{i:08x}"}}\n' for i in range(400))
    (region,) = scanner.regions(text)["SECRET"]
    assert len(region.hits) == 400
    assert len(asked) <= len(region.hits) // 10  # one per stretch of about the gap

"""The user names carried into a block of JSON lines, looked for in all its clean lines at
once (issue 33, JSON Lines at the speed of text): ``batch._CarriedNames`` answers for each
line what ``batch._carried_in`` answers of that line alone, with the names the stream holds
when the line comes (names are added by the block's own lines on the way)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from redactor.batch import _carried_in, _CarriedNames
from redactor.engine import StreamNames

NAMES = ("jsilva", "rcunha", "maria.souza", "svc-app", "u12", "ana@corp", "joão", "ab",
         "a-b", "x_y", "sap01", "jsilva.bak", "straße", "k")
WORDS = NAMES + ("JSilva", "RCUNHA", "a-jsilva", "jsilva-", "-jsilva", "_jsilva", "jsilva_",
                 "jsilva.", ".jsilva", "maria.souza.x", "u123", "x.u12", "u12-", "ab.c", "abab",
                 "Joao", "João", "STRASSE", "\\u00e3", "\\\\", "é", "{", " ", "\n", "\t", "-",
                 ".", "k8s", "ok")
LINE = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join) | st.lists(
    st.sampled_from(WORDS), max_size=6).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINE, min_size=0, max_size=12),
       exact=st.sets(st.sampled_from(NAMES), max_size=8),
       caseless=st.sets(st.sampled_from(NAMES).map(str.casefold), max_size=4),
       many=st.booleans(),
       added=st.lists(st.tuples(st.integers(0, 12), st.sampled_from(NAMES), st.booleans()),
                      max_size=6))
@example(lines=["a jsilva", "nada"], exact={"jsilva"}, caseless=set(), many=True, added=[])
@example(lines=["nada", "rcunha aqui", "rcunha"], exact=set(), caseless=set(), many=False,
         added=[(1, "rcunha", False)])
def test_each_line_gets_the_answer_of_its_own_search(
        lines: list[str], exact: set[str], caseless: set[str], many: bool,
        added: list[tuple[int, str, bool]]) -> None:
    # Past FEW_NAMES names, a name is looked for among a line's tokens; below, each
    # name is searched for first.
    filler = {f"nome{n}" for n in range(20)} if many else set()
    names = StreamNames(usernames=exact | filler, caseless_usernames=set(caseless))
    carried = _CarriedNames(names, list(enumerate(lines)))
    for number, line in enumerate(lines):
        for at, name, is_caseless in added:
            if at == number:
                (names.caseless_usernames if is_caseless else names.usernames).add(
                    name.casefold() if is_caseless else name)
        assert carried.stand_in(number, line) == _carried_in(line, names), (number, line)


def test_names_added_line_after_line_stop_the_block_search_at_its_budget() -> None:
    # Every line adds a name found in every line after it: each search would read the
    # rest of the block again.  Past the budget, the lines are asked one by one.
    lines = [" ".join(f"user{k}" for k in range(60)) for _ in range(60)]
    names = StreamNames(usernames={f"nome{n}" for n in range(20)})
    carried = _CarriedNames(names, list(enumerate(lines)))
    answers = []
    for number, line in enumerate(lines):
        names.usernames.add(f"user{number}")
        answers.append(carried.stand_in(number, line))
        assert answers[-1] == _carried_in(line, names)
    assert all(answers)
    assert carried._budget < 0


def test_no_names_no_search() -> None:
    carried = _CarriedNames(None, [(0, "jsilva"), (1, "x")])
    assert not carried.stand_in(0, "jsilva")
    carried = _CarriedNames(StreamNames(), [(0, "jsilva"), (1, "x")])
    assert not carried.stand_in(0, "jsilva") and not carried.stand_in(1, "x")

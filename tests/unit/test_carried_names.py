"""The user names carried into a block of JSON lines, looked for in all its lines at once
(issue 33, JSON Lines at the speed of text): ``batch._NamesInLines`` gives for each line
the names ``logins_standing_in`` finds in that line's text alone, with the names the stream
holds when the line comes (names are added by the block's own lines on the way), and
``batch._carried_in`` answers alike with it and without."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from recognizers.username import login_spans
from redactor.batch import _carried_in, _NamesInLines
from redactor.engine import StreamNames
from redactor.engine.analysis import seen_as_analysed
from redactor.engine.propagation import logins_standing_in

NAMES = ("jsilva", "rcunha", "maria.souza", "svc-app", "u12", "ana@corp", "joão", "ab",
         "a-b", "x_y", "sap01", "jsilva.bak", "straße", "k", "Ana Lima", "ana lima",
         "lima", "a\nb", "-x", "a..b")
WORDS = (*NAMES, "JSilva", "RCUNHA", "a-jsilva", "jsilva-", "-jsilva", "_jsilva", "jsilva_",
         "jsilva.", ".jsilva", "maria.souza.x", "u123", "x.u12", "u12-", "ab.c", "abab", "Joao",
         "João", "STRASSE", "\\u00e3", "\\\\", "é", "{", " ", "\n", "\t", "-", ".", "k8s", "ok",
         "Ana", "ANA", "a", "b", "x", "..")
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
    searched = _NamesInLines(names, [(n, seen_as_analysed(line)) for n, line in enumerate(lines)])
    for number, line in enumerate(lines):
        for at, name, is_caseless in added:
            if at == number:
                (names.caseless_usernames if is_caseless else names.usernames).add(
                    name.casefold() if is_caseless else name)
        alone = logins_standing_in(seen_as_analysed(line), names)
        together = searched.standing_in(number, seen_as_analysed(line))
        assert (together.usernames, together.caseless_usernames) == (
            alone.usernames, alone.caseless_usernames), (number, line)
        assert _carried_in(line, names, searched, number) == _carried_in(line, names)


def test_names_added_line_after_line_stop_the_block_search_at_its_budget() -> None:
    # Every line adds a name found in every line after it: each search would read the
    # rest of the block again.  Past the budget, the lines are asked one by one.
    lines = [" ".join(f"user{k}" for k in range(60)) for _ in range(60)]
    names = StreamNames(usernames={f"nome{n}" for n in range(20)})
    searched = _NamesInLines(names, list(enumerate(lines)))
    answers = []
    for number, line in enumerate(lines):
        names.usernames.add(f"user{number}")
        answers.append(searched.standing_in(number, line).usernames)
        assert answers[-1] == logins_standing_in(line, names).usernames
    assert all(answers)
    assert searched._budget < 0


def test_a_text_other_than_the_lines_is_read_itself() -> None:
    names = StreamNames(usernames={f"nome{n}" for n in range(20)} | {"jsilva"})
    searched = _NamesInLines(names, [(0, "nada"), (1, "jsilva")])
    assert searched.standing_in(0, "jsilva aqui").usernames == {"jsilva"}
    assert searched.standing_in(1, "jsilva").usernames == {"jsilva"}
    assert not searched.standing_in(1, "outro").usernames


def test_no_names_no_search() -> None:
    searched = _NamesInLines(None, [(0, "jsilva"), (1, "x")])
    assert not _carried_in("jsilva", None, searched, 0)
    searched = _NamesInLines(StreamNames(), [(0, "jsilva"), (1, "x")])
    assert not _carried_in("jsilva", StreamNames(), searched, 0)
    assert not searched.standing_in(1, "x").usernames


def test_names_that_cannot_be_searched_added_line_after_line_stay_linear() -> None:
    # Found by review: names beyond ASCII, added one per line, were told apart from the
    # others by reading all of them at each line (100,000 names: 12 s for 2,000 lines).
    # The reading is charged to the budget: past it, each line reads itself.
    names = StreamNames(usernames={f"user{i}" for i in range(100_000)})
    lines = ['{"msg": "ok"}'] * 2000
    searched = _NamesInLines(names, list(enumerate(lines)))
    for number, line in enumerate(lines):
        assert not searched.standing_in(number, line).usernames
        names.usernames.add(f"jo\u00e3o{number}")
    assert searched._budget < 0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINE, exact=st.sets(st.sampled_from(NAMES), max_size=8),
       caseless=st.sets(st.sampled_from(NAMES).map(str.casefold), max_size=4),
       many=st.booleans())
@example(line="job by Ana Lima", exact={"Ana Lima"}, caseless=set(), many=False)
@example(line="ANA LIMA saiu", exact=set(), caseless={"ana lima"}, many=True)
def test_the_names_standing_in_a_text_are_those_login_spans_finds(
        line: str, exact: set[str], caseless: set[str], many: bool) -> None:
    # What the analysis spreads (usernames_propagated: login_spans over the carried
    # names) is what decides that a quiet text holds a carried name: display names too
    # (found by review: "Qwerty Asdf" carried from a "usr" key was left on later lines).
    filler = {f"nome{n}" for n in range(20)} if many else set()
    names = StreamNames(usernames=exact | filler, caseless_usernames=set(caseless))
    text = seen_as_analysed(line)
    if not text.isascii():  # (beyond ASCII the token pass and the search may part)
        return
    spans = login_spans(text, names.usernames, names.caseless_usernames)
    found = logins_standing_in(text, names)
    assert found.usernames == {name for name, caseless in spans if not caseless}
    assert found.caseless_usernames == {name for name, caseless in spans if caseless}


def _filed(unchained: object) -> set[str]:
    from redactor.engine.propagation import _Unchained

    assert isinstance(unchained, _Unchained)
    return set().union(*unchained.by_word.values()) | unchained.wordless


def test_names_that_are_no_chain_are_told_apart_as_they_come() -> None:
    names = StreamNames(usernames={"jsilva"})
    assert [_filed(u) for u in names.unchained_usernames()] == [set(), set()]
    names.add_login("Ana Lima", False)
    names.caseless_usernames.add("corp\\rcunha")  # put in the set directly
    assert [_filed(u) for u in names.unchained_usernames()] == [{"Ana Lima"}, {"corp\\rcunha"}]
    assert logins_standing_in("por Ana Lima hoje", names).usernames == {"Ana Lima"}
    assert logins_standing_in("por CORP\\RCUNHA", names).caseless_usernames == {"corp\\rcunha"}
    assert not logins_standing_in("por Ana Limas hoje", names).usernames
    # A set replaced (spark.py puts a partition's names back) is read anew; a name taken
    # out is not answered, and one put back is answered again.
    names.usernames = {"Rui Costa", "x"}
    assert _filed(names.unchained_usernames()[0]) == {"Rui Costa"}
    names.usernames.discard("Rui Costa")
    assert not logins_standing_in("por Rui Costa", names).usernames
    names.add_login("Rui Costa", False)
    assert logins_standing_in("por Rui Costa", names).usernames == {"Rui Costa"}
    assert "Rui" not in repr(names)


def test_many_display_names_cost_their_lines_words_not_their_number() -> None:
    # Found by review: each line searched every display name carried, and telling the
    # new names apart read them all: 16,000 lines adding one each took 25 s.
    names = StreamNames()
    looked = 0
    for number in range(20_000):
        names.add_login(f"Nome{number} Sobrenome{number}", False)
        exact, _ = names.unchained_usernames()
        looked += len(exact.by_word.get(f"Nome{number}", ()))
        assert logins_standing_in(f"msg de Nome{number} Sobrenome{number}",
                                  names).usernames == {f"Nome{number} Sobrenome{number}"}
    assert looked == 20_000
    assert len(names.unchained_usernames()[0].by_word) == 20_000

"""USERNAME runs only the shapes whose anchors the prefilter hit, each on the lines that
hold such a hit, or, on a text analysed without hits, the shapes whose anchors match it
(issue 33).

Every match of a shape holds a hit of one of its anchors (_Shape.anchors): checked on
each family of the log zoo and on the documented log formats, on every backend.  With
those hits, the recognizer's results equal its results without them.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import zoo
from recognizers import username
from recognizers.username import UsernameRecognizer
from redactor.candidates import Scanner
from tests import needs
from tests.integration.test_username_log_formats import test_log_formats_name_their_users

FORMATS = [text for text, _ in test_log_formats_name_their_users.pytestmark[0].args[1]]
EXTRA = [
    "sudo: jsilva : TTY=pts/0 ; PWD=/home/jsilva ; COMMAND=/bin/ls",
    "uid=1000(jsilva) gid=1000(jsilva) groups=1000(jsilva)",
    "sudo -u mcosta psql -U rlima --user=ffreitas db",
    "Failed password for invalid user pgomes from 192.0.2.8 port 22 ssh2",
    "pam_unix(sshd:session): session opened for user acastro by (uid=0)",
    "Logon failed for user JSILVA in client 100", "usuário 'maria' bloqueado",
    "C:\\Users\\jsilva\\AppData /home/rlima/.bashrc /Users/bcosta/x",
    "ssh jsilva@10.0.0.5; [rlima@srv01 ~]$ scp f mcosta@build01:/tmp",
    "<user>jsilva</user><login>rlima</login>", "login = 'acastro'", "BNAME = JSILVA",
]


def _texts() -> list[str]:
    texts = FORMATS + EXTRA
    for family in zoo.FAMILIES:
        text, _ = zoo.generate(family, 0.1)
        texts.append(text)
    return texts


TEXTS = _texts()


def _scanner(recognizer: UsernameRecognizer, backend: str) -> Scanner:
    return Scanner([recognizer.prefilter(0.5)], backend)


def test_every_shape_names_triggers_of_the_prefilter() -> None:
    recognizer = UsernameRecognizer()
    names = {t.name for t in recognizer.prefilter(0.5).triggers}
    for shape in username._SHAPES:
        assert shape.anchors and shape.anchors <= names, shape.name


@pytest.mark.parametrize("backend", needs.backends())
def test_every_match_of_a_shape_holds_a_hit_of_its_anchors(backend: str) -> None:
    scanner = _scanner(UsernameRecognizer(), backend)
    matched = 0
    for text in TEXTS:
        hits = scanner._find(text)
        for shape in username._SHAPES:
            anchored = [(start, end) for _, trigger, start, end in hits
                        if trigger.name in shape.anchors or trigger.name == "any"]
            for match in shape.pattern.finditer(text, overlapped=True):
                matched += 1
                assert any(start < match.end() and end > match.start()
                           for start, end in anchored), (shape.name, match.group())
    assert matched > 100  # the texts hold the shapes


@pytest.mark.parametrize("backend", needs.backends())
def test_results_with_the_hits_equal_results_without(backend: str) -> None:
    recognizer = UsernameRecognizer()
    scanner = _scanner(recognizer, backend)
    skipped = 0
    for text in TEXTS:
        hits = [(start, end, trigger.name) for _, trigger, start, end in scanner._find(text)
                if trigger.accept is None or trigger.accept(text, start, end)]
        names = {name for _, _, name in hits}
        skipped += sum(1 for shape in username._SHAPES if names.isdisjoint(shape.anchors))
        expected = recognizer.analyze(text, ["USERNAME"], hits=EVERY_SHAPE)
        got = recognizer.analyze(text, ["USERNAME"], hits=hits)
        assert [(r.start, r.end, r.score) for r in got] == \
               [(r.start, r.end, r.score) for r in expected]
    if backend == "hyperscan":
        assert skipped  # the shortcut is taken where the triggers keep their names


#: A hit of a name no shape knows: every shape runs (see the test below).
EVERY_SHAPE = [(0, 0, "any")]
#: Texts analysed whole without hits: JSON values under a user key, as the engine
#: reads them (``"<key>: <value>"``) and as the recognizer rewrites them as data.
LIFTED = [
    "user: u_6060b6cbb1", "user: svc-estoque", '"user": "jose.lima"', "login: Disconnected",
    "TargetUserName: PFreitas", '"TargetUserName": "PFreitas"', "usuario: mferreira",
    "owner: arn:aws:iam::123456789012:user/ops/jsilva", "user: jsilva@srv01",
    "created_by: /home/rlima", "user: <rcunha>", "operador: DIA 034 JSILVA",
]


def test_a_text_without_hits_runs_the_shapes_its_anchors_match() -> None:
    recognizer = UsernameRecognizer()
    chosen = 0
    lines = [line for whole in TEXTS for line in whole.splitlines()[:40]]
    for text in TEXTS + LIFTED + lines:
        anchors = recognizer._anchors_in(text)
        chosen += anchors is not None and len(anchors) < len(username._ANCHOR_NAMES)
        got = recognizer.analyze(text, ["USERNAME"])
        expected = recognizer.analyze(text, ["USERNAME"], hits=EVERY_SHAPE)
        assert [(r.start, r.end, r.score) for r in got] == \
               [(r.start, r.end, r.score) for r in expected], text
    assert chosen > 100  # the shortcut is taken
    assert recognizer._anchors_in("usuário jsilva") is None  # beyond ASCII: every shape


def test_a_hit_of_an_unknown_name_runs_every_shape() -> None:
    recognizer = UsernameRecognizer()
    text = "Failed password for invalid user pgomes from 192.0.2.8 port 22"
    found = recognizer.analyze(text, ["USERNAME"], hits=[(0, 3, "any")])
    assert [text[r.start:r.end] for r in found] == ["pgomes"]
    assert recognizer.analyze(text, ["USERNAME"], hits=[(0, 3, "at")]) == []


# Found by review: hyperscan's caseless triggers do not read İ as i (Python's do), so
# a shape matched where no anchor hit; such texts now skip the prefilter.
@pytest.mark.parametrize("text", [
    "LOGİN: jsilva maria@srv01 ", "logİn=jsilva maria@srv01 ", "logİn=jsilva",
    '<Data Name="UserLogİn">jsilva</Data> maria@srv01 ', "uİd=jsilva,ou=people maria@srv01 ",
    "Failed publİckey for jsilva from 1.2.3.4 maria@srv01 ", "uſer=jsilva rlima@srv01",
    "LOGıN: jsilva",
])
def test_case_variants_of_i_and_s_are_read_as_unfiltered(text: str) -> None:
    from redactor.config import Settings
    from redactor.engine import Redactor

    expected = Redactor(Settings(), prefilter=False)._spans(text, None)
    assert any(text[s.start:s.end] == "jsilva" for s in expected) or "ı" in text
    for backend in needs.backends():
        engine = Redactor(Settings(), prefilter=backend)
        engine.prefilter_min_chars = 0
        assert engine._spans(text, None) == expected, (backend, text)


#: Pieces of log lines: every shape's anchors and forms, names, what ends a value, and
#: line breaks between them (a shape reads its hit's line alone).
PIECES = ["user=", "usuario: ", "login ", "user ", "User ", "USER ", "for user ", "by user ",
          "sudo: ", "sudo -u ", "--user=", "-U ", "psql ", "uid=1000(", ")", "uid=",
          ",ou=people", "/home/", "C:\\Users\\", "@", "@srv01", "@10.0.0.5", ":~$",
          "Failed password for ", "invalid user ", " from 192.0.2.8", "session opened ",
          '<Data Name="TargetUserName">', "</Data>", "<user>", "</user>", "BNAME = ",
          "12:01:02 DIA 034 ", " [10/Oct/2024:13:55:36 -0300]", "192.0.2.7 - ",
          "arn:aws:iam::123456789012:user/", "jsilva", "rlima", "mcosta", "JSILVA",
          "Maria Silva", "maria.souza", "'", '"', " ", "  ", "\t", "\n", "\n\n", "-",
          "$", "[bot]", "x", "."]


@pytest.mark.parametrize("backend", needs.backends())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=40))
def test_shapes_read_on_their_hits_lines_find_what_they_find_everywhere(
        backend: str, pieces: list[str]) -> None:
    recognizer = _RECOGNIZER
    scanner = _SCANNERS.get(backend)
    if scanner is None:
        scanner = _SCANNERS[backend] = _scanner(recognizer, backend)
    text = "".join(pieces)
    hits = [(start, end, trigger.name) for _, trigger, start, end in scanner._find(text)
            if trigger.accept is None or trigger.accept(text, start, end)]
    got = recognizer.analyze(text, ["USERNAME"], hits=hits)
    expected = recognizer.analyze(text, ["USERNAME"], hits=EVERY_SHAPE)
    assert [(r.start, r.end, r.score) for r in got] == \
        [(r.start, r.end, r.score) for r in expected], text


_RECOGNIZER = UsernameRecognizer()
_SCANNERS: dict[str, Scanner] = {}


def test_a_shape_reads_only_the_lines_of_its_anchors_hits() -> None:
    text = "x\nuser=jsilva\nnada\nssh rlima@srv01\nfim"
    lines = username._anchor_lines(text, [(2, 7, "key/value"), (24, 25, "at")])
    assert lines[username._KEY] == [(2, 13)]  # "user=jsilva", its line break excluded
    assert lines[frozenset({"at"})] == [(19, 34)]
    assert lines[username._HOME] == []
    found = _RECOGNIZER.analyze(text, ["USERNAME"], hits=[(2, 7, "key/value"),
                                                          (24, 25, "at")])
    assert [text[r.start:r.end] for r in found] == ["jsilva", "rlima"]


def test_a_text_of_one_line_is_read_whole_by_the_shapes_it_hits() -> None:
    text = "sudo -u jsilva " * 400  # no line break: each hit's line is the whole text
    hits = [(i * 15, i * 15 + 8, "command flag") for i in range(400)]
    lines = username._anchor_lines(text, hits)
    assert lines[frozenset({"command flag"})] == [(0, len(text))]
    assert lines[username._KEY] == []


_AT_PIECES = ["@", "@@", "jsilva", "j", "maria.souza", "svc-app", "a" * 40, "b" * 30, ".", "-",
              "c" * 63 + "@h ", "d" * 64 + "@h ", "e" * 65 + "@h ", "x@srv01 ",
              "_", "%", "+", "/", "1", "10.0.0.5", "srv01", "host.example", " ", "\n", ":",
              "~", "]", "[", "ção", "É", "\u0301", "日"]


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(st.sampled_from(_AT_PIECES), max_size=40), data=st.data())
def test_the_user_at_host_shape_tried_at_each_at_sign_finds_what_finditer_finds(
        pieces: list[str], data: st.DataObject) -> None:
    (shape,) = [s for s in username._SHAPES if s.anchors is username._AT]
    text = "".join(pieces)
    # The whole text most often: a stretch cutting a match finds none on either side.
    low = data.draw(st.sampled_from([0, 0, data.draw(st.integers(0, len(text)))]))
    size = len(text)
    high = data.draw(st.sampled_from([size, size, data.draw(st.integers(low, size))]))
    got = list(username._matches_at_signs(shape.pattern, text, [(low, high)]))
    expected = list(shape.pattern.finditer(text, low, high, overlapped=True))
    assert [(m.span(), m.span("v"), m.group("host")) for m in got] == \
        [(m.span(), m.span("v"), m.group("host")) for m in expected], text

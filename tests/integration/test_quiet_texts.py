"""JSON documents read text by text only where it can matter (issue 33, JSON Lines at the
speed of text): one prefilter scan of a document's texts finds those no trigger hits
(``Analysis.quiet_texts``), whose analysis is then skipped; the second pass reuses a
text's first findings when none of the document's carried user names is written in it
(``Document.first_findings_stand``); a JSON line is vouched clean by a scan of the texts
the analysis reads of it (``batch._redact_lines``).  Each must change no output: these tests hold
the shortcuts against the engine with them turned off."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from redactor import batch
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.engine.analysis import Analysis, Document
from redactor.engine.jsonredact import labelled_texts
from redactor.engine.propagation import PersonPass, StreamNames, logins_standing_in

CPF = "529.982.247-25"


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor(Settings())


@contextlib.contextmanager
def shortcuts_off() -> Iterator[None]:
    """Every text of a document analysed, on both passes."""
    saved = Analysis.quiet_texts, Document.first_findings_stand, Document.reuses_first_pass
    Analysis.quiet_texts = lambda self, labelled: frozenset()  # type: ignore[method-assign]
    Document.first_findings_stand = lambda self, text, context: False  # type: ignore[method-assign]
    Document.reuses_first_pass = lambda self: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        (Analysis.quiet_texts, Document.first_findings_stand,  # type: ignore[method-assign]
         Document.reuses_first_pass) = saved


def _both(engine: Redactor, document: Any) -> tuple[Any, Any]:
    fast = engine.redact_json(document, keys_and_numbers=True)
    with shortcuts_off():
        slow = engine.redact_json(document, keys_and_numbers=True)
    return fast, slow


def _same(fast: Any, slow: Any) -> None:
    assert fast.value == slow.value
    assert fast.findings == slow.findings


# Keys that lift an entity and keys that lift none; values with and without candidates.
KEYS = ("msg", "ts", "level", "n", "detail", "user", "userName", "senha", "token", "cpf",
        "nome", "email", "session", "key", "BNAME", "owner", "path")
VALUES = ("cache miss", "ok", "2024-11-08T10:45:07.414Z", "rcunha", "mariana.barbosa",
          "RCUNHA", "rcunha saiu", "/home/rcunha/x", "Maria Silva", "a Maria saiu",
          CPF, "cpf 52998224725", "52998224725", "12.ABC.345/01DE-35", "jsilva@srv01",
          "maria@example.com", "Zq8v3LrT9xW2mK7pB4nY6cJ1", "password=Xk9mq2Lp7",
          "user=jsilva", "sudo -u rcunha", "linha\ncom quebra", 'diz "rcunha"',
          "r\u200bcunha", "ＲＣＵＮＨＡ", "Usuário João", "ß straße", "", "-", "anonymous",
          "10.1.2.3", "+55 11 98765-4321", "pedido:4571924865")


def _documents() -> st.SearchStrategy[Any]:
    leaf = st.one_of(st.sampled_from(VALUES), st.integers(0, 10**12),
                     st.sampled_from((52998224725, 1234567890, 3.5, True, None)))
    return st.recursive(
        leaf,
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.sampled_from(KEYS + VALUES[:12]), inner,
                                                max_size=6)),
        max_leaves=14)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=st.dictionaries(st.sampled_from(KEYS), _documents(), min_size=1, max_size=8))
def test_skipping_quiet_texts_and_reusing_first_findings_change_nothing(
        engine: Redactor, document: dict[str, Any]) -> None:
    _same(*_both(engine, document))


def test_the_shortcuts_are_taken_and_change_nothing_on_a_log_record(engine: Redactor) -> None:
    record = {"ts": "2024-11-08T10:45:07.414Z", "level": "debug", "logger": "cache",
              "msg": "cache miss", "key": "pedido:4571924865", "user": "u_143e7d1bfb",
              "token": "idem_8d116ece1738f7d93d9c1724", "ttl_s": 60,
              "detail": {"path": "/srv/u_143e7d1bfb/x", "note": "nada"}}
    labelled = labelled_texts(record)
    assert labelled is not None
    quiet = engine.quiet_texts(labelled)
    # Keys and plain values are quiet; a value a trigger hits is not.
    assert {"ts", "level", "msg: cache miss", "logger: cache"} <= quiet
    assert "detail" in quiet and "path: /srv/u_143e7d1bfb/x" in quiet
    fast, slow = _both(engine, record)
    _same(fast, slow)
    # The login found under "user" is carried to the path, which had no hit of its own.
    assert fast.value["user"] == "[USERNAME]"
    assert fast.value["detail"]["path"] == "/srv/[USERNAME]/x"


def test_a_quiet_text_under_a_lifting_label_is_still_analysed(engine: Redactor) -> None:
    # No trigger hits "hunter2senha" alone; the key "senha" makes it a secret.
    document = {"a": "x", "b": "y", "c": "z", "senha": "Xk9mq2Lp7w", "db": {"senha": "Qw7e"}}
    fast, slow = _both(engine, document)
    _same(fast, slow)
    assert fast.value["senha"] == "[SECRET]"
    # Left out of the scan, and refused if asked all the same.
    assert "senha: Xk9mq2Lp7w" not in engine.quiet_texts(
        [("a", ()), ("b", ()), ("c", ()), ("senha: Xk9mq2Lp7w", ("senha",))])
    assert not engine.quiet_spans("senha: Xk9mq2Lp7w", ["senha"], None)
    assert engine.quiet_spans("msg: nada", ["msg"], None)


def test_a_hit_is_judged_on_its_own_text(engine: Redactor) -> None:
    # The key word's accept, on the joined texts, read the next text's "value:" field.
    document = ["a", "b", "value: password", "name: password=Xk9mq2Lp7"]
    fast, slow = _both(engine, document)
    _same(fast, slow)
    assert fast.value[3] == "name: password=[SECRET]"
    assert engine.pieces_hit(["value: password", "name: password=Xk9mq2Lp7"]) == {1}
    # Documents apart, as Spark's rows are.
    from redactor.spark import redact_documents

    rows = redact_documents(engine, [{"name": "password=Xk9mq2Lp7"}, {"value": "password"}])
    assert rows[0] is not None and rows[0].value == {"name": "password=[SECRET]"}


def test_text_with_an_invisible_character_is_never_quiet(engine: Redactor) -> None:
    hidden = "cpf 529.982.247\u200b-25"
    labelled = [("a", ()), ("b", ()), ("c", ()), ("msg: " + hidden, ("msg",))]
    assert "msg: " + hidden not in engine.quiet_texts(labelled)
    fast, slow = _both(engine, {"a": 1, "b": 2, "c": 3, "msg": hidden})
    _same(fast, slow)
    assert "[CPF]" in fast.value["msg"]


def test_a_carried_login_hidden_by_an_invisible_character_is_found_again(
        engine: Redactor) -> None:
    # Found by review: "r\u200bcunha" is read as "rcunha"; normalised without taking
    # the character out, it looked like the other text "r cunha" and its first
    # findings were reused.
    for document in ({"user": "rcunha", "msg": ["r\u200bcunha", "r cunha"]},
                     {"user": "rcunha", "r\u200bcunha": 1, "r cunha": 2},
                     {"BNAME": "RCUNHA", "msg": ["R\u2060CUNHA", "R CUNHA"]}):
        fast, slow = _both(engine, document)
        _same(fast, slow)
        assert sum(f.entity_type == "USERNAME" for f in fast.findings) == 2


def test_first_findings_stand_only_where_no_carried_name_is_written() -> None:
    document = Document(PersonPass.PROPAGATE)
    document.logins.usernames.add("rcunha")
    document.logins.caseless_usernames.add("bname1")
    document.memo[("msg: nada", ("msg",))] = {}
    document.memo[("msg: rcunha saiu", ("msg",))] = {}
    document.memo[("msg: BNAME1 saiu", ("msg",))] = {}
    assert document.first_findings_stand("msg: nada", ["msg"])
    assert not document.first_findings_stand("msg: rcunha saiu", ["msg"])
    assert not document.first_findings_stand("msg: BNAME1 saiu", ["msg"])
    # No record of the text's first findings: analysed again.
    assert not document.first_findings_stand("msg: outra", ["msg"])
    # A text with an invisible character is read without it: analysed again.
    document.memo[("msg: r cunha", ("msg",))] = {}
    assert not document.first_findings_stand("msg: r\u200bcunha", ["msg"])
    # A document carrying words of people's names: always analysed again.
    document.persons.add("maria")
    assert not document.first_findings_stand("msg: nada", ["msg"])


def test_logins_standing_in_a_text_are_found_with_few_names_and_many() -> None:
    few = StreamNames(usernames={"rcunha"}, caseless_usernames={"bname1"})
    many = StreamNames(usernames={f"user{i}" for i in range(40)} | {"rcunha"},
                       caseless_usernames={"bname1"})
    for carried in (few, many):
        assert logins_standing_in("o rcunha saiu", carried).usernames == {"rcunha"}
        assert logins_standing_in("O Bname1 saiu", carried).caseless_usernames == {"bname1"}
        assert not logins_standing_in("rcunhas saiu", carried).usernames
        found = logins_standing_in("nada aqui", carried)
        assert not (found.usernames or found.caseless_usernames)


def _lines_both(engine: Redactor, text: str) -> tuple[str, str]:
    # Each way finds its own: the findings of short texts are remembered across calls.
    engine._short_found.clear()
    fast = batch._redact_lines(engine, text, batch.FileReport("x"), names=StreamNames())
    engine._short_found.clear()

    class Unscanned:
        """The engine with no prefilter answer: every line goes the slow way."""

        def __getattr__(self, name: str) -> Any:
            if name in ("candidate_hits", "pieces_hit"):
                raise AttributeError(name)
            return getattr(engine, name)

    with shortcuts_off():
        slow = batch._redact_lines(Unscanned(), text, batch.FileReport("x"),
                                   names=StreamNames())
    return fast, slow


def test_json_lines_with_escapes_give_what_the_slow_way_gives(engine: Redactor) -> None:
    lines = []
    for index in range(40):
        lines.append(json.dumps({"log": f"job {index} done\n", "stream": "stdout"}))
        lines.append(json.dumps({"log": f'msg="cpf {CPF}"\n', "stream": "stderr"}))
        lines.append(json.dumps({"log": "login ok user=rcunha\n"} if index == 3 else
                                {"log": "rcunha saiu\tagora\n"}))
        lines.append(json.dumps({"log": "Usuário João\n"}, ensure_ascii=index % 2 == 0))
        lines.append(json.dumps({"log": "a\\nrcunha"}))  # an escaped backslash before n
    text = "\n".join(lines) + "\n"
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    assert CPF not in fast and "[CPF]" in fast
    # The login found on the fourth record is carried to the later lines.
    out = fast.splitlines()
    assert "rcunha" in out[2] and "[USERNAME] saiu" in out[4 * 5 + 2]


@pytest.mark.parametrize("lines", [
    # Found by review: what the analysis reads of a line is not always in its text.
    ['["- Maria\\t"]', '["- Maria"]'],  # a list item starts a text ("- Name")
    ['{"x\\ny": "- Maria"}'],  # a key with a line break: its value starts a text
    ['{"idcpf": 1234567890, "m": "a\\tb"}', '{"idcpf": 1234567890}'],  # zero-filled
    ['{"n": 5.2998224725e10, "m": "a\\tb"}', '{"n": 5.2998224725e10}'],  # its digits
    ['{"' + "a" * 37 + '-rgx": "12.345.678-9", "m": "a\\tb"}'],  # the key cut at 40
    # Found by review: an accept that reads past its text's end (a secret's key after
    # "name:" looks for a "value:" field up to 160 characters on) must not read the
    # next text, of the same line or of the next.
    ['{"name": "password=Xk9mq2Lp7"}', '{"value": "password"}'],
    ['["value: password", "name: password=Xk9mq2Lp7"]'],
    ['name: password=Xk9mq2Lp7', 'value: password'],
    ['{"name": "password=Xk9mq2Lp7"}', 'value: password'],
    # Found by hypothesis: a line's own login hidden by an invisible character.
    ['{"userName": "r\\u200bcunha"}', '{"userName": "r\u200bcunha"}'],
    # A name written with escapes inside a value (a document escaped twice) and on a
    # line that is no JSON: read as its characters, never vouched quiet by the scan.
    ['{"msg": "Usu\\\\u00e1rio Jo\\\\u00e3o Pereira entrou"}', '{"n": 1}'],
    ['Usu\\u00e1rio Jo\\u00e3o Pereira entrou {', '{"user": "jo\\u00e3o.silva"}'],
    # A login carried from an earlier line, written in look-alike or hidden characters.
    ['{"user": "rcunha"}', '{"msg": "\uff52\uff43\uff55\uff4e\uff48\uff41"}',
     '{"msg": "r\\u200bcunha"}', '{"msg": "r\u200bcunha"}'],
])
def test_lines_whose_texts_differ_from_their_text_give_what_the_slow_way_gives(
        engine: Redactor, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    assert fast != text  # each case holds something to redact


@pytest.mark.parametrize("filler", [0, 300])
def test_a_display_name_carried_from_a_user_key_is_redacted_on_the_later_lines(
        engine: Redactor, filler: int) -> None:
    # Found by review: a carried name that is no chain of words (a display name under
    # "usr") was looked for on the later lines as a token, which it never is: the lines
    # vouched clean, those analysed and those that are no JSON all kept it, where the
    # same lines redacted as text lost it.
    lines = ['{"usr": "Qwerty Asdf", "msg": "login ok"}']
    lines += [json.dumps({"msg": f"nothing {index}"}) for index in range(filler)]
    lines += ['{"msg": "job started by Qwerty Asdf"}',  # a clean line
              '{"msg": "Qwerty Asdf: ' + CPF + '"}',  # a line analysed for its CPF
              'plain Qwerty Asdf line',  # no JSON: redacted as text
              '{"msg": "Qwerty Asdfx and xQwerty Asdf"}']  # not the whole name
    text = "\n".join(lines) + "\n"
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    out = fast.splitlines()
    assert "Qwerty" not in "".join(out[:-1])
    assert out[-1] == lines[-1]
    as_text = engine.redact(text).text
    assert "Qwerty" not in "".join(as_text.splitlines()[:-1])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents=st.lists(st.dictionaries(st.sampled_from(KEYS), _documents(), max_size=5),
                          min_size=1, max_size=12))
# A login found in a key, written again in the value under it: the value is read after
# the renamed key, and only two passes carry the name to it (the one-pass check read the
# value after the key as written).
@example(documents=[{"msg": {"/home/rcunha/x": "rcunha"}}])
def test_json_lines_give_what_the_slow_way_gives(engine: Redactor,
                                                 documents: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(d, ensure_ascii=i % 2 == 0) + "\n"
                   for i, d in enumerate(documents))
    fast, slow = _lines_both(engine, text)
    assert fast == slow


def test_lines_whose_keys_lift_take_their_quiet_texts_from_the_block_scan(
        engine: Redactor, monkeypatch: pytest.MonkeyPatch) -> None:
    # nginx's JSON access log: "remote_user" and "http_user_agent" lift USERNAME, so no
    # line is vouched clean; the texts under other keys are still judged by the one
    # scan of the block, and no document is scanned again.
    lines = [json.dumps({"time": f"2024-11-08T10:45:{index:02d}Z", "remote_addr": "10.1.2.3",
                         "remote_user": "-", "request": f"GET /pedidos/{index} HTTP/1.1",
                         "status": 200, "http_user_agent": "curl/8.5.0",
                         "msg": f"cpf {CPF}" if index % 5 == 0 else "ok"})
             for index in range(30)]
    text = "\n".join(lines) + "\n"
    slow_text = _lines_both(engine, text)[1]
    asked: list[int] = []
    original = Analysis.quiet_texts

    def counted(self: Analysis, labelled: Any) -> frozenset[str]:
        asked.append(1)
        return original(self, labelled)

    monkeypatch.setattr(Analysis, "quiet_texts", counted)
    fast = batch._redact_lines(engine, text, batch.FileReport("x"), names=StreamNames())
    assert not asked
    assert fast == slow_text
    assert CPF not in fast and fast.count("[CPF]") == 6 and "10.1.2.3" not in fast


@pytest.mark.parametrize("lines", [
    # A key two levels up lifts the leaf: the leaf is read with its last two keys.
    ['{"telefone": {"numero": "11987654321"}}', '{"a": {"celular": {"n": "21987654321"}}}'],
    # A number holding a CPF (zero-filled under its key), and a key holding one.
    ['{"cpf": 4312345608, "m": "ok"}', '{"529.982.247-25": "x", "m": "ok"}'],
    # A bare string and a bare number as the line.
    ['"cpf 529.982.247-25"', "52998224725", '"ok"'],
    # A login found on one line spreads to the later ones; then lines without it.
    ['{"user": "rcunha"}', '{"msg": "rcunha saiu", "ip": "10.1.2.3"}',
     '{"msg": "nada", "ip": "10.1.2.4"}'],
])
def test_lines_redacted_in_place_give_what_the_slow_way_gives(
        engine: Redactor, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    assert fast != text


def _document_walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an item each time redact_json walks a document (from now on)."""
    from redactor.engine import jsonredact

    walked: list[int] = []
    original = jsonredact.redact_json

    def counted(*args: Any, **kwargs: Any) -> Any:
        walked.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(jsonredact, "redact_json", counted)
    return walked


def test_plain_lines_are_redacted_in_place(engine: Redactor,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # Addresses and CPFs in leaves, no name that spreads: no document walk at all.
    lines = [json.dumps({"remote_addr": f"10.1.2.{index}", "status": 200,
                         "msg": f"cpf {CPF}" if index % 3 == 0 else "ok",
                         # hit by a trigger, no finding: a loopback address
                         "upstream": f"127.0.0.1:80{index:02d}",
                         "nested": {"ip": f"192.168.0.{index}"}}) for index in range(1, 20)]
    text = "\n".join(lines) + "\n"
    slow = _lines_both(engine, text)[1]
    walked = _document_walks(monkeypatch)
    # Only the texts whose analysis found something are read again in place (not the
    # loopback addresses, which the block's analysis found empty).
    read_again: list[str] = []
    spans = Redactor._spans

    def spied(self: Redactor, text: str, *args: Any, **kwargs: Any) -> Any:
        read_again.append(text)
        return spans(self, text, *args, **kwargs)

    monkeypatch.setattr(Redactor, "_spans", spied)
    fast = batch._redact_lines(engine, text, batch.FileReport("x"), names=StreamNames())
    assert not walked
    assert fast == slow and "10.1.2.5" not in fast and CPF not in fast
    assert read_again and all(
        text.startswith(("remote_addr: ", "ip: ")) or CPF in text for text in read_again)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_json_line_holding_a_unicode_line_separator_stays_one_line(
        engine: Redactor, separator: str) -> None:
    # Found by review: JSON writes these raw inside strings; str.splitlines cut the line
    # in two, and each half was redacted as text ("[CPF].0").
    line = '{"m": "a' + separator + 'b", "cpf": 52998224725.0}'
    text = line + "\r\n" + '{"ip": "10.1.2.3"}\n' + '{"n": 1}'
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    first, second, third = fast.split("\n")
    assert first.endswith("\r") and json.loads(first) == {"m": f"a{separator}b", "cpf": "[CPF]"}
    assert json.loads(second) == {"ip": "[IP]"} and third == '{"n": 1}'


def test_a_quiet_text_copied_under_a_lifting_label_is_judged_for_the_first_pass(
        engine: Redactor) -> None:
    # The same key under a key that lifts USERNAME and under one that lifts nothing.
    lines = ['{"user": {"rcunha": 1}, "a": {"rcunha": 2}, "m": "rcunha saiu"}',
             '{"a": {"rcunha": 3}, "user": {"rcunha": 4}}']
    fast, slow = _lines_both(engine, "\n".join(lines) + "\n")
    assert fast == slow


@pytest.mark.parametrize("lines", [
    # A login found by its shape in one value and written in no other: one pass.
    ['{"user": "rcunha", "msg": "ok"}', '{"msg": "rcunha saiu"}'],
    # Written again in another value of its line, in a key, in a number's text: two.
    ['{"user": "rcunha", "msg": "rcunha saiu"}', '{"msg": "x"}'],
    ['{"user": "rcunha", "rcunha": "x"}'],
    ['{"user": "u_1234", "n": 1234, "m": "u_1234"}'],
    # Twice in its own value, and a name carried from a line before standing again
    # where it is found (and where it is not).
    ['{"user": "rcunha", "m": "ok"}', '{"userName": "rcunha", "m": "bye rcunha rcunha"}',
     '{"user": "rcunha", "m": "ok"}', '{"m": "rcunha"}'],
    # Compared in any case (an SAP user), found in one value and written in another.
    ['{"BNAME": "RCUNHA", "m": "ok"}', '{"BNAME": "RCUNHA", "m": "rcunha saiu"}'],
    # Written in its own value over SPREAD_FLOOR times: never spread there, either way.
    ['{"user": "rcunha", "m": "ok"}',
     '{"log": "user=rcunha ' + "rcunha " * 45 + '"}'],
    # Written in two values where it is found, 25 times more in each: spread in each
    # alone, held back as spread too widely over the line (redact_json counts both).
    ['{"a": "user=rcunha ' + "rcunha " * 25 + '", "b": "user=rcunha ' + "rcunha " * 25
     + '"}'],
    # Found by review: a display name that repeats itself is a whole token at each of its
    # words; counted without overlaps (12), it passed for spread little over the line
    # (44 occurrences for 2 cues: held back by the two passes).
    ['{"a": "user=' + " ".join(["Ana"] * 25) + '", "b": "user=' + " ".join(["Ana"] * 25)
     + '"}'],
    # A person's name beside the login: two passes.
    ['{"user": "rcunha", "nome": "Maria Silva", "m": "Maria saiu"}'],
])
def test_lines_whose_logins_spread_within_their_texts_give_what_the_slow_way_gives(
        engine: Redactor, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    fast, slow = _lines_both(engine, text)
    assert fast == slow
    assert "[USERNAME]" in fast


def test_a_line_whose_login_stands_in_its_own_value_alone_takes_one_pass(
        engine: Redactor, monkeypatch: pytest.MonkeyPatch) -> None:
    # A JSON debug log: a login under "user" on every line, the same few over and over;
    # found and carried, it stands nowhere else in its line.
    lines = [json.dumps({"msg": "cache miss", "key": f"pedido:{4571924865 + i}",
                         "user": ("rcunha", "maria.souza", "u_143e7d1bfb")[i % 3],
                         "token": f"idem_8d116ece1738f7d93d9c17{i:02d}"}) for i in range(12)]
    lines.append(json.dumps({"msg": "logout maria.souza"}))
    text = "\n".join(lines) + "\n"
    slow = _lines_both(engine, text)[1]
    walked = _document_walks(monkeypatch)
    names = StreamNames()
    fast = batch._redact_lines(engine, text, batch.FileReport("x"), names=names)
    assert fast == slow
    assert not walked  # every line redacted in place
    # The logins are passed on as the first pass passes them: the last line's is found.
    assert {"rcunha", "maria.souza"} <= names.usernames
    assert fast.splitlines()[-1] == '{"msg": "logout [USERNAME]"}'

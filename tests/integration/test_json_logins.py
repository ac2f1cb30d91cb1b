"""A user name found in one value of a JSON document is personal data in its other
values too, as in a text: a CloudTrail record's userName in its ARN and messages."""

from __future__ import annotations

from redactor.engine import Redactor


def test_a_login_found_in_one_value_of_a_json_document_is_redacted_in_the_others(
        engine: Redactor) -> None:
    # A CloudTrail record names its user in userName and again in the ARN and messages.
    record = {"userIdentity": {"type": "IAMUser", "userName": "mariana.barbosa",
                               "principalId": "AIDAEXAMPLE"},
              "errorMessage": "mariana.barbosa is not allowed",
              "requestParameters": {"path": "/export/mariana.barbosa/relatorio.csv"},
              "other": "mariana.barbosaX stays whole"}
    result = engine.redact_json(record)
    assert result.value["userIdentity"]["userName"] == "[USERNAME]"
    assert result.value["errorMessage"] == "[USERNAME] is not allowed"
    assert result.value["requestParameters"]["path"] == "/export/[USERNAME]/relatorio.csv"
    assert result.value["other"] == "mariana.barbosaX stays whole"
    # SAP and Windows names in any case, others as written
    sap = engine.redact_json({"BNAME": "RCUNHA", "msg": "rcunha saiu", "note": "Rcunha"})
    assert sap.value == {"BNAME": "[USERNAME]", "msg": "[USERNAME] saiu", "note": "[USERNAME]"}
    unix = engine.redact_json({"user": "rcunha", "msg": "RCUNHA saiu"})
    assert unix.value == {"user": "[USERNAME]", "msg": "RCUNHA saiu"}


def test_json_documents_do_not_share_their_logins(engine: Redactor) -> None:
    engine.redact_json({"user": "rcunha"})
    assert engine.redact_json({"msg": "rcunha saiu"}).value == {"msg": "rcunha saiu"}


def test_a_json_lines_file_spreads_a_login_within_its_line(engine: Redactor) -> None:
    from redactor import batch

    lines = ['{"userName": "mariana.barbosa", "arn": "arn:x:user/mariana.barbosa"}',
             '{"user": "rcunha", "ts": 1, "msg": "rcunha saiu", "note": "rcunhas"}']
    out = batch._redact_lines(engine, "\n".join(lines) + "\n", batch.FileReport("x"))
    assert out.splitlines() == [
        '{"userName": "[USERNAME]", "arn": "arn:x:user/[USERNAME]"}',
        '{"user": "[USERNAME]", "ts": 1, "msg": "[USERNAME] saiu", "note": "rcunhas"}']


def test_a_login_standing_in_hundreds_of_values_is_not_spread(engine: Redactor) -> None:
    # Cued once, found in 300 values: a word of this document (the rule of a text,
    # counted over the document rather than value by value).
    many = {"owner": "web01", "items": [{"env": "web01"} for _ in range(300)]}
    found = [f for f in engine.redact_json(many).findings if f.entity_type == "USERNAME"]
    assert len(found) == 1
    few = {"owner": "web01", "items": [{"env": "web01"} for _ in range(10)]}
    found = [f for f in engine.redact_json(few).findings if f.entity_type == "USERNAME"]
    assert len(found) == 11


def test_a_documents_repr_holds_no_name() -> None:
    from redactor.engine.analysis import Document
    from redactor.engine.propagation import PersonPass

    document = Document(PersonPass.COLLECT)
    document.persons.add("maria")
    document.logins.usernames.add("jsilva")
    document.texts.append("user=jsilva")
    assert "maria" not in repr(document) and "jsilva" not in repr(document)


def test_a_stream_carries_logins_from_document_to_document(engine: Redactor) -> None:
    from redactor.engine import StreamNames

    names = StreamNames()
    engine.redact_json({"user": "rcunha"}, names=names)
    assert "rcunha" in names.usernames
    later = engine.redact_json({"msg": "rcunha saiu"}, names=names)
    assert later.value == {"msg": "[USERNAME] saiu"}
    # Without the stream, documents stay apart.
    assert engine.redact_json({"msg": "rcunha saiu"}).value == {"msg": "rcunha saiu"}


def test_a_json_lines_file_carries_logins_to_the_lines_after(engine: Redactor) -> None:
    import io

    from redactor import batch

    lines = ['{"eventName": "ConsoleLogin", "userIdentity": {"userName": "jsilva"}}',
             '{"eventName": "ListBuckets", "msg": "request by jsilva"}',  # a hit nearby
             '{"level": "info", "msg": "jsilva saiu"}',  # nothing of its own: clean
             '{"msg": "jo\\u00e3o jsilva"}',  # written with an escape
             'not json, jsilva',  # a malformed line, read as text
             '{"msg": "jsilvas e ajsilva ficam"}']  # no whole token: left as is
    source = io.BytesIO(("\n".join(lines) + "\n").encode())
    target = io.BytesIO()
    report = batch.FileReport("x")
    batch.redact_stream(engine, source, target, "jsonl", report)
    assert target.getvalue().decode().splitlines() == [
        '{"eventName": "ConsoleLogin", "userIdentity": {"userName": "[USERNAME]"}}',
        '{"eventName": "ListBuckets", "msg": "request by [USERNAME]"}',
        '{"level": "info", "msg": "[USERNAME] saiu"}',
        '{"msg": "joão [USERNAME]"}',
        'not json, [USERNAME]',
        '{"msg": "jsilvas e ajsilva ficam"}']
    assert report.counts["USERNAME"] == 5


def test_a_login_is_carried_forward_only(engine: Redactor) -> None:
    from redactor import batch
    from redactor.engine import StreamNames

    lines = ['{"msg": "rlima saiu"}', '{"user": "rlima"}', '{"msg": "rlima voltou"}']
    out = batch._redact_lines(engine, "\n".join(lines) + "\n", batch.FileReport("x"),
                              names=StreamNames())
    assert out.splitlines() == ['{"msg": "rlima saiu"}', '{"user": "[USERNAME]"}',
                                '{"msg": "[USERNAME] voltou"}']


def test_crafted_lines_after_a_carried_login_get_the_safe_answer(engine: Redactor) -> None:
    import io

    from redactor import batch

    lines = [b'{"user": "jsilva"}',
             b'{"a":' * 5000 + b'"jsilva"' + b"}" * 5000,  # deeper than the walk: as text
             b'{"msg": "\\ud800 jsilva", "user": "\\ud83d"}',  # lone surrogates
             b'{"n": NaN, "i": Infinity, "b": 1e400, "msg": "jsilva"}',
             "caf\xe9 jsilva".encode("latin-1"), b"\xff\xfe jsilva"]
    target = io.BytesIO()
    report = batch.FileReport("x")
    batch.redact_stream(engine, io.BytesIO(b"\n".join(lines) + b"\n"), target, "jsonl", report)
    out = target.getvalue()
    assert b"jsilva" not in out
    assert out.count(b"\n") == len(lines)
    assert b"1e400" in out and b"NaN" in out
    assert report.counts["USERNAME"] == 6

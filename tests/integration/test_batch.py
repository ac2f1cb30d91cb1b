"""Batch anonymization: folders, formats, gzip, in-place safety, long lines, scan, logging."""

from __future__ import annotations

import gzip
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from redactor import batch
from redactor.engine import Redactor
from redactor.logging import WITHHELD, RedactingFilter

REPO = Path(__file__).resolve().parents[2]
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"


def cli(*args: str, cwd: Path | None = None,
        stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "redactor", *args], capture_output=True,
                          cwd=cwd or REPO, input=stdin, timeout=300, check=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "logs"
    (root / "app" / "2026").mkdir(parents=True)
    (root / "app" / "2026" / "a.log").write_bytes(
        f"linha 1 cliente CPF {CPF}\nlinha 2 \xff\xfe bytes\n".encode("latin-1"))
    (root / "trace.jsonl").write_text(
        json.dumps({"user": "jsilva", "cnpj": CNPJ, "n": 3}) + "\n"
        + '{"quebrado": "CPF 529.982.247-25\n'
        + "\n" + json.dumps({"ok": True}) + "\n", encoding="utf-8")
    (root / "payload.json").write_text(json.dumps({"cliente": {"cpf": CPF}}), encoding="utf-8")
    with gzip.open(root / "old.log.gz", "wt", encoding="utf-8") as packed:
        packed.write(f"arquivado CNPJ {CNPJ}\n")
    return root


def test_folder_to_output_keeps_layout_and_formats(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = tmp_path / "report.json"
    done = cli("redact", str(tree), "--output", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    text = (out / "app" / "2026" / "a.log").read_bytes()
    assert text == "linha 1 cliente CPF [CPF]\nlinha 2 \xff\xfe bytes\n".encode("latin-1")
    lines = (out / "trace.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"user": "[USERNAME]", "cnpj": "[CNPJ]", "n": 3}
    assert lines[1] == '{"quebrado": "CPF [CPF]' and lines[2] == ""
    assert json.loads(lines[3]) == {"ok": True}
    assert json.loads((out / "payload.json").read_text()) == {"cliente": {"cpf": "[CPF]"}}
    with gzip.open(out / "old.log.gz", "rt", encoding="utf-8") as packed:
        assert packed.read() == "arquivado CNPJ [CNPJ]\n"
    data = json.loads(report.read_text())
    assert data["totals"] == {"BR_CNPJ": 2, "BR_CPF": 3, "USERNAME": 1}
    assert {f["malformed_lines"] for f in data["files"] if f["path"].endswith(".jsonl")} == {1}
    assert b"malformed" in done.stderr
    for value in (CPF, CNPJ, "jsilva"):
        assert value.encode() not in done.stderr and value not in report.read_text()


def test_jobs_give_the_same_result(tree: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert cli("redact", str(tree), "--output", str(one)).returncode == 0
    assert cli("redact", str(tree), "--output", str(two), "--jobs", "2").returncode == 0
    for file in one.rglob("*"):
        if file.is_file() and not file.name.endswith(".gz"):
            assert file.read_bytes() == (two / file.relative_to(one)).read_bytes()


def test_in_place_keeps_permissions_and_leaves_no_temporary(tree: Path) -> None:
    target = tree / "app" / "2026" / "a.log"
    os.chmod(target, 0o640)
    assert cli("redact", "--in-place", str(tree)).returncode == 0
    assert (target.stat().st_mode & 0o777) == 0o640
    assert CPF.encode() not in target.read_bytes()
    assert not [p for p in tree.rglob("*.redactor")]


def test_a_failure_mid_write_leaves_the_original_intact(tmp_path: Path) -> None:
    source = tmp_path / "a.log"
    original = ("linha ok\n" * 50_000 + f"CPF {CPF}\n").encode()
    source.write_bytes(original)

    class Exploding:
        calls = 0

        def redact(self, text: str, **options: object) -> object:
            Exploding.calls += 1
            raise KeyboardInterrupt  # a Ctrl-C in the middle of the file

    with pytest.raises(KeyboardInterrupt):
        batch.process_file(Exploding(), source, source, "text", shown=str(source))
    assert source.read_bytes() == original
    assert list(tmp_path.iterdir()) == [source]


def test_an_unreadable_input_is_reported_and_the_rest_processed(tree: Path,
                                                               tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = cli("redact", str(tmp_path / "missing.log"), str(tree / "payload.json"),
               "--output", str(out))
    assert done.returncode == 3
    assert b"missing.log" in done.stderr
    assert json.loads((out / "payload.json").read_text()) == {"cliente": {"cpf": "[CPF]"}}


def test_folders_need_a_destination(tree: Path) -> None:
    done = cli("redact", str(tree))
    assert done.returncode == 2 and b"--output" in done.stderr


def test_very_long_lines_are_windowed_without_splitting_identifiers(
        engine: Redactor, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(batch, "BLOCK", 4096)
    monkeypatch.setattr(batch, "WINDOW_OVERLAP", 512)
    pieces = []
    for i in range(60):
        pieces.append("x" * (4090 - 14 * (i % 5)))  # moves each CPF across block edges
        pieces.append(f" CPF {CPF} ")
    line = "".join(pieces)  # one line of ~250 KB
    report = batch.FileReport("mem")
    target = io.BytesIO()
    batch.redact_stream(engine, io.BytesIO(line.encode()), target, "text", report)
    out = target.getvalue().decode()
    assert CPF not in out
    assert out == engine.redact(line).text
    assert report.counts == {"BR_CPF": 60}


def test_scan_exit_codes_and_counts_only(tree: Path, tmp_path: Path) -> None:
    found = cli("scan", str(tree))
    assert found.returncode == 1
    listing = found.stdout.decode()
    assert "a.log: BR_CPF=1" in listing and CPF not in listing
    clean = tmp_path / "clean.txt"
    clean.write_text("nada aqui\n", encoding="utf-8")
    assert cli("scan", str(clean)).returncode == 0
    assert cli("scan", "--jobs", "0", str(clean)).returncode == 2
    broken = tmp_path / "proj"
    broken.mkdir()
    (broken / ".redactor.toml").write_text("[nope]\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "redactor", "scan", str(clean)],
                          capture_output=True, cwd=broken, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert (tree / "app" / "2026" / "a.log").read_bytes().startswith(b"linha 1 cliente CPF 529")


def test_stdin_scan_and_pre_commit_hook_entry() -> None:
    assert cli("scan", "-q", stdin=f"CPF {CPF}\n".encode()).returncode == 1
    hooks = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "entry: redactor scan" in hooks


def test_redacting_logging_filter(engine: Redactor) -> None:
    stream_records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            stream_records.append(record)

    logger = logging.getLogger("redactor-test-app")
    handler = Keep()
    handler.addFilter(RedactingFilter(engine=engine))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("cliente %s com CNPJ %s", CPF, CNPJ)
        try:
            raise ValueError(f"CPF inválido {CPF}")
        except ValueError:
            logger.exception("falhou para user=%s", "jsilva")
    finally:
        logger.removeHandler(handler)
    formatted = [logging.Formatter().format(r) for r in stream_records]
    assert formatted[0] == "cliente [CPF] com CNPJ [CNPJ]"
    assert "user=[USERNAME]" in formatted[1] and "CPF inválido [CPF]" in formatted[1]
    for line in formatted:
        assert CPF not in line and CNPJ not in line and "jsilva" not in line

    class Broken:
        def redact(self, text: str) -> object:
            raise RuntimeError("boom")

    record = logging.LogRecord("x", logging.INFO, __file__, 1, "CPF %s", (CPF,), None)
    assert RedactingFilter(engine=Broken()).filter(record)
    assert record.getMessage() == WITHHELD


def _jsonl_corpus() -> str:
    from benchmarks.accuracy import Generator

    rng_docs = Generator(21).documents(400)
    lines = []
    for index, doc in enumerate(rng_docs):
        if index % 7 == 0:
            lines.append(doc.text.replace("\n", " "))  # malformed: plain text
        elif index % 5 == 0:
            lines.append(json.dumps({"contato": {"tel": "11987654321"}, "n": index}))
        elif index % 3 == 0:
            lines.append(json.dumps({"msg": doc.text}, ensure_ascii=True))  # escapes
        else:
            lines.append(json.dumps({"msg": doc.text, "level": "INFO", "seq": index},
                                    ensure_ascii=False))
        lines.append(json.dumps({"event": "heartbeat", "ok": True, "seq": index}))
    return "\n".join(lines) + "\n"


def test_jsonl_lines_without_candidates_pass_untouched_with_the_same_result(
        tmp_path: Path) -> None:
    """The JSONL fast path (no trigger in the line, no escape) changes no output byte."""
    import io

    text = _jsonl_corpus()
    outputs = []
    reports = []
    for choice in (True, False):
        engine = Redactor(prefilter=choice)
        target = io.BytesIO()
        report = batch.FileReport("corpus.jsonl")
        batch.redact_stream(engine, io.BytesIO(text.encode()), target, "jsonl", report)
        outputs.append(target.getvalue())
        reports.append((report.counts, report.malformed_lines))
    assert outputs[0] == outputs[1]
    assert reports[0] == reports[1]
    assert sum(reports[0][0].values()) > 300 and reports[0][1] > 40


def test_a_jsonl_line_whose_keys_lift_an_entity_is_never_passed_as_clean() -> None:
    """``{"senha": "..."}``: no trigger hits the raw line, yet the key makes its value a
    secret (the key lifts the entity, as in ``redact_json``).  The fast path must not
    copy such a line; an ASCII block, where the fast path applies to every line."""
    import io

    lines = []
    for index in range(60):
        lines.append(json.dumps({"event": "heartbeat", "seq": index}))
        lines.append(json.dumps({"senha_db": f"hunter{index}senha"} if index % 2 else
                                {"app": {"senha_db": f"hunter{index}senha"}}))
    text = "\n".join(lines) + "\n"
    assert Redactor().candidate_hits(text) == []  # the case: nothing for the triggers
    outputs = []
    for choice in (True, False):
        target = io.BytesIO()
        batch.redact_stream(Redactor(prefilter=choice), io.BytesIO(text.encode()), target,
                            "jsonl", batch.FileReport("x.jsonl"))
        outputs.append(target.getvalue().decode())
    assert outputs[0] == outputs[1]
    assert outputs[0].count('"senha_db": "[SECRET]"') == 60
    assert outputs[0].count('"event": "heartbeat"') == 60


def test_progress_bar_shows_bytes_rate_and_findings(tree: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    jobs = batch.plan([tree], "*", tmp_path / "out", in_place=False, scan=False, requested=None)
    reports = batch.run(jobs, progress=True)
    err = capsys.readouterr().err
    assert f"{len(jobs)} file(s)" in err
    assert "findings=" in err and "B/s" in err
    total = sum(sum(r.counts.values()) for r in reports)
    assert f"findings={total}" in err


def test_a_user_name_found_early_is_redacted_in_later_blocks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(batch, "BLOCK", 256)  # many blocks for a small input
    filler = "linha de log sem nada pessoal\n" * 40
    text = f"USER=JSILVA logon\n{filler}relatorio enviado por JSILVA ontem\n{filler}"
    engine = Redactor()
    target = io.BytesIO()
    report = batch.FileReport("x.log")
    batch.redact_stream(engine, io.BytesIO(text.encode()), target, "text", report)
    out = target.getvalue().decode()
    assert "JSILVA" not in out
    assert "relatorio enviado por [USERNAME] ontem" in out
    assert report.counts["USERNAME"] == 2
    assert "JSILVA" not in repr(report.as_dict())


def test_numbers_are_written_back_as_they_were_read(tmp_path: Path) -> None:
    """Issue 29, item 10: a line or document with a finding is written anew; a number
    beyond a float (1e400) came back as Infinity, invalid JSON, and 1.50 as 1.5."""
    root = tmp_path / "in"
    root.mkdir()
    line = '{"cpf": "%s", "big": 1e400, "price": 1.50, "tiny": -2E-3, "n": 12345678901234567890}'
    (root / "a.jsonl").write_text(line % CPF + "\n", encoding="utf-8")
    (root / "b.json").write_text((line % CPF).replace("cpf", "CPF do cliente"), encoding="utf-8")
    out = tmp_path / "out"
    done = cli("redact", str(root), "--output", str(out))
    assert done.returncode == 0, done.stderr
    written = (out / "a.jsonl").read_text(encoding="utf-8")
    assert written == line % "[CPF]" + "\n"
    document = (out / "b.json").read_text(encoding="utf-8")
    assert "Infinity" not in document and "1e400" in document and "1.50" in document
    assert json.loads(document)["CPF do cliente"] == "[CPF]"
    assert "-2E-3" in document and "12345678901234567890" in document


def test_json_numbers_round_trip_whatever_strings_hold() -> None:
    value = batch.loads_keeping_numbers('[1e400, "\\u0000 0:0 \\u0000", {"x": 0.10}]')
    assert batch.dumps_keeping_numbers(value) == '[1e400, "\\u0000 0:0 \\u0000", {"x": 0.10}]'


def test_a_string_shaped_like_a_number_mark_is_written_as_it_was() -> None:
    """The marks of numbers carry a nonce: a string of the document that looks like one
    (with another nonce, or its own mark's shape) is no number."""
    text = '[1.50, "\\u00000123456789abcdef:0\\u0000", "\\u0000ffffffffffffffff:9\\u0000"]'
    assert batch.dumps_keeping_numbers(batch.loads_keeping_numbers(text)) == text


@pytest.mark.parametrize("text", [
    '[1e400, "\\u0000 0:0 \\u0000", {"x": 0.10, "y": [1.50, -2E-3, 7]}]',
    '{"a": 1.0, "a": "b", "n": {"m": 2.50}}',  # a repeated key
    '{"s": "x", "n": 3}',  # no float at all
    "2.50",  # a float as the whole value: no container to mark it in
])
def test_floats_marked_where_a_walk_found_them_are_written_as_read(text: str) -> None:
    # The JSON Lines reader knows where a line's floats stand (value_texts) and marks
    # them in place instead of copying the value: the text as read, the value untouched.
    from redactor.engine.jsonredact import value_texts

    value = batch.loads_keeping_numbers(text)
    walked = value_texts(value)
    assert walked is not None and (walked.floats is None) == (text == "2.50")
    before = repr(value)
    # (ensure_ascii=False, as the reader writes: a repeated key's mark is written raw)
    assert batch.dumps_keeping_numbers(value, floats=walked.floats, ensure_ascii=False) == text
    assert batch.dumps_keeping_numbers(value, ensure_ascii=False) == text
    assert repr(value) == before


@pytest.mark.parametrize("where", ["same", "parent", "file-folder"])
def test_an_output_over_the_inputs_is_refused_not_reported_clean(
        tree: Path, tmp_path: Path, where: str) -> None:
    """Issue 29, item 7: --output equal to the input folder (or a folder holding it)
    read no file and said "nothing found" with exit 0."""
    if where == "same":
        args = [str(tree), "--output", str(tree)]
    elif where == "parent":
        args = [str(tree / "app"), "--output", str(tree)]
    else:
        args = [str(tree / "app" / "2026" / "a.log"), "--output", str(tree / "app" / "2026")]
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    done = cli("redact", *args)
    assert done.returncode == 2, done.stderr
    assert b"--output" in done.stderr and b"Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()} == before


def test_an_output_inside_the_input_folder_still_works(tree: Path) -> None:
    out = tree / "redacted"
    first = cli("redact", str(tree), "--output", str(out))
    assert first.returncode == 0, first.stderr
    assert (out / "app" / "2026" / "a.log").read_bytes().startswith(b"linha 1 cliente CPF [CPF]")
    again = cli("redact", str(tree), "--output", str(out))  # the earlier output is skipped
    assert again.returncode == 0 and not (out / "redacted").exists()


def test_every_occurrence_of_a_repeated_key_is_redacted_and_written_back(tmp_path: Path) -> None:
    """Issue 29, item 2: json.loads keeps the last of two equal keys, so the first value
    (a CPF) was written back as it was, or dropped when the line had another finding."""
    root = tmp_path / "in"
    root.mkdir()
    lines = [f'{{"cpf": "{CPF}", "cpf": "ok"}}',
             f'{{"cpf": "ok", "cpf": "{CPF}", "n": 1.50}}',
             f'{{"a": {{"doc": "{CPF}", "doc": "{CNPJ}"}}, "user": "jsilva"}}']
    (root / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "b.json").write_text(f'{{"cpf": "{CPF}", "cpf": "{CNPJ}"}}', encoding="utf-8")
    out, report = tmp_path / "out", tmp_path / "report.json"
    done = cli("redact", str(root), "--output", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert (out / "a.jsonl").read_text(encoding="utf-8").splitlines() == [
        '{"cpf": "[CPF]", "cpf": "ok"}', '{"cpf": "ok", "cpf": "[CPF]", "n": 1.50}',
        '{"a": {"doc": "[CPF]", "doc": "[CNPJ]"}, "user": "[USERNAME]"}']
    document = (out / "b.json").read_text(encoding="utf-8")
    assert CPF not in document and CNPJ not in document
    assert document.count('"cpf"') == 2 and "dup-" not in document
    assert json.loads(report.read_text())["totals"] == {"BR_CPF": 4, "BR_CNPJ": 2, "USERNAME": 1}
    scan = cli("scan", str(root / "a.jsonl"))
    assert scan.returncode != 0


def test_a_repeated_key_of_a_compact_line_is_written_back_under_its_name(
        engine: Redactor) -> None:
    # Found by review: the mark of a repeated key was taken out only before '": ', and a
    # compact line (nginx's, '":') kept it in its output.
    text = '{"msg":"cpf 529.982.247-25","msg":"ok"}\n{"a": "cpf 529.982.247-25", "a": "ok"}\n'
    out = batch._redact_lines(engine, text, batch.FileReport("x"))
    assert out == '{"msg":"cpf [CPF]","msg":"ok"}\n{"a": "cpf [CPF]", "a": "ok"}\n'


def test_a_repeated_key_is_read_by_its_name() -> None:
    """The marks that keep a repeated key apart are no part of its name: ``key`` given
    twice is a secret's key both times, and a number under a repeated ``cpf`` is
    zero-filled as a CPF (01234567890, from the check-digit rule).  Found in a
    real-use check at issue 33's third stop."""
    from redactor.config import Settings
    from redactor.engine import Redactor
    from redactor.engine.jsonredact import analysed_texts
    from redactor.jsonio import DUPLICATE_KEY_MARK

    engine = Redactor(Settings())
    token = "Zq8v3LrT9xW2mK7pB4nY6cJ1"
    lines = [f'{{"key": "a", "key": "{token}"}}', '{"cpf": 1, "cpf": 1234567890}',
             '{"senha": "x", "senha": "Xk9#mq2Lp"}']
    out = batch._redact_lines(engine, "\n".join(lines) + "\n", batch.FileReport("x"))
    assert out.splitlines()[:2] == ['{"key": "a", "key": "[SECRET]"}',
                                    '{"cpf": 1, "cpf": "[CPF]"}']
    assert "Xk9#mq2Lp" not in out  # a password key's second value
    # The texts the clean check asks about are the ones the redaction reads.
    marked = batch.loads_keeping_numbers(lines[0])
    assert "key" + DUPLICATE_KEY_MARK in marked
    assert f"key: {token}" in (analysed_texts(marked) or [])


def test_identifiers_held_by_numbers_and_keys_are_redacted_counted_and_scanned(
        tmp_path: Path) -> None:
    """Issue 29, item 1: database and pandas exports hold CPFs as integers (floats where
    the column has nulls) and maps keyed by them; they came out unchanged, 0 found, and
    ``scan`` exited 0."""
    root = tmp_path / "in"
    root.mkdir()
    lines = ['{"cpf": 52998224725, "pedido": 4500012345}',
             '{"cpf": 52998224725.0, "valor": 10.50}',
             '{"11222333000181": {"cliente": "x"}, "n": 3}',
             '{"cpf": 1234567890}']
    (root / "export.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "export.json").write_text('{"rows": [{"cnpj": 11222333000181}, '
                                      '{"cpf": 52998224725.0}]}', encoding="utf-8")
    out, report = tmp_path / "out", tmp_path / "report.json"
    done = cli("redact", str(root), "--output", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert (out / "export.jsonl").read_text(encoding="utf-8").splitlines() == [
        '{"cpf": "[CPF]", "pedido": 4500012345}', '{"cpf": "[CPF]", "valor": 10.50}',
        '{"[CNPJ]": {"cliente": "x"}, "n": 3}', '{"cpf": "[CPF]"}']
    assert json.loads((out / "export.json").read_text()) == {
        "rows": [{"cnpj": "[CNPJ]"}, {"cpf": "[CPF]"}]}
    assert json.loads(report.read_text())["totals"] == {"BR_CPF": 4, "BR_CNPJ": 2}
    for name in ("export.jsonl", "export.json"):
        scan = cli("scan", str(root / name))
        assert scan.returncode == 1, scan.stderr
        assert b"52998224725" not in scan.stdout + scan.stderr

    masked = tmp_path / "masked"
    done = cli("redact", str(root), "--output", str(masked), "--json-numbers", "masked")
    assert done.returncode == 0, done.stderr
    assert (masked / "export.jsonl").read_text(encoding="utf-8").splitlines() == [
        '{"cpf": 99999999999, "pedido": 4500012345}', '{"cpf": 99999999999.0, "valor": 10.50}',
        '{"[CNPJ]": {"cliente": "x"}, "n": 3}', '{"cpf": 9999999999}']
    assert json.loads((masked / "export.json").read_text()) == {
        "rows": [{"cnpj": 99999999999999}, {"cpf": 99999999999.0}]}


# ------------------------------------------------------------------ issue 29, item 4: names

#: Synthetic CPFs and CNPJ (check digits from the algorithm; see benchmarks.synthetic).
NAMED_CPF, OTHER_CPF, NAMED_CNPJ = "52998224725", "11144477735", "11222333000181"


def _digit_runs(*values: str) -> re.Pattern[bytes]:
    """Any of ``values`` written with or without separators between its digits."""
    return re.compile(b"|".join(b"[^0-9a-zA-Z]{0,2}".join(re.escape(d).encode()
                                                             for d in value)
                                for value in values))


def _no_named_values(*outputs: bytes) -> None:
    runs = _digit_runs(NAMED_CPF, OTHER_CPF, NAMED_CNPJ)
    for output in outputs:
        assert runs.search(output) is None, output
        assert b"joao.silva" not in output and b"Traceback" not in output


def test_names_holding_values_are_redacted_in_the_output_tree_report_and_stderr(
        tmp_path: Path) -> None:
    """Issue 29, item 4: comprovante_<CPF>.pdf.txt kept its name in the --output tree, in
    --report and on stderr (which CI logs keep)."""
    src, out, report = tmp_path / "src", tmp_path / "out", tmp_path / "report.json"
    (src / f"cliente-{NAMED_CPF}").mkdir(parents=True)
    (src / f"cliente-{OTHER_CPF}").mkdir()
    (src / f"comprovante_{NAMED_CPF}.pdf.txt").write_text(f"CPF {CPF}\n", encoding="utf-8")
    (src / f"nf_{NAMED_CNPJ}.txt").write_text("nota\n", encoding="utf-8")
    (src / "contato_joao.silva@example.com.log").write_text("contato\n", encoding="utf-8")
    (src / f"cliente-{NAMED_CPF}" / "a.log").write_text("primeiro\n", encoding="utf-8")
    (src / f"cliente-{OTHER_CPF}" / "a.log").write_text("segundo\n", encoding="utf-8")
    # Two names that become alike, and one already written that way: nothing overwritten.
    (src / f"conta-{NAMED_CPF}.log").write_text("um\n", encoding="utf-8")
    (src / f"conta-{OTHER_CPF}.log").write_text("dois\n", encoding="utf-8")
    (src / "conta-_CPF_.log").write_text("literal\n", encoding="utf-8")
    (src / f"big-{NAMED_CPF}.json").write_text(json.dumps({"pad": "x" * 100}), encoding="utf-8")
    missing = src / f"ausente-{OTHER_CPF}.log"
    done = cli("redact", str(src), str(missing), "--output", str(out), "--report", str(report),
               "--max-json-bytes", "50")
    assert done.returncode == 3, done.stderr
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    # "contato_joao.silva" reads as one user name, as it would in a line of text.
    assert written == ["_USERNAME_@example.com.log", "cliente-_CPF_", "cliente-_CPF_-2",
                       "cliente-_CPF_-2/a.log", "cliente-_CPF_/a.log",
                       "comprovante__CPF_.pdf.txt", "conta-_CPF_-2.log",
                       "conta-_CPF_-3.log", "conta-_CPF_.log", "nf__CNPJ_.txt"]
    assert (out / "comprovante__CPF_.pdf.txt").read_text(encoding="utf-8") == "CPF [CPF]\n"
    # In the order of the original paths; the name that needed no change keeps it.
    assert [(out / f"conta-_CPF_{tag}.log").read_text(encoding="utf-8")
            for tag in ("", "-2", "-3")] == ["literal\n", "dois\n", "um\n"]
    assert (out / "cliente-_CPF_-2" / "a.log").read_text(encoding="utf-8") == "primeiro\n"
    _no_named_values(done.stdout, done.stderr, report.read_bytes())
    errors = sorted(line for line in done.stderr.decode().splitlines()
                    if " redacted (" not in line)
    assert errors == [
        f"redactor: {src}/ausente-_CPF_.log: cannot be read (No such file or directory)",
        f"redactor: {src}/big-_CPF_.json: JSON document larger than 50 bytes "
        "(--max-json-bytes)"]
    files = {f["path"]: f for f in json.loads(report.read_text(encoding="utf-8"))["files"]}
    assert files[f"{src}/comprovante__CPF_.pdf.txt"]["output"] == \
        f"{out}/comprovante__CPF_.pdf.txt"
    assert files[f"{src}/comprovante__CPF_.pdf.txt"]["counts"] == {"BR_CPF": 1}


def test_in_place_keeps_a_name_and_never_prints_it(tmp_path: Path) -> None:
    src = tmp_path / f"cliente-{NAMED_CPF}"
    src.mkdir()
    target = src / f"comprovante_{NAMED_CPF}.pdf.txt"
    target.write_text(f"CPF {CPF}\n", encoding="utf-8")
    (src / f"link-{OTHER_CPF}.log").symlink_to(target)
    report = tmp_path / "report.json"
    done = cli("redact", "--in-place", str(src), "--report", str(report))
    assert done.returncode == 3, done.stderr  # the link is refused, and reported
    assert sorted(p.name for p in src.iterdir()) == [f"comprovante_{NAMED_CPF}.pdf.txt",
                                                      f"link-{OTHER_CPF}.log"]
    assert target.read_text(encoding="utf-8") == "CPF [CPF]\n"
    _no_named_values(done.stdout, done.stderr, report.read_bytes())
    assert f"redactor: {tmp_path}/cliente-_CPF_/link-_CPF_.log: is a symbolic link".encode() \
        in done.stderr
    paths = [f["path"] for f in json.loads(report.read_text(encoding="utf-8"))["files"]]
    assert f"{tmp_path}/cliente-_CPF_/comprovante__CPF_.pdf.txt" in paths


def test_an_output_over_inputs_named_with_a_cpf_is_refused_without_the_name(
        tmp_path: Path) -> None:
    inputs = tmp_path / f"cliente-{NAMED_CPF}"
    inputs.mkdir()
    (inputs / f"{OTHER_CPF}.log").write_text("x\n", encoding="utf-8")
    done = cli("redact", str(inputs), "--output", str(inputs))
    assert done.returncode == 2 and b"--output" in done.stderr
    _no_named_values(done.stdout, done.stderr)


def test_in_place_messages_name_a_changed_file_redacted(engine: Redactor,
                                                        tmp_path: Path) -> None:
    log = tmp_path / f"cliente-{NAMED_CPF}.log"
    log.write_text("".join(f"linha {i} CPF {CPF}\n" for i in range(20_000)), encoding="utf-8")

    written: list[int] = []

    def writer_appends(_: int) -> None:
        if not written:  # another process appends one line while the file is read
            written.append(1)
            with log.open("ab") as out:
                out.write(b"linha nova\n")

    report = batch.process_file(engine, log, None, "text", on_block=writer_appends)
    assert report.error == (f"{tmp_path}/cliente-_CPF_.log: changed while being redacted "
                            "(written to, grown or replaced); left as it was, not rewritten")
    assert report.path == f"{tmp_path}/cliente-_CPF_.log"
    _no_named_values(report.error.encode())


def test_names_redact_each_component_with_a_safe_placeholder(engine: Redactor) -> None:
    names = batch.Names(engine)
    assert names.name(f"comprovante_{NAMED_CPF}.pdf.txt") == "comprovante__CPF_.pdf.txt"
    assert names.name("Maria_da_Silva.txt") == "_NOME_.txt"  # found with "_" as a space
    assert names.name(NAMED_CPF) == "_CPF_" and names.name(f".{NAMED_CPF}") == "._CPF_"
    assert names.name("README.md") == "README.md" and names.name("..") == ".."
    assert names.path(f"a/cliente-{CPF.replace('.', '')}/x.log") == "a/cliente-_CPF_/x.log"
    placeholder = batch.NAME_PLACEHOLDER.format(label="CPF")
    assert re.fullmatch(r"[A-Za-z0-9_]+", placeholder) and not placeholder.startswith("-")


def test_output_names_never_collide(engine: Redactor, tmp_path: Path) -> None:
    names = batch.Names(engine)
    first, second = tmp_path / "a", tmp_path / "b"
    found = [(first / "x.log", first), (second / "x.log", second), (first / "x.log", first),
             (first / f"{NAMED_CPF}.tar.gz", first), (second / f"{OTHER_CPF}.tar.gz", second)]
    copies = batch._output_names(found, tmp_path / "out", names)
    assert [str(c.relative_to(tmp_path / "out")) for c in copies] == [
        "x.log", "x-2.log", "x.log", "_CPF_.tar.gz", "_CPF_-2.tar.gz"]


def test_a_value_spanning_a_folder_and_a_file_name_is_redacted_in_both(tmp_path: Path) -> None:
    """Review of item 4: a file named after a masked CNPJ is a folder and a file
    (``11.222.333/0001-81.txt``); neither name alone holds the value."""
    src, out, report = tmp_path / "src", tmp_path / "out", tmp_path / "report.json"
    folder = src / "clientes" / "11.222.333"
    folder.mkdir(parents=True)
    (folder / "outro.txt").write_text("nada\n", encoding="utf-8")
    (folder / "0001-81.txt").write_text("nada\n", encoding="utf-8")
    done = cli("redact", str(src), "--output", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    assert written == ["clientes", "clientes/_CNPJ_", "clientes/_CNPJ_/_CNPJ_.txt",
                       "clientes/_CNPJ_/outro.txt"]
    for text in (report.read_text(encoding="utf-8"), done.stderr.decode()):
        assert "0001-81" not in text
    scan = cli("scan", str(src))
    assert scan.returncode == 1
    assert "0001-81" not in scan.stdout.decode() + scan.stderr.decode()
    assert "in its name: BR_CNPJ=1" in scan.stdout.decode()


def test_a_redacted_json_line_keeps_its_compact_separators(engine: Redactor) -> None:
    # nginx and most loggers write JSON Lines without blanks; a redacted line is written
    # back the same way (a spaced one spaced), whichever way it is redacted: in place,
    # or by redact_json (a key holding a finding), its numbers as they were read.
    lines = ['{"remote_addr":"192.0.2.7","status":200,"t":1.50}',
             '{"529.982.247-25":{"x":1},"n":1e400}',
             '{"remote_addr": "192.0.2.7", "status": 200}',
             ' { "a" :"529.982.247-25"}']
    out = batch._redact_lines(engine, "\n".join(lines) + "\n", batch.FileReport("x"))
    assert out.splitlines() == ['{"remote_addr":"[IP]","status":200,"t":1.50}',
                                '{"[CPF]":{"x":1},"n":1e400}',
                                '{"remote_addr": "[IP]", "status": 200}',
                                '{"a":"[CPF]"}']

"""redactor on Apache Spark: PySpark in local mode (``local[2]``, UI off, 127.0.0.1).

Run alone with ``pytest -m spark``.  Skipped, with the reason, when PySpark (the
``spark`` extra) or a Java runtime is missing.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from benchmarks import synthetic as syn
from benchmarks.throughput import corpus, digit_corpus
from redactor.config import Settings
from redactor.engine import Redactor, StreamNames
from redactor.errors import ConfigError, UsageError

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]
CPF = "529.982.247-25"
KEY = "chave-de-teste-sintetica-0123456789"


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        pytest.skip("PySpark is not installed: pip install -e '.[spark]' (tests/run.sh does)")
    from redactor.spark import java_runtime, spark_session

    if java_runtime() is None:
        pytest.skip("the Spark tests need a Java runtime (17 or 21) on PATH or in JAVA_HOME")
    events = tmp_path_factory.mktemp("spark-events")
    session = spark_session("local[2]", app_name="redactor-tests", config={
        "spark.eventLog.enabled": "true", "spark.eventLog.dir": f"file://{events}",
        # Spark 4 compresses the event log by default: plain text, so the tests can read it.
        "spark.eventLog.compress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.execution.arrow.maxRecordsPerBatch": "64"})
    session.events = events  # type: ignore[attr-defined]
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture(scope="module")
def engine() -> Redactor:
    return Redactor(Settings())


def jsonl_lines(rng: random.Random, count: int) -> list[str]:
    people = ["Maria Souza", "João Pereira", "Ana Lima"]
    lines = []
    for i in range(count):
        kind = rng.random()
        if kind < 0.3:
            row = {"cpf": syn.random_cpf(rng), "nome": rng.choice(people), "n": i}
        elif kind < 0.5:
            row = {"msg": f"cliente CNPJ {syn.cnpj_forms(syn.random_cnpj(rng))['masked']}",
                   "user": syn.username(rng)}
        else:
            row = {"msg": f"pedido {rng.randint(0, 10**8)} ok", "n": i}
        lines.append(json.dumps(row, ensure_ascii=False))
    return lines


def seeded_tree(root: Path) -> None:
    """Text, JSON Lines, gzip, CRLF, no final newline, a JSON document, a subfolder."""
    rng = random.Random(11)
    logs, _ = corpus(0.15, seed=11)
    digits, _ = digit_corpus(0.1, seed=12)
    (root / "sub").mkdir(parents=True)
    (root / "app.log").write_text(logs, encoding="utf-8")
    (root / "sub" / "digits.log").write_text(digits.rstrip("\n"), encoding="utf-8")
    (root / "windows.log").write_bytes(logs[:20000].replace("\n", "\r\n").encode())
    (root / "events.jsonl").write_text("\n".join(jsonl_lines(rng, 300)) + "\n",
                                       encoding="utf-8")
    with gzip.open(root / "sub" / "old.log.gz", "wt", encoding="utf-8") as packed:
        packed.write(logs[:30000])
    (root / "doc.json").write_text(json.dumps(
        {"cliente": {"cpf": CPF, "nome": "Maria Souza"}}, ensure_ascii=False, indent=1))


def truncated_gzip() -> bytes:
    """A gzip file cut in the middle of its stream (its lines carry a CPF)."""
    rng = random.Random(4)
    text = "".join(f"{rng.getrandbits(128):032x} CPF {CPF}\n" for _ in range(2000))
    packed = gzip.compress(text.encode())
    return packed[:len(packed) // 2]


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(cwd / "config")}
    env.pop("REDACTOR_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "redactor", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def tree(root: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            files[str(path.relative_to(root))] = (gzip.decompress(data)
                                                  if path.name.endswith(".gz") else data)
    return files


def test_the_cli_on_spark_writes_the_local_commands_tree(tmp_path: Path, spark: Any) -> None:
    source = tmp_path / "in"
    seeded_tree(source)
    # A corrupt gzip file fails on its own, naming the file, and leaves no output.
    (source / "broken.log.gz").write_bytes(truncated_gzip())
    local = run_cli("redact", "in", "--output", "local", "--report", "local.json", cwd=tmp_path)
    done = run_cli("redact", "in", "--output", "spark", "--engine", "spark", "--master",
                   "local[2]", "--report", "spark.json", cwd=tmp_path)
    assert local.returncode == done.returncode == 3, done.stderr
    assert tree(tmp_path / "spark") == tree(tmp_path / "local")
    assert not (tmp_path / "spark" / "broken.log.gz").exists()
    assert sorted(tree(tmp_path / "spark")) == sorted(
        str(p.relative_to(source)) for p in source.rglob("*")
        if p.is_file() and p.name != "broken.log.gz")
    # The same report, save where each redacted copy went (its own --output folder).
    spark_report = json.loads((tmp_path / "spark.json").read_text())
    local_report = json.loads((tmp_path / "local.json").read_text())
    for entry in spark_report["files"]:
        if entry.get("output"):
            assert entry["output"].startswith("spark/")
            entry["output"] = "local/" + entry["output"].removeprefix("spark/")
    assert spark_report == local_report
    assert "broken.log.gz" in done.stderr and "redactor: spark stage" in done.stderr
    assert CPF not in done.stderr and "52998224725" not in done.stderr
    # Spark's own console chatter is off: errors only (the JVM's warning about its
    # incubator module is printed by the JVM itself, before any logging starts).
    assert "Setting default log level" not in done.stderr and " WARN " not in done.stderr
    assert b"[CPF]" in tree(tmp_path / "spark")["app.log"]


def test_the_cli_refuses_spark_without_files_to_write(
        capsys: pytest.CaptureFixture[str]) -> None:
    from redactor.cli import main

    for args, message in ((["redact", "x", "--engine", "spark"], "--output DIR"),
                          (["redact", "x", "--master", "local[1]"], "goes with --engine spark"),
                          (["redact", "x", "--engine", "spark", "--output", "o", "--jobs",
                            "2"], "use --master local[N]")):
        assert main(args) == UsageError.exit_code
        assert message in capsys.readouterr().err


def per_row(engine: Redactor, rows: list[dict[str, Any]], columns: list[str],
            numbers: tuple[str, ...] = ()) -> list[Any]:
    """What redact_json gives for each row alone, keys and numbers included as in a
    JSON Lines file: the reference for the batched path.  ``numbers``: the number
    columns, which come back as text (the default ``numbers="placeholder"``)."""
    out = []
    for row in rows:
        doc = {c: row[c] for c in columns if row[c] is not None}
        redacted = engine.redact_json(doc, keys_and_numbers=True).value
        for name in numbers:
            if isinstance(redacted.get(name), int | float):
                redacted[name] = str(redacted[name])
        out.append({**row, **redacted})
    return out


def test_a_data_frame_gets_what_each_row_alone_gets(spark: Any, engine: Redactor) -> None:
    from redactor.spark import redact_dataframe

    rng = random.Random(5)
    rows = [json.loads(line) for line in jsonl_lines(rng, 400)]
    rows = [{"cpf": r.get("cpf"), "nome": r.get("nome"), "msg": r.get("msg"),
             "user": r.get("user"), "n": r.get("n")} for r in rows]
    frame = spark.createDataFrame(rows, "cpf string, nome string, msg string, user string, "
                                        "n long").repartition(3)
    out = redact_dataframe(frame, settings=Settings(), findings=True).collect()
    got = sorted((r.asDict() for r in out), key=lambda r: json.dumps(r, sort_keys=True,
                                                                      default=str))
    expected = per_row(engine, rows, ["cpf", "nome", "msg", "user", "n"], numbers=("n",))
    counted = sum(sum(r["findings"].values()) for r in got)
    for row in got:
        del row["findings"]
    assert got == sorted(expected, key=lambda r: json.dumps(r, sort_keys=True, default=str))
    assert counted > 100  # the rows with values were redacted, and counted
    assert not any(r["cpf"] and r["cpf"][0].isdigit() for r in got)


def test_nested_columns_keep_their_shape_and_non_strings(spark: Any) -> None:
    import datetime

    from redactor.spark import redact_dataframe

    schema = ("id long, cliente struct<cpf:string, idade:int, desde:timestamp, "
              "contato:struct<email:string>>, notas array<string>, "
              "extra map<string,string>, valor double")
    when = datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)
    frame = spark.createDataFrame([
        (1, {"cpf": CPF, "idade": 40, "desde": when, "contato": {"email": "ana@example.com"}},
         [f"cliente {CPF}", "ok"], {"obs": f"CPF {CPF}", "k": "v"}, 1.5),
        (2, None, None, None, None),
        (3, {"cpf": None, "idade": None, "desde": None, "contato": None}, [], {}, None),
    ], schema)
    out = {r.id: r for r in redact_dataframe(frame, findings=True, settings=Settings(),
                                             numbers="masked").collect()}
    first = out[1]
    assert first.cliente.cpf == "[CPF]" and first.cliente.idade == 40
    assert first.cliente.desde == when and first.cliente.contato.email == "[EMAIL]"
    assert first.notas == ["cliente [CPF]", "ok"]
    assert first.extra == {"obs": "CPF [CPF]", "k": "v"} and first.valor == 1.5
    assert first.findings == {"BR_CPF": 3, "EMAIL_ADDRESS": 1}
    assert out[2].cliente is None and out[2].notas is None and out[2].findings == {}
    assert out[3].cliente.cpf is None and out[3].notas == [] and out[3].extra == {}
    # Only the columns asked for; unknown ones fail.
    only = redact_dataframe(frame, ["notas", "valor"], settings=Settings()).collect()
    assert {r.id: (r.notas, r.cliente.cpf if r.cliente else None, r.valor)
            for r in only}[1] == (["cliente [CPF]", "ok"], CPF, "1.5")
    with pytest.raises(UsageError, match="no such column"):
        redact_dataframe(frame, ["nope"], settings=Settings())


def test_a_column_redacted_alone_with_its_name_as_context(spark: Any, engine: Redactor) -> None:
    from pyspark.sql import functions as F

    from redactor.spark import redact_column

    rng = random.Random(9)
    cpfs = [syn.random_cpf(rng) for _ in range(150)]
    frame = spark.createDataFrame([(c,) for c in cpfs] + [(None,), ("",)], "cpf string")
    got = [r.cpf for r in frame.select(redact_column("cpf", settings=Settings())).collect()]
    assert got[:150] == [engine.redact_json({"cpf": c}).value["cpf"] for c in cpfs]
    assert set(got[:150]) == {"[CPF]"} and got[150:] == [None, ""]
    # entities= limits what is replaced.
    mixed = spark.createDataFrame([(f"{CPF} ana@example.com",)], "texto string")
    [row] = mixed.select(redact_column(F.col("texto"), settings=Settings(),
                                       entities=["EMAIL_ADDRESS"])).collect()
    assert row.texto == f"{CPF} [EMAIL]"
    # A column of another type is read as its text: a CPF kept as a number is found.
    numbers = spark.createDataFrame([(52998224725,), (12345,), (None,)], "cpf long")
    got = [r.cpf for r in numbers.select(redact_column("cpf", settings=Settings())).collect()]
    assert got == ["[CPF]", "12345", None]


def test_the_configuration_travels_with_the_job(spark: Any, tmp_path: Path) -> None:
    from redactor.spark import job_settings, redact_dataframe

    users = tmp_path / "users.txt"
    users.write_text("zequinha\n", encoding="utf-8")
    toml = (f'[usernames]\nknown_users_file = "{users}"\n'
            '[operators.BR_CPF]\ntype = "hash"\nplaceholder = "[CPF:{hash}]"\n')
    shipped = job_settings(toml, hash_key=KEY)
    users.unlink()  # the executors never read the driver's file
    assert KEY not in repr(shipped) and "zequinha" not in repr(shipped)
    rows = [(f"login zequinha cpf {CPF}",)] * 6
    frame = spark.createDataFrame(rows, "msg string").repartition(3)
    got = {r.msg for r in redact_dataframe(frame, settings=shipped).collect()}
    assert len(got) == 1  # the same token on every executor
    [text] = got
    local = Redactor(shipped.settings, hash_key=KEY.encode()).redact(rows[0][0]).text
    assert text == local and "zequinha" not in text and "[CPF:" in text
    # The key is in no Spark setting and in no event log line.
    assert not any(KEY in value for _, value in spark.sparkContext.getConf().getAll())
    logged = "".join(p.read_text(errors="replace") for p in spark.events.rglob("*")
                     if p.is_file())
    assert logged and KEY not in logged and CPF not in logged


def test_a_bad_configuration_fails_on_the_driver(spark: Any, tmp_path: Path) -> None:
    from redactor.spark import job_settings, redact_dataframe, redact_text_files

    frame = spark.createDataFrame([("x",)], "msg string")
    jobs_before = len(spark.sparkContext.statusTracker().getJobIdsForGroup())
    with pytest.raises(ConfigError, match="entities"):
        redact_dataframe(frame, settings='[detection]\nentities = ["NOPE"]\n')
    with pytest.raises(ConfigError, match="shorter than 16 bytes"):
        job_settings('[operators.BR_CPF]\ntype = "hash"\nplaceholder = "[CPF:{hash}]"\n',
                     hash_key="short")
    with pytest.raises(ConfigError, match="known-users"):
        redact_text_files(spark, str(tmp_path), str(tmp_path / "out"),
                          settings=f'[usernames]\nknown_users_file = "{tmp_path}/none"\n')
    assert len(spark.sparkContext.statusTracker().getJobIdsForGroup()) == jobs_before


def part_lines(folder: Path) -> list[bytes]:
    parts = sorted(folder.glob("part-*"))
    data = b"".join(gzip.decompress(p.read_bytes()) if p.name.endswith(".gz")
                    else p.read_bytes() for p in parts)
    return data.split(b"\n")[:-1]


def test_text_files_keep_lines_bytes_and_endings(spark: Any, tmp_path: Path,
                                                 engine: Redactor) -> None:
    from redactor.spark import redact_text_files

    logs, planted = corpus(0.05, seed=3)
    source = tmp_path / "in"
    source.mkdir()
    raw = logs.replace("\n", "\r\n", 5).encode() + b"caf\xe9 latin-1 CPF " + CPF.encode()
    (source / "a.log").write_bytes(raw)
    redact_text_files(spark, str(source), str(tmp_path / "out"), settings=Settings())
    lines = part_lines(tmp_path / "out")
    # Every line kept (the last one gains its newline), CRLF kept, bytes that are not
    # UTF-8 passed through, and the same text as the local command's.
    assert len(lines) == raw.count(b"\n") + 1
    local = engine.redact(raw.decode("utf-8", "surrogateescape")).text
    assert b"\n".join(lines) == local.encode("utf-8", "surrogateescape")
    assert lines[0].endswith(b"\r") and lines[-1] == b"caf\xe9 latin-1 CPF [CPF]"
    assert not any(p.encode() in b"\n".join(lines) for p in planted)


def test_jsonl_gzip_in_and_out_one_file_per_partition(spark: Any, tmp_path: Path,
                                                      engine: Redactor) -> None:
    from redactor.spark import redact_text_files

    source = tmp_path / "in"
    source.mkdir()
    written = []
    for i in range(3):
        lines = [*jsonl_lines(random.Random(i), 80), '{"broken": ', "  "]
        written.append(lines)
        with gzip.open(source / f"events-{i}.jsonl.gz", "wt", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
    redact_text_files(spark, str(source), str(tmp_path / "out"), format="jsonl",
                      settings=Settings(), compression="gzip")
    parts = sorted((tmp_path / "out").glob("part-*.gz"))
    # One output file per input partition (Spark packs small files together).
    assert len(parts) == spark.read.text(str(source)).rdd.getNumPartitions() >= 1
    got = sorted(part_lines(tmp_path / "out"))
    expected = []
    for lines in written:
        from redactor.batch import FileReport, _redact_lines

        text = _redact_lines(engine, "\n".join(lines) + "\n", FileReport("x"))
        expected += text.encode().split(b"\n")[:-1]
    assert got == sorted(expected) and len(got) == 3 * 82


def test_a_user_name_is_carried_within_a_partition_only(spark: Any, tmp_path: Path) -> None:
    """By design: locally a name found early in a file is redacted in its later blocks;
    on Spark only in the later lines of the same partition."""
    from redactor.spark import redact_text_files

    filler = "".join(f"linha {i} sem dados pessoais aqui\n" for i in range(300))
    text = "USER=zequinha logon\n" + filler + "zequinha saiu\n" + filler + "fim zequinha\n"
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.log").write_text(text, encoding="utf-8")
    local = Redactor(Settings()).redact(text, names=StreamNames()).text
    assert "zequinha" not in local
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(len(text) // 2))
    try:
        redact_text_files(spark, str(source), str(tmp_path / "out"), settings=Settings())
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    parts = sorted((tmp_path / "out").glob("part-*"))
    assert len(parts) == 2
    first, second = (p.read_text(encoding="utf-8") for p in parts)
    assert "zequinha" not in first  # carried inside the first partition
    assert second.endswith("fim zequinha\n")  # not into the second
    assert (first + second).count("\n") == text.count("\n")


def test_a_corrupt_gzip_fails_the_job_naming_the_file(spark: Any, tmp_path: Path) -> None:
    from redactor.spark import SparkError, redact_text_files

    source = tmp_path / "in"
    source.mkdir()
    (source / "good.log.gz").write_bytes(gzip.compress(f"CPF {CPF}\n".encode() * 10))
    (source / "bad.log.gz").write_bytes(truncated_gzip())
    # Even where the session skips corrupt files by default.
    spark.conf.set("spark.sql.files.ignoreCorruptFiles", "true")
    try:
        with pytest.raises(SparkError) as failure:
            redact_text_files(spark, str(source), str(tmp_path / "out"), settings=Settings())
    finally:
        spark.conf.unset("spark.sql.files.ignoreCorruptFiles")
    message = str(failure.value)
    assert "bad.log.gz" in message and CPF not in message
    out = tmp_path / "out"
    assert not (out / "_SUCCESS").exists() and not list(out.glob("part-*"))


def test_findings_are_types_and_counts_only(spark: Any) -> None:
    from redactor.spark import redact_dataframe

    frame = spark.createDataFrame([(f"{CPF} e {CPF}",)], "msg string")
    [row] = redact_dataframe(frame, findings=True, settings=Settings()).collect()
    assert row.findings == {"BR_CPF": 2} and Counter(row.findings).total() == 2


def test_a_private_key_across_lines_and_batches_leaves_nothing(spark: Any,
                                                              tmp_path: Path) -> None:
    """A PEM block is one finding over several lines: Spark keeps the line count by
    following its placeholder with empty lines, also when the block straddles two
    Arrow batches (64 lines here), where each part is found on its own."""
    from redactor.spark import redact_text_files
    from tests.integration.test_secrets import pem

    keys = [pem(), pem(label="PRIVATE KEY")]
    filler = [f"linha {i} pedido {i * 7919} ok" for i in range(200)]
    lines = [*filler[:58], *keys[0].split("\n"), *filler[58:100], *keys[1].split("\n"),
             f"CPF {CPF}", *filler[100:]]
    source = tmp_path / "in"
    source.mkdir()
    (source / "keys.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    redact_text_files(spark, str(source), str(tmp_path / "out"), settings=Settings())
    out = b"\n".join(part_lines(tmp_path / "out")).decode()
    assert out.count("\n") + 1 == len(lines)
    body = [line for key in keys for line in key.split("\n")[1:-1]]
    assert not [line for line in body if line in out]
    assert "PRIVATE KEY" not in out and CPF not in out and out.count("[SECRET]") >= 2
    assert out.split("\n")[:58] == filler[:58]


def test_files_are_grouped_into_tasks_of_similar_size() -> None:
    from redactor.spark import _bins

    sizes = [50, 10, 40, 30, 30, 20, 10, 5, 0]
    groups = _bins(sizes, 4)
    assert sorted(i for g in groups for i in g) == list(range(len(sizes)))
    loads = [sum(sizes[i] for i in g) for g in groups]
    assert len(groups) == 4 and loads == sorted(loads, reverse=True)
    assert max(loads) - min(loads) <= max(sizes) // 2  # 50 | 40+5 | 30+20 | 30+10+10+0
    assert all(sizes[g[0]] == max(sizes[i] for i in g) for g in groups)
    assert _bins([7, 3], 8) == [[0], [1]]  # one file per task when files are few
    assert _bins([], 4) == []


def test_values_that_are_not_utf8_pass_through_and_are_never_quoted(spark: Any) -> None:
    """Spark lets a string hold any bytes (a Latin-1 file read as text): they reach the
    engine as escapes and come back as they were, never through Arrow's UTF-8 decoding,
    whose error would quote the value."""
    from pyspark.sql import functions as F

    from redactor.spark import redact_column, redact_dataframe

    raw = b"caf\xe9 CPF " + CPF.encode()
    frame = spark.createDataFrame([(bytearray(raw), bytearray(b"ok"))], "obs binary, b binary")
    frame = frame.select(F.col("obs").cast("string").alias("obs"),
                         F.struct(F.col("obs").cast("string").alias("inner")).alias("nested"),
                         F.col("b"))
    [row] = frame.select(redact_column("obs", settings=Settings()).cast("binary")).collect()
    assert bytes(row.obs) == b"caf\xe9 CPF [CPF]"
    [row] = redact_dataframe(frame, settings=Settings()).select(
        F.col("obs").cast("binary").alias("obs"),
        F.col("nested.inner").cast("binary").alias("inner"), "b").collect()
    assert bytes(row.obs) == bytes(row.inner) == b"caf\xe9 CPF [CPF]"
    assert bytes(row.b) == b"ok"  # a binary column is not a string column: left alone
    logged = "".join(p.read_text(errors="replace") for p in spark.events.rglob("*")
                     if p.is_file())
    assert CPF not in logged


def test_any_column_name_is_context(spark: Any) -> None:
    from redactor.spark import job_settings, redact_column

    frame = spark.createDataFrame([("hunter2senha", "12.345.678-9", "Maria e zequinha")],
                                  "`senha-db` string, `rg cliente` string, `obs.x` string")
    [row] = frame.select(redact_column("senha-db", settings=Settings()),
                         redact_column("`rg cliente`", settings=Settings()),
                         redact_column("`obs.x`", settings=job_settings(
                             Settings(), known_users="zequinha"))).collect()
    assert row.asDict() == {"senha-db": "[SECRET]", "rg cliente": "[RG]",
                            "obs.x": "Maria e [USERNAME]"}


def test_cli_jobs_ship_absolute_paths_and_report_the_given_ones(
        spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Executors resolve paths in their own working folder (here the Python workers
    started before this test moved), so relative names must not reach them."""
    from redactor import batch
    from redactor.spark import redact_files

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.log").write_text(f"CPF {CPF}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    jobs = batch.plan([Path("in")], "*", Path("out"), in_place=False, scan=False,
                      requested=None)
    [report] = redact_files(jobs, settings=Settings(), spark=spark)
    assert report.error is None and report.path == "in/a.log"
    assert (tmp_path / "out" / "a.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    assert not spark.sparkContext._jsc.sc().isStopped()


def test_a_failed_jobs_message_redacts_the_names_on_a_path() -> None:
    """Issue 29, item 4: every path printed has the values in its names redacted."""
    from redactor.spark import _job_failed

    error = RuntimeError("Encountered error while reading file file:///data/cliente-"
                         "52998224725/nf_11222333000181.log.gz. Details: java.io.EOFException")
    message = str(_job_failed(error, "o"))
    assert message.startswith("/data/cliente-_CPF_/nf__CNPJ_.log.gz: cannot be read")
    exists = RuntimeError("[PATH_ALREADY_EXISTS] Path file:/tmp/out already exists.")
    assert str(_job_failed(exists, "/tmp/out-52998224725")).startswith(
        "/tmp/out-_CPF_: already exists")


def test_a_failed_jobs_message_names_the_input() -> None:
    from redactor.spark import _job_failed

    error = RuntimeError("Encountered error while reading file file:///data/in%207,x/bad%20"
                         "file.log.gz. Details: java.io.EOFException; line CPF 529.982.247-25")
    message = str(_job_failed(error, "o"))
    assert message.startswith("/data/in 7,x/bad file.log.gz: cannot be read")
    assert CPF not in message
    inside = RuntimeError("Task failed while writing rows to file:/tmp/out/part-0.")
    assert str(_job_failed(inside, "/tmp/out")) == "the Spark job failed (RuntimeError)"
    exists = RuntimeError("[PATH_ALREADY_EXISTS] Path file:/tmp/out already exists.")
    assert "already exists" in str(_job_failed(exists, "/tmp/out"))


def test_number_columns_and_map_keys_are_redacted_as_batch_files_are(
        spark: Any, engine: Redactor) -> None:
    """Issue 29, item 1: a CPF kept as a bigint, as a double (a column with nulls), a
    CNPJ as a decimal, and a map keyed by CPFs; the same values as batch JSON Lines."""
    from redactor.batch import FileReport, _redact_lines
    from redactor.spark import redact_dataframe

    rng = random.Random(29)
    # Without a leading zero: a number loses it, and only a key naming the CPF brings
    # it back (the batch path does the same).
    cpfs = [c for c in (int(syn.random_cpf(rng).replace(".", "").replace("-", ""))
                        for _ in range(80)) if c >= 10**10][:40]
    rows = [(i, cpf, float(cpf) if i % 3 else None,
             Decimal(11222333000181 if i == 0 else 12345), {str(cpf): "cliente"}, i * 7)
            for i, cpf in enumerate(cpfs)]
    schema = ("id int, codigo long, doc double, empresa decimal(14,0), "
              "extra map<string,string>, n long")
    frame = spark.createDataFrame(rows, schema).repartition(2)

    # "placeholder" makes every number column text, the id too.
    placed = {int(r.id): r for r in redact_dataframe(frame, settings=Settings(), findings=True)
              .collect()}
    types = dict(redact_dataframe(frame, settings=Settings()).dtypes)
    assert types["codigo"] == types["doc"] == types["empresa"] == types["n"] == "string"
    assert types["id"] == "string"
    assert {r.codigo for r in placed.values()} == {"[CPF]"}
    assert {r.doc for i, r in placed.items() if i % 3} == {"[CPF]"}
    assert placed[0].empresa == "[CNPJ]" and placed[1].empresa == "12345"
    assert placed[5].n == "35" and all(r.extra == {"[CPF]": "cliente"} for r in placed.values())
    assert placed[1].findings == {"BR_CPF": 3}
    # The JSON Lines path of the local command gives the same values.
    for i, codigo, doc, empresa, extra, n in rows[:6]:
        line = json.dumps({"codigo": codigo, **({"doc": doc} if doc is not None else {}),
                           "empresa": int(empresa), "extra": extra, "n": n})
        batch = json.loads(_redact_lines(engine, line + "\n", FileReport("x")))
        row = placed[i]
        assert batch["codigo"] == row.codigo and batch["extra"] == row.extra
        assert str(batch["empresa"]) == row.empresa and str(batch["n"]) == row.n
        assert doc is None or batch["doc"] == row.doc

    masked = {r.id: r for r in redact_dataframe(frame, settings=Settings(), numbers="masked")
              .collect()}
    assert dict(redact_dataframe(frame, settings=Settings(), numbers="masked").dtypes) == \
        dict(frame.dtypes)
    assert {r.codigo for r in masked.values()} == {99999999999}
    assert {r.doc for i, r in masked.items() if i % 3} == {99999999999.0}
    assert masked[0].empresa == Decimal(99999999999999) and masked[1].empresa == 12345
    assert masked[5].n == 35
    with pytest.raises(UsageError, match="numbers"):
        redact_dataframe(frame, settings=Settings(), numbers="text")  # type: ignore[arg-type]


def test_text_files_redact_json_numbers_as_the_local_command(spark: Any, tmp_path: Path) -> None:
    from redactor.spark import redact_text_files

    source = tmp_path / "in.jsonl"
    source.write_text('{"cpf": 52998224725, "n": 3}\n{"52998224725": {"ok": true}}\n',
                      encoding="utf-8")
    redact_text_files(spark, str(source), str(tmp_path / "placed"), format="jsonl",
                      settings=Settings())
    assert sorted(part_lines(tmp_path / "placed")) == [
        b'{"52998224725": {"ok": true}}'.replace(b"52998224725", b"[CPF]"),
        b'{"cpf": "[CPF]", "n": 3}']
    redact_text_files(spark, str(source), str(tmp_path / "masked"), format="jsonl",
                      settings=Settings(), numbers="masked")
    assert b'{"cpf": 99999999999, "n": 3}' in part_lines(tmp_path / "masked")
    with pytest.raises(UsageError, match="numbers"):
        redact_text_files(spark, str(source), str(tmp_path / "x"), format="jsonl",
                          numbers="text")  # type: ignore[arg-type]

"""Hostile inputs to ``redactor redact`` / ``redactor scan``: legacy encodings, broken and
oversized files, links, interrupted runs.  Each test reproduces one audit finding."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from redactor import batch
from redactor.config import Settings
from redactor.engine import Redactor
from redactor.errors import InputError
from tests import needs

REPO = Path(__file__).resolve().parents[2]
CPF = "529.982.247-25"
CNPJ = "12.ABC.345/01DE-35"
PAD = ("linha de log comum sem dados pessoais, apenas texto de preenchimento\n" * 70).encode()
LATIN_LINE = f"Usuário: João CPF {CPF}\n".encode("latin-1")
#: A Latin-1 log past the prefilter size (4 KB): the prefilter path is taken.
LATIN_LOG = PAD + LATIN_LINE + PAD
#: What it becomes, its Latin-1 bytes read and kept.
LATIN_REDACTED = PAD + "Usuário: [USERNAME] CPF [CPF]\n".encode("latin-1") + PAD
#: A process id no system hands out (above Linux's largest pid_max).
DEAD_PID = 99_999_999


# Each fast backend's tests skip without it, and fail under tests/run.sh (tests/needs.py).
BACKENDS = needs.backend_params()


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "redactor", *args], capture_output=True,
                          cwd=REPO, input=stdin, timeout=600, check=False)


def _no_values(*outputs: bytes) -> None:
    for output in outputs:
        assert CPF.encode() not in output and CNPJ.encode() not in output
        assert b"Traceback" not in output


def _temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if batch.is_temporary(p.name)]


@pytest.fixture(scope="module", params=BACKENDS)
def backend_engine(request: pytest.FixtureRequest) -> Redactor:
    engine = Redactor(Settings(), prefilter=request.param)
    assert engine.prefilter_backend == request.param
    return engine


# ------------------------------------------------------------------ 9: encodings

def test_latin1_text_past_the_prefilter_size_is_redacted_on_every_backend(
        backend_engine: Redactor) -> None:
    assert len(LATIN_LOG) >= backend_engine.prefilter_min_chars
    lines = []
    for options in (batch.Options(), batch.Options(encoding="latin-1")):
        target = io.BytesIO()
        report = batch.FileReport("latin.log")
        batch.redact_stream(backend_engine, io.BytesIO(LATIN_LOG), target, "text", report,
                            options=options)
        out = target.getvalue()
        assert CPF.encode() not in out and report.counts["BR_CPF"] == 1
        assert report.counts["USERNAME"] == 1  # the accented key is read as a key
        assert out.startswith(PAD) and out.endswith(PAD)
        lines.append(out[len(PAD):-len(PAD)])
    # Read as UTF-8, the bytes that are not are read as Latin-1 (the accented keyword
    # and name are read whole) and pass through unchanged: the same bytes as decoding.
    assert lines[0] == lines[1] == "Usuário: [USERNAME] CPF [CPF]\n".encode("latin-1")


#: Pieces of legacy logs written in Windows-1252 (synthetic people and values).
LEGACY_TEXTS = (
    "Usuário: jsilva; Observação: cliente João da Conceição ligou às 10h",
    "nome: Sebastião Araújo \u2013 CPF " + CPF + " \u2013 “pedido” nº 42",
    "Falha de autenticação: usuário=mferreira (senha inválida)\n" * 3,
    "Endereço: Rua São João, 120 - São Paulo; responsável: Gonçalo Simões",
)


def test_bytes_that_are_not_utf8_are_read_as_latin1_on_every_backend(
        backend_engine: Redactor) -> None:
    for text in LEGACY_TEXTS:
        raw = text.encode("cp1252")
        as_utf8 = raw.decode("utf-8", "surrogateescape")
        assert "\udce3" in as_utf8 or "\udce1" in as_utf8 or "\udce7" in as_utf8
        decoded = backend_engine.analyze(raw.decode("cp1252"))
        assert decoded  # every piece holds something to find
        assert backend_engine.analyze(as_utf8) == decoded  # same places, same entities
        out = backend_engine.redact(as_utf8).text.encode("utf-8", "surrogateescape")
        assert out == backend_engine.redact(raw.decode("cp1252")).text.encode("cp1252")


def test_a_latin1_soft_hyphen_is_read_through_as_decoded(engine: Redactor) -> None:
    # Found by review: the byte 0xAD is the soft hyphen, which detection reads through.
    for raw in (b"CPF 529.982\xad.247-25 ok", b"nome: Jo\xe3o Pe\xadreira"):
        legacy = raw.decode("utf-8", "surrogateescape")
        decoded = raw.decode("latin-1")
        assert engine.analyze(legacy) == engine.analyze(decoded) != ()
        out = engine.redact(legacy).text.encode("utf-8", "surrogateescape")
        assert out == engine.redact(decoded).text.encode("latin-1")


def test_a_value_in_latin1_bytes_gets_the_token_of_the_value_itself() -> None:
    from redactor.config import OperatorSpec

    hashed = Redactor(Settings(default_operator=OperatorSpec(kind="hash")),
                      hash_key=b"k" * 32)
    text = "nome: João Pereira, CPF " + CPF
    legacy = text.encode("latin-1").decode("utf-8", "surrogateescape")
    assert hashed.redact(legacy).text == hashed.redact(text).text
    assert "[NOME:" in hashed.redact(text).text


def test_a_lone_surrogate_in_a_long_jsonl_value_is_redacted_on_every_backend(
        backend_engine: Redactor) -> None:
    # The block's prefilter scan sees the undecodable byte of the first line; the
    # second line's value holds a lone surrogate once parsed.
    long_value = "\\ud800 " + "texto comum " * 400 + f"CPF {CPF}"
    first = '{"msg": "Jo\xe3o"}\n'.encode("latin-1")
    data = first + ('{"msg": "' + long_value + '"}\n').encode()
    target = io.BytesIO()
    report = batch.FileReport("sur.jsonl")
    batch.redact_stream(backend_engine, io.BytesIO(data), target, "jsonl", report)
    out = target.getvalue()
    assert out.startswith(first)
    second = out[len(first):].decode("ascii")
    assert json.loads(second)["msg"].startswith("\ud800 texto")  # kept, as an escape
    assert CPF not in second and report.counts["BR_CPF"] == 1


def test_legacy_codecs_round_trip_and_bad_codecs_are_refused(engine: Redactor) -> None:
    # 0x81 is undefined in cp1252: it passes through; JSON characters Latin-1 cannot
    # write come out as JSON escapes, never as a crash.
    data = b"linha \x81 \xe7\xe3o " + f"CPF {CPF}\n".encode()
    for codec in ("cp1252", "latin-1"):
        target = io.BytesIO()
        batch.redact_stream(engine, io.BytesIO(data), target, "text", batch.FileReport("x"),
                            options=batch.Options(encoding=codec))
        assert target.getvalue() == b"linha \x81 \xe7\xe3o CPF [CPF]\n"
    jsonl = ('{"v": "\\u20ac ' + CPF + '"}\n').encode()
    target = io.BytesIO()
    batch.redact_stream(engine, io.BytesIO(jsonl), target, "jsonl", batch.FileReport("x"),
                        options=batch.Options(encoding="latin-1"))
    assert json.loads(target.getvalue().decode("latin-1")) == {"v": "€ [CPF]"}
    assert batch.check_encoding("Latin1") == "iso8859-1"
    for bad in ("utf-16", "no-such-codec"):
        with pytest.raises(Exception, match="encoding"):
            batch.check_encoding(bad)


def test_latin1_logs_via_the_cli_in_place_and_scan(tmp_path: Path) -> None:
    first, after = tmp_path / "legacy.log", tmp_path / "after.log"
    first.write_bytes(LATIN_LOG)
    after.write_text(f"depois CNPJ {CNPJ}\n", encoding="utf-8")
    done = cli("redact", "--in-place", str(first), str(after))
    assert done.returncode == 0, done.stderr
    _no_values(done.stdout, done.stderr)
    assert first.read_bytes() == LATIN_REDACTED
    assert after.read_text(encoding="utf-8") == "depois CNPJ [CNPJ]\n"  # later files go on

    decoded = tmp_path / "decoded.log"
    decoded.write_bytes(LATIN_LOG)
    clean = tmp_path / "clean.log"
    clean.write_bytes(PAD + "Observação: nada aqui\n".encode("latin-1") + PAD)
    assert cli("scan", "--encoding", "latin-1", str(clean)).returncode == 0
    assert cli("scan", str(clean)).returncode == 0  # not the "found" code
    found = cli("scan", "--encoding", "latin-1", str(decoded))
    assert found.returncode == 1 and b"BR_CPF=1" in found.stdout
    done = cli("redact", "--in-place", "--encoding", "latin-1", str(decoded))
    assert done.returncode == 0, done.stderr
    text = decoded.read_bytes().decode("latin-1")
    assert CPF not in text and "CPF [CPF]" in text and "Usuário: " in text
    assert cli("scan", "--encoding", "utf-16", str(clean)).returncode == 2


# ------------------------------------------------------------------ 10: broken inputs

def _gzip_bomb(path: Path, members: int) -> None:
    """``members`` MiB of spaces once unpacked, about a kilobyte per MiB on disk."""
    member = gzip.compress(b" " * (1 << 20), compresslevel=9)
    with path.open("wb") as out:
        for _ in range(members):
            out.write(member)


def _corrupt_gzip(path: Path) -> None:
    rng = random.Random(1)
    text = "".join(f"linha {i} valor {rng.random()}\n" for i in range(20_000)).encode()
    data = bytearray(gzip.compress(text))
    for index in range(2000, 2100):
        data[index] ^= 0x5A  # damages the deflate stream: zlib.error while reading
    path.write_bytes(bytes(data))


def test_broken_inputs_are_reported_per_file_and_the_rest_processed(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    _corrupt_gzip(src / "corrupt.log.gz")
    _gzip_bomb(src / "bomb.json.gz", 2048)  # 2 GiB unpacked
    (src / "big.json").write_text(json.dumps({"cpf": CPF, "pad": "x" * 3000}),
                                  encoding="utf-8")
    (src / "surrogate.jsonl").write_text('{"msg": "\\ud800 CPF ' + CPF + '"}\n',
                                         encoding="utf-8")
    (src / "deep.jsonl").write_text("[" * 100_000 + f" CPF {CPF}\n", encoding="utf-8")
    (src / "good.log").write_text(f"CPF {CPF}\n", encoding="utf-8")
    report = tmp_path / "report.json"
    done = cli("redact", str(src), "--output", str(out), "--max-json-bytes", "2000",
               "--report", str(report))
    assert done.returncode == InputError.exit_code
    _no_values(done.stdout, done.stderr)
    errors = [line for line in done.stderr.decode().splitlines()
              if "malformed" not in line and " redacted (" not in line]
    assert sorted(errors) == [
        f"redactor: {src / 'big.json'}: JSON document larger than 2000 bytes (--max-json-bytes)",
        f"redactor: {src / 'bomb.json.gz'}: JSON document larger than 2000 bytes "
        "(--max-json-bytes)",
        f"redactor: {src / 'corrupt.log.gz'}: zlib.error",
    ]
    assert sorted(p.name for p in out.iterdir()) == ["deep.jsonl", "good.log", "surrogate.jsonl"]
    assert (out / "good.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    line = (out / "surrogate.jsonl").read_text(encoding="utf-8")
    assert json.loads(line) == {"msg": "\ud800 CPF [CPF]"}
    assert (out / "deep.jsonl").read_text(encoding="utf-8").endswith(" CPF [CPF]\n")
    totals = json.loads(report.read_text(encoding="utf-8"))["totals"]
    assert totals == {"BR_CPF": 3}  # the refused and broken files count nothing
    assert not _temporaries(tmp_path)


def test_a_json_bomb_is_never_unpacked_whole(engine: Redactor, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json.gz"
    _gzip_bomb(bomb, 64)
    assert batch.MAX_JSON_BYTES == 256 << 20

    class Counting(io.RawIOBase):
        def __init__(self, inner: gzip.GzipFile) -> None:
            self.inner, self.given = inner, 0

        def read(self, size: int = -1) -> bytes:
            assert size >= 0, "an unbounded read"
            chunk = self.inner.read(size)
            self.given += len(chunk)
            return chunk

    limit = 1 << 20
    with gzip.open(bomb, "rb") as packed:
        source = Counting(packed)
        report = batch.FileReport(str(bomb))
        with pytest.raises(InputError, match="--max-json-bytes"):
            batch.redact_stream(engine, source, None, "json", report,  # type: ignore[arg-type]
                                options=batch.Options(max_json_bytes=limit))
        assert source.given == limit + 1


class _Broken:
    """An engine that fails with one exception class."""

    def __init__(self, failure: type[Exception]) -> None:
        self.failure = failure

    def redact(self, text: str, **options: object) -> object:
        if self.failure is UnicodeEncodeError:
            raise UnicodeEncodeError("utf-8", text, 0, 1, "surrogates not allowed")
        raise self.failure("boom")


def test_any_failure_in_one_file_is_its_reported_error(tmp_path: Path) -> None:
    source = tmp_path / "a.log"
    original = f"CPF {CPF}\n".encode()
    source.write_bytes(original)
    for failure in (RuntimeError, MemoryError, UnicodeEncodeError):
        report = batch.process_file(_Broken(failure), source, source, "text",
                                    shown=str(source))
        assert report.error == f"{source}: {failure.__name__}"
        assert not report.counts
        assert source.read_bytes() == original
        assert list(tmp_path.iterdir()) == [source]
    stdin_report = batch.run_stream(_Broken(MemoryError), io.BytesIO(original), io.BytesIO(),
                                    "text", batch.FileReport("<stdin>"))
    assert stdin_report.error == "<stdin>: MemoryError"


def test_stdout_and_stdin_pass_undecodable_bytes_through(tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.log"
    legacy.write_bytes(LATIN_LOG)
    surrogate = tmp_path / "surrogate.jsonl"
    surrogate.write_text('{"msg": "\\ud800 CPF ' + CPF + '"}\n', encoding="utf-8")
    done = cli("redact", str(legacy), str(surrogate))
    assert done.returncode == 0, done.stderr
    _no_values(done.stdout, done.stderr)
    assert done.stdout == (LATIN_REDACTED
                           + b'{"msg": "\\ud800 CPF [CPF]"}\n')
    piped = cli("redact", "--format", "json", "--max-json-bytes", "10",
                stdin=json.dumps({"cpf": CPF}).encode())
    assert piped.returncode == InputError.exit_code
    assert b"<stdin>: JSON document larger than 10 bytes" in piped.stderr
    _no_values(piped.stdout, piped.stderr)


# ------------------------------------------------------------------ 11: in place

def test_a_file_whose_write_failed_counts_nothing(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "a.log").write_text(f"CPF {CPF}\n", encoding="utf-8")
    (src / "b.log").write_text(f"CNPJ {CNPJ}\n", encoding="utf-8")
    (out / "a.log").mkdir(parents=True)  # the rename onto it fails
    report = tmp_path / "report.json"
    done = cli("redact", str(src), "--output", str(out), "--report", str(report))
    assert done.returncode == InputError.exit_code
    assert f"{src / 'a.log'}: IsADirectoryError".encode() in done.stderr
    assert b"1 redacted (BR_CNPJ: 1)" in done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["totals"] == {"BR_CNPJ": 1}
    assert [f["counts"] for f in data["files"] if f["path"].endswith("a.log")] == [{}]
    assert not _temporaries(tmp_path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a file to another owner needs root")
def test_in_place_keeps_owner_group_and_mode(engine: Redactor, tmp_path: Path) -> None:
    source = tmp_path / "a.log.gz"
    source.write_bytes(gzip.compress(f"CPF {CPF}\n".encode()))
    os.chown(source, 4321, 8765)
    os.chmod(source, 0o640)
    report = batch.process_file(engine, source, source, "text")
    assert report.error is None and report.counts == {"BR_CPF": 1}
    info = source.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (4321, 8765, 0o640)
    assert gzip.decompress(source.read_bytes()) == b"CPF [CPF]\n"


def test_in_place_refuses_links_unless_follow_links(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    line = f"CPF {CPF}\n"
    (tree / "plain.log").write_text(line, encoding="utf-8")
    (outside / "target.log").write_text(line, encoding="utf-8")
    (tree / "link.log").symlink_to(outside / "target.log")
    (outside / "other-name.log").write_text(line, encoding="utf-8")
    os.link(outside / "other-name.log", tree / "hard.log")
    os.link(tree / "plain.log", tree / "plain-again.log")  # two names in the tree
    (tree / "single.log").write_text(line, encoding="utf-8")
    report = tmp_path / "report.json"

    done = cli("redact", "--in-place", str(tree), "--report", str(report))
    assert done.returncode == InputError.exit_code
    _no_values(done.stdout, done.stderr)
    stderr = done.stderr.decode()
    assert f"{tree / 'link.log'}: is a symbolic link" in stderr
    assert f"{tree / 'hard.log'}: has 2 hard links" in stderr
    assert f"{tree / 'plain.log'}: has 2 hard links" in stderr
    for untouched in (outside / "target.log", outside / "other-name.log", tree / "plain.log"):
        assert untouched.read_text(encoding="utf-8") == line
    assert (tree / "link.log").is_symlink()
    assert (tree / "single.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    assert json.loads(report.read_text(encoding="utf-8"))["totals"] == {"BR_CPF": 1}
    assert b"1 redacted" in done.stderr

    done = cli("redact", "--in-place", "--follow-links", str(tree), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert (tree / "link.log").is_symlink()
    assert (outside / "target.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    assert (outside / "other-name.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    assert os.path.samefile(outside / "other-name.log", tree / "hard.log")
    assert (tree / "plain-again.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    # link, hard link and one of the two names of plain.log: each content once
    assert json.loads(report.read_text(encoding="utf-8"))["totals"] == {"BR_CPF": 3}
    assert not _temporaries(tmp_path)
    assert cli("redact", "--follow-links", str(tree / "single.log")).returncode == 2


def _wait_for_temporaries(process: subprocess.Popen[bytes], folder: Path,
                          count: int) -> None:
    while len(_temporaries(folder)) < count:
        assert process.poll() is None, "the run ended before it was interrupted"
        time.sleep(0.02)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_removes_the_temporary_files(tmp_path: Path, jobs: str) -> None:
    # Inputs far too large to finish before the signal arrives.
    block = "".join(f"linha {i} do cliente CPF {CPF} e CNPJ {CNPJ}\n" for i in range(1000))
    originals = {}
    for name in ("a.log", "b.log"):
        path = tmp_path / name
        path.write_text(block * 100, encoding="utf-8")
        originals[path] = path.read_bytes()
    process = subprocess.Popen(
        [sys.executable, "-m", "redactor", "redact", "--in-place", "--jobs", jobs,
         *(str(p) for p in originals)], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    try:
        _wait_for_temporaries(process, tmp_path, int(jobs))
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stderr
    assert b"Traceback" not in stderr
    assert not _temporaries(tmp_path)
    for path, original in originals.items():
        assert path.read_bytes() == original


def test_stale_temporary_files_are_swept_and_never_taken_as_inputs(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.log").write_text(f"CPF {CPF}\n", encoding="utf-8")
    content = f"parcial CPF {CPF}\n"
    dead = folder / f".a.log.{DEAD_PID}.0123abcd.redactor"  # its process is gone
    alive = folder / f".a.log.{os.getpid()}.89abcdef.redactor"  # this process: kept
    old_legacy = folder / ".a.log.k3j_x9a0.redactor"  # an earlier version's, a day old
    fresh_legacy = folder / ".a.log.q8w7e6r5.redactor"
    user_file = folder / "notes.redactor"
    for path in (dead, alive, old_legacy, fresh_legacy, user_file):
        path.write_text(content, encoding="utf-8")
    day_ago = time.time() - batch.STALE_SECONDS - 60
    os.utime(old_legacy, (day_ago, day_ago))

    done = cli("redact", "--in-place", str(folder))
    assert done.returncode == 0, done.stderr
    assert b"removed 2 stale temporary file(s)" in done.stderr
    assert not dead.exists() and not old_legacy.exists()
    for kept in (alive, fresh_legacy):
        assert kept.read_text(encoding="utf-8") == content  # not redacted as an input
    assert (folder / "a.log").read_text(encoding="utf-8") == "CPF [CPF]\n"
    # A name that only ends like one is a user's file: redacted, never swept.
    assert user_file.read_text(encoding="utf-8") == "parcial CPF [CPF]\n"


def test_jsonl_keys_huge_unique_deep_or_many_are_answered(engine: Redactor) -> None:
    """The clean-line test reads each line's keys: huge unique keys are not remembered,
    more keys than it reads send the line to full redaction, deep nesting is walked
    without recursion; each line keeps its meaning and the output stays JSON Lines."""
    from redactor.engine.analysis import LIFTED_CACHE_MAX_CHARS, LIFTED_CACHE_SIZE

    deep: object = {"fim": "ok"}
    for level in range(900):
        deep = {f"n{level}": deep}
    lines = [json.dumps({f"k{i}" + "x" * 4000: "valor"}) for i in range(50)]
    lines.append(json.dumps({f"campo{i}": i for i in range(batch.MAX_KEYS_READ + 5)}))
    lines.append(json.dumps(deep))
    lines.append(json.dumps({"a": [{"senha_db": "hunter7senha"}], "b": float("nan")}))
    text = "\n".join(lines) + "\n"
    before = len(engine._lifted_cache)
    target = io.BytesIO()
    report = batch.FileReport("keys.jsonl")
    batch.redact_stream(engine, io.BytesIO(text.encode()), target, "jsonl", report)
    out = target.getvalue().decode().splitlines()
    # The deep line (more keys than read, deeper than the JSON walk) is read as text.
    assert len(out) == len(lines) and out[:-1] == lines[:-1] and report.error is None
    assert report.malformed_lines == 1
    assert json.loads(out[-1].replace("NaN", "null"))["a"] == [{"senha_db": "[SECRET]"}]
    assert all(sum(map(len, k)) <= LIFTED_CACHE_MAX_CHARS for k in engine._lifted_cache)
    # Numbers are analysed under their keys now (issue 29): the 900 keys holding one are
    # remembered, within the cache's bound; the huge ones are not (above).
    assert before <= len(engine._lifted_cache) <= LIFTED_CACHE_SIZE


@pytest.mark.parametrize("name", ["app.log", "app.log.gz"])
def test_in_place_on_a_log_still_being_written_loses_no_line(
        engine: Redactor, tmp_path: Path, name: str) -> None:
    """Issue 29, item 8: lines appended while --in-place read the file were lost when the
    redacted copy was renamed over it, with exit 0.  The file is now left as it is, the
    appended lines with it, and the file is reported as failed (exit 3)."""
    log = tmp_path / name
    body = "".join(f"linha {i} CPF {CPF}\n" for i in range(20_000)).encode()
    log.write_bytes(gzip.compress(body) if name.endswith(".gz") else body)
    appended = b"linha nova depois da leitura\n"

    written: list[int] = []

    def writer_appends(_: int) -> None:
        if not written:  # another process appends one line while the file is read
            written.append(1)
            with log.open("ab") as out:
                out.write(gzip.compress(appended) if name.endswith(".gz") else appended)

    report = batch.process_file(engine, log, None, "text", on_block=writer_appends)
    assert report.error is not None and "changed while being redacted" in report.error
    assert CPF not in report.error and not report.counts
    data = log.read_bytes()
    text = gzip.decompress(data) if name.endswith(".gz") else data
    assert text == body + appended  # nothing lost, nothing half-written
    assert not [p for p in tmp_path.iterdir() if p.name != name]  # no temporary left


def test_in_place_on_a_quiet_log_still_rewrites_it(engine: Redactor, tmp_path: Path) -> None:
    log = tmp_path / "quiet.log"
    log.write_text(f"cliente CPF {CPF}\n", encoding="utf-8")
    report = batch.process_file(engine, log, None, "text")
    assert report.error is None and log.read_text(encoding="utf-8") == "cliente CPF [CPF]\n"


def test_the_cli_reports_a_log_written_during_the_run_as_failed(tmp_path: Path) -> None:
    log = tmp_path / "growing.log"
    log.write_text("".join(f"linha {i} CPF {CPF}\n" for i in range(200_000)), encoding="utf-8")
    script = (
        "import sys, threading, time\n"
        "from pathlib import Path\n"
        "from redactor import batch\n"
        "real = batch.redact_stream\n"
        "def slow(*a, **k):\n"
        "    real(*a, **k)\n"
        "    with open(sys.argv[1], 'ab') as out: out.write(b'linha nova\\n')\n"
        "batch.redact_stream = slow\n"
        "from redactor.cli import main\n"
        "sys.exit(main(['redact', '--in-place', sys.argv[1]]))\n")
    done = subprocess.run([sys.executable, "-c", script, str(log)], capture_output=True,
                          timeout=300, check=False)
    assert done.returncode == 3, done.stderr
    assert b"changed while being redacted" in done.stderr and CPF.encode() not in done.stderr
    assert log.read_bytes().endswith(b"linha nova\n") and CPF.encode() in log.read_bytes()


def test_a_json_document_of_too_many_values_is_refused_before_it_is_parsed(
        tmp_path: Path) -> None:
    """Issue 29, item 9: a 61 KB .json.gz of [{},{},...] (60 MiB unpacked) reached 3.3 GB
    of memory; memory grows with values, not bytes, so values are bounded too."""
    bomb = tmp_path / "bomb.json.gz"
    with gzip.open(bomb, "wb") as packed:
        packed.write(b"[" + b"{}," * 20_000_000 + b"{}]")
    assert bomb.stat().st_size < 200_000
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "redactor", "redact", str(bomb), "--output",
                           str(out)], capture_output=True, timeout=600, check=False)
    assert done.returncode == 3, done.stderr
    assert b"--max-json-values" in done.stderr and b"Traceback" not in done.stderr
    assert not (out / "bomb.json.gz").exists()
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"clientes": [{"cpf": CPF}, {"cpf": CPF}]}), encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "redactor", "scan", str(small),
                              "--max-json-values", "3"], capture_output=True, timeout=300,
                             check=False)
    assert refused.returncode == 3 and b"--max-json-values" in refused.stderr
    assert CPF.encode() not in refused.stderr
    allowed = subprocess.run([sys.executable, "-m", "redactor", "scan", str(small)],
                             capture_output=True, timeout=300, check=False)
    assert allowed.returncode == 1  # found, and counted


# ------------------------------------------------------------------ 4: odd file names

def test_odd_names_are_redacted_cut_to_the_name_limit_and_never_printed(
        tmp_path: Path) -> None:
    """Issue 29, item 4, hostile names: bytes that are not UTF-8, names the placeholder
    makes longer than 255 bytes (and two of them that collide), a name that is only a CPF,
    dotfiles."""
    src, out, report = tmp_path / "src", tmp_path / "out", tmp_path / "report.json"
    src.mkdir()
    pad = "é" * 114  # two bytes each: each name below is 254 bytes
    names = {os.fsdecode(b"rel\xff\xfe-52998224725.log"): b"rel\xff\xfe-_CPF_.log",
             # Names that become alike take -2... in the order of the original names.
             "52998224725": b"_CPF_", ".11144477735": b"._CPF_", ".52998224725": b"._CPF_-2",
             f"nascimento 01-02-1990 {pad}.txt":
                 f"nascimento _DATA_NASCIMENTO_ {'é' * 111}.txt".encode(),
             f"nascimento 03-04-1985 {pad}.txt":
                 f"nascimento _DATA_NASCIMENTO_ {'é' * 110}-2.txt".encode()}
    for index, name in enumerate(names):
        assert len(os.fsencode(name)) <= 254
        (src / name).write_bytes(f"{index} CPF {CPF}\n".encode())
    done = cli("redact", str(src), "--output", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    written = sorted(os.listdir(os.fsencode(out)))
    assert written == sorted(names.values())
    assert all(len(name) <= batch.NAME_MAX for name in written)
    for index, copy in enumerate(names.values()):
        assert (out / os.fsdecode(copy)).read_bytes() == f"{index} CPF [CPF]\n".encode()
    scan = cli("scan", str(src))
    assert scan.returncode == 1 and b"in its name: BR_CPF=1" in scan.stdout
    for output in (done.stdout, done.stderr, report.read_bytes(), scan.stdout, scan.stderr):
        _no_values(output)
        for value in (b"52998224725", b"11144477735", b"01-02-1990", b"03-04-1985"):
            assert value not in output
    assert not _temporaries(tmp_path)


def test_a_temporary_file_of_a_name_at_the_limit_fits(engine: Redactor, tmp_path: Path) -> None:
    """The temporary file ``.NAME.PID.RANDOM.redactor`` of a 255-byte name was longer
    than any file system takes: such a file could not be written at all."""
    longest = tmp_path / ("a" * 251 + ".log")  # 255 bytes
    longest.write_text(f"CPF {CPF}\n", encoding="utf-8")
    report = batch.process_file(engine, longest, None, "text")
    assert report.error is None
    assert longest.read_text(encoding="utf-8") == "CPF [CPF]\n"

"""The redactor command as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "sap-system.log"
# Values planted in the example log (synthetic, generated from the algorithms).
PLANTED = ["39825979194", "66697251027385", "907.483.378-06", "46.468.695/8969-33",
           "RS.HE4.4FW/E0JB-13", "87623286030", "carla.menezes@exemplo.com.br", "MSOUZA",
           "RALMEIDA", "tnogueira", "LFERREIRA", "11987654320", "10.20.30.40"]


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "redactor", *args], input=stdin,
                          capture_output=True, cwd=cwd or REPO, env=env or dict(os.environ),
                          timeout=120, check=False)


def test_redact_example_file() -> None:
    done = run("redact", str(EXAMPLE))
    assert done.returncode == 0
    out = done.stdout.decode()
    for value in PLANTED:
        assert value in EXAMPLE.read_text(encoding="utf-8")
        assert value not in out
        assert value not in done.stderr.decode()
    assert "User DDIC logged on" in out and "USER=root" in out  # service accounts stay
    assert out.count("\n") == EXAMPLE.read_text(encoding="utf-8").count("\n")
    assert "BR_CPF: 3" in done.stderr.decode()


def test_stdin_to_stdout_and_invalid_utf8_passes_through() -> None:
    data = b"cpf 529.982.247-25 \xff\xfe bytes\n"
    done = run("redact", "-q", stdin=data)
    assert done.returncode == 0
    assert done.stdout == b"cpf [CPF] \xff\xfe bytes\n"
    assert done.stderr == b""


def test_missing_file_is_reported_and_others_still_processed(tmp_path: Path) -> None:
    good = tmp_path / "ok.log"
    good.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    done = run("redact", str(tmp_path / "missing.log"), str(good))
    assert done.returncode == 3
    assert done.stdout == b"cpf [CPF]\n"
    assert b"missing.log" in done.stderr and b"cannot be read" in done.stderr


def test_broken_config_is_exit_2_naming_file(tmp_path: Path) -> None:
    (tmp_path / ".redactor.toml").write_text("[detection]\nscore_treshold = 0.2\n",
                                             encoding="utf-8")
    done = run("redact", stdin=b"cpf 529.982.247-25\n", cwd=tmp_path,
               env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert done.stdout == b""
    assert b".redactor.toml" in done.stderr and b"score_threshold" in done.stderr


def test_empty_inputs_need_no_engine_but_a_broken_config_is_still_an_error(
        tmp_path: Path) -> None:
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    # In one process: the run leaves Presidio unimported (start-up without its ~1 s).
    probe = ("import sys; from redactor.cli import main; "
             f"code = main(['redact', '-q', '--output', {str(tmp_path / 'out')!r}, "
             f"{str(empty)!r}]); "
             "print(code, 'presidio_analyzer' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120,
                          check=False, cwd=REPO)
    assert done.stdout.split() == [b"0", b"False"], done.stderr
    assert (tmp_path / "out" / "empty.log").read_bytes() == b""
    # The configuration is read before any input, empty or not.
    (tmp_path / ".redactor.toml").write_text("[detection]\nscore_treshold = 0.2\n",
                                             encoding="utf-8")
    for args, stdin in (((str(empty),), None), ((), b"")):
        done = run("redact", *args, stdin=stdin, cwd=tmp_path,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode == 2 and b"score_threshold" in done.stderr
    # So are the engine's checks that need no Presidio: a hash operator needs its key.
    (tmp_path / ".redactor.toml").write_text('[operators.BR_CPF]\ntype = "hash"\n',
                                             encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k != "REDACTOR_HASH_KEY"}
    done = run("redact", str(empty), cwd=tmp_path, env={**environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and b"REDACTOR_HASH_KEY" in done.stderr


def test_an_engine_that_cannot_be_built_stops_the_run(tmp_path: Path) -> None:
    """A build failure on the first block is no failure of one input: the run stops."""
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    second.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    probe = ("import sys\n"
             "import redactor.engine\n"
             "def broken(settings):\n"
             "    raise RuntimeError('no analyzer')\n"
             "redactor.engine._build_analyzer = broken\n"
             "from redactor.cli import main\n"
             f"sys.exit(main(['redact', '-q', '--output', {str(tmp_path / 'out')!r}, "
             f"{str(first)!r}, {str(second)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120,
                          check=False, cwd=REPO)
    assert done.returncode == 70, done.stderr
    assert b"cannot build the engine (RuntimeError)" in done.stderr
    assert b"Traceback" not in done.stderr
    assert not (tmp_path / "out" / "b.log").exists()


def test_usage_error_is_exit_2() -> None:
    done = run("frobnicate")
    assert done.returncode == 2
    assert b"invalid choice" in done.stderr


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.startswith(b"redactor ")


def test_scan_baseline_accepts_known_fixtures_by_hash_only(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "cliente.txt").write_text("Cliente: João Carlos da Silva, CPF 529.982.247-25\n",
                                          encoding="utf-8")
    baseline = tmp_path / ".redactor-baseline.json"
    assert run("scan", str(fixtures)).returncode == 1
    written = run("scan", "--write-baseline", str(baseline), str(fixtures))
    assert written.returncode == 0, written.stderr
    content = baseline.read_text(encoding="utf-8")
    # (Not a fragment such as "529": the key and digests are random hexadecimal.)
    for value in ("João", "Silva", "529.982.247-25", "52998224725"):
        assert value not in content
    # The known fixtures pass; a new name or CPF is still found.
    clean = run("scan", "--baseline", str(baseline), str(fixtures))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    (fixtures / "novo.txt").write_text("Cliente: Maria Souza\n", encoding="utf-8")
    found = run("scan", "--baseline", str(baseline), str(fixtures))
    assert found.returncode == 1
    assert b"novo.txt: PERSON=1" in found.stdout and b"cliente.txt" not in found.stdout
    # Rewriting keeps the key, so unchanged fixtures keep their digests.
    key = json_key(baseline)
    assert run("scan", "--write-baseline", str(baseline), str(fixtures)).returncode == 0
    assert json_key(baseline) == key


def json_key(path: Path) -> str:
    import json

    return str(json.loads(path.read_text(encoding="utf-8"))["key"])


def test_a_broken_baseline_is_a_loud_error(tmp_path: Path) -> None:
    broken = tmp_path / "b.json"
    for content in ("{", '{"version": 1}', '{"version": 1, "key": "zz", "accepted": []}',
                    "[" * 100_000 + "]" * 100_000, '{"version": 1, "key": NaN, "accepted": []}',
                    '{"version": 1, "key": "' + "ab" * 32 + '", "accepted": ["João"]}'):
        broken.write_text(content, encoding="utf-8")
        done = run("scan", "--baseline", str(broken), str(EXAMPLE))
        assert done.returncode == 2, content
        assert b"Traceback" not in done.stderr
        assert "João".encode() not in done.stderr
    missing = run("scan", "--baseline", str(tmp_path / "none.json"), str(EXAMPLE))
    assert missing.returncode == 2


def test_an_unwritable_baseline_fails_before_the_scan(tmp_path: Path) -> None:
    done = run("scan", "--write-baseline", str(tmp_path / "missing" / "b.json"), str(EXAMPLE))
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr


def test_a_baseline_applies_to_its_scan_only(tmp_path: Path) -> None:
    from redactor import batch, cli
    from redactor.api import get_redactor

    fixture = tmp_path / "f.txt"
    fixture.write_text("Cliente: Ana Souza\n", encoding="utf-8")
    baseline = tmp_path / "b.json"
    assert cli.main(["scan", "-q", "--write-baseline", str(baseline), str(fixture)]) == 0
    assert cli.main(["scan", "-q", "--baseline", str(baseline), str(fixture)]) == 0
    # The shared engine redacts as before: the baseline left with its scan.
    assert get_redactor().baseline is None
    assert "Ana Souza" not in get_redactor().redact("Cliente: Ana Souza").text
    assert batch.Options().baseline is None

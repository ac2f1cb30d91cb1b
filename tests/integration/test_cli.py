"""The redactor command as a user runs it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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


def test_a_report_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    good = tmp_path / "ok.log"
    good.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    done = run("redact", str(good), "--output", str(tmp_path / "out"),
               "--report", str(tmp_path / "no-such-folder" / "report.json"))
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert b"cannot write the --report file" in done.stderr
    assert (tmp_path / "out" / "ok.log").read_text(encoding="utf-8") == "cpf [CPF]\n"


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
    # In one process: the run leaves Presidio unimported (start-up without its ~1 s).  A
    # file's name is read by the engine (issue 29, item 4), so the probe reads stdin.
    probe = ("import sys; from redactor.cli import main; code = main(['redact', '-q']); "
             "print(code, 'presidio_analyzer' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=120,
                          check=False, cwd=REPO, input=b"")
    assert done.stderr.split() == [b"0", b"False"], done.stderr
    assert done.stdout == b""
    written = run("redact", "-q", "--output", str(tmp_path / "out"), str(empty))
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "out" / "empty.log").read_bytes() == b""
    # The configuration is read before any input, empty or not.
    (tmp_path / ".redactor.toml").write_text("[detection]\nscore_treshold = 0.2\n",
                                             encoding="utf-8")
    for args, stdin in (((str(empty),), None), ((), b"")):
        done = run("redact", *args, stdin=stdin, cwd=tmp_path,
                   env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode == 2 and b"score_threshold" in done.stderr
    # So are the engine's checks that need no Presidio: a hash operator's key is checked.
    (tmp_path / ".redactor.toml").write_text('[operators.BR_CPF]\ntype = "hash"\n',
                                             encoding="utf-8")
    environ = {**os.environ, "REDACTOR_HASH_KEY": "too-short"}
    done = run("redact", str(empty), cwd=tmp_path, env={**environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2 and b"REDACTOR_HASH_KEY" in done.stderr
    assert b"shorter than 16 bytes" in done.stderr and b"too-short" not in done.stderr


def test_an_engine_that_cannot_be_built_stops_the_run(tmp_path: Path) -> None:
    """A build failure on the first block is no failure of one input: the run stops."""
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    second.write_text("cpf 529.982.247-25\n", encoding="utf-8")
    probe = ("import sys\n"
             "import redactor.engine.build\n"
             "def broken(settings):\n"
             "    raise RuntimeError('no analyzer')\n"
             "redactor.engine.build.build_analyzer = broken\n"
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


def baseline_env(home: Path, key: str | None = None) -> dict[str, str]:
    """The environment of a user whose home is ``home`` (never the developer's own), with
    the team key ``key`` in REDACTOR_BASELINE_KEY or none."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env.pop("REDACTOR_BASELINE_KEY", None)
    if key is not None:
        env["REDACTOR_BASELINE_KEY"] = key
    return env


# Synthetic team keys (random-looking text, as a CI secret would be).
TEAM_KEY = "9f2c7d41e08b4a6fb3d5c1e7a2960f84"
OTHER_KEY = "team-key-of-another-repository-0001"
CPF = "529.982.247-25"


def cpf_fixtures(tmp_path: Path) -> Path:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "cpf.txt").write_text(f"CPF {CPF}\n", encoding="utf-8")
    return fixtures


def test_scan_baseline_accepts_known_fixtures_by_hash_only(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "cliente.txt").write_text("Cliente: João Carlos da Silva, CPF 529.982.247-25\n",
                                          encoding="utf-8")
    baseline = tmp_path / ".redactor-baseline.json"
    env = baseline_env(tmp_path / "home")
    assert run("scan", str(fixtures), env=env).returncode == 1
    written = run("scan", "--write-baseline", str(baseline), str(fixtures), env=env)
    assert written.returncode == 0, written.stderr
    content = baseline.read_text(encoding="utf-8")
    # (Not a fragment such as "529": the key id, salt and digests are random hexadecimal.)
    for value in ("João", "Silva", "529.982.247-25", "52998224725"):
        assert value not in content
    # The known fixtures pass; a new name or CPF is still found.
    clean = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    (fixtures / "novo.txt").write_text("Cliente: Maria Souza\n", encoding="utf-8")
    found = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert found.returncode == 1
    assert b"novo.txt: PERSON=1" in found.stdout and b"cliente.txt" not in found.stdout
    # Rewriting keeps the key and the salt, so unchanged fixtures keep their digests.
    before = json_file(baseline)
    assert run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=env).returncode == 0
    after = json_file(baseline)
    assert after["key_id"] == before["key_id"] and after["salt"] == before["salt"]
    assert set(before["accepted"]) < set(after["accepted"])


def json_file(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_a_baseline_holds_no_key_its_digests_can_be_checked_with(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    done = run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "home", TEAM_KEY))
    assert done.returncode == 0, done.stderr
    content = baseline.read_text(encoding="utf-8")
    data = json_file(baseline)
    assert set(data) == {"version", "key_id", "salt", "accepted"} and data["version"] == 2
    assert len(data["accepted"]) == 1
    from redactor.baseline import derive_key

    key = derive_key(TEAM_KEY.encode())
    outputs = content.encode() + done.stdout + done.stderr
    for secret in (TEAM_KEY, key.hex()):
        assert secret.encode() not in outputs
    assert CPF.encode() not in outputs
    # No value in the file, taken as the key, reproduces the accepted digest (a version 1
    # file's "key" did): guessing the CPF needs the team key.
    salt = bytes.fromhex(data["salt"])
    for candidate in (data["key_id"], data["salt"]):
        for message in (f"BR_CPF\x00{CPF}".encode(), salt + f"BR_CPF\x00{CPF}".encode()):
            digest = hmac.new(bytes.fromhex(candidate), message, hashlib.sha256).hexdigest()
            assert digest[:32] not in data["accepted"]
    # With the team key, the digest is the CPF's: the key is a secret like any CI secret.
    assert hmac.new(key, salt + f"BR_CPF\x00{CPF}".encode(),
                    hashlib.sha256).hexdigest()[:32] in data["accepted"]


def test_a_baseline_is_refused_under_another_key(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    assert run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "home", TEAM_KEY)).returncode == 0
    done = run("scan", "--baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "home", OTHER_KEY))
    assert done.returncode == 2
    err = done.stderr.decode()
    assert f"baseline {baseline}: recorded under key id" in err
    assert "REDACTOR_BASELINE_KEY" in err and "--write-baseline" in err
    assert "Traceback" not in err and done.stdout == b""
    for value in (CPF, "52998224725", TEAM_KEY, OTHER_KEY):
        assert value not in err
    # Re-recording under the other key is the fix, and says what it changed.
    again = run("scan", "--write-baseline", str(baseline), str(fixtures),
                env=baseline_env(tmp_path / "home", OTHER_KEY))
    assert again.returncode == 0
    assert b"was recorded under key id" in again.stderr and b"need the new key" in again.stderr
    assert run("scan", "--baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "home", OTHER_KEY)).returncode == 0


def test_no_repr_shows_the_baseline_key(tmp_path: Path) -> None:
    from redactor.baseline import new_baseline, read_baseline, recording_key, write_baseline

    env = baseline_env(tmp_path, TEAM_KEY)
    key = recording_key(env)
    path = tmp_path / "b.json"
    recording = new_baseline(path, key)
    recording.keeps("BR_CPF", CPF)
    write_baseline(path, recording)
    for shown in (repr(key), repr(recording), repr(read_baseline(path, env))):
        assert key.key.hex() not in shown and repr(key.key) not in shown
        assert TEAM_KEY not in shown and CPF not in shown


def test_the_team_key_carries_a_baseline_to_another_home(tmp_path: Path) -> None:
    # A developer records; the CI, in another home with the same secret, accepts.
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    assert run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "dev", TEAM_KEY)).returncode == 0
    ci = baseline_env(tmp_path / "ci", TEAM_KEY + "\n")  # a secret pasted with its newline
    clean = run("scan", "--baseline", str(baseline), str(fixtures), env=ci)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert b"warning" not in clean.stderr
    (fixtures / "novo.txt").write_text("CPF 111.444.777-35\n", encoding="utf-8")
    found = run("scan", "--baseline", str(baseline), str(fixtures), env=ci)
    assert found.returncode == 1
    assert found.stdout == f"{fixtures / 'novo.txt'}: BR_CPF=1\n".encode()
    assert not (tmp_path / "ci" / ".config").exists()  # reading never makes a key file
    # Without the key the file is a loud error naming it, not a scan that accepts nothing.
    keyless = run("scan", "--baseline", str(baseline), str(fixtures),
                  env=baseline_env(tmp_path / "ci"))
    assert keyless.returncode == 2
    assert f"baseline {baseline}" in keyless.stderr.decode()
    assert b"no baseline key is set" in keyless.stderr and b"Traceback" not in keyless.stderr


def test_the_user_key_file_is_created_private_and_reused(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    home = tmp_path / "home"
    env = baseline_env(home)
    first = run("scan", "--write-baseline", str(baseline), str(fixtures), env=env)
    assert first.returncode == 0, first.stderr
    key_file = home / ".config" / "redactor" / "baseline.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    secret = key_file.read_text(encoding="ascii")
    assert re.fullmatch(r"[0-9a-f]{64}\n", secret)
    assert b"created the baseline key file" in first.stderr
    recorded = json_file(baseline)
    second = run("scan", "--write-baseline", str(baseline), str(fixtures), env=env)
    assert second.returncode == 0 and b"created" not in second.stderr
    assert key_file.read_text(encoding="ascii") == secret
    assert json_file(baseline) == recorded
    assert run("scan", "--baseline", str(baseline), str(fixtures), env=env).returncode == 0
    for output in (baseline.read_bytes(), first.stdout, first.stderr, second.stderr):
        assert secret.strip().encode() not in output
    # The key file's text is the team key: the same text in the variable reads the file.
    ci = baseline_env(tmp_path / "ci", secret.strip())
    assert run("scan", "--baseline", str(baseline), str(fixtures), env=ci).returncode == 0


def test_a_key_file_open_to_others_a_link_or_short_is_refused(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    home = tmp_path / "home"
    env = baseline_env(home)
    assert run("scan", "--write-baseline", str(baseline), str(fixtures), env=env).returncode == 0
    key_file = home / ".config" / "redactor" / "baseline.key"
    secret = key_file.read_text(encoding="ascii")
    key_file.chmod(0o644)
    for args in (("--baseline",), ("--write-baseline",)):
        done = run("scan", *args, str(baseline), str(fixtures), env=env)
        assert done.returncode == 2
        assert b"open to group or others (mode 644); run chmod 600" in done.stderr
        assert secret.strip().encode() not in done.stderr and b"Traceback" not in done.stderr
    elsewhere = tmp_path / "elsewhere.key"
    key_file.rename(elsewhere)
    elsewhere.chmod(0o600)
    key_file.symlink_to(elsewhere)
    done = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert done.returncode == 2 and b"is a symbolic link" in done.stderr
    key_file.unlink()
    key_file.write_text("short\n", encoding="ascii")
    key_file.chmod(0o600)
    done = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert done.returncode == 2 and b"shorter than 16 characters" in done.stderr
    assert b"short\n" not in done.stderr


def test_a_key_file_of_another_user_is_refused(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor.baseline import baseline_key
    from redactor.errors import ConfigError

    env = baseline_env(tmp_path)
    key_file = tmp_path / ".config" / "redactor" / "baseline.key"
    key_file.parent.mkdir(parents=True)
    key_file.write_text("a" * 64 + "\n", encoding="ascii")
    key_file.chmod(0o600)
    assert baseline_key(env) is not None
    owner = key_file.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    with pytest.raises(ConfigError, match="belongs to another user"):
        baseline_key(env)


def test_a_short_or_empty_team_key_is_refused(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    assert run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=baseline_env(tmp_path / "ci", TEAM_KEY)).returncode == 0
    recorded = baseline.read_bytes()
    for key in ("tooShortKey9", "", "   \n"):
        env = baseline_env(tmp_path / "home", key)
        for args in (("--write-baseline", str(baseline)), ("--baseline", str(baseline))):
            done = run("scan", *args, str(fixtures), env=env)
            assert done.returncode == 2, (key, args)
            assert done.stderr.startswith(b"redactor: REDACTOR_BASELINE_KEY: the baseline "
                                          b"key is shorter than 16 characters")
            assert b"tooShortKey9" not in done.stderr
    # Refused, never replaced by a key file: nothing was written anywhere.
    assert baseline.read_bytes() == recorded and not (tmp_path / "home").exists()


def test_a_version_1_baseline_is_honoured_with_a_warning(tmp_path: Path) -> None:
    fixtures = cpf_fixtures(tmp_path)
    baseline = tmp_path / "b.json"
    # A file as version 1 wrote it: its key inside, digests of entity NUL value.
    key = bytes(range(32))
    digest = hmac.new(key, f"BR_CPF\x00{CPF}".encode(), hashlib.sha256).hexdigest()[:32]
    baseline.write_text(json.dumps({"version": 1, "key": key.hex(), "accepted": [digest]}),
                        encoding="utf-8")
    env = baseline_env(tmp_path / "home", TEAM_KEY)
    # Once a team key is set, a file carrying its own key is refused: whoever wrote it
    # chose what it accepts.
    refused = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert refused.returncode == 2 and b"is not read while REDACTOR_BASELINE_KEY" in \
        refused.stderr
    assert key.hex() not in refused.stderr.decode() and CPF not in refused.stderr.decode()
    done = run("scan", "--baseline", str(baseline), str(fixtures),
               env={k: v for k, v in env.items() if k != "REDACTOR_BASELINE_KEY"})
    assert done.returncode == 0, done.stdout + done.stderr
    warning = [line for line in done.stderr.decode().splitlines() if "warning" in line]
    assert len(warning) == 1
    assert f"baseline {baseline} holds its own HMAC key" in warning[0]
    assert f"--write-baseline {baseline}" in warning[0] and "REDACTOR_BASELINE_KEY" in warning[0]
    assert key.hex() not in done.stderr.decode() and CPF not in done.stderr.decode()
    # Migrating: re-recorded under the team key, version 2, no key, no warning.
    assert run("scan", "--write-baseline", str(baseline), str(fixtures),
               env=env).returncode == 0
    assert "key" not in json_file(baseline) and key.hex() not in baseline.read_text("utf-8")
    after = run("scan", "--baseline", str(baseline), str(fixtures), env=env)
    assert after.returncode == 0 and b"warning" not in after.stderr


def test_a_broken_baseline_is_a_loud_error(tmp_path: Path) -> None:
    broken = tmp_path / "b.json"
    env = baseline_env(tmp_path / "home", TEAM_KEY)
    for content in ("{", '{"version": 1}', '{"version": 1, "key": "zz", "accepted": []}',
                    "[" * 100_000 + "]" * 100_000, '{"version": 1, "key": NaN, "accepted": []}',
                    '{"version": 1, "key": "' + "ab" * 32 + '", "accepted": ["João"]}',
                    '{"version": true, "key": "' + "ab" * 32 + '", "accepted": []}',
                    '{"version": 2, "key_id": "' + "ab" * 8 + '", "salt": "' + "cd" * 16
                    + '", "key": "' + "ab" * 32 + '", "accepted": []}',
                    '{"version": 2, "key_id": "João", "salt": "' + "cd" * 16
                    + '", "accepted": []}',
                    '{"version": 2, "key_id": "' + "ab" * 8 + '", "accepted": []}',
                    '{"version": 3, "accepted": []}'):
        broken.write_text(content, encoding="utf-8")
        done = run("scan", "--baseline", str(broken), str(EXAMPLE), env=env)
        assert done.returncode == 2, content
        assert b"Traceback" not in done.stderr
        assert "João".encode() not in done.stderr
    missing = run("scan", "--baseline", str(tmp_path / "none.json"), str(EXAMPLE), env=env)
    assert missing.returncode == 2
    # Not a regular file: a FIFO would block a plain read, /dev/zero would fill memory.
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for odd in (fifo, Path("/dev/zero"), tmp_path):
        done = run("scan", "--baseline", str(odd), str(EXAMPLE), env=env)
        assert done.returncode == 2 and b"not a regular file" in done.stderr, odd


def test_an_unwritable_baseline_fails_before_the_scan(tmp_path: Path) -> None:
    done = run("scan", "--write-baseline", str(tmp_path / "missing" / "b.json"), str(EXAMPLE))
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr


def test_a_baseline_applies_to_its_scan_only(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from redactor import batch, cli
    from redactor.api import get_redactor

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    fixture = tmp_path / "f.txt"
    fixture.write_text("Cliente: Ana Souza\n", encoding="utf-8")
    baseline = tmp_path / "b.json"
    assert cli.main(["scan", "-q", "--write-baseline", str(baseline), str(fixture)]) == 0
    assert cli.main(["scan", "-q", "--baseline", str(baseline), str(fixture)]) == 0
    # The shared engine redacts as before: the baseline left with its scan.
    assert get_redactor().baseline is None
    assert "Ana Souza" not in get_redactor().redact("Cliente: Ana Souza").text
    assert batch.Options().baseline is None


def test_scan_counts_a_value_in_a_file_or_folder_name(tmp_path: Path) -> None:
    """Issue 29, item 4: a clean file named comprovante_<CPF>.txt passed a scan (exit 0),
    and its name was printed as it was."""
    import json
    import re

    cpf, other, cnpj = "52998224725", "11144477735", "11222333000181"
    fixtures = tmp_path / "fixtures"
    (fixtures / f"cliente-{cpf}").mkdir(parents=True)
    for name in ("a.txt", "b.txt"):  # the folder's name counts once, with a.txt
        (fixtures / f"cliente-{cpf}" / name).write_text("nada\n", encoding="utf-8")
    (fixtures / f"nf_{cnpj}.txt").write_text("nada\n", encoding="utf-8")
    (fixtures / "contato_joao.silva@example.com.log").write_text("nada\n", encoding="utf-8")
    clean = tmp_path / "relatorio-2026.txt"
    clean.write_text("nada\n", encoding="utf-8")
    assert run("scan", str(clean)).returncode == 0
    report = tmp_path / "report.json"
    for jobs in ("1", "2"):
        found = run("scan", "--jobs", jobs, str(fixtures), "--report", str(report))
        assert found.returncode == 1, found.stderr
        assert sorted(found.stdout.decode().splitlines()) == [
            f"{fixtures}/_USERNAME_@example.com.log: in its name: USERNAME=1",
            f"{fixtures}/cliente-_CPF_/a.txt: in its name: BR_CPF=1",
            f"{fixtures}/nf__CNPJ_.txt: in its name: BR_CNPJ=1"]
        assert b"3 found (BR_CNPJ: 1, BR_CPF: 1, USERNAME: 1)" in found.stderr
        data = json.loads(report.read_text(encoding="utf-8"))
        assert data["totals"] == {"BR_CNPJ": 1, "BR_CPF": 1, "USERNAME": 1}
        assert {f["path"]: f["name_counts"] for f in data["files"]}[
            f"{fixtures}/cliente-_CPF_/b.txt"] == {}
        for output in (found.stdout, found.stderr, report.read_bytes()):
            for value in (cpf, cnpj):
                assert re.search("[^0-9]?".join(value).encode(), output) is None
            assert b"joao.silva" not in output
    # A baseline accepts a value in a name like one in the content.
    baseline = tmp_path / "baseline.json"
    assert run("scan", "--write-baseline", str(baseline), str(fixtures)).returncode == 0
    assert cpf not in baseline.read_text(encoding="utf-8")
    assert run("scan", "--baseline", str(baseline), str(fixtures)).returncode == 0
    (fixtures / f"comprovante_{other}.pdf.txt").write_text("nada\n", encoding="utf-8")
    again = run("scan", "--baseline", str(baseline), str(fixtures))
    assert again.returncode == 1
    assert again.stdout == f"{fixtures}/comprovante__CPF_.pdf.txt: in its name: BR_CPF=1\n" \
        .encode()

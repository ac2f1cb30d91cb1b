"""``redactor redact --pseudonyms`` and ``redactor vault`` as a user runs them: the same
customer is the same token in every file, the values land in the vault (or nowhere with
--no-vault), the vault prints counts and never values, and one value only to a terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CPF, CPF_BARE = "529.982.247-25", "52998224725"
NAME = "Maria Aparecida Figueiredo"


def env_for(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(tmp_path / "home"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONPATH": str(REPO)}


def run(tmp_path: Path, *args: str, stdin: bytes | None = None
        ) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in env_for(tmp_path).items()
               if k not in ("REDACTOR_HASH_KEY", "REDACTOR_BASELINE_KEY")}
    return subprocess.run([sys.executable, "-m", "redactor", *args], input=stdin,
                          capture_output=True, cwd=tmp_path, env=environ, timeout=180,
                          check=False)


def vault_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "redactor" / "vault.db"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.log").write_text(f"pedido 1 cliente cpf {CPF} ok\nnome do cliente: {NAME}\n",
                                  encoding="utf-8")
    (folder / "b.log").write_text(f"estorno cpf={CPF_BARE} falhou\n", encoding="utf-8")
    return folder


def tokens_in(text: str) -> list[str]:
    return re.findall(r"\[[A-Z_]+:[0-9a-f]{16}\]", text)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_same_customer_is_one_token_across_files(tmp_path: Path, logs: Path,
                                                     jobs: str) -> None:
    out = tmp_path / "out"
    done = run(tmp_path, "redact", "-q", "--pseudonyms", "--jobs", jobs, "--output", str(out),
               str(logs))
    assert done.returncode == 0, done.stderr
    first = (out / "a.log").read_text(encoding="utf-8")
    second = (out / "b.log").read_text(encoding="utf-8")
    assert CPF not in first and CPF_BARE not in second and "Aparecida" not in first
    [cpf_token, name_token] = tokens_in(first)
    assert cpf_token.startswith("[CPF:") and name_token.startswith("[NOME:")
    assert tokens_in(second) == [cpf_token]
    # The vault holds them, encrypted: counts per type, never a value, in its output.
    stats = run(tmp_path, "vault", "stats")
    assert stats.returncode == 0, stats.stderr
    assert "BR_CPF\t1" in stats.stdout.decode() and "PERSON\t1" in stats.stdout.decode()
    for value in (CPF, CPF_BARE, "Aparecida"):
        assert value.encode() not in stats.stdout + stats.stderr
        for path in vault_file(tmp_path).parent.iterdir():
            assert value.encode() not in path.read_bytes()
    assert (vault_file(tmp_path).stat().st_mode & 0o777) == 0o600


def test_no_vault_writes_tokens_only(tmp_path: Path, logs: Path) -> None:
    done = run(tmp_path, "redact", "-q", "--pseudonyms", "--no-vault",
               str(logs / "a.log"))
    assert done.returncode == 0, done.stderr
    assert len(tokens_in(done.stdout.decode())) == 2
    assert not vault_file(tmp_path).exists()
    # Without pseudonyms, --no-vault means nothing: an error, not a silent no-op.
    bare = run(tmp_path, "redact", "--no-vault", str(logs / "a.log"))
    assert bare.returncode == 2 and b"--pseudonyms" in bare.stderr


def test_stdin_with_pseudonyms_fills_the_vault(tmp_path: Path) -> None:
    done = run(tmp_path, "redact", "-q", "--pseudonyms", stdin=f"cpf {CPF}\n".encode())
    assert done.returncode == 0, done.stderr
    assert len(tokens_in(done.stdout.decode())) == 1
    assert "BR_CPF\t1" in run(tmp_path, "vault", "stats").stdout.decode()


def show_in_terminal(tmp_path: Path, token: str) -> tuple[int, str]:
    """``redactor vault show`` with a pseudo-terminal as stdin and stdout."""
    leader, follower = pty.openpty()
    environ = {k: v for k, v in env_for(tmp_path).items()
               if k not in ("REDACTOR_HASH_KEY", "REDACTOR_BASELINE_KEY")}
    process = subprocess.Popen([sys.executable, "-m", "redactor", "vault", "show", token],
                               stdin=follower, stdout=follower, stderr=follower, cwd=tmp_path,
                               env=environ)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def test_show_prints_a_value_to_a_terminal_only(tmp_path: Path, logs: Path) -> None:
    done = run(tmp_path, "redact", "-q", "--pseudonyms", str(logs / "a.log"))
    [cpf_token, name_token] = tokens_in(done.stdout.decode())
    piped = run(tmp_path, "vault", "show", cpf_token)
    assert piped.returncode == 2 and b"terminal" in piped.stderr
    assert CPF.encode() not in piped.stdout + piped.stderr
    code, shown = show_in_terminal(tmp_path, cpf_token)
    assert code == 0 and CPF in shown
    code, shown = show_in_terminal(tmp_path, name_token)
    assert code == 0 and NAME in shown
    # An altered token is not resolved to a near one.
    altered = cpf_token[:-2] + ("0" if cpf_token[-2] != "0" else "1") + "]"
    code, shown = show_in_terminal(tmp_path, altered)
    assert code == 3 and CPF not in shown
    code, shown = show_in_terminal(tmp_path, cpf_token.upper())
    assert code == 2 and CPF not in shown


def test_purge_removes_entries(tmp_path: Path, logs: Path) -> None:
    run(tmp_path, "redact", "-q", "--pseudonyms", str(logs / "a.log"))
    kept = run(tmp_path, "vault", "purge")  # nothing is older than the expiry yet
    assert kept.returncode == 0 and b"0 vault entries removed" in kept.stderr
    done = run(tmp_path, "vault", "purge", "--all")
    assert done.returncode == 0 and b"2 vault entries removed" in done.stderr
    assert "total\t0" in run(tmp_path, "vault", "stats").stdout.decode()


def test_a_loose_vault_is_refused_loudly(tmp_path: Path, logs: Path) -> None:
    run(tmp_path, "redact", "-q", "--pseudonyms", str(logs / "a.log"))
    os.chmod(vault_file(tmp_path), 0o644)
    done = run(tmp_path, "vault", "stats")
    assert done.returncode == 2 and b"chmod" in done.stderr
    again = run(tmp_path, "redact", "-q", "--pseudonyms", str(logs / "a.log"))
    assert again.returncode != 0 and b"chmod" in again.stderr
    assert CPF.encode() not in again.stderr


def test_spark_needs_no_vault(tmp_path: Path, logs: Path) -> None:
    done = run(tmp_path, "redact", "--pseudonyms", "--engine", "spark", "--output",
               str(tmp_path / "out"), str(logs))
    assert done.returncode == 2 and b"--no-vault" in done.stderr

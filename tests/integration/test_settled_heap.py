"""The command line freezes its warm heap after a first block (gc.freeze), so that the
collections findings trigger no longer walk the engine's objects; a library user's
process is left alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from redactor.batch import YOUNG_COLLECTION

ROOT = Path(__file__).parents[2]

_LIBRARY = """
import gc, io
young = gc.get_threshold()[0]
from redactor import batch
from redactor.engine import Redactor
engine = Redactor()
batch.redact_stream(engine, io.BytesIO(b"cpf 529.982.247-25\\n" * 50), io.BytesIO(), "text",
                    batch.FileReport("x"))
print(gc.get_freeze_count(), gc.get_threshold()[0] == young)
"""

_COMMAND = """
import gc, sys
from redactor.cli import main
code = main(["redact", "-q", sys.argv[1]])
print(gc.get_freeze_count(), gc.get_threshold()[0], code, file=sys.stderr)
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=True, cwd=ROOT, timeout=300)


def test_a_library_users_heap_is_not_frozen() -> None:
    assert _run(_LIBRARY).stdout.split() == ["0", "True"]


def test_the_command_line_freezes_its_heap_after_a_block(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_text("cliente cpf 529.982.247-25 ok\n" * 50, encoding="utf-8")
    done = _run(_COMMAND, str(log))
    frozen, young, code = done.stderr.split()[-3:]
    assert code == "0" and int(frozen) > 10_000
    # The youngest generation is collected less often (see settle_heap).
    assert int(young) == YOUNG_COLLECTION
    assert "529.982.247-25" not in done.stdout and "[CPF]" in done.stdout

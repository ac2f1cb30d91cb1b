"""Issue 30, item 9: what a missing module or agent CLI does to a test (skip, or fail under
tests/run.sh), and the markers each folder of tests/ gives its tests."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests import conftest, needs

REPO = Path(__file__).resolve().parents[2]
ABSENT = "redactor_test_no_such_module"


@pytest.fixture
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(needs.STRICT_ENV, raising=False)


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(needs.STRICT_ENV, "1")


def test_the_verdict() -> None:
    assert needs.verdict(True, strict=False) == "run"
    assert needs.verdict(True, strict=True) == "run"
    assert needs.verdict(False, strict=False) == "skip"
    assert needs.verdict(False, strict=True) == "fail"
    # What tests/run.sh cannot install here (hyperscan off x86-64) is skipped even then.
    assert needs.verdict(False, strict=True, installable=False) == "skip"


def test_strict_mode_is_read_from_the_environment() -> None:
    assert not needs.strict({})
    assert not needs.strict({needs.STRICT_ENV: ""})
    assert not needs.strict({needs.STRICT_ENV: "0"})
    assert needs.strict({needs.STRICT_ENV: "1"})


def test_tests_run_sh_turns_strict_mode_on() -> None:
    script = (REPO / "tests" / "run.sh").read_text(encoding="utf-8")
    assert f'export {needs.STRICT_ENV}="${{{needs.STRICT_ENV}:-1}}"' in script


@pytest.mark.usefixtures("lenient")
def test_a_missing_module_skips_saying_how_to_install_it() -> None:
    with pytest.raises(pytest.skip.Exception, match=f"{ABSENT} is not installed"):
        needs.require_module(ABSENT)
    needs.require_module("pytest")  # present: nothing happens


@pytest.mark.usefixtures("strict")
def test_a_missing_module_fails_in_strict_mode() -> None:
    with pytest.raises(pytest.fail.Exception, match=f"{ABSENT} is not installed, and "
                       f"{needs.STRICT_ENV}=1"):
        needs.require_module(ABSENT)
    needs.require_module("pytest")


@pytest.mark.usefixtures("strict")
def test_hyperscan_off_x86_is_skipped_even_in_strict_mode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(needs, "installed", lambda name: False)
    monkeypatch.setattr(needs.platform, "machine", lambda: "aarch64")
    with pytest.raises(pytest.skip.Exception, match="hyperscan is not installed"):
        needs.require_module("hyperscan")
    with pytest.raises(pytest.fail.Exception, match="re2 is not installed"):
        needs.require_module("re2")
    monkeypatch.setattr(needs.platform, "machine", lambda: "x86_64")
    with pytest.raises(pytest.fail.Exception, match="hyperscan is not installed"):
        needs.require_module("hyperscan")


def test_the_backends_a_comparison_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(needs, "installed", lambda name: name != "re2")
    monkeypatch.delenv(needs.STRICT_ENV, raising=False)
    assert needs.backends() == ["re", "hyperscan"]
    monkeypatch.setenv(needs.STRICT_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="re2 is not installed"):
        needs.backends()
    monkeypatch.setattr(needs, "installed", lambda name: True)
    assert needs.backends() == ["re", "hyperscan", "re2"]


@pytest.mark.parametrize("node", [True, False])
def test_a_missing_cli_skips_saying_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, node: bool) -> None:
    monkeypatch.delenv(needs.STRICT_ENV, raising=False)
    monkeypatch.setattr(needs.shutil, "which", lambda name: f"/usr/bin/{name}" if node else None)
    needs.require_npm_cli("the Codex CLI", True, "@openai/codex@0.171.0", ".cache/codex")
    with pytest.raises(pytest.skip.Exception) as skipped:
        needs.require_npm_cli("the Codex CLI", False, "@openai/codex@0.171.0", ".cache/codex")
    reason = str(skipped.value)
    assert "npm install --prefix .cache/codex @openai/codex@0.171.0" in reason
    assert "tests/run.sh" in reason
    assert ("node/npm are not installed" in reason) is not node
    monkeypatch.setenv(needs.STRICT_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="REDACTOR_TEST_STRICT=1"):
        needs.require_npm_cli("the Codex CLI", False, "@openai/codex@0.171.0", ".cache/codex")


class _Item:
    """What tests/conftest.py's pytest_runtest_setup reads of a test item."""

    def __init__(self, *marks: Any) -> None:
        self.marks = marks

    def iter_markers(self, name: str) -> Any:
        return (mark for mark in self.marks if mark.name == name)


@pytest.mark.usefixtures("lenient")
def test_the_needs_marker_skips_before_the_test_runs() -> None:
    conftest.pytest_runtest_setup(_Item(pytest.mark.needs("pytest").mark))  # type: ignore[arg-type]
    with pytest.raises(pytest.skip.Exception, match=ABSENT):
        conftest.pytest_runtest_setup(
            _Item(pytest.mark.needs("pytest", ABSENT).mark))  # type: ignore[arg-type]


def test_each_folder_gives_its_marker() -> None:
    tests = REPO / "tests"
    assert conftest.folder_mark(tests / "e2e" / "test_codex_cli.py") == "e2e"
    assert conftest.folder_mark(tests / "hooks" / "test_doctor.py") == "hooks"
    assert conftest.folder_mark(tests / "unit" / "test_needs.py") is None
    assert conftest.folder_mark(tests / "conftest.py") is None
    assert conftest.folder_mark(REPO / "benchmarks" / "run.py") is None


def test_the_markers_are_registered() -> None:
    with (REPO / "pyproject.toml").open("rb") as file:
        options = tomllib.load(file)["tool"]["pytest"]["ini_options"]
    registered = {line.split(":")[0].split("(")[0] for line in options["markers"]}
    assert {"slow", "e2e", "hooks", "needs"} <= registered
    assert "--strict-markers" in options["addopts"]


@pytest.mark.slow
def test_a_part_is_left_out_by_its_marker() -> None:
    files = ["tests/e2e/test_codex_cli.py", "tests/hooks/test_bounded_answer.py",
             "tests/unit/test_text.py"]

    def collected(expression: str) -> set[str]:
        done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                               "-p", "no:cacheprovider", "-m", expression, *files],
                              cwd=REPO, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}

    assert collected("e2e") == {files[0]}
    assert collected("hooks") == {files[1]}
    assert collected("not e2e and not hooks") == {files[2]}

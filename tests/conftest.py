"""Shared fixtures.  Every test runs without the developer's own configuration."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from redactor import Settings
from redactor.drills import SWITCH_TEXT, SWITCHES_ENV
from tests import needs

#: The marker each top-level folder of tests/ gives its tests, so that a part can be left
#: out (``pytest -m "not e2e"``) or run alone (``pytest -m hooks``).
FOLDER_MARKS = {"e2e": "e2e", "hooks": "hooks"}


def folder_mark(path: Path) -> str | None:
    """The marker of the tests in ``path`` (by its folder under tests/), if any."""
    try:
        folder = path.resolve().relative_to(Path(__file__).resolve().parent).parts[0]
    except (ValueError, IndexError):
        return None
    return FOLDER_MARKS.get(folder)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        mark = folder_mark(item.path)
        if mark is not None:
            item.add_marker(mark)


@pytest.hookimpl(tryfirst=True)  # before fixtures are set up, as skipif marks are
def pytest_runtest_setup(item: pytest.Item) -> None:
    """``@pytest.mark.needs("module", ...)``: skip without the modules, fail instead under
    REDACTOR_TEST_STRICT=1 (tests/needs.py)."""
    for mark in item.iter_markers("needs"):
        needs.require_modules(mark.args)


@pytest.fixture(scope="session", autouse=True)
def isolated_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point the user configuration (and redactor's log and cache) at empty folders and
    drop redactor's variables."""
    saved = dict(os.environ)
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg"))
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    for name in ("REDACTOR_CONFIG", "REDACTOR_HASH_KEY", "REDACTOR_TEST_FAULT",
                 "REDACTOR_TEST_DELAY", "REDACTOR_HOOK_TIMEOUT", "REDACTOR_BASELINE_KEY"):
        os.environ.pop(name, None)
    # The failure drills (REDACTOR_TEST_FAULT, REDACTOR_TEST_DELAY) are honoured only
    # while this names a switch file in a private folder (redactor.drills); every process
    # the tests start inherits it, so a test sets a drill variable and nothing else.
    # In a folder of its own with an unguessable name, removed when the run ends: pytest
    # keeps its temporary folders, and a switch file left at a known path would turn
    # the drills on for anyone who names it.
    folder = Path(tempfile.mkdtemp(prefix="redactor-drills-"))
    switch = folder / "switch"
    switch.write_bytes(SWITCH_TEXT)
    switch.chmod(0o600)
    os.environ[SWITCHES_ENV] = str(switch)
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def isolated_state(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A state folder per test: a session one test seals must not block another's prompt."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(scope="session")
def engine():  # type: ignore[no-untyped-def]
    """One engine with default settings, shared by the whole session (building costs ~1 s)."""
    from redactor.engine import Redactor

    return Redactor(Settings())


@pytest.fixture
def work_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary working directory (so no .redactor.toml from the repo applies)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def foreign_owner(monkeypatch: pytest.MonkeyPatch) -> Callable[..., int]:
    """``foreign_owner(path, ...)`` makes these paths look owned by another user to
    redactor's ownership checks, without root: ``posix.lstat`` (what
    ``redactor.serve.protocol.check_private`` asks) reports another uid for them, and the
    real refusal code runs on it.  Returns that uid."""
    import posix

    real_lstat = posix.lstat
    other = posix.getuid() + 1
    targets: set[str] = set()

    def lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        info = real_lstat(path, *args, **kwargs)
        if os.fsdecode(path) not in targets:
            return info
        fields = list(info[:10])
        fields[4] = other  # st_uid
        return os.stat_result(fields)

    def make_foreign(*paths: str | Path) -> int:
        targets.update(os.fspath(p) for p in paths)
        return other

    monkeypatch.setattr(posix, "lstat", lstat)
    return make_foreign

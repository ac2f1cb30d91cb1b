"""What some tests need beyond ``pip install -e '.[test]'``, and what happens without it.

A test whose module, backend or agent CLI is absent is skipped, with a reason that says
how to get it: ``pytest tests/`` from a fresh clone ends with passes and skips, never
with collection errors.  tests/run.sh (which CI runs) installs everything and sets
``REDACTOR_TEST_STRICT=1``: then anything missing that it should have installed fails
the test instead, so a broken install cannot hide behind a skip.

Tests say what they need with the ``needs`` marker (``@pytest.mark.needs("hyperscan")``,
checked by tests/conftest.py before the test runs) or by calling :func:`require_module`
or :func:`require_npm_cli` from a fixture.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import shutil
from collections.abc import Iterable, Mapping
from typing import Literal, NoReturn

import pytest

STRICT_ENV = "REDACTOR_TEST_STRICT"

#: The modules tests ask for by name, and how each is installed.  The fast backends come
#: with the test extra (hyperscan only where it is built: x86-64).
MODULES: dict[str, str] = {
    "hyperscan": "pip install -e '.[test]' installs it on x86-64",
    "re2": "pip install -e '.[test]' installs it (google-re2)",
    "hermes_cli": "pip install -e '.[test]' installs it (hermes-agent, pinned)",
}

#: The backends of the prefilter beyond Python's ``re``, in the order tests try them.
FAST_BACKENDS = ("hyperscan", "re2")


def strict(environ: Mapping[str, str] | None = None) -> bool:
    """Whether a missing requirement fails the test (``REDACTOR_TEST_STRICT`` set and
    not ``0``)."""
    value = (os.environ if environ is None else environ).get(STRICT_ENV, "").strip()
    return value not in ("", "0")


def verdict(present: bool, *, strict: bool, installable: bool = True
            ) -> Literal["run", "skip", "fail"]:
    """What becomes of a test given whether its requirement is present: it runs; else it
    fails under strict mode when the requirement is one tests/run.sh installs here, and
    is skipped otherwise."""
    if present:
        return "run"
    return "fail" if strict and installable else "skip"


def absent(what: str, how: str, *, installable: bool = True) -> NoReturn:
    """Skip the calling test because ``what`` is missing (fail it under strict mode)."""
    if verdict(False, strict=strict(), installable=installable) == "fail":
        pytest.fail(f"{what}, and {STRICT_ENV}=1 (tests/run.sh) requires it: {how}", pytrace=False)
    pytest.skip(f"{what}: {how}")


def module_installable(name: str) -> bool:
    """Whether tests/run.sh installs ``name`` on this machine."""
    if name == "hyperscan":
        return platform.machine() in ("x86_64", "AMD64")
    return True


def installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def require_module(name: str) -> None:
    """Skip (strict: fail) the calling test unless module ``name`` can be imported."""
    if not installed(name):
        absent(f"{name} is not installed", MODULES.get(name, f"install {name}"),
               installable=module_installable(name))


def require_modules(names: Iterable[str]) -> None:
    for name in names:
        require_module(name)


def backends() -> list[str]:
    """``re`` and the fast backends that are installed, for a test that compares them all.
    Under strict mode a fast backend that tests/run.sh installs here must be among them."""
    for name in FAST_BACKENDS:
        if not installed(name) and verdict(False, strict=strict(),
                                           installable=module_installable(name)) == "fail":
            absent(f"{name} is not installed", MODULES[name])
    return ["re", *(name for name in FAST_BACKENDS if installed(name))]


def require_npm_cli(what: str, present: bool, package: str, folder: str) -> None:
    """Skip (strict: fail) the calling test unless the agent CLI ``what`` is installed.

    ``package`` (``name@version``) is what tests/run.sh installs into ``folder``.
    """
    if present:
        return
    how = (f"run tests/run.sh, which installs it (npm install --prefix {folder} {package}); "
           "pytest -m 'not e2e' leaves the end-to-end tests out")
    if shutil.which("npm") is None or shutil.which("node") is None:
        absent(f"node/npm are not installed, so {what} cannot be installed",
               "install Node.js 20 or newer, then " + how)
    absent(f"{what} is not installed", how)


def backend_params() -> list[object]:
    """``re`` and the fast backends as parameters, each fast one marked ``needs``."""
    return ["re", *(pytest.param(name, marks=pytest.mark.needs(name)) for name in FAST_BACKENDS)]

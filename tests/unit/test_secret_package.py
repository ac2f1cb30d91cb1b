"""recognizers.secret as a package (issue 30, item 2): every kind declared once, in the
list settings check; the detectors report declared kinds only; only the recognizer
module imports Presidio, and the list of kinds loads no detector."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import recognizers.secret
from recognizers.secret import kinds
from recognizers.secret.kinds import Kind

PACKAGE = Path(recognizers.secret.__file__).parent
#: The one module of the package that may import Presidio.
PRESIDIO_MODULE = "recognizer"


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f"recognizers.secret.{info.name}")
            for info in pkgutil.iter_modules([str(PACKAGE)])]


def test_every_kind_is_declared_once_and_every_declared_kind_is_reported() -> None:
    names = [kind.name for kind in kinds.DECLARED]
    assert len(names) == len(set(names))
    assert tuple(sorted(names)) == kinds.KINDS
    assert recognizers.secret.KINDS is kinds.KINDS
    declared = {id(kind) for kind in kinds.DECLARED}
    used: set[int] = set()
    for module in _modules():
        if module is kinds:
            continue
        held = {id(v): v.name for v in vars(module).values() if isinstance(v, Kind)}
        # A kind made anywhere but kinds.py would be missing from the settings' list.
        assert {name for key, name in held.items() if key not in declared} == set(), module
        used |= held.keys()
    # ... and a declared kind no detector reports is a stale entry.
    assert {kind.name for kind in kinds.DECLARED if id(kind) not in used} == set()


def test_only_the_recognizer_module_imports_presidio() -> None:
    # The parent package is stubbed: its __init__ registers every recognizer (Presidio).
    code = f"""
import importlib, pkgutil, sys, types
parent = types.ModuleType("recognizers")
parent.__path__ = [{str(PACKAGE.parent)!r}]
sys.modules["recognizers"] = parent
import recognizers.secret.kinds
loaded = sorted(m for m in sys.modules if m.startswith("recognizers.secret."))
print(",".join(loaded))
names = [i.name for i in pkgutil.iter_modules([{str(PACKAGE)!r}])]
for name in names:
    if name != {PRESIDIO_MODULE!r}:
        importlib.import_module("recognizers.secret." + name)
import recognizers.secret as secret
found = secret.find_secrets("password=Xk9mP2vQ7wZ3rT5y")
print(len(names), len(found), "presidio_analyzer" in sys.modules)
secret.SecretRecognizer
print("presidio_analyzer" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded, modules, findings, before, after = done.stdout.split()
    # The list of kinds compiles no detector's patterns (redactor.config imports it).
    assert loaded.split(",") == ["recognizers.secret.common", "recognizers.secret.kinds"]
    assert int(modules) > 5 and int(findings) == 1
    # Nothing but the recognizer module loaded Presidio; asking for the recognizer does.
    assert (before, after) == ("False", "True")

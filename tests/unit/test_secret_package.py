"""recognizers.secret as a package (issue 30, item 2): every kind declared once beside its
detector and gathered in one list; only the recognizer module imports Presidio."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import recognizers.secret
from recognizers.secret import kinds
from recognizers.secret.common import Kind

PACKAGE = Path(recognizers.secret.__file__).parent
#: The one module of the package that may import Presidio.
PRESIDIO_MODULE = "recognizer"


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f"recognizers.secret.{info.name}")
            for info in pkgutil.iter_modules([str(PACKAGE)])]


def test_every_kind_is_declared_once_by_one_module_and_listed() -> None:
    declared_by: dict[str, list[str]] = {}
    found: dict[int, Kind] = {}
    for module in _modules():
        for kind in getattr(module, "DECLARED_KINDS", ()):
            declared_by.setdefault(kind.name, []).append(module.__name__)
        # Every Kind a module holds, its own or imported, must be declared somewhere.
        found.update({id(v): v for v in vars(module).values() if isinstance(v, Kind)})
    assert {name: where for name, where in declared_by.items() if len(where) > 1} == {}
    assert {kind.name for kind in found.values()} == set(declared_by)
    assert set(kinds.DECLARED) == set(found.values())
    assert tuple(sorted(declared_by)) == kinds.KINDS
    assert recognizers.secret.KINDS is kinds.KINDS


def test_only_the_recognizer_module_imports_presidio() -> None:
    # The parent package is stubbed: its __init__ registers every recognizer (Presidio).
    code = f"""
import importlib, pkgutil, sys, types
parent = types.ModuleType("recognizers")
parent.__path__ = [{str(PACKAGE.parent)!r}]
sys.modules["recognizers"] = parent
import recognizers.secret.kinds
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
    modules, findings, before, after = done.stdout.split()
    assert int(modules) > 5 and int(findings) == 1
    # Nothing but the recognizer module loaded Presidio; asking for the recognizer does.
    assert (before, after) == ("False", "True")

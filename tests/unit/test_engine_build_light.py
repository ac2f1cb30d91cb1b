"""redactor.engine.build stays light to import: what it needs of the recognizers at every
finding is written in it, and must stay what the recognizers write."""

from __future__ import annotations

import subprocess
import sys


def test_the_context_distance_key_is_the_recognizers_own() -> None:
    from recognizers import base
    from redactor.engine import build

    assert build.CONTEXT_DISTANCE_KEY == base.CONTEXT_DISTANCE_KEY


def test_importing_the_build_module_imports_no_presidio() -> None:
    code = ("import sys, redactor.engine.build; "
            "print(any(m.startswith(('presidio', 'recognizers.base')) for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "False"

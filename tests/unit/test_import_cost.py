"""``import redactor`` stays light: Presidio and spaCy load on first use only."""

from __future__ import annotations

import subprocess
import sys


def test_import_redactor_loads_no_presidio_or_spacy() -> None:
    code = ("import sys, redactor, redactor.cli, redactor.config, redactor.engine;"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('presidio_analyzer', 'presidio_anonymizer', 'spacy', 'validate_docbr', 'numpy'));"
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""

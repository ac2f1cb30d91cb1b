"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys


def stop_engine(env: dict[str, str]) -> None:
    """Stop the warm engine a test's hook calls started in its runtime folder."""
    status = subprocess.run([sys.executable, "-m", "redactor", "serve", "--status"], env=env,
                            capture_output=True, timeout=60, check=False)
    if status.returncode != 0:
        return
    subprocess.run([sys.executable, "-m", "redactor", "serve", "--stop"], env=env,
                   capture_output=True, timeout=60, check=False)
    with contextlib.suppress(ProcessLookupError, ValueError, KeyError):
        os.kill(json.loads(status.stdout)["pid"], signal.SIGKILL)

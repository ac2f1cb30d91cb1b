"""A local log for hook failures: the host shows the model our stderr, so details go here.

Lines hold a time, the component, the event and the error's class; the message
only for redactor's own errors, whose texts are written never to hold data.
Logging never raises.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from redactor.errors import RedactorError

__all__ = ["log_error", "log_path"]


def log_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/redactor/redactor.log`` (``~/.local/state/...`` by default)."""
    env = os.environ if env is None else env
    home = env.get("HOME") or str(Path.home())
    base = env.get("XDG_STATE_HOME") or str(Path(home) / ".local" / "state")
    return Path(base) / "redactor" / "redactor.log"


def log_error(component: str, event: str | None, error: BaseException,
              env: Mapping[str, str] | None = None) -> None:
    """Append one line about a failure; the message only for redactor's own errors."""
    detail = str(error) if isinstance(error, RedactorError) else ""
    line = (f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {component} event={event or '?'} "
            f"error={type(error).__name__}{': ' + detail if detail else ''}\n")
    try:
        path = log_path(env)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with path.open("a", encoding="utf-8") as stream:
            stream.write(line)
    except OSError:
        pass

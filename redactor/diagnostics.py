"""A local log for hook failures: the host shows the model our stderr, so details go here.

Lines hold a time, the component, the event and the error's class; the message
only for redactor's own errors, whose texts are written never to hold data; then the
frames the error went through (``at=folder/file.py:line:function>...``, the outermost
first), so that an error in production can be located without its message or values.
Logging never raises.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

from redactor.errors import RedactorError

__all__ = ["frame_locations", "log_error", "log_path"]

#: The innermost frames a log line names.
MAX_FRAMES = 12


def log_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/redactor/redactor.log`` (``~/.local/state/...`` by default)."""
    env = os.environ if env is None else env
    home = env.get("HOME") or str(Path.home())
    base = env.get("XDG_STATE_HOME") or str(Path(home) / ".local" / "state")
    return Path(base) / "redactor" / "redactor.log"


def _short(filename: str) -> str:
    """A code file's last folder and name (``hosts/core.py``): enough to find it, and
    nothing of the folders above it (a home folder names its user)."""
    return "/".join(filename.replace(os.sep, "/").split("/")[-2:])


def frame_locations(error: BaseException, limit: int = MAX_FRAMES) -> str:
    """``file:line:function`` of each frame of the error's traceback, outermost first,
    the innermost ``limit`` of them; "" without a traceback.  Names code only: no
    message, no value."""
    frames: list[str] = []
    trace = error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        frames.append(f"{_short(code.co_filename)}:{trace.tb_lineno}:{code.co_name}")
        trace = trace.tb_next
    return ">".join(frames[-limit:])


def log_error(component: str, event: str | None, error: BaseException,
              env: Mapping[str, str] | None = None) -> None:
    """Append one line about a failure; the message only for redactor's own errors,
    the frame locations for every error."""
    detail = str(error) if isinstance(error, RedactorError) else ""
    try:
        where = frame_locations(error)
    except Exception:  # logging never raises
        where = ""
    line = (f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} {component} event={event or '?'} "
            f"error={type(error).__name__}{': ' + detail if detail else ''}"
            f"{' at=' + where if where else ''}\n")
    try:
        path = log_path(env)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A name from an unreadable event may hold bytes that are not UTF-8 (lone
        # surrogates): written escaped, never raised.
        with path.open("a", encoding="utf-8", errors="backslashreplace") as stream:
            stream.write(line)
    except OSError:
        pass

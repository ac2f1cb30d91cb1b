"""Failure drills, for tests only: ``REDACTOR_TEST_FAULT`` and ``REDACTOR_TEST_DELAY``.

A drill makes a hook fail (a fault) or stall (a delay) on purpose, to prove against a
real host that redactor fails closed.  Outside a test run a drill is an attack: a host
may take environment variables from a project's own files (Claude Code's project
``env``, Gemini CLI's ``.env``), and a stall past the host's timeout lets an older host
pass the call.  A project can set any variable, so no variable alone can switch drills
on.  They are honoured only while ``REDACTOR_TEST_SWITCHES`` names a switch file that a
test run creates and a project cannot provide:

* an absolute path to a regular file (not a symbolic link) of this user that no one
  else may write, holding exactly :data:`SWITCH_TEXT`;
* in a folder of this user that no one else may even enter (mode ``0700``, as pytest's
  temporary folders are; a cloned repository's folders are not, under the usual umask);
* in no project: no folder from it upwards, below the home folder, holds a project
  marker (``.git``, ``.claude``, ...; see :func:`redactor.config.project_folder`).

Nothing a repository ships meets all three; a process that can already write private
files of the user's does not need a drill.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = ["DRILLS", "SWITCHES_ENV", "SWITCH_TEXT", "drill", "switch_problem"]

SWITCHES_ENV: Final = "REDACTOR_TEST_SWITCHES"
SWITCH_TEXT: Final = b"redactor failure drills on\n"
DRILLS: Final = ("REDACTOR_TEST_FAULT", "REDACTOR_TEST_DELAY")


def switch_problem(env: Mapping[str, str]) -> str | None:
    """Why the drills are off (None when a valid switch file turns them on)."""
    named = env.get(SWITCHES_ENV, "")
    if not named.startswith("/"):
        return f"{SWITCHES_ENV} names no absolute path"
    try:
        fd = os.open(named, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return f"{SWITCHES_ENV} names no file that can be opened (a symbolic link is refused)"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() \
                or info.st_mode & 0o022:
            return f"{SWITCHES_ENV} names no regular file of this user that only it may write"
        text = os.read(fd, len(SWITCH_TEXT) + 1)
    except OSError:
        return f"{SWITCHES_ENV} names a file that cannot be read"
    finally:
        os.close(fd)
    folder = os.path.dirname(named) or "/"
    try:
        info = os.lstat(folder)
    except OSError:
        return f"the folder of {SWITCHES_ENV} cannot be read"
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return f"the folder of {SWITCHES_ENV} is not a private folder of this user (mode 0700)"
    from redactor.config import project_folder

    if project_folder(Path(folder)) is not None:
        return f"{SWITCHES_ENV} names a file inside a project"
    if text != SWITCH_TEXT:
        return f"{SWITCHES_ENV} names a file that is not a switch file"
    return None


def drill(env: Mapping[str, str], name: str) -> str:
    """The value of the drill variable ``name``, or "" while drills are off.  Costs a
    lookup only when the variable is set."""
    value = env.get(name, "")
    if not value or switch_problem(env) is not None:
        return ""
    return value

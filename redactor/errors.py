"""One exception tree for redactor.  Every error carries the exit code the CLI uses.

Messages name files, keys, entity types and counts; they never hold a value that
was or might be personal data.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "ConfigError",
    "EngineBuildError",
    "EngineError",
    "InputError",
    "RedactorError",
    "UsageError",
]


class RedactorError(Exception):
    """Base class: a failure redactor reports instead of crashing."""

    exit_code: ClassVar[int] = 70  # EX_SOFTWARE


class UsageError(RedactorError):
    """The command line was wrong."""

    exit_code: ClassVar[int] = 2


class ConfigError(RedactorError):
    """A configuration file or value is broken: never silently replaced by defaults."""

    exit_code: ClassVar[int] = 2


class InputError(RedactorError):
    """An input could not be read (missing, unreadable, not text where text is needed)."""

    exit_code: ClassVar[int] = 3


class EngineError(RedactorError):
    """The detection engine could not be built or failed while running."""

    exit_code: ClassVar[int] = 70


class EngineBuildError(EngineError):
    """The detection engine could not be built: no input can be processed."""

"""``RedactingFilter``: stop an application from writing personal data to new logs.

    import logging
    from redactor.logging import RedactingFilter

    handler = logging.StreamHandler()
    handler.addFilter(RedactingFilter())

The filter formats each record's message with its arguments, redacts it, and does
the same for an attached traceback and stack.  If redaction fails, the message is
replaced by a marker: a log line is never let through unredacted.
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["RedactingFilter"]

WITHHELD = "[log message withheld by redactor: redaction failed]"


class RedactingFilter(logging.Filter):
    """A logging filter that rewrites records in place; it never drops one."""

    def __init__(self, name: str = "", engine: Any = None) -> None:
        super().__init__(name)
        self._engine = engine
        self._formatter = logging.Formatter()

    def _redact(self, text: str) -> str:
        if self._engine is None:
            from redactor.api import get_redactor

            self._engine = get_redactor()
        return str(self._engine.redact(text).text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            record.msg = self._redact(record.getMessage())
            record.args = None
            if record.exc_info:
                record.exc_text = self._redact(self._formatter.formatException(record.exc_info))
                record.exc_info = None
            if record.stack_info:
                record.stack_info = self._redact(record.stack_info)
        except Exception:  # the record goes on, without its content
            record.msg, record.args = WITHHELD, None
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True

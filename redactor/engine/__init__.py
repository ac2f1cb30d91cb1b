"""The engine: Presidio analyzer and anonymizer built once from Settings.

Text flow: a length-preserving normalisation (fullwidth digits, dash and space
variants to ASCII), Presidio analysis in chunks of bounded size, overlap
resolution so every detected character is covered exactly once, the allowlist,
then Presidio operators applied segment by segment onto the original text.

Modules, by job (none imports Presidio before an engine is built):

- :mod:`~redactor.engine.build`: the analyzer, NLP engine and operators from Settings,
  and what the analysis needs to know of the recognizers (prefilters, direct path);
- :mod:`~redactor.engine.analysis`: :class:`Analysis`, where personal data lies
  (prefilter orchestration, chunks, Presidio's steps run directly);
- :mod:`~redactor.engine.propagation`: names found once, found again elsewhere
  (:class:`StreamNames` carries them along a stream);
- :mod:`~redactor.engine.spans`: spans, chunks and overlap resolution;
- :mod:`~redactor.engine.jsonredact`: JSON values redacted leaf by leaf;
- :mod:`~redactor.engine.redaction`: :class:`Redactor`, the analysis plus operators.
"""

from redactor.engine.build import check_without_presidio
from redactor.engine.jsonredact import JSON_NUMBERS
from redactor.engine.propagation import StreamNames
from redactor.engine.redaction import Redactor

__all__ = ["JSON_NUMBERS", "Redactor", "StreamNames", "check_without_presidio"]

"""Every kind a SECRET finding may carry: the one list settings check ``secret_kinds``
against (``redactor.config.SECRET_KINDS``).  Presidio-free.

Each kind is declared once, beside the detector that knows it best (its module's
``DECLARED_KINDS``); this module gathers the declarations.  A finding's kind is in its
recognizer name (``SecretRecognizer:github_token``, see
:func:`recognizers.secret.common.secret_kind`).
"""

from __future__ import annotations

from typing import Final

from recognizers.secret import assignments, formats, kubernetes, pem, web
from recognizers.secret.common import Kind

#: Every declared kind, by the module that declares it.
DECLARED: Final[tuple[Kind, ...]] = (
    *formats.DECLARED_KINDS,
    *web.DECLARED_KINDS,
    *pem.DECLARED_KINDS,
    *assignments.DECLARED_KINDS,
    *kubernetes.DECLARED_KINDS,
)

#: The names of every kind, sorted.
KINDS: Final[tuple[str, ...]] = tuple(sorted({kind.name for kind in DECLARED}))

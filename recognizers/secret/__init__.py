"""SECRET: credentials in tool output and logs — provider tokens, private keys, passwords.

One Presidio recognizer reports every kind; the kind is in each finding's recognizer
name (``SecretRecognizer:github_token``; see :func:`secret_kind`).  What it finds, by
module:

* :mod:`~recognizers.secret.formats` — **provider tokens** by their fixed formats, with
  the patterns of Yelp's detect-secrets plugins (AWS access keys, GitHub, GitLab, Slack,
  Stripe, SendGrid, OpenAI, PyPI, Azure storage keys...), the linear ones only;
* :mod:`~recognizers.secret.web` — **JSON Web Tokens** (``eyJ…``) whose header decodes
  to a JSON object, **passwords in URLs** (only the password of
  ``scheme://user:password@host``) and ``Authorization: Bearer``/``Basic``
  credentials;
* :mod:`~recognizers.secret.pem` — **private keys**: whole PEM blocks, PuTTY key files
  and PEM private keys encoded in base64 (a Kubernetes ``tls.key``);
* :mod:`~recognizers.secret.assignments` — **assignments**: the value of a key that
  names a secret, in key/value, ``.env``, JSON, YAML, XML, SAP profile (``PASSWD=``)
  and command-line (``--password x``) syntax, and passwords said in a sentence
  (:mod:`~recognizers.secret.chat`).  Password keys (``senha``, ``password``,
  ``passwd``, ``pwd``...) and secret keys (``secret``, ``token``, ``chave``,
  ``api_key``...) take any value that is not a placeholder; weaker keys (``key``,
  ``auth``, ``session``, ``cookie``...) only a value of high entropy (detect-secrets'
  Shannon entropy); which key is which is :mod:`~recognizers.secret.keys`;
* :mod:`~recognizers.secret.commands` — passwords on **command lines** (``mysql -p…``,
  ``sshpass -p``, ``IDENTIFIED BY '…'``...);
* :mod:`~recognizers.secret.kubernetes` — every value under ``data:``/``stringData:``
  of a **Kubernetes** ``Secret`` manifest, in YAML and JSON, when its ``kind: Secret``
  line stands within :data:`MANIFEST_REACH` characters.

Not secrets (:mod:`~recognizers.secret.filters`): the shell's ``PWD=`` (and any ``pwd``
holding a path), ``chave`` next to an NF-e or Pix word or holding an access-key-like
number (they have their own entities), placeholders (``<password>``, ``${TOKEN}``,
``********``, ``[SECRET]``), code references (``self.password``, ``os.environ[...]``)
and public keys.

Every kind is declared once in :mod:`~recognizers.secret.kinds` (:data:`KINDS`), which
loads no detector.  :func:`find_secrets` (:mod:`~recognizers.secret.finder`) runs every
detector; :class:`SecretRecognizer` (:mod:`~recognizers.secret.recognizer`, the only
module that imports Presidio) wraps it for an analyzer.  The package loads its detectors
and its recognizer on first use of their names.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from recognizers.secret.common import ENTITY, secret_kind
from recognizers.secret.kinds import KINDS

if TYPE_CHECKING:
    from recognizers.secret.filters import high_entropy
    from recognizers.secret.finder import GENERIC_KINDS, find_secrets
    from recognizers.secret.formats import FORMAT_REACH
    from recognizers.secret.kubernetes import MANIFEST_REACH
    from recognizers.secret.pem import KEY_REACH
    from recognizers.secret.recognizer import MARGIN, SecretRecognizer

__all__ = [
    "ENTITY",
    "FORMAT_REACH",
    "GENERIC_KINDS",
    "KEY_REACH",
    "KINDS",
    "MANIFEST_REACH",
    "MARGIN",
    "SecretRecognizer",
    "find_secrets",
    "high_entropy",
    "secret_kind",
]

#: Names served from the package's modules on first use (PEP 562), as (module, name):
#: importing the package (or recognizers.secret.kinds) compiles no pattern and loads no
#: Presidio.  ``_PLUGINS`` and ``_formats`` keep the names tests read when this package
#: was one module.
_LAZY: Final = {
    "FORMAT_REACH": ("formats", "FORMAT_REACH"),
    "GENERIC_KINDS": ("finder", "GENERIC_KINDS"),
    "KEY_REACH": ("pem", "KEY_REACH"),
    "MANIFEST_REACH": ("kubernetes", "MANIFEST_REACH"),
    "MARGIN": ("recognizer", "MARGIN"),
    "SecretRecognizer": ("recognizer", "SecretRecognizer"),
    "_PLUGINS": ("formats", "PLUGINS"),
    "_formats": ("formats", "compiled_formats"),
    "find_secrets": ("finder", "find_secrets"),
    "high_entropy": ("filters", "high_entropy"),
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where[0]}"), where[1])
    globals()[name] = value
    return value

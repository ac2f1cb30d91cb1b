"""redactor: keep Brazilian personal data out of AI models, transcripts and logs.

``import redactor`` is cheap: every name below loads on first use, and Presidio
(with spaCy under it) only with the first redaction.  The import-light hook client
relies on this: importing ``redactor.serve.client`` must not pull anything in.

    >>> from redactor import redact
    >>> redact("cliente CPF 529.982.247-25").text
    'cliente CPF [CPF]'
"""

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from redactor.api import get_redactor, redact, redact_json
    from redactor.config import OperatorSpec, Settings, load_settings
    from redactor.engine import Redactor
    from redactor.errors import (
        ConfigError,
        EngineError,
        InputError,
        RedactorError,
        UsageError,
    )
    from redactor.results import Finding, JsonRedaction, RedactionResult

__all__ = [
    "ConfigError",
    "EngineError",
    "Finding",
    "InputError",
    "JsonRedaction",
    "OperatorSpec",
    "RedactionResult",
    "Redactor",
    "RedactorError",
    "Settings",
    "UsageError",
    "__version__",
    "get_redactor",
    "load_settings",
    "redact",
    "redact_json",
]

__version__ = "0.1.0"

_LAZY = {
    "get_redactor": "redactor.api", "redact": "redactor.api", "redact_json": "redactor.api",
    "OperatorSpec": "redactor.config", "Settings": "redactor.config",
    "load_settings": "redactor.config", "Redactor": "redactor.engine",
    "ConfigError": "redactor.errors", "EngineError": "redactor.errors",
    "InputError": "redactor.errors", "RedactorError": "redactor.errors",
    "UsageError": "redactor.errors", "Finding": "redactor.results",
    "JsonRedaction": "redactor.results", "RedactionResult": "redactor.results",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'redactor' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value

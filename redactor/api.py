"""The module-level API behind ``redactor.redact``: one cached engine per configuration."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from redactor.config import Settings, load_settings
from redactor.errors import ConfigError, EngineBuildError, RedactorError
from redactor.results import JsonRedaction, RedactionResult

if TYPE_CHECKING:
    from redactor.engine import Redactor

__all__ = ["LazyRedactor", "get_redactor", "redact", "redact_json"]

_lock = threading.Lock()
_cache: dict[object, Redactor] = {}


def _fingerprint(settings: Settings | None) -> tuple[Settings, object]:
    """Settings to use and a cache key that changes when any file behind them changes."""
    from redactor.config import config_files

    if settings is None:
        files = config_files()
        stamps = tuple((str(p), *_stat(p)) for p, _ in files)
        settings = _settings_cache(stamps, files)
    users = tuple((str(p), *_stat(p)) for p in settings.known_users_files)
    return settings, (settings, users)


def _stat(path: Any) -> tuple[int, int]:
    try:
        info = path.stat()
    except OSError:
        return (-1, -1)
    return (info.st_mtime_ns, info.st_size)


_settings_by_stamp: dict[object, Settings] = {}


def _settings_cache(stamps: object, files: Any) -> Settings:
    with _lock:
        cached = _settings_by_stamp.get(stamps)
    if cached is None:
        cached = load_settings(files=files)
        with _lock:
            _settings_by_stamp.clear()
            _settings_by_stamp[stamps] = cached
    return cached


def get_redactor(settings: Settings | None = None,
                 environ: Mapping[str, str] | None = None) -> Redactor:
    """A shared Redactor for these settings (default: the discovered configuration).

    Engines are cached per settings and rebuilt when a configuration or known-users
    file changes.  ``environ`` supplies the hash key variable (default: os.environ).
    """
    from redactor.engine import Redactor

    settings, key = _fingerprint(settings)
    environ = os.environ if environ is None else environ
    key = (key, _key_stamp(settings, environ))
    with _lock:
        engine = _cache.get(key)
    if engine is None:
        engine = Redactor(settings, environ=environ)
        with _lock:
            if len(_cache) >= 8:
                _cache.clear()
            _cache[key] = engine
    return engine


def built_redactor(settings: Settings,
                   environ: Mapping[str, str] | None = None) -> Redactor | None:
    """The engine :func:`get_redactor` would give for these settings if it is built
    already, else None: nothing is built here (a caller that must not spend seconds on
    Presidio asks first)."""
    settings, key = _fingerprint(settings)
    environ = os.environ if environ is None else environ
    with _lock:
        return _cache.get((key, _key_stamp(settings, environ)))


def _key_stamp(settings: Settings, environ: Mapping[str, str]) -> object:
    """What changes when the pseudonym key may (redactor.pseudonyms.keys): its
    variables and its files' stamps; nothing for an engine that writes no tokens."""
    from redactor.config import tokenised

    if not tokenised(settings):
        return None
    from redactor.baseline import KEY_ENV, user_key_file

    files = [user_key_file(environ)]
    if settings.hash_key_file is not None:
        files.append(settings.hash_key_file)
    return (environ.get(settings.hash_key_env), environ.get(KEY_ENV),
            tuple((str(p), *_stat(p)) for p in files))


class LazyRedactor:
    """:func:`get_redactor`'s engine, built on first use (a batch run over empty inputs
    never pays the second of Presidio's import).

    The configuration is read at once, so a broken one is still an error before any
    input is touched; what only the engine can check (a spaCy model) waits for text.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        from redactor.engine import check_without_presidio

        self._settings, _ = _fingerprint(settings)
        check_without_presidio(self._settings, os.environ)
        self._engine: Redactor | None = None
        self._baseline: Any = None
        self._sink: Any = None

    @property
    def built(self) -> bool:
        return self._engine is not None

    def built_engine(self) -> Redactor:
        """The engine itself, built now if it was not: for a caller about to ask it
        many things (each through this object costs a lookup more)."""
        return self._get()

    def _get(self) -> Redactor:
        engine = self._engine
        if engine is None:
            try:
                engine = get_redactor(self._settings)
            except (ConfigError, EngineBuildError):
                raise
            except RedactorError as exc:
                raise EngineBuildError(str(exc)) from None
            except Exception as exc:
                raise EngineBuildError(
                    f"cannot build the engine ({type(exc).__name__})") from None
            self._engine = engine
            engine.baseline = self._baseline
            engine.issued_sink = self._sink
        return engine

    @property
    def baseline(self) -> Any:
        return self._baseline

    @baseline.setter
    def baseline(self, value: Any) -> None:
        self._baseline = value
        if self._engine is not None:
            self._engine.baseline = value

    @property
    def issued_sink(self) -> Any:
        return self._sink

    @issued_sink.setter
    def issued_sink(self, value: Any) -> None:
        self._sink = value
        if self._engine is not None:
            self._engine.issued_sink = value

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)


def redact(text: str, *, settings: Settings | None = None) -> RedactionResult:
    """Redact personal data in ``text``; see :class:`RedactionResult`."""
    if not isinstance(text, str):
        raise TypeError(f"redact() needs str, not {type(text).__name__}")
    return get_redactor(settings).redact(text)


def redact_json(value: Any, *, settings: Settings | None = None) -> JsonRedaction:
    """Redact every string leaf of a JSON value; see :class:`JsonRedaction`."""
    return get_redactor(settings).redact_json(value)

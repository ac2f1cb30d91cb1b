"""The install's gateway token, and how a gateway proves it holds it.

The token is 32 random bytes (hex) in ``~/.config/redactor/gateway-token``, mode 0600,
created by ``redactor install claude --gateway`` or the first ``redactor gateway``.
Claude Code presents it on every request (``ANTHROPIC_CUSTOM_HEADERS``) and on every
HTTP hook call, so the gateway serves only its own user's clients.  A hook that wants to
know whether this session's base URL is a live redactor gateway sends a fresh nonce to
``/redactor/v1/hello`` and checks the HMAC it gets back; the token itself never travels
in that exchange.

Standard library only: the hook path's warm engine imports this.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from redactor.errors import ConfigError

__all__ = ["HEADER", "HELLO_PATH", "LOOPBACK", "TOKEN_FILE", "base_is_loopback",
           "ensure_token", "gateway_live", "proof", "read_token", "token_path"]

TOKEN_FILE: Final = "gateway-token"  # noqa: S105 - a file name, not a token
#: The request header that carries the token (ANTHROPIC_CUSTOM_HEADERS, hook headers).
HEADER: Final = "X-Redactor-Token"
HELLO_PATH: Final = "/redactor/v1/hello"
LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: How long a positive answer of gateway_live is believed without asking again.
LIVE_FOR: Final = 10.0

_live: dict[tuple[str, str], float] = {}
_live_lock = threading.Lock()


def token_path(env: Mapping[str, str]) -> Path:
    from redactor.config import user_config_dir

    return user_config_dir(env) / TOKEN_FILE


def read_token(env: Mapping[str, str]) -> str | None:
    """The token, or None when there is none yet.  A token file that others may read,
    or that another user owns, is a loud error: it would let them use the gateway."""
    path = token_path(env)
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise ConfigError(f"{path}: the gateway token file must be a regular file of yours "
                          "with mode 0600 (chmod 600 it, or delete it and run "
                          "`redactor install claude --gateway` again)")
    token = path.read_text(encoding="ascii").strip()
    if len(token) < 32 or not all(c in "0123456789abcdef" for c in token):
        raise ConfigError(f"{path}: the gateway token file is damaged; delete it and run "
                          "`redactor install claude --gateway` again")
    return token


def ensure_token(env: Mapping[str, str]) -> str:
    """The token, created (0600) when there is none."""
    token = read_token(env)
    if token is not None:
        return token
    path = token_path(env)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    return token


def proof(token: str, nonce: str) -> str:
    """What a gateway holding ``token`` answers to ``nonce``."""
    return hmac.new(token.encode("ascii"), b"redactor-gateway-hello\0" + nonce.encode("ascii"),
                    hashlib.sha256).hexdigest()


def base_is_loopback(base_url: str) -> bool:
    try:
        parts = urlsplit(base_url)
    except ValueError:
        return False
    return parts.scheme == "http" and (parts.hostname or "") in LOOPBACK


def gateway_live(env: Mapping[str, str], timeout: float = 1.0, *, remember: bool = True) -> bool:
    """Is this session's model endpoint (``ANTHROPIC_UNIX_SOCKET``, else
    ``ANTHROPIC_BASE_URL``, from the hook's environment) a live redactor gateway that
    holds this user's token?  Never raises; a recent yes is remembered for LIVE_FOR s
    (unless ``remember`` is off: doctor and ``gateway status`` ask afresh)."""
    try:
        token = read_token(env)
    except (ConfigError, OSError):
        return False
    if token is None:
        return False
    where = env.get("ANTHROPIC_UNIX_SOCKET") or ""
    base = env.get("ANTHROPIC_BASE_URL") or ""
    if not where and not base_is_loopback(base):
        return False
    key = (where, base)
    now = time.monotonic()
    with _live_lock:
        if remember and _live.get(key, 0.0) > now:
            return True
    nonce = secrets.token_hex(16)
    try:
        answer = _hello(where, base, nonce, timeout)
    except Exception:
        return False
    ok = isinstance(answer, dict) and isinstance(answer.get("proof"), str) and \
        hmac.compare_digest(answer["proof"], proof(token, nonce))
    if ok:
        with _live_lock:
            _live[key] = now + LIVE_FOR
    return ok


def _hello(unix_socket: str, base: str, nonce: str, timeout: float) -> object:
    import http.client
    import socket

    path = f"{HELLO_PATH}?nonce={nonce}"
    connection: http.client.HTTPConnection
    if unix_socket:
        connection = http.client.HTTPConnection("localhost", timeout=timeout)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(unix_socket)
        except OSError:
            sock.close()
            raise
        connection.sock = sock
    else:
        parts = urlsplit(base)
        connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80,
                                                timeout=timeout)
        prefix = parts.path.rstrip("/")
        path = prefix + path
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        if response.status != 200:
            return None
        return json.loads(response.read(4096))
    finally:
        with contextlib.suppress(OSError):
            connection.close()

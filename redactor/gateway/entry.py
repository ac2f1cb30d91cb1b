"""The SessionStart hook of a gateway install: ``python -I -S .../gateway/entry.py``.

It runs once per Claude Code session, before the first model request.  When a gateway
holding this user's token already answers where the session's settings send requests
(``ANTHROPIC_UNIX_SOCKET``, else a loopback ``ANTHROPIC_BASE_URL``), it exits at once,
having imported almost nothing: the hello of :mod:`redactor.gateway.identity`, spoken
over a raw socket.  Otherwise it runs ``redactor gateway start`` (the full command, which
starts one and waits until it answers).  It prints nothing on stdout: Claude Code would
add a SessionStart hook's output to the model's context.
"""

import sys


def _token() -> "str | None":
    import posix

    env = posix.environ
    base = env.get(b"XDG_CONFIG_HOME") or ((env.get(b"HOME") or b"") + b"/.config")
    try:
        fd = posix.open(base + b"/redactor/gateway-token", posix.O_RDONLY)
    except OSError:
        return None
    try:
        info = posix.fstat(fd)
        if info.st_uid != posix.getuid() or info.st_mode & 0o077:
            return None  # the full command says why, loudly
        return posix.read(fd, 256).decode("ascii", "replace").strip()
    finally:
        posix.close(fd)


def _answers(token: str) -> bool:
    import _socket
    import posix

    env = posix.environ
    unix = env.get(b"ANTHROPIC_UNIX_SOCKET")
    base = (env.get(b"ANTHROPIC_BASE_URL") or b"").decode("ascii", "replace")
    if unix:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        address: bytes | tuple[str, int] = unix
    else:
        rest = base.removeprefix("http://")
        hostport = rest.split("/", 1)[0]
        host, _, port = hostport.rpartition(":")
        if rest == base or host not in ("127.0.0.1", "localhost") or not port.isdigit():
            return False
        sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        address = ("127.0.0.1", int(port))
    nonce = posix.urandom(16).hex()
    try:
        sock.settimeout(1.0)
        sock.connect(address)
        sock.sendall(b"GET /redactor/v1/hello?nonce=" + nonce.encode()
                     + b" HTTP/1.0\r\nHost: localhost\r\n\r\n")
        chunks = []
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return False
    finally:
        sock.close()
    answer = b"".join(chunks)
    marker = b'"proof": "'
    at = answer.find(marker)
    if answer[:9] not in (b"HTTP/1.0 ", b"HTTP/1.1 ") or answer[9:13] != b"200 " or at < 0:
        return False
    import hmac

    sent = answer[at + len(marker):at + len(marker) + 64].decode("ascii", "replace")
    expected = hmac.new(token.encode("ascii"), b"redactor-gateway-hello\0" + nonce.encode(),
                        "sha256").hexdigest()
    return hmac.compare_digest(sent, expected)


def main() -> int:
    token = _token()
    if token is not None and _answers(token):
        return 0
    import site

    site.main()
    sys.path.insert(0, __file__.rsplit("/", 3)[0])
    from redactor.cli import main as cli

    sys.stdout = sys.stderr  # nothing on the hook's stdout
    return cli(["gateway", "start"])


if __name__ == "__main__":
    sys.exit(main())

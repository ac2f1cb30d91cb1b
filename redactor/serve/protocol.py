"""The warm engine's wire protocol and paths, shared by the light client and the server.

Import-light on purpose (``sys``, ``time``, ``_socket`` and ``posix`` only, with the
host catalogue and the timeout chain, which import nothing): the hook client runs it
on every call under ``python -I -S``.

Wire format (version RDX1).  Request: ``RDX1`` line, ``key value`` lines (``stamp``,
``cwd``, ``env NAME=value``, then ``host NAME`` for a hook event or ``control VERB``
for the server itself: ``status``, ``stop``), an empty line, then the raw event until
the client half-closes.  The dispatcher adds a ``deadline`` line for its worker.
Answer: ``RDX1 <exit> <stdout bytes> <stderr bytes>`` line and the two bodies, or
``RDX1 RESTART`` when the server runs other code than this client.
"""

import _socket
import posix
import time

from redactor.hosts.catalogue import HOSTS
from redactor.serve.timeouts import (
    ANSWER_MARGIN,
    ANSWER_TIMEOUT,
    CLIENT_RESERVE,
    CONNECT_TIMEOUT,
    HOST_TIMEOUT,
    RETRY_WINDOW,
)

__all__ = ["ANSWER_MARGIN", "ANSWER_TIMEOUT", "CLIENT_RESERVE", "CONNECT_TIMEOUT", "CONTROLS",
           "HOSTS", "HOST_TIMEOUT", "MAGIC", "RETRY_WINDOW", "Broken", "Dropped", "Unreachable",
           "build_request", "check_private", "code_stamp", "encode_answer", "exchange",
           "install_id", "package_dirs", "package_root", "parse_answer", "parse_request",
           "runtime_dir", "socket_path", "with_deadline"]

MAGIC = b"RDX1"
#: The verbs a ``control`` line may name.
CONTROLS = ("status", "stop")
#: Environment variables the server needs to answer as this process would.
#: ANTHROPIC_BASE_URL and ANTHROPIC_UNIX_SOCKET: where the session's model requests go
#: (a prompt is let through to a verified redactor gateway: see hosts/claude.py).
FORWARDED = (b"HOME", b"XDG_CONFIG_HOME", b"XDG_STATE_HOME", b"ANTHROPIC_BASE_URL",
             b"ANTHROPIC_UNIX_SOCKET")
FORWARDED_PREFIX = b"REDACTOR_"


class Unreachable(Exception):
    """No server took the event: answer in process."""


class Broken(Exception):
    """A server took the event and failed: fail closed."""


class Dropped(Unreachable):
    """A server closed the connection without answering, soon enough to answer here."""


def _dirname(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def package_dirs() -> list[str]:
    """The source folders of this installation: redactor first, its subpackages, then
    the recognizers."""
    here = _dirname(posix.getcwd() + "/" + __file__ if not __file__.startswith("/")
                    else __file__)
    redactor_dir = _dirname(here)
    root = _dirname(redactor_dir)
    return [redactor_dir, here, redactor_dir + "/hosts", redactor_dir + "/hooks",
            root + "/recognizers"]


def code_stamp() -> int:
    """A number that changes whenever any source file of the installation changes."""
    stamp = 0
    for directory in package_dirs():
        try:
            entries = posix.scandir(directory)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    stamp += info.st_mtime_ns + info.st_size
    return stamp


#: Where the runtime folder goes without ``$XDG_RUNTIME_DIR`` (a constant for tests).
SHARED_TMP = "/tmp"  # noqa: S108 - the folder in it is checked for owner and mode
#: The longest socket path (``sun_path`` holds 108 bytes with its terminating NUL).
SOCKET_PATH_MAX = 107
#: File systems a socket must not live on (network and FUSE mounts).
NETWORK_FS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ceph",
                        "glusterfs", "lustre", "fuse.sshfs", "fuse.rclone", "davfs"})


def runtime_dir(environ: "dict[bytes, bytes] | None" = None) -> str:
    """``$XDG_RUNTIME_DIR/redactor``, else ``/tmp/redactor-<uid>``, else — when another
    user (or a wrong mode) holds that name first — a private folder under the user's
    own cache folder, ``$XDG_CACHE_HOME/redactor/run`` or ``~/.cache/redactor/run``,
    if its socket path fits and it is no network file system."""
    env = posix.environ if environ is None else environ
    base = env.get(b"XDG_RUNTIME_DIR")
    if base:
        return base.decode("utf-8", "surrogateescape") + "/redactor"
    shared = SHARED_TMP + "/redactor-" + str(posix.getuid())
    try:
        check_private(shared, want_socket=False)
    except FileNotFoundError:
        return shared  # not there yet: the server creates it, 0700
    except OSError:
        own = _own_runtime_dir(env)
        return own if own is not None else shared  # refused later: answers in process
    return shared


def _own_runtime_dir(env: "dict[bytes, bytes]") -> "str | None":
    cache = env.get(b"XDG_CACHE_HOME") or (env.get(b"HOME", b"") + b"/.cache"
                                           if env.get(b"HOME") else b"")
    if not cache.startswith(b"/"):
        return None
    folder = cache.decode("utf-8", "surrogateescape") + "/redactor/run"
    longest = folder + "/engine-" + "0" * 8 + ".sock"
    if len(longest.encode("utf-8", "surrogateescape")) > SOCKET_PATH_MAX:
        return None
    if _file_system(folder) in NETWORK_FS:
        return None
    return folder


def _file_system(path: str) -> str:
    """The type of the mount holding ``path`` (its longest mount point), "" if unknown."""
    try:
        fd = posix.open("/proc/self/mounts", posix.O_RDONLY)
    except OSError:
        return ""
    try:
        data = b""
        while chunk := posix.read(fd, 65536):
            data += chunk
    finally:
        posix.close(fd)
    best, kind = -1, ""
    for line in data.decode("utf-8", "replace").splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and len(point) > best:
            best, kind = len(point), fields[2]
    return kind


def install_id() -> str:
    """A stable short id of this installation (FNV-1a of its folder), so that two
    installations of one user run two servers instead of restarting each other."""
    value = 0x811C9DC5
    for byte in package_dirs()[0].encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def socket_path(directory: str | None = None) -> str:
    return (directory or runtime_dir()) + "/engine-" + install_id() + ".sock"


def check_private(path: str, want_socket: bool) -> None:
    """Refuse anything this user does not own, or that others may write or reach."""
    info = posix.lstat(path)
    kind = info.st_mode & 0o170000
    if info.st_uid != posix.getuid():
        raise PermissionError(path + " is owned by another user")
    if want_socket and kind != 0o140000:
        raise PermissionError(path + " is not a socket")
    if not want_socket and (kind != 0o040000 or info.st_mode & 0o077):
        raise PermissionError(path + " is not a private directory")


def build_request(payload: bytes, host: bytes = b"claude", stamp: int | None = None,
                  environ: "dict[bytes, bytes] | None" = None, cwd: str | None = None, *,
                  control: bytes | None = None) -> bytes:
    """A hook request for ``host``, or with ``control`` a request to the server itself."""
    env = posix.environ if environ is None else environ
    lines = [MAGIC, b"stamp " + str(code_stamp() if stamp is None else stamp).encode(),
             b"control " + control if control is not None else b"host " + host,
             b"cwd " + (cwd or posix.getcwd()).encode("utf-8", "surrogateescape")]
    for name, value in env.items():
        if name in FORWARDED or name.startswith(FORWARDED_PREFIX):
            if b"\n" in name or b"\n" in value:
                raise Unreachable("an environment value holds a newline")
            lines.append(b"env " + name + b"=" + value)
    for line in lines:
        if b"\n" in line:
            raise Unreachable("a header value holds a newline")
    return b"\n".join(lines) + b"\n\n" + payload


def parse_request(raw: bytes) -> "tuple[dict[str, str], dict[str, str], bytes]":
    """``(fields, forwarded environment, payload)`` of an RDX1 request; ``fields`` is
    empty when the request does not start with the magic line."""
    head, _, payload = raw.partition(b"\n\n")
    lines = head.split(b"\n")
    fields: dict[str, str] = {}
    env: dict[str, str] = {}
    if lines[0] != MAGIC:
        return fields, env, payload
    for line in lines[1:]:
        key, _, value = line.decode("utf-8", "surrogateescape").partition(" ")
        if key == "env":
            name, _, env_value = value.partition("=")
            env[name] = env_value
        else:
            fields[key] = value
    return fields, env, payload


def with_deadline(raw: bytes, deadline: float, arrived: "float | None" = None) -> bytes:
    """The request with the worker's own deadline (``time.monotonic()``, which is the
    same clock in every process) as its last header line, which wins over any line of
    that name the client sent; before it the request's arrival at the dispatcher, when
    given (the caller's budget counts from it)."""
    head, sep, payload = raw.partition(b"\n\n")
    if arrived is not None:
        head += b"\narrived %.6f" % arrived
    return b"%s\ndeadline %.6f%s%s" % (head, deadline, sep, payload)


def encode_answer(code: int, out: bytes, err: bytes) -> bytes:
    """An RDX1 answer: exit code, then the two bodies."""
    return b"%s %d %d %d\n%s%s" % (MAGIC, code, len(out), len(err), out, err)


def exchange(request: bytes, path: str | None = None, timeout: float = ANSWER_TIMEOUT) -> bytes:
    """Send a request, return the raw answer within ``timeout`` seconds in all.
    Unreachable before sending, Broken after."""
    ends = time.monotonic() + timeout
    path = path or socket_path()
    chunks: list[bytes] = []
    try:
        check_private(_dirname(path), want_socket=False)
        check_private(path, want_socket=True)
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError as exc:
        raise Unreachable(str(exc)) from None
    try:
        sock.settimeout(CONNECT_TIMEOUT)
        try:
            sock.connect(path)
        except OSError as exc:
            raise Unreachable(str(exc)) from None
        started = time.monotonic()
        try:
            sock.settimeout(max(ends - started, 0.001))
            sock.sendall(request)
            sock.shutdown(_socket.SHUT_WR)
            while True:
                # The time left in all, not per read: a server that trickles its answer
                # cannot hold the client past the deadline.
                left = ends - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                sock.settimeout(left)
                chunk = sock.recv(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:
            raise Broken("the server did not answer in time") from None
        except OSError as exc:
            if not chunks and time.monotonic() - started < RETRY_WINDOW:
                raise Dropped(type(exc).__name__) from None
            raise Broken("the server failed during the exchange: " + type(exc).__name__) from None
    finally:
        sock.close()
    if not chunks and time.monotonic() - started < RETRY_WINDOW:
        raise Dropped("the server closed without answering")
    return b"".join(chunks)


def parse_answer(answer: bytes) -> tuple[int, bytes, bytes]:
    """``(exit, stdout, stderr)``; raises Unreachable for RESTART, Broken for garbage."""
    head, sep, rest = answer.partition(b"\n")
    fields = head.split(b" ")
    if not sep or fields[0] != MAGIC:
        raise Broken("the server's answer is incomplete")
    if fields[1:] == [b"RESTART"]:
        raise Unreachable("the server runs other code and is restarting")
    try:
        code, out_len, err_len = (int(f) for f in fields[1:4])
    except ValueError:
        raise Broken("the server's answer is malformed") from None
    if len(rest) != out_len + err_len:
        raise Broken("the server's answer is truncated")
    return code, rest[:out_len], rest[out_len:]


def package_root() -> str:
    """The folder holding the redactor package this file belongs to."""
    return _dirname(package_dirs()[0])

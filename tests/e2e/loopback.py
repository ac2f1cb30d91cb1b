"""The part the fake model servers share: an HTTP server on 127.0.0.1 in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TypeVar


class LoopbackServer:
    """Listens on 127.0.0.1 (a port the OS picks) until :meth:`stop`."""

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    def _listen(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


Server = TypeVar("Server", bound=LoopbackServer)


@contextmanager
def running(server: Server) -> Iterator[Server]:
    """Start a server for one test and stop it afterwards, whatever happens."""
    server.start()
    try:
        yield server
    finally:
        server.stop()

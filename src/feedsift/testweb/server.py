"""One loopback HTTP server per site, with an access log and a prompt, leak-free close.

Each :class:`SiteServer` is a :class:`http.server.ThreadingHTTPServer` on ``127.0.0.1``,
port 0, so every site is its own origin (own robots.txt, own politeness budget). Handler
threads are tracked, and :meth:`SiteServer.close` shuts their sockets down, so a client
that keeps a connection open, or a handler that waits on purpose (the slow fault), cannot
hold the close up.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from feedsift.testweb.responses import Request, Responder, Response, is_not_modified, not_found

__all__ = ["LOGGED_HEADERS", "AccessLog", "RequestRecord", "SiteServer"]

#: Request headers kept in the access log (what politeness and caching tests look at).
LOGGED_HEADERS = (
    "user-agent",
    "if-none-match",
    "if-modified-since",
    "accept",
    "accept-encoding",
)
#: Seconds an idle keep-alive connection is kept before its handler thread gives up.
IDLE_TIMEOUT = 5.0
#: Seconds ``close`` waits for each thread (they end at once once their socket is shut).
JOIN_TIMEOUT = 2.0
#: How often ``serve_forever`` checks for shutdown (seconds): the floor of close's latency.
POLL_INTERVAL = 0.05
#: Size of the chunks a streamed body is written in.
CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One logged request: which site, what, with which headers, when (``time.time()``)."""

    site: str
    method: str
    target: str  #: path and query, as received
    headers: tuple[tuple[str, str], ...]
    at: float

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k == name.lower()), None)


class AccessLog:
    """Requests received by every server of a web, in arrival order; thread-safe."""

    def __init__(self) -> None:
        self._records: list[RequestRecord] = []
        self._lock = threading.Lock()

    def add(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)

    def records(self, site: str | None = None) -> list[RequestRecord]:
        with self._lock:
            return [r for r in self._records if site is None or r.site == site]


class SiteServer(ThreadingHTTPServer):
    """The HTTP server of one site; :attr:`responder` answers its requests."""

    daemon_threads = True

    def __init__(self, name: str, log: AccessLog, closing: threading.Event) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.name = name
        self.log = log
        self.closing = closing
        self.responder: Responder | None = None
        self._sockets: set[socket.socket] = set()
        self._handlers: set[threading.Thread] = set()
        self._lock = threading.Lock()
        self._loop = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": POLL_INTERVAL}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._loop.name = f"testweb-{self.name}"
        self._loop.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(target=self._process, args=(request, client_address), daemon=True)
        with self._lock:
            self._sockets.add(request)
            self._handlers.add(thread)
        thread.start()

    def _process(self, request: socket.socket, client_address: Any) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            with self._lock:
                self._sockets.discard(request)
                self._handlers.discard(threading.current_thread())

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hang up early on purpose (timeouts, size caps): no traceback."""

    def close(self) -> None:
        """Stop serving, cut open connections, join every thread; idempotent."""
        if self._loop.is_alive():
            self.shutdown()
            self._loop.join(JOIN_TIMEOUT)
        with self._lock:
            sockets, threads = list(self._sockets), list(self._handlers)
        for sock in sockets:
            with contextlib.suppress(OSError):  # already closed by its handler
                sock.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(JOIN_TIMEOUT)
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: SiteServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in separate writes
    timeout = IDLE_TIMEOUT
    server_version = "testweb/1.0"
    sys_version = ""

    def do_GET(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self._serve()

    def log_message(self, format: str, *args: object) -> None:
        """The access log is :class:`AccessLog`; stderr stays quiet."""

    def _serve(self) -> None:
        request = Request.parse(self.command, self.path, list(self.headers.items()))
        kept = tuple((k, v) for k, v in request.headers if k in LOGGED_HEADERS)
        self.server.log.add(
            RequestRecord(self.server.name, request.method, self.path, kept, time.time())
        )
        response = self._answer(request)
        if response.delay and self.server.closing.wait(response.delay):
            self.close_connection = True
            return
        if response.reset:
            self._reset()
        elif is_not_modified(request, response):
            self._send_head(response, 304, None)
        else:
            self._send(response, request.method == "HEAD")

    def _answer(self, request: Request) -> Response:
        """The site's response; a bug in a site becomes a 500 that names it, not a hang-up."""
        responder = self.server.responder
        if responder is None:
            return not_found()
        try:
            return responder.respond(request)
        except Exception as error:  # shown to the client, whatever it is
            body = f"testweb: {type(error).__name__}: {error}\n".encode()
            return Response(status=500, body=body, content_type="text/plain; charset=utf-8")

    def _reset(self) -> None:
        """Abort the connection: SO_LINGER 0 makes close() send RST instead of FIN."""
        self.close_connection = True
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.rfile.close()
        self.connection.close()

    def _send_head(self, response: Response, status: int, length: int | None) -> None:
        self.send_response(status)
        skip = {"content-type"} if status == 304 else set()
        for name, value in response.all_headers():
            if name.lower() not in skip:
                self.send_header(name, value)
        if length is None and status != 304:
            self.send_header("Connection", "close")
            self.close_connection = True
        elif status != 304:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def _send(self, response: Response, head_only: bool) -> None:
        stream = response.stream
        length = stream.length if stream else len(response.body)
        self._send_head(response, response.status, length)
        if head_only:
            return
        if stream is None:
            self.wfile.write(response.body)
            return
        for chunk in stream.chunks():
            if self.server.closing.is_set():
                self.close_connection = True
                return
            self.wfile.write(chunk)

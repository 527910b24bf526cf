"""Shared fixtures: a real HTTP server on loopback, the fixture pages, and a real PostgreSQL
server (started once per session from the machine's binaries, see ``pg_server.py``) with
the ``database`` fixture that runs a test on SQLite and on PostgreSQL."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from feedsift.storage.location import DatabaseTarget
from pg_server import NO_BINARIES, PostgresServer, find_bindir

PAGES = Path(__file__).parent / "fixtures" / "pages"
#: Sentences that are surely in the fixture pages' article bodies ...
ARTICLE_SENTENCE = "kept a log book in which the keepers wrote the time"
SECOND_SENTENCE = "Small birds lose a surprising share of their body weight"
THIRD_SENTENCE = "The first bicycle bells were little more than a hammer"
#: ... and a navigation link that is surely not.
NAV_TEXT = "Home"


@dataclass
class Route:
    """What the loopback server answers on one path."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  #: seconds to wait before answering
    content_length: bool = True  #: send Content-Length (else the body ends when we close)
    #: writes the body chunk by chunk instead of ``body`` (huge bodies, made on the fly)
    stream: Callable[[], Iterable[bytes]] | None = None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    routes: dict[str, Route]
    requests: list[tuple[str, dict[str, str]]]

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that time out hang up early; that is expected, not worth a traceback."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        self.server.requests.append((self.path, dict(self.headers.items())))
        route = self.server.routes.get(self.path, Route(b"not found", 404))
        if route.delay:
            time.sleep(route.delay)
        self.send_response(route.status)
        for name, value in route.headers.items():
            self.send_header(name, value)
        if route.content_length:
            self.send_header("Content-Length", str(len(route.body)))
        self.end_headers()
        for chunk in route.stream() if route.stream is not None else (route.body,):
            self.wfile.write(chunk)

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet."""


class LoopbackServer:
    """A real HTTP server on 127.0.0.1 whose answers each test sets with :meth:`route`."""

    def __init__(self, server: _Server) -> None:
        self._server = server
        host, port = server.server_address[:2]
        self.base_url = f"http://{host!s}:{port}"

    @property
    def requests(self) -> list[tuple[str, dict[str, str]]]:
        """``(path, headers)`` of every request received, in order."""
        return self._server.requests

    def url(self, path: str) -> str:
        return self.base_url + path

    def route(
        self,
        path: str,
        body: bytes = b"",
        *,
        content_type: str | None = "text/html; charset=utf-8",
        **options: object,
    ) -> str:
        """Answer ``path`` with ``body``; return the full URL. Options are :class:`Route`'s."""
        route = Route(body, **options)  # type: ignore[arg-type]
        if content_type is not None:
            route.headers.setdefault("Content-Type", content_type)
        self._server.routes[path] = route
        return self.url(path)

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        """Answer ``path`` with a redirect to ``location``; return the full URL."""
        return self.route(path, status=status, headers={"Location": location}, content_type=None)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    """A loopback HTTP server for one test (robots.txt is a 404 unless a test routes it)."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.routes = {}
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield LoopbackServer(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def article_html() -> bytes:
    return (PAGES / "article.html").read_bytes()


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests must not be sent through a proxy set in the environment."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _own_cache_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """What feedsift caches (Spark's class archive) goes to the run's temporary folder, not
    the user's ``~/.cache``."""
    monkeypatch.setenv("FEEDSIFT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*.json from the current extractor (review the diff!)",
    )


# --- scripted loopback servers for the fetcher: answers in sequence, timed requests --------


@dataclass
class Reply:
    """One answer of a :class:`ScriptedServer`."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  #: seconds to wait before answering
    reset: bool = False  #: drop the connection with a TCP reset instead of answering
    content_type: str | None = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Hit:
    """One request a :class:`ScriptedServer` received, with server-side times (monotonic)."""

    path: str
    headers: dict[str, str]
    began: float  #: when the request line had been read
    answered: float  #: when the answer began (after the reply's delay), before its bytes


class _ScriptedHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    scripts: dict[str, list[Reply]]
    hits: list[Hit]

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients hang up early and resets are on purpose: no tracebacks."""


class _ScriptedHandler(BaseHTTPRequestHandler):
    server: _ScriptedHTTPServer

    def do_GET(self) -> None:
        began = time.monotonic()
        script = self.server.scripts.get(self.path) or [Reply(b"not found", 404)]
        reply = script.pop(0) if len(script) > 1 else script[0]  # the last reply repeats
        if reply.delay:
            time.sleep(reply.delay)
        self.server.hits.append(Hit(self.path, dict(self.headers.items()), began, time.monotonic()))
        if reply.reset:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        self.send_response(reply.status)
        headers = dict(reply.headers)
        if reply.content_type is not None:
            headers.setdefault("Content-Type", reply.content_type)
        headers.setdefault("Content-Length", str(len(reply.body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet."""


class ScriptedServer:
    """A real HTTP server on 127.0.0.1 that answers each path with a script of replies."""

    def __init__(self, server: _ScriptedHTTPServer) -> None:
        self._server = server
        self.port = int(server.server_address[1])
        self.base_url = f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base_url + path

    def script(self, path: str, *replies: Reply) -> str:
        """Answer ``path`` with ``replies`` in turn, the last one from then on; return the URL."""
        self._server.scripts[path] = list(replies) or [Reply()]
        return self.url(path)

    def hits(self, path: str | None = None) -> list[Hit]:
        """The requests received (for ``path`` only, if given), in arrival order."""
        hits = sorted(self._server.hits, key=lambda hit: hit.began)
        return [hit for hit in hits if path is None or hit.path == path]


@pytest.fixture
def scripted() -> Iterator[Callable[[], ScriptedServer]]:
    """Start scripted loopback servers on demand (each one is a host of its own)."""
    servers: list[_ScriptedHTTPServer] = []

    def start() -> ScriptedServer:
        server = _ScriptedHTTPServer(("127.0.0.1", 0), _ScriptedHandler)
        server.scripts, server.hits = {}, []
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return ScriptedServer(server)

    try:
        yield start
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


# --- PostgreSQL: one server per session, one fresh database per test -----------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server on 127.0.0.1 for the whole session (skipped without binaries)."""
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(NO_BINARIES)
    server = PostgresServer(bindir).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseTarget:
    """Where a new feedsift database goes: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "feedsift.db"
    return str(request.getfixturevalue("postgres_url"))

"""Shared fixtures: a real HTTP server on loopback, and the fixture pages."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

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
        self.wfile.write(route.body)

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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*.json from the current extractor (review the diff!)",
    )

"""The inspector page over real HTTP: a page fetched by URL from the loopback test web (the
server allowing private addresses), the same refused by the SSRF guard or from another
origin, and the marked page in its sandboxed frame, inert and escaped."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import LoopbackServer
from feedsift.server import ServerOptions
from live_app import serve_app
from test_server_api import BODY_LIMIT, PAGE, SENTENCE, _error
from test_server_pages import EVIL_PAGE, LOG_URL, _page
from test_server_site_pages import _own

#: A page with markup that must not survive into the marked copy.
ACTIVE = PAGE.replace(
    b'<p class="byline">',
    b'<img src="http://203.0.113.7/x.png" alt="the lamp room" onerror="alert(1)">'
    b'<a href="javascript:alert(2)" onclick="alert(3)">a link</a><p class="byline">',
)


@pytest.fixture
def open_server(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from serve_app(ServerOptions(db=tmp_path / "f.db", max_body_bytes=BODY_LIMIT,
                                       allow_private_addresses=True))  # fmt: skip


@pytest.fixture
def guarded_server(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from serve_app(ServerOptions(db=tmp_path / "f.db", max_body_bytes=BODY_LIMIT))


def _frame(page: str) -> str:
    """The marked page: the sandboxed frame's document, unescaped."""
    start = page.index('<iframe class="page" sandbox=""')
    srcdoc = page[page.index('srcdoc="', start) + 8 : page.index('"></iframe>', start)]
    return html.unescape(srcdoc)


def test_a_page_fetched_by_url(open_server: httpx.Client, web: LoopbackServer) -> None:
    url = web.route("/posts/log/", PAGE)
    page = _page(open_server.post("/inspect", data={"url": url, "html": ""},
                                  headers=_own(open_server)))  # fmt: skip
    assert SENTENCE in page and '<tr class="kept">' in page
    assert html.escape(url) in page  # the form keeps the URL
    assert any(path == "/posts/log/" for path, _ in web.requests)


def test_fetches_are_guarded(
    guarded_server: httpx.Client, open_server: httpx.Client, web: LoopbackServer
) -> None:
    url = web.route("/posts/log/", PAGE)
    private = guarded_server.post("/inspect", data={"url": url}, headers=_own(guarded_server))
    assert "is a loopback address (use --allow-private" in _page(private, 400)
    elsewhere = open_server.post("/inspect", data={"url": url},
                                 headers={"Origin": "https://evil.example"})  # fmt: skip
    assert "evil.example" in _error(elsewhere, 403)
    assert web.requests == []  # neither fetched anything


def test_the_marked_page_is_inert(guarded_server: httpx.Client) -> None:
    page = _page(guarded_server.post("/inspect", data={"html": ACTIVE.decode()}))
    frame = _frame(page)
    assert 'data-fs="kept"' in frame and 'data-fs="removed"' in frame
    assert 'data-fs="title"' in frame and "the title is a field of its own" in frame
    lowered = frame.lower()
    for active in ("<script", "onerror", "onclick", "javascript:", "<img", "href=", "src="):
        assert active not in lowered, active
    assert "[the lamp room]" in frame and "a link" in frame  # alt text and link text stay
    wrapped = PAGE.replace(b"<body>", b'<body><form action="/x" method="post">')
    in_form = _frame(_page(guarded_server.post("/inspect", data={"html": wrapped.decode()})))
    assert SENTENCE in in_form and "<form" not in in_form  # a page-wide form: unwrapped
    evil = _frame(_page(guarded_server.post("/inspect", data={"html": EVIL_PAGE.decode()})))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in evil  # page text stays text


def test_an_uploaded_page(guarded_server: httpx.Client) -> None:
    files = {"file": ("log.html", PAGE, "text/html")}
    page = _page(guarded_server.post("/inspect", files=files, data={"url": LOG_URL}))
    assert SENTENCE in page and '<tr class="kept">' in page and html.escape(LOG_URL) in page
    unknown_type = {"file": ("log.bin", PAGE, "application/octet-stream")}  # sniffed
    assert SENTENCE in _page(guarded_server.post("/inspect", files=unknown_type))
    binary = {"file": ("x.png", b"\x89PNG\r\n\x1a\n" + bytes(300), "image/png")}
    assert _error(guarded_server.post("/inspect", files=binary), 415)


def test_bad_uploads(guarded_server: httpx.Client) -> None:
    two = [("file", ("a.html", PAGE, "text/html")), ("file", ("b.html", PAGE, "text/html"))]
    assert "files" in _error(guarded_server.post("/inspect", files=two), 400).lower()
    no_boundary = guarded_server.post("/inspect", content=b"--x\r\n",
                                      headers={"Content-Type": "multipart/form-data"})
    assert "boundary" in _error(no_boundary, 400)
    big = {"file": ("big.html", b"<p>" + b"x" * BODY_LIMIT, "text/html")}
    assert str(BODY_LIMIT) in _error(guarded_server.post("/inspect", files=big), 413)

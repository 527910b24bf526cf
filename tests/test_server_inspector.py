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
from test_server_api import BODY_LIMIT, PAGE, SENTENCE, _error, _serve
from test_server_pages import BROWSER, EVIL_PAGE, _page

#: A page with markup that must not survive into the marked copy.
ACTIVE = PAGE.replace(
    b'<p class="byline">',
    b'<img src="http://203.0.113.7/x.png" alt="the lamp room" onerror="alert(1)">'
    b'<a href="javascript:alert(2)" onclick="alert(3)">a link</a><p class="byline">',
)


@pytest.fixture
def open_server(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from _serve(ServerOptions(db=tmp_path / "f.db", max_body_bytes=BODY_LIMIT,
                                    allow_private_addresses=True))  # fmt: skip


@pytest.fixture
def guarded_server(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from _serve(ServerOptions(db=tmp_path / "f.db", max_body_bytes=BODY_LIMIT))


def _own(client: httpx.Client) -> dict[str, str]:
    return {"Origin": str(client.base_url).rstrip("/"), **BROWSER}


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
    evil = _frame(_page(guarded_server.post("/inspect", data={"html": EVIL_PAGE.decode()})))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in evil  # page text stays text

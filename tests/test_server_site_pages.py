"""``feedsift serve``'s feeds and sites pages, and its error pages, over real HTTP (the server
and database of ``test_server_api.py``; each test that writes has a database of its own)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from feedsift.server import ServerOptions
from feedsift.storage import Store
from live_app import serve_app
from test_server_api import BODY_LIMIT, COAST, FEED, TOKEN, _error, _fill
from test_server_pages import BROWSER, _page


def _filled(tmp_path: Path) -> Path:
    """A database of the API tests' articles, feed, template and errors."""
    path = tmp_path / "feedsift.db"
    with Store(path) as store:
        _fill(store)
    return path


@pytest.fixture
def web(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from serve_app(ServerOptions(db=_filled(tmp_path), max_body_bytes=BODY_LIMIT))


def _own(client: httpx.Client) -> dict[str, str]:
    """The headers a browser sends with a form posted from one of the server's pages."""
    return {"Origin": str(client.base_url).rstrip("/"), **BROWSER}


def test_the_feeds_page_lists_adds_and_removes(web: httpx.Client) -> None:
    page = _page(web.get("/feeds"))
    assert html.escape(FEED) in page and f'href="/sites/{COAST}"' in page
    assert 'action="/feeds"' in page and "/remove" in page
    added = web.post("/feeds", data={"url": "http://elsewhere.example/rss", "as_is": "on"},
                     headers=_own(web))  # fmt: skip
    assert "Subscribed to http://elsewhere.example/rss" in _page(added, 201)
    again = web.post("/feeds", data={"url": "http://elsewhere.example/rss", "as_is": "on"},
                     headers=_own(web))  # fmt: skip
    assert "Already subscribed" in _page(again, 200)
    feeds = web.get("/api/feeds").json()["feeds"]
    new_id = next(f["id"] for f in feeds if f["url"] == "http://elsewhere.example/rss")
    removed = _page(web.post(f"/feeds/{new_id}/remove", headers=_own(web)))
    assert "Unsubscribed from http://elsewhere.example/rss" in removed
    assert len(web.get("/api/feeds").json()["feeds"]) == len(feeds) - 1


def test_form_writes_from_elsewhere_are_refused(web: httpx.Client) -> None:
    form = {"url": "http://elsewhere.example/rss", "as_is": "on"}
    elsewhere = web.post("/feeds", data=form, headers={"Origin": "https://evil.example"})
    assert "evil.example" in _error(elsewhere, 403)
    assert "Origin" in _error(web.post("/feeds", data=form), 403)  # no Origin: not a browser
    cross = web.post("/feeds", data=form, headers={"Sec-Fetch-Site": "cross-site"})
    assert _error(cross, 403)
    assert _error(web.post("/feeds", data=form, headers={"Origin": "null"}), 403)
    assert _error(web.post("/feeds", data=form, headers={"Origin": "http://[::1"}), 403)
    proxied = str(web.base_url).replace("http://", "https://").rstrip("/")  # a TLS proxy
    assert web.post("/feeds", data={"url": "http://tls.example/rss", "as_is": "on"},
                    headers={"Origin": proxied}).status_code == 201
    same = web.post("/feeds", data=form, headers={"Origin": "null",  # the origin withheld
                                                  "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201
    assert _error(web.post("/feeds/1/remove", headers={"Origin": "http://x.example"}), 403)
    assert len(web.get("/api/feeds").json()["feeds"]) == 3  # the refused ones stored nothing


def test_bad_form_posts(web: httpx.Client) -> None:
    own = {"Origin": str(web.base_url).rstrip("/")}
    assert "address" in _error(web.post("/feeds", data={"url": " "}, headers=own), 400)
    json_body = web.post("/feeds", json={"url": "x"}, headers=own)
    assert "form" in _error(json_body, 415)
    assert "9999" in _error(web.post("/feeds/9999/remove", headers=own), 404)
    private = web.post("/feeds", data={"url": "http://127.0.0.1:9/feed"}, headers=own)
    assert _error(private, 400)  # the SSRF guard: no fetch into a private network


def test_the_sites_and_a_site(web: httpx.Client) -> None:
    sites = _page(web.get("/sites"))
    assert f'href="/sites/{COAST}"' in sites and "news.example.org" in sites
    page = _page(web.get(f"/sites/{COAST}"))
    assert f"<h1>Site {COAST}</h1>" in page
    assert "|html|body|div[@class=post]|h1" in page  # the template's title path
    assert "1.00 against the page level&#x27;s 0.00 on the same 6 items" in page
    assert "HTTP 500" in page and "hybrid-diffpost" in page
    assert html.escape(f"/articles?site={COAST}") in page
    assert _page(web.get(f"/sites/www.{COAST}")) == page  # the store's key: no www.


def test_error_pages_for_browsers_json_for_the_rest(web: httpx.Client) -> None:
    missing = web.get("/sites/nowhere.example", headers=BROWSER)
    page = _page(missing, 404)
    assert "<h1>Error 404</h1>" in page and "knows nothing of the site nowhere.example" in page
    assert "nowhere.example" in _error(web.get("/sites/nowhere.example"), 404)
    assert _error(web.get("/api/sites/nowhere.example", headers=BROWSER), 404)  # the API: JSON
    unknown = _page(web.get("/no/such/page", headers=BROWSER), 404)
    assert "no such endpoint: /no/such/page" in unknown
    method = web.delete("/articles", headers=BROWSER)
    assert "Error 405" in _page(method, 405) and "GET" in method.headers["allow"]


@pytest.fixture
def signed_web(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from serve_app(ServerOptions(db=_filled(tmp_path), token=TOKEN))


def test_with_a_token_the_pages_offer_no_write_forms(signed_web: httpx.Client) -> None:
    page = _page(signed_web.get("/feeds"))
    assert 'action="/feeds"' not in page and "/remove" not in page
    assert "POST /api/feeds" in page
    refused = signed_web.post("/feeds", data={"url": "x"}, headers=_own(signed_web))
    assert refused.status_code == 401

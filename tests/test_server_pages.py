"""``feedsift serve``'s HTML pages over real HTTP (the server of ``test_server_api.py``, on
a database filled as there plus one article whose stored page is real HTML with a script
written as text in it, which must come back escaped)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from feedsift.api import extract
from feedsift.server import ServerOptions
from feedsift.storage import NewArticle, NewDocument, Store
from live_app import serve_app
from test_server_api import BODY_LIMIT, NOW, PAGE, SENTENCE, TOKEN, _error, _fill

LOG_URL = "https://coast.example.org/log/"
EVIL = ("Visitors once chalked <script>alert(1)</script> on the lamp room door, and the "
        "keepers left it there for a whole summer before the inspector saw it.")  # fmt: skip
EVIL_PAGE = PAGE.replace(
    b"<p>Some of them survive", f"<p>{html.escape(EVIL)}</p>\n<p>Some of them survive".encode()
)
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
BROWSER = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}
FORM = "application/x-www-form-urlencoded"


def _store_log(store: Store) -> int:
    """The keepers' log page, stored with its real HTML, and its article."""
    headers = (("Content-Type", "text/html; charset=utf-8"),)
    document_id, _ = store.documents.add(NewDocument(
        LOG_URL, "coast.example.org", LOG_URL, LOG_URL, 200, headers, EVIL_PAGE, NOW, 0.01,
    ))  # fmt: skip
    article = extract(EVIL_PAGE, LOG_URL)
    added = store.articles.add(NewArticle(document_id, "coast.example.org", LOG_URL, article,
                                          "hash-log", 99, NOW, 0.01))  # fmt: skip
    assert added is not None
    return added


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    path = tmp_path_factory.mktemp("pages") / "feedsift.db"
    with Store(path) as store:
        ids = _fill(store)
        with store.transaction():
            ids["log"] = _store_log(store)
        return path, ids


@pytest.fixture(scope="module")
def web(db: tuple[Path, dict[str, int]]) -> Iterator[httpx.Client]:
    yield from serve_app(ServerOptions(db=db[0], max_body_bytes=BODY_LIMIT))


def _page(response: httpx.Response, status: int = 200) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "script-src" not in response.headers["content-security-policy"]
    assert "<script" not in response.text.lower()
    return response.text


def test_the_home_page_for_browsers_and_json_for_the_rest(web: httpx.Client) -> None:
    page = _page(web.get("/", headers=BROWSER))
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    for href in ("/articles", "/inspect", "/openapi.json"):
        assert f'href="{href}"' in page
    assert web.get("/").json()["openapi"] == "/openapi.json"  # httpx's Accept: */*
    as_json = web.get("/", headers={"Accept": "application/json"})
    assert "GET /articles" in as_json.json()["endpoints"]


def test_the_articles_listed_searched_and_paged(web: httpx.Client) -> None:
    page = _page(web.get("/articles"))
    for title in ("How the lamps were trimmed", "Storms of the northern coast",
                  "The keepers' log"):  # fmt: skip
        assert html.escape(title) in page
    assert page.index("The keepers&#x27; log") < page.index("How the lamps were trimmed")
    searched = _page(web.get("/articles", params={"q": "lamps", "kind": "", "site": ""}))
    assert "How the lamps were trimmed" in searched and "Elections" not in searched
    assert "<th>match</th>" in searched and "<mark>" in searched  # the snippet, marked
    first = _page(web.get("/articles", params={"limit": "2", "site": "coast.example.org"}))
    assert "offset=2" in first and "site=coast.example.org" in first
    assert "Elections" not in first


def test_one_article(web: httpx.Client, db: tuple[Path, dict[str, int]]) -> None:
    storms = db[1]["/storms/"]
    page = _page(web.get(f"/articles/{storms}"))
    assert "<h1>Storms of the northern coast</h1>" in page
    assert "<p>The storm broke at dawn; the keepers wrote it in the log.</p>" in page
    assert f'href="/articles/{storms}/inspect"' in page
    assert 'rel="noopener noreferrer nofollow"' in page
    log = _page(web.get(f"/articles/{db[1]['log']}"))
    assert "Ada Lovelace" in log and ESCAPED in log and "Where each field came from" in log
    assert "9999999" in _error(web.get("/articles/9999999"), 404)  # errors stay JSON
    assert _error(web.get("/articles/9999999/inspect"), 404)


def test_the_inspector_of_a_posted_page(web: httpx.Client) -> None:
    form = _page(web.get("/inspect"))
    assert 'action="/inspect"' in form and "<textarea" in form
    response = web.post("/inspect", data={"html": EVIL_PAGE.decode(), "url": LOG_URL})
    page = _page(response)
    assert '<tr class="kept">' in page and '<tr class="removed">' in page
    assert ">KEPT<" in page and ">removed<" in page
    assert SENTENCE in page and ESCAPED in page
    assert "blocks</th><td>" in page and " kept of " in page


def test_the_inspector_refuses_what_it_cannot_read(web: httpx.Client) -> None:
    assert FORM in _error(web.post("/inspect", content=PAGE,
                                   headers={"Content-Type": "text/html"}), 415)  # fmt: skip
    big = {"html": "x" * BODY_LIMIT}
    assert str(BODY_LIMIT) in _error(web.post("/inspect", data=big), 413)
    assert "empty" in _error(web.post("/inspect", data={"html": "  "}), 400)


def test_the_inspector_of_a_stored_page(web: httpx.Client, db: tuple[Path, dict[str, int]]) -> None:
    page = _page(web.get(f"/articles/{db[1]['log']}/inspect"))
    assert ">KEPT<" in page and ">removed<" in page and SENTENCE in page and ESCAPED in page


def test_the_pages_are_not_in_the_api_description(web: httpx.Client) -> None:
    paths = web.get("/openapi.json").json()["paths"]
    assert not [path for path in paths if not path.startswith("/api/") and path != "/"]


def test_the_form_post_needs_the_token_when_there_is_one(
    db: tuple[Path, dict[str, int]],
) -> None:
    for client in serve_app(ServerOptions(db=db[0], token=TOKEN)):
        assert "token" in _error(client.post("/inspect", data={"html": "<p>x</p>"}), 401)
        assert client.get("/inspect").status_code == 200


def test_the_site_level_says_its_part(web: httpx.Client, db: tuple[Path, dict[str, int]]) -> None:
    """The coast has a learned template: the inspection of its stored page, and of a page
    posted with a URL on that site, add the template's view of each block."""
    page = _page(web.get(f"/articles/{db[1]['log']}/inspect"))
    assert "<th>site level (coast.example.org)</th>" in page
    assert "template v1 of http://coast.example.org/feed.xml" in page
    assert "<th>site level</th>" in page and '<td class="site">' in page
    answer = web.post("/api/inspect", params={"url": LOG_URL}, content=PAGE,
                      headers={"Content-Type": "text/html"})  # fmt: skip
    site_level = answer.json()["site_level"]
    assert site_level["site"] == "coast.example.org"
    assert site_level["consulted"][0].startswith("template v1 of http://coast.example.org/")
    assert len(site_level["notes"]) == len(answer.json()["blocks"])
    elsewhere = web.post("/api/inspect", params={"url": "https://else.example/x"},
                         content=PAGE, headers={"Content-Type": "text/html"})  # fmt: skip
    assert "site_level" not in elsewhere.json()

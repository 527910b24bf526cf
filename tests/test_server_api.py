"""``feedsift serve``'s JSON API over real HTTP: the app runs in uvicorn on 127.0.0.1 (a
thread per server, one server per set of options for the whole module) and the tests talk
to it with httpx; pages to fetch and feeds to find come from the loopback web of
``conftest.py``. The store is a SQLite file the module fills through the store's own API."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from conftest import LoopbackServer
from feedsift.acquisition.feeds import parse_feed
from feedsift.errors import ConfigError
from feedsift.parsing.page import parse_page
from feedsift.records import Article, BodyPart, PageKind, Provenance
from feedsift.saved_state import pack_state
from feedsift.server import ServerOptions
from feedsift.server.app import build_app
from feedsift.storage import ErrorRecord, NewArticle, NewDocument, NewTemplate, Store
from feedsift.storage.location import DatabaseTarget
from feedsift.templates.learner import FeedTemplate
from live_app import serve_app

NOW = datetime.now(UTC).replace(microsecond=0)
#: The body limit of the test servers: small, so an over-limit body is quick to send.
BODY_LIMIT = 64 * 1024
TOKEN = "s3cret-token"

PAGE = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The keepers' log | Coast Notes</title>
</head><body><nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/archive/">
Archive</a></nav><article><h1>The keepers' log</h1><p class="byline">By Ada Lovelace,
3 May 2024</p>
<p>Every lighthouse kept a log book in which the keepers wrote the time of each lamp change,
the weather at dusk and at dawn, and every ship that passed close enough to be named.</p>
<p>The books were collected each spring by the district inspector, who read them by the
fire of the keepers' kitchen and signed the last page before he left.</p>
<p>Some of them survive in the county archive, their pages stiff with salt, and tell of
storms that no newspaper of the time thought worth a line.</p></article>
<footer><p>Share this post</p><a href="/privacy/">Privacy</a></footer></body></html>"""
SENTENCE = "Every lighthouse kept a log book in which the keepers wrote the time"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4

# --- the store ----------------------------------------------------------------------------

COAST = "coast.example.org"
NEWS = "news.example.org"
FEED = f"http://{COAST}/feed.xml"
#: (site, path, title, text, kind, method, age in days, duplicate of the previous one)
ARTICLES = (
    (COAST, "/lamps/", "How the lamps were trimmed", "The wick was trimmed at noon and the "
     "brass polished before dusk.", "article", "page", 40, False),
    (COAST, "/storms/", "Storms of the northern coast", "The storm broke at dawn; the "
     "keepers wrote it in the log.", "article", "hybrid-diffpost", 2, False),
    (NEWS, "/elections/", "Elections in the canton", "Voters went to the polls on Sunday.",
     "article", "page", 1, False),
    (NEWS, "/elections-copy/", "Elections in the canton", "Voters went to the polls on "
     "Sunday.", "article", "page", 1, True),
    (NEWS, "/", "News from the canton", "Elections in the canton", "listing", "page", 0, False),
)  # fmt: skip
SENTENCES = (
    "The harbour wall was rebuilt in granite after the winter storms of that year.",
    "Fishermen still moor their boats along the eastern quay every single evening.",
    "A small museum keeps the old lamps and the keeper's log books on show.",
    "Visitors climb the hill behind the town to watch the tide come in at dusk.",
)


def _store_article(store: Store, number: int, row: tuple[object, ...], first: int | None) -> int:
    site, path, title, text, kind, method, age, duplicate = row
    url = f"https://{site}{path}"
    fetched = NOW - timedelta(days=int(str(age)))
    document_id, _ = store.documents.add(NewDocument(
        url, str(site), url, url, 200, (("Content-Type", "text/html"),), b"<p>x</p>", fetched,
        0.01,
    ))  # fmt: skip
    article = Article((BodyPart("paragraph", str(text)),), str(title),
                      Provenance(str(method), "v1", 0.9), kind=PageKind(kind), url=url,
                      language="en")  # fmt: skip
    added = store.articles.add(NewArticle(
        document_id, str(site), url, article, f"hash{number}", number, fetched, 0.01,
        duplicate_of=first if duplicate else None,
    ))  # fmt: skip
    assert added is not None
    return added


def _post_url(n: int) -> str:
    return f"http://{COAST}/posts/{n}/"


def _body(n: int) -> str:
    return " ".join(SENTENCES[(n + i) % len(SENTENCES)] for i in range(4)) + f" Post {n} ends."


def _learned_template() -> FeedTemplate:
    """A template learned for real from a 3-item feed and its 3 post pages."""
    items = "".join(f"<item><title>Title {n}</title><link>{_post_url(n)}</link>"
                    f"<description>{_body(n)}</description></item>" for n in (1, 2, 3))  # fmt: skip
    feed = parse_feed(
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>Coast</title>'
        f"<link>http://{COAST}/</link><description>Notes</description>{items}</channel></rss>"
        .encode(), FEED,
    )  # fmt: skip
    pages = {_post_url(n): parse_page(
        f'<html><body><nav><a href="/">Home</a></nav><div class="post"><h1>Title {n}</h1>'
        f'<div class="content"><p>{_body(n)}</p></div></div></body></html>', _post_url(n),
    ) for n in (1, 2, 3)}  # fmt: skip
    return FeedTemplate().fit(feed.sample(), pages)


def _checks() -> bytes:
    """A combiner's saved checks: the template's titles right, the page level's wrong."""
    checks = {"page": {"title": [[0.0, 0.0]] * 6}, "template": {"title": [[1.0, 0.0]] * 6}}
    return pack_state("combiner", 1, {"min_checks": 3, "window": 12, "items": 6,
                                      "checks": checks})  # fmt: skip


def _fill(store: Store) -> dict[str, int]:
    """The articles, a feed of the coast with a learned template and errors; their ids."""
    ids: dict[str, int] = {}
    previous: int | None = None
    with store.transaction():
        for number, row in enumerate(ARTICLES):
            previous = ids[str(row[1])] = _store_article(store, number, row, previous)
        store.feeds.add(FEED, COAST, now=NOW, interval=3600.0)
        feed = store.feeds.get(FEED)
        assert feed is not None
        learned = _learned_template()
        store.templates.add(NewTemplate(feed.id, COAST, NOW, NOW, 3, str(learned.key_path),
                                        learned.to_bytes(), _checks()))  # fmt: skip
        store.errors.add(ErrorRecord(NOW, "page", feed.id, _post_url(9), "HTTP 500"))
        store.errors.add(ErrorRecord(NOW, "extract", None, _post_url(8), "unparsable HTML"))
        store.errors.add(ErrorRecord(NOW, "extract", None, f"https://{NEWS}/x", "elsewhere"))
    return ids


# --- servers ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    path = tmp_path_factory.mktemp("serve") / "feedsift.db"
    with Store(path) as store:
        return path, _fill(store)


@pytest.fixture(scope="module")
def api(db: tuple[Path, dict[str, int]]) -> Iterator[httpx.Client]:
    """The server with its defaults (on loopback, no token, private addresses refused)."""
    yield from serve_app(ServerOptions(db=db[0], max_body_bytes=BODY_LIMIT))


@pytest.fixture(scope="module")
def open_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A server said to listen on every address (so with a token) that may fetch loopback
    pages, on an empty database of its own."""
    options = ServerOptions(db=tmp_path_factory.mktemp("open") / "feeds.db", host="0.0.0.0",
                            token=TOKEN, allow_private_addresses=True)  # fmt: skip
    yield from serve_app(options)


SIGNED = {"Authorization": f"Bearer {TOKEN}"}


def _extract(client: httpx.Client, body: bytes, content_type: str, **params: str) -> httpx.Response:
    """POST ``body`` to /api/extract as ``content_type``, with ``params`` in the query."""
    headers = {"Content-Type": content_type}
    return client.post("/api/extract", params=params, content=body, headers=headers)


def _error(response: httpx.Response, status: int) -> str:
    """The one-line reason of a JSON error answer with ``status``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    reason = response.json()["error"]
    assert isinstance(reason, str) and reason and "\n" not in reason
    assert "Traceback" not in response.text
    return reason


# --- POST /api/extract ---------------------------------------------------------------------


def test_the_article_of_an_html_body(api: httpx.Client) -> None:
    response = _extract(api, PAGE, "text/html; charset=utf-8", url="https://coast.example.org/log/")
    assert response.status_code == 200, response.text
    article = response.json()
    assert article["title"] == "The keepers' log" and article["kind"] == "article"
    assert article["url"] == "https://coast.example.org/log/"
    assert article["authors"] == ["Ada Lovelace"]
    assert SENTENCE in article["text"] and "Share this post" not in article["text"]
    assert "Home" not in article["text"]


def test_options_and_formats_of_an_extraction(api: httpx.Client) -> None:
    octets = "application/octet-stream"
    text = _extract(api, PAGE, octets, format="txt", metadata="0")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert SENTENCE in text.text
    markdown = _extract(api, PAGE, octets, format="markdown", comments="1")
    assert markdown.status_code == 200 and markdown.text.startswith("# The keepers' log")
    assert "format" in _error(_extract(api, PAGE, octets, format="pdf"), 400)
    assert "yes/no" in _error(_extract(api, PAGE, octets, comments="perhaps"), 400)
    assert "comment" in _error(_extract(api, PAGE, octets, comment="1"), 400)


def test_the_article_of_a_fetched_url(open_api: httpx.Client, web: LoopbackServer) -> None:
    url = web.route("/2024/keepers-log/", PAGE)
    response = open_api.post("/api/extract", json={"url": url}, headers=SIGNED)
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "The keepers' log"
    assert response.json()["url"] == url and SENTENCE in response.json()["text"]
    assert [path for path, _ in web.requests] == ["/robots.txt", "/2024/keepers-log/"]


def test_a_private_address_is_refused_unless_allowed(
    api: httpx.Client, web: LoopbackServer
) -> None:
    url = web.route("/2024/keepers-log/", PAGE)
    reason = _error(api.post("/api/extract", json={"url": url}), 400)
    assert "loopback address" in reason and not web.requests  # refused before any request
    assert "http or https" in _error(api.post("/api/extract", json={"url": "file:///etc/passwd"}),
                                     400)  # fmt: skip


def test_a_fetch_that_fails_says_why(open_api: httpx.Client, web: LoopbackServer) -> None:
    missing = _error(open_api.post("/api/extract", json={"url": web.url("/gone/")},
                                   headers=SIGNED), 502)  # fmt: skip
    assert "404" in missing
    image = web.route("/logo.png", PNG, content_type="image/png")
    assert "image/png" in _error(open_api.post("/api/extract", json={"url": image},
                                               headers=SIGNED), 502)  # fmt: skip


def test_bodies_that_are_no_page_are_refused(api: httpx.Client) -> None:
    assert "PNG" in _error(_extract(api, PNG, "application/octet-stream"), 415)
    assert "PNG" in _error(_extract(api, PNG, "text/html"), 415)
    for kind in ("image/png", "text/plain", "application/x-www-form-urlencoded"):
        assert kind in _error(_extract(api, PAGE, kind), 415)
    assert "empty" in _error(_extract(api, b"  ", "text/html"), 400)
    assert "not JSON" in _error(_extract(api, b"{url", "application/json"), 400)
    assert '"url"' in _error(api.post("/api/extract", json={"link": "x"}), 400)
    assert "object" in _error(api.post("/api/extract", json=["https://example.org/"]), 400)


def test_a_body_over_the_limit_is_refused_while_it_arrives(api: httpx.Client) -> None:
    big = PAGE + b"<p>" + b"x" * BODY_LIMIT + b"</p>"
    assert str(BODY_LIMIT) in _error(_extract(api, big, "text/html"), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192]

    headers = {"Content-Type": "text/html"}
    streamed = api.post("/api/extract", content=chunks(), headers=headers)
    assert "content-length" not in streamed.request.headers
    assert str(BODY_LIMIT) in _error(streamed, 413)
    assert _extract(api, PAGE, "text/html").status_code == 200  # and the server goes on


# --- GET /api/articles ---------------------------------------------------------------------


def _titles(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [article["title"] for article in response.json()["articles"]]


def test_stored_articles_newest_first_without_duplicates(api: httpx.Client) -> None:
    response = api.get("/api/articles")
    assert _titles(response) == ["News from the canton", "Elections in the canton",
                                 "Storms of the northern coast", "How the lamps were trimmed"]
    page = response.json()
    assert (page["total"], page["limit"], page["offset"]) == (4, 20, 0)
    first = page["articles"][0]
    assert first["site"] == NEWS and first["kind"] == "listing" and first["method"] == "page"
    assert first["url"] == f"https://{NEWS}/" and "text" not in first
    assert len(_titles(api.get("/api/articles?duplicates=1"))) == 5


def test_articles_filtered_and_paged(api: httpx.Client) -> None:
    assert _titles(api.get("/api/articles?site=WWW.coast.example.org")) == [
        "Storms of the northern coast", "How the lamps were trimmed"]  # fmt: skip
    assert _titles(api.get("/api/articles?since=7d&site=coast.example.org")) == [
        "Storms of the northern coast"]  # fmt: skip
    assert _titles(api.get("/api/articles?kind=listing")) == ["News from the canton"]
    assert _titles(api.get("/api/articles?method=hybrid-diffpost")) == [
        "Storms of the northern coast"]  # fmt: skip
    paged = api.get("/api/articles?limit=2&offset=1")
    assert _titles(paged) == ["Elections in the canton", "Storms of the northern coast"]
    assert paged.json()["total"] == 4
    assert _titles(api.get("/api/articles?site=nowhere.example")) == []


def test_articles_searched(api: httpx.Client) -> None:
    response = api.get("/api/articles?q=keepers OR storm")
    assert _titles(response) == ["Storms of the northern coast"]
    hit = response.json()["articles"][0]
    assert hit["id"] and hit["score"] > 0 and "**" in hit["snippet"]
    assert sorted(_titles(api.get("/api/articles?q=canton&site=news.example.org"))) == [
        "Elections in the canton", "News from the canton"]  # fmt: skip
    assert _titles(api.get("/api/articles?q=canton&site=coast.example.org")) == []
    assert api.get("/api/articles?q=canton&limit=1&offset=1").json()["total"] == 2


def test_bad_article_parameters_are_refused(api: httpx.Client) -> None:
    assert "kind" in _error(api.get("/api/articles?kind=poem"), 400)
    assert "since" in _error(api.get("/api/articles?since=last tuesday"), 400)
    assert "limit" in _error(api.get("/api/articles?limit=1000"), 400)
    assert "offset" in _error(api.get("/api/articles?offset=-1"), 400)
    assert "q" in _error(api.get("/api/articles?q=storm&kind=article"), 400)
    assert "search query" in _error(api.get('/api/articles?q="unclosed'), 400)
    assert "sort" in _error(api.get("/api/articles?sort=title"), 400)
    assert "limit" in _error(api.get("/api/articles?limit=²"), 400)  # a digit, not a number
    everything = api.get("/api/articles?since=" + "9" * 400 + "d")  # since the beginning
    assert everything.status_code == 200 and everything.json()["total"] >= 1


def test_one_stored_article(api: httpx.Client, db: tuple[Path, dict[str, int]]) -> None:
    article_id = db[1]["/storms/"]
    response = api.get(f"/api/articles/{article_id}")
    assert response.status_code == 200, response.text
    stored = response.json()
    assert stored["id"] == article_id and stored["site"] == COAST
    assert stored["article"]["title"] == "Storms of the northern coast"
    assert stored["article"]["provenance"]["method"] == "hybrid-diffpost"
    assert "keepers wrote it in the log" in stored["article"]["text"]
    assert "999999" in _error(api.get("/api/articles/999999"), 404)
    for no_id in ("storms", "9" * 30, "9" * 5000, "-1"):  # beyond 64 bits, beyond int()
        _error(api.get(f"/api/articles/{no_id}"), 404)


# --- feeds ---------------------------------------------------------------------------------

RSS = b"""<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>
<title>Harbour notes</title><link>http://harbour.example/</link><description>d</description>
<item><title>Tides</title><link>http://harbour.example/tides/</link></item></channel></rss>"""


def _feed_urls(client: httpx.Client) -> list[str]:
    response = client.get("/api/feeds")
    assert response.status_code == 200, response.text
    return [feed["url"] for feed in response.json()["feeds"]]


def test_feeds_added_listed_and_removed(open_api: httpx.Client, web: LoopbackServer) -> None:
    feed_url = web.route("/feed.xml", RSS, content_type="application/rss+xml")
    home = web.route("/", b'<html><head><link rel="alternate" type="application/rss+xml" '
                     b'href="/feed.xml"></head><body><p>Harbour</p></body></html>')  # fmt: skip
    added = open_api.post("/api/feeds", json={"url": home}, headers=SIGNED)
    assert added.status_code == 201, added.text
    assert added.json()["found_by"] == "link-tag" and added.json()["feed"]["url"] == feed_url
    assert added.json()["feed"]["title"] == "Harbour notes"
    again = open_api.post("/api/feeds", json={"url": feed_url}, headers=SIGNED)
    assert again.status_code == 200 and again.json()["added"] is False
    as_is = open_api.post("/api/feeds", json={"url": "http://elsewhere.example/rss",
                                              "as_is": True}, headers=SIGNED)  # fmt: skip
    assert as_is.status_code == 201 and as_is.json()["found_by"] == "feed"
    assert sorted(_feed_urls(open_api)) == sorted([feed_url, "http://elsewhere.example/rss"])
    feed_id = as_is.json()["feed"]["id"]
    removed = open_api.delete(f"/api/feeds/{feed_id}", headers=SIGNED)
    assert removed.status_code == 200 and removed.json()["removed"]["id"] == feed_id
    assert _feed_urls(open_api) == [feed_url]
    assert str(feed_id) in _error(open_api.delete(f"/api/feeds/{feed_id}", headers=SIGNED), 404)


def test_a_failed_subscription_stores_nothing(
    api: httpx.Client, open_api: httpx.Client, web: LoopbackServer
) -> None:
    before = _feed_urls(api)
    assert "loopback" in _error(api.post("/api/feeds", json={"url": web.url("/feed.xml")}), 400)
    no_feed = web.route("/plain/", b"<html><body><p>No feed here.</p></body></html>")
    assert "no feed found" in _error(open_api.post("/api/feeds", json={"url": no_feed},
                                                   headers=SIGNED), 422)  # fmt: skip
    assert "as_is" in _error(api.post("/api/feeds", json={"url": "x", "as_is": "yes"}), 400)
    assert "host" in _error(api.post("/api/feeds", json={"url": "http:///feed",
                                                         "as_is": True}), 400)  # fmt: skip
    assert _feed_urls(api) == before and no_feed not in _feed_urls(open_api)


# --- sites, the description, the guard ------------------------------------------------------


def test_what_the_store_knows_of_a_site(api: httpx.Client) -> None:
    response = api.get("/api/sites/www.Coast.example.org")
    assert response.status_code == 200, response.text
    site = response.json()
    assert site["site"] == COAST
    assert site["stats"]["articles"] == 2 and site["stats"]["documents"] == 2
    assert site["methods"] == {"hybrid-diffpost": 1, "page": 1}
    assert [feed["url"] for feed in site["feeds"]] == [FEED]
    (template,) = site["templates"]
    assert template["feed_url"] == FEED and template["version"] == 1 and template["items"] == 3
    assert template["paths"]["title"][0]["support"] == 3 and template["paths"]["content"]
    title = template["fields"]["choices"]["title"]
    assert (title["method"], title["score"], title["page_score"]) == ("template", 1.0, 0.0)
    assert sorted(error["reason"] for error in site["errors"]) == ["HTTP 500", "unparsable HTML"]
    news = api.get(f"/api/sites/{NEWS}").json()
    assert news["stats"]["articles"] == 3 and news["templates"] == [] and news["feeds"] == []
    assert "nowhere.example" in _error(api.get("/api/sites/nowhere.example"), 404)


def test_the_openapi_description_lists_every_endpoint(api: httpx.Client) -> None:
    response = api.get("/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    assert {path: sorted(methods) for path, methods in paths.items() if path != "/"} == {
        "/api/extract": ["post"], "/api/inspect": ["post"], "/api/articles": ["get"],
        "/api/articles/{id}": ["get"],
        "/api/feeds": ["get", "post"], "/api/feeds/{id}": ["delete"],
        "/api/sites/{site}": ["get"],
    }  # fmt: skip
    query = {p["name"] for p in paths["/api/articles"]["get"]["parameters"]}
    assert {"site", "since", "kind", "method", "q", "limit", "offset"} <= query
    assert "text/html" in paths["/api/extract"]["post"]["requestBody"]["content"]
    assert paths["/api/articles/{id}"]["get"]["summary"].startswith("One stored article")


def test_writes_need_the_token_when_there_is_one(open_api: httpx.Client) -> None:
    page = {"Content-Type": "text/html"}
    unsigned = _extract(open_api, PAGE, "text/html")
    assert "token" in _error(unsigned, 401) and "Bearer" in unsigned.headers["WWW-Authenticate"]
    wrong = {**page, "Authorization": "Bearer guess"}
    assert "token" in _error(open_api.post("/api/extract", content=PAGE, headers=wrong), 401)
    assert _error(open_api.post("/api/feeds", json={"url": "http://a.example/rss",
                                                    "as_is": True}), 401)  # fmt: skip
    assert _error(open_api.delete("/api/feeds/1"), 401)
    signed = open_api.post("/api/extract", content=PAGE, headers={**page, **SIGNED})
    assert signed.status_code == 200 and signed.json()["title"] == "The keepers' log"
    assert open_api.get("/api/articles").status_code == 200  # reads stay open


def test_a_loopback_server_answers_to_loopback_names_only(api: httpx.Client) -> None:
    assert "Host" in _error(api.get("/api/articles", headers={"Host": "rebound.example"}), 400)
    assert api.get("/api/articles", headers={"Host": "localhost:8765"}).status_code == 200


def test_unknown_endpoints_and_methods(api: httpx.Client) -> None:
    assert "/api/nothing" in _error(api.get("/api/nothing"), 404)
    assert "GET" in _error(api.get("/api/extract"), 405)
    index = api.get("/").json()
    assert "POST /api/extract" in index["endpoints"] and index["openapi"] == "/openapi.json"


def test_no_app_listens_elsewhere_without_a_token(tmp_path: Path) -> None:
    options = ServerOptions(db=tmp_path / "x.db", host="0.0.0.0")
    with pytest.raises(ConfigError, match="without a token"):
        build_app(options)
    build_app(replace(options, token=TOKEN))
    build_app(replace(options, host="::1"))
    assert not (tmp_path / "x.db").exists()  # building opens nothing; the lifespan does


# --- both databases --------------------------------------------------------------------------


def test_the_same_answers_from_sqlite_and_postgresql(database: DatabaseTarget) -> None:
    """The article queries of :mod:`feedsift.storage.api_queries`, search, one article and
    a site's report, served from a database of each kind."""
    with Store(database) as store:
        ids = _fill(store)
    for client in serve_app(ServerOptions(db=database)):
        assert _titles(client.get("/api/articles?site=coast.example.org&since=7d")) == [
            "Storms of the northern coast"]  # fmt: skip
        assert _titles(client.get("/api/articles?kind=listing&method=page")) == [
            "News from the canton"]  # fmt: skip
        paged = client.get("/api/articles?limit=1&offset=3&duplicates=1")
        assert _titles(paged) == ["Storms of the northern coast"] and paged.json()["total"] == 5
        assert _titles(client.get("/api/articles?q=storm")) == ["Storms of the northern coast"]
        one = client.get(f"/api/articles/{ids['/lamps/']}").json()
        assert one["article"]["title"] == "How the lamps were trimmed"
        assert client.get(f"/api/sites/{COAST}").json()["methods"] == {
            "hybrid-diffpost": 1, "page": 1}  # fmt: skip

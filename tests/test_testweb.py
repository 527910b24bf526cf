"""The loopback test web: sites, feeds, rounds, caching, duplicates, faults, truth, realism."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from statistics import mean
from urllib.parse import unquote, urljoin, urlsplit

import httpx
import lxml.html
import pytest
from lxml import etree
from protego import Protego

import feedsift
from feedsift.evaluation.metrics import lcs_prf
from feedsift.testweb import (
    BOMB_SIZE,
    FAULTS,
    FEED_ITEMS,
    OVERSIZED_BYTES,
    TestWeb,
    Truth,
    TruthPost,
    TruthSite,
)
from feedsift.testweb.payloads import crc32_combine, gzip_bomb, oversized_chunks
from feedsift.testweb.ssg import ITEM_LINKS

SSG_ROOT = Path(__file__).resolve().parents[2] / "shared" / "sites" / "ssg"
#: The crawler's default body cap: the oversized fault must exceed it.
CRAWLER_CAP = 20 * (1 << 20)
#: Short enough for the tests, longer than their client timeout.
SLOW = 1.0
CLIENT_TIMEOUT = 0.3
GENERATED = ("marginalia", "fieldnotes", "gazette")
#: Boilerplate the extractor must leave out, by template: XPaths of texts on the page.
BOILERPLATE = {
    "marginalia": (
        "//*[@class='comment-content']",
        "//*[contains(@class,'jp-relatedposts-post-title')]",
        "//*[@class='ad-copy']",
        "//*[@class='textwidget']",
    ),
    "fieldnotes": (
        "//*[@class='post-card-title']",
        "//*[@class='post-card-excerpt']",
        "//*[@class='footer-cta-title']",
    ),
    "gazette": (
        "//*[@class='read-more-list']//a",
        "//*[@class='most-read']//a",
        "//*[@class='newsletter-signup']/p",
        "//*[@id='cookie-banner']/p",
    ),
}


@pytest.fixture
def web() -> Iterator[TestWeb]:
    with TestWeb(seed=7, slow_seconds=SLOW) as started:
        yield started


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    """One client for the module (loopback HTTP only: no TLS context to build per test)."""
    with httpx.Client(timeout=5.0, verify=False) as session:
        yield session


def _xml(data: bytes, *, recover: bool = False) -> etree._Element:
    parser = etree.XMLParser(recover=recover, resolve_entities=False, no_network=True)
    return etree.fromstring(data, parser)


def _item_links(feed_url: str, response: httpx.Response, *, recover: bool = False) -> list[str]:
    if "json" in response.headers["content-type"]:
        return [item["url"] for item in response.json()["items"]]
    root = _xml(response.content, recover=recover)
    return [urljoin(feed_url, str(link).strip()) for link in ITEM_LINKS(root)]


def _by_variant(truth: Truth) -> dict[str, TruthPost]:
    return {variant: post for post in truth.posts() for variant in post.variants}


# -- life cycle -----------------------------------------------------------------------


def test_start_and_close_leave_no_threads_or_listening_sockets() -> None:
    before = set(threading.enumerate())
    web = TestWeb(slow_seconds=30.0).start()
    urls = web.site_urls()
    assert set(GENERATED) | {"faults"} == set(urls)
    assert len({urlsplit(url).port for url in urls.values()}) == len(urls)  # own origins
    slow = threading.Thread(target=_fetch_quietly, args=(urls["faults"] + "/slow/post/",))
    slow.start()
    with httpx.Client(verify=False) as keep_alive:
        keep_alive.get(urls["marginalia"] + "/robots.txt")
        time.sleep(0.2)  # the slow request is now waiting inside the server
        started = time.monotonic()
        web.close()
        assert time.monotonic() - started < 2.0
    slow.join(5)
    web.close()  # idempotent
    assert set(threading.enumerate()) <= before
    with pytest.raises(httpx.ConnectError):
        httpx.get(urls["gazette"] + "/", timeout=1.0, verify=False)


def _fetch_quietly(url: str) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server hangs up when it closes
        httpx.get(url, timeout=60.0, verify=False)


def test_methods_need_a_started_web() -> None:
    web = TestWeb()
    with pytest.raises(RuntimeError, match="not started"):
        web.feed_urls()


# -- feeds, rounds, caching -----------------------------------------------------------


def test_feeds_parse_and_list_only_published_posts(web: TestWeb, client: httpx.Client) -> None:
    truth = web.truth()
    posts = _by_variant(truth)
    listed: set[tuple[str, str]] = set()
    for url in web.feed_urls("good"):
        response = client.get(url)
        assert response.status_code == 200, url
        links = _item_links(url, response)
        assert 0 < len(links) <= FEED_ITEMS
        for link in links:
            assert link in posts, f"{url} lists {link}, which is not a published post"
            listed.add((posts[link].post_id, url))
    expected = {(p.post_id, f) for p in truth.posts() if p.site in GENERATED for f in p.feeds}
    assert listed == expected


def test_posts_appear_in_rounds_and_feed_validators_follow(
    web: TestWeb, client: httpx.Client
) -> None:
    feed = web.site_urls()["marginalia"] + "/feed/"
    first = client.get(feed)
    assert client.get(feed).headers["etag"] == first.headers["etag"]  # stable between rounds
    before = {p.post_id for p in web.truth().posts()}
    control = web.control_url
    assert client.get(control + "/_testweb/advance").status_code == 405
    assert client.post(control + "/_testweb/advance").json() == {"round": 2}
    assert web.round == 2
    after = web.truth()
    new = [p for p in after.posts() if p.post_id not in before]
    assert all(p.round == 2 for p in new) and {p.site for p in new} == set(GENERATED)
    second = client.get(feed)
    assert second.headers["etag"] != first.headers["etag"]
    assert second.headers["last-modified"] != first.headers["last-modified"]
    newest = [p for p in new if p.site == "marginalia"][-1]
    assert any(link in newest.variants for link in _item_links(feed, second))
    for _ in range(web.rounds + 2):
        web.advance()
    assert web.round == web.rounds


def test_unpublished_posts_are_not_served_and_seeds_are_deterministic(
    client: httpx.Client,
) -> None:
    with TestWeb(seed=7) as ahead, TestWeb(seed=7) as behind:
        round_one = {p.post_id for p in ahead.truth().posts()}
        assert round_one == {p.post_id for p in behind.truth().posts()}
        ahead.advance()
        later = [p for p in ahead.truth().posts() if p.post_id not in round_one]
        assert later
        for post in later:
            base = behind.site_urls()[post.site]
            assert client.get(base + urlsplit(post.url).path).status_code == 404
        texts = {p.post_id: p.text for p in behind.truth().posts()}
        assert texts == {p.post_id: p.text for p in ahead.truth().posts() if p.round == 1}
    with TestWeb(seed=8) as other:
        assert {p.text for p in other.truth().posts()}.isdisjoint(texts.values())


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = text.lower().split()
    return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}


def test_post_texts_are_varied_prose(web: TestWeb) -> None:
    for name in GENERATED:
        posts = web.truth().site(name).posts
        shingles = [_shingles(p.text) for p in posts]
        for i, first in enumerate(shingles):
            for second in shingles[i + 1 :]:
                assert len(first & second) / len(first | second) < 0.35
        paragraphs = [para for p in posts for para in p.text.split("\n\n")]
        assert len(set(paragraphs)) == len(paragraphs)  # no paragraph is boilerplate
        for post in posts:
            assert 3 <= len([p for p in post.text.split("\n\n") if p[-1] in '.?"']) <= 8
            assert "lorem" not in post.text.lower() and post.author and post.tags


def test_conditional_requests_get_304(web: TestWeb, client: httpx.Client) -> None:
    for url in web.feed_urls("good"):
        fresh = client.get(url)
        etag, modified = fresh.headers["etag"], fresh.headers["last-modified"]
        by_etag = client.get(url, headers={"If-None-Match": etag})
        assert by_etag.status_code == 304 and by_etag.content == b""
        by_date = client.get(url, headers={"If-Modified-Since": modified})
        assert by_date.status_code == 304
        stale = client.get(url, headers={"If-None-Match": '"stale"', "If-Modified-Since": modified})
        assert stale.status_code == 200  # If-None-Match wins over If-Modified-Since


def test_every_url_variant_reaches_its_post(web: TestWeb) -> None:
    truth = web.truth()
    with httpx.Client(follow_redirects=True, timeout=5.0, verify=False) as client:
        for post in truth.posts():
            if post.site not in GENERATED:
                continue
            for variant in post.variants:
                response = client.get(variant)
                assert response.status_code == 200, variant
                assert str(response.url).split("?")[0] == post.url, variant
    counts = {name: [len(p.variants) for p in truth.site(name).posts] for name in GENERATED}
    assert set(counts["marginalia"]) == {3}  # pretty, ?p= shortlink, utm form
    assert set(counts["fieldnotes"]) == {3}  # canonical, utm form, /r/ redirect
    assert min(counts["gazette"]) == 2 and max(counts["gazette"]) == 4  # cross-filed: 4


def test_access_log_keeps_politeness_headers(web: TestWeb, client: httpx.Client) -> None:
    url = web.site_urls()["fieldnotes"] + "/atom.xml"
    client.get(url, headers={"User-Agent": "feedsift-test/1.0", "If-None-Match": '"x"'})
    record = web.requests("fieldnotes")[-1]
    assert (record.method, record.target) == ("GET", "/atom.xml")
    assert record.header("User-Agent") == "feedsift-test/1.0"
    assert record.header("If-None-Match") == '"x"'
    over_http = client.get(web.control_url + "/_testweb/requests", params={"site": "fieldnotes"})
    assert over_http.json()[-1]["headers"]["user-agent"] == "feedsift-test/1.0"
    with pytest.raises(KeyError):
        web.requests("nowhere")


def test_truth_round_trips_through_json_and_the_control_server(
    web: TestWeb, client: httpx.Client
) -> None:
    truth = web.truth()
    assert Truth.from_json(truth.to_json()) == truth
    assert Truth.from_json(client.get(web.control_url + "/_testweb/truth").content) == truth
    faults = next(s for s in truth.to_dict()["sites"] if s["name"] == "faults")["faults"]
    assert faults["gzip-bomb-page"]["url"].endswith("/bomb/post/")
    assert faults["gzip-bomb-page"]["expect"]


# -- faults ---------------------------------------------------------------------------


@pytest.fixture
def faults(web: TestWeb) -> TruthSite:
    return web.truth().site("faults")


def _fault_url(site: TruthSite, name: str) -> str:
    return site.fault(name).url


def test_fault_feeds_each_have_their_own_url(web: TestWeb, faults: TruthSite) -> None:
    feed_faults = {f.name for f in FAULTS if f.target == "feed"}
    assert {f.fault for f in faults.feeds} == feed_faults | {"faulty-items"}
    assert set(web.feed_urls("faulty")) == {f.url for f in faults.feeds}
    assert set(web.feed_urls("good")).isdisjoint(web.feed_urls("faulty"))
    assert len(web.feed_urls("all")) == len(web.feed_urls("good")) + len(faults.feeds)


def test_items_feed_points_at_every_faulty_page_and_a_good_post(
    faults: TruthSite, client: httpx.Client
) -> None:
    items_feed = next(f.url for f in faults.feeds if f.fault == "faulty-items")
    links = set(_item_links(items_feed, client.get(items_feed)))
    assert {f.url for f in faults.faults if f.target == "page"} <= links
    good = [p for p in faults.posts if items_feed in p.feeds and "/good/" in p.url]
    assert good and {p.url for p in good} <= links
    assert all(client.get(p.url).status_code == 200 for p in good)


def test_slow_urls_outlast_a_short_timeout(faults: TruthSite, client: httpx.Client) -> None:
    for name in ("slow-feed", "slow-page"):
        started = time.monotonic()
        with pytest.raises(httpx.ReadTimeout):
            client.get(_fault_url(faults, name), timeout=CLIENT_TIMEOUT)
        assert time.monotonic() - started < SLOW


def test_server_error_not_found_and_redirect_loop(faults: TruthSite, client: httpx.Client) -> None:
    for name in ("server-error-feed", "server-error-page"):
        assert client.get(_fault_url(faults, name)).status_code == 500
    assert client.get(_fault_url(faults, "not-found-page")).status_code == 404
    for name in ("redirect-loop-feed", "redirect-loop-page"):
        with pytest.raises(httpx.TooManyRedirects):
            client.get(_fault_url(faults, name), follow_redirects=True)


def test_rate_limited_urls_answer_429_twice_then_200(
    faults: TruthSite, client: httpx.Client
) -> None:
    for name in ("rate-limited-feed", "rate-limited-page"):
        url = _fault_url(faults, name)
        for _ in range(2):
            limited = client.get(url)
            assert limited.status_code == 429 and limited.headers["retry-after"] == "1"
        assert client.get(url).status_code == 200
        assert client.get(url).status_code == 200  # the counter never resets


def test_malformed_broken_and_billion_laughs_feeds(faults: TruthSite, client: httpx.Client) -> None:
    malformed = client.get(_fault_url(faults, "malformed-feed")).content
    with pytest.raises(etree.XMLSyntaxError):
        _xml(malformed)
    assert len(_xml(malformed, recover=True).findall(".//item")) == 2
    broken = client.get(_fault_url(faults, "broken-feed"))
    assert broken.headers["content-type"].startswith("application/rss+xml")
    assert b"<html" in broken.content and b"<item" not in broken.content
    laughs = client.get(_fault_url(faults, "billion-laughs-feed")).content
    assert laughs.count(b"<!ENTITY") == 10
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring(laughs, etree.XMLParser(resolve_entities=True))


def test_connection_reset_is_a_read_error(faults: TruthSite, client: httpx.Client) -> None:
    for name in ("connection-reset-feed", "connection-reset-page"):
        with pytest.raises(httpx.ReadError):
            client.get(_fault_url(faults, name))


def test_gzip_bomb_is_small_on_the_wire(faults: TruthSite, client: httpx.Client) -> None:
    for name in ("gzip-bomb-feed", "gzip-bomb-page"):
        with client.stream("GET", _fault_url(faults, name)) as response:
            assert response.headers["content-encoding"] == "gzip"
            raw = b"".join(response.iter_raw())
        assert len(raw) < 2 * (1 << 20)
        assert int.from_bytes(raw[-4:], "little") == BOMB_SIZE % (1 << 32)
        start = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw[:100_000], 1 << 23)
        assert len(start) == 1 << 23 and set(start) == {ord(" ")}


def test_gzip_bomb_is_valid_gzip_and_crc_combination_is_right() -> None:
    small = gzip_bomb(1 << 24, 1 << 20)
    assert zlib.decompress(small, 16 + zlib.MAX_WBITS) == b" " * (1 << 24)
    first, second = b"harbour gazette", b"field notes" * 7
    combined = crc32_combine(zlib.crc32(first), zlib.crc32(second), len(second))
    assert combined == zlib.crc32(first + second)


def test_oversized_bodies_exceed_the_cap(faults: TruthSite, client: httpx.Client) -> None:
    assert sum(len(chunk) for chunk in oversized_chunks(prefix=b"<p>")) == OVERSIZED_BYTES
    for name, announced in (("oversized-page", True), ("oversized-stream-page", False)):
        with client.stream("GET", _fault_url(faults, name)) as response:
            length = response.headers.get("content-length")
            assert (length is not None) == announced
            if announced:
                assert int(length) == OVERSIZED_BYTES > CRAWLER_CAP
            read = 0
            for chunk in response.iter_raw():
                read += len(chunk)
                if read > CRAWLER_CAP:
                    break
        assert read > CRAWLER_CAP


def test_robots_disallows_the_private_post(faults: TruthSite, client: httpx.Client) -> None:
    robots = Protego.parse(client.get(faults.base_url + "/robots.txt").text)
    private = _fault_url(faults, "robots-disallowed-page")
    assert not robots.can_fetch(private, "feedsift")
    assert all(robots.can_fetch(p.url, "feedsift") for p in faults.posts)


def test_wrong_charset_page_is_utf8_in_disguise(faults: TruthSite, client: httpx.Client) -> None:
    url = _fault_url(faults, "wrong-charset-page")
    response = client.get(url)
    assert response.headers["content-type"] == "text/html; charset=ISO-8859-1"
    assert "Zürich" in response.content.decode("utf-8")
    truth = next(p for p in faults.posts if p.url == url)
    article = feedsift.extract(
        response.content, url=url, content_type=response.headers["content-type"]
    )
    assert article.title == truth.title and "Ã" not in article.text
    assert lcs_prf(article.text, truth.text).f1 > 0.95


# -- realism --------------------------------------------------------------------------


def _boilerplate(page: bytes, template: str) -> list[str]:
    tree = lxml.html.fromstring(page)
    texts = (
        " ".join(e.text_content().split()) for x in BOILERPLATE[template] for e in tree.xpath(x)
    )
    return [text for text in texts if len(text) > 12]


def test_extractor_finds_title_and_body_but_no_boilerplate(
    web: TestWeb, client: httpx.Client
) -> None:
    web.advance()
    for name in GENERATED:
        scores, boilerplate_seen = [], 0
        for post in web.truth().site(name).posts:
            page = client.get(post.url).content
            article = feedsift.extract(page, url=post.url)
            assert article.title == post.title, post.url
            scores.append(lcs_prf(article.text, post.text).f1)
            body = " ".join(article.text.split())
            texts = _boilerplate(page, name)
            boilerplate_seen += len(texts)
            assert not [text for text in texts if text in body], post.url
        assert mean(scores) >= 0.9, (name, mean(scores))
        assert boilerplate_seen > 0, name


def test_rotating_ads_change_on_every_request(web: TestWeb, client: httpx.Client) -> None:
    post = web.truth().site("marginalia").posts[0]
    first, second = (client.get(post.url).content for _ in range(2))
    assert _boilerplate(first, "marginalia") != _boilerplate(second, "marginalia")
    assert "etag" not in client.get(post.url).headers


# -- out of process -------------------------------------------------------------------


def test_cli_serves_until_sigterm(tmp_path: Path, client: httpx.Client) -> None:
    port_file = tmp_path / "web.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "feedsift.testweb", "--port-file", str(port_file), "--seed", "3"],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 20
        while not port_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        described = json.loads(port_file.read_text())
        assert described["feeds"]["good"] and described["round"] == 1
        assert client.post(described["advance"]).json() == {"round": 2}
        assert Truth.from_json(client.get(described["truth"]).content).round == 2
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.skipif(not SSG_ROOT.is_dir(), reason=f"{SSG_ROOT} is missing")
def test_ssg_blogs_serve_their_real_feeds_on_loopback() -> None:
    with TestWeb(ssg_root=SSG_ROOT) as web, httpx.Client(timeout=5.0, verify=False) as client:
        truth = web.truth()
        assert web.ssg_sites()
        for name in web.ssg_sites():
            site = truth.site(name)
            feed = site.feeds[0].url
            links = _item_links(feed, client.get(feed), recover=True)  # real feeds: not all XML
            assert links and all(link.startswith(site.base_url + "/") for link in links), name
            for link in links:
                if link not in site.unserved:
                    assert client.get(link).status_code == 200, link
            assert {unquote(p.url) for p in site.posts} <= {unquote(link) for link in links}
            assert all(p.title for p in site.posts), name


@pytest.mark.skipif(not SSG_ROOT.is_dir(), reason=f"{SSG_ROOT} is missing")
def test_ssg_blogs_serve_their_saved_stylesheets_and_no_other_asset() -> None:
    folder = next(p for p in sorted(SSG_ROOT.iterdir()) if (p / "assets/MANIFEST.json").is_file())
    manifest = json.loads((folder / "assets/MANIFEST.json").read_text(encoding="utf-8"))
    with TestWeb(ssg_root=SSG_ROOT) as web, httpx.Client(timeout=5.0) as client:
        base = web.truth().site(folder.name).base_url
        for path in manifest["css_files"]:
            answer = client.get(base + path)
            assert answer.status_code == 200 and answer.headers["content-type"] == "text/css"
            assert answer.content == (folder / "assets" / path.lstrip("/")).read_bytes()
        assert client.get(base + "/assets/MANIFEST.json").status_code == 404
        assert client.get(base + "/../MANIFEST.json").status_code == 404

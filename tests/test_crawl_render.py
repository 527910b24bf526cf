"""``feedsift crawl --render``: pages laid out in a real Chromium, stylesheets fetched by
feedsift, nothing fetched by the browser itself.

The tests that launch a browser are skipped when Playwright cannot be imported or no
Chromium is found (``FEEDSIFT_CHROMIUM`` or ``chromium`` on the ``PATH``), as
tests/test_rendering.py is; the stylesheet resolver's own tests and the one about a
missing Chromium run everywhere. Two loopback webs: the test web (``feedsift.testweb``),
whose stylesheets are missing (404), and a one-feed site of this module whose stylesheet
hides a promo block.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser_support import RIVER_STORY, needs_browser
from conftest import LoopbackServer
from feedsift.acquisition.fetcher import USER_AGENT, FetchPolicy
from feedsift.cli.main import main
from feedsift.crawl.rendering import CrawlRendering, WorkerLayout
from feedsift.parsing.page import parse_page
from feedsift.rendering.browser import CHROMIUM_ENV, Renderer
from feedsift.rendering.provider import RenderedLayout
from feedsift.rendering.stylesheets import FetchedStylesheets, StylesheetCounts
from feedsift.testweb import TestWeb

LOOPBACK = ("--allow-private", "--delay", "0", "--timeout", "3")
#: Loopback fetching for the resolver's own tests: no delay, a short timeout.
POLICY = FetchPolicy(allow_private=True, min_delay=0.0, timeout=3.0)
#: What a headless Chromium puts in its User-Agent: a request with it came from the browser.
BROWSER_AGENT = "HeadlessChrome"
PROMO = "Subscribe to the promo newsletter today and save"
THEME = b"""
.promo { display: none; }
@font-face { font-family: fancy; src: url(/fancy.woff2); }
body { font-family: fancy, serif; }
"""
POST = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="/theme.css">
<script src="/app.js"></script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/about/">About</a></nav></header>
""" + RIVER_STORY + """<img src="/picture.png" alt="">\
<img src="http://203.0.113.9/remote.png" alt="">
</article><footer><p>Copyright the river blog</p></footer></body></html>"""
FEED = """<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>
<title>The river blog</title><link>{base}/</link><description>Floods</description>
<item><title>The night the river rose</title><link>{base}/posts/one/</link>
<pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate><description>The river rose.</description></item>
<item><title>Sandbags and tea</title><link>{base}/posts/two/</link>
<pubDate>Tue, 03 Nov 2026 08:00:00 GMT</pubDate><description>Sandbags.</description></item>
</channel></rss>"""
TITLES = {"/posts/one/": "The night the river rose", "/posts/two/": "Sandbags and tea"}
#: A feed whose one item's page never finishes loading: it cannot render in any time.
STUCK_FEED = """<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>
<title>The stuck blog</title><link>{base}/</link><description>Loops</description>
<item><title>The night the river rose</title><link>{base}/posts/stuck/</link>
<pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate><description>Stuck.</description></item>
</channel></rss>"""


@dataclass
class PromoSite:
    """A one-feed loopback site whose stylesheet hides a promo block (on the ``web``
    fixture's server, which logs every request)."""

    web: LoopbackServer

    @property
    def base(self) -> str:
        return self.web.base_url

    @property
    def requests(self) -> list[tuple[str, str]]:
        """``(path, User-Agent)`` of every request received, in order."""
        return [(path, headers.get("User-Agent", "")) for path, headers in self.web.requests]

    def paths(self, agent: str) -> list[str]:
        return [path for path, ua in self.requests if agent in ua]


def _post(path: str) -> str:
    return POST.format(title=TITLES[path], promo=PROMO)


def _routes(base: str) -> dict[str, tuple[str, bytes]]:
    """The site's pages by path: content type and body (any other path is a 404)."""
    html, rss = "text/html; charset=utf-8", "application/rss+xml"
    stuck = _post("/posts/one/").replace("</body>", "<script>while (true) {}</script></body>")
    return {
        "/robots.txt": ("text/plain", b"User-agent: *\nAllow: /\n"),
        "/feed.xml": (rss, FEED.format(base=base).encode()),
        "/stuck.xml": (rss, STUCK_FEED.format(base=base).encode()),
        "/theme.css": ("text/css", THEME),
        "/picture.png": ("image/png", b"\x89PNG\r\n\x1a\n"),
        "/posts/stuck/": (html, stuck.encode()),
        **{post: (html, _post(post).encode()) for post in TITLES},
    }


@pytest.fixture
def promo_site(web: LoopbackServer) -> PromoSite:
    for path, (kind, body) in _routes(web.base_url).items():
        web.route(path, body, content_type=kind)
    return PromoSite(web)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _rendering(summary: str) -> tuple[int, int, int]:
    """Pages rendered, fallbacks and stylesheets fetched, from a crawl's summary line."""
    found = re.search(r"(\d+) pages rendered, (\d+) got the markup estimate, (\d+) "
                      r"stylesheets fetched", summary)  # fmt: skip
    assert found is not None, summary
    rendered, fallbacks, fetched = found.groups()
    return int(rendered), int(fallbacks), int(fetched)


def _exported(capsys: pytest.CaptureFixture[str], db: str) -> list[dict[str, object]]:
    status, out, _ = run(capsys, "export", "--db", db)
    assert status == 0
    return [json.loads(line) for line in out.splitlines()]


def _method(row: dict[str, object]) -> object:
    provenance = row["provenance"]
    assert isinstance(provenance, dict)
    return provenance["method"]


def _layout_sources(row: dict[str, object]) -> list[object]:
    sources = row["sources"]
    assert isinstance(sources, list)
    return [(s["source"], s["detail"]) for s in sources if s["field"] == "layout"]


# -- the stylesheet resolver (no browser) --------------------------------------------------


def test_stylesheets_are_fetched_once_and_nothing_else_is(promo_site: PromoSite) -> None:
    resources = FetchedStylesheets(POLICY)
    try:
        url = promo_site.base + "/theme.css"
        first = resources.resolve_kind(url, "stylesheet")
        assert first is not None and first.body == THEME and first.content_type == "text/css"
        assert resources.resolve_kind(url, "stylesheet") == first
        assert resources.resolve(url) == first  # by URL alone: the cache only
        for kind in ("image", "font", "script", "fetch", "other"):
            assert resources.resolve_kind(promo_site.base + "/picture.png", kind) is None
        assert resources.resolve(promo_site.base + "/picture.png") is None
        assert resources.counts() == StylesheetCounts(fetched=1, reused=1, failed=0)
        assert promo_site.paths(USER_AGENT) == ["/robots.txt", "/theme.css"]
        assert len(promo_site.requests) == 2
    finally:
        resources.close()


def test_a_stylesheet_is_fetched_under_the_crawls_rules(promo_site: PromoSite) -> None:
    guarded = FetchedStylesheets(FetchPolicy(min_delay=0.0, timeout=3.0))  # no allow_private
    picky = FetchedStylesheets(POLICY, max_cached=1)
    try:
        assert guarded.resolve_kind(promo_site.base + "/theme.css", "stylesheet") is None
        assert guarded.counts() == StylesheetCounts(failed=1)
        assert promo_site.requests == []  # refused before connecting: a loopback address
        # an image asked for as a stylesheet is refused by its type, and remembered
        assert picky.resolve_kind(promo_site.base + "/picture.png", "stylesheet") is None
        assert picky.resolve_kind(promo_site.base + "/missing.css", "stylesheet") is None
        assert picky.resolve_kind(promo_site.base + "/theme.css", "stylesheet") is not None
        assert picky.resolve_kind(promo_site.base + "/missing.css", "stylesheet") is None
        assert picky.counts() == StylesheetCounts(fetched=1, reused=0, failed=3)  # 1 kept
    finally:
        guarded.close()
        picky.close()


# -- in a browser -------------------------------------------------------------------------


@needs_browser
def test_the_resolver_serves_the_css_and_the_browser_fetches_nothing(
    promo_site: PromoSite,
) -> None:
    settings = CrawlRendering(page_timeout_ms=10_000, fetch=POLICY)
    resources = FetchedStylesheets(settings.fetch)
    url = promo_site.base + "/posts/one/"
    page = parse_page(_post("/posts/one/").encode(), url)
    try:
        with Renderer(settings.render_options()) as renderer:
            provider = RenderedLayout.for_page(renderer, page, resources)
            measured = provider.measure(page.view)
            again = provider.measure(page.view)  # the stylesheet now comes from the cache
    finally:
        resources.close()
    texts = [b.text for b in page.view.blocks]
    promo, first = texts.index(PROMO), texts.index(next(t for t in texts if "begins" in t))
    assert not measured.blocks[promo].visible and measured.blocks[first].visible
    assert not again.blocks[promo].visible
    base = promo_site.base
    requested = {f"{base}/app.js", f"{base}/picture.png", "http://203.0.113.9/remote.png"}
    assert set(measured.blocked) >= requested  # in the markup: asked for as it is parsed
    # the web font is asked for only once text in it is laid out, which a fast measure may
    # not wait for: blocked when asked, never fetched
    assert set(measured.blocked) <= requested | {f"{base}/fancy.woff2"}
    assert f"{base}/theme.css" not in measured.blocked
    assert resources.counts() == StylesheetCounts(fetched=1, reused=1, failed=0)
    assert promo_site.paths(USER_AGENT) == ["/robots.txt", "/theme.css"]
    assert promo_site.paths(BROWSER_AGENT) == [] and len(promo_site.requests) == 2


@needs_browser
def test_a_worker_layout_starts_its_browser_on_the_first_page(promo_site: PromoSite) -> None:
    layout = WorkerLayout(CrawlRendering(page_timeout_ms=10_000, fetch=POLICY))
    assert layout.report().tally.rendered == 0  # nothing launched yet
    url = promo_site.base + "/posts/two/"
    page = parse_page(_post("/posts/two/").encode(), url)
    try:
        found = layout.layout(page.view, page)
    finally:
        layout.close()
    assert found.visible is not None
    assert not found.visible[[b.text for b in page.view.blocks].index(PROMO)]
    report = layout.report()
    assert (report.tally.rendered, report.tally.fallbacks) == (1, 0)
    assert report.stylesheets == StylesheetCounts(fetched=1)


@needs_browser
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_crawl_render_on_a_site_with_a_stylesheet(
    capsys: pytest.CaptureFixture[str], promo_site: PromoSite, tmp_path: Path, jobs: str
) -> None:
    db = str(tmp_path / "f.db")
    feed = promo_site.base + "/feed.xml"
    assert run(capsys, "feeds", "add", feed, "--as-is", "--db", db)[0] == 0
    status, out, err = run(capsys, "crawl", "--once", "--render", "-j", jobs, "--db", db,
                           *LOOPBACK)  # fmt: skip
    assert status == 0 and "2 articles" in out, (out, err)
    rendered, fallbacks, fetched = _rendering(out)
    assert rendered >= 2 and fallbacks == 0 and fetched == 1
    assert "markup estimate used" not in err
    rows = _exported(capsys, db)
    assert {row["title"] for row in rows} == set(TITLES.values())
    assert all(_layout_sources(row) == [("browser", "rendered in a headless Chromium")]
               for row in rows)  # fmt: skip
    assert promo_site.paths(USER_AGENT).count("/theme.css") == 1
    assert promo_site.paths(BROWSER_AGENT) == []


@needs_browser
def test_a_page_that_cannot_render_gets_the_estimate_and_is_counted(
    capsys: pytest.CaptureFixture[str], promo_site: PromoSite, tmp_path: Path
) -> None:
    db = str(tmp_path / "f.db")
    feed = promo_site.base + "/stuck.xml"
    assert run(capsys, "feeds", "add", feed, "--as-is", "--db", db)[0] == 0
    status, out, err = run(capsys, "crawl", "--once", "--render", "--render-timeout", "1500",
                           "--method", "page", "--db", db, *LOOPBACK)  # fmt: skip
    assert status == 0 and "1 articles" in out, (out, err)
    assert _rendering(out)[:2] == (0, 1)
    stuck = promo_site.base + "/posts/stuck/"
    assert err == f"feedsift: markup estimate used, not rendered: {stuck}: not rendered " \
                  "within 1500 ms\n"  # fmt: skip
    (row,) = _exported(capsys, db)
    assert row["title"] == TITLES["/posts/one/"] and _layout_sources(row) == []


@needs_browser
def test_a_browser_that_does_not_start_leaves_every_page_to_the_estimate(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "chromium"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    layout = WorkerLayout(CrawlRendering(fetch=POLICY, executable_path=str(broken)))
    pages = [parse_page(_post(path).encode(), f"http://site.test{path}") for path in TITLES]
    try:
        found = [layout.layout(page.view, page) for page in pages]
    finally:
        layout.close()
    assert all(f.visible is None for f in found)  # the markup estimate says nothing of it
    tally = layout.report().tally
    assert (tally.rendered, tally.fallbacks) == (0, 2)
    (reason,) = tally.reasons  # launched once, not again for the second page
    assert reason.url == "http://site.test/posts/one/"
    assert reason.reason.startswith(f"Chromium '{broken}' did not start")


@needs_browser
def test_crawl_render_on_the_test_web(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    with TestWeb(seed=13, rounds=1) as web:
        by_site = {url.split("/")[2]: url for url in reversed(web.feed_urls("good"))}
        for url in by_site.values():  # one feed a site: three templates, fewer pages
            assert run(capsys, "feeds", "add", url, "--as-is", "--db", db)[0] == 0
        status, out, err = run(capsys, "crawl", "--once", "--render", "--db", db, *LOOPBACK)
        browser_requests = [r for r in web.requests() if BROWSER_AGENT in (r.header("user-agent")
                                                                           or "")]  # fmt: skip
    assert status == 0 and "0 page errors" in out, (out, err)
    articles = int(re.search(r"(\d+) articles", out).group(1))  # type: ignore[union-attr]
    rendered, fallbacks, _ = _rendering(out)
    assert articles > 0 and rendered >= articles and fallbacks == 0
    assert browser_requests == []
    rows = _exported(capsys, db)
    assert len(rows) == articles
    # what the page level made says it read a rendered layout; a post stored through its
    # feed's template (found by following links) read no layout and says none
    by_model = [row for row in rows if _method(row) != "template"]
    assert by_model and all(_layout_sources(row) for row in by_model)
    assert not any(_layout_sources(row) for row in rows if _method(row) == "template")


def test_crawl_render_without_chromium_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    monkeypatch.setenv(CHROMIUM_ENV, str(tmp_path / "no-chromium"))
    for command in (["crawl", "--once"], ["watch"]):
        status, out, err = run(capsys, *command, "--render", "--db", str(db))
        assert (status, out) == (1, "")
        assert err == f"feedsift: --render: Chromium '{tmp_path / 'no-chromium'}' is not an " \
                      "executable file\n"  # fmt: skip
    monkeypatch.delenv(CHROMIUM_ENV)
    monkeypatch.setenv("PATH", str(tmp_path))
    status, _, err = run(capsys, "crawl", "--once", "--render", "--db", str(db))
    assert status == 1 and err.startswith("feedsift: --render: no Chromium found")
    assert len(err.splitlines()) == 1 and not db.exists()


@needs_browser
def test_a_worker_layout_started_ahead_renders_its_first_page_without_launching(
    promo_site: PromoSite,
) -> None:
    layout = WorkerLayout(CrawlRendering(page_timeout_ms=10_000, fetch=POLICY))
    assert not layout.running
    url = promo_site.base + "/posts/two/"
    page = parse_page(_post("/posts/two/").encode(), url)
    try:
        layout.start()
        assert layout.running and layout.report().tally.rendered == 0
        layout.start()  # a second call launches nothing more
        assert layout.layout(page.view, page).visible is not None
    finally:
        layout.close()
    assert not layout.running
    assert layout.report().tally.rendered == 1

"""``feedsift.fetch``, ``extract_url`` and ``fetch_feed`` against a real loopback server.

Loopback is a private address: the SSRF guard refuses it unless ``allow_private=True``,
which is what these tests pass except where the refusal itself is tested.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

import feedsift
from conftest import ARTICLE_SENTENCE, NAV_TEXT, LoopbackServer
from feedsift.acquisition.feedworker import ParseLimits
from feedsift.acquisition.http import USER_AGENT

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Lighthouse notes</title>
<link>https://coast.example.org/</link>
<item><title>Keeping time</title><link>https://coast.example.org/2023/10/time</link>
<pubDate>Tue, 10 Oct 2023 08:00:00 GMT</pubDate><description>The log book.</description></item>
</channel></rss>"""


def test_extract_url_fetches_politely_and_extracts(
    web: LoopbackServer, article_html: bytes
) -> None:
    final = web.route("/2023/10/lighthouse-time", article_html)
    start = web.redirect("/old-address", "/2023/10/lighthouse-time", status=301)
    article = feedsift.extract_url(start, allow_private=True, include_comments=True)
    assert ARTICLE_SENTENCE in article.text and NAV_TEXT not in article.text
    assert article.url == final
    assert [path for path, _ in web.requests] == [
        "/robots.txt", "/old-address", "/2023/10/lighthouse-time",
    ]  # fmt: skip
    assert web.requests[-1][1]["User-Agent"] == USER_AGENT


def test_loopback_is_refused_unless_allowed(web: LoopbackServer, article_html: bytes) -> None:
    url = web.route("/post.html", article_html)
    with pytest.raises(feedsift.UnsafeAddressError):
        feedsift.extract_url(url)
    with pytest.raises(feedsift.UnsafeAddressError):
        feedsift.fetch(url)
    assert web.requests == []  # refused before any request


def test_robots_txt_is_obeyed_unless_told_otherwise(
    web: LoopbackServer, article_html: bytes
) -> None:
    web.route("/robots.txt", b"User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    url = web.route("/private/post.html", article_html)
    with pytest.raises(feedsift.RobotsDisallowedError):
        feedsift.extract_url(url, allow_private=True)
    article = feedsift.extract_url(url, allow_private=True, check_robots=False)
    assert ARTICLE_SENTENCE in article.text


def test_fetch_returns_the_page_and_refuses_what_is_no_html(
    web: LoopbackServer, article_html: bytes
) -> None:
    page = feedsift.fetch(web.route("/post.html", article_html), allow_private=True)
    assert isinstance(page, feedsift.FetchedPage)
    assert (page.status, page.body) == (200, article_html)
    pdf = web.route("/paper.pdf", b"%PDF-1.4 ...", content_type="application/pdf")
    with pytest.raises(feedsift.FetchError, match="application/pdf"):
        feedsift.fetch(pdf, allow_private=True)
    with pytest.raises(feedsift.HttpStatusError, match="404"):
        feedsift.fetch(web.url("/missing"), allow_private=True)


def test_unknown_options_fail_before_any_request(web: LoopbackServer) -> None:
    with pytest.raises(TypeError, match="unknown extract option"):
        feedsift.extract_url(web.url("/post.html"), allow_private=True, comments=True)
    assert web.requests == []


def test_works_where_an_event_loop_runs(web: LoopbackServer, article_html: bytes) -> None:
    url = web.route("/post.html", article_html)

    async def in_a_notebook() -> feedsift.Article:
        return feedsift.extract_url(url, allow_private=True)

    assert ARTICLE_SENTENCE in asyncio.run(in_a_notebook()).text


def test_fetch_feed_reads_entries(web: LoopbackServer) -> None:
    url = web.route("/feed.xml", RSS, content_type="application/rss+xml")
    feed = feedsift.fetch_feed(url, allow_private=True)
    assert isinstance(feed, feedsift.ParsedFeed)
    assert (feed.format, feed.title) == ("rss", "Lighthouse notes")
    (entry,) = feed.entries
    assert isinstance(entry, feedsift.FeedEntry)
    assert (entry.title, entry.url) == ("Keeping time", "https://coast.example.org/2023/10/time")
    assert entry.published is not None and entry.published.year == 2023
    assert "application/rss+xml" in web.requests[-1][1]["Accept"]
    with pytest.raises(feedsift.FeedError):
        feedsift.fetch_feed(web.route("/page.html", b"<html><p>no feed</p></html>"),
                            allow_private=True)  # fmt: skip


#: 100,000 elements nested in an item's description: feedparser takes about 10 s over them.
SLOW_RSS = RSS.replace(b"The log book.", b"<x>" * 100_000 + b"</x>" * 100_000)


def test_fetch_feed_parses_within_the_workers_bounds(web: LoopbackServer) -> None:
    slow = web.route("/slow.xml", SLOW_RSS, content_type="application/rss+xml")
    started = time.monotonic()
    with pytest.raises(feedsift.FeedError) as raised:
        feedsift.fetch_feed(slow, allow_private=True, limits=ParseLimits(seconds=1.0))
    assert str(raised.value) == "refused: reading the feed took longer than 1 s"
    assert time.monotonic() - started < 8.0  # the worker's start and the deadline, not 10 s
    deep = web.route("/deep.json", b"[" * 100_000 + b"]" * 100_000,
                     content_type="application/feed+json")  # fmt: skip
    with pytest.raises(feedsift.FeedError, match=r"^not a feed: JSON nested too deeply to read$"):
        feedsift.fetch_feed(deep, allow_private=True)


def test_fetch_feed_works_from_a_script_without_a_main_guard(
    web: LoopbackServer, tmp_path: Path
) -> None:
    """The worker is spawned without running the caller's script again."""
    url = web.route("/feed.xml", RSS, content_type="application/rss+xml")
    script = tmp_path / "script.py"
    call = f"feedsift.fetch_feed({url!r}, allow_private=True)"
    script.write_text(f"import feedsift\nprint('ran')\nprint({call}.title)\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (0, "ran\nLighthouse notes\n"), run.stderr
    assert [path for path, _ in web.requests] == ["/robots.txt", "/feed.xml"]

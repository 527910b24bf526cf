"""One hostile input must not stop the rest: a crawl round against a loopback server that
serves a good feed beside a hostile one (and pages that make the crawl's own code fail)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from conftest import LoopbackServer
from crawl_helpers import crawl_once, feedsift_command, poll_only, subscribe
from feedsift.acquisition.feedworker import ParseLimits, TimedFeed
from feedsift.crawl import crawler as crawler_module
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionJob, ExtractionOutcome
from feedsift.storage import Store

POST = ("<html><head><title>{title}</title></head>"
        "<body><article><h1>{title}</h1>{text}</article></body></html>")  # fmt: skip
TEXT = "<p>A paragraph of the post, long enough to be an article body of a small blog.</p>" * 6


def rss(base: str, *paths: str) -> bytes:
    items = "".join(
        f"<item><title>Post {path}</title><link>{base}{path}</link>"
        f"<description>About {path}</description></item>"
        for path in paths
    )
    return (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>Good</title>'
        f"<link>{base}/</link>{items}</channel></rss>"
    ).encode()


def serve_good_feed(web: LoopbackServer, *paths: str) -> str:
    for path in paths:
        web.route(path, POST.format(title=f"Post {path}", text=TEXT).encode())
    return web.route("/good.xml", rss(web.base_url, *paths), content_type="application/rss+xml")


def feed_state(db: Path) -> dict[str, tuple[int, str | None]]:
    connection = sqlite3.connect(db)
    rows = connection.execute("SELECT url, error_count, last_error FROM feeds").fetchall()
    connection.close()
    return {url: (count, error) for url, count, error in rows}


def errors(db: Path) -> dict[str | None, tuple[str, str]]:
    with Store(db) as store:
        return {error.url: (error.stage, error.reason) for error in store.errors.recent(100)}


def stored_urls(db: Path) -> set[str]:
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.response_url FROM documents d JOIN articles a ON a.document_id = d.id"
    ).fetchall()
    connection.close()
    return {url for (url,) in rows}


def test_a_feed_nested_100000_deep_fails_alone(web: LoopbackServer, tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    good = serve_good_feed(web, "/one", "/two")
    deep = web.route("/deep.json", b"[" * 100_000 + b"]" * 100_000,
                     content_type="application/feed+json")  # fmt: skip
    subscribe(db, [deep, good])
    run = subprocess.run(feedsift_command(db, "crawl", "--once", "--all", "--delay", "0"),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "internal error" not in run.stderr
    reason = "not a feed: JSON nested too deeply to read"
    assert f"{deep}: {reason}" in run.stderr
    assert feed_state(db)[deep] == (1, reason) and feed_state(db)[good] == (0, None)
    assert errors(db)[deep] == ("feed", reason)
    assert stored_urls(db) == {web.url("/one"), web.url("/two")}


def test_a_feed_past_the_parsing_deadline_fails_alone(
    web: LoopbackServer, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    good = serve_good_feed(web, "/one")
    nested = b"<x>" * 100_000 + b"</x>" * 100_000  # feedparser: about 10 s
    deep = web.route("/deep.xml", rss(web.base_url, "/one").replace(b"About /one", nested),
                     content_type="application/rss+xml")  # fmt: skip
    subscribe(db, [deep, good])
    counts = crawl_once(db, feed_limits=ParseLimits(seconds=1.0))
    reason = "refused: reading the feed took longer than 1 s"
    assert counts.feed_errors == 1 and feed_state(db)[deep] == (1, reason)
    assert feed_state(db)[good] == (0, None)
    assert stored_urls(db) == {web.url("/one")}


def test_unexpected_exceptions_are_recorded_against_their_feed_or_page(
    web: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bugs planted in feed parsing, URL keys and extraction, each for one input."""
    db = tmp_path / "f.db"
    good = serve_good_feed(web, "/fine", "/key-bug", "/extract-bug")
    bad = web.route("/bad.xml", rss(web.base_url, "/fine"), content_type="application/rss+xml")
    parse_feed, extract, url_key = (ArrivalExtraction.parse_feed, ArrivalExtraction.extract,
                                    crawler_module.url_key)  # fmt: skip

    async def parse_with_bug(
        self: ArrivalExtraction, body: bytes, url: str, kind: str | None
    ) -> TimedFeed:
        if url == bad:
            raise RecursionError("maximum recursion depth exceeded")
        return await parse_feed(self, body, url, kind)

    async def extract_with_bug(self: ArrivalExtraction, job: ExtractionJob) -> ExtractionOutcome:
        if job.url.endswith("/extract-bug"):
            raise RuntimeError("the extractor\nbroke")
        return await extract(self, job)

    def key_with_bug(url: str, *args: object) -> str:
        if url.endswith("/key-bug"):
            raise ValueError("no key for this one")
        return url_key(url, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ArrivalExtraction, "parse_feed", parse_with_bug)
    monkeypatch.setattr(ArrivalExtraction, "extract", extract_with_bug)
    monkeypatch.setattr(crawler_module, "url_key", key_with_bug)
    subscribe(db, [bad, good])
    counts = crawl_once(db)
    assert counts.feed_errors == 1 and counts.page_errors == 1 and counts.extract_errors == 1
    feed_reason = "internal error: RecursionError: maximum recursion depth exceeded"
    assert feed_state(db)[bad] == (1, feed_reason) and feed_state(db)[good] == (0, None)
    recorded = errors(db)
    assert recorded[bad] == ("feed", feed_reason)
    key_reason = "internal error: ValueError: no key for this one"
    assert recorded[web.url("/key-bug")] == ("page", key_reason)
    extract_reason = "extraction failed: internal error: RuntimeError: the extractor broke"
    assert recorded[web.url("/extract-bug")] == ("extract", extract_reason)  # one line
    assert stored_urls(db) == {web.url("/fine")}
    connection = sqlite3.connect(db)
    states = dict(connection.execute("SELECT url, state FROM items").fetchall())
    connection.close()
    assert states[web.url("/key-bug")] == "retry"  # asked again next poll, like a failed fetch


def test_a_page_longer_than_its_content_length_is_a_page_error(
    web: LoopbackServer, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    good = serve_good_feed(web, "/one", "/long")
    web.route("/long", POST.format(title="Long", text=TEXT).encode(),
              headers={"Content-Length": "100"}, content_length=False)  # fmt: skip
    subscribe(db, [good])
    counts = crawl_once(db)
    assert counts.page_errors == 1 and stored_urls(db) == {web.url("/one")}
    stage, reason = errors(db)[web.url("/long")]
    assert stage == "page" and reason.startswith(
        "the body is longer than its Content-Length (100 bytes declared, at least "
    )


def test_a_page_that_failed_in_the_resume_waits_for_the_next_round(
    web: LoopbackServer, tmp_path: Path
) -> None:
    db = tmp_path / "f.db"
    good = serve_good_feed(web, "/one", "/busy")
    web.route("/busy", b"busy", status=503)
    subscribe(db, [good])
    poll_only(db, good)  # a killed crawl: both items left new
    counts = crawl_once(db)  # resumes them, then polls the feed (--all) in its round
    assert counts.feeds_polled == 1 and stored_urls(db) == {web.url("/one")}
    asked = [path for path, _ in web.requests if path == "/busy"]
    assert len(asked) == 3  # one attempt (FAST: 2 retries), not a second one in the round
    connection = sqlite3.connect(db)
    state = connection.execute("SELECT state, attempts FROM items WHERE url LIKE '%/busy'")
    assert state.fetchone() == ("retry", 1)
    connection.close()

"""One hostile input must not stop the rest: a crawl round against a loopback server that
serves a good feed beside a hostile one (and pages that make the crawl's own code fail)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import LoopbackServer
from crawl_helpers import crawl_once, feedsift_command, poll_only, subscribe
from feedsift.acquisition.feedworker import ParseLimits, TimedFeed
from feedsift.acquisition.fetcher import DEFAULT_MAX_BYTES
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionJob, ExtractionOutcome
from feedsift.crawl.keys import SiteKeys
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
    parse_feed, extract, key_of = (ArrivalExtraction.parse_feed, ArrivalExtraction.extract,
                                   SiteKeys.key_of)  # fmt: skip

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

    def key_with_bug(self: SiteKeys, url: str, title: str | None) -> str:
        if url.endswith("/key-bug"):
            raise ValueError("no key for this one")
        return key_of(self, url, title)

    monkeypatch.setattr(ArrivalExtraction, "parse_feed", parse_with_bug)
    monkeypatch.setattr(ArrivalExtraction, "extract", extract_with_bug)
    monkeypatch.setattr(SiteKeys, "key_of", key_with_bug)
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


# --- huge pages in a crawl round (issue 16 d, 13, 14) ------------------------------------

#: Links in the page of a million links, and the bytes of each chunk the server writes.
MILLION = 1_000_000
LINKS_PER_CHUNK = 10_000
#: Bytes of the huge page of prose (45 MB, as in the issue); above the fetcher's 20 MiB cap.
HUGE_BYTES = 45_000_000
#: Links in a page under the fetcher's cap but over the parsing stage's element limit.
CROWDED_LINKS = 400_000
#: Peak RSS a crawl round with the huge pages may reach (the issue's target for one page is
#: 400 MB; generous here, since the machine is shared by other tests).
PEAK_RSS_MIB = 600
#: Seconds the whole round may take (it takes about 5 s on two busy cores).
ROUND_SECONDS = 60
#: Runs a command and writes its peak RSS (KiB, the largest of it and its waited-for children)
#: on stderr's last line.
MEASURED = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stderr.write(f'peak-rss-kib {peak}\\n')\n"
    "sys.exit(code)\n"
)
PROSE = (
    b"<p>The keepers of the lighthouse wrote the time of every passing ship in a log book, "
    b"and the weather, and the state of the lamp, night after night for forty years.</p>\n"
)


def links_page(count: int) -> tuple[int, Callable[[], Iterator[bytes]]]:
    """A page of ``count`` links (``count`` a multiple of the chunk): its size and chunks."""
    head, tail = b"<html><head><title>Links</title></head><body>", b"</body></html>"

    def chunk(first: int) -> bytes:
        links = range(first, first + LINKS_PER_CHUNK)
        return "".join(f'<a href="/p/{n}">Link number {n}</a>\n' for n in links).encode()

    def chunks() -> Iterator[bytes]:
        yield head
        for first in range(0, count, LINKS_PER_CHUNK):
            yield chunk(first)
        yield tail

    return sum(map(len, chunks())), chunks


def prose_page(size: int) -> Callable[[], Iterator[bytes]]:
    """A page of paragraphs, about ``size`` bytes."""
    block = PROSE * (1_000_000 // len(PROSE))

    def chunks() -> Iterator[bytes]:
        yield b"<html><head><title>Prose</title></head><body><article>"
        for _ in range(size // len(block)):
            yield block
        yield b"</article></body></html>"

    return chunks


def truncated_of(db: Path) -> dict[str, str | None]:
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.response_url, json_extract(a.record, '$.truncated') FROM documents d"
        " JOIN articles a ON a.document_id = d.id"
    ).fetchall()
    connection.close()
    return dict(rows)


def measured_crawl(db: Path) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """``feedsift crawl --once --all`` in a subprocess: the run, its seconds and peak MiB."""
    command = [sys.executable, "-c", MEASURED, *feedsift_command(db, "crawl", "--once",
               "--all", "--delay", "0")]  # fmt: skip
    started = time.monotonic()
    run = subprocess.run(command, capture_output=True, text=True, timeout=ROUND_SECONDS * 3)
    seconds = time.monotonic() - started
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("peak-rss-kib "), run.stderr
    return run, seconds, int(last.split()[1]) // 1024


def test_huge_pages_are_refused_or_cut_and_the_round_goes_on(
    web: LoopbackServer, tmp_path: Path
) -> None:
    """A million links (43 MB, Content-Length sent) and 45 MB of prose (no Content-Length)
    pass the fetcher's 20 MiB cap: refused, one line each. 400,000 links (17 MB) pass the
    cap and are cut by the parsing stage's element limit: stored, truncated."""
    db = tmp_path / "f.db"
    links_size, links = links_page(MILLION)
    crowded_size, crowded = links_page(CROWDED_LINKS)
    good = serve_good_feed(web, "/one", "/links", "/prose", "/crowded")
    web.route("/links", stream=links, content_length=False,
              headers={"Content-Length": str(links_size)})  # fmt: skip
    web.route("/prose", stream=prose_page(HUGE_BYTES), content_length=False)
    web.route("/crowded", stream=crowded, content_length=False,
              headers={"Content-Length": str(crowded_size)})  # fmt: skip
    subscribe(db, [good])
    run, seconds, peak_mib = measured_crawl(db)
    assert run.returncode == 0, run.stderr
    assert "internal error" not in run.stderr
    cap = DEFAULT_MAX_BYTES
    refusals = {web.url("/links"): f"body larger than {cap} bytes (Content-Length {links_size})",
                web.url("/prose"): f"body larger than {cap} bytes"}  # fmt: skip
    recorded = errors(db)
    for url, reason in refusals.items():
        assert recorded[url] == ("page", reason) and f"{url}: {reason}\n" in run.stderr
    cut = truncated_of(db)
    assert cut.keys() == {web.url("/one"), web.url("/crowded")} and cut[web.url("/one")] is None
    reason = cut[web.url("/crowded")] or ""
    assert reason.startswith("page cut at ") and reason.endswith("more than 50,000 elements")
    print(f"huge pages round: {seconds:.1f} s, peak RSS {peak_mib} MiB")
    assert seconds < ROUND_SECONDS and peak_mib < PEAK_RSS_MIB, (seconds, peak_mib)

"""Shared by the crawl tests: a fast fetch policy, subscribing, and reading results back,
on either database (a SQLite file or a PostgreSQL URL)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from dataclasses import dataclass

from feedsift.acquisition.feedworker import ParseLimits
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import Crawler, CrawlOptions, utc_now
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionSettings
from feedsift.crawl.report import CrawlCounts
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.crawl.templating import TemplateOptions
from feedsift.dedup.site import site_of
from feedsift.errors import StorageError
from feedsift.storage import Store
from feedsift.storage.location import DatabaseTarget
from feedsift.testweb import Truth, TruthPost

#: Loopback sites are ours: no delay, short timeouts and backoffs so faults cost little.
FAST = FetchPolicy(
    min_delay=0.0, per_host=4, timeout=1.0, retries=2, backoff=0.05, max_retry_after=2.0,
    allow_private=True,
)  # fmt: skip


def subscribe(db: DatabaseTarget, urls: list[str]) -> None:
    with Store(db) as store, store.transaction():
        for url in urls:
            store.feeds.add(url, site_of(url), now=utc_now(), interval=3600)


def crawl_once(
    db: DatabaseTarget,
    policy: FetchPolicy = FAST,
    templates: TemplateOptions | None = None,
    feed_limits: ParseLimits | None = None,
) -> CrawlCounts:
    options = CrawlOptions(schedule=Schedule(fixed=0), templates=templates or TemplateOptions())
    settings = SessionSettings(db=db, policy=policy, crawl=options,
                               feed_limits=feed_limits or ParseLimits())  # fmt: skip
    return asyncio.run(run_session(settings, "once", all_feeds=True))


def poll_only(db: DatabaseTarget, url: str, policy: FetchPolicy = FAST) -> None:
    """Poll one feed and stop: what a SIGKILL right after a poll leaves (its items ``new``,
    the feed not due again for a while)."""

    async def run() -> None:
        with Store(db) as store:
            feed = store.feeds.get(url)
            assert feed is not None
            extraction = ArrivalExtraction(settings=ExtractionSettings(site_level=None))
            try:
                async with Fetcher(policy) as fetcher:
                    await Crawler(store, fetcher, extraction).poll_feed(feed)
            finally:
                extraction.close()

    asyncio.run(run())


@dataclass(frozen=True, slots=True)
class StoredDoc:
    id: int
    url_key: str
    request_url: str
    response_url: str
    title: str | None
    text: str


def stored_documents(db: DatabaseTarget) -> list[StoredDoc]:
    with Store(db, create=False) as store:
        rows = store.connection.execute(
            "SELECT d.id, d.url_key, d.request_url, d.response_url, a.title, a.record"
            " FROM documents d LEFT JOIN articles a ON a.document_id = d.id ORDER BY d.id"
        ).fetchall()
    return [StoredDoc(*row[:5], json.loads(row[5])["text"] if row[5] else None) for row in rows]


def query(
    db: DatabaseTarget, sql: str, params: tuple[object, ...] = ()
) -> list[tuple[object, ...]]:
    """Rows of ``sql`` (``?`` placeholders) on either database."""
    with Store(db, create=False) as store:
        return [tuple(row) for row in store.connection.execute(sql, params).fetchall()]


def post_of(truth: Truth, url: str) -> TruthPost | None:
    """The truth post that ``url`` (one of its variants, or where a redirect ended) reaches."""
    for site in truth.sites:
        for post in site.posts:
            if url == post.url or url in post.variants:
                return post
    return None


def word_f1(got: str, want: str) -> float:
    got_words, want_words = got.lower().split(), want.lower().split()
    common = sum(min(got_words.count(w), want_words.count(w)) for w in set(want_words))
    if not common:
        return 0.0
    precision, recall = common / len(got_words), common / len(want_words)
    return 2 * precision * recall / (precision + recall)


def feedsift_command(db: DatabaseTarget, *args: str) -> list[str]:
    """``python -m feedsift ARGS`` on ``db``, loopback allowed, short timeouts."""
    return [sys.executable, "-m", "feedsift", *args, "--db", str(db), "--allow-private",
            "--timeout", "5"]  # fmt: skip


def count_rows(db: DatabaseTarget, table: str) -> int:
    """Rows of ``table`` (a running crawl may be writing); 0 before the database exists."""
    try:
        ((count,),) = query(db, f"SELECT COUNT(*) FROM {table}")
    except StorageError:  # not created yet
        return 0
    return int(count)  # type: ignore[call-overload]


def wait_for_rows(
    db: DatabaseTarget,
    table: str,
    at_least: int,
    process: subprocess.Popen[bytes],
    seconds: float = 60,
) -> None:
    """Wait until ``table`` holds ``at_least`` rows; fail if ``process`` dies or time is up."""
    deadline = time.monotonic() + seconds
    while count_rows(db, table) < at_least:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, f"{table} never reached {at_least}"
        time.sleep(0.05)

"""A crawl session: the store, fetcher, extraction and crawler wired up, run once or forever.

``feedsift crawl --once`` runs :func:`run_session` with ``mode="once"``: every due feed
(or every feed, with ``all_feeds``) is polled once, new pages fetched and extracted, then it
returns. ``feedsift watch`` runs it with ``mode="watch"``: rounds of due feeds, sleeping
until the next feed is due, until the stop event is set (SIGINT or SIGTERM): work in flight
then finishes and is stored, nothing new is started, and the session returns cleanly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Literal

from feedsift.acquisition.feedworker import ParseLimits
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.crawl.crawler import Crawler, CrawlOptions, utc_now
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionSettings
from feedsift.crawl.rendering import CrawlRendering
from feedsift.crawl.report import CrawlCounts, Listener
from feedsift.dedup.rules import load_rules
from feedsift.extractors.base import PageExtractor
from feedsift.sitelevel.models import SiteOptions
from feedsift.storage import Store
from feedsift.storage.location import DatabaseTarget

__all__ = ["MAX_SLEEP", "SessionSettings", "install_stop_signals", "run_session"]

logger = logging.getLogger(__name__)

#: Longest nap between checks for due feeds: feeds added meanwhile are seen within a minute.
MAX_SLEEP = 60.0
#: How often a watcher looks for work other processes claimed and left (a killed watcher's
#: pages): two queries over the claimed rows only, so cheap; its work waits at most this.
RECOVERY_INTERVAL = 10.0


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """Everything a crawl session needs besides the stop event."""

    db: DatabaseTarget  #: a SQLite file or a PostgreSQL URL
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    crawl: CrawlOptions = field(default_factory=CrawlOptions)
    rule_files: tuple[Path, ...] = ()
    jobs: int = 1  #: extraction worker processes
    extractor: PageExtractor | None = None  #: None: the bundled page-level model
    #: how site-level learners are used; None: the extractor alone (see ArrivalExtraction)
    site_level: SiteOptions | None = field(default_factory=SiteOptions)
    #: the deadline and memory of feed parsing (see acquisition.feedworker)
    feed_limits: ParseLimits = field(default_factory=ParseLimits)
    #: lay pages out in a headless Chromium per extraction worker (None: the estimate)
    render: CrawlRendering | None = None


async def run_session(
    settings: SessionSettings,
    mode: Literal["once", "watch"],
    *,
    all_feeds: bool = False,
    listener: Listener | None = None,
    stop: asyncio.Event | None = None,
) -> CrawlCounts:
    """Run one crawl session; return its counts."""
    options = replace(settings.crawl, rules=load_rules(*settings.rule_files))
    extraction = ArrivalExtraction(settings.extractor, ExtractionSettings(
        jobs=settings.jobs, site_level=settings.site_level, feed_limits=settings.feed_limits,
        render=settings.render,
    ))  # fmt: skip
    try:
        with Store(settings.db) as store:
            try:
                async with Fetcher(settings.policy) as fetcher:
                    crawler = Crawler(store, fetcher, extraction, options, listener)
                    if stop is not None:
                        crawler.stop = stop
                    await crawler.resume()
                    if mode == "once":
                        await crawler.run_round(all_feeds=all_feeds)
                    else:
                        await _watch(crawler)
                    crawler.counts.add_rendering(await extraction.render_report())
                    return crawler.counts
            finally:
                with contextlib.suppress(*store.connection.errors):  # a lost connection's
                    store.release_claims()  # claims end with it
    finally:
        extraction.close()


async def _watch(crawler: Crawler, clock: Callable[[], datetime] = utc_now) -> None:
    swept = clock()
    while not crawler.stop.is_set():
        if (clock() - swept).total_seconds() >= RECOVERY_INTERVAL:
            await crawler.recover()
            swept = clock()
        if await crawler.run_round():
            logger.info("round done: %s", crawler.counts.summary())
            continue
        await _sleep_until_due(crawler, clock)


async def _sleep_until_due(crawler: Crawler, clock: Callable[[], datetime]) -> None:
    """Sleep until a feed no other process polls is due, a stop, or the next sweep."""
    next_due = crawler.store.feeds.next_due(clock())
    seconds = MAX_SLEEP if next_due is None else (next_due - clock()).total_seconds()
    nap = min(MAX_SLEEP, RECOVERY_INTERVAL, max(0.05, seconds))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(crawler.stop.wait(), timeout=nap)


def install_stop_signals(stop: asyncio.Event) -> None:
    """SIGINT and SIGTERM set ``stop``; a second one interrupts at once."""
    loop = asyncio.get_running_loop()

    def on_signal(number: int) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        name = signal.Signals(number).name
        logger.warning("%s: finishing the work in flight, then stopping", name)
        stop.set()

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, on_signal, number)

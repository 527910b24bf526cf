"""Feed parsing in a worker process: the deadline, the memory limit, a dying worker."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from feedsift.acquisition.feeds import ParsedFeed
from feedsift.acquisition.feedworker import FeedParsers, ParseLimits, TimedFeed
from feedsift.errors import FeedError

T = TypeVar("T")

GOOD = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>Good</title><item><title>One'
    b"</title><link>https://good.example.com/1</link></item></channel></rss>"
)
#: 100,000 elements nested in an item's description: feedparser's lenient parser takes
#: about 10 s over them (linear, but 100 us a tag), far past a 1 s deadline.
DEEP = (
    b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>a</title>'
    b"<link>https://deep.example.com/1</link><description>"
    + b"<x>" * 100_000
    + b"</x>" * 100_000
    + b"</description></item></channel></rss>"
)


def run_with(
    limits: ParseLimits, work: Callable[[FeedParsers], Awaitable[T]], **options: object
) -> T:
    async def go() -> T:
        parsers = FeedParsers(limits, **options)  # type: ignore[arg-type]
        try:
            return await work(parsers)
        finally:
            parsers.close()

    return asyncio.run(go())


# Functions a worker runs instead of parse_feed: module-level, so that it can import them.


def pid_as_title(body: bytes, url: str, content_type: str | None) -> TimedFeed:
    return TimedFeed(ParsedFeed(url, "rss", str(os.getpid()), None, (), ()), 0.0)


def allocate(body: bytes, url: str, content_type: str | None) -> TimedFeed:
    hog = bytearray(int(body))  # more than the worker may have
    return TimedFeed(ParsedFeed(url, "rss", str(len(hog)), None, (), ()), 0.0)


def die(body: bytes, url: str, content_type: str | None) -> TimedFeed:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not reached")


def divide(body: bytes, url: str, content_type: str | None) -> TimedFeed:
    return TimedFeed(ParsedFeed(url, "rss", str(1 / len(body)), None, (), ()), 0.0)


def test_feeds_are_parsed_in_one_reused_worker() -> None:
    async def work(parsers: FeedParsers) -> list[str | None]:
        return [(await parsers.parse(b"x", "https://a.example/feed", None)).feed.title
                for _ in range(3)]  # fmt: skip

    pids = run_with(ParseLimits(), work, function=pid_as_title)
    assert len(set(pids)) == 1 and pids[0] != str(os.getpid())


def test_a_feed_past_the_deadline_is_refused_and_the_next_one_parses() -> None:
    async def work(parsers: FeedParsers) -> tuple[float, TimedFeed]:
        started = time.monotonic()
        with pytest.raises(FeedError, match=r"^refused: reading the feed took longer than 1 s$"):
            await parsers.parse(DEEP, "https://deep.example.com/feed", None)
        waited = time.monotonic() - started
        return waited, await parsers.parse(GOOD, "https://good.example.com/feed", None)

    waited, good = run_with(ParseLimits(seconds=1.0), work)
    assert waited < 8.0  # the worker's start (a second or two) and the deadline, not 10 s
    assert good.feed.title == "Good"


def test_a_feed_needing_more_memory_than_the_limit_is_refused() -> None:
    async def work(parsers: FeedParsers) -> str | None:
        with pytest.raises(FeedError, match=r"^refused: .* more than 1024 MiB of memory$"):
            await parsers.parse(str(4 * 1024**3).encode(), "https://hog.example/feed", None)
        return (await parsers.parse(b"1000", "https://small.example/feed", None)).feed.title

    assert run_with(ParseLimits(memory=1024**3), work, function=allocate) == "1000"


def test_a_worker_that_dies_is_reported_and_replaced() -> None:
    async def work(parsers: FeedParsers) -> None:
        stopped = r"^refused: the feed parser stopped \(killed by SIGKILL\)$"
        with pytest.raises(FeedError, match=stopped):
            await parsers.parse(b"x", "https://die.example/feed", None)
        with pytest.raises(FeedError, match="killed by SIGKILL"):  # a fresh worker, same fate
            await parsers.parse(b"x", "https://die.example/feed", None)

    run_with(ParseLimits(), work, function=die)


def test_an_unexpected_exception_comes_back_as_itself() -> None:
    async def work(parsers: FeedParsers) -> str | None:
        with pytest.raises(ZeroDivisionError):
            await parsers.parse(b"", "https://zero.example/feed", None)
        return (await parsers.parse(b"ab", "https://two.example/feed", None)).feed.title

    assert run_with(ParseLimits(), work, function=divide) == "0.5"

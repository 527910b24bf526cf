"""Subscribing: from a URL a user gives (a feed, or a site) to the feed URL to poll.

A URL that serves a feed is taken as it is. A page is searched for feeds the way feed
readers do: ``<link rel="alternate">`` in its HTML, then the HTTP ``Link`` header, then
the common feed paths of blog platforms; the first candidate that really is a feed wins.
An address without a scheme (``blog.example.org``) is tried with https, then http, as feed
readers do; so are ``feed://`` addresses, and ``feed:https://...`` is its inner URL.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from feedsift.acquisition.discovery import (
    FeedLink,
    feed_links_in_header,
    feed_links_in_html,
    guessed_feed_links,
    looks_like_feed,
)
from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.acquisition.feedworker import FeedParsers
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy, FetchResult
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import FEED_ACCEPT
from feedsift.dedup.site import site_of
from feedsift.errors import FeedError, FeedsiftError
from feedsift.storage import Store

__all__ = ["GUESSED_SCHEMES", "FoundFeed", "candidate_urls", "discover", "find_feed", "subscribe"]

#: Schemes tried, in order, for an address given without one: most sites serve https now,
#: and feed readers try it first.
GUESSED_SCHEMES = ("https", "http")
#: The pseudo-scheme of feed links (``feed://host/rss``, ``feed:https://host/rss``).
FEED_SCHEME = "feed:"


@dataclass(frozen=True, slots=True)
class FoundFeed:
    """A feed found for a URL, and how."""

    given: str
    url: str
    title: str | None
    how: Literal["feed", "link-tag", "link-header", "guess"]


def candidate_urls(given: str) -> tuple[str, ...]:
    """The URLs to try for what a user typed: itself when it has a scheme, else it with
    each of :data:`GUESSED_SCHEMES` (a ``feed:`` prefix is dropped first)."""
    address = given.strip()
    if address.lower().startswith(FEED_SCHEME):
        address = address[len(FEED_SCHEME) :].removeprefix("//")
    if "://" in address:
        return (address,)
    bare = address.removeprefix("//")
    return tuple(f"{scheme}://{bare}" for scheme in GUESSED_SCHEMES)


async def discover(
    given: str, policy: FetchPolicy, parsers: FeedParsers | None = None
) -> FoundFeed:
    """:func:`find_feed` for what a user typed, trying each of :func:`candidate_urls` in turn.

    A guessed https is tried without retries (a host without https refuses at once, and
    http is there to try next); the reason of every failed try is in the error.
    """
    candidates = candidate_urls(given)
    failures: list[str] = []
    for number, url in enumerate(candidates, 1):
        last = number == len(candidates)
        async with Fetcher(policy if last else replace(policy, retries=0)) as fetcher:
            try:
                return replace(await find_feed(fetcher, url, parsers), given=given)
            except FeedsiftError as exc:
                if len(candidates) == 1:
                    raise
                failures.append(f"{url}: {exc}")
    raise FeedError("; ".join(failures))


async def find_feed(fetcher: Fetcher, url: str, parsers: FeedParsers | None = None) -> FoundFeed:
    """The feed ``url`` is, or the first one the page at ``url`` leads to; feeds are parsed
    by ``parsers`` (bounded in time and memory) when given."""
    result = await fetcher.fetch(url, accept=FEED_ACCEPT)
    if looks_like_feed(result.body, result.content_type):
        feed = await _parse(parsers, result)
        return FoundFeed(url, result.response_url, feed.title, "feed")
    for link in _candidates(result):
        found = await _try_candidate(fetcher, url, link, parsers)
        if found is not None:
            return found
    raise FeedError(
        "no feed found (looked for <link rel=alternate>, a Link header and common feed paths)"
    )


async def _parse(parsers: FeedParsers | None, result: FetchResult) -> ParsedFeed:
    if parsers is None:
        return parse_feed(result.body, result.response_url, result.content_type)
    return (await parsers.parse(result.body, result.response_url, result.content_type)).feed


def _candidates(result: FetchResult) -> list[FeedLink]:
    links = list(feed_links_in_html(result.body, result.response_url))
    header = result.header("link")
    if header:
        links += feed_links_in_header(header, result.response_url)
    return links + list(guessed_feed_links(result.response_url))


async def _try_candidate(
    fetcher: Fetcher, given: str, link: FeedLink, parsers: FeedParsers | None
) -> FoundFeed | None:
    try:
        result = await fetcher.fetch(link.url, accept=FEED_ACCEPT)
        if not looks_like_feed(result.body, result.content_type):
            return None
        feed = await _parse(parsers, result)
    except FeedsiftError:
        return None
    return FoundFeed(given, result.response_url, feed.title or link.title, link.source)


def subscribe(store: Store, found: FoundFeed, now: datetime, schedule: Schedule) -> bool:
    """Store the subscription; False when the feed was subscribed already."""
    with store.transaction():
        added = store.feeds.add(found.url, site_of(found.url), now=now, interval=schedule.default)
        store.feeds.describe(found.url, found.title, None)
    return added

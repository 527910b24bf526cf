"""Subscribing: from a URL a user gives (a feed, or a site) to the feed URL to poll.

A URL that serves a feed is taken as it is. A page is searched for feeds the way feed
readers do: ``<link rel="alternate">`` in its HTML, then the HTTP ``Link`` header, then
the common feed paths of blog platforms; the first candidate that really is a feed wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from feedsift.acquisition.discovery import (
    FeedLink,
    feed_links_in_header,
    feed_links_in_html,
    guessed_feed_links,
    looks_like_feed,
)
from feedsift.acquisition.feeds import parse_feed
from feedsift.acquisition.fetcher import Fetcher, FetchResult
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import FEED_ACCEPT
from feedsift.dedup.site import site_of
from feedsift.errors import FeedError, FeedsiftError
from feedsift.storage import Store

__all__ = ["FoundFeed", "find_feed", "subscribe"]


@dataclass(frozen=True, slots=True)
class FoundFeed:
    """A feed found for a URL, and how."""

    given: str
    url: str
    title: str | None
    how: Literal["feed", "link-tag", "link-header", "guess"]


async def find_feed(fetcher: Fetcher, url: str) -> FoundFeed:
    """The feed ``url`` is, or the first one the page at ``url`` leads to."""
    result = await fetcher.fetch(url, accept=FEED_ACCEPT)
    if looks_like_feed(result.body, result.content_type):
        feed = parse_feed(result.body, result.response_url, result.content_type)
        return FoundFeed(url, result.response_url, feed.title, "feed")
    for link in _candidates(result):
        found = await _try_candidate(fetcher, url, link)
        if found is not None:
            return found
    raise FeedError(
        "no feed found (looked for <link rel=alternate>, a Link header and common feed paths)"
    )


def _candidates(result: FetchResult) -> list[FeedLink]:
    links = list(feed_links_in_html(result.body, result.response_url))
    header = result.header("link")
    if header:
        links += feed_links_in_header(header, result.response_url)
    return links + list(guessed_feed_links(result.response_url))


async def _try_candidate(fetcher: Fetcher, given: str, link: FeedLink) -> FoundFeed | None:
    try:
        result = await fetcher.fetch(link.url, accept=FEED_ACCEPT)
        if not looks_like_feed(result.body, result.content_type):
            return None
        feed = parse_feed(result.body, result.response_url, result.content_type)
    except FeedsiftError:
        return None
    return FoundFeed(given, result.response_url, feed.title or link.title, link.source)


def subscribe(store: Store, found: FoundFeed, now: datetime, schedule: Schedule) -> bool:
    """Store the subscription; False when the feed was subscribed already."""
    with store.transaction():
        added = store.feeds.add(found.url, site_of(found.url), now=now, interval=schedule.default)
        store.feeds.describe(found.url, found.title, None)
    return added

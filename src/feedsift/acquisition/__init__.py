"""Acquisition: feeds and pages from the web, fetched politely and safely.

``fetcher`` is the asynchronous, polite fetcher of the crawl (robots.txt, per-host limits,
retries, conditional GET, SSRF guard); ``http.fetch_page`` is a single GET on top of it;
``feeds``, ``discovery`` and ``opml`` read feeds, find them and read subscription lists;
``feedworker`` parses feeds in worker processes bounded in time and memory;
``schedule`` says when each feed is polled next; ``warc`` reads the HTML pages of web
archives (``warc_writer`` writes them).
"""

from feedsift.acquisition.discovery import FeedLink, feed_links_in_html, looks_like_feed
from feedsift.acquisition.feeds import FeedEntry, ParsedFeed, parse_feed
from feedsift.acquisition.feedworker import FeedParsers, ParseLimits, TimedFeed
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy, FetchResult, Validators
from feedsift.acquisition.http import FetchedPage, fetch_page
from feedsift.acquisition.opml import Subscription, read_opml, write_opml
from feedsift.acquisition.politeness import HostStats
from feedsift.acquisition.schedule import Schedule
from feedsift.acquisition.warc import WarcPage, WarcSkip, read_warc

__all__ = [
    "FeedEntry",
    "FeedLink",
    "FeedParsers",
    "FetchPolicy",
    "FetchResult",
    "FetchedPage",
    "Fetcher",
    "HostStats",
    "ParseLimits",
    "ParsedFeed",
    "Schedule",
    "Subscription",
    "TimedFeed",
    "Validators",
    "WarcPage",
    "WarcSkip",
    "feed_links_in_html",
    "fetch_page",
    "looks_like_feed",
    "parse_feed",
    "read_opml",
    "read_warc",
    "write_opml",
]

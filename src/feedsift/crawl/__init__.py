"""The crawl: feeds polled, pages fetched, keyed, stored and extracted on arrival.

``crawler.Crawler`` runs the stages over one store; ``session.run_session`` wires it with a
fetcher and an extraction pool for ``feedsift crawl`` and ``feedsift watch``;
``extraction`` is the hook where page-level and site-level extractors plug in;
``subscribe`` turns a user's URL into a feed to poll; ``rendering`` lays pages out in a
headless Chromium per extraction worker (``SessionSettings.render``, ``--render``).
"""

from feedsift.crawl.crawler import Crawler, CrawlOptions
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionJob, ExtractionOutcome
from feedsift.crawl.rendering import CrawlRendering
from feedsift.crawl.report import CrawlCounts, StageTimes
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.crawl.subscribe import FoundFeed, discover, find_feed, subscribe

__all__ = [
    "ArrivalExtraction",
    "CrawlCounts",
    "CrawlOptions",
    "CrawlRendering",
    "Crawler",
    "ExtractionJob",
    "ExtractionOutcome",
    "FoundFeed",
    "SessionSettings",
    "StageTimes",
    "discover",
    "find_feed",
    "run_session",
    "subscribe",
]

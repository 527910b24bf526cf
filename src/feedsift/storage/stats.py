"""Per-feed and per-site counts for ``feedsift stats``: what came in, what failed, how fast."""

from __future__ import annotations

from dataclasses import dataclass

from feedsift.storage.connection import Connection

__all__ = ["FeedStats", "MethodStats", "SiteStats", "feed_stats", "method_stats", "site_stats"]


@dataclass(frozen=True, slots=True)
class FeedStats:
    """One feed's items by state, its polls and its error state."""

    url: str
    site: str
    items: int
    stored: int
    duplicates: int
    failed: int
    pending: int
    polls: int
    mean_poll_seconds: float
    error_count: int
    last_error: str | None


@dataclass(frozen=True, slots=True)
class SiteStats:
    """One site's documents and articles, duplicates found, and mean stage timings."""

    site: str
    documents: int
    articles: int
    exact_duplicates: int
    near_duplicates: int
    listings: int
    mean_fetch_seconds: float
    mean_extract_seconds: float
    errors: int


@dataclass(frozen=True, slots=True)
class MethodStats:
    """How many of a site's articles one extraction method produced."""

    site: str
    method: str
    articles: int


_FEED_QUERY = """
SELECT f.url, f.site, COUNT(i.id),
    COALESCE(SUM(CASE WHEN i.state = 'stored' THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN i.state = 'duplicate' THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN i.state = 'failed' THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN i.state IN ('new', 'retry') THEN 1 ELSE 0 END), 0),
    f.polls, CASE WHEN f.polls > 0 THEN f.poll_seconds / f.polls ELSE 0 END,
    f.error_count, f.last_error
FROM feeds f LEFT JOIN items i ON i.feed_id = f.id
GROUP BY f.id ORDER BY f.site, f.url
"""

_SITE_QUERY = """
SELECT d.site, COUNT(d.id), COUNT(a.id),
    COALESCE(SUM(CASE WHEN a.duplicate_of IS NOT NULL THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN a.near_duplicate_of IS NOT NULL THEN 1 ELSE 0 END), 0),
    COALESCE(SUM(CASE WHEN a.kind = 'listing' THEN 1 ELSE 0 END), 0),
    COALESCE(AVG(d.fetch_seconds), 0),
    COALESCE(AVG(a.extract_seconds), 0),
    (SELECT COUNT(*) FROM errors e JOIN feeds f ON e.feed_id = f.id WHERE f.site = d.site)
FROM documents d LEFT JOIN articles a ON a.document_id = d.id
GROUP BY d.site ORDER BY d.site
"""


def feed_stats(connection: Connection) -> list[FeedStats]:
    return [FeedStats(*row) for row in connection.execute(_FEED_QUERY)]


def site_stats(connection: Connection) -> list[SiteStats]:
    return [SiteStats(*row) for row in connection.execute(_SITE_QUERY)]


def method_stats(connection: Connection) -> list[MethodStats]:
    rows = connection.execute(
        "SELECT site, method, COUNT(*) FROM articles GROUP BY site, method ORDER BY site, method"
    )
    return [MethodStats(*row) for row in rows]

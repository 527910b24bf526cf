"""The faults the faults site plants: one per URL, with what a crawler should record.

``/feed.xml`` lists an item for every faulty page plus good posts, so a crawler must record
each failure and still store the good posts; every faulty *feed* has its own URL, so one
broken feed never hides another. The site itself is :mod:`feedsift.testweb.fault_site`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CHARSET_SENTENCES",
    "CHARSET_TITLE",
    "DEFAULT_SLOW_SECONDS",
    "FAULTS",
    "RATE_LIMITED_REQUESTS",
    "Fault",
]


#: How long the slow URLs wait before answering (crawler timeouts are shorter).
DEFAULT_SLOW_SECONDS = 5.0
#: Requests of a rate-limited URL answered with 429 before it answers 200.
RATE_LIMITED_REQUESTS = 2
#: Non-ASCII sentences opening the paragraphs of the wrongly labelled page.
CHARSET_SENTENCES = (
    "At the café on Rämistrasse, the señora ordered a crème brûlée and a café au lait.",
    "The naïve façade of the Øresund ferry terminal cost €4.2 million – nobody asked why.",
    "“Grüß Gott,” said the piñata maker from Málaga, handing over a smörgåsbord of tools.",
    "Kraków, Zürich and São Paulo all claim the recipe; the jury is still out.",
)
CHARSET_TITLE = "Café notes: crème brûlée, Zürich and the naïve façade"


@dataclass(frozen=True, slots=True)
class Fault:
    """One faulty URL: its name, path, whether feeds or items point at it, the expectation."""

    name: str
    path: str
    target: Literal["feed", "page"]
    expect: str


#: Every fault of the site (``{slow}`` is replaced by the configured delay).
FAULTS = (
    Fault(
        "slow-feed",
        "/slow/feed.xml",
        "feed",
        "timeout: the feed answers only after {slow} s; recorded, other feeds go on",
    ),
    Fault("server-error-feed", "/error/feed.xml", "feed", "HTTP 500 recorded for the feed"),
    Fault(
        "rate-limited-feed",
        "/ratelimit/feed.xml",
        "feed",
        "HTTP 429 with Retry-After: 1 twice, then 200: read after waiting, its item stored",
    ),
    Fault(
        "redirect-loop-feed",
        "/loop/a",
        "feed",
        "too many redirects (/loop/a <-> /loop/b) recorded for the feed",
    ),
    Fault(
        "malformed-feed",
        "/malformed/feed.xml",
        "feed",
        "not well-formed XML (unclosed <b> tag) yet both items are read and stored",
    ),
    Fault(
        "broken-feed",
        "/broken/feed.xml",
        "feed",
        "not a feed (an HTML page served as application/rss+xml): feed error, no items",
    ),
    Fault(
        "billion-laughs-feed",
        "/laughs/feed.xml",
        "feed",
        "entity expansion refused (billion laughs): feed error, memory stays flat",
    ),
    Fault(
        "connection-reset-feed",
        "/reset/feed.xml",
        "feed",
        "connection reset by peer recorded for the feed",
    ),
    Fault(
        "oversized-feed",
        "/huge/feed.xml",
        "feed",
        "body of 30 MiB (Content-Length) exceeds the 20 MiB cap: fetch error",
    ),
    Fault(
        "gzip-bomb-feed",
        "/bomb/feed.xml",
        "feed",
        "gzip body inflating to 1 GiB: stopped at the size cap, fetch error",
    ),
    Fault(
        "slow-page",
        "/slow/post/",
        "page",
        "timeout: the page answers only after {slow} s; recorded, other pages go on",
    ),
    Fault("server-error-page", "/error/post/", "page", "HTTP 500 recorded for the page"),
    Fault(
        "rate-limited-page",
        "/ratelimit/post/",
        "page",
        "HTTP 429 with Retry-After: 1 twice, then 200: stored after waiting",
    ),
    Fault(
        "redirect-loop-page",
        "/loop/b",
        "page",
        "too many redirects (/loop/b <-> /loop/a) recorded for the page",
    ),
    Fault(
        "wrong-charset-page",
        "/charset/post/",
        "page",
        "header says ISO-8859-1 but the bytes are UTF-8: stored with the UTF-8 text "
        "(no mojibake such as 'Ã©')",
    ),
    Fault(
        "oversized-page",
        "/huge/post/",
        "page",
        "body of 30 MiB (Content-Length) exceeds the 20 MiB cap: fetch error",
    ),
    Fault(
        "oversized-stream-page",
        "/huge/stream/",
        "page",
        "body of 30 MiB without Content-Length: reading stops at the 20 MiB cap, fetch error",
    ),
    Fault(
        "gzip-bomb-page",
        "/bomb/post/",
        "page",
        "gzip body inflating to 1 GiB: stopped at the size cap, fetch error",
    ),
    Fault(
        "robots-disallowed-page",
        "/private/secret-post/",
        "page",
        "never fetched: robots.txt disallows /private/; recorded as disallowed",
    ),
    Fault(
        "connection-reset-page",
        "/reset/post/",
        "page",
        "connection reset by peer recorded for the page",
    ),
    Fault("not-found-page", "/gone/post/", "page", "HTTP 404 recorded for the page"),
)

"""``feedsift serve --render``: the server's extractor reads its layout from one headless
Chromium, opened with the server and closed when it stops.

The browser is a :class:`~feedsift.crawl.rendering.WorkerLayout`, as in a crawl, launched
when the server starts (so that no request waits for it); it renders each page with its
stylesheets, fetched under the server's fetch policy (address guard,
``--allow-private``, robots.txt, ``--timeout``), and gives the markup estimate to a page it
cannot render within the time limit, counted. It is safe to share between the extraction
threads: its pool renders two pages at once and the others wait for a context.
"""

from __future__ import annotations

from feedsift.crawl.rendering import CrawlRendering, WorkerLayout
from feedsift.extractors.base import PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.server.fetching import fetch_policy
from feedsift.server.options import ServerOptions

__all__ = ["laid_out", "render_settings", "server_layout"]


def render_settings(options: ServerOptions) -> CrawlRendering | None:
    """How the server renders (``None``: it does not, the markup estimate is used)."""
    if not options.render:
        return None
    return CrawlRendering(page_timeout_ms=options.render_timeout_ms,
                          fetch=fetch_policy(options))  # fmt: skip


def server_layout(options: ServerOptions) -> WorkerLayout | None:
    """The server's browser layout, not started yet (``None`` without ``--render``)."""
    settings = render_settings(options)
    return None if settings is None else WorkerLayout(settings)


def laid_out(extractor: PageExtractor, layout: WorkerLayout | None) -> PageExtractor:
    """``extractor`` reading its layout from ``layout`` (as it is when ``layout`` is None);
    only the page-level extractor reads a layout, and it is the one the server loads."""
    if layout is None:
        return extractor
    assert isinstance(extractor, LearnedPageExtractor), type(extractor)
    return extractor.with_layout(layout)

"""Feed item pages parsed on arrival, kept a while for the site's template jobs.

A feed item's page is parsed when it arrives, to be extracted; after the poll, the same
worker learns (or checks) the feed's template on the same pages and would parse them again:
a quarter of the template jobs' CPU in ``feedsift bench --pipeline``. A worker keeps the
last :data:`KEPT_PAGES` item pages it parsed in a :class:`KeptPages`, and a template job
takes a page from there when its address, content type and bytes are those it would parse
(:meth:`KeptPages.parsed`), else parses it. Extraction reads a parsed page and never edits
it, so the one object serves both.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from feedsift.parsing.page import ParsedPage, parse_page

__all__ = ["KEPT_PAGES", "KeptPages"]

#: Item pages a worker keeps parsed: a feed's template is learned from its first 20 items
#: right after their poll, while other sites' pages go through the same worker; a parsed
#: blog page takes about 0.4 MB (the 24 ssg blogs), so 96 are some 40 MB a worker.
KEPT_PAGES = 96


@dataclass(frozen=True, slots=True)
class _Kept:
    """A parsed page with what it was parsed from."""

    content_type: str | None
    body: bytes
    page: ParsedPage


class KeptPages:
    """The last parsed item pages of one worker, by address (an explicit cache: each
    worker owns one and hands it to its template jobs)."""

    def __init__(self, capacity: int = KEPT_PAGES) -> None:
        self.capacity = capacity
        self.hits = 0  #: pages a template job took from here
        self.misses = 0  #: pages a template job had to parse
        self._pages: OrderedDict[str, _Kept] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def keep(self, url: str, content_type: str | None, body: bytes, page: ParsedPage) -> None:
        """Keep ``page``, parsed from ``body`` fetched at ``url``; the oldest goes when full."""
        if self.capacity < 1:
            return
        self._pages[url] = _Kept(content_type, body, page)
        self._pages.move_to_end(url)
        while len(self._pages) > self.capacity:
            self._pages.popitem(last=False)

    def parsed(self, body: bytes, url: str, content_type: str | None) -> ParsedPage:
        """:func:`~feedsift.parsing.page.parse_page` of ``body``: the kept page when it was
        parsed from the same bytes, address and content type (FeedsiftError as parsing
        raises it)."""
        kept = self._pages.get(url)
        if kept is not None and kept.content_type == content_type and kept.body == body:
            self.hits += 1
            return kept.page
        self.misses += 1
        return parse_page(body, url, content_type)

"""Stylesheets for the crawl's renders, fetched by feedsift's own fetcher.

The browser fetches nothing itself (:mod:`feedsift.rendering.network`). In a crawl a page
renders with its stylesheets all the same: :class:`FetchedStylesheets` is the resolver
that answers the browser's *stylesheet* requests (``<link rel=stylesheet>``, ``@import``)
by fetching them with a :class:`~feedsift.acquisition.fetcher.Fetcher` under the crawl's
:class:`~feedsift.acquisition.fetcher.FetchPolicy`: the same SSRF guard (private and
loopback addresses only with ``allow_private``, checked again on every redirect and for
the address connected), robots.txt, User-Agent, size cap, timeout and redirect limit. A
response must be ``text/css`` (or say no type). Images, fonts, scripts and every other
kind of request are never fetched: they stay blocked, as without a resolver.

Answers are kept per URL for the resolver's life (an extraction worker's), failures
included, so a site's theme is fetched once however many of its pages render; the cache is
bounded in entries and bytes, the least recently used answer leaving first.

**Politeness.** These fetches do not go through the crawl's per-host queue: that queue
lives on the crawl's event loop in the main process, and a stylesheet is asked for from
inside a render, in an extraction worker, while the browser waits. They are few and
cached (a theme has one to a few stylesheets, each fetched once per worker), are made one
at a time, and are not retried, so a host sees a handful of extra requests per worker over
a whole crawl; robots.txt is still obeyed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.errors import FetchError
from feedsift.rendering.network import Resource, ResourceKind

__all__ = [
    "CSS_ACCEPT",
    "CSS_MEDIA_TYPES",
    "MAX_CACHED",
    "MAX_CACHED_BYTES",
    "STYLESHEET_KIND",
    "FetchedStylesheets",
    "StylesheetCounts",
]

logger = logging.getLogger(__name__)

#: The request kind answered (Playwright's resource type of ``<link rel=stylesheet>`` and
#: ``@import``); every other kind stays blocked.
STYLESHEET_KIND: ResourceKind = "stylesheet"
#: Media types taken as CSS; a response without ``Content-Type`` passes, as in the fetcher.
CSS_MEDIA_TYPES = frozenset({"text/css"})
#: The Accept header of a stylesheet request (what browsers send for one).
CSS_ACCEPT = "text/css,*/*;q=0.1"
#: Content type given to a stylesheet whose response named none.
CSS_CONTENT_TYPE = "text/css"
#: Answers kept: a theme has 1-10 stylesheets, and a worker serves a few hundred sites.
MAX_CACHED = 512
#: Bytes of stylesheets kept: a theme's CSS is 10-500 kB; this bounds a worker's memory.
MAX_CACHED_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class StylesheetCounts:
    """What a :class:`FetchedStylesheets` did so far."""

    fetched: int = 0  #: fetched from the network and served
    reused: int = 0  #: answered from the cache (a stylesheet, or a failure remembered)
    failed: int = 0  #: not fetched (refused, robots.txt, status, type, size, time): blocked

    def __add__(self, other: StylesheetCounts) -> StylesheetCounts:
        return StylesheetCounts(
            self.fetched + other.fetched, self.reused + other.reused, self.failed + other.failed
        )


class FetchedStylesheets:
    """A :class:`~feedsift.rendering.network.KindResolver` serving pages' stylesheets,
    fetched under ``policy`` (see the module). Blocking; safe to call from several threads
    (fetches are made one at a time). :meth:`close` ends its connections."""

    def __init__(
        self, policy: FetchPolicy, max_cached: int = MAX_CACHED,
        max_bytes: int = MAX_CACHED_BYTES,
    ) -> None:  # fmt: skip
        #: the crawl's policy, without its delays and retries (see the module: politeness)
        self.policy = replace(policy, min_delay=0.0, retries=0, accept=CSS_ACCEPT)
        self._max_cached, self._max_bytes = max_cached, max_bytes
        self._loop = asyncio.new_event_loop()
        self._fetcher: Fetcher | None = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Resource | None] = OrderedDict()
        self._cached_bytes = 0
        self._counts = StylesheetCounts()
        self._closed = False

    def resolve(self, url: str) -> Resource | None:
        """A stylesheet already fetched for ``url``; nothing is fetched for a request of
        unknown kind."""
        with self._lock:
            return self._cache.get(url)

    def resolve_kind(self, url: str, kind: ResourceKind) -> Resource | None:
        """The stylesheet at ``url`` (fetched once, then from the cache); ``None`` for any
        other kind of request, and for a stylesheet that could not be fetched."""
        if kind != STYLESHEET_KIND:
            return None
        with self._lock:
            if url in self._cache:
                self._cache.move_to_end(url)
                self._count(reused=1)
                return self._cache[url]
            found = self._fetch(url)
            self._keep(url, found)
            return found

    def counts(self) -> StylesheetCounts:
        with self._lock:
            return self._counts

    def close(self) -> None:
        """Close the connections (idempotent); later stylesheets are not fetched."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._fetcher is not None:  # on a thread of its own: the caller's may run a loop
                closing = threading.Thread(
                    target=self._loop.run_until_complete, args=(self._fetcher.aclose(),)
                )
                closing.start()
                closing.join()
            self._loop.close()

    def _fetch(self, url: str) -> Resource | None:
        if self._closed:
            return None
        if self._fetcher is None:
            self._fetcher = Fetcher(self.policy)
        try:
            result = self._loop.run_until_complete(self._fetcher.fetch(url, kinds=CSS_MEDIA_TYPES))
        except FetchError as exc:
            logger.debug("stylesheet not fetched: %s: %s", url, exc)
            self._count(failed=1)
            return None
        self._count(fetched=1)
        return Resource(result.body, result.content_type or CSS_CONTENT_TYPE)

    def _keep(self, url: str, found: Resource | None) -> None:
        size = 0 if found is None else len(found.body)
        if size > self._max_bytes:
            return
        self._cache[url] = found
        self._cached_bytes += size
        while len(self._cache) > self._max_cached or self._cached_bytes > self._max_bytes:
            _, gone = self._cache.popitem(last=False)
            self._cached_bytes -= 0 if gone is None else len(gone.body)

    def _count(self, fetched: int = 0, reused: int = 0, failed: int = 0) -> None:
        self._counts = self._counts + StylesheetCounts(fetched, reused, failed)

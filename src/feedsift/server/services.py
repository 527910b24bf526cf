"""What the endpoints share for the server's lifetime: the store, the extractor and the
feed parsers, opened when the server starts and closed when it stops (no global state).

The store has one database connection, so its work runs one call at a time
(:meth:`Services.in_store`), each in a worker thread: the event loop keeps answering
while a query or a write runs. Extractions run in worker threads too, a few at a time
(:meth:`Services.in_extractor`), so that many large pages at once queue rather than take
all the memory. With ``--render`` the extractor reads its layout from one headless
Chromium (:mod:`feedsift.server.rendering`), opened and closed with the rest.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from feedsift.acquisition.feedworker import FeedParsers
from feedsift.api import bundled_extractor
from feedsift.extractors.base import PageExtractor
from feedsift.server.options import ServerOptions
from feedsift.server.rendering import laid_out, server_layout
from feedsift.storage import Store

__all__ = ["EXTRACTIONS", "SERVICES_KEY", "Services", "open_services", "services_of"]

T = TypeVar("T")

#: The key of the services in the app's lifespan state.
SERVICES_KEY = "services"
#: Pages extracted at once: one per core (extraction is CPU work); the others wait.
EXTRACTIONS = max(2, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class Services:
    """The open store, the page extractor and the feed parsers of one running server."""

    options: ServerOptions
    store: Store
    extractor: PageExtractor
    parsers: FeedParsers  #: bounded feed parsing (worker processes) for subscribing
    lock: asyncio.Lock  #: held while the store is in use
    extractions: CapacityLimiter  #: bounds the extractions running at once

    async def in_store(self, work: Callable[[Store], T]) -> T:
        """``work(store)`` in a worker thread, one call at a time."""
        async with self.lock:
            return await run_in_threadpool(work, self.store)

    async def in_extractor(self, work: Callable[[], T]) -> T:
        """``work()`` (an extraction) in a worker thread, at most :data:`EXTRACTIONS` at once."""
        return await anyio.to_thread.run_sync(work, limiter=self.extractions)


@asynccontextmanager
async def open_services(options: ServerOptions) -> AsyncIterator[Services]:
    """Open the database (created if missing), load the extractor and, with ``render``,
    launch its browser; close them on exit."""
    store = await run_in_threadpool(Store, options.db)
    layout = server_layout(options)
    try:
        if layout is not None:  # launched now: the first request does not wait for it
            await run_in_threadpool(layout.start)
        extractor = laid_out(await run_in_threadpool(bundled_extractor), layout)
        parsers = FeedParsers()
        try:
            limiter = CapacityLimiter(EXTRACTIONS)
            yield Services(options, store, extractor, parsers, asyncio.Lock(), limiter)
        finally:
            parsers.close()
    finally:
        if layout is not None:
            await run_in_threadpool(layout.close)
        store.close()


def services_of(request: Request) -> Services:
    """The running server's services, from the lifespan state the request carries."""
    services = getattr(request.state, SERVICES_KEY)
    assert isinstance(services, Services)
    return services

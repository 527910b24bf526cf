"""The page pool: browser contexts reused across the pages of one site.

A context and its page cost about 0.3-0.5 s to create (a new renderer process) against
0.1-0.3 s for a whole render, so they are kept. One context serves one site (scheme, host
and port) at a time: pages of a site share cookies and storage as they would in a
reader's browser, pages of different sites share nothing. At most ``size`` contexts
live at once; a site without an idle context takes a new one and the least recently
used idle context of another site is closed first. A context whose page failed or ran
out of time is closed, never reused, and so is one that has rendered ``recycle_after``
pages (:attr:`RenderOptions.context_pages <feedsift.rendering.browser.RenderOptions>`):
a renderer process kept for a whole site grows by a few MB a page (its heap, style and
resource caches), and closing the context is what returns that memory. An idle context of
another site is closed once ``idle_after`` pages have been given back since its last one
(:attr:`RenderOptions.idle_pages <feedsift.rendering.browser.RenderOptions>`): a caller
that has moved on to the next site does not keep the last one's renderer process alive
beside it, while callers taking turns on a few sites keep theirs.

Every request of every frame, popup and worker of a context goes through one route
handler, which answers it by :func:`feedsift.rendering.network.decide` for the job the
context is running. Everything here runs on the renderer's event loop thread.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from feedsift.rendering.network import (
    Resource,
    ResourceResolver,
    Verdict,
    decide,
    resolve_request,
)

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Route, WebSocketRoute

__all__ = ["PageJob", "PagePool", "Slot", "close_slot", "site_of"]

#: Seconds a context may take to close before the browser is thought stuck.
CLOSE_TIMEOUT_S = 5.0
#: Every URL (Playwright's glob ``**/*`` leaves out some schemes; a regex does not).
ANY_URL = re.compile(r".*")


@dataclass(slots=True)
class PageJob:
    """One page to render and what its requests met (filled in by the route handler)."""

    url: str
    html: str
    resources: ResourceResolver | None
    allow_loopback: bool
    blocked: list[str] = field(default_factory=list)
    served: int = 0


@dataclass(slots=True)
class Slot:
    """A context, its one page, the site it serves and the job it runs (if any)."""

    context: BrowserContext
    page: Page
    site: str
    job: PageJob | None = None
    pages: int = 0  #: pages rendered in this context so far
    released_at: int = 0  #: the pool's page count when this slot was last given back


def site_of(url: str) -> str:
    """The scheme, host and port of a URL: what a context is reused for."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class PagePool:
    """Contexts per site on one browser (see the module's docstring)."""

    def __init__(
        self, browser: Browser, size: int, context_options: dict[str, object],
        recycle_after: int = 0, idle_after: int = 0,
    ) -> None:  # fmt: skip
        self._browser = browser
        self._size = max(1, size)
        self._recycle_after = recycle_after
        self._idle_after = idle_after
        self._released = 0  # pages given back so far (the idle contexts' clock)
        self._options = context_options
        self._idle: OrderedDict[int, Slot] = OrderedDict()
        self._busy = 0
        self._gate = asyncio.Semaphore(self._size)

    @property
    def busy(self) -> int:
        return self._busy

    async def acquire(self, site: str) -> Slot:
        """An idle context of ``site``, else a new one (waits while all are busy)."""
        await self._gate.acquire()
        self._busy += 1
        try:
            await self._close_stale(site)
            for key, slot in self._idle.items():
                if slot.site == site:
                    del self._idle[key]
                    return slot
            if self._idle and len(self._idle) + self._busy > self._size:
                await close_slot(self._idle.popitem(last=False)[1])
            return await self._new_slot(site)
        except BaseException:
            self._busy -= 1
            self._gate.release()
            raise

    async def release(self, slot: Slot, reusable: bool) -> bool:
        """Give a slot back (closed unless ``reusable``, or when it has rendered
        ``recycle_after`` pages); ``False`` if it would not close."""
        slot.job = None
        slot.pages += 1
        self._released += 1
        slot.released_at = self._released
        self._busy -= 1
        self._gate.release()
        worn = 0 < self._recycle_after <= slot.pages
        if reusable and not worn:
            self._idle[id(slot)] = slot
            return True
        return await close_slot(slot)

    async def _close_stale(self, site: str) -> None:
        """Close the idle contexts of other sites that ``idle_after`` pages have passed
        by since their last page (a caller that has moved on to another site)."""
        if self._idle_after <= 0:
            return
        stale = [
            key
            for key, slot in self._idle.items()
            if slot.site != site and self._released - slot.released_at >= self._idle_after
        ]
        for key in stale:
            await close_slot(self._idle.pop(key))

    async def clear(self) -> None:
        """Close every idle context."""
        while self._idle:
            await close_slot(self._idle.popitem(last=False)[1])

    async def _new_slot(self, site: str) -> Slot:
        context = await self._browser.new_context(**self._options)  # type: ignore[arg-type]
        page = await context.new_page()
        slot = Slot(context, page, site)
        await context.route(ANY_URL, lambda route: _answer(slot, route))
        await context.route_web_socket(ANY_URL, lambda ws: _answer_socket(slot, ws))
        context.on("page", lambda other: _close_other_page(slot, other))
        return slot


async def close_slot(slot: Slot) -> bool:
    """Close a slot's context; ``False`` when it did not close in time (a stuck browser)."""
    try:
        await asyncio.wait_for(slot.context.close(), CLOSE_TIMEOUT_S)
    except Exception:  # a context that cannot close is reported, not raised
        return False
    return True


async def _answer(slot: Slot, route: Route) -> None:
    """Answer one request by the network rule (see :mod:`feedsift.rendering.network`)."""
    job, request = slot.job, route.request
    if job is None:
        await route.abort("blockedbyclient")
        return
    url = request.url
    navigation = request.is_navigation_request() and request.frame.parent_frame is None
    verdict = decide(url, job.url, navigation, None, job.allow_loopback)
    found: Resource | None = None
    if verdict is not Verdict.DOCUMENT and job.resources is not None:
        found = await asyncio.to_thread(resolve_request, job.resources, url, request.resource_type)
        verdict = decide(url, job.url, navigation, found, job.allow_loopback)
    if verdict is Verdict.BLOCK:
        job.blocked.append(url)
        await route.abort("blockedbyclient")
        return
    job.served += 1
    if verdict is Verdict.DOCUMENT:
        await route.fulfill(body=job.html.encode("utf-8"),
                            content_type="text/html; charset=utf-8")  # fmt: skip
    elif found is not None:
        await route.fulfill(body=found.body, content_type=found.content_type)
    else:
        await route.continue_()


async def _answer_socket(slot: Slot, socket: WebSocketRoute) -> None:
    """A WebSocket reaches only loopback, and only when the job allows loopback."""
    job = slot.job
    url = socket.url
    if job is not None and decide(url, job.url, False, None, job.allow_loopback) is Verdict.NETWORK:
        socket.connect_to_server()
        return
    if job is not None:
        job.blocked.append(url)
    await socket.close()


async def _close_other_page(slot: Slot, other: Page) -> None:
    """Popups and ``window.open`` pages are closed at once (their requests are routed too)."""
    if other is not slot.page:
        await other.close()

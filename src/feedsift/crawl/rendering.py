"""``--render`` in the crawl: every extraction worker lays its pages out in its own Chromium.

A :class:`~feedsift.rendering.browser.Renderer` must not cross a fork (its event-loop
thread and the Playwright driver stay in the parent), so the crawl hands each worker a
:class:`CrawlRendering` record and the worker makes a :class:`WorkerLayout` of it: a
layout provider that launches its browser on the first page it is asked about (a worker
that gets no page starts none) and closes it when the worker is done
(:meth:`WorkerLayout.close`). Pages render with their stylesheets, fetched under the
crawl's fetch policy by :class:`~feedsift.rendering.stylesheets.FetchedStylesheets`; the
browser itself reaches no network, loopback included. A page that cannot be rendered gets
the markup estimate (:class:`~feedsift.rendering.browser_layout.BrowserLayout`), and so
does every page of a worker whose browser did not start; both are counted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from feedsift.acquisition.fetcher import FetchPolicy
from feedsift.errors import RenderError
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout, StaticLayout
from feedsift.parsing.page import ParsedPage
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.browser_layout import (
    MAX_KEPT_FALLBACKS,
    BrowserLayout,
    RenderFallback,
    RenderTally,
)
from feedsift.rendering.stylesheets import FetchedStylesheets, StylesheetCounts

__all__ = ["CrawlRendering", "RenderReport", "WorkerLayout", "combine_reports"]

#: The estimate a page gets when the worker's browser did not start (stateless, shared).
_STATIC = StaticLayout()


@dataclass(frozen=True, slots=True)
class CrawlRendering:
    """How the crawl renders (``--render``): a small record each worker gets."""

    #: load and measure one page, else the markup estimate
    page_timeout_ms: int = RenderOptions().page_timeout_ms
    #: how stylesheets are fetched: the crawl's own policy (guard, size cap, timeout)
    fetch: FetchPolicy = field(default_factory=FetchPolicy)
    executable_path: str | None = None  #: else ``$FEEDSIFT_CHROMIUM``, else ``chromium``

    def render_options(self) -> RenderOptions:
        """The renderer's options: the browser reaches no network of its own, loopback
        included (stylesheets come through the resolver, under ``fetch``)."""
        return RenderOptions(
            executable_path=self.executable_path, page_timeout_ms=self.page_timeout_ms,
            allow_loopback=False,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class RenderReport:
    """What the rendering of one worker (or of a whole crawl, combined) did."""

    tally: RenderTally = field(default_factory=lambda: RenderTally(0, 0, ()))
    stylesheets: StylesheetCounts = field(default_factory=StylesheetCounts)


def combine_reports(reports: Iterable[RenderReport]) -> RenderReport:
    """The workers' reports as one (fallback reasons: the first kept ones, in order)."""
    rendered = fallbacks = 0
    reasons: list[RenderFallback] = []
    stylesheets = StylesheetCounts()
    for report in reports:
        rendered += report.tally.rendered
        fallbacks += report.tally.fallbacks
        reasons.extend(report.tally.reasons)
        stylesheets = stylesheets + report.stylesheets
    tally = RenderTally(rendered, fallbacks, tuple(reasons[:MAX_KEPT_FALLBACKS]))
    return RenderReport(tally, stylesheets)


class WorkerLayout:
    """A :class:`BrowserLayout` whose browser starts on the first page (see the module).

    A launch that fails is not tried again: that page and every later one get the markup
    estimate, each counted as a fallback with the launch's reason."""

    def __init__(self, settings: CrawlRendering) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._renderer: Renderer | None = None
        self._browser: BrowserLayout | None = None
        self._stylesheets: FetchedStylesheets | None = None
        self._broken: RenderFallback | None = None
        self._unstarted = 0  #: pages that got the estimate because the browser did not start

    def start(self) -> None:
        """Launch the browser now rather than on the first page (a server's first request
        then does not wait for it). A launch that fails is not tried again, as on a first
        page: every page gets the markup estimate, counted with the launch's reason."""
        with self._lock:
            if self._browser is None and self._broken is None:
                self._launch(None)

    @property
    def running(self) -> bool:
        """Whether the browser was launched and is not closed."""
        with self._lock:
            return self._renderer is not None

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        """The page's rendered layout, else the markup estimate."""
        browser = self._started(page)
        if browser is None:
            return _STATIC.layout(view, page)
        return browser.layout(view, page)

    def report(self) -> RenderReport:
        """Pages rendered and fallen back so far, and the stylesheets fetched."""
        with self._lock:
            browser, stylesheets, broken = self._browser, self._stylesheets, self._broken
            unstarted = self._unstarted
        tally = browser.tally() if browser is not None else RenderTally(0, 0, ())
        if unstarted and broken is not None:
            reasons = (*tally.reasons, broken)[:MAX_KEPT_FALLBACKS]
            tally = RenderTally(tally.rendered, tally.fallbacks + unstarted, reasons)
        counts = stylesheets.counts() if stylesheets is not None else StylesheetCounts()
        return RenderReport(tally, counts)

    def close(self) -> None:
        """Close the browser and the stylesheets' connections (idempotent)."""
        with self._lock:
            renderer, stylesheets = self._renderer, self._stylesheets
            self._renderer = None
        if renderer is not None:
            renderer.close()
        if stylesheets is not None:
            stylesheets.close()

    def _started(self, page: ParsedPage | None) -> BrowserLayout | None:
        """The browser layout, launched on the first call; ``None`` when it did not start."""
        with self._lock:
            if self._browser is None and self._broken is None:
                self._launch(page)
            if self._browser is None:
                self._unstarted += 1
            return self._browser

    def _launch(self, page: ParsedPage | None) -> None:
        try:
            self._renderer = Renderer(self.settings.render_options())
        except RenderError as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            self._broken = RenderFallback(page.url if page else None, reason)
            return
        self._stylesheets = FetchedStylesheets(self.settings.fetch)
        self._browser = BrowserLayout(self._renderer, self._stylesheets)

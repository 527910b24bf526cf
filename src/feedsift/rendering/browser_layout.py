"""A :class:`~feedsift.parsing.layout.LayoutProvider` for many pages: render each, or
fall back to the static estimate.

:class:`BrowserLayout` holds one :class:`~feedsift.rendering.browser.Renderer` (started
and closed by its owner: the CLI run, a crawl, a bench) and an optional
:class:`~feedsift.rendering.network.ResourceResolver` for the pages' subresources. For each
page the pipeline asks about (``layout(view, page)``) it renders the page's own source with
:meth:`RenderedLayout.for_page <feedsift.rendering.provider.RenderedLayout.for_page>`; when
rendering fails (:class:`~feedsift.errors.RenderError`: a time-out, a crashed browser, a
rendered DOM whose blocks differ from the view's) it gives
:class:`~feedsift.parsing.layout.StaticLayout`'s estimate instead, and never silently: every
fallback is counted with its one-line reason (:meth:`BrowserLayout.tally`) and passed to
``on_fallback`` when one is given, so a caller can report it as it happens.

Called without ``page`` (an old caller of ``layout(view)``), the view's own cleaned tree is
rendered: inline styles apply, the page's ``<style>`` elements do not.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from feedsift.errors import RenderError
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout, StaticLayout
from feedsift.parsing.page import ParsedPage
from feedsift.rendering.browser import Renderer
from feedsift.rendering.measure import PageMeasure
from feedsift.rendering.network import ResourceResolver
from feedsift.rendering.provider import RenderedLayout, layout_of

__all__ = ["MAX_KEPT_FALLBACKS", "BrowserLayout", "RenderFallback", "RenderTally"]

#: Fallback reasons a provider keeps for its tally; the count goes on past them (a long
#: crawl must not grow a list without end).
MAX_KEPT_FALLBACKS = 200

#: The estimate used when a page cannot be rendered (stateless: one serves all).
_STATIC = StaticLayout()


@dataclass(frozen=True, slots=True)
class RenderFallback:
    """One page that got the static layout instead of a rendered one, and why."""

    url: str | None  #: the page's address (None: a page without one)
    reason: str  #: the :class:`RenderError`'s one line


@dataclass(frozen=True, slots=True)
class RenderTally:
    """What a :class:`BrowserLayout` did so far."""

    rendered: int  #: pages laid out by the browser
    fallbacks: int  #: pages that got the static estimate
    reasons: tuple[RenderFallback, ...]  #: the first :data:`MAX_KEPT_FALLBACKS` of them


class BrowserLayout:
    """Rendered layouts from one shared :class:`Renderer`, the static estimate on failure.

    ``resources`` answers the pages' subresources (``None``: only the document itself and,
    when the renderer allows it, loopback URLs). ``on_fallback`` is called with each
    fallback, ``on_measure`` with each rendered page's :class:`PageMeasure` (render time,
    browser memory), from the thread that asked for the layout. Safe to share between
    threads.
    """

    def __init__(
        self, renderer: Renderer, resources: ResourceResolver | None = None,
        on_fallback: Callable[[RenderFallback], None] | None = None,
        on_measure: Callable[[PageMeasure], None] | None = None,
    ) -> None:  # fmt: skip
        self.renderer = renderer
        self.resources = resources
        self._on_fallback = on_fallback
        self._on_measure = on_measure
        self._lock = threading.Lock()
        self._rendered = 0
        self._fallbacks: list[RenderFallback] = []
        self._fallback_count = 0

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        """``view``'s rendered layout, else (a :class:`RenderError`) the static estimate."""
        try:
            measured = self._provider(page).measure(view)
        except RenderError as exc:
            self._fell_back(RenderFallback(page.url if page else None, _one_line(exc)))
            return _STATIC.layout(view, page)
        with self._lock:
            self._rendered += 1
        if self._on_measure is not None:
            self._on_measure(measured)
        return layout_of(measured, self.renderer.options.viewport)

    def tally(self) -> RenderTally:
        """Pages rendered and fallen back so far, with the kept reasons."""
        with self._lock:
            return RenderTally(self._rendered, self._fallback_count, tuple(self._fallbacks))

    def _provider(self, page: ParsedPage | None) -> RenderedLayout:
        if page is None:
            return RenderedLayout(self.renderer, resources=self.resources)
        return RenderedLayout.for_page(self.renderer, page, self.resources)

    def _fell_back(self, fallback: RenderFallback) -> None:
        with self._lock:
            self._fallback_count += 1
            if len(self._fallbacks) < MAX_KEPT_FALLBACKS:
                self._fallbacks.append(fallback)
        if self._on_fallback is not None:
            self._on_fallback(fallback)


def _one_line(exc: RenderError) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__

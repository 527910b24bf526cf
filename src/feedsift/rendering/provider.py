"""A :class:`~feedsift.parsing.layout.LayoutProvider` that renders the page.

:class:`RenderedLayout` gives the same units as
:class:`~feedsift.parsing.layout.StaticLayout` (``x``/``width`` as fractions of the
viewport's width, ``y``/``height`` of its height, font size in CSS px) and fills the
optional ``visible``, ``contrast``, ``main_column`` and ``segment`` arrays of the
:class:`~feedsift.parsing.layout.Layout`. A hidden block gets zero width and height (its
``x`` and ``y`` stay as measured), so features built on sizes see it as not shown.

Give it the page's source (:meth:`RenderedLayout.for_page` takes it from a
:class:`~feedsift.parsing.page.ParsedPage`): the view's own tree has lost its ``<style>``
elements and scripts in cleaning (:mod:`feedsift.rendering.marking`).
"""

from __future__ import annotations

import numpy as np

from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout
from feedsift.parsing.page import ParsedPage
from feedsift.rendering.browser import Renderer
from feedsift.rendering.marking import marked_source, marked_tree
from feedsift.rendering.measure import PageMeasure, measure_page
from feedsift.rendering.network import ResourceResolver
from feedsift.rendering.segments import segment_index, visual_segments

__all__ = ["RenderedLayout", "layout_of"]


class RenderedLayout:
    """The layout of a page's blocks as a browser draws them.

    ``source`` is the HTML text the view was parsed from (``ParsedPage.decoded.text``),
    ``url`` the page's address (relative links resolve against it), ``resources`` what
    answers its subresources. Without ``source`` the view's own cleaned tree is rendered.
    """

    def __init__(
        self, renderer: Renderer, source: str | None = None, url: str | None = None,
        resources: ResourceResolver | None = None,
    ) -> None:  # fmt: skip
        self.renderer = renderer
        self.source = source
        self.url = url
        self.resources = resources

    @classmethod
    def for_page(
        cls, renderer: Renderer, page: ParsedPage, resources: ResourceResolver | None = None
    ) -> RenderedLayout:
        """A provider for one parsed page (its source text and URL)."""
        return cls(renderer, page.decoded.text, page.url, resources)

    def measure(self, view: BlockView) -> PageMeasure:
        """Render the page and measure every block of ``view``."""
        html = marked_source(view, self.source) if self.source else marked_tree(view)
        return measure_page(self.renderer, view, html, self.url, self.resources)

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        """The rendered layout of ``view`` (``page`` is ignored: this provider was made for
        one page; :class:`~feedsift.rendering.browser_layout.BrowserLayout` serves many)."""
        return layout_of(self.measure(view), self.renderer.options.viewport)


def layout_of(measured: PageMeasure, viewport: tuple[int, int]) -> Layout:
    """A measured page as a :class:`Layout` in viewport fractions (hidden: zero size), with
    its visual segments (:func:`~feedsift.rendering.segments.visual_segments`)."""
    rows = np.array(
        [(b.x, b.y, b.width, b.height, b.font_size, b.bold, b.visible,
          np.nan if b.contrast is None else b.contrast, b.main_column)
         for b in measured.blocks],
        dtype=np.float64,
    ).reshape(len(measured.blocks), 9)  # fmt: skip
    width, height = float(viewport[0]), float(viewport[1])
    visible = rows[:, 6] > 0
    return Layout(
        x=rows[:, 0] / width, y=rows[:, 1] / height,
        width=np.where(visible, rows[:, 2] / width, 0.0),
        height=np.where(visible, rows[:, 3] / height, 0.0),
        font_size=rows[:, 4], bold=rows[:, 5] > 0, visible=visible, contrast=rows[:, 7],
        main_column=rows[:, 8] > 0,
        segment=segment_index(visual_segments(measured.blocks), len(measured.blocks)),
    )  # fmt: skip

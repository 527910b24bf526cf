"""Rendering: a headless Chromium behind the layout interface (boxes, fonts, visibility).

``Renderer`` owns one browser; ``BrowserLayout`` is the layout provider an extractor takes
(``extractor.with_layout(BrowserLayout(renderer))``), falling back to the static estimate
when a page cannot be rendered; ``DirectoryResources`` serves a site's saved stylesheets,
``FetchedStylesheets`` the crawl's, fetched under its fetch policy.
See docs/rendering.md.
"""

from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.browser_layout import BrowserLayout, RenderTally
from feedsift.rendering.network import DirectoryResources, KindResolver, ResourceResolver
from feedsift.rendering.provider import RenderedLayout
from feedsift.rendering.stylesheets import FetchedStylesheets

__all__ = [
    "BrowserLayout",
    "DirectoryResources",
    "FetchedStylesheets",
    "KindResolver",
    "RenderOptions",
    "RenderTally",
    "RenderedLayout",
    "Renderer",
    "ResourceResolver",
]

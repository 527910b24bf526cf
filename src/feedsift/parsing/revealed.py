"""Markup that looks invisible but holds what a reader sees once a script or a click runs.

Cleaning (:mod:`feedsift.parsing.dom`) drops form controls and hidden elements. Three kinds
of them hold a page's content, and dropping them left whole pages empty
(``wceb2026``: an Investopedia article, a shop's product and collection pages, a Next.js
blog post):

* **A button that swallowed the page.** A ``<button>`` left open makes the parser put the
  rest of the page inside it; no button's label is :data:`SWALLOWED_CHARS` long, so such a
  button becomes a ``<div>`` instead of being dropped.
* **Content a script reveals.** React's streaming render sends the page in
  ``<div hidden id="S:0">`` and moves it into place; lock and consent apps hide ``<main>``'s
  content with ``display:none`` until they run. A hidden element that is or holds the
  page's ``<main>`` or ``<article>``, or holds :data:`MAIN_SHARE` of ``<main>``'s text, stays,
  and so does every React segment that the page's inline script moves into place
  (``$RC("B:0","S:0")``), wherever it is: a news site streams its story's text in one.
* **A collapsed disclosure panel.** Product descriptions, specifications and FAQs sit in
  accordions and tabs (WAI-ARIA's disclosure pattern): a hidden element that a button's
  ``aria-controls`` names (or that holds one), or a ``tabpanel`` / ``region``, stays unless
  it is mostly links (:data:`PANEL_LINK_SHARE`: a collapsed navigation menu).

Measured on every split of ``../shared/bench`` (28 of 4,117 pages changed; the rules were
kept on their train-split figures: ``wceb2026`` train 0.8237 -> 0.8272, Fundus train
0.9281 -> 0.9317, Readability train 0.9472 -> 0.9477, the others unchanged; docs/model.md).
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "LANDMARKS",
    "MAIN_SHARE",
    "PANEL_LINK_SHARE",
    "PANEL_ROLES",
    "SWALLOWED_CHARS",
    "Reveals",
    "text_chars",
    "unwrap_swallowing_buttons",
]

#: A ``<button>`` with this much text is a page swallowed by a button left open.
SWALLOWED_CHARS = 500
#: Elements that are a page's main content whatever hides them.
LANDMARKS = frozenset({"main", "article"})
#: Share of ``<main>``'s text a hidden element inside it must hold to be its content.
MAIN_SHARE = 0.8
#: ARIA roles of the panels of tabs and accordions.
PANEL_ROLES = frozenset({"tabpanel", "region"})
#: A collapsed panel whose text is at least this share link text is a menu, and goes.
PANEL_LINK_SHARE = 0.5
_CONTROLLED = etree.XPath("//@aria-controls")
#: The id of a segment of React's streaming render (``<div hidden id="S:1a">``) in the
#: inline script that moves it into place (``$RC("B:1a","S:1a")``).
_REACT_SEGMENT_REF = re.compile(r'"(S:[0-9a-f]+)"')
#: React's functions that complete a boundary (with its styles: React 19) or replace a segment.
_REACT_MOVES = ("$RC(", "$RR(", "$RS(")


def text_chars(element: etree._Element) -> int:
    """Characters of the element's text, each piece stripped."""
    return sum(len(str(t).strip()) for t in element.itertext())


def unwrap_swallowing_buttons(root: etree._Element) -> None:
    """Turn every ``<button>`` holding :data:`SWALLOWED_CHARS` of text into a ``<div>``."""
    for button in list(root.iter("button")):
        if text_chars(button) >= SWALLOWED_CHARS:
            button.tag = "div"


class Reveals:
    """Which hidden elements of one page hold content (read before anything is dropped)."""

    def __init__(self, root: etree._Element) -> None:
        values = _CONTROLLED(root)
        assert isinstance(values, list)
        self.controlled = frozenset(v for value in values for v in str(value).split())
        #: ``<main>``'s text length, counted once (a page may hide thousands of icons in it)
        self._main_chars: dict[etree._Element, int] = {}
        #: the React segments the page's inline scripts move into place (read now: cleaning
        #: drops the scripts before it asks)
        self.segments = frozenset(
            name
            for script in root.iter("script")
            if script.text and any(move in script.text for move in _REACT_MOVES)
            for name in _REACT_SEGMENT_REF.findall(script.text)
        )

    def keeps(self, element: etree._Element) -> bool:
        """Whether the hidden ``element`` is content a script or a click reveals."""
        return (
            self._main_content(element)
            or self._streamed_segment(element)
            or self._collapsed_panel(element)
        )

    def _streamed_segment(self, element: etree._Element) -> bool:
        """A segment of React's streaming render that the page's own script moves into
        place: the content of a Suspense boundary (Next.js's App Router), wherever it is."""
        ident = element.get("id")
        return ident is not None and ident in self.segments

    def _main_content(self, element: etree._Element) -> bool:
        if any(True for _ in element.iter(*LANDMARKS)):  # the element itself included
            return True
        main = next(element.iterancestors("main"), None)
        if main is None:
            return False
        if main not in self._main_chars:
            self._main_chars[main] = text_chars(main)
        return text_chars(element) >= MAIN_SHARE * self._main_chars[main]

    def _collapsed_panel(self, element: etree._Element) -> bool:
        ids = {e.get("id") for e in element.iter() if e.get("id")}
        roles = {e.get("role") for e in (element, *element.iterchildren()) if e.get("role")}
        if not (ids & self.controlled or roles & PANEL_ROLES):
            return False
        total = text_chars(element)
        links = sum(text_chars(a) for a in element.iter("a"))
        return total > 0 and links < PANEL_LINK_SHARE * total

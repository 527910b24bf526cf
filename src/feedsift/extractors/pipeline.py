"""The shared front half of page-level extraction: one page in, every signal out.

Training and extraction both call :func:`analyse_page`, so the features a model is
trained on are computed by exactly the code that computes them at extraction time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from lxml import etree

from feedsift.extractors.ranges import SubtreeTable, subtree_table
from feedsift.extractors.roles import ClassRoleCache
from feedsift.extractors.signals import PageSignals, page_signals
from feedsift.extractors.titles import TitleCandidates, title_candidates
from feedsift.extractors.token_classes import TokenClassCache
from feedsift.parsing.layout import LayoutProvider, StaticLayout
from feedsift.parsing.page import ParsedPage
from feedsift.parsing.xpath import select_strings
from feedsift.text.tokens import normalize_space

__all__ = ["PageAnalysis", "analyse_page", "title_references"]

#: The layout used when none is given (stateless, so one instance serves every page).
_STATIC = StaticLayout()

#: The declared title fields. Only ``<head>`` is searched: the parser moves ``<meta>`` and
#: ``<title>`` there, and searching the whole document costs ten times more.
_TITLE_FIELDS = etree.XPath(
    "/html/head/title/text()"
    " | /html/head/meta[@property='og:title' or @name='og:title' or @name='twitter:title'"
    " or @property='twitter:title']/@content"
)


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    """Signals, subtree table and title candidates of one parsed page."""

    page: ParsedPage
    signals: PageSignals
    table: SubtreeTable
    titles: TitleCandidates
    subtree_tags: tuple[str, ...]
    #: per block, whether the rendered page shows it (``None``: the layout does not say,
    #: as the static estimate never does)
    visible: np.ndarray | None = None
    #: per block, the number of the visual segment of the rendered page holding it
    #: (``None``: the layout does not segment, as the static estimate never does)
    segment: np.ndarray | None = None


def title_references(page: ParsedPage) -> list[str]:
    """The page's declared title fields (``<title>``, OpenGraph and Twitter titles)."""
    found = [normalize_space(v) for v in select_strings(_TITLE_FIELDS, page.root)]
    return [v for v in dict.fromkeys(found) if v]


def analyse_page(
    page: ParsedPage,
    layout: LayoutProvider | None = None,
    roles: ClassRoleCache | None = None,
    token_classes: TokenClassCache | None = None,
) -> PageAnalysis:
    """Compute everything the page-level models read (``roles`` and ``token_classes``:
    caches of class-name roles and of word classes)."""
    view = page.view
    found = (layout or _STATIC).layout(view, page)
    signals = page_signals(view, found, roles, token_classes)
    table = subtree_table(view, signals)
    titles = title_candidates(view, signals, title_references(page), page.url)
    tags = tuple(s.tag for s in view.subtrees)
    return PageAnalysis(page, signals, table, titles, tags, found.visible, found.segment)

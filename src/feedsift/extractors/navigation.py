"""Blocks inside the page's navigation, as HTML marks it: the ``<nav>`` element.

HTML defines ``<nav>`` as "a section of a page that links to other pages or to parts within
the page", and the gold sets agree: of the 2.8 million content words of the 2,886 training
pages, 581 lie inside a ``<nav>`` (or an element with ``role="navigation"``), 565 of them on
``wceb2026`` (3 pages with more than a fifth of their content there). The
learned block stage reads navigation from class names and tags together (a role bit), and a
model that has not seen a site's markup can still keep a mega menu whose entries are custom
elements without links (a shop's ``<dropdown-item>``s). So after the classifier, the blocks
inside a ``<nav>`` leave the body, unless that ``<nav>`` holds most of the page's words: then
it is no navigation bar but a parse accident (an unclosed ``<nav>`` that swallowed the
article) or a page of links only, which the later steps judge.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from feedsift.extractors.ranges import SubtreeTable

__all__ = ["NAVIGATION_TAGS", "NAV_MAX_SHARE", "navigation_blocks", "navigation_subtrees"]

#: Elements that HTML defines as a page's navigation.
NAVIGATION_TAGS = frozenset({"nav"})
#: A navigation element holding more than this share of the page's words is not taken as
#: navigation (an unclosed ``<nav>`` on a trafilatura-set page holds 65% with the article;
#: the largest real menu seen, a shop's, 45%).
NAV_MAX_SHARE = 0.5


def navigation_subtrees(tags: Sequence[str], table: SubtreeTable) -> np.ndarray:
    """Per subtree, whether it is or lies inside a navigation element that holds at most
    :data:`NAV_MAX_SHARE` of the page's words (subtrees come parents first)."""
    if NAVIGATION_TAGS.isdisjoint(tags):
        return np.zeros(len(tags), dtype=bool)
    limit = NAV_MAX_SHARE * float(table.words[table.parent < 0].sum())
    inside: list[bool] = []  # Python values: a numpy scalar read per subtree costs more
    for tag, parent, words in zip(tags, table.parent.tolist(), table.words.tolist(), strict=True):
        inside.append(
            (parent >= 0 and inside[parent]) or (tag in NAVIGATION_TAGS and words <= limit)
        )
    return np.array(inside, dtype=bool).reshape(len(tags))


def navigation_blocks(tags: Sequence[str], table: SubtreeTable, owner: np.ndarray) -> np.ndarray:
    """Per block (``owner``: each block's subtree), whether it lies in the navigation."""
    subtrees = navigation_subtrees(tags, table)
    if not subtrees.any():
        return np.zeros(len(owner), dtype=bool)
    inside: np.ndarray = subtrees[owner]
    return inside

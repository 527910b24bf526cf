"""Blocks inside the page's ``<nav>`` leave the body after the classifier, unless the
``<nav>`` holds most of the page (an unclosed one that swallowed the article)."""

from __future__ import annotations

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.explain import explain_page
from feedsift.extractors.navigation import navigation_blocks
from feedsift.extractors.pipeline import analyse_page
from feedsift.parsing.page import ParsedPage, parse_page

_SENTENCE = (
    "Paragraph {} of the story tells how the river rose in the night and the town woke to "
    "water in every street, and what the council said the next morning."
)
_SERIES = (
    "This story is part of our series on the floods of the valley, read the other parts "
    "of it from the first to the last one here."
)


def _story(paragraphs: int = 6) -> str:
    return "".join(f"<p>{_SENTENCE.format(i)}</p>" for i in range(paragraphs))


def _page(article: str) -> ParsedPage:
    html = (
        "<html><head><title>Flood night</title></head><body>"
        '<header><a href="/">Home</a></header>'
        f"<article><h1>Flood night</h1>{article}</article>"
        "<footer>(c) 2024</footer></body></html>"
    )
    return parse_page(html.encode(), "http://news.test/flood")


def _in_nav(page: ParsedPage) -> np.ndarray:
    analysis = analyse_page(page)
    return navigation_blocks(analysis.subtree_tags, analysis.table, analysis.signals.owner)


def test_prose_inside_a_nav_leaves_the_body_with_its_stage() -> None:
    page = _page(_story() + f'<nav class="series"><p>{_SERIES}</p></nav>')
    explained = explain_page(bundled_extractor(), page)
    series = next(b for b in explained.blocks if b.text.startswith("This story is part"))
    assert series.score >= explained.threshold  # the classifier alone would keep it
    assert (series.decision, series.stage) == ("removed", "navigation")
    assert "<nav>" in series.reason
    assert _SERIES not in explained.article.text
    assert _SENTENCE.format(5) in explained.article.text


def test_a_menu_of_custom_elements_without_links_is_navigation() -> None:
    menu = "".join(f"<dropdown-item>Guitars {i}</dropdown-item>" for i in range(8))
    page = _page(f"<nav><dropdown-content>{menu}</dropdown-content></nav>" + _story())
    inside = _in_nav(page)
    texts = [b.text for b in page.view.blocks]
    assert [texts[i] for i in np.flatnonzero(inside)] == [f"Guitars {i}" for i in range(8)]


def test_a_nav_holding_most_of_the_page_is_not_navigation() -> None:
    swallowed = _page(f"<nav>{_story()}")  # an unclosed <nav>: the article is inside it
    assert not _in_nav(swallowed).any()
    assert _SENTENCE.format(5) in bundled_extractor().extract(swallowed).text


def test_a_page_without_nav_has_no_navigation_blocks() -> None:
    page = _page(_story())
    assert not _in_nav(page).any()
    assert len(_in_nav(page)) == len(page.view.blocks)

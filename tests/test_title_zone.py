"""The title zone: the leading blocks that may hold a page's title, counted in blocks that
are not links, so a news site's long menus before the headline do not push it out."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from feedsift.extractors.pipeline import analyse_page
from feedsift.extractors.titles import (
    TITLE_ZONE_MIN,
    TITLE_ZONE_SHARE,
    ZONE_LINK_SHARE,
    title_zone,
)
from feedsift.parsing.page import parse_page

_SENTENCE = (
    "Paragraph {} of the report says how the harbour was rebuilt after the storm and what "
    "the town paid for the new walls, stone by stone, over three long winters."
)


def test_without_links_the_zone_is_the_leading_share_of_the_blocks() -> None:
    assert title_zone(np.zeros(100)) == 60
    assert title_zone(np.zeros(50)) == TITLE_ZONE_MIN
    assert title_zone(np.zeros(30)) == 30
    assert title_zone(np.zeros(0)) == 0


def test_links_before_the_headline_do_not_count() -> None:
    menu, article = np.ones(500), np.zeros(100)
    assert title_zone(np.concatenate([menu, article])) == 560
    half_linked = np.full(10, ZONE_LINK_SHARE - 0.01)  # a block with some prose counts
    assert title_zone(np.concatenate([half_linked, np.zeros(90)])) == 60


@given(st.lists(st.floats(0.0, 1.0), max_size=300))
def test_the_zone_is_the_longest_prefix_within_the_share_of_plain_blocks(
    links: list[float],
) -> None:
    link = np.array(links, dtype=np.float64)
    plain = link < ZONE_LINK_SHARE
    limit = max(TITLE_ZONE_MIN, int(plain.sum() * TITLE_ZONE_SHARE))
    zone = title_zone(link)
    assert 0 <= zone <= len(link)
    assert plain[:zone].sum() <= limit
    assert zone == len(link) or plain[: zone + 1].sum() > limit


def test_a_headline_after_a_long_menu_is_a_title_candidate() -> None:
    menu = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(300))
    story = "".join(f"<p>{_SENTENCE.format(i)}</p>" for i in range(12))
    html = (
        "<html><head><title>Harbour walls rebuilt | The Daily Test</title></head><body>"
        f"<nav><ul>{menu}</ul></nav><article><h1>Harbour walls rebuilt</h1>{story}</article>"
        "</body></html>"
    )
    analysis = analyse_page(parse_page(html.encode(), "https://news.test/harbour"))
    texts = [analysis.page.view.blocks[i].text for i in analysis.titles.index]
    assert "Harbour walls rebuilt" in texts
    assert len(analysis.page.view.blocks) > 300  # the headline is past 60% of all blocks

"""Share bars leave the body; topics and headings that merely mention sharing do not."""

from __future__ import annotations

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.controls import social_controls
from feedsift.parsing.page import parse_page

PROSE = "".join(
    f"<p>Paragraph {n} says how the old kitchen radio came back to life, valve by valve, "
    f"with a new mains lead and a fused plug before it was switched on ({n}).</p>"
    for n in range(6)
)


def _controls(post_class: str, bar_class: str) -> list[str]:
    html = f"""<html><body><article class="{post_class}"><h1>Kitchen radio</h1>
    <div class="{bar_class}"><span>Share:</span> <a href="/m">Mastodon</a>
    <a href="/b">Bluesky</a> <a href="/e">Email</a></div>{PROSE}</article></body></html>"""
    page = parse_page(html, "https://blog.example.org/kitchen-radio/")
    signals = bundled_extractor().decide(page).analysis.signals
    kept = np.ones(signals.n, dtype=bool)
    mask = social_controls(page.view, signals, kept)
    return [b.text for b, found in zip(page.view.blocks, mask, strict=True) if found]


def test_a_line_of_links_in_a_share_box_is_a_control() -> None:
    assert _controls("post", "post-share-buttons") == ["Share: Mastodon Bluesky Email"]
    assert _controls("post", "sharedaddy sd-sharing-enabled") == ["Share: Mastodon Bluesky Email"]


def test_a_topic_class_or_an_unnamed_box_is_no_share_box() -> None:
    assert _controls("post tag-sharing-economy category-social", "meta") == []
    assert _controls("post", "byline") == []

"""Figure captions leave an article's text, unless they are most of it."""

from __future__ import annotations

import numpy as np

import feedsift
from feedsift.extractors.captions import caption_blocks, without_captions
from feedsift.parsing.page import parse_page

STORY = (
    "<p>The council voted on Monday to float solar panels on the old reservoir, a plan that "
    "has divided the town for two years and that now goes to a final planning review.</p>"
)
CAPTION = (
    "Councillors walk along the dam wall of the reservoir on Monday morning before the vote, "
    "with the town's water tower behind them. Photo: Courier archive"
)
FIGURE = (
    f"<figure><img src='/a.jpg' alt=''><figcaption><span>{CAPTION}</span></figcaption></figure>"
)


def _article(body: str) -> bytes:
    return (
        "<html><head><title>Solar panels for the reservoir</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        f"<article><h1>Solar panels for the reservoir</h1>{body}</article>"
        "<footer>Courier 2024</footer></body></html>"
    ).encode()


def test_caption_blocks_are_the_blocks_inside_a_figcaption() -> None:
    view = parse_page(_article(STORY + FIGURE + STORY)).view
    marked = [b.text for b, inside in zip(view.blocks, caption_blocks(view), strict=True) if inside]
    assert marked == [CAPTION]


def test_a_table_caption_is_not_a_figure_caption() -> None:
    table = "<table><caption>Votes by ward</caption><tr><td>North</td><td>12</td></tr></table>"
    view = parse_page(_article(STORY + table)).view
    assert not caption_blocks(view).any()


def test_captions_stay_when_they_are_most_of_the_shown_words() -> None:
    view = parse_page(_article("<p>Two photos.</p>" + FIGURE)).view
    words = np.array([b.n_words for b in view.blocks], dtype=float)
    shown = np.ones(len(view.blocks), dtype=bool)
    assert np.array_equal(without_captions(view, shown, words), shown)
    view = parse_page(_article(STORY + FIGURE + STORY)).view
    words = np.array([b.n_words for b in view.blocks], dtype=float)
    shown = np.ones(len(view.blocks), dtype=bool)
    assert np.array_equal(without_captions(view, shown, words), ~caption_blocks(view))


def test_an_article_keeps_its_story_and_not_its_caption() -> None:
    body = STORY + FIGURE + STORY.replace("council", "mayor") + STORY.replace("voted", "agreed")
    article = feedsift.extract(_article(body), "https://courier.example/news/solar")
    assert article.kind is feedsift.PageKind.ARTICLE
    assert "float solar panels" in article.text and "mayor voted" in article.text
    assert "Councillors walk" not in article.text
    assert all(part.kind != "caption" for part in article.body)

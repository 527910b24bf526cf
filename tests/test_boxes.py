"""Boxes named for what they hold (reviews, the author's biography) leave the text, unless
they hold the body."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.boxes import (
    AUTHOR_BIO_WORDS,
    CONSENT_WORDS,
    SIDE_TAGS,
    named_box_blocks,
    tagged_box_blocks,
)
from feedsift.extractors.page import shown_blocks
from feedsift.parsing.page import parse_page

PAGE = """<html><body><div class="post"><p>The story itself, long enough to be a body.</p>
<div class="authorBox"><p>Ann writes about lighthouses.</p></div></div>
<div id="about-author"><p>More about Ann.</p></div>
<div class="biology"><p>Cells divide.</p></div></body></html>"""


def _marked(html: str, body_class: str | None) -> list[str]:
    view = parse_page(html).view
    body = -1
    if body_class is not None:
        body = next(s.index for s in view.subtrees if s.element.get("class") == body_class)
    mask = named_box_blocks(view, body, AUTHOR_BIO_WORDS)
    return [b.text for b, out in zip(view.blocks, mask, strict=True) if out]


def test_author_boxes_are_named_by_whole_class_words() -> None:
    # camelCase and hyphens split; "biology" is not "bio"
    assert _marked(PAGE, "post") == ["Ann writes about lighthouses.", "More about Ann."]


def test_a_box_that_holds_the_body_stays() -> None:
    html = (
        '<html><body><div class="author-bio"><div class="post"><p>A biography page, its '
        "own body.</p></div></div></body></html>"
    )
    assert _marked(html, "post") == []
    assert _marked(html, None) == ["A biography page, its own body."]


def test_asides_and_footers_are_side_boxes_unless_they_hold_the_body() -> None:
    html = (
        '<html><body><article class="post"><p>The story, long enough to be a body.</p>'
        "<aside><p>Fact box: the bridge opened in 1932.</p></aside>"
        "<footer><p>Tags: bridges, history</p></footer></article>"
        '<aside class="column"><div class="story"><p>An old template\'s story column.</p>'
        "</div></aside></body></html>"
    )
    view = parse_page(html).view
    post = next(s.index for s in view.subtrees if s.element.get("class") == "post")
    story = next(s.index for s in view.subtrees if s.element.get("class") == "story")
    mask = tagged_box_blocks(view, post, SIDE_TAGS)
    assert [b.text for b, out in zip(view.blocks, mask, strict=True) if out] == [
        "Fact box: the bridge opened in 1932.",
        "Tags: bridges, history",
        "An old template's story column.",
    ]
    mask = tagged_box_blocks(view, story, SIDE_TAGS)
    assert "An old template's story column." not in [
        b.text for b, out in zip(view.blocks, mask, strict=True) if out
    ]


def test_a_side_box_that_holds_the_title_block_is_the_post() -> None:
    # early HTML5 templates wrote the post as an <aside class="blogPost">
    html = (
        '<html><body><section id="column"><aside class="blogPost"><h1>Ten bridges</h1>'
        "<p>The post itself, long enough to be a body.</p></aside>"
        "<aside><p>Popular: other posts.</p></aside></section></body></html>"
    )
    view = parse_page(html).view
    column = next(s.index for s in view.subtrees if s.element.get("id") == "column")
    title = next(b.index for b in view.blocks if b.text == "Ten bridges")
    mask = tagged_box_blocks(view, column, SIDE_TAGS, title)
    assert [b.text for b, out in zip(view.blocks, mask, strict=True) if out] == [
        "Popular: other posts."
    ]
    assert mask.sum() < tagged_box_blocks(view, column, SIDE_TAGS).sum()


def _shown_words(html: str, body_id: str, title_text: str) -> list[str]:
    """The shown blocks of a page decided by the bundled model, with the body subtree and
    the title block set by hand (as a held-out model may choose them)."""
    page = parse_page(html, url="https://blog.example/2012/08/post/")
    decision = bundled_extractor().decide(page)
    view = page.view
    body = next(s.index for s in view.subtrees if s.element.get("id") == body_id)
    title = next(b.index for b in view.blocks if b.text == title_text)
    content = np.ones(len(view.blocks), dtype=bool)
    decision = replace(decision, best_subtree=body, title_block=title, content=content)
    shown = shown_blocks(page, decision, None).mask
    return [b.text for b, out in zip(view.blocks, shown, strict=True) if out]


STORY = "The post itself, told in a sentence long enough to be most of the page. " * 3


def test_a_box_with_the_headline_and_most_of_the_text_stays() -> None:
    html = (
        "<html><body><section id='column'><aside class='blogPost'><h1>Ten bridges</h1>"
        f"<p>{STORY}</p></aside><aside><p>Popular: other posts.</p></aside></section>"
        "</body></html>"
    )
    assert _shown_words(html, "column", "Ten bridges") == [
        "Ten bridges",
        STORY.strip(),
    ]


def test_a_sidebar_linking_to_the_post_does_not_keep_itself_by_its_title() -> None:
    html = (
        f"<html><body><div id='page'><div class='post'><p>{STORY}</p></div>"
        "<aside><ul><li><a href='/p1'>Ten bridges</a></li><li><a href='/p2'>Old piers</a></li>"
        "</ul></aside></div></body></html>"
    )
    assert _shown_words(html, "page", "Ten bridges") == [STORY.strip()]


def test_a_consent_managers_banner_leaves_a_single_page() -> None:
    banner = (
        "<div id='onetrust-consent-sdk'><div id='onetrust-policy'><p>We and our partners "
        "store and access personal data, like browsing data, on your device.</p></div></div>"
        "<div class='cookie-consent'><p>This site uses cookies to improve your visit.</p></div>"
    )
    html = (
        f"<html><body><div id='page'><h1>Ten bridges</h1><div class='post'><p>{STORY}</p>"
        f"</div></div>{banner}</body></html>"
    )
    assert _shown_words(html, "page", "Ten bridges") == ["Ten bridges", STORY.strip()]
    view = parse_page(html).view
    consent = named_box_blocks(view, -1, CONSENT_WORDS)
    assert int(consent.sum()) == 2

"""Boxes named for what they hold (reviews, the author's biography) leave the text, unless
they hold the body."""

from __future__ import annotations

from feedsift.extractors.boxes import (
    AUTHOR_BIO_WORDS,
    SIDE_TAGS,
    named_box_blocks,
    tagged_box_blocks,
)
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

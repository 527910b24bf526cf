"""The body subtree leaves side boxes: an ``<aside>`` of related teasers is never the body
when another candidate is, unless the aside is the post (it holds the title or an
``<article>`` lies between)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.extractors.features import BlockContext
from feedsift.extractors.pipeline import analyse_page
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.subtrees import (
    CONTENT_BOX_TAGS,
    SIDE_BOX_TAGS,
    in_side_box,
    outside_side_boxes,
)
from feedsift.parsing.page import parse_page

TEASERS = "".join(
    f"<section><h3><a href='/p{i}'>Other story {i}</a></h3><p>Its teaser, a line.</p></section>"
    for i in range(3)
)
PAGE = (
    "<html><body><div id='wrap'><h1>The headline</h1><div id='post'><p>The story.</p></div>"
    f"<aside id='related'>{TEASERS}</aside></div><footer><p>Imprint</p></footer></body></html>"
)


def _subtrees(html: str) -> tuple[list[str], SubtreeTable, dict[str, int]]:
    analysis = analyse_page(parse_page(html))
    names = {s.element.get("id") or s.tag: s.index for s in analysis.page.view.subtrees}
    return list(analysis.subtree_tags), analysis.table, names


def _title(html: str, text: str) -> int:
    return next(b.index for b in parse_page(html).view.blocks if b.text == text)


def _sides(table: SubtreeTable, tags: list[str], title: int) -> list[bool]:
    return [in_side_box(table, tags, i, title) for i in range(len(tags))]


def test_asides_navs_footers_and_what_they_hold_are_side_boxes() -> None:
    tags, table, names = _subtrees(PAGE)
    side = _sides(table, tags, _title(PAGE, "The headline"))
    assert side[names["related"]] and side[names["footer"]]
    assert side[names["section"]]  # a teaser inside the aside
    assert not side[names["post"]] and not side[names["wrap"]]


def test_an_article_inside_an_aside_and_an_aside_holding_the_title_are_no_side_boxes() -> None:
    html = (
        "<html><body><h1>Site</h1><aside id='column'><div id='inner'><article id='story'>"
        "<p>The story.</p></article></div></aside></body></html>"
    )
    tags, table, names = _subtrees(html)
    side = _sides(table, tags, _title(html, "Site"))
    assert side[names["column"]] and side[names["inner"]]
    assert not side[names["story"]]  # a site that wraps its main column in an <aside>
    post = "<html><body><aside id='post'><h1>Title</h1><p>Text.</p></aside></body></html>"
    tags, table, names = _subtrees(post)
    assert not _sides(table, tags, _title(post, "Title"))[names["post"]]


def test_a_body_subtree_in_a_side_box_moves_to_the_best_candidate_outside() -> None:
    tags, table, names = _subtrees(PAGE)
    scores = np.zeros(len(tags))
    scores[[names["related"], names["wrap"], names["post"]]] = [0.6, 0.59, 0.3]
    title = _title(PAGE, "The headline")
    context = BlockContext(title, scores, names["related"])
    assert outside_side_boxes(table, tags, context) == names["wrap"]
    # a body outside side boxes stays, and so does one when every candidate is inside
    assert (
        outside_side_boxes(table, tags, BlockContext(title, scores, names["post"])) == names["post"]
    )
    # without a title block nothing says the box is not the post
    assert (
        outside_side_boxes(table, tags, BlockContext(-1, scores, names["related"]))
        == names["related"]
    )
    only = np.zeros(len(tags))
    only[names["related"]] = 0.6
    context = BlockContext(title, only, names["related"])
    assert outside_side_boxes(table, tags, context) == names["related"]


_TAGS = st.sampled_from(["div", "section", "aside", "nav", "footer", "article", "main"])


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> str:
    """Random nests of block elements, each holding a paragraph of one word."""
    tag = draw(_TAGS)
    children = draw(st.lists(_trees(depth + 1), max_size=3)) if depth < 3 else []
    return f"<{tag}><p>w{draw(st.integers(0, 99))}</p>{''.join(children)}</{tag}>"


@settings(max_examples=60, deadline=None)
@given(body=_trees(), pick=st.integers(0, 200))
def test_side_box_status_passes_from_parent_to_child_on_any_nest(body: str, pick: int) -> None:
    # a child of a side box is in it, unless it is a content landmark; a side box holding
    # the title is not one; anything else inherits its parent's answer
    tags, table, _ = _subtrees(f"<html><body>{body}</body></html>")
    title = pick % max(1, int(table.last.max()) + 1)
    side = _sides(table, tags, title)
    for i, tag in enumerate(tags):
        holds_title = bool(table.first[i] <= title <= table.last[i])
        parent = int(table.parent[i])
        if tag in CONTENT_BOX_TAGS:
            assert not side[i]
        elif tag in SIDE_BOX_TAGS and not holds_title:
            assert side[i]
        else:
            assert side[i] == (side[parent] if parent >= 0 else False)

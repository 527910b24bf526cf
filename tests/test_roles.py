"""Role masks from class/id tokens and tags."""

from __future__ import annotations

import pytest

from feedsift.extractors.roles import class_roles, class_words, role_masks
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.blocks import text_blocks
from feedsift.parsing.dom import clean_dom, parse_html


def _roles(mask: int) -> set[Role]:
    return {role for role in Role if mask >> role & 1}


def test_class_tokens() -> None:
    assert _roles(class_roles("post-content entry")) == {Role.CONTENT}
    assert _roles(class_roles("sidebarWidget")) == {Role.SIDEBAR}
    assert _roles(class_roles("ad-slot")) == {Role.AD}
    assert _roles(class_roles("header")) == {Role.HEADER}  # no "ad" inside "header"
    assert _roles(class_roles("comments-area")) == {Role.COMMENT}
    assert class_roles("") == 0


def test_masks_are_inherited_down_the_tree() -> None:
    view = text_blocks(
        clean_dom(
            parse_html(
                "<body><nav class='menu'><ul><li>Home</li></ul></nav>"
                "<article><div class='entry-content'><p>Text here</p></div></article></body>"
            )
        )
    )
    masks = role_masks(view)
    li = view.blocks[0].subtree
    p = view.blocks[1].subtree
    assert Role.NAV in _roles(int(masks.inherited[li])) and Role.LIST in _roles(
        int(masks.inherited[li])
    )
    assert _roles(int(masks.own[p])) == set()
    assert Role.CONTENT in _roles(int(masks.inherited[p]))
    assert Role.CONTENT in _roles(int(masks.near[p]))


def test_near_and_inherited_masks_follow_parent_and_grandparent() -> None:
    view = text_blocks(
        clean_dom(
            parse_html(
                "<body><div class='sidebar'><section class='comments'><div><ul><li>One</li>"
                "<li>Two <b>bold</b></li></ul><p class='byline'>By me</p></div></section></div>"
                "<main><article class='post'><p>Text</p></article></main></body>"
            )
        )
    )
    masks = role_masks(view)
    own = [int(m) for m in masks.own]
    for sub in view.subtrees:
        parent = sub.parent
        grand = view.subtrees[parent].parent if parent >= 0 else -1
        up = own[parent] if parent >= 0 else 0
        near = own[sub.index] | up | (own[grand] if grand >= 0 else 0)
        inherited = own[sub.index] | (int(masks.inherited[parent]) if parent >= 0 else 0)
        assert int(masks.near[sub.index]) == near
        assert int(masks.inherited[sub.index]) == inherited


def _comment_marked(html: str) -> list[str]:
    view = text_blocks(clean_dom(parse_html(html)))
    inherited = role_masks(view).inherited
    return [b.text for b in view.blocks if Role.COMMENT in _roles(int(inherited[b.subtree]))]


@pytest.mark.parametrize("heading", [
    "<h2>Comments</h2>", "<h3>12 Comments</h3>", "<h2>Comments (3)</h2>",
    "<h3>One response to “A post”</h3>", "<h4>Kommentare</h4>", "<h2 id='comments'>Talk</h2>",
])  # fmt: skip
def test_a_heading_that_opens_the_comments_marks_its_following_siblings(heading: str) -> None:
    html = (f"<body><div><p>The post before</p>{heading}<div><p>First reader</p></div>"
            "<p class='posted'>Posted by: Ann</p></div><p>Footer after</p></body>")  # fmt: skip
    marked = _comment_marked(html)  # the heading itself too when its id says so
    assert marked[-2:] == ["First reader", "Posted by: Ann"] and len(marked) <= 3
    assert "The post before" not in marked and "Footer after" not in marked


@pytest.mark.parametrize("heading", [
    "<h2>Comment les pêcheurs réagissent</h2>", "<h2>Response</h2>", "<h1>Comments</h1>",
    "<h2>Comments on the budget, by the minister</h2>",
])  # fmt: skip
def test_a_heading_that_only_mentions_comments_marks_nothing(heading: str) -> None:
    html = f"<body><div>{heading}<p>Text after it</p></div></body>"
    assert _comment_marked(html) == []


def test_class_words_split_separators_and_camel_case() -> None:
    assert class_words("post-content sidebarWidget") == ["post", "content", "sidebar", "widget"]
    expected = ["product", "reviews", "cr", "review", "list"]
    assert class_words("productReviews cr-review_list") == expected

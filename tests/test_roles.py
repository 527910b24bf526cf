"""Role masks from class/id tokens and tags."""

from __future__ import annotations

from feedsift.extractors.roles import class_roles, role_masks
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

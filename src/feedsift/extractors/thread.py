"""Forum threads: the posts of a discussion, in order, each with its author and date.

On a thread the main content is every post, the opening one and the replies alike, and
forum software prints them as one run of look-alike sibling containers (Discourse's
``div.topic-body``, XenForo's ``article.message``, phpBB's ``div.post``, vBulletin's
``li.postcontainer``). The group of siblings that shares a tag and a first class word and
holds the most words is the thread; each member is a post. The block classifier, trained
mostly on articles, drops replies as comments: on a page the kind classifier calls a forum,
the thread's blocks are put back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from lxml import etree

from feedsift.extractors.kinds import REPEATED_MIN_WORDS, forum_label
from feedsift.metadata.dates import parse_datetime
from feedsift.metadata.textdates import find_text_date
from feedsift.parsing.blocks import BlockView, Subtree, TextBlock
from feedsift.records import Comment

__all__ = ["MIN_POSTS", "Thread", "find_thread"]

#: A thread shows at least this many posts (one post alone is an article).
MIN_POSTS = 2
#: A post's blocks that are mostly links and longer than this are signatures and link
#: lists, not the post (an author's name is a short link and stays).
MAX_LINK_BLOCK_WORDS = 6
#: Longest line of a post's header (its author and date) read as such.
HEADER_WORDS = 8
#: Elements whose text is a post's date.
DATE_TAGS = frozenset({"time"})
#: Share of a block's text in links from which it counts as a link block.
LINK_BLOCK_SHARE = 0.6
#: A post's text is the part of the post that holds at least this share of its words
#: (the message body beside the author's card, the date line and the buttons).
TEXT_SHARE = 0.6
#: Tags of single text blocks: siblings of these are paragraphs of one text, not posts.
TEXT_TAGS = frozenset({"p", "li", "dd", "dt", "td", "th", "pre", "blockquote",
                       "h1", "h2", "h3", "h4", "h5", "h6"})  # fmt: skip
#: Class and ``itemprop`` words of the element that names a post's author.
AUTHOR_WORDS = re.compile(r"\b(?:author|username|user-?name|poster|creator|byline)\b", re.I)
#: Attributes that name an element's role for the author search.
_AUTHOR_ATTRIBUTES = ("itemprop", "class")


@dataclass(frozen=True, slots=True)
class Thread:
    """The posts of a thread and the blocks they span."""

    posts: tuple[Comment, ...]
    blocks: np.ndarray  #: boolean mask of the blocks of every post's text, author and date


def _signature(sub: Subtree) -> tuple[int, str, str]:
    first_class = (sub.element.get("class") or "").split()[:1]
    return sub.parent, sub.tag, first_class[0] if first_class else ""


def _post_group(view: BlockView) -> list[Subtree]:
    """The sibling group of one signature with the most words, of at least two members."""
    groups: dict[tuple[int, str, str], list[Subtree]] = {}
    for sub in view.subtrees:
        if sub.parent < 0 or sub.tag in TEXT_TAGS or sub.first_block == sub.last_block:
            continue
        if sub.n_words >= REPEATED_MIN_WORDS:
            groups.setdefault(_signature(sub), []).append(sub)
    usable = [g for g in groups.values() if len(g) >= MIN_POSTS]
    posts = [g for g in usable if not any(_holds_group(g, other) for other in usable)]
    return max(posts, key=lambda g: sum(s.n_words for s in g), default=[])


def _holds_group(group: list[Subtree], other: list[Subtree]) -> bool:
    """Whether a member of ``group`` holds two or more members of ``other``: then ``group``
    is a set of page sections (a title area beside the post stream), not the posts."""
    for member in group:
        inside = sum(
            member.first_block <= sub.first_block and sub.last_block <= member.last_block
            and sub is not member
            for sub in other
        )  # fmt: skip
        if inside >= MIN_POSTS:
            return True
    return False


def _kept_block(view: BlockView, index: int) -> bool:
    block = view.blocks[index]
    if block.link_share >= LINK_BLOCK_SHARE and block.n_words > MAX_LINK_BLOCK_WORDS:
        return False
    return not (block.n_words <= MAX_LINK_BLOCK_WORDS and forum_label(block.text))


def _author(element: etree._Element) -> str | None:
    for node in element.iter():
        if not isinstance(node.tag, str):
            continue
        roles = " ".join(node.get(a) or "" for a in _AUTHOR_ATTRIBUTES)
        if AUTHOR_WORDS.search(roles):
            name = " ".join("".join(str(t) for t in node.itertext()).split())
            if 0 < len(name.split()) <= MAX_LINK_BLOCK_WORDS:
                return name
    return None


def _published(element: etree._Element) -> datetime | None:
    for node in element.iter("time"):
        found = parse_datetime(node.get("datetime") or "".join(str(t) for t in node.itertext()))
        if found is not None:
            return found
    return None


def _text_part(view: BlockView, sub: Subtree, children: dict[int, list[Subtree]]) -> Subtree:
    """The innermost part of a post that holds :data:`TEXT_SHARE` of its words."""
    while True:
        inner = [c for c in children.get(sub.index, ()) if c.n_words >= TEXT_SHARE * sub.n_words]
        if not inner:
            return sub
        sub = inner[0]


def _post(view: BlockView, sub: Subtree, text_part: Subtree, mask: np.ndarray) -> Comment:
    chosen = [i for i in range(sub.first_block, sub.last_block + 1) if _kept_block(view, i)]
    own = [i for i in chosen if text_part.first_block <= i <= text_part.last_block]
    author = _author(sub.element)
    mask[own] = True
    mask[[i for i in chosen if _header_line(view.blocks[i], author)]] = True
    text = "\n".join(view.blocks[i].text for i in own)
    return Comment(text=text, author=author, published=_published(sub.element))


def _header_line(block: TextBlock, author: str | None) -> bool:
    """Whether a block of a post outside its message is the line that says who wrote it
    and when (an author card's reputation, location, rank and post count are not)."""
    if block.n_words > HEADER_WORDS:
        return False
    if author and author in block.text:
        return True
    return find_text_date(block.text) is not None or block.element.tag in DATE_TAGS


def find_thread(view: BlockView) -> Thread | None:
    """The thread of a forum page, or ``None`` when no run of posts is found."""
    group = _post_group(view)
    if not group:
        return None
    children: dict[int, list[Subtree]] = {}
    for sub in view.subtrees:
        children.setdefault(sub.parent, []).append(sub)
    mask = np.zeros(len(view.blocks), dtype=bool)
    posts = tuple(_post(view, sub, _text_part(view, sub, children), mask) for sub in group)
    return Thread(posts, mask)

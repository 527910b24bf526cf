"""Reader comments, kept apart from the body.

Comment blocks are those the block classifier left out that sit inside an element whose
class, id or tag says "comment" (``#comments``, ``.comment-list``, ``#disqus_thread`` ...),
minus the comment form and the short link-only controls ("Reply", "Permalink"). A comment
is the comment-marked element that repeats among its siblings (``li.comment`` in
``ol.comment-list``); its author is the text of its name element (``.fn``, ``cite``,
``.comment-author``), and the short header line that carries the name is not text.
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.xpath import select_elements
from feedsift.records import Comment
from feedsift.text.tokens import normalize_space

__all__ = ["find_comments"]

_COMMENT = 1 << Role.COMMENT
_FORM = 1 << Role.FORM
#: Blocks at most this long that are mostly link text are controls, not comment text.
CONTROL_MAX_WORDS = 4
#: Longest name (in words) taken as a comment's author.
AUTHOR_MAX_WORDS = 5
#: Longest header line ("Ann on 3 May 2024 at 10:02") dropped with the author's name.
HEADER_MAX_WORDS = 14
#: Where comment templates put the commenter's name.
AUTHOR_XPATH = etree.XPath(
    ".//*[contains(concat(' ', normalize-space(@class), ' '), ' fn ')"
    " or contains(@class, 'comment-author') or contains(@class, 'author-name')"
    " or self::cite]"
)


def _repeats(element: etree._Element) -> bool:
    """Whether a sibling has the same tag and class (one of a list of comments)."""
    parent = element.getparent()
    if parent is None:
        return False
    key = (element.tag, element.get("class"))
    return sum(1 for s in parent if (s.tag, s.get("class")) == key) > 1


def _comment_item(view: BlockView, signals: PageSignals, block: int) -> int:
    """The comment a block belongs to: the innermost repeated comment element, else the
    innermost comment element (-1 when none)."""
    current = view.blocks[block].subtree
    first = -1
    while current >= 0:
        if signals.roles.own[current] & _COMMENT:
            if _repeats(view.subtrees[current].element):
                return current
            first = current if first < 0 else first
        current = view.subtrees[current].parent
    return first


def _is_comment_text(signals: PageSignals, block: int) -> bool:
    if signals.marker[block]:
        return False
    return not (signals.words[block] <= CONTROL_MAX_WORDS and signals.link[block] >= 0.5)


def find_comments(
    view: BlockView, signals: PageSignals, kept: np.ndarray, title: int
) -> tuple[Comment, ...]:
    """The comments of a page, in document order."""
    inherited = signals.roles.inherited[signals.owner]
    candidate = ((inherited & _COMMENT) > 0) & ((inherited & _FORM) == 0) & ~kept
    groups: dict[int, list[int]] = {}
    for block in (int(b) for b in np.flatnonzero(candidate)):
        if block != title and _is_comment_text(signals, block):
            groups.setdefault(_comment_item(view, signals, block), []).append(block)
    return tuple(_comment(view, item, blocks) for item, blocks in groups.items())


def _author(view: BlockView, item: int) -> str | None:
    if item < 0:
        return None
    for element in select_elements(AUTHOR_XPATH, view.subtrees[item].element):
        name = normalize_space("".join(str(t) for t in element.itertext()))
        if name and len(name.split()) <= AUTHOR_MAX_WORDS:
            return name
    return None


def _comment(view: BlockView, item: int, blocks: list[int]) -> Comment:
    author = _author(view, item)
    texts = [
        view.blocks[b].text for b in blocks
        if not (author and view.blocks[b].text.startswith(author)
                and view.blocks[b].n_words <= HEADER_MAX_WORDS)
    ]  # fmt: skip
    return Comment(text="\n".join(texts), author=author)

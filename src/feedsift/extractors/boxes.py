"""Boxes a page marks for what they hold: customers' reviews, the author's biography, the
matter beside and after a story.

Some boxes beside a body are not the body whatever their words say, and the markup says so:
their class or id (``div.user-reviews`` on a product page, ``div.author-bio`` under an
article) or their element (HTML's ``<aside>`` and ``<footer>``). The blocks inside such a
box leave the text, unless the box holds the body subtree (a review site's review is its
article; a biography page is its own body; an old template's ``<aside>`` column holding the
story).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from itertools import pairwise

import numpy as np

from feedsift.extractors.roles import class_words
from feedsift.parsing.blocks import BlockView, Subtree

__all__ = [
    "AUTHOR_BIO_WORDS",
    "CONSENT_WORDS",
    "REVIEW_WORDS",
    "SIDE_BOX_WORDS",
    "SIDE_TAGS",
    "named_box_blocks",
    "tagged_box_blocks",
]

#: Class and id words of a box of customers' reviews. On `wceb2026`'s product pages (train
#: split) 11% of the words under such boxes are gold content, against 89% on its articles
#: and 74% on Dragnet's, whose review sites' reviews are the article: product pages only.
REVIEW_WORDS = frozenset({"review", "reviews"})
#: Class and id words of a box about the author ("author-bio"; "authorBox" and
#: "about-author" are matched run together). Share of their words that gold keeps (up to
#: 400 train pages a set): Dragnet 0.00 (24 pages), Fundus 0.00 (15), `wceb2026` 0.00 (17),
#: Readability 0.07 (6); CleanEval, which keeps most of a page, 0.95 (4).
AUTHOR_BIO_WORDS = frozenset({"bio", "biography", "authorbio", "aboutauthor", "authorbox"})
#: Class and id words of a consent manager's banner and dialog (``#onetrust-consent-sdk``,
#: ``div.cookie-consent``). Share of their words that gold keeps (train splits): none, on
#: every set where they occur (Fundus 10 pages, `wceb2026` 14, Readability, trafilatura set).
CONSENT_WORDS = frozenset({"consent", "onetrust"})
#: The named boxes that leave a page that is one piece of content.
SIDE_BOX_WORDS = AUTHOR_BIO_WORDS | CONSENT_WORDS

#: HTML's elements for what is beside a story (``<aside>``: sidebars, pull-outs, fact boxes)
#: and after it (``<footer>``: tags, share bars, the author line). Share of their words that
#: gold keeps (up to 250 train pages a set): Dragnet 0.00 (37 and 44 pages), Fundus 0.01
#: (126) and 0.00 (198), `wceb2026` 0.01 (67) and 0.00 (167), Readability 0.00 (31, 42).
SIDE_TAGS = frozenset({"aside", "footer"})


#: What a class or id keeps of itself for a quick first test: ASCII letters, lower case. A
#: word found alone or run together with the next one is a substring of that.
_NOT_LETTERS = str.maketrans("", "", string.digits + string.punctuation + string.whitespace)


def _named(names: str, words: frozenset[str]) -> bool:
    """Whether a class and id string has one of ``words``, alone or as two words run
    together ("about-author", "authorBox": aboutauthor, authorbox)."""
    letters = names.encode("ascii", "ignore").decode().lower().translate(_NOT_LETTERS)
    if not any(word in letters for word in words):
        return False  # most boxes: no tokenizing
    found = class_words(names)
    if not words.isdisjoint(found):
        return True
    return any(first + second in words for first, second in pairwise(found))


def _names_in(words: frozenset[str]) -> Callable[[Subtree], bool]:
    """A test of a subtree's class and id for ``words``, remembering each string it read (a
    page repeats its class names box after box)."""
    seen: dict[str, bool] = {}

    def test(subtree: Subtree) -> bool:
        classes, ident = subtree.element.get("class"), subtree.element.get("id")
        if classes is None and ident is None:
            return False
        names = f"{classes or ''} {ident or ''}"
        if names not in seen:
            seen[names] = _named(names, words)
        return seen[names]

    return test


def _holding(view: BlockView, kept: Sequence[int]) -> set[int]:
    """The subtrees ``kept`` (``-1``: none) and their ancestors."""
    holding: set[int] = set()
    for at in kept:
        while at >= 0 and at not in holding:
            holding.add(at)
            at = view.subtrees[at].parent
    return holding


def _box_blocks(
    view: BlockView, kept: Sequence[int], is_box: Callable[[Subtree], bool]
) -> np.ndarray:
    """The blocks inside subtrees ``is_box`` accepts, but for those holding a ``kept`` one."""
    mask = np.zeros(len(view.blocks), dtype=bool)
    holding = _holding(view, kept)
    for subtree in view.subtrees:
        if subtree.index in holding or mask[subtree.first_block]:
            continue
        if is_box(subtree):
            mask[subtree.first_block : subtree.last_block + 1] = True
    return mask


def _kept_subtrees(view: BlockView, body_subtree: int, title_block: int) -> tuple[int, ...]:
    """The body subtree and the title block's owner: a box that holds either is the post."""
    return (body_subtree, view.blocks[title_block].subtree if title_block >= 0 else -1)


def named_box_blocks(
    view: BlockView, body_subtree: int, words: frozenset[str], title_block: int = -1
) -> np.ndarray:
    """The blocks inside boxes whose class or id has one of ``words``, but for boxes that
    hold the body subtree or the title block (``-1``: none)."""
    return _box_blocks(view, _kept_subtrees(view, body_subtree, title_block), _names_in(words))


def tagged_box_blocks(
    view: BlockView, body_subtree: int, tags: frozenset[str], title_block: int = -1
) -> np.ndarray:
    """The blocks inside elements of ``tags``, but for those that hold the body subtree or
    the title block (``-1``: none)."""
    kept = _kept_subtrees(view, body_subtree, title_block)
    return _box_blocks(view, kept, lambda subtree: subtree.tag in tags)

"""Blocks written from the template of a kept block: the rest of a list the classifier began.

The block classifier judges each block on its own, and an item of a list scores lower than
a paragraph of prose (on article pages, lists of teasers are boilerplate). A listicle's
entries, a product's feature list, a thread's posts and the cards after a landing page's
introduction are written from one template: the same chain of tags and classes from the
walk's root down to the block. When the classifier keeps one block of such a group and
half-believes others, those are the same kind of thing as the kept one. So after the
classifier, a block joins the body when its template holds at least
:data:`REPEAT_MIN_GROUP` blocks, one of them kept, and it scores at least
:data:`REPEAT_MIN_SCORE`, is prose rather than a link (link share under
:data:`REPEAT_MAX_LINK_SHARE`), and lies in the body subtree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from feedsift.parsing.blocks import Subtree

__all__ = [
    "REPEAT_MAX_LINK_SHARE",
    "REPEAT_MIN_GROUP",
    "REPEAT_MIN_SCORE",
    "repeat_candidates",
    "repeated_blocks",
    "template_ids",
]

#: Blocks of one template that make a list: two alike are a pair (a photo's caption and
#: its credit), three a list.
REPEAT_MIN_GROUP = 3
#: The least content score of a block that joins its kept sibling: half the classifier's
#: keep threshold (0.4); below it the classifier is sure enough that a block is noise.
REPEAT_MIN_SCORE = 0.2
#: Teaser links of related posts share one template with each other and sometimes with a
#: kept link; a block mostly made of link text does not join.
REPEAT_MAX_LINK_SHARE = 0.5


def template_ids(subtrees: Sequence[Subtree]) -> np.ndarray:
    """Per subtree, a number naming its chain of tags and class attributes from the walk's
    root (subtrees come parents first): equal numbers, one template."""
    known: dict[tuple[int, str, str], int] = {}
    ids: list[int] = []
    for subtree in subtrees:
        parent = ids[subtree.parent] if subtree.parent >= 0 else -1
        key = (parent, subtree.tag, str(subtree.element.get("class") or ""))
        ids.append(known.setdefault(key, len(known)))
    return np.array(ids, dtype=np.int64).reshape(len(ids))


def repeat_candidates(
    scores: np.ndarray, link_share: np.ndarray, body: tuple[int, int] | None
) -> np.ndarray:
    """Per block, whether it may join a kept block of its template: its score, its link
    share, and inside ``body`` (the body subtree's first and last block; ``None``: no body
    subtree, no candidate)."""
    candidates = np.zeros(len(scores), dtype=bool)
    if body is not None:
        first, last = body
        candidates[first : last + 1] = True
    candidates &= (scores >= REPEAT_MIN_SCORE) & (link_share < REPEAT_MAX_LINK_SHARE)
    return candidates


def repeated_blocks(
    subtrees: Sequence[Subtree], owner: np.ndarray, kept: np.ndarray, candidates: np.ndarray
) -> np.ndarray:
    """Per block, whether it is a candidate not kept whose template (its ``owner`` subtree's)
    holds at least :data:`REPEAT_MIN_GROUP` blocks, one of them ``kept``."""
    joining = candidates & ~kept
    if not joining.any() or not kept.any():
        return np.zeros(len(kept), dtype=bool)
    template = template_ids(subtrees)[owner]
    size = np.bincount(template)
    kept_in = np.bincount(template[kept], minlength=len(size))
    grouped: np.ndarray = joining & (size[template] >= REPEAT_MIN_GROUP) & (kept_in[template] > 0)
    return grouped

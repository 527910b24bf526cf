"""Bodies split into chunks: several sibling containers of one template hold the post.

Some publishers cut an article into a run of identical containers with ads and embeds
between them (Wired's ``div.GridWrapper`` "ArticlePageChunks", Adobe Experience Manager's
``div.richtext.parbase``). The body subtree stage, trained mostly on one-container bodies,
then picks the first chunk. Readability answers the same problem by appending the top
candidate's siblings that read like content; here the body region grows to the chunks'
common parent when look-alike siblings of the chosen subtree (or of one of its nearest
ancestors) hold at least as much paragraph text as it does. The block classifier still
judges every block, so the ads between the chunks stay out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from feedsift.extractors.ranges import RANGE_COLUMNS, SubtreeTable
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.blocks import Subtree

__all__ = ["MAX_CHUNK_LEVELS", "MIN_OTHER_CHUNKS_PROSE", "chunked_body"]

#: How far above the chosen body subtree a chunk may start (Wired's is three levels up).
MAX_CHUNK_LEVELS = 4
#: The other chunks must hold at least this multiple of the body's paragraph words.
MIN_OTHER_CHUNKS_PROSE = 1.0
#: Repeated containers in these roles are comments or furniture, never more of the body.
NOT_CHUNK_ROLES = (1 << Role.COMMENT) | (1 << Role.RELATED) | (1 << Role.NAV)
_P_WORDS = RANGE_COLUMNS.index("p_words")


def _style(sub: Subtree) -> tuple[str, str] | None:
    classes = sub.element.get("class")
    return (sub.tag, classes) if classes else None


def _chunk(subtrees: Sequence[Subtree], table: SubtreeTable, best: int) -> list[int] | None:
    """The nearest ancestor-or-self of ``best`` that has look-alike siblings (same tag and
    ``class``), first in the list, followed by those siblings."""
    node = best
    for _ in range(MAX_CHUNK_LEVELS + 1):
        parent = int(table.parent[node])
        if parent < 0:
            return None
        style = _style(subtrees[node])
        if style is not None:
            siblings = [int(i) for i in np.flatnonzero(table.parent == parent)]
            twins = [i for i in siblings if i != node and _style(subtrees[i]) == style]
            if twins:
                return [node, *twins]
        node = parent
    return None


def chunked_body(
    subtrees: Sequence[Subtree], table: SubtreeTable, roles: np.ndarray, best: int
) -> int:
    """The body subtree to use: the chunks' parent when ``best`` is one chunk of several,
    else ``best`` itself. ``roles`` are the subtrees' own role masks."""
    if best < 0:
        return best
    group = _chunk(subtrees, table, best)
    if group is None or roles[group[0]] & NOT_CHUNK_ROLES:
        return best
    p_words = table.prefix[table.last + 1, _P_WORDS] - table.prefix[table.first, _P_WORDS]
    others = float(p_words[group[1:]].sum())
    if others < MIN_OTHER_CHUNKS_PROSE * max(float(p_words[best]), 1.0):
        return best
    return int(table.parent[group[0]])

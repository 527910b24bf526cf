"""Subtree totals as O(1) range sums over blocks.

The blocks of a subtree are contiguous in document order, so any per-block quantity summed
over a subtree is a difference of two prefix sums.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from feedsift.extractors.signals import PageSignals
from feedsift.parsing.blocks import BlockView

__all__ = ["SubtreeTable", "subtree_table"]


@dataclass(frozen=True, slots=True)
class SubtreeTable:
    """Per-subtree arrays (length = number of subtrees)."""

    first: np.ndarray
    last: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    words: np.ndarray
    link_words: np.ndarray
    punct: np.ndarray
    prefix: np.ndarray  #: (n_blocks + 1, k) prefix sums of :data:`RANGE_COLUMNS`

    def range_sum(self, column: int) -> np.ndarray:
        """Per-subtree sum of one prefix-summed column."""
        sums: np.ndarray = self.prefix[self.last + 1, column] - self.prefix[self.first, column]
        return sums

    @property
    def n_blocks(self) -> np.ndarray:
        counts: np.ndarray = (self.last - self.first + 1).astype(np.float64)
        return counts


#: Per-block quantities summed over subtrees (their column in :attr:`SubtreeTable.prefix`).
RANGE_COLUMNS = ("p_words", "li_words", "td_words", "headings", "stop_words", "prose_blocks",
                 "markers", "sentence_ends")
#: A block counts as prose when it has this many words ...
PROSE_MIN_WORDS = 10
#: ... and at most this link share.
PROSE_MAX_LINK = 0.3


def subtree_table(view: BlockView, signals: PageSignals) -> SubtreeTable:
    """Arrays of subtree positions and totals, with prefix sums for range queries."""
    subs = view.subtrees
    count = len(subs)
    words = signals.words
    tag = signals.tag_group
    per_block = np.column_stack([
        words * (tag == 0),
        words * (tag == 2),
        words * (tag == 3),
        ((tag >= 4) & (tag <= 6)).astype(np.float64),
        words * signals.text[:, 0],
        ((words >= PROSE_MIN_WORDS) & (signals.link <= PROSE_MAX_LINK)).astype(np.float64),
        signals.marker,
        signals.text[:, 4],
    ]) if len(words) else np.zeros((0, len(RANGE_COLUMNS)))
    prefix = np.zeros((len(words) + 1, len(RANGE_COLUMNS)))
    np.cumsum(per_block, axis=0, out=prefix[1:])
    numbers = np.array(
        [(s.first_block, s.last_block, s.parent, s.depth, s.n_words, s.n_link_words, s.n_punct)
         for s in subs],
        dtype=np.float64,
    ).reshape(count, 7)  # fmt: skip
    index = numbers[:, :3].astype(np.int64)
    return SubtreeTable(
        first=index[:, 0],
        last=index[:, 1],
        parent=index[:, 2],
        depth=numbers[:, 3],
        words=numbers[:, 4],
        link_words=numbers[:, 5],
        punct=numbers[:, 6],
        prefix=prefix,
    )

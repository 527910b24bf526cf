"""The block classifier's second look: each block beside what the first look thought of
its neighbours and its containers.

The block classifier judges every block from its own features and a fixed window around
it. Whether a block belongs to the article often shows only in what the classifier made of
the rest of the page: a poll in a sidebar whose other boxes all scored low, a caption
carousel after the last paragraph, the two short paragraphs of a post above three hundred
comments. The second look (auto-context stacking) reads the first look's scores around
each block: its neighbours', its containers' word-weighted means, how far it lies from
the blocks the first look was sure of, and whether it sits in the smallest subtree that
holds most of the first look's content. A second classifier, trained on the
cross-fitted first-look scores of the training pages, reads them beside the block's own
features; the final content probability is the mean of the two looks.
"""

from __future__ import annotations

import numpy as np

from feedsift.extractors.features import shifted, window_mean
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.signals import PageSignals

__all__ = ["CONTEXT_FEATURES", "SECOND_LOOK_WEIGHT", "score_context_features"]

#: The second look's share of the final score. Alone (1.0) it moved held-out pages both
#: ways (158 of 415 Dragnet pages by more than 0.005, Fundus -0.006); the mean of the two
#: looks kept most of the gain, halved the losses and wins the train split's cross-validation
#: too (docs/model.md, "A second look at the blocks").
SECOND_LOOK_WEIGHT = 0.5

#: Offsets of the neighbours whose first-look scores a block sees.
NEIGHBOUR_OFFSETS = (-2, -1, 1, 2)
#: Half widths (in blocks) of the windows whose mean first-look score a block sees.
WINDOW_HALVES = (5, 15)
#: How many containers up (owner, parent, ...) a block sees the mean score of.
CONTAINER_LEVELS = 4
#: A first-look score from which a block counts as sure content.
SURE_SCORE = 0.8
#: A first-look score from which a block counts as kept (the bundle's usual threshold).
KEPT_SCORE = 0.4
#: The content core is the smallest subtree holding this share of the kept words.
CORE_SHARE = 0.75

#: Names of the columns :func:`score_context_features` returns, in order.
CONTEXT_FEATURES: tuple[str, ...] = (
    "score",
    *(f"score at {o:+d}" for o in NEIGHBOUR_OFFSETS),
    *(f"mean score within {h}" for h in WINDOW_HALVES),
    *(f"container {k} mean score" for k in range(CONTAINER_LEVELS)),
    *(f"container {k} kept share" for k in range(CONTAINER_LEVELS)),
    "blocks to a sure block before", "blocks to a sure block after",
    "between the first and last sure blocks",
    "page kept word share", "page sure blocks",
    "inside the content core", "depth below the content core",
)


def _range_sums(table: SubtreeTable, per_block: np.ndarray) -> np.ndarray:
    """Per subtree, the sum of ``per_block`` over its blocks."""
    prefix = np.concatenate([[0.0], np.cumsum(per_block)])
    sums: np.ndarray = prefix[table.last + 1] - prefix[table.first]
    return sums


def _ancestor(table: SubtreeTable, subtree: np.ndarray, levels: int) -> np.ndarray:
    """Per entry of ``subtree``, its ``levels``-th ancestor (the root stays the root)."""
    current = subtree.copy()
    for _ in range(levels):
        parent = table.parent[current]
        current = np.where(parent >= 0, parent, current)
    return current


def _containers(signals: PageSignals, table: SubtreeTable, scores: np.ndarray) -> list[np.ndarray]:
    """Word-weighted mean score and kept word share of the owner and its ancestors."""
    words = np.maximum(signals.words, 1.0)
    total = _range_sums(table, words)
    mean = _range_sums(table, words * scores) / total
    kept = _range_sums(table, words * (scores >= KEPT_SCORE)) / total
    means, shares = [], []
    for level in range(CONTAINER_LEVELS):
        at = _ancestor(table, signals.owner, level)
        means.append(mean[at])
        shares.append(kept[at])
    return [np.column_stack(means), np.column_stack(shares)]


def _sure_distances(scores: np.ndarray) -> np.ndarray:
    """Blocks to the nearest sure block before and after (log-scaled; the page's length
    when none), and whether the block lies between the first and the last sure block."""
    n = len(scores)
    sure = np.flatnonzero(scores >= SURE_SCORE)
    index = np.arange(n)
    if not len(sure):
        far = np.full(n, np.log1p(n))
        return np.column_stack([far, far, np.zeros(n)])
    before_at = np.searchsorted(sure, index, side="right") - 1
    after_at = np.searchsorted(sure, index, side="left")
    before = np.where(before_at >= 0, index - sure[np.maximum(before_at, 0)], n)
    after = np.where(after_at < len(sure), sure[np.minimum(after_at, len(sure) - 1)] - index, n)
    inside = (index >= sure[0]) & (index <= sure[-1])
    return np.column_stack([np.log1p(before), np.log1p(after), inside.astype(np.float64)])


def _core(table: SubtreeTable, signals: PageSignals, scores: np.ndarray) -> np.ndarray:
    """Whether each block lies in the content core (the deepest subtree holding
    :data:`CORE_SHARE` of the kept words) and how deep its owner is below the core."""
    n = len(scores)
    kept = _range_sums(table, signals.words * (scores >= KEPT_SCORE))
    total = float(kept.max()) if len(kept) else 0.0
    if total <= 0:
        return np.zeros((n, 2))
    holding = np.flatnonzero(kept >= CORE_SHARE * total)
    core = int(holding[np.argmax(table.depth[holding])])
    index = np.arange(n)
    inside = (index >= table.first[core]) & (index <= table.last[core])
    below = np.where(inside, table.depth[signals.owner] - table.depth[core], -1.0)
    return np.column_stack([inside.astype(np.float64), below])


def score_context_features(
    signals: PageSignals, table: SubtreeTable, scores: np.ndarray
) -> np.ndarray:
    """The ``(n_blocks, len(CONTEXT_FEATURES))`` matrix of one page's first-look scores."""
    n = signals.n
    if n == 0:
        return np.zeros((0, len(CONTEXT_FEATURES)))
    words = signals.words
    kept_share = float((words * (scores >= KEPT_SCORE)).sum() / max(words.sum(), 1.0))
    page = np.tile([kept_share, np.log1p(float((scores >= SURE_SCORE).sum()))], (n, 1))
    parts = [
        scores[:, None],
        np.column_stack([shifted(scores, o, 0.0) for o in NEIGHBOUR_OFFSETS]),
        np.column_stack([window_mean(scores, h) for h in WINDOW_HALVES]),
        *_containers(signals, table, scores),
        _sure_distances(scores),
        page,
        _core(table, signals, scores),
    ]
    return np.hstack(parts).astype(np.float32)

"""Block feature matrix of the page-level body classifier.

One row per text block: the block's own content features, its structure (owner tag, depth,
role masks of the owner and its ancestors), its neighbours, the totals of the subtrees
around it, where it sits relative to the title and to the first post-end phrase (the
title-finding paper's rules) and relative to the best body subtree candidate (the
template-independent paper's body classifier).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from feedsift.extractors.kinds import KIND_LABELS
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.roles import role_bits
from feedsift.extractors.signals import OWNER_TAGS, PageSignals

__all__ = ["BlockContext", "block_features", "shifted", "window_mean"]

#: Columns of the kind probabilities every block row carries.
N_KINDS = len(KIND_LABELS)
#: Offsets of the neighbour blocks described in each row.
NEIGHBOUR_OFFSETS = (-2, -1, 1, 2)
#: Half-width of the window whose mean link share and words describe a block's region.
WINDOW = 5


@dataclass(frozen=True, slots=True)
class BlockContext:
    """What earlier stages found on the page: the title block and the subtree scores."""

    title: int  #: index of the title block, -1 when none was found
    subtree_scores: np.ndarray  #: per subtree; 0 for subtrees that are not candidates
    best_subtree: int  #: index of the best body candidate, -1 when none
    #: the kind classifier's probabilities in ``KIND_LABELS`` order (zeros: not known);
    #: every block sees them, so what counts as content can depend on the kind of page
    kind_scores: np.ndarray = field(default_factory=lambda: np.zeros(N_KINDS))


def shifted(values: np.ndarray, offset: int, fill: float) -> np.ndarray:
    """``values`` read ``offset`` places ahead (behind when negative), ``fill`` past the ends."""
    out = np.full_like(values, fill)
    if offset < 0:
        out[-offset:] = values[:offset]
    elif offset > 0:
        out[:-offset] = values[offset:]
    return out


def window_mean(values: np.ndarray, half: int) -> np.ndarray:
    """The mean of ``values`` within ``half`` places of each entry (cut at the ends)."""
    prefix = np.concatenate([[0.0], np.cumsum(values)])
    n = len(values)
    lo = np.maximum(np.arange(n) - half, 0)
    hi = np.minimum(np.arange(n) + half + 1, n)
    means: np.ndarray = (prefix[hi] - prefix[lo]) / (hi - lo)
    return means


def _own(signals: PageSignals) -> list[np.ndarray]:
    words = signals.words
    tag_onehot = np.zeros((signals.n, len(OWNER_TAGS) + 1))
    tag_onehot[np.arange(signals.n), signals.tag_group] = 1
    return [
        np.log1p(words)[:, None], signals.link[:, None],
        (signals.punct / np.maximum(words, 1))[:, None], np.log1p(signals.punct)[:, None],
        signals.text, signals.line_break[:, None], signals.marker[:, None],
        np.log(signals.repeats)[:, None], tag_onehot, signals.depth[:, None],
        signals.layout[:, :2], np.minimum(signals.layout[:, 2:3], 20.0), signals.layout[:, 3:],
    ]


def _neighbours(signals: PageSignals) -> list[np.ndarray]:
    cols = []
    words = np.log1p(signals.words)
    same_tag = signals.tag_group
    for offset in NEIGHBOUR_OFFSETS:
        cols.append(shifted(words, offset, -1.0)[:, None])
        cols.append(shifted(signals.link, offset, -1.0)[:, None])
        cols.append(shifted(signals.text[:, 4], offset, -1.0)[:, None])
        cols.append((shifted(same_tag.astype(np.float64), offset, -1.0) == same_tag)[:, None])
    cols.append(window_mean(signals.link, WINDOW)[:, None])
    cols.append(window_mean(words, WINDOW)[:, None])
    cols.append(window_mean(signals.text[:, 0], WINDOW)[:, None])
    return cols


def _containers(signals: PageSignals, table: SubtreeTable) -> list[np.ndarray]:
    total = max(1.0, float(signals.words.sum()))
    level = signals.owner
    cols = []
    for _ in range(3):
        words = table.words[level]
        cols.append(np.log1p(words)[:, None])
        cols.append((table.link_words[level] / np.maximum(words, 1))[:, None])
        cols.append((table.punct[level] / np.maximum(words, 1))[:, None])
        cols.append(np.log1p(table.n_blocks[level])[:, None])
        cols.append((words / total)[:, None])
        level = np.where(table.parent[level] >= 0, table.parent[level], level)
    return cols


def _roles(signals: PageSignals) -> list[np.ndarray]:
    owner = signals.owner
    roles = signals.roles
    return [
        role_bits(roles.own[owner]),
        role_bits(roles.near[owner]),
        role_bits(roles.inherited[owner]),
    ]


def _title_and_end(signals: PageSignals, title: int) -> list[np.ndarray]:
    n = signals.n
    index = np.arange(n)
    if title < 0:
        return [np.zeros((n, 5))]
    markers_after = (signals.marker > 0) & (index > title)
    seen_marker = np.cumsum(markers_after) > 0
    return [np.column_stack([
        np.ones(n), index == title, (index - title) / max(1, n), index > title, seen_marker,
    ])]


def _ancestor_max(table: SubtreeTable, scores: np.ndarray) -> np.ndarray:
    """Each subtree's highest score among itself and its ancestors (parents come first).
    The walk reads Python lists: indexing numpy arrays one item at a time costs five times
    more (0.2 ms a page)."""
    best = scores.astype(np.float64).tolist()
    for child, parent in enumerate(table.parent.tolist()):
        if parent >= 0 and best[parent] > best[child]:
            best[child] = best[parent]
    return np.array(best, dtype=np.float64)


def _subtree_relation(
    signals: PageSignals, table: SubtreeTable, context: BlockContext
) -> list[np.ndarray]:
    n = signals.n
    index = np.arange(n)
    best = context.best_subtree
    if best < 0:
        return [np.zeros((n, 5))]
    inside = (table.first[best] <= index) & (index <= table.last[best])
    owner = signals.owner
    return [np.column_stack([
        inside, np.full(n, context.subtree_scores[best]),
        _ancestor_max(table, context.subtree_scores)[owner],
        context.subtree_scores[owner], table.depth[owner] - table.depth[best],
    ])]


def _page(signals: PageSignals) -> list[np.ndarray]:
    n = signals.n
    total = float(signals.words.sum())
    link = float((signals.words * signals.link).sum()) / max(1.0, total)
    prefix = np.cumsum(signals.words) - signals.words
    return [
        np.column_stack([np.full(n, np.log1p(total)), np.full(n, np.log1p(n)), np.full(n, link),
                         np.arange(n) / max(1, n), prefix / max(1.0, total)])
    ]


def block_features(
    signals: PageSignals, table: SubtreeTable, context: BlockContext
) -> np.ndarray:
    """The (n_blocks, n_features) matrix of one page."""
    if signals.n == 0:
        return np.zeros((0, 0))
    parts = [
        *_own(signals), *_neighbours(signals), *_containers(signals, table), *_roles(signals),
        *_title_and_end(signals, context.title), *_subtree_relation(signals, table, context),
        *_page(signals), np.tile(context.kind_scores, (signals.n, 1)),
    ]
    return np.hstack(parts).astype(np.float32)

"""Body subtree candidates (template-independent paper, sections III.C and IV.B).

Every subtree holding a sizeable share of the page's words is a candidate for the *body
subtree*, the lowest subtree that holds the post. Its features are the paper's content
features (BodyLen, MarksNum, EndWith) and its spatial ones estimated from the static layout
(vertical position, width), relative to the title block found earlier (RelV), plus
link density, prose share and role masks. A model scores each candidate with the F1 its
blocks would reach as the whole body; the best-scoring candidate marks the body region.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.boxes import SIDE_TAGS
from feedsift.extractors.features import BlockContext
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.roles import role_bits
from feedsift.extractors.signals import PageSignals
from feedsift.parsing.revealed import LANDMARKS

__all__ = [
    "MIN_CANDIDATE_SHARE",
    "SubtreeCandidates",
    "candidate_f1",
    "in_side_box",
    "outside_side_boxes",
    "subtree_candidates",
]

#: A subtree is a body candidate when it holds at least this share of the page's words ...
MIN_CANDIDATE_SHARE = 0.02
#: ... and at least this many words.
MIN_CANDIDATE_WORDS = 5
#: Candidate tag groups with a column of their own.
CANDIDATE_TAGS: tuple[tuple[str, ...], ...] = (
    ("div",), ("article", "main"), ("section",), ("td", "tr", "tbody", "table"), ("body",),
    ("ul", "ol", "dl"), ("p",),
)  # fmt: skip
_CANDIDATE_TAG = {tag: i for i, group in enumerate(CANDIDATE_TAGS) for tag in group}


@dataclass(frozen=True, slots=True)
class SubtreeCandidates:
    """Indices of the candidate subtrees and their feature rows."""

    index: np.ndarray
    features: np.ndarray


def _safe_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.divide(a, b, out=np.zeros_like(a, dtype=np.float64), where=b > 0)
    return out


def _largest_child_share(table: SubtreeTable) -> np.ndarray:
    """Each subtree's largest child's share of its words (a maximum per parent, in C)."""
    largest = np.zeros(len(table.words))
    has_parent = table.parent >= 0
    np.maximum.at(largest, table.parent[has_parent], table.words[has_parent])
    return _safe_div(largest, table.words)


def _title_relation(table: SubtreeTable, idx: np.ndarray, title: int, n: int) -> np.ndarray:
    first, last = table.first[idx], table.last[idx]
    if title < 0:
        return np.zeros((len(idx), 4))
    contains = (first <= title) & (title <= last)
    return np.column_stack([
        np.ones(len(idx)),
        contains,
        (first - title) / max(1, n),
        (title < first) & (first - title <= 3),
    ])


def subtree_candidates(
    table: SubtreeTable, signals: PageSignals, tags: list[str], title: int
) -> SubtreeCandidates:
    """Candidate subtrees of a page and their feature matrix."""
    total = max(1.0, float(signals.words.sum()))
    keep = (table.words >= MIN_CANDIDATE_WORDS) & (table.words >= MIN_CANDIDATE_SHARE * total)
    idx = np.flatnonzero(keep)
    words = table.words[idx]
    n = max(1, signals.n)
    sums = {name: table.range_sum(i)[idx] for i, name in enumerate(
        ("p", "li", "td", "headings", "stop", "prose", "markers", "sentence"))}
    blocks = table.n_blocks[idx]
    tag_onehot = np.zeros((len(idx), len(CANDIDATE_TAGS) + 1))
    tag_onehot[np.arange(len(idx)), [_CANDIDATE_TAG.get(tags[i], len(CANDIDATE_TAGS))
                                     for i in idx]] = 1
    y = signals.layout[table.first[idx], 2] if signals.n else np.zeros(len(idx))
    width = signals.layout[table.first[idx], 3] if signals.n else np.zeros(len(idx))
    columns = [
        np.log1p(words), words / total, _safe_div(table.link_words[idx], words),
        _safe_div(table.punct[idx], words), np.log1p(blocks), _safe_div(words, blocks),
        _safe_div(sums["p"], words), _safe_div(sums["li"], words), _safe_div(sums["td"], words),
        np.log1p(sums["headings"]), _safe_div(sums["stop"], words),
        _safe_div(sums["prose"], blocks), np.log1p(sums["prose"]), np.log1p(sums["markers"]),
        _safe_div(sums["sentence"], blocks), table.depth[idx],
        table.first[idx] / n, table.last[idx] / n, np.minimum(y, 20.0), width,
        _largest_child_share(table)[idx],
    ]
    features = np.column_stack([
        *columns,
        tag_onehot,
        role_bits(signals.roles.own[idx]),
        role_bits(signals.roles.inherited[idx]),
        _title_relation(table, idx, title, n),
    ]) if len(idx) else np.zeros((0, 0))
    return SubtreeCandidates(idx, features)


#: Tags whose subtrees are never the body when another candidate is: a page's side column,
#: its footer (the side boxes that leave single pages) and its menus (an ``<aside>`` of
#: related teasers looks like a post) ...
SIDE_BOX_TAGS = SIDE_TAGS | {"nav"}
#: ... unless an element of these tags (the page's main content, whatever hides or holds
#: it) lies between: a site that wraps its main column in an ``<aside>`` still marks its
#: post as an ``<article>``.
CONTENT_BOX_TAGS = LANDMARKS


def in_side_box(table: SubtreeTable, tags: Sequence[str], at: int, title: int) -> bool:
    """Whether subtree ``at``'s nearest :data:`SIDE_BOX_TAGS` or :data:`CONTENT_BOX_TAGS`
    element (itself or an ancestor) is a side box; a box that holds the title block
    ``title`` (``-1``: none) is the post, not a side box. Read on the way up."""
    while at >= 0:
        if tags[at] in CONTENT_BOX_TAGS:
            return False
        if tags[at] in SIDE_BOX_TAGS and not table.first[at] <= title <= table.last[at]:
            return True
        at = int(table.parent[at])
    return False


def outside_side_boxes(table: SubtreeTable, tags: Sequence[str], context: BlockContext) -> int:
    """The context's body subtree, or when it lies in a side box that does not hold the
    title block, the best-scored candidate (the subtree stage's scores are 0 for
    non-candidates) outside side boxes; the body subtree when the page has no title block
    or every candidate is in a side box. At extraction only: training keeps the learned
    choice."""
    best, scores, title = context.best_subtree, context.subtree_scores, context.title
    if best < 0 or title < 0:
        return best  # without a headline outside the box, nothing says it is not the post
    if not in_side_box(table, tags, best, title):
        return best
    candidates = np.flatnonzero(scores != 0).tolist()
    others = [i for i in candidates if not in_side_box(table, tags, i, title)]
    if not others:
        return best
    return max(others, key=lambda i: scores[i])


def candidate_f1(table: SubtreeTable, idx: np.ndarray, content_words: np.ndarray) -> np.ndarray:
    """Training target: F1 (by words) of taking each candidate's blocks as the body."""
    prefix = np.concatenate([[0.0], np.cumsum(content_words)])
    inside = prefix[table.last[idx] + 1] - prefix[table.first[idx]]
    total = prefix[-1]
    precision = _safe_div(inside, table.words[idx])
    recall = inside / total if total > 0 else np.zeros(len(idx))
    return _safe_div(2 * precision * recall, precision + recall)

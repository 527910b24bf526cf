"""The three learned stages of page-level extraction, on top of a page's signals.

1. **Title block**: the best title candidate above :data:`TITLE_MIN_SCORE`.
2. **Body subtree**: every candidate subtree gets a predicted body F1; the best one marks
   the body region.
3. **Blocks**: each text block gets a content probability from its own features and the
   two findings above; a second look (:mod:`~feedsift.extractors.score_context`) reads
   those probabilities around each block and gives the final one.

The functions read only numpy signals, so training (on cached examples) and extraction run
the very same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.features import BlockContext, block_features
from feedsift.extractors.model import Predictor
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.score_context import SECOND_LOOK_WEIGHT, score_context_features
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.subtrees import subtree_candidates
from feedsift.extractors.titles import TitleCandidates

__all__ = [
    "TITLE_MIN_SCORE",
    "BlockLooks",
    "TitleChoice",
    "block_looks",
    "block_scores",
    "choose_title",
    "refine_rows",
    "score_subtrees",
    "second_look",
]

#: A title candidate is accepted as the title block from this score on.
TITLE_MIN_SCORE = 0.3


@dataclass(frozen=True, slots=True)
class TitleChoice:
    """The chosen title block (-1 for none) and its score."""

    block: int
    score: float


def choose_title(titles: TitleCandidates, model: Predictor) -> TitleChoice:
    """Pick the title block among the candidates."""
    if not len(titles.index):
        return TitleChoice(-1, 0.0)
    scores = model.predict(titles.features)
    best = int(np.argmax(scores))
    if scores[best] < TITLE_MIN_SCORE:
        return TitleChoice(-1, float(scores[best]))
    return TitleChoice(int(titles.index[best]), float(scores[best]))


def score_subtrees(
    signals: PageSignals, table: SubtreeTable, tags: Sequence[str], title: int,
    model: Predictor,
) -> BlockContext:  # fmt: skip
    """Predicted body F1 of every candidate subtree, as the context of the block stage."""
    candidates = subtree_candidates(table, signals, list(tags), title)
    scores = np.zeros(len(table.words))
    if not len(candidates.index):
        return BlockContext(title, scores, -1)
    predicted = model.predict(candidates.features)
    scores[candidates.index] = predicted
    best = int(candidates.index[int(np.argmax(predicted))])
    return BlockContext(title, scores, best)


@dataclass(frozen=True, slots=True)
class BlockLooks:
    """Per block, the first look's content probability and the final one."""

    first: np.ndarray
    final: np.ndarray  #: the first look's blended with the second's (the first without it)


def block_looks(
    signals: PageSignals, table: SubtreeTable, context: BlockContext, model: Predictor,
    refine: Predictor | None = None,
) -> BlockLooks:
    """Content probability of every block: the first look's, blended with the second
    look's when ``refine`` (its model) is given."""
    if signals.n == 0:
        return BlockLooks(np.zeros(0), np.zeros(0))
    features = block_features(signals, table, context)
    scores = model.predict(features)
    if refine is None:
        return BlockLooks(scores, scores)
    return BlockLooks(scores, second_look(signals, table, features, scores, refine))


def second_look(signals: PageSignals, table: SubtreeTable, features: np.ndarray,
                first: np.ndarray, refine: Predictor) -> np.ndarray:  # fmt: skip
    """The final scores of a page's blocks: the first look's (``first``, from the block
    ``features``) blended with the second look's (``refine``, the second look's model)."""
    second = refine.predict(refine_rows(signals, table, features, first))
    blended: np.ndarray = (1.0 - SECOND_LOOK_WEIGHT) * first + SECOND_LOOK_WEIGHT * second
    return blended


def block_scores(
    signals: PageSignals, table: SubtreeTable, context: BlockContext, model: Predictor,
    refine: Predictor | None = None,
) -> np.ndarray:
    """The final content probability of every block (see :func:`block_looks`)."""
    return block_looks(signals, table, context, model, refine).final


def refine_rows(signals: PageSignals, table: SubtreeTable, features: np.ndarray,
                scores: np.ndarray) -> np.ndarray:  # fmt: skip
    """The second look's rows: the block features beside the first look's score context."""
    return np.hstack([features, score_context_features(signals, table, scores)])

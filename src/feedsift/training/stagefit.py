"""Fitting the three page-level stages, each on cross-fitted outputs of the one before.

A stage's training inputs include what the previous stage predicted on the same page.
Using in-sample predictions there would teach the later stage to trust earlier stages more
than it should, so every page's earlier-stage outputs come from a model that did not see
that page (K folds by page, the scikit-learn ``cross_val_predict`` idea).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from feedsift.extractors.features import BlockContext, block_features
from feedsift.extractors.model import Predictor
from feedsift.extractors.stages import (
    TitleChoice,
    block_scores,
    choose_title,
    refine_rows,
    score_subtrees,
    second_look,
)
from feedsift.extractors.subtrees import candidate_f1, subtree_candidates
from feedsift.extractors.title_ranker import (
    RankerPage,
    option_features,
    title_options,
    visible_titles,
)
from feedsift.extractors.titles import TITLE_LABEL_F1, TitleCandidates
from feedsift.text.tokens import normalize_space
from feedsift.training.examples import PageExample
from feedsift.training.learners import LearnerSpec, fit_classifier, fit_regressor

__all__ = [
    "StageData",
    "block_data",
    "crossfit",
    "fit_block",
    "fit_ranker",
    "fit_refine",
    "fit_subtree",
    "fit_title",
    "page_block_scores",
    "page_contexts",
    "page_refined_scores",
    "page_titles",
    "ranker_data",
    "refine_data",
    "subtree_data",
    "title_data",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StageData:
    """Stacked training rows of one stage."""

    x: np.ndarray
    y: np.ndarray
    weight: np.ndarray | None


def _stack(rows: list[np.ndarray], targets: list[np.ndarray],
           weights: list[np.ndarray] | None = None) -> StageData:  # fmt: skip
    if not rows:
        raise ValueError("no training rows for this stage")
    return StageData(np.vstack(rows), np.concatenate(targets),
                     np.concatenate(weights) if weights else None)


def title_data(examples: Sequence[PageExample]) -> StageData:
    """Title candidates of pages with a gold title; positive = best match above the bar."""
    rows, targets = [], []
    for ex in examples:
        if not len(ex.title_labels) or not len(ex.title_index):
            continue
        best = ex.title_labels.max()
        rows.append(ex.title_features)
        targets.append(((ex.title_labels == best) & (best >= TITLE_LABEL_F1)).astype(np.int64))
    return _stack(rows, targets)


def fit_title(examples: Sequence[PageExample], spec: LearnerSpec) -> Predictor:
    data = title_data(examples)
    return fit_classifier(data.x, data.y, None, spec)


def page_titles(examples: Sequence[PageExample], model: Predictor) -> list[TitleChoice]:
    """The title block the model picks on each page (block -1 for none)."""
    return [
        choose_title(TitleCandidates(ex.title_index, ex.title_features), model)
        for ex in examples
    ]


def ranker_data(examples: Sequence[PageExample], choices: Sequence[TitleChoice]) -> StageData:
    """Title options of pages with a gold title; positive = exactly the gold title."""
    rows, targets = [], []
    for ex, choice in zip(examples, choices, strict=True):
        if not ex.gold_title:
            continue
        block_title = ex.block_texts[choice.block] if choice.block >= 0 else None
        options = title_options(ex.meta, block_title)
        if not options:
            continue
        gold = normalize_space(ex.gold_title)
        visible = visible_titles(ex.block_texts, ex.signals.link)
        ranked = RankerPage(block_title, choice.score, ex.url, visible)
        rows.append(option_features(options, ex.meta, ranked))
        targets.append(np.array([option.text == gold for option in options], dtype=np.int64))
    return _stack(rows, targets)


def fit_ranker(examples: Sequence[PageExample], choices: Sequence[TitleChoice],
               spec: LearnerSpec) -> Predictor:  # fmt: skip
    data = ranker_data(examples, choices)
    return fit_classifier(data.x, data.y, None, spec)


def subtree_data(examples: Sequence[PageExample], titles: Sequence[int]) -> StageData:
    """Body candidates of pages with full gold text; target = F1 as the whole body."""
    rows, targets = [], []
    for ex, title in zip(examples, titles, strict=True):
        if ex.gold_text is None:
            continue
        cand = subtree_candidates(ex.table, ex.signals, list(ex.subtree_tags), title)
        if not len(cand.index):
            continue
        content = ex.signals.words * (ex.labels == 1)
        rows.append(cand.features)
        targets.append(candidate_f1(ex.table, cand.index, content))
    return _stack(rows, targets)


def fit_subtree(examples: Sequence[PageExample], titles: Sequence[int],
                spec: LearnerSpec) -> Predictor:  # fmt: skip
    data = subtree_data(examples, titles)
    return fit_regressor(data.x, data.y, spec)


def page_contexts(examples: Sequence[PageExample], titles: Sequence[int],
                  model: Predictor) -> list[BlockContext]:  # fmt: skip
    return [
        score_subtrees(ex.signals, ex.table, ex.subtree_tags, title, model)
        for ex, title in zip(examples, titles, strict=True)
    ]


#: Block weights grow with the square root of the block's words (long blocks matter more
#: to text F1) and are normalised per page, so every page counts the same.
def _block_weights(words: np.ndarray) -> np.ndarray:
    weights: np.ndarray = np.sqrt(words)
    return weights / max(float(weights.sum()), 1e-9)


def block_data(examples: Sequence[PageExample], contexts: Sequence[BlockContext]) -> StageData:
    """Labelled blocks (unknown ones left out) with their features and weights."""
    rows, targets, weights = [], [], []
    for ex, context in zip(examples, contexts, strict=True):
        known = ex.labels >= 0
        if not ex.signals.n or not known.any():
            continue
        rows.append(block_features(ex.signals, ex.table, context)[known])
        targets.append(ex.labels[known])
        weights.append(_block_weights(ex.signals.words[known]) * 100.0)
    return _stack(rows, targets, weights)


def fit_block(examples: Sequence[PageExample], contexts: Sequence[BlockContext],
              spec: LearnerSpec) -> Predictor:  # fmt: skip
    data = block_data(examples, contexts)
    return fit_classifier(data.x, data.y, data.weight, spec)


def page_block_scores(examples: Sequence[PageExample], contexts: Sequence[BlockContext],
                      model: Predictor) -> list[np.ndarray]:  # fmt: skip
    return [
        block_scores(ex.signals, ex.table, context, model)
        for ex, context in zip(examples, contexts, strict=True)
    ]


def refine_data(examples: Sequence[PageExample], contexts: Sequence[BlockContext],
                first: Sequence[np.ndarray]) -> StageData:  # fmt: skip
    """The second look's rows: labelled blocks with the (cross-fitted) first-look scores
    of their page around them, weighted as in :func:`block_data`."""
    rows, targets, weights = [], [], []
    for ex, context, scores in zip(examples, contexts, first, strict=True):
        known = ex.labels >= 0
        if not ex.signals.n or not known.any():
            continue
        features = block_features(ex.signals, ex.table, context)
        rows.append(refine_rows(ex.signals, ex.table, features, scores)[known])
        targets.append(ex.labels[known])
        weights.append(_block_weights(ex.signals.words[known]) * 100.0)
    return _stack(rows, targets, weights)


def fit_refine(examples: Sequence[PageExample], contexts: Sequence[BlockContext],
               first: Sequence[np.ndarray], spec: LearnerSpec) -> Predictor:  # fmt: skip
    data = refine_data(examples, contexts, first)
    return fit_classifier(data.x, data.y, data.weight, spec)


def page_refined_scores(
    examples: Sequence[PageExample], contexts: Sequence[BlockContext],
    first: Sequence[np.ndarray], model: Predictor,
) -> list[np.ndarray]:  # fmt: skip
    """The final block scores (both looks, as extraction blends them) from given first-look
    scores and the second look's ``model``."""
    return [
        second_look(ex.signals, ex.table, block_features(ex.signals, ex.table, context),
                    scores, model)
        if ex.signals.n else np.zeros(0)
        for ex, context, scores in zip(examples, contexts, first, strict=True)
    ]  # fmt: skip


def crossfit(
    examples: Sequence[PageExample],
    folds: int,
    fit: Callable[[list[int]], Predictor],
    predict: Callable[[list[int], Predictor], list[T]],
) -> list[T]:
    """Out-of-fold predictions: page ``i`` is predicted by a model fitted without it.

    ``fit`` gets the indices of the training pages, ``predict`` the indices to predict.
    Pages are assigned to folds round-robin in their (sorted, deterministic) order.
    """
    assignment = np.arange(len(examples)) % folds
    out: dict[int, T] = {}
    for fold in range(folds):
        train = [int(i) for i in np.flatnonzero(assignment != fold)]
        held = [int(i) for i in np.flatnonzero(assignment == fold)]
        model = fit(train)
        out.update(zip(held, predict(held, model), strict=True))
    return [out[i] for i in range(len(examples))]

"""``feedsift train --compare``: the papers' RBF SVM against gradient-boosted trees.

Both learners are fitted, stage by stage, on the same three quarters of the train pages and
scored on the remaining quarter: title block accuracy for the title stage, mean LCS F1 of
the kept blocks for the block stage, plus the time each needs to score one page. The RBF
SVM is fitted on a sample of rows (its cost grows with the square of the rows).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.features import BlockContext
from feedsift.extractors.model import Predictor
from feedsift.training.examples import PageExample
from feedsift.training.learners import LearnerSpec
from feedsift.training.stagefit import (
    fit_block,
    fit_subtree,
    fit_title,
    page_block_scores,
    page_contexts,
    page_titles,
)

__all__ = ["LearnerScore", "compare_learners"]

#: Share of the train pages the learners are fitted on; the rest scores them.
FIT_SHARE = 0.75


@dataclass(frozen=True, slots=True)
class LearnerScore:
    """One learner on one stage: its held-out score and scoring time per page."""

    stage: str
    learner: str
    score: float
    ms_per_page: float


def _split(examples: Sequence[PageExample]) -> tuple[list[PageExample], list[PageExample]]:
    held = np.arange(len(examples)) % 4 == 3
    return ([e for e, h in zip(examples, held, strict=True) if not h],
            [e for e, h in zip(examples, held, strict=True) if h])  # fmt: skip


def _title_score(
    name: str, spec: LearnerSpec, fit: list[PageExample], test: list[PageExample]
) -> tuple[LearnerScore, Predictor]:
    from feedsift.training.train import title_accuracy

    model = fit_title(fit, spec)
    started = time.perf_counter()
    titles = page_titles(test, model)
    ms = (time.perf_counter() - started) * 1000 / max(1, len(test))
    return LearnerScore("title", name, title_accuracy(test, titles), ms), model


def _block_score(
    name: str, spec: LearnerSpec, data: tuple[list[PageExample], list[BlockContext]],
    test: tuple[list[PageExample], list[BlockContext]],
) -> LearnerScore:  # fmt: skip
    from feedsift.training.train import block_f1

    model = fit_block(data[0], data[1], spec)
    started = time.perf_counter()
    scores = page_block_scores(test[0], test[1], model)
    ms = (time.perf_counter() - started) * 1000 / max(1, len(test[0]))
    return LearnerScore("block", name, block_f1(test[0], scores, 0.5)["pooled"], ms)


def compare_learners(
    examples: Sequence[PageExample], learners: dict[str, LearnerSpec],
    subtree_spec: LearnerSpec,
) -> list[LearnerScore]:  # fmt: skip
    """Held-out scores of each learner on the title and block stages."""
    fit, test = _split(examples)
    results: list[LearnerScore] = []
    reference: Predictor | None = None
    for name, spec in learners.items():
        score, model = _title_score(name, spec, fit, test)
        results.append(score)
        reference = reference or model
    assert reference is not None
    fit_titles = [t.block for t in page_titles(fit, reference)]
    test_titles = [t.block for t in page_titles(test, reference)]
    subtree = fit_subtree(fit, fit_titles, subtree_spec)
    train_ctx = page_contexts(fit, fit_titles, subtree)
    test_ctx = page_contexts(test, test_titles, subtree)
    for name, spec in learners.items():
        results.append(_block_score(name, spec, (fit, train_ctx), (test, test_ctx)))
    return results

"""Learners compared for each stage: the papers' RBF SVM and gradient-boosted trees.

Both are fitted with scikit-learn and exported to feedsift's array models. Fitting is
deterministic: fixed seeds, no early-stopping split drawn at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from feedsift.extractors.model import RbfSvm, TreeEnsemble
from feedsift.training.export import export_svm, export_trees

__all__ = ["DEFAULT_GBM", "DEFAULT_SVM", "LearnerSpec", "fit_classifier", "fit_regressor"]

#: Seed of every random choice made in training.
SEED = 20261122


@dataclass(frozen=True, slots=True)
class LearnerSpec:
    """Which learner and its main knobs."""

    kind: Literal["gbm", "svm"]
    max_iter: int = 200
    max_depth: int | None = 6
    learning_rate: float = 0.1
    max_leaf_nodes: int = 31
    l2: float = 0.0
    svm_c: float = 1.0
    svm_max_rows: int = 15000  #: RBF SVMs scale quadratically: fit on a sample this large


DEFAULT_GBM = LearnerSpec("gbm")
DEFAULT_SVM = LearnerSpec("svm")


def _sample(n: int, limit: int) -> np.ndarray:
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(SEED).choice(n, size=limit, replace=False))


def _platt(decision: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression

    fit = LogisticRegression(C=1e6).fit(decision[:, None], y)
    return -float(fit.coef_[0, 0]), -float(fit.intercept_[0])


def _fit_svm(x: np.ndarray, y: np.ndarray, w: np.ndarray | None, spec: LearnerSpec) -> RbfSvm:
    from sklearn.model_selection import cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    rows = _sample(len(x), spec.svm_max_rows)
    xs, ys = x[rows], y[rows]
    pipe = make_pipeline(StandardScaler(), SVC(C=spec.svm_c, kernel="rbf", gamma="scale"))
    held_out = cross_val_predict(pipe, xs, ys, cv=3, method="decision_function")
    pipe.fit(xs, ys, svc__sample_weight=None if w is None else w[rows])
    a, b = _platt(held_out, ys)
    return export_svm(pipe, a, b)


def fit_classifier(
    x: np.ndarray, y: np.ndarray, w: np.ndarray | None, spec: LearnerSpec
) -> TreeEnsemble | RbfSvm:
    """Fit a binary classifier; its ``predict`` gives P(y=1)."""
    if spec.kind == "svm":
        return _fit_svm(x, y, w, spec)
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=spec.max_iter, max_depth=spec.max_depth, learning_rate=spec.learning_rate,
        max_leaf_nodes=spec.max_leaf_nodes, l2_regularization=spec.l2, early_stopping=False,
        random_state=SEED,
    )
    return export_trees(model.fit(x, y, sample_weight=w))


def fit_regressor(x: np.ndarray, y: np.ndarray, spec: LearnerSpec) -> TreeEnsemble | RbfSvm:
    """Fit a regressor (used for the body subtree's expected F1)."""
    if spec.kind == "svm":
        raise ValueError("the subtree stage is a regression: use gradient-boosted trees")
    from sklearn.ensemble import HistGradientBoostingRegressor

    model = HistGradientBoostingRegressor(
        max_iter=spec.max_iter, max_depth=spec.max_depth, learning_rate=spec.learning_rate,
        max_leaf_nodes=spec.max_leaf_nodes, l2_regularization=spec.l2, early_stopping=False,
        random_state=SEED,
    )
    return export_trees(model.fit(x, y))

"""Export fitted scikit-learn estimators to feedsift's array models."""

from __future__ import annotations

from typing import Any

import numpy as np

from feedsift.extractors.model import RbfSvm, TreeEnsemble

__all__ = ["export_svm", "export_trees"]


def _complete(nodes: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One sklearn tree as a complete tree of ``depth`` levels (leaves pushed down)."""
    inner = 2**depth - 1
    feature = np.zeros(inner, dtype=np.int32)
    threshold = np.full(inner, np.inf)
    leaves = np.zeros(inner + 1)
    stack = [(0, 0, 0)]  # (sklearn node, complete-tree slot, level)
    while stack:
        source, slot, level = stack.pop()
        node = nodes[source]
        if node["is_leaf"]:
            span = 2 ** (depth - level)
            first = (slot + 1) * span - 1 - inner  # leftmost leaf below ``slot``
            leaves[first : first + span] = node["value"]
            continue
        feature[slot] = node["feature_idx"]
        threshold[slot] = node["num_threshold"]
        stack.append((int(node["left"]), 2 * slot + 1, level + 1))
        stack.append((int(node["right"]), 2 * slot + 2, level + 1))
    return feature, threshold, leaves


def export_trees(estimator: Any) -> TreeEnsemble:
    """Convert a fitted ``HistGradientBoostingClassifier`` (binary) or ``...Regressor``.

    Trees must be depth-bounded (``max_depth``) and free of categorical splits; missing
    values are not supported (feedsift's features never contain NaN).
    """
    trees = [tree.nodes for iteration in estimator._predictors for tree in iteration]
    if any(node["is_categorical"].any() for node in trees):
        raise ValueError("categorical splits are not supported by the array model")
    depth = max((int(node["depth"].max()) for node in trees), default=0)
    parts = [_complete(node, depth) for node in trees]
    inner = 2**depth - 1
    return TreeEnsemble(
        feature=np.array([p[0] for p in parts], dtype=np.int32).reshape(len(parts), inner),
        threshold=np.array([p[1] for p in parts]).reshape(len(parts), inner),
        leaves=np.array([p[2] for p in parts]).reshape(len(parts), inner + 1),
        baseline=float(np.ravel(estimator._baseline_prediction)[0]),
        depth=depth,
        n_features=int(estimator.n_features_in_),
        link="logistic" if hasattr(estimator, "classes_") else "identity",
    )


def export_svm(pipeline: Any, platt_a: float, platt_b: float) -> RbfSvm:
    """Convert a fitted ``Pipeline(StandardScaler, SVC(kernel='rbf'))`` with Platt scaling
    ``P = 1 / (1 + exp(a * decision + b))`` fitted on held-out decisions."""
    scaler, svc = pipeline[0], pipeline[-1]
    gamma = svc._gamma
    return RbfSvm(
        mean=scaler.mean_.astype(np.float64),
        scale=scaler.scale_.astype(np.float64),
        support=svc.support_vectors_.astype(np.float64),
        dual=svc.dual_coef_[0].astype(np.float64),
        intercept=float(svc.intercept_[0]),
        gamma=float(gamma),
        platt_a=platt_a,
        platt_b=platt_b,
        n_features=int(scaler.n_features_in_),
    )

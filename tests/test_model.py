"""Array models: exported trees and SVMs predict exactly what scikit-learn predicts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from feedsift.errors import ModelError
from feedsift.extractors.model import EnsembleStack, ModelBundle, load_bundle, save_bundle
from feedsift.training.export import export_trees
from feedsift.training.learners import LearnerSpec, fit_classifier

sklearn = pytest.importorskip("sklearn")
from sklearn.ensemble import (  # noqa: E402
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(600, 8))
    y = ((x[:, 0] + x[:, 1] ** 2 - x[:, 2] * x[:, 3]) > 0.5).astype(int)
    return x, y


def test_exported_classifier_matches_sklearn() -> None:
    x, y = _data()
    fitted = HistGradientBoostingClassifier(max_iter=40, max_depth=5, random_state=0).fit(x, y)
    model = export_trees(fitted)
    np.testing.assert_allclose(model.predict(x), fitted.predict_proba(x)[:, 1], atol=1e-12)


def test_exported_regressor_matches_sklearn_with_shallow_trees() -> None:
    x, y = _data()
    fitted = HistGradientBoostingRegressor(max_iter=30, max_depth=3, random_state=0)
    fitted.fit(x, x[:, 0] * 2 + y)
    np.testing.assert_allclose(export_trees(fitted).predict(x), fitted.predict(x), atol=1e-12)


def test_stumps_that_never_split_predict_their_constant() -> None:
    x, _ = _data()
    y = np.zeros(len(x))  # nothing to learn: every tree is a single leaf (depth 0)
    fitted = HistGradientBoostingRegressor(max_iter=5, random_state=0).fit(x, y)
    np.testing.assert_allclose(export_trees(fitted).predict(x), fitted.predict(x), atol=1e-12)


def test_svm_probabilities_are_monotone_in_the_decision() -> None:
    x, y = _data()
    model = fit_classifier(x, y, None, LearnerSpec("svm", svm_max_rows=300))
    decision = model.decision(x)  # type: ignore[union-attr]
    order = np.argsort(decision)
    assert np.all(np.diff(model.predict(x)[order]) >= -1e-12)
    assert ((model.predict(x) >= 0.5) == y).mean() > 0.8


def test_training_is_deterministic() -> None:
    x, y = _data()
    spec = LearnerSpec("gbm", max_iter=20, max_depth=4)
    first, second = fit_classifier(x, y, None, spec), fit_classifier(x, y, None, spec)
    np.testing.assert_array_equal(first.predict(x), second.predict(x))


def test_bundle_round_trip_and_schema_check(tmp_path: Path) -> None:
    x, y = _data()
    model = fit_classifier(x, y, None, LearnerSpec("gbm", max_iter=10, max_depth=3))
    path = tmp_path / "bundle.npz"
    save_bundle(ModelBundle("v-test", {"block": model}, {"block_threshold": 0.4}), path)
    loaded = load_bundle(path)
    assert loaded.version == "v-test" and loaded.info["block_threshold"] == 0.4
    np.testing.assert_array_equal(loaded.get("block").predict(x), model.predict(x))
    with pytest.raises(ModelError, match="no 'title' model"):
        loaded.get("title")
    path.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot read model file"):
        load_bundle(path)


def test_rows_of_another_width_are_refused() -> None:
    x, y = _data()
    model = fit_classifier(x, y, None, LearnerSpec("gbm", max_iter=5, max_depth=2))
    with pytest.raises(ModelError, match="expects 8 features, the page gave 9"):
        model.predict(np.hstack([x, x[:, :1]]))
    assert model.predict(np.zeros((0, 0))).shape == (0,)


def test_a_stack_predicts_what_each_ensemble_predicts() -> None:
    x, y = _data()
    models = [
        export_trees(
            HistGradientBoostingClassifier(max_iter=20, max_depth=3, random_state=0).fit(x, label)
        )
        for label in (y, 1 - y, (x[:, 4] > 0).astype(int))
    ]
    assert EnsembleStack.fits(models)
    stacked = EnsembleStack.of(models).predict(x)
    assert stacked.shape == (len(x), 3)
    for column, model in enumerate(models):
        assert np.array_equal(stacked[:, column], model.predict(x))  # the same sums, bit for bit


def test_ensembles_of_different_shapes_are_not_stacked() -> None:
    x, y = _data()
    shallow = export_trees(HistGradientBoostingClassifier(max_iter=5, max_depth=2).fit(x, y))
    deep = export_trees(HistGradientBoostingClassifier(max_iter=5, max_depth=4).fit(x, y))
    assert not EnsembleStack.fits([shallow, deep])
    with pytest.raises(ModelError, match="stacked"):
        EnsembleStack.of([shallow, deep])

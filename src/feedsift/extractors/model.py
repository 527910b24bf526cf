"""Trained models as plain arrays: prediction with numpy, storage in one ``.npz`` file.

The page-level extractor ships its models inside the package. They are trained with
scikit-learn (``feedsift train``) and exported to the records below, so extraction needs
neither scikit-learn nor pickle: the file loads in milliseconds, cannot run code, and is
readable by any later version of feedsift that knows its schema version.

* :class:`TreeEnsemble`: gradient-boosted trees (``HistGradientBoosting*``), evaluated
  level by level for all trees at once.
* :class:`RbfSvm`: an RBF-kernel SVM with its standardisation and Platt scaling.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from feedsift.errors import ModelError

__all__ = [
    "SCHEMA_VERSION",
    "EnsembleStack",
    "ModelBundle",
    "Predictor",
    "RbfSvm",
    "TreeEnsemble",
    "load_bundle",
    "save_bundle",
]

#: Version of the on-disk layout; a file with another version is refused with a clear error.
SCHEMA_VERSION = 1


class Predictor(Protocol):
    """A fitted model: feature rows in, one score per row out."""

    @property
    def n_features(self) -> int: ...

    def predict(self, x: np.ndarray) -> np.ndarray: ...


def _check_width(x: np.ndarray, n_features: int) -> None:
    """Refuse rows of another width: a bundle from another feature layout would otherwise
    read the wrong columns and predict nonsense without a word."""
    if len(x) and x.shape[1] != n_features:
        raise ModelError(
            f"the model expects {n_features} features, the page gave {x.shape[1]}: the bundle "
            "does not match this feedsift version, run `feedsift train` to rebuild it"
        )


#: Feature dtypes the tree walk reads without a float64 copy (their comparison with the
#: float64 thresholds widens them exactly).
_EXACT = (np.dtype(np.float32), np.dtype(np.float64))


def _sigmoid(raw: np.ndarray) -> np.ndarray:
    """Logistic function without overflow warnings for large negative inputs."""
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(raw, -500.0, 500.0)))
    return out


@dataclass(frozen=True, slots=True)
class TreeEnsemble:
    """Additive ensemble of trees stored as *complete* binary trees of one depth.

    Tree ``t`` tests ``x[feature[t, k]] <= threshold[t, k]`` at node ``k`` (children of
    ``k`` are ``2k+1`` and ``2k+2``); shallower leaves were pushed down with always-true
    tests, so every row takes exactly ``depth`` steps and all trees advance together with a
    handful of numpy operations per level. ``link='logistic'`` turns the sum into a
    probability.
    """

    feature: np.ndarray  #: (n_trees, 2**depth - 1) int
    threshold: np.ndarray  #: (n_trees, 2**depth - 1) float
    leaves: np.ndarray  #: (n_trees, 2**depth) float
    baseline: float
    depth: int
    n_features: int
    link: Literal["logistic", "identity"]

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Sum of the leaf values reached by each row, plus the baseline."""
        _check_width(x, self.n_features)
        if not len(x) or not len(self.leaves):
            return np.full(len(x), self.baseline)
        total: np.ndarray = self.leaf_values(x).sum(axis=1) + self.baseline
        return total

    def leaf_values(self, x: np.ndarray) -> np.ndarray:
        """The value of the leaf each row reaches in each tree: ``(rows, trees)``.

        Indices are ``intp`` from the start and gathered with the arrays' own ``take`` (a
        plain gather, cheaper than fancy indexing's general machinery and than ``np.take``'s
        dispatch) into scratch arrays made once: a page of thousands of blocks would
        otherwise allocate and fault in megabytes at every level. ``mode="clip"`` never
        clips (every index is valid) but spares ``take`` the copy it makes of ``out`` under
        the default ``mode="raise"``. Rows of ``float32`` (the block features) are read as
        they are: comparing them with the ``float64`` thresholds widens them exactly, as a
        converted copy of ``x`` would.
        """
        n_trees = len(self.leaves)
        rows, width = x.shape
        flat_x = np.ascontiguousarray(x, dtype=x.dtype if x.dtype in _EXACT else np.float64).ravel()
        take_x = flat_x.take
        inner = self.feature.shape[1]
        take_feature = self.feature.ravel().astype(np.intp).take
        take_threshold = self.threshold.ravel().take
        row_base = np.arange(rows, dtype=np.intp)[:, None] * width  # (a step of 0 is an error)
        tree_base = np.arange(n_trees, dtype=np.intp) * inner  # depth-0 trees: inner == 0
        at = np.empty((rows, n_trees), dtype=np.intp)  # node index over all trees
        at[:] = tree_base
        step = 1 - tree_base  # child of node k of tree t: 2k + 1 (+1 right), kept global
        column, right = np.empty_like(at), np.empty(at.shape, dtype=bool)
        value, threshold = np.empty(at.shape, dtype=flat_x.dtype), np.empty(at.shape)
        for _ in range(self.depth):
            take_feature(at, out=column, mode="clip")
            column += row_base
            take_x(column, out=value, mode="clip")
            take_threshold(at, out=threshold, mode="clip")
            np.greater(value, threshold, out=right)
            at += at
            at += step
            at += right
        at += np.arange(-inner, n_trees - inner, dtype=np.intp)  # tree t's leaves: t * (inner + 1)
        values: np.ndarray = self.leaves.ravel().take(at)
        return values

    def predict(self, x: np.ndarray) -> np.ndarray:
        raw = self.decision(x)
        if self.link == "logistic":
            return _sigmoid(raw)
        return raw


@dataclass(frozen=True, slots=True)
class EnsembleStack:
    """Tree ensembles of one depth, width and size walked as one: the page-kind classifier's
    seven one-against-the-rest models cost one numpy walk instead of seven (a walk's cost is
    mostly numpy's per-call overhead on one row). Each model's probability is the same as
    its own :meth:`TreeEnsemble.predict`, summed in the same order."""

    joined: TreeEnsemble
    baselines: np.ndarray  #: (n_models,)
    links: tuple[Literal["logistic", "identity"], ...]

    @staticmethod
    def fits(models: Sequence[Predictor]) -> bool:
        """Whether ``models`` are tree ensembles that can be stacked (one shape)."""
        if not models or not all(isinstance(m, TreeEnsemble) for m in models):
            return False
        return len({(m.depth, m.n_features, m.leaves.shape) for m in models}) == 1  # type: ignore[attr-defined]

    @classmethod
    def of(cls, models: Sequence[TreeEnsemble]) -> EnsembleStack:
        """Stack ``models``; :class:`ModelError` unless they share depth, width and size."""
        if not cls.fits(models):
            raise ModelError("only tree ensembles of one depth, width and size can be stacked")
        first = models[0]
        joined = TreeEnsemble(
            np.concatenate([m.feature for m in models]),
            np.concatenate([m.threshold for m in models]),
            np.concatenate([m.leaves for m in models]),
            0.0, first.depth, first.n_features, "identity",
        )  # fmt: skip
        return cls(joined, np.array([m.baseline for m in models]), tuple(m.link for m in models))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Each model's prediction for each row: ``(rows, n_models)``."""
        _check_width(x, self.joined.n_features)
        size = len(self.joined.leaves) // len(self.links)
        values = self.joined.leaf_values(x).reshape(len(x), len(self.links), size)
        raw = values.sum(axis=2) + self.baselines
        logistic = np.array([link == "logistic" for link in self.links])
        out: np.ndarray = np.where(logistic, _sigmoid(raw), raw)
        return out


@dataclass(frozen=True, slots=True)
class RbfSvm:
    """RBF-kernel SVM on standardised features, with Platt-scaled probabilities."""

    mean: np.ndarray
    scale: np.ndarray
    support: np.ndarray
    dual: np.ndarray
    intercept: float
    gamma: float
    platt_a: float
    platt_b: float
    n_features: int

    def decision(self, x: np.ndarray) -> np.ndarray:
        _check_width(x, self.n_features)
        z = (x - self.mean) / self.scale
        sq = (z**2).sum(axis=1)[:, None] + (self.support**2).sum(axis=1)[None, :]
        kernel = np.exp(-self.gamma * np.maximum(sq - 2 * z @ self.support.T, 0.0))
        decision: np.ndarray = kernel @ self.dual + self.intercept
        return decision

    def predict(self, x: np.ndarray) -> np.ndarray:
        return _sigmoid(-(self.platt_a * self.decision(x) + self.platt_b))


_KINDS: dict[str, type[TreeEnsemble] | type[RbfSvm]] = {
    "trees": TreeEnsemble,
    "rbf-svm": RbfSvm,
}


@dataclass(frozen=True, slots=True)
class ModelBundle:
    """Named predictors plus a version string and free-form training facts."""

    version: str
    models: Mapping[str, TreeEnsemble | RbfSvm]
    info: Mapping[str, Any]

    def get(self, name: str) -> TreeEnsemble | RbfSvm:
        try:
            return self.models[name]
        except KeyError:
            raise ModelError(f"model bundle {self.version} has no '{name}' model") from None


def _kind(model: TreeEnsemble | RbfSvm) -> str:
    return "trees" if isinstance(model, TreeEnsemble) else "rbf-svm"


def save_bundle(bundle: ModelBundle, path: Path) -> None:
    """Write ``bundle`` as one compressed ``.npz`` (arrays) with a JSON header."""
    arrays: dict[str, np.ndarray] = {}
    header: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "version": bundle.version,
        "info": dict(bundle.info),
        "models": {},
    }
    for name, model in bundle.models.items():
        scalars = {}
        for spec in fields(model):
            value = getattr(model, spec.name)
            if isinstance(value, np.ndarray):
                arrays[f"{name}.{spec.name}"] = value
            else:
                scalars[spec.name] = value
        header["models"][name] = {"kind": _kind(model), "scalars": scalars}
    arrays["__header__"] = np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)
    with path.open("wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]


def load_bundle(path: Path) -> ModelBundle:
    """Read a bundle written by :func:`save_bundle`; :class:`ModelError` if unusable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["__header__"]).decode("utf-8"))
            arrays = {key: data[key] for key in data.files if key != "__header__"}
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot read model file {path}: {exc}") from exc
    if header.get("schema") != SCHEMA_VERSION:
        raise ModelError(
            f"model file {path} has schema {header.get('schema')}, this feedsift reads "
            f"schema {SCHEMA_VERSION}: run `feedsift train` to rebuild it"
        )
    models = {name: _rebuild(name, spec, arrays) for name, spec in header["models"].items()}
    return ModelBundle(header["version"], models, header.get("info", {}))


def _rebuild(name: str, spec: dict[str, Any], arrays: dict[str, np.ndarray]) -> Any:
    cls = _KINDS.get(spec["kind"])
    if cls is None:
        raise ModelError(f"unknown model kind {spec['kind']!r} for '{name}'")
    values = dict(spec["scalars"])
    for item in fields(cls):
        key = f"{name}.{item.name}"
        if key in arrays:
            values[item.name] = arrays[key]
    return cls(**values)

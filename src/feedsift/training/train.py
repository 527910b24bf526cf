"""``feedsift train``: rebuild the page-level model bundle from the gold datasets.

Deterministic: pages are read in sorted order, folds are assigned round-robin, every
learner has a fixed seed, so the same data and versions give the same bundle (and the
bundle's version, a hash of its fitted parameters, says so).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass, field, replace
from pathlib import Path

import numpy as np

from feedsift.evaluation.datasets import DEFAULT_BENCH_DIR, GoldPage, dataset_dirs, iter_pages
from feedsift.evaluation.listings import DEFAULT_SITES_DIR
from feedsift.evaluation.metrics import (
    PRF,
    SnippetCounts,
    lcs_prf,
    mean_prf,
    snippet_counts,
    snippet_prf,
)
from feedsift.extractors.features import BlockContext
from feedsift.extractors.kinds import kind_label
from feedsift.extractors.model import ModelBundle, Predictor, save_bundle
from feedsift.extractors.page import DEFAULT_MODEL_PATH
from feedsift.extractors.stages import TitleChoice
from feedsift.text.tokens import normalize_space
from feedsift.training.compare import LearnerScore, compare_learners
from feedsift.training.examples import PageExample, build_example
from feedsift.training.holdout import HoldoutRow, leave_one_dataset_out
from feedsift.training.kinds import (
    ARTICLE_SETS,
    KindRow,
    balance,
    crossfit_kind_vectors,
    fit_kinds,
    kind_cv_accuracy,
    site_kind_rows,
)
from feedsift.training.learners import LearnerSpec
from feedsift.training.stagefit import (
    crossfit,
    fit_block,
    fit_ranker,
    fit_refine,
    fit_subtree,
    fit_title,
    page_block_scores,
    page_contexts,
    page_refined_scores,
    page_titles,
)

__all__ = ["TrainConfig", "TrainReport", "block_f1", "load_examples", "title_accuracy", "train"]

#: The learner of each stage (see docs/model.md for how they were chosen).
TITLE_SPEC = LearnerSpec("gbm", max_iter=100, max_depth=4, learning_rate=0.08, l2=1.0)
RANKER_SPEC = LearnerSpec("gbm", max_iter=120, max_depth=3, learning_rate=0.05, l2=1.0)
SUBTREE_SPEC = LearnerSpec("gbm", max_iter=70, max_depth=6, learning_rate=0.15)
BLOCK_SPEC = LearnerSpec("gbm", max_iter=70, max_depth=6, learning_rate=0.2)
#: What ``--compare`` sets against each other: the trees above and the papers' RBF SVM.
COMPARED = {"gradient-boosted trees": BLOCK_SPEC, "RBF SVM": LearnerSpec("svm", svm_c=1.0)}

#: Content probability from which a block is kept, written into the bundle. Chosen on the
#: cross-validated sweep of ``--evaluate`` (docs/benchmark.md): 0.4 beats 0.5 on the pooled
#: LCS F1 of the train split and ties on the snippet F1.
BLOCK_THRESHOLD = 0.4
#: The same on pages the kind classifier calls articles: chosen on held-out sets, not on the
#: cross-validated sweep (a model left without a set keeps that set's borderline captions
#: and bylines at 0.4; docs/model.md, "A stricter threshold on articles").
ARTICLE_BLOCK_THRESHOLD = 0.5
#: The thresholds as every bundle's info carries them.
THRESHOLD_INFO = {"block_threshold": BLOCK_THRESHOLD,
                  "article_block_threshold": ARTICLE_BLOCK_THRESHOLD}  # fmt: skip
#: Other block thresholds whose cross-validated F1 ``--evaluate`` reports.
THRESHOLD_SWEEP = (0.3, 0.5, 0.6, 0.7)

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """Where to read, where to write, and how much checking to do."""

    bench_dir: Path = DEFAULT_BENCH_DIR
    output: Path = DEFAULT_MODEL_PATH
    folds: int = 4
    jobs: int = 2
    limit: int | None = None  #: pages per dataset (quick runs and tests)
    evaluate: bool = False  #: cross-validate the block stage and report its text F1
    compare: bool = False  #: also score an RBF SVM against the trees on held-out pages
    sites_dir: Path = DEFAULT_SITES_DIR  #: real blogs whose listing pages teach page kinds


@dataclass(frozen=True, slots=True)
class TrainReport:
    """What training saw and produced."""

    pages: int
    blocks: int
    datasets: tuple[str, ...]
    version: str
    title_accuracy_cv: float
    block_f1_cv: dict[str, float] = field(default_factory=dict)
    kind_accuracy_cv: dict[str, float] = field(default_factory=dict)
    holdout: tuple[HoldoutRow, ...] = ()  #: leave-one-dataset-out figures (``evaluate``)
    comparison: tuple[LearnerScore, ...] = ()
    seconds: float = 0.0


def _safe_example(gold: GoldPage) -> PageExample | None:
    try:
        return build_example(gold)
    except Exception:
        return None


def load_examples(
    bench_dir: Path, split: str = "train", jobs: int = 2, limit: int | None = None
) -> list[PageExample]:
    """Labelled examples of every page of ``split`` in every dataset under ``bench_dir``."""
    golds: list[GoldPage] = []
    for folder in dataset_dirs(bench_dir):
        pages = sorted(iter_pages(folder, split), key=lambda g: g.id)  # type: ignore[arg-type]
        golds.extend(pages[:limit] if limit else pages)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            found = list(pool.map(_safe_example, golds, chunksize=8))
    else:
        found = [_safe_example(g) for g in golds]
    return [e for e in found if e is not None]


def title_accuracy(examples: Sequence[PageExample], titles: Sequence[TitleChoice]) -> float:
    """Share of pages with a gold title whose chosen title block matches it."""
    hits, total = 0, 0
    for ex, title in zip(examples, titles, strict=True):
        if not len(ex.title_labels):
            continue
        total += 1
        where = np.flatnonzero(ex.title_index == title.block)
        hits += int(len(where) > 0 and ex.title_labels[where[0]] >= 0.8)
    return hits / total if total else 0.0


def block_f1(
    examples: Sequence[PageExample], scores: Sequence[np.ndarray], threshold: float
) -> dict[str, float]:
    """Mean LCS F1 per dataset (and pooled) of the blocks kept at ``threshold``, and the
    snippet F1 of pages with snippet gold."""
    per: dict[str, list[PRF]] = {}
    snippets = SnippetCounts()
    for ex, score in zip(examples, scores, strict=True):
        text = "\n".join(t for t, s in zip(ex.block_texts, score, strict=True) if s >= threshold)
        if ex.gold_text is not None:
            per.setdefault(ex.dataset, []).append(lcs_prf(text, ex.gold_text))
        elif ex.with_snippets:
            snippets += _snippets(text, ex)
    out = {name: mean_prf(items).f1 for name, items in sorted(per.items())}
    out["pooled"] = mean_prf([s for items in per.values() for s in items]).f1
    if snippets.tp + snippets.fn:
        out["snippets"] = snippet_prf(snippets).f1
    return out


def _snippets(text: str, ex: PageExample) -> SnippetCounts:
    flat = normalize_space(text)
    return snippet_counts(flat, [normalize_space(s) for s in ex.with_snippets],
                          [normalize_space(s) for s in ex.without_snippets])  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Fitted:
    models: dict[str, Predictor]
    titles: list[TitleChoice]  #: cross-fitted title choices
    contexts: list[BlockContext]  #: cross-fitted subtree findings and page kinds
    first: list[np.ndarray]  #: cross-fitted first-look block scores


@dataclass(frozen=True, slots=True)
class _Contexts:
    titles: list[TitleChoice]  #: cross-fitted title choices
    contexts: list[BlockContext]  #: the block stage's context built on them


def _crossfit_contexts(
    examples: list[PageExample], folds: int, say: Progress, kind_rows: Sequence[KindRow],
    site_rows: Sequence[KindRow],
) -> _Contexts:  # fmt: skip
    """Cross-fitted title choices, and the block stage's context built on them (with the
    page kinds, cross-fitted from ``kind_rows``, the examples' own, and ``site_rows``)."""
    say(f"{len(examples)} pages; title stage (cross-fitted)")
    titles = crossfit(examples, folds,
                      lambda idx: fit_title([examples[i] for i in idx], TITLE_SPEC),
                      lambda idx, model: page_titles([examples[i] for i in idx], model))
    blocks = [t.block for t in titles]
    say("title ranker and body subtree stage (cross-fitted)")
    contexts = crossfit(
        examples, folds,
        lambda idx: fit_subtree([examples[i] for i in idx], [blocks[i] for i in idx],
                                SUBTREE_SPEC),
        lambda idx, model: page_contexts([examples[i] for i in idx], [blocks[i] for i in idx],
                                         model),
    )  # fmt: skip
    say("page kinds (cross-fitted by site)")
    vectors = crossfit_kind_vectors(kind_rows, site_rows)
    kinds = [replace(c, kind_scores=v) for c, v in zip(contexts, vectors, strict=True)]
    return _Contexts(titles, kinds)


def _first_look(examples: list[PageExample], contexts: list[BlockContext],
                folds: int) -> list[np.ndarray]:  # fmt: skip
    """Cross-fitted block scores of the first look: what the second look learns from."""
    return crossfit(
        examples, folds,
        lambda idx: fit_block([examples[i] for i in idx], [contexts[i] for i in idx],
                              BLOCK_SPEC),
        lambda idx, model: page_block_scores([examples[i] for i in idx],
                                             [contexts[i] for i in idx], model),
    )  # fmt: skip


def _fit_stages(
    examples: list[PageExample], folds: int, say: Progress, site_rows: Sequence[KindRow]
) -> _Fitted:
    rows = _kind_rows(examples)
    found = _crossfit_contexts(examples, folds, say, rows, site_rows)
    titles, contexts = found.titles, found.contexts
    say("block stage's first look (cross-fitted)")
    first = _first_look(examples, contexts, folds)
    say("block stage")
    models: dict[str, Predictor] = {
        "title": fit_title(examples, TITLE_SPEC),
        "ranker": fit_ranker(examples, titles, RANKER_SPEC),
        "subtree": fit_subtree(examples, [t.block for t in titles], SUBTREE_SPEC),
        "block": fit_block(examples, contexts, BLOCK_SPEC),
        "refine": fit_refine(examples, contexts, first, BLOCK_SPEC),
        **fit_kinds([*(r for r in rows if r.label), *site_rows]),
    }
    return _Fitted(models, titles, contexts, first)


def _cv_block_f1(examples: list[PageExample], fitted: _Fitted, folds: int) -> dict[str, float]:
    """Cross-validated F1 of the block stage as extraction runs it (first and second
    look), at the bundle's threshold and the swept ones."""
    contexts, first = fitted.contexts, fitted.first
    scores = crossfit(
        examples, folds,
        lambda idx: fit_refine([examples[i] for i in idx], [contexts[i] for i in idx],
                               [first[i] for i in idx], BLOCK_SPEC),
        lambda idx, model: page_refined_scores([examples[i] for i in idx],
                                               [contexts[i] for i in idx],
                                               [first[i] for i in idx], model),
    )  # fmt: skip
    out = block_f1(examples, scores, BLOCK_THRESHOLD)
    for threshold in THRESHOLD_SWEEP:
        swept = block_f1(examples, scores, threshold)
        out[f"pooled at threshold {threshold}"] = swept["pooled"]
        if "snippets" in swept:
            out[f"snippets at threshold {threshold}"] = swept["snippets"]
    return out


def _kind_rows(examples: Sequence[PageExample]) -> list[KindRow]:
    """One kind row per example: labelled where the gold set says the kind (or holds only
    articles), label ``""`` otherwise; the article sets' rows share one weight."""
    rows = []
    for ex in examples:
        label = kind_label(ex.page_type) or ("article" if ex.dataset in ARTICLE_SETS else "")
        rows.append(KindRow(ex.kind_features, label, f"{ex.dataset}/{ex.site or ex.page_id}"))
    return balance(rows)


def _version(models: dict[str, Predictor]) -> str:
    """A name that changes whenever any fitted parameter does (training is deterministic)."""
    digest = hashlib.sha256()
    for name in sorted(models):
        digest.update(name.encode())
        for value in astuple(models[name]):  # type: ignore[call-overload]
            digest.update(np.ascontiguousarray(value).tobytes())
    return f"page-{digest.hexdigest()[:12]}"


def _refit(examples: list[PageExample], site_rows: Sequence[KindRow], folds: int) -> ModelBundle:
    """The whole bundle fitted on ``examples`` only (kinds too), for held-out evaluation."""
    fitted = _fit_stages(examples, folds, lambda message: None, site_rows)
    info = {**THRESHOLD_INFO, "pages": len(examples)}
    return ModelBundle(_version(fitted.models), fitted.models, info)  # type: ignore[arg-type]


def _save(examples: Sequence[PageExample], fitted: _Fitted, cv: dict[str, float],
          output: Path) -> ModelBundle:  # fmt: skip
    info = {
        **THRESHOLD_INFO,
        "pages": len(examples),
        "datasets": sorted({e.dataset for e in examples}),
        "block_f1_cv": cv,
    }
    bundle = ModelBundle(_version(fitted.models), fitted.models, info)  # type: ignore[arg-type]
    output.parent.mkdir(parents=True, exist_ok=True)
    save_bundle(bundle, output)
    return bundle


def train(config: TrainConfig, progress: Progress | None = None) -> TrainReport:
    """Build the bundle from ``config.bench_dir`` and write it to ``config.output``."""
    say = progress or (lambda message: None)
    started = time.perf_counter()
    say("reading and labelling the train split")
    examples = load_examples(config.bench_dir, "train", config.jobs, config.limit)
    say("page kinds of the real blogs' pages")
    site_rows = site_kind_rows(config.sites_dir)
    fitted = _fit_stages(examples, config.folds, say, site_rows)
    kinds_cv = kind_cv_accuracy([*(r for r in _kind_rows(examples) if r.label), *site_rows])
    cv = _cv_block_f1(examples, fitted, config.folds) if config.evaluate else {}
    comparison = compare_learners(examples, COMPARED, SUBTREE_SPEC) if config.compare else []
    bundle = _save(examples, fitted, cv, config.output)
    holdout = []
    if config.evaluate:
        holdout = leave_one_dataset_out(
            examples, config.bench_dir, lambda subset: _refit(subset, site_rows, config.folds), say
        )
    return TrainReport(
        pages=len(examples),
        blocks=sum(e.signals.n for e in examples),
        datasets=tuple(sorted({e.dataset for e in examples})),
        version=bundle.version,
        title_accuracy_cv=title_accuracy(examples, fitted.titles),
        block_f1_cv=cv,
        kind_accuracy_cv=kinds_cv,
        holdout=tuple(holdout),
        comparison=tuple(comparison),
        seconds=time.perf_counter() - started,
    )

"""Fitting the page-kind classifier (:mod:`feedsift.extractors.kinds`).

Rows come from three places: every train page of a gold set that labels kinds
(``page_type`` in ``wceb2026``), the train pages of the article-only sets (labelled
``article``), and the real blogs of ``../shared/sites/ssg``: their home, archive, tag,
category and pagination pages are listings, a few posts per blog are articles. The article
sets are many times larger than the rest, so their rows share one total weight.

Accuracy is cross-validated with whole sites held out (a site's pages share one template:
a random split would let the classifier recognise the template instead of the kind).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.listings import (
    LISTING_KINDS,
    POST_KIND,
    ListingsOptions,
    iter_site_pages,
    site_dirs,
)
from feedsift.extractors.kinds import KIND_LABELS, guess_kind, kind_features, kind_vector
from feedsift.extractors.listing import teaser_list
from feedsift.extractors.model import Predictor
from feedsift.extractors.pipeline import analyse_page
from feedsift.parsing.page import parse_page
from feedsift.training.learners import LearnerSpec, fit_classifier

__all__ = [
    "ARTICLE_SETS",
    "KIND_SPEC",
    "KindRow",
    "crossfit_kind_vectors",
    "fit_kinds",
    "kind_cv_accuracy",
    "page_kind_row",
    "site_kind_rows",
]

#: Gold sets whose pages are all articles (news and blog posts); CleanEval and the
#: trafilatura set hold pages of every kind unlabelled, so they teach no kind.
ARTICLE_SETS = frozenset({"dragnet", "fundus", "readability", "cleanportaleval"})
#: Total weight of the article sets' rows, against 1 for every other row: about as much as
#: the labelled articles of wceb2026, so the kinds are not drowned.
ARTICLE_SET_WEIGHT = 150.0
#: Posts taken from each blog of the sites folder (its non-post pages are all taken).
POSTS_PER_BLOG = 6
#: One small model per kind: a few hundred rows each, shallow trees.
KIND_SPEC = LearnerSpec("gbm", max_iter=120, max_depth=3, learning_rate=0.08, l2=1.0)
#: Folds of the site-grouped cross-validation.
KIND_FOLDS = 4


@dataclass(frozen=True, slots=True)
class KindRow:
    """One page's kind features, label, weight and site (for grouped folds)."""

    features: np.ndarray
    label: str
    group: str
    weight: float = 1.0


def page_kind_row(html: bytes, url: str | None, label: str, group: str) -> KindRow | None:
    """The kind row of one page (``None`` when the page does not parse)."""
    try:
        page = parse_page(html, url)
    except Exception:
        return None
    signals = analyse_page(page).signals
    evidence = teaser_list(page.view, signals.roles.near, page.url).evidence(page.view)
    return KindRow(kind_features(page, signals, evidence), label, group)


def site_kind_rows(sites_dir: Path) -> list[KindRow]:
    """Listing pages and a few posts of every blog under ``sites_dir`` (none if missing)."""
    if not sites_dir.is_dir():
        return []
    rows = []
    for site in site_dirs(sites_dir):
        pages = iter_site_pages(site, ListingsOptions(progress=False))
        posts = [p for p in pages if p.kind == POST_KIND][:POSTS_PER_BLOG]
        listings = [p for p in pages if p.kind in LISTING_KINDS]
        for page in (*listings, *posts):
            label = "article" if page.kind == POST_KIND else "listing"
            row = page_kind_row(read_page_html(page.path), page.url, label, f"ssg/{site.name}")
            if row is not None:
                rows.append(row)
    return rows


def balance(rows: Sequence[KindRow], article_sets: Iterable[str] = ARTICLE_SETS) -> list[KindRow]:
    """Rows of the article-only sets share :data:`ARTICLE_SET_WEIGHT` between them (the
    blogs' rows are few and keep weight 1)."""
    sets = frozenset(article_sets)
    bulk = sum(1 for r in rows if r.group.split("/")[0] in sets)
    if not bulk:
        return list(rows)
    each = ARTICLE_SET_WEIGHT / bulk
    return [KindRow(r.features, r.label, r.group, each) if r.group.split("/")[0] in sets else r
            for r in rows]  # fmt: skip


def fit_kinds(rows: Sequence[KindRow]) -> dict[str, Predictor]:
    """One classifier per kind with positive rows, named ``kind_<kind>`` (all ``rows``
    must be labelled); none without rows."""
    if not rows:
        return {}
    x = np.vstack([r.features for r in rows])
    w = np.array([r.weight for r in rows])
    labels = np.array([r.label for r in rows])
    models: dict[str, Predictor] = {}
    for kind in KIND_LABELS:
        y = (labels == kind).astype(np.int64)
        if 0 < y.sum() < len(y):
            models[f"kind_{kind}"] = fit_classifier(x, y, w, KIND_SPEC)
    return models


def _fold(group: str) -> int:
    return zlib.crc32(group.encode("utf-8")) % KIND_FOLDS


def crossfit_kind_vectors(
    rows: Sequence[KindRow], extra: Sequence[KindRow]
) -> list[np.ndarray]:
    """Each page's kind probabilities from models fitted without its site's fold.

    ``rows`` has one entry per page (rows labelled ``""`` are pages of unknown kind, which
    are scored but not fitted on); ``extra`` rows (the blogs' pages) are always fitted on.
    The block stage learns from these, so it never sees a kind guessed by a model that
    knew the page.
    """
    out: list[np.ndarray] = [np.zeros(len(KIND_LABELS)) for _ in rows]
    for fold in range(KIND_FOLDS):
        train = [r for r in rows if r.label and _fold(r.group) != fold]
        models = {k.removeprefix("kind_"): m for k, m in fit_kinds([*train, *extra]).items()}
        for i, row in enumerate(rows):
            if _fold(row.group) == fold:
                out[i] = kind_vector(guess_kind(row.features, models))
    return out


def kind_cv_accuracy(rows: Sequence[KindRow]) -> dict[str, float]:
    """Per kind and overall: the share of rows whose kind a model fitted without their
    site guesses right (the article sets' rows left out of the score, not of the fit)."""
    hits: dict[str, list[bool]] = {}
    for fold in range(KIND_FOLDS):
        train = [r for r in rows if _fold(r.group) != fold]
        models = {k.removeprefix("kind_"): m for k, m in fit_kinds(train).items()}
        for row in rows:
            if _fold(row.group) == fold and row.group.split("/")[0] not in ARTICLE_SETS:
                hits.setdefault(row.label, []).append(
                    guess_kind(row.features, models).kind == row.label)
    out = {k: sum(v) / len(v) for k, v in sorted(hits.items())}
    every = [h for v in hits.values() for h in v]
    out["all"] = sum(every) / len(every) if every else 0.0
    return out

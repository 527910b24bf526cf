"""Scoring measures for extracted text.

* LCS precision/recall/F1 on lower-cased word tokens (URL Tree paper):
  P = LCS / len(extracted), R = LCS / len(gold).
* Bag-of-4-gram-shingle precision/recall (ScrapingHub article-extraction-benchmark):
  per page tp/fp/fn normalised to sum 1, dataset precision = mean over pages with a
  prediction, recall = mean over pages with gold text.
* Snippet scoring of trafilatura's evaluation set: pooled counts of ``with`` snippets found
  (tp) or missing (fn) and ``without`` snippets found (fp) or absent (tn).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from feedsift.text.overlap import PRF, lcs_length, lcs_prf
from feedsift.text.tokens import tokenize

__all__ = [
    "PRF",
    "Mean",
    "ShingleCounts",
    "SnippetCounts",
    "lcs_length",
    "lcs_prf",
    "mean_of",
    "mean_prf",
    "shingle_counts",
    "shingle_prf",
    "snippet_counts",
    "snippet_prf",
]

SHINGLE_N = 4  #: shingle width of the ScrapingHub benchmark


def mean_prf(scores: Iterable[PRF]) -> PRF:
    """Macro average over pages (each page weighs the same)."""
    items = list(scores)
    if not items:
        return PRF(0.0, 0.0, 0.0)
    n = len(items)
    return PRF(
        sum(s.precision for s in items) / n,
        sum(s.recall for s in items) / n,
        sum(s.f1 for s in items) / n,
    )


@dataclass(frozen=True, slots=True)
class ShingleCounts:
    """Per-page shingle true/false positives and false negatives, normalised to sum 1."""

    tp: float
    fp: float
    fn: float


def _shingles(text: str) -> Counter[tuple[str, ...]]:
    tokens = tokenize(text)
    width = SHINGLE_N
    return Counter(
        tuple(tokens[i : i + width]) for i in range(max(1, len(tokens) - width + 1)) if tokens
    )


def shingle_counts(extracted: str, gold: str) -> ShingleCounts:
    """Shingle matching of one page, as the ScrapingHub benchmark computes it."""
    pred, true = _shingles(extracted), _shingles(gold)
    tp = float(sum((pred & true).values()))
    fp = float(sum((pred - true).values()))
    fn = float(sum((true - pred).values()))
    total = tp + fp + fn
    if total:
        tp, fp, fn = tp / total, fp / total, fn / total
    return ShingleCounts(tp, fp, fn)


def _ratio(num: float, other: float) -> float:
    if num + other == 0:
        return 0.0
    return num / (num + other)


def shingle_prf(pages: Iterable[ShingleCounts]) -> PRF:
    """Dataset-level shingle scores from per-page counts."""
    items = list(pages)
    perfect = [c.fp == 0 and c.fn == 0 for c in items]
    precisions = [
        1.0 if ok else _ratio(c.tp, c.fp)
        for c, ok in zip(items, perfect, strict=True)
        if c.tp + c.fp > 0
    ]
    recalls = [
        1.0 if ok else _ratio(c.tp, c.fn)
        for c, ok in zip(items, perfect, strict=True)
        if c.tp + c.fn > 0
    ]
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    return PRF.of(precision, recall)


@dataclass(frozen=True, slots=True)
class SnippetCounts:
    """Snippet outcome counts of trafilatura's evaluation (summed over pages)."""

    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0

    def __add__(self, other: SnippetCounts) -> SnippetCounts:
        return SnippetCounts(
            self.tp + other.tp, self.fn + other.fn, self.fp + other.fp, self.tn + other.tn
        )


def snippet_counts(extracted: str, with_: Sequence[str], without: Sequence[str]) -> SnippetCounts:
    """Score one page: ``with`` snippets must be in the text, ``without`` ones must not.

    An empty extraction counts every ``with`` snippet missing and every ``without`` absent,
    exactly as trafilatura's ``evaluate_result`` does for a ``None`` result.
    """
    found = [s in extracted for s in with_]
    leaked = [s in extracted for s in without]
    return SnippetCounts(
        tp=sum(found), fn=len(found) - sum(found), fp=sum(leaked), tn=len(leaked) - sum(leaked)
    )


def snippet_prf(counts: SnippetCounts) -> PRF:
    """Pooled precision, recall and F1 from summed snippet counts."""
    return PRF.of(_ratio(counts.tp, counts.fp), _ratio(counts.tp, counts.fn))


@dataclass(frozen=True, slots=True)
class Mean:
    """A mean over the pages that have gold for it (NaN over none)."""

    total: float
    count: int

    @property
    def value(self) -> float:
        return self.total / self.count if self.count else math.nan


def mean_of(values: Iterable[float | bool | None]) -> Mean:
    """The mean of the values that are known (``None``: no gold for that page)."""
    known = [float(v) for v in values if v is not None]
    return Mean(sum(known), len(known))

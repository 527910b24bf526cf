"""The template benchmark's outputs: per site and method, and pooled, a table and JSON.

Pooled figures are micro-averages: every page of every site weighs the same (a site with
239 posts weighs more than one with 11), as the per-site rows show the spread.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from feedsift.evaluation.report import format_table
from feedsift.evaluation.templates_bench import MAX_FIT_ITEMS, MethodRun, PageScore, SiteRun

__all__ = [
    "Mean",
    "MethodSummary",
    "methods_of",
    "pooled_summaries",
    "render_templates",
    "summarize_method",
    "templates_json",
]

HEADERS = ["site", "method", "posts", "other", "fit", "P", "R", "title", "date", "author",
           "tags", "F1 feed", "F1 rest", "title rest", "date rest", "fit s",
           "errors"]  # fmt: skip
#: Name of the rows that pool every site.
POOLED = "pooled"
#: Errors quoted under the table (the JSON counts them all).
ERROR_LINES = 5


@dataclass(frozen=True, slots=True)
class Mean:
    """A mean over the pages that have gold for it (NaN over none)."""

    total: float
    count: int

    @property
    def value(self) -> float:
        return self.total / self.count if self.count else math.nan


@dataclass(frozen=True, slots=True)
class MethodSummary:
    """One method over one site or several: detection, metadata, body, cost."""

    method: str
    sites: int
    fitted_sites: int
    posts: int
    others: int
    precision: float | None  #: None: the method cannot tell posts from other pages
    recall: float | None
    title: Mean
    date: Mean
    author: Mean
    tags: Mean
    f1_in_feed: Mean
    f1_not_in_feed: Mean
    title_not_in_feed: Mean
    date_not_in_feed: Mean
    errors: int
    fit_cpu_seconds: float
    page_cpu_seconds: float


def _mean(values: Sequence[float | bool | None]) -> Mean:
    known = [float(v) for v in values if v is not None]
    return Mean(sum(known), len(known))


def _detection(pages: Sequence[PageScore]) -> tuple[float | None, float | None]:
    """Precision and recall of post detection; undecided pages count as "not a post"."""
    if all(p.predicted is None for p in pages):
        return None, None
    said = [p for p in pages if p.predicted]
    hits = sum(1 for p in said if p.is_post_page)
    positives = sum(1 for p in pages if p.is_post_page)
    return (hits / len(said) if said else 0.0), (hits / positives if positives else math.nan)


def summarize_method(method: str, runs: Sequence[MethodRun]) -> MethodSummary:
    """Pool ``runs`` (one per site) of one method over all their pages."""
    pages = [p for run in runs for p in run.pages]
    posts = [p for p in pages if p.is_post_page]
    precision, recall = _detection(pages)
    return MethodSummary(
        method, len(runs), sum(1 for r in runs if r.fitted), len(posts), len(pages) - len(posts),
        precision, recall,
        title=_mean([p.title for p in posts]),
        date=_mean([p.date for p in posts]),
        author=_mean([p.author for p in posts]),
        tags=_mean([p.tags for p in posts]),
        f1_in_feed=_mean([p.f1 for p in posts if p.in_feed]),
        f1_not_in_feed=_mean([p.f1 for p in posts if not p.in_feed]),
        title_not_in_feed=_mean([p.title for p in posts if not p.in_feed]),
        date_not_in_feed=_mean([p.date for p in posts if not p.in_feed]),
        errors=sum(1 for p in pages if p.error),
        fit_cpu_seconds=sum(r.fit_cpu_seconds for r in runs),
        page_cpu_seconds=sum(r.page_cpu_seconds for r in runs),
    )  # fmt: skip


def methods_of(results: Sequence[SiteRun]) -> list[str]:
    """Every method measured, in first-seen order."""
    return list(dict.fromkeys(m.method for r in results for m in r.methods))


def pooled_summaries(results: Sequence[SiteRun]) -> list[MethodSummary]:
    """Per method, every page of every site."""
    return [summarize_method(name, [m for r in results for m in r.methods if m.method == name])
            for name in methods_of(results)]  # fmt: skip


def _f(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.3f}"


def _cells(site: str, fit: str, summary: MethodSummary) -> list[str]:
    s = summary
    return [site, s.method, str(s.posts), str(s.others), fit, _f(s.precision), _f(s.recall),
            _f(s.title.value), _f(s.date.value), _f(s.author.value), _f(s.tags.value),
            _f(s.f1_in_feed.value), _f(s.f1_not_in_feed.value), _f(s.title_not_in_feed.value),
            _f(s.date_not_in_feed.value), f"{s.fit_cpu_seconds:.2f}",
            str(s.errors)]  # fmt: skip


def _site_rows(result: SiteRun) -> list[list[str]]:
    rows = []
    for run in result.methods:
        fit = str(len(result.fit_urls)) if run.fitted else "-"
        rows.append(_cells(result.site, fit, summarize_method(run.method, [run])))
    return rows


def _notes(results: Sequence[SiteRun]) -> list[str]:
    lines = [f"not fitted: {r.site}: {r.note}" for r in results if r.note]
    lines += [f"fit failed: {r.site} {m.method}: {m.fit_error}"
              for r in results for m in r.methods if m.fit_error]  # fmt: skip
    errors = [f"  {r.site} {m.method} {p.error}" for r in results for m in r.methods
              for p in m.pages if p.error]  # fmt: skip
    if errors:
        lines += [f"page errors ({len(errors)}), first ones:", *errors[:ERROR_LINES]]
    return lines


LEGEND = (
    "P/R: post detection, posts against other pages (- when the method cannot tell)",
    "title: exact after whitespace and case; date: same day; author, tags (Jaccard): where",
    "  gold has them; F1: word LCS on the posts the feed links (feed) and the others (rest);",
    "  title rest, date rest: title and date on the posts the feed does not link",
    "fit: feed items learned from; fit s: CPU seconds of fit; pooled: over all pages",
)


def render_templates(results: Sequence[SiteRun]) -> str:
    """One row per site and method, then the pooled rows, the notes and a legend."""
    rows = [row for result in results for row in _site_rows(result)]
    fitted = {s.method: s for s in pooled_summaries(results)}
    rows += [_cells(f"{POOLED} ({len(results)} sites)", f"{s.fitted_sites} sites", s)
             for s in fitted.values()]  # fmt: skip
    lines = [format_table(HEADERS, rows, left=2), "", *_notes(results), *LEGEND]
    return "\n".join(lines) + "\n"


def _json_float(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 4)


def _summary_json(s: MethodSummary) -> dict[str, Any]:
    def mean(m: Mean) -> dict[str, Any]:
        return {"value": _json_float(m.value), "pages": m.count}

    return {
        "posts": s.posts, "others": s.others, "sites": s.sites, "fitted_sites": s.fitted_sites,
        "precision": _json_float(s.precision), "recall": _json_float(s.recall),
        "title": mean(s.title), "date": mean(s.date), "author": mean(s.author),
        "tags_jaccard": mean(s.tags), "f1_in_feed": mean(s.f1_in_feed),
        "f1_not_in_feed": mean(s.f1_not_in_feed),
        "title_not_in_feed": mean(s.title_not_in_feed),
        "date_not_in_feed": mean(s.date_not_in_feed), "errors": s.errors,
        "fit_cpu_seconds": round(s.fit_cpu_seconds, 4),
        "page_cpu_seconds": round(s.page_cpu_seconds, 4),
    }  # fmt: skip


def _site_json(result: SiteRun) -> dict[str, Any]:
    return {
        "site": result.site,
        "posts": result.posts,
        "others": result.others,
        "feed_items": result.feed_items,
        "fit_urls": list(result.fit_urls),
        "note": result.note,
        "methods": {
            run.method: {**_summary_json(summarize_method(run.method, [run])),
                         "fitted": run.fitted, "fit_error": run.fit_error}
            for run in result.methods
        },
    }  # fmt: skip


def templates_json(results: Sequence[SiteRun], max_items: int = MAX_FIT_ITEMS) -> dict[str, Any]:
    """The table's numbers, per site and method and pooled (micro-averaged over pages)."""
    return {
        "measures": " ".join(line.strip() for line in LEGEND),
        "max_fit_items": max_items,
        "methods": methods_of(results),
        "pooled": {s.method: _summary_json(s) for s in pooled_summaries(results)},
        "sites": [_site_json(r) for r in results],
    }

"""The template benchmark's outputs: per site and method, and pooled, a table and JSON.

Pooled figures are micro-averages: every page of every site weighs the same (a site with
239 posts weighs more than one with 11), as the per-site rows show the spread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from feedsift.evaluation.metrics import Mean, mean_of
from feedsift.evaluation.report import format_table
from feedsift.evaluation.templates_bench import MAX_FIT_ITEMS, MethodRun, PageScore, SiteRun

__all__ = [
    "CHOSEN",
    "COMPARED",
    "Comparison",
    "Mean",
    "MethodSummary",
    "Short",
    "compare_chosen",
    "methods_of",
    "pooled_summaries",
    "render_comparison",
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
#: The method compared with every single one: the per-field choice (issue 17's combiner).
CHOSEN = "chosen"
#: Float noise allowed when telling whether chosen is at least the best single method:
#: means of the same 0/1 scores may differ in the last bits only.
EPSILON = 1e-9


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
        title=mean_of([p.title for p in posts]),
        date=mean_of([p.date for p in posts]),
        author=mean_of([p.author for p in posts]),
        tags=mean_of([p.tags for p in posts]),
        f1_in_feed=mean_of([p.f1 for p in posts if p.in_feed]),
        f1_not_in_feed=mean_of([p.f1 for p in posts if not p.in_feed]),
        title_not_in_feed=mean_of([p.title for p in posts if not p.in_feed]),
        date_not_in_feed=mean_of([p.date for p in posts if not p.in_feed]),
        errors=sum(1 for p in pages if p.error),
        fit_cpu_seconds=sum(r.fit_cpu_seconds for r in runs),
        page_cpu_seconds=sum(r.page_cpu_seconds for r in runs),
    )  # fmt: skip


#: The measures chosen is compared on, by their table heading.
COMPARED: tuple[tuple[str, Callable[[MethodSummary], float | None]], ...] = (
    ("P", lambda s: s.precision), ("R", lambda s: s.recall),
    ("title", lambda s: s.title.value), ("date", lambda s: s.date.value),
    ("F1 feed", lambda s: s.f1_in_feed.value), ("F1 rest", lambda s: s.f1_not_in_feed.value),
    ("title rest", lambda s: s.title_not_in_feed.value),
    ("date rest", lambda s: s.date_not_in_feed.value),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Short:
    """A site where chosen falls short of its best single method on a measure."""

    site: str
    chosen: float | None
    best: float
    best_method: str


@dataclass(frozen=True, slots=True)
class Comparison:
    """Chosen against the best single method on one measure: pooled, and how many sites
    have chosen at least as good as their own best single method (``short``: the others)."""

    measure: str
    chosen: float | None
    best: float | None
    best_method: str
    sites_at_least: int
    sites: int
    short: tuple[Short, ...]


def _known(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def _best(summaries: Sequence[MethodSummary], get: Callable[[MethodSummary], float | None]
          ) -> tuple[float | None, str]:  # fmt: skip
    """The best single method's value on one measure (not chosen; None: none has one)."""
    values = [(v, s.method) for s in summaries if s.method != CHOSEN
              if (v := _known(get(s))) is not None]  # fmt: skip
    return max(values) if values else (None, "-")


def _at_least(chosen: float | None, best: float) -> bool:
    """Whether chosen is at least the best single method."""
    return chosen is not None and chosen >= best - EPSILON


def compare_chosen(results: Sequence[SiteRun]) -> list[Comparison]:
    """Per measure of :data:`COMPARED`, chosen against the best single method, pooled and
    per site (a site counts where some single method has a value); empty without chosen."""
    pooled = pooled_summaries(results)
    if not any(s.method == CHOSEN for s in pooled):
        return []
    per_site = [(r.site, [summarize_method(m.method, [m]) for m in r.methods]) for r in results]
    return [_compare(measure, get, pooled, per_site) for measure, get in COMPARED]


def _compare(
    measure: str,
    get: Callable[[MethodSummary], float | None],
    pooled: Sequence[MethodSummary],
    per_site: Sequence[tuple[str, Sequence[MethodSummary]]],
) -> Comparison:
    sites, short = 0, []
    for site, summaries in per_site:
        chosen, (best, method) = _chosen_value(summaries, get), _best(summaries, get)
        if best is None:
            continue  # no single method has a value here (no posts outside the feed...)
        sites += 1
        if not _at_least(chosen, best):
            short.append(Short(site, chosen, best, method))
    best, method = _best(pooled, get)
    return Comparison(measure, _chosen_value(pooled, get), best, method,
                      sites - len(short), sites, tuple(short))  # fmt: skip


def _chosen_value(summaries: Sequence[MethodSummary],
                  get: Callable[[MethodSummary], float | None]) -> float | None:  # fmt: skip
    return next((_known(get(s)) for s in summaries if s.method == CHOSEN), None)


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


COMPARISON_HEADERS = ["measure", "chosen", "best single", "method", "sites >= best"]


def render_comparison(comparisons: Sequence[Comparison]) -> list[str]:
    """Chosen against the best single method per measure, then the sites where it falls
    short (no lines without chosen)."""
    if not comparisons:
        return []
    rows = [[c.measure, _f(c.chosen), _f(c.best), c.best_method,
             f"{c.sites_at_least}/{c.sites}"] for c in comparisons]  # fmt: skip
    title = f"{CHOSEN} against the best single method (pooled; per site, its own best):"
    lines = [title, format_table(COMPARISON_HEADERS, rows, left=1)]
    for c in comparisons:
        if c.short:
            sites = ", ".join(f"{s.site} {_f(s.chosen)} < {s.best_method} {_f(s.best)}"
                              for s in c.short)  # fmt: skip
            lines.append(f"  short on {c.measure}: {sites}")
    return [*lines, ""]


def _cost_lines(results: Sequence[SiteRun]) -> list[str]:
    """CPU of each method's page calls a page, and of chosen's fit a page (its checks)."""
    pooled = pooled_summaries(results)
    lines = [f"  {s.method}: {_per_page(s.page_cpu_seconds, s):.1f} ms a page, fit "
             f"{_per_page(s.fit_cpu_seconds, s):.1f} ms a page" for s in pooled]  # fmt: skip
    return ["CPU per page (posts and other pages; fit spread over them):", *lines, ""]


def _per_page(seconds: float, summary: MethodSummary) -> float:
    pages = summary.posts + summary.others
    return 1000 * seconds / pages if pages else math.nan


def render_templates(results: Sequence[SiteRun]) -> str:
    """One row per site and method, then the pooled rows, chosen against the best single
    method, the CPU a page, the notes and a legend."""
    rows = [row for result in results for row in _site_rows(result)]
    fitted = {s.method: s for s in pooled_summaries(results)}
    rows += [_cells(f"{POOLED} ({len(results)} sites)", f"{s.fitted_sites} sites", s)
             for s in fitted.values()]  # fmt: skip
    lines = [format_table(HEADERS, rows, left=2), "",
             *render_comparison(compare_chosen(results)), *_cost_lines(results),
             *_notes(results), *LEGEND]  # fmt: skip
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
        "chosen_against_best": [_comparison_json(c) for c in compare_chosen(results)],
        "sites": [_site_json(r) for r in results],
    }


def _comparison_json(c: Comparison) -> dict[str, Any]:
    return {"measure": c.measure, "chosen": _json_float(c.chosen), "best": _json_float(c.best),
            "best_method": c.best_method, "sites_at_least": c.sites_at_least,
            "sites": c.sites, "short": [{"site": x.site, "chosen": _json_float(x.chosen),
                                          "best": _json_float(x.best), "method": x.best_method}
                                         for x in c.short]}  # fmt: skip

"""The rendering benchmark's outputs: static against rendered per site and pooled, the
browser's time and memory; as a terminal table, Markdown and JSON.

Pooled scores are micro-averages over pages (a blog of 239 posts weighs more than one of
11; the per-site rows show the spread). Times are wall-clock milliseconds. "Warm" leaves
out the run's first rendered page (the browser's first page pays for its first context and
its caches); the first page of every other site pays for a new context too and stays in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from feedsift.evaluation.metrics import Mean, mean_of
from feedsift.evaluation.render_bench import ModeResult, PageRun, RenderBenchResult, SiteRun
from feedsift.evaluation.report import format_table, markdown_table

__all__ = [
    "LEGEND",
    "Mean",
    "RenderSummary",
    "Timing",
    "pooled_summary",
    "render_json",
    "render_markdown",
    "render_text",
    "site_summary",
    "timing",
]

#: Name of the row over every site.
POOLED = "pooled"
#: Fallback reasons quoted under the table (the JSON keeps every one).
REASON_LINES = 5
#: Difference below which rendered counts as equal to static (float noise of means).
EPSILON = 1e-9
HEADERS = ["site", "posts", "F1 static", "F1 rendered", "F1 +/-", "F1 unshown out",
           "F1 visual end", "title static", "title rendered", "title unshown out",
           "title visual end", "hidden", "off column", "render ms", "fallbacks"]  # fmt: skip
LEGEND = (
    "F1: body word-LCS F1 against the Markdown gold; title: lenient match (case, quotes,",
    "dashes folded); unshown out: rendered, with the blocks the page does not show dropped",
    "from the body; visual end: rendered, with the blocks after the post's visual end",
    "dropped (pages without a post-end phrase after the title); hidden: share of blocks",
    "the browser did not show; off column: share",
    "of shown blocks outside the page's main column; render ms: the browser's load and",
    "measure a page (median); fallbacks: pages that got the static estimate.",
)


@dataclass(frozen=True, slots=True)
class RenderSummary:
    """Both modes over one site or all of them."""

    name: str
    posts: int
    f1_static: Mean
    f1_rendered: Mean
    title_static: Mean
    title_rendered: Mean
    f1_unshown_out: Mean  #: rendered, blocks not shown dropped
    title_unshown_out: Mean
    f1_visual_end: Mean  #: rendered, blocks after the post's visual end dropped
    title_visual_end: Mean
    hidden: Mean  #: blocks not shown / blocks, over rendered pages
    off_column: Mean  #: shown blocks outside the main column / blocks
    render_ms: float  #: median, NaN when nothing rendered
    fallbacks: int
    errors: int


#: The three extractions of a page, by name.
_MODES: dict[str, Callable[[PageRun], ModeResult | None]] = {
    "static": lambda p: p.static, "rendered": lambda p: p.rendered,
    "unshown_out": lambda p: p.unshown_out, "visual_end": lambda p: p.visual_end,
}  # fmt: skip


def _of(pages: Sequence[PageRun], pick: Callable[[ModeResult], float | bool | None],
        mode: str) -> Mean:  # fmt: skip
    modes = [_MODES[mode](p) for p in pages]
    return mean_of([pick(m) for m in modes if m is not None])


def _median(values: Sequence[float]) -> float:
    return float(np.median(values)) if values else math.nan


def _summary(name: str, pages: Sequence[PageRun]) -> RenderSummary:
    drawn = [p for p in pages if p.render_ms is not None]
    blocks = sum(p.blocks for p in drawn)
    return RenderSummary(
        name, len(pages),
        _of(pages, lambda m: m.f1, "static"), _of(pages, lambda m: m.f1, "rendered"),
        _of(pages, lambda m: m.title, "static"), _of(pages, lambda m: m.title, "rendered"),
        _of(pages, lambda m: m.f1, "unshown_out"),
        _of(pages, lambda m: m.title, "unshown_out"),
        _of(pages, lambda m: m.f1, "visual_end"), _of(pages, lambda m: m.title, "visual_end"),
        Mean(sum(p.hidden for p in drawn), blocks), Mean(sum(p.off_column for p in drawn), blocks),
        _median([p.render_ms for p in drawn if p.render_ms is not None]),
        sum(p.fallback is not None for p in pages), sum(p.error is not None for p in pages),
    )  # fmt: skip


def site_summary(site: SiteRun) -> RenderSummary:
    return _summary(site.name, site.pages)


def pooled_summary(result: RenderBenchResult) -> RenderSummary:
    pages = [p for site in result.sites for p in site.pages]
    return _summary(f"{POOLED} ({len(result.sites)} sites)", pages)


@dataclass(frozen=True, slots=True)
class Timing:
    """Milliseconds a page over the run (see the module's note on "warm")."""

    render_median: float  #: the browser's load and measure, warm
    render_p90: float
    site_first_median: float  #: the first page of each site (a new context)
    rendered_median: float  #: the whole extraction with rendering, warm
    rendered_p90: float
    static_median: float  #: the whole extraction with the static estimate
    static_p90: float


def _p90(values: Sequence[float]) -> float:
    return float(np.percentile(values, 90)) if values else math.nan


def timing(result: RenderBenchResult) -> Timing:
    pages = [p for site in result.sites for p in site.pages if p.render_ms is not None]
    warm = pages[1:]
    render = [p.render_ms for p in warm if p.render_ms is not None]
    rendered = [p.rendered.ms for p in warm if p.rendered is not None]
    static = [p.static.ms for p in pages if p.static is not None]
    firsts = [next((p.render_ms for p in s.pages if p.render_ms is not None), None)
              for s in result.sites[1:]]  # fmt: skip
    return Timing(
        _median(render), _p90(render), _median([f for f in firsts if f is not None]),
        _median(rendered), _p90(rendered), _median(static), _p90(static),
    )  # fmt: skip


def _number(value: float, digits: int = 3) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _delta(summary: RenderSummary) -> str:
    if not summary.f1_static.count:
        return "-"
    return f"{summary.f1_rendered.value - summary.f1_static.value:+.3f}"


def _row(s: RenderSummary) -> list[str]:
    return [
        s.name, str(s.posts), _number(s.f1_static.value), _number(s.f1_rendered.value),
        _delta(s), _number(s.f1_unshown_out.value), _number(s.f1_visual_end.value),
        _number(s.title_static.value), _number(s.title_rendered.value),
        _number(s.title_unshown_out.value), _number(s.title_visual_end.value),
        _number(s.hidden.value, 2), _number(s.off_column.value, 2), _number(s.render_ms, 0),
        str(s.fallbacks),
    ]  # fmt: skip


def _rows(result: RenderBenchResult) -> list[list[str]]:
    return [*(_row(site_summary(s)) for s in result.sites), _row(pooled_summary(result))]


def _cost_lines(result: RenderBenchResult) -> list[str]:
    t = timing(result)
    return [
        f"ms a page, warm: render {_number(t.render_median, 0)} median, "
        f"{_number(t.render_p90, 0)} p90 (first page of a site: "
        f"{_number(t.site_first_median, 0)}); whole extraction rendered "
        f"{_number(t.rendered_median, 0)} median, {_number(t.rendered_p90, 0)} p90; "
        f"static {_number(t.static_median, 0)} median, {_number(t.static_p90, 0)} p90",
        f"browser: launch {result.launch_ms:.0f} ms; peak PSS {result.peak_pss_mb:.0f} MB, "
        f"peak anonymous RSS {result.peak_anon_mb:.0f} MB; restarts {result.restarts}; "
        f"run {result.seconds:.0f} s",
    ]


def _reason_lines(result: RenderBenchResult) -> list[str]:
    reasons = [(s.name, p.fallback or p.error or "") for s in result.sites for p in s.pages
               if p.fallback or p.error]  # fmt: skip
    lines = [f"  {site}: {reason}" for site, reason in reasons[:REASON_LINES]]
    more = len(reasons) - REASON_LINES
    head = [f"fallbacks and errors ({len(reasons)}):"] if reasons else []
    return [*head, *lines, *([f"  ... {more} more in the JSON"] if more > 0 else [])]


def render_text(result: RenderBenchResult) -> str:
    """The terminal table, the time and memory lines, fallbacks, the legend."""
    lines = [format_table(HEADERS, _rows(result)), "", *_cost_lines(result),
             *_reason_lines(result), *LEGEND]  # fmt: skip
    return "\n".join(lines) + "\n"


def render_markdown(result: RenderBenchResult, command: str) -> str:
    """The same as Markdown, with the command that produced it."""
    cost = [f"- {line}" for line in _cost_lines(result)]
    reasons = [f"- {line.strip()}" for line in _reason_lines(result)]
    parts = ["# feedsift bench --render", "", f"`{command}`", "",
             markdown_table(HEADERS, _rows(result)), "", *cost, "",
             *([*reasons, ""] if reasons else []), " ".join(LEGEND)]  # fmt: skip
    return "\n".join(parts) + "\n"


def _json_float(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def _summary_json(s: RenderSummary) -> dict[str, Any]:
    def mean(m: Mean) -> dict[str, Any]:
        return {"value": _json_float(m.value), "count": m.count}

    return {
        "name": s.name, "posts": s.posts, "f1_static": mean(s.f1_static),
        "f1_rendered": mean(s.f1_rendered), "title_static": mean(s.title_static),
        "title_rendered": mean(s.title_rendered), "f1_unshown_out": mean(s.f1_unshown_out),
        "title_unshown_out": mean(s.title_unshown_out),
        "f1_visual_end": mean(s.f1_visual_end), "title_visual_end": mean(s.title_visual_end),
        "hidden_share": mean(s.hidden),
        "off_column_share": mean(s.off_column), "render_ms_median": _json_float(s.render_ms),
        "fallbacks": s.fallbacks, "errors": s.errors,
    }  # fmt: skip


def render_json(result: RenderBenchResult, command: str) -> dict[str, Any]:
    """Summaries per site and pooled, the timing, the browser, and every page."""
    sites = [{**_summary_json(site_summary(s)), "css_files": s.css_files,
              "external_css": s.external_css} for s in result.sites]  # fmt: skip
    browser = {"launch_ms": round(result.launch_ms, 1), "peak_pss_mb": round(result.peak_pss_mb, 1),
               "peak_anon_rss_mb": round(result.peak_anon_mb, 1), "restarts": result.restarts,
               "seconds": round(result.seconds, 1)}  # fmt: skip
    return {
        "command": command,
        "measures": " ".join(LEGEND),
        "pooled": _summary_json(pooled_summary(result)),
        "sites": sites,
        "timing_ms": {k: _json_float(v) for k, v in asdict(timing(result)).items()},
        "browser": browser,
        "pages": {s.name: [asdict(p) for p in s.pages] for s in result.sites},
    }

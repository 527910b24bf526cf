"""The stream evaluation's outputs: a summary table, JSON, and one PNG per site."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from feedsift.evaluation.report import format_table
from feedsift.evaluation.stream import (
    WARM_UP,
    SiteResult,
    pooled_after,
    pooled_all,
    pooled_seconds,
)

__all__ = ["methods_of", "render_stream", "render_times", "stream_json", "write_plots"]

#: Width and height of a site's plot, in inches at 100 dpi: readable in a README or a note.
PLOT_SIZE = (8.0, 4.5)


def methods_of(results: Sequence[SiteResult]) -> list[str]:
    """Every method replayed, in first-seen order."""
    return list(dict.fromkeys(m for r in results for m in r.f1))


def render_stream(results: Sequence[SiteResult], warm_up: int = WARM_UP) -> str:
    """Per site the final cumulative F1 of each method, then the pooled figures."""
    methods = methods_of(results)
    rows = [[f"{r.stream.group}/{r.stream.name}".lstrip("/"), str(len(r.f1.get("page", [])))]
            + [_f(_last(r.cumulative(m))) for m in methods] for r in results]  # fmt: skip
    rows.append(["pooled, all pages", str(sum(len(r.f1.get("page", [])) for r in results))]
                + [_f(pooled_all(results, m)) for m in methods])  # fmt: skip
    after = [r for r in results if len(r.f1.get("page", [])) > warm_up]
    count = sum(len(r.f1["page"]) - warm_up for r in after)
    rows.append([f"pooled, after {warm_up} docs ({len(after)} sites)", str(count)]
                + [_f(pooled_after(after, m, warm_up)) for m in methods])  # fmt: skip
    return format_table(["site", "docs", *methods], rows) + "\n" + render_times(results)


def render_times(results: Sequence[SiteResult]) -> str:
    """The timed work per page, each site-level learner against the page level."""
    page = pooled_seconds(results, "page")
    lines = [f"time per page: page level (read, parse, extract) {page * 1000:.2f} ms"]
    for method in _timed(results):
        spent = pooled_seconds(results, method)
        lines.append(f"  {method}: {spent * 1000:.2f} ms = {spent / page:.1%} of the page level")
    return "\n".join(lines) + "\n"


def _timed(results: Sequence[SiteResult]) -> list[str]:
    return [m for m in dict.fromkeys(m for r in results for m in r.seconds) if m != "page"]


def stream_json(results: Sequence[SiteResult], warm_up: int = WARM_UP) -> dict[str, Any]:
    """Per site and method the F1 of each page and its cumulative average; pooled means."""
    methods = methods_of(results)
    after = [r for r in results if len(r.f1.get("page", [])) > warm_up]
    return {
        "measure": "word LCS F1 per page; cumulative moving average after each page",
        "warm_up": warm_up,
        "pooled_all": {m: _json_float(pooled_all(results, m)) for m in methods},
        "pooled_after_warm_up": {m: _json_float(pooled_after(after, m, warm_up)) for m in methods},
        "ms_per_page": {
            m: _json_float(pooled_seconds(results, m) * 1000) for m in ["page", *_timed(results)]
        },
        "sites": [
            {
                "group": r.stream.group,
                "site": r.stream.name,
                "pages": len(r.f1.get("page", [])),
                "unreadable": r.errors,
                "f1": {m: [round(v, 4) for v in r.f1.get(m, [])] for m in methods},
                "cumulative": {m: [round(v, 4) for v in r.cumulative(m)] for m in methods},
            }
            for r in results
        ],
    }


def write_plots(results: Sequence[SiteResult], folder: Path) -> list[Path]:
    """One PNG per site: cumulative F1 against documents seen, one line per method."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for result in results:
        figure, axes = pyplot.subplots(figsize=PLOT_SIZE, dpi=100)
        for method in result.f1:
            curve = result.cumulative(method)
            axes.plot(range(1, len(curve) + 1), curve, label=method, linewidth=1.4)
        name = f"{result.stream.group}__{result.stream.name}".strip("_")
        axes.set(title=name, xlabel="documents seen", ylabel="cumulative F1 (word LCS)")
        axes.set_ylim(0.0, 1.0)
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7, loc="lower right", ncols=2)
        path = folder / f"{name}.png"
        figure.tight_layout()
        figure.savefig(path)
        pyplot.close(figure)
        written.append(path)
    return written


def _last(values: list[float]) -> float:
    return values[-1] if values else float("nan")


def _f(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def _json_float(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)

"""The post's visual end on the ssg blogs: render once, try the rule's variants, leave
sites out (docs/rendering.md, part 4).

    PYTHONPATH=src python scripts/visual_end_lso.py render ../shared/sites/ssg /tmp/vips/cache
    PYTHONPATH=src python scripts/visual_end_lso.py grid ../shared/sites/ssg /tmp/vips/cache \
        /tmp/vips/grid.jsonl
    PYTHONPATH=src python scripts/visual_end_lso.py lso /tmp/vips/grid.jsonl [FAMILY]

``render`` measures every post once in Chromium (as ``feedsift bench --render`` does: the
blog's ``assets/`` served, everything else blocked) and pickles each site's
``PageMeasure`` records; ``grid`` extracts every post with the shipped model on its cached
render and writes, per post, the body F1 without the rule and with each variant (the
same decision, its ``content`` cut by the variant; JSON lines); ``lso`` chooses the best
variant, or "off", on 12 of the 24 sites (alternate sites in name order) and scores it on
the other 12, then swaps. ``FAMILY`` limits the variants to those whose key contains it.

Variants: the segmentation (gap limit 4 font sizes or none; every cue, or separators and
gaps only) times two end rules: ``share`` (the run ends at the last segment with at least
a share of the largest segment's kept words) and ``score`` (the run ends at the last
segment whose kept blocks' score, by max, mean or word-weighted mean, reaches tau; the
cut is made only when it drops at least ``min`` blocks). The shipped rule is
``4.0|all|score|mean|0.6|1``.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.render_bench import posts_to_run, site_resources
from feedsift.evaluation.templates_bench import BlogSite
from feedsift.extractors.page import BlockDecision, LearnedPageExtractor
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.browser_layout import BrowserLayout
from feedsift.rendering.measure import PageMeasure
from feedsift.rendering.provider import layout_of
from feedsift.rendering.segments import SegmentOptions, visual_segments

GAPS = (4.0, 1e9)
KINDS = {"all": {"separator", "background", "gap", "column"}, "sepgap": {"separator", "gap"}}
SHARES = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
AGGREGATES = ("max", "mean", "wmean")
TAUS = (0.6, 0.7, 0.8, 0.9)
MIN_DROPPED = (1, 2, 3)


def render(root: Path, cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with Renderer(RenderOptions()) as renderer:
        for site, folder in posts_to_run(root, None):
            target = cache / f"{site.name}.pkl"
            if not target.exists():
                target.write_bytes(pickle.dumps(_render_site(renderer, site, folder)))
            print(site.name, f"{time.perf_counter() - started:.0f} s", flush=True)


def _render_site(renderer: Renderer, site: BlogSite, folder: Path) -> dict[str, object]:
    found: dict[str, object] = {}
    last: list[object] = []
    layout = BrowserLayout(renderer, site_resources(folder, site.posts),
                           on_fallback=lambda f: last.append(f.reason),
                           on_measure=last.append)  # fmt: skip
    for page in site.posts:
        last.clear()
        parsed = parse_page(read_page_html(page.path), page.url)
        layout.layout(parsed.view, parsed)
        found[page.id] = last[-1] if last else "not rendered"
    return found


class _Cached:
    """The layout of a cached render."""

    def __init__(self, measure: PageMeasure) -> None:
        self.measure = measure

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        return layout_of(self.measure, (1280, 800))


def _segments(measure: PageMeasure, gap: float, kinds: set[str]) -> np.ndarray:
    """Each block's segment, cutting at ``kinds`` of cue only."""
    segments = visual_segments(measure.blocks, SegmentOptions(gap_font_sizes=gap))
    number = np.cumsum([s.cut in kinds or s.cut == "first" for s in segments]) - 1
    found = np.zeros(len(measure.blocks), dtype=np.intp)
    for k, s in enumerate(segments):
        found[s.start : s.stop] = number[k]
    return found


def _segment_values(decision: BlockDecision, after: np.ndarray, seg: np.ndarray,
                    how: str) -> np.ndarray:  # fmt: skip
    n = int(seg.max()) + 1
    scores, words = decision.scores[after], decision.analysis.signals.words[after]
    if how == "max":
        found = np.full(n, -1.0)
        np.maximum.at(found, seg[after], scores)
        return found
    weights = words if how in ("wmean", "share") else np.ones(len(scores))
    total = np.bincount(seg[after], weights=weights, minlength=n)
    if how == "share":
        return total / max(1.0, float(total.max()))
    summed = np.bincount(seg[after], weights=weights * scores, minlength=n)
    means: np.ndarray = np.divide(summed, total, out=np.full(n, -1.0), where=total > 0)
    return means


def _dropped(decision: BlockDecision, seg: np.ndarray, how: str, limit: float,
             least: int) -> np.ndarray | None:  # fmt: skip
    kept, title = decision.content, decision.title_block
    index = np.arange(len(kept))
    if (decision.analysis.signals.marker[index > title] > 0).any():
        return None
    after = kept & (index >= max(title, 0))
    if not after.any():
        return None
    first = int(seg[title]) if title >= 0 else int(seg[np.flatnonzero(after)[0]])
    values = _segment_values(decision, after, seg, how)
    values[:first] = -1.0
    anchors = np.flatnonzero(values >= limit)
    if not len(anchors):
        return None
    dropped = kept & (seg > int(anchors[-1]))
    return dropped if dropped.sum() >= least else None


def _variants() -> Iterator[tuple[str, str, float, int]]:
    for share in SHARES:
        yield f"share|{share}", "share", share, 1
    for how in AGGREGATES:
        for tau in TAUS:
            for least in MIN_DROPPED:
                yield f"score|{how}|{tau}|{least}", how, tau, least


def _page_row(base: LearnedPageExtractor, page_html: bytes, url: str, gold: str,
              measure: PageMeasure) -> dict[str, object]:  # fmt: skip
    parsed = parse_page(page_html, url)
    extractor = base.with_layout(_Cached(measure))
    decision = extractor.decide(parsed)
    memo: dict[bytes, float] = {}

    def f1(content: np.ndarray) -> float:
        key = content.tobytes()
        if key not in memo:
            article = extractor.extract_decided(parsed, replace(decision, content=content))
            memo[key] = lcs_prf(article.text, gold).f1
        return memo[key]

    row: dict[str, object] = {"base": f1(decision.content)}
    variants: dict[str, float | None] = {}
    for gap in GAPS:
        for kind, cues in KINDS.items():
            seg = _segments(measure, gap, cues)
            for name, how, limit, least in _variants():
                dropped = _dropped(decision, seg, how, limit, least)
                key = f"{gap}|{kind}|{name}"
                variants[key] = None
                if dropped is not None and dropped.any():
                    variants[key] = f1(decision.content & ~dropped)
    row["v"] = variants
    return row


def grid(root: Path, cache: Path, out: Path) -> None:
    base = bundled_extractor()
    with out.open("w", encoding="utf-8") as sink:
        for site, _ in posts_to_run(root, None):
            measures = pickle.loads((cache / f"{site.name}.pkl").read_bytes())
            for page in site.posts:
                measure = measures[page.id]
                if not isinstance(measure, PageMeasure) or page.gold is None:
                    continue
                row = _page_row(base, read_page_html(page.path), page.url, page.gold.text,
                                measure)  # fmt: skip
                sink.write(json.dumps({"site": site.name, "page": page.id, **row}) + "\n")
            print(site.name, flush=True)


def _f1(row: dict[str, object], key: str) -> float:
    base = float(row["base"])  # type: ignore[arg-type]
    if key == "off":
        return base
    value = row["v"][key]  # type: ignore[index]
    return base if value is None else float(value)


def _mean(rows: list[dict[str, object]], key: str) -> float:
    return sum(_f1(r, key) for r in rows) / len(rows)


def lso(path: Path, family: str = "") -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    sites = sorted({r["site"] for r in rows})
    halves = {"A": sites[0::2], "B": sites[1::2]}
    keys = ["off", *(k for k in rows[0]["v"] if family in k)]
    tested = {"off": 0.0, "rule": 0.0}
    for tune, test in (("A", "B"), ("B", "A")):
        fit = [r for r in rows if r["site"] in halves[tune]]
        held = [r for r in rows if r["site"] in halves[test]]
        best = max(keys, key=lambda k: (round(_mean(fit, k), 6), k == "off"))
        print(f"tuned on {tune} ({len(halves[tune])} sites, {len(fit)} posts): {best}, "
              f"{_mean(fit, 'off'):.4f} -> {_mean(fit, best):.4f}")  # fmt: skip
        print(f"  scored on {test} ({len(halves[test])} sites, {len(held)} posts): "
              f"{_mean(held, 'off'):.4f} -> {_mean(held, best):.4f}")  # fmt: skip
        for site in halves[test]:
            mine = [r for r in held if r["site"] == site]
            before, after = _mean(mine, "off"), _mean(mine, best)
            if abs(after - before) >= 0.0005:
                print(f"    {site}: {before:.3f} -> {after:.3f} ({after - before:+.3f})")
        tested["off"] += sum(_f1(r, "off") for r in held)
        tested["rule"] += sum(_f1(r, best) for r in held)
    print(f"both held-out halves ({len(rows)} posts): {tested['off'] / len(rows):.4f} -> "
          f"{tested['rule'] / len(rows):.4f}")  # fmt: skip


def main(argv: list[str]) -> None:
    command, *args = argv
    if command == "render":
        render(Path(args[0]), Path(args[1]))
    elif command == "grid":
        grid(Path(args[0]), Path(args[1]), Path(args[2]))
    else:
        lso(Path(args[0]), args[1] if len(args) > 1 else "")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The post's visual end on the ssg blogs: render once, try the rule's variants, leave
sites out (docs/rendering.md, part 4).

    PYTHONPATH=src python scripts/visual_end_lso.py render ../shared/sites/ssg /tmp/vips/cache
    PYTHONPATH=src python scripts/visual_end_lso.py grid ../shared/sites/ssg /tmp/vips/cache \
        /tmp/vips/grid.jsonl
    PYTHONPATH=src python scripts/visual_end_lso.py lso /tmp/vips/grid.jsonl [FAMILY]
    PYTHONPATH=src python scripts/visual_end_lso.py loss ../shared/sites/ssg /tmp/vips/cache
    PYTHONPATH=src python scripts/visual_end_lso.py cost /tmp/vips/cache

``render`` measures every post once in Chromium (as ``feedsift bench --render`` does: the
blog's ``assets/`` served, everything else blocked) and pickles each site's
``PageMeasure`` records; ``grid`` extracts every post with the shipped model on its cached
render and writes, per post, the body F1 without the rule and with each variant (the
same decision, its ``content`` cut by the variant; JSON lines); ``lso`` chooses the best
variant, or "off", on 12 of the 24 sites (alternate sites in name order) and scores it on
the other 12, then swaps. ``FAMILY`` limits the variants to those whose key contains it;
it also gives the *oracle*: per post, the best F1 of a cut after any of the last 8
segments holding kept blocks (the headroom of any end rule on these segments). ``loss``
says where the rendered extraction's extra words are, per site: kept blocks the gold does
not hold (aligned as for training) before the first gold block, between, after the last,
and how many pages have no post-end phrase after the title, naming the pages with more
than 500 such words after the last gold block. ``cost`` gives the page
script's time and its separator walk's, a page.

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
from feedsift.training.align import align_blocks

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

    base_f1 = f1(decision.content)
    row: dict[str, object] = {"base": base_f1}
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
    row["oracle"] = max([base_f1, *(f1(c) for c in _cuts(decision, measure))])
    return row


#: Segments (holding kept blocks, from the end) after which the oracle tries a cut.
ORACLE_CUTS = 8


def _cuts(decision: BlockDecision, measure: PageMeasure) -> list[np.ndarray]:
    """The body cut after each of the last :data:`ORACLE_CUTS` segments with kept blocks
    (none when a post-end phrase follows the title: the rule does not apply there)."""
    kept, title = decision.content, decision.title_block
    index = np.arange(len(kept))
    if (decision.analysis.signals.marker[index > title] > 0).any():
        return []
    seg = _segments(measure, GAPS[0], KINDS["all"])
    held = sorted(set(seg[kept & (index > title)].tolist()))
    return [kept & (seg <= end) for end in held[-ORACLE_CUTS:-1]]


def grid(root: Path, cache: Path, out: Path) -> None:
    base = bundled_extractor()
    with out.open("w", encoding="utf-8") as sink:
        for site, _ in posts_to_run(root, None):
            measures = pickle.loads((cache / f"{site.name}.pkl").read_bytes())
            for page in site.posts:
                measure = measures[page.id]
                if not isinstance(measure, PageMeasure) or page.gold is None or not page.gold.text:
                    continue  # as the bench: a post without gold text has no F1
                row = _page_row(base, read_page_html(page.path), page.url, page.gold.text,
                                measure)  # fmt: skip
                sink.write(json.dumps({"site": site.name, "page": page.id, **row}) + "\n")
            print(site.name, flush=True)


def _f1(row: dict[str, object], key: str) -> float:
    base = float(row["base"])  # type: ignore[arg-type]
    if key in ("off", "oracle"):
        return base if key == "off" else float(row["oracle"])  # type: ignore[arg-type]
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
          f"{tested['rule'] / len(rows):.4f}; oracle {_mean(rows, 'oracle'):.4f}")  # fmt: skip
    for key in keys[1:] if family else ():
        print(f"  all sites, {key}: {_mean(rows, key):.4f}")


#: A page with more extra words than this after its last gold block is named by ``loss``.
MANY_AFTER = 500


def loss(root: Path, cache: Path) -> None:
    base = bundled_extractor()
    for site, _ in posts_to_run(root, None):
        measures = pickle.loads((cache / f"{site.name}.pkl").read_bytes())
        words = np.zeros(4)
        unmarked = 0
        for page in site.posts:
            measure = measures[page.id]
            if not isinstance(measure, PageMeasure) or page.gold is None:
                continue
            parsed = parse_page(read_page_html(page.path), page.url)
            decision = base.with_layout(_Cached(measure)).decide(parsed)
            extra = _extra_words(parsed, decision, page.gold.text)
            words += extra
            if extra[2] > MANY_AFTER:
                print(f"  {page.id}: {extra[2]:.0f} words after the last gold block, "
                      f"{extra[3]:.0f} gold words kept")  # fmt: skip
            after = np.arange(len(decision.content)) > decision.title_block
            unmarked += not (decision.analysis.signals.marker[after] > 0).any()
        print(f"{site.name}: {len(site.posts)} posts, {unmarked} without a post-end phrase; extra "
              f"words before {words[0]:.0f}, between {words[1]:.0f}, after {words[2]:.0f}; "
              f"gold words kept {words[3]:.0f}")  # fmt: skip


def _extra_words(parsed: ParsedPage, decision: BlockDecision, gold: str) -> np.ndarray:
    """Kept words not in the gold before its first block, between, after; gold words kept."""
    texts = [b.text for b in parsed.view.blocks]
    labels = np.array(align_blocks(texts, gold).labels, dtype=bool)
    words = decision.analysis.signals.words
    inside = np.flatnonzero(labels)
    if not len(inside):
        return np.zeros(4)
    index, extra = np.arange(len(texts)), decision.content & ~labels
    places = (index < inside[0], (index >= inside[0]) & (index <= inside[-1]), index > inside[-1])
    return np.array([*(words[extra & p].sum() for p in places),
                     words[decision.content & labels].sum()])  # fmt: skip


def cost(cache: Path) -> None:
    script, walk = [], []
    for path in sorted(cache.glob("*.pkl")):
        for measure in pickle.loads(path.read_bytes()).values():
            if isinstance(measure, PageMeasure):
                script.append(measure.script_ms)
                walk.append(measure.separator_ms)
    print(f"{len(script)} pages: page script ms median {np.median(script):.1f}, p90 "
          f"{np.percentile(script, 90):.1f}; separator walk ms median {np.median(walk):.1f}, "
          f"p90 {np.percentile(walk, 90):.1f}, max {max(walk):.1f}")  # fmt: skip


def main(argv: list[str]) -> None:
    command, *args = argv
    if command == "render":
        render(Path(args[0]), Path(args[1]))
    elif command == "grid":
        grid(Path(args[0]), Path(args[1]), Path(args[2]))
    elif command == "loss":
        loss(Path(args[0]), Path(args[1]))
    elif command == "cost":
        cost(Path(args[0]))
    else:
        lso(Path(args[0]), args[1] if len(args) > 1 else "")


if __name__ == "__main__":
    main(sys.argv[1:])

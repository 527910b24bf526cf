"""DiffPost on real site streams: word-LCS P/R/F1 of the kept text, per setting.

Run from the repository root (reads ../shared/sites; says so and stops when it is missing):

    .venv/bin/python scripts/diffpost_eval.py [--sites ../shared/sites] [--k 1 2 3 5]
        [--share 0 0.5 0.6 0.7] [--cap 0.25] [--group ssg]

Every site folder below ``--sites`` (``<group>/<site>/pages/<id>.html.gz`` + ``gold.jsonl``)
is replayed in time order: ``date`` when every page has one (the blogs of ``ssg``), else
``subset`` then ``id`` (``msvcode_big9``: 2005 ... 2017), else ``id``. Each page after the
first is judged against the site's previous ``k`` pages (judged, then learned; times are not
passed, since the gold dates are publication dates, not download times) and the text of the
blocks DiffPost keeps is scored against the gold with word-LCS P/R/F1. ``share 0`` is the
pre-step off (the paper's plain DiffPost); ``all text`` keeps every block (the paper's
"Original"). Means are over pages, per group and over all pages.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feedsift.errors import FeedsiftError, NotFittedError
from feedsift.evaluation.datasets import find_page_file, read_page_html
from feedsift.evaluation.metrics import PRF, lcs_prf, mean_prf
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel.diffpost import MAX_PRESTEP_SHARE, DiffPost

ALL_TEXT = "all text"


@dataclass(frozen=True, slots=True)
class Setting:
    comparisons: int
    min_text_share: float
    max_prestep_share: float

    @property
    def label(self) -> str:
        share = "off" if self.min_text_share == 0 else f"{self.min_text_share:.2f}"
        return f"k={self.comparisons} pre-step={share} cap={self.max_prestep_share:.2f}"

    def learner(self) -> DiffPost:
        return DiffPost(self.comparisons, self.min_text_share, None, self.max_prestep_share)


@dataclass(frozen=True, slots=True)
class SitePages:
    group: str
    name: str
    pages: tuple[tuple[ParsedPage, str], ...]  #: (page, gold text) in stream order


def _order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if all(row.get("date") for row in rows):
        return sorted(rows, key=lambda row: (str(row["date"]), str(row["id"])))
    return sorted(rows, key=lambda row: (str(row.get("subset") or ""), str(row["id"])))


def _url(folder: Path, row: dict[str, Any]) -> str:
    url = str(row.get("url") or "")
    if url.startswith(("http://", "https://")):
        return url
    return f"http://{folder.name.lower()}/{row['id']}"


def _site_pages(folder: Path) -> SitePages:
    lines = (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    rows = _order([json.loads(line) for line in lines if line.strip()])
    pages = []
    for row in rows:
        path = find_page_file(folder, str(row["id"]))
        if path is None or not row.get("text"):
            continue
        try:
            pages.append((parse_page(read_page_html(path), _url(folder, row)), str(row["text"])))
        except FeedsiftError as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
    return SitePages(folder.parent.name, folder.name, tuple(pages))


def iter_sites(root: Path, groups: list[str] | None) -> Iterator[SitePages]:
    """Every site below ``root``, parsed, one at a time (a site's pages fit in memory)."""
    for gold in sorted(root.glob("*/*/gold.jsonl")):
        if groups is None or gold.parent.parent.name in groups:
            yield _site_pages(gold.parent)


def replay(site: SitePages, setting: Setting) -> list[PRF]:
    """The score of every page after the first, judged against the previous pages."""
    learner, scores = setting.learner(), []
    for page, gold in site.pages:
        try:
            mask = learner.boilerplate(page)
        except NotFittedError:
            mask = None
        if mask is not None:
            kept = [b.text for b, drop in zip(page.view.blocks, mask, strict=True) if not drop]
            scores.append(lcs_prf("\n".join(kept), gold))
        learner.partial_fit(page)
    return scores


def all_text(site: SitePages) -> list[PRF]:
    """The score of every page after the first with nothing removed."""
    return [lcs_prf("\n".join(b.text for b in p.view.blocks), g) for p, g in site.pages[1:]]


def _report(scores: dict[tuple[str, str], list[PRF]], groups: list[str], labels: list[str]) -> None:
    print(f"{'setting':34} " + " ".join(f"{g[:15]:>24}" for g in [*groups, "all pages"]))
    print(f"{'':34} " + " ".join(f"{'P    R    F1   (n)':>24}" for _ in [*groups, "all"]))
    for label in labels:
        cells = []
        for group in [*groups, None]:
            items = [s for (g, lab), v in scores.items() if lab == label and group in (None, g)
                     for s in v]  # fmt: skip
            m = mean_prf(items)
            cells.append(f"{m.precision:.3f} {m.recall:.3f} {m.f1:.3f} ({len(items)})")
        print(f"{label:34} " + " ".join(f"{c:>24}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sites",
        type=Path,
        default=Path("../shared/sites"),
        help="folder of <group>/<site>/ streams (default: %(default)s)",
    )
    parser.add_argument(
        "--k",
        type=int,
        nargs="+",
        default=[1, 2, 3, 5],
        help="comparison pages per judged page (default: %(default)s)",
    )
    parser.add_argument(
        "--share",
        type=float,
        nargs="+",
        default=[0.0, 0.5, 0.6, 0.7],
        help="pre-step min non-anchor share, 0 = off (default: %(default)s)",
    )
    parser.add_argument(
        "--cap",
        type=float,
        nargs="+",
        default=[MAX_PRESTEP_SHARE],
        help="pre-step max share of the page's words (default: %(default)s)",
    )
    parser.add_argument("--group", nargs="+", help="only these groups (folder names)")
    args = parser.parse_args()
    if not args.sites.is_dir():
        sys.exit(f"{args.sites}: no site streams here (the shared data is missing)")
    settings = [Setting(*c) for c in itertools.product(args.k, args.share, args.cap)]
    scores: dict[tuple[str, str], list[PRF]] = {}
    started, groups = time.perf_counter(), []
    for site in iter_sites(args.sites, args.group):
        groups += [] if site.group in groups else [site.group]
        scores.setdefault((site.group, ALL_TEXT), []).extend(all_text(site))
        for setting in settings:
            scores.setdefault((site.group, setting.label), []).extend(replay(site, setting))
        print(f"{site.group}/{site.name}: {len(site.pages)} pages", file=sys.stderr)
    _report(scores, groups, [ALL_TEXT, *(s.label for s in settings)])
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()

"""What the crawl's per-site checks cost against the page level alone, per page.

Run from the repository root (reads ../shared/sites/ssg; says so and stops when missing):

    .venv/bin/python scripts/check_cost.py [--sites ../shared/sites/ssg] [--limit 8]
        [--pages 40] [--passes 2]

The first ``--pages`` pages of the first ``--limit`` blogs, in stream order, each go
through three extractions, timed in process time one after the other on the same parsed
page (so the machine's load hits all three alike):

* ``page``: the page-level extractor alone;
* ``learn``: ``SiteModels.process`` without a feed item (URL Tree and DiffPost learn the
  page, nothing is checked: the page level's fields);
* ``check``: ``SiteModels.process`` with a feed item carrying the page's gold title and
  whole text as full content: every method is checked on every page (the worst case: a
  feed of full posts, every page one of its items; excerpts cost far less).

Printed: milliseconds a page of each, and the checks' cost (``check`` - ``learn``) and the
site level's whole cost (``check`` - ``page``) as shares of the page level's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from feedsift.api import bundled_extractor
from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.stream import find_streams
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import parse_page
from feedsift.records import FeedItem
from feedsift.sitelevel.models import SiteModels

MODES = ("page", "learn", "check")


@dataclass(frozen=True, slots=True)
class Sample:
    raw: bytes
    url: str
    item: FeedItem


def _samples(root: Path, limit: int, pages: int) -> list[Sample]:
    samples = []
    for stream in find_streams(root)[:limit]:
        folder = stream.pages[0].path.parent.parent
        titles = {}
        for line in (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                titles[str(row.get("id"))] = str(row.get("title") or "")
        for page in stream.pages[:pages]:
            item = FeedItem(page.url, titles.get(page.id, ""), "", page.gold)
            samples.append(Sample(read_page_html(page.path), page.url, item))
    return samples


def _one_pass(extractor: LearnedPageExtractor, samples: list[Sample]) -> dict[str, float]:
    learning, checking = SiteModels(extractor), SiteModels(extractor)
    seconds = dict.fromkeys(MODES, 0.0)
    for sample in samples:
        page = parse_page(sample.raw, sample.url)
        for mode in MODES:
            started = time.process_time()
            if mode == "page":
                extractor.extract(page)
            elif mode == "learn":
                learning.process(page)
            else:
                checking.process(page, item=sample.item)
            seconds[mode] += time.process_time() - started
    return {mode: total / len(samples) * 1000 for mode, total in seconds.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", type=Path, default=Path("../shared/sites/ssg"))
    parser.add_argument("--limit", type=int, default=8, help="blogs (default: %(default)s)")
    parser.add_argument("--pages", type=int, default=40, help="pages a blog (default: 40)")
    parser.add_argument("--passes", type=int, default=2, help="timed passes (default: 2)")
    args = parser.parse_args()
    if not args.sites.is_dir():
        print(f"{args.sites}: not found (the shared site streams are needed)", file=sys.stderr)
        return 2
    samples = _samples(args.sites, args.limit, args.pages)
    extractor = bundled_extractor()
    print(f"{len(samples)} pages of {args.limit} blogs")
    for _ in range(args.passes):
        ms = _one_pass(extractor, samples)
        checks = (ms["check"] - ms["learn"]) / ms["page"]
        total = (ms["check"] - ms["page"]) / ms["page"]
        print("  ".join(f"{m} {ms[m]:.2f} ms" for m in MODES)
              + f"  checks {checks:.0%} of the page level; site level in all {total:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

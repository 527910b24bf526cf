"""The crawl worker's CPU a page against the page level alone, and its outputs, replayed.

Run from the repository root (reads ../shared/sites/ssg; says so and stops when missing):

    .venv/bin/python scripts/worker_cost.py [--sites ../shared/sites/ssg] [--passes 2]
        [--dump outputs.jsonl]

What a worker of ``feedsift bench --pipeline`` does with the 24 blogs' feed items, in one
process and in a fixed order (the bench's own order depends on which fetch ends first, so
two runs of it store different articles): each blog's feed is read as the test web serves
it, every item's page goes through :func:`~feedsift.crawl.extraction.extract_job` with the
site's :class:`~feedsift.sitelevel.SiteModels` and the feed item (parse, learn, check,
extract through the combiner, fingerprints with the worker's word hashes, stored JSON),
then the feed's template is learned from its first 20 items' pages
(:func:`~feedsift.crawl.template_jobs.learn_template`, as the crawl does after a poll).
Each blog's pages are first extracted by the page level alone (parse and extract), in the
same pass, for the reference.

Printed per pass: milliseconds of CPU (``time.thread_time``) a page of the page level alone,
of the worker's extraction jobs and of template learning, and the worker's total as a
multiple of the page level's. ``--dump`` writes every output of the first pass (each job's
fingerprints and stored record, each template and its checks learned with ``combine`` on,
each site's saved state) as JSON lines: two versions of the code that dump the same bytes
store the same articles and learn the same templates.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.api import bundled_extractor
from feedsift.crawl.extraction import ExtractionJob, extract_job
from feedsift.crawl.keptpages import KeptPages
from feedsift.crawl.template_jobs import FetchedPage, learn_template
from feedsift.dedup.fingerprint import WordHashes
from feedsift.dedup.site import site_of
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import parse_page
from feedsift.records import FeedItem
from feedsift.sitelevel.models import SiteModels
from feedsift.templates.learner import MAX_ITEMS
from feedsift.testweb.responses import Request
from feedsift.testweb.ssg import SsgSite, ssg_folders

#: When the replayed pages were fetched (DiffPost compares pages of the same crawl).
SEEN_AT = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Blog:
    """One blog as the test web serves it: its feed and its items' pages."""

    name: str
    feed: ParsedFeed
    pages: tuple[tuple[FeedItem, bytes], ...]


@dataclass(slots=True)
class Pass:
    """CPU seconds of one pass, by part."""

    page_level: float = 0.0
    worker: float = 0.0
    templates: float = 0.0
    outputs: list[dict[str, Any]] = field(default_factory=list)


def read_blogs(root: Path) -> list[Blog]:
    """Every blog's feed and item pages (an item without a served HTML page is left out)."""
    blogs = []
    for number, folder in enumerate(ssg_folders(root)):
        site = SsgSite(folder, f"http://site{number}.test")
        feed = parse_feed(site.feed, site.feed_url())
        pages = []
        for item in feed.sample().items:
            response = site.respond(Request("GET", urlsplit(item.url or "").path, (), ()))
            if item.url and response.status == 200 and b"<" in response.body[:2000]:
                pages.append((item, response.body))
        blogs.append(Blog(folder.name, feed, tuple(pages)))
    return blogs


def run_pass(blogs: list[Blog], extractor: LearnedPageExtractor, dump: bool) -> Pass:
    """One replay of every blog; ``dump``: keep the outputs too."""
    timed, models, kept, words = Pass(), SiteModels(extractor), KeptPages(), WordHashes()
    options, document = ExtractOptions(), 0
    for blog in blogs:
        started = time.thread_time()
        for item, body in blog.pages:
            extractor.extract(parse_page(body, item.url, "text/html"), options)
        timed.page_level += time.thread_time() - started
        for item, body in blog.pages:
            document += 1
            job = ExtractionJob(document, site_of(item.url or ""), item.url or "", body,
                                "text/html", seen_at=SEEN_AT, item=item)  # fmt: skip
            started = time.thread_time()
            outcome = extract_job(job, extractor, options, models, kept, words)
            timed.worker += time.thread_time() - started
            if dump:
                timed.outputs.append({"url": job.url, "error": outcome.error,
                                      "hash": outcome.content_hash, "simhash": outcome.simhash,
                                      "record": outcome.record})  # fmt: skip
        fetched = tuple(FetchedPage(item.url or "", item.url or "", body, "text/html")
                        for item, body in blog.pages[:MAX_ITEMS])  # fmt: skip
        started = time.thread_time()
        learned = learn_template(blog.feed, fetched, extractor=extractor, kept=kept)
        timed.templates += time.thread_time() - started
        if dump:
            checked = learn_template(blog.feed, fetched, True, extractor=extractor, kept=kept)
            timed.outputs.append({"site": blog.name, "template": _state(learned.state),
                                  "key": learned.key_path, "error": learned.error,
                                  "checked": _state(checked.state),
                                  "checks": _state(checked.checks)})  # fmt: skip
    if dump:
        timed.outputs += [{"saved": site, "state": _state(models.save_site(site).state)}
                          for site in sorted(models.sites_)]  # fmt: skip
    return timed


def _state(data: bytes | None) -> object:
    """A saved state as its JSON (gzip's own bytes carry the time they were written)."""
    return None if data is None else json.loads(gzip.decompress(data))


def report(passes: list[Pass], pages: int, out: TextIO) -> None:
    for number, done in enumerate(passes, 1):
        page, worker, templates = (1000 * s / pages for s in
                                   (done.page_level, done.worker, done.templates))  # fmt: skip
        out.write(f"pass {number}: page level {page:.2f} ms a page, worker jobs {worker:.2f}, "
                  f"template learning {templates:.2f}: worker {(worker + templates) / page:.2f}"
                  " times the page level\n")  # fmt: skip
    ratios = [(p.worker + p.templates) / p.page_level for p in passes]
    out.write(f"median over {len(passes)} passes: {statistics.median(ratios):.2f} times\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", type=Path, default=Path("../shared/sites/ssg"))
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args(argv)
    if not args.sites.is_dir():
        print(f"{args.sites} is missing: nothing to replay", file=sys.stderr)
        return 1
    blogs = read_blogs(args.sites)
    extractor = bundled_extractor()
    passes = [run_pass(blogs, extractor, args.dump is not None and n == 0)
              for n in range(args.passes)]  # fmt: skip
    pages = sum(len(blog.pages) for blog in blogs)
    print(f"{len(blogs)} blogs, {pages} feed item pages")
    report(passes, pages, sys.stdout)
    if args.dump is not None:
        with args.dump.open("w", encoding="utf-8") as out:
            for row in passes[0].outputs:
                out.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

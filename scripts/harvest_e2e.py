"""The whole pipeline on the real blogs: feeds polled, templates learned, links followed.

Serves every blog of ``../shared/sites/ssg`` (``--sites``) on loopback with the test web,
subscribes to their feeds, runs one crawl round (politeness delays at zero: the sites are
ours) and prints per blog: gold posts, posts stored through the feed and through links,
stored articles that are not posts (should be 0), and the share of the blog's posts stored.

    .venv/bin/python scripts/harvest_e2e.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from feedsift.acquisition.fetcher import FetchPolicy
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import CrawlOptions
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.dedup.site import site_of
from feedsift.evaluation.templates_bench import path_key as _key
from feedsift.storage import Store
from feedsift.testweb import TestWeb

VERBOSE = False
POLICY = FetchPolicy(min_delay=0.0, per_host=4, timeout=5.0, retries=1, allow_private=True)


def _gold(folder: Path) -> set[str]:
    rows = [json.loads(line) for line in (folder / "gold.jsonl").open(encoding="utf-8")]
    return {_key(str(row["url"])) for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, default=Path("../shared/sites/ssg"))
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true", help="print the crawl's events")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, TestWeb(ssg_root=args.sites, rounds=1) as web:
        sites = [s for s in web.truth().sites if s.name in web.ssg_sites()]
        db = Path(tmp) / "f.db"
        with Store(db) as store, store.transaction():
            for site in sites:
                for feed in site.feeds:
                    store.feeds.add(feed.url, site_of(feed.url), now=_now(), interval=3600)
        settings = SessionSettings(db=db, policy=POLICY, jobs=args.jobs,
                                   crawl=CrawlOptions(schedule=Schedule(fixed=0)))  # fmt: skip
        started = time.perf_counter()
        global VERBOSE
        VERBOSE = args.verbose
        listener = (lambda event, detail: print(event, detail)) if args.verbose else None
        counts = asyncio.run(run_session(settings, "once", all_feeds=True, listener=listener))
        print(f"{counts.summary()} in {time.perf_counter() - started:.0f} s")
        rows = sqlite3.connect(db).execute(
            "SELECT d.response_url, i.id IS NOT NULL FROM articles a JOIN documents d"
            " ON d.id = a.document_id LEFT JOIN items i ON i.document_id = d.id").fetchall()
        _report(sites, rows, args.sites)


def _now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _reachable(site) -> set[str]:
    """Paths of the pages a crawler following every link from the home page and the feed's
    items can reach on the served copy (the data hold ~30 non-post pages a blog, so the
    archive and pagination pages a post is linked from may be missing)."""
    from collections import deque

    import httpx

    from feedsift.crawl.links import page_links
    from feedsift.parsing.page import parse_page

    start = [site.base_url] + [post.url for post in site.posts]
    queue, seen, found = deque(start), set(start), set()
    with httpx.Client(timeout=5.0) as client:
        while queue and len(seen) < 5000:
            url = queue.popleft()
            response = client.get(url)
            kind = response.headers.get("content-type", "")
            if response.status_code != 200 or "html" not in kind:
                continue
            found.add(_key(url))
            for link in page_links(parse_page(response.content, url).root, url):
                if link not in seen:
                    seen.add(link)
                    queue.append(link)
    return found


def _report(sites, rows, root: Path) -> None:
    print(f"{'blog':40} {'posts':>5} {'reach':>5} {'feed':>5} {'links':>5} {'other':>5} "
          f"{'stored':>7} {'of reachable':>12}")
    totals = [0, 0, 0, 0, 0]
    for site in sites:
        gold = _gold(root / site.name)
        reach = _reachable(site) & gold
        mine = [(_key(url), in_feed) for url, in_feed in rows if url.startswith(site.base_url)]
        feed = len({k for k, f in mine if f and k in gold})
        links = len({k for k, f in mine if not f and k in gold})
        other = sum(1 for k, _ in mine if k not in gold)
        if other and VERBOSE:
            print("   not posts:", [(k, f) for k, f in mine if k not in gold])
        stored = {k for k, _ in mine if k in gold}
        print(f"{site.name[:40]:40} {len(gold):5} {len(reach):5} {feed:5} {links:5} {other:5} "
              f"{len(stored) / len(gold):7.1%} {len(stored & reach) / len(reach):12.1%}")
        for i, value in enumerate((len(gold), len(reach), feed, links, other)):
            totals[i] += value
    print(f"{'all':40} {totals[0]:5} {totals[1]:5} {totals[2]:5} {totals[3]:5} {totals[4]:5} "
          f"{(totals[2] + totals[3]) / totals[0]:7.1%}")


if __name__ == "__main__":
    main()

"""URL-key de-duplication on the test web: planted duplicates removed, distinct posts kept.

Run from the repository root: .venv/bin/python scripts/dedup_counts.py [--rounds 4] [--seed 7]
Two checks against the test web's truth:
1. keys: every planted URL variant of every post (pretty and ?p= links, tracking
   parameters, redirects) is fetched, and its URL key computed from the response URL and
   the post's title: each post must get one key, and no two posts the same key;
2. crawl: every good feed of the generated sites is crawled once per round (advancing
   between rounds) into a temporary database and what was stored is compared with the truth
   (the feed-item history key already merges most cross-feed copies before any fetch).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path

from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import CrawlOptions, utc_now
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.dedup.rules import load_rules
from feedsift.dedup.site import site_of
from feedsift.dedup.urlkeys import url_key
from feedsift.storage import Store
from feedsift.testweb import TestWeb

POLICY = FetchPolicy(min_delay=0.0, per_host=4, allow_private=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with TestWeb(seed=args.seed, rounds=args.rounds) as web, tempfile.TemporaryDirectory() as d:
        db = Path(d) / "f.db"
        with Store(db) as store, store.transaction():
            for url in web.feed_urls("good"):
                store.feeds.add(url, site_of(url), now=utc_now(), interval=3600)
        settings = SessionSettings(db, POLICY, CrawlOptions(schedule=Schedule(fixed=0)))
        for number in range(args.rounds):
            if number:
                web.advance()
            asyncio.run(run_session(settings, "once", all_feeds=True))
        report(web, db)
        asyncio.run(keys(web))


async def keys(web: TestWeb) -> None:
    rules = load_rules()
    key_posts: dict[str, set[str]] = {}
    print(f"\n{'site':12} {'posts':>5} {'variants':>8} {'keys':>4} {'posts with 1 key':>16}")
    async with Fetcher(POLICY) as fetcher:
        for site in (s for s in web.truth().sites if s.name != "faults"):
            one_key = 0
            for post in site.posts:
                results = [await fetcher.fetch(v) for v in post.variants]
                mine = {url_key(r.response_url, post.title, rules) for r in results}
                one_key += len(mine) == 1
                for key in mine:
                    key_posts.setdefault(key, set()).add(post.post_id)
            variants = sum(len(p.variants) for p in site.posts)
            site_keys = {k for k, v in key_posts.items() if any(i.startswith(site.name) for i in v)}
            keys = len(site_keys)
            print(f"{site.name:12} {len(site.posts):5} {variants:8} {keys:4} {one_key:16}")
    shared = [k for k, v in key_posts.items() if len(v) > 1]
    print(f"keys shared by two or more posts (distinct posts merged): {len(shared)}")


def report(web: TestWeb, db: Path) -> None:
    truth = web.truth()
    variant_of = {v: (s.name, p.post_id) for s in truth.sites for p in s.posts for v in p.variants}
    connection = sqlite3.connect(db)
    items = connection.execute("SELECT url, state FROM items").fetchall()
    docs = connection.execute("SELECT response_url FROM documents").fetchall()
    print(f"{'site':12} {'posts':>5} {'planted':>7} {'item URLs':>9} {'items':>5} "
          f"{'URL dups':>8} {'docs':>4} {'posts once':>10} {'merged':>6}")  # fmt: skip
    for site in (s for s in truth.sites if s.name != "faults"):
        planted = sum(len(p.variants) - 1 for p in site.posts)
        mine = [(u, st) for u, st in items if u in variant_of and variant_of[u][0] == site.name]
        stored = Counter(variant_of[r][1] for (r,) in docs
                         if variant_of.get(r, ("",))[0] == site.name)  # fmt: skip
        once = sum(stored.get(p.post_id, 0) == 1 for p in site.posts)
        merged = len(site.posts) - len(stored)
        dups = sum(st == "duplicate" for _, st in mine)
        print(f"{site.name:12} {len(site.posts):5} {planted:7} {len({u for u, _ in mine}):9} "
              f"{len(mine):5} {dups:8} {sum(stored.values()):4} {once:10} {merged:6}")  # fmt: skip


if __name__ == "__main__":
    main()

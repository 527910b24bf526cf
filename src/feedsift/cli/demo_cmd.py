"""``feedsift demo``: the whole pipeline on a loopback test web, in well under a minute.

It starts :class:`~feedsift.testweb.TestWeb` (three invented sites on two blog platforms
and a news template, plus a site of faults) on 127.0.0.1, subscribes to their feeds,
polls them for a few rounds while the sites publish new posts, and exports what was
extracted. Everything it needs ships in the package; the database it leaves behind is a
normal feedsift database for ``feedsift export``, ``stats`` and ``show``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from feedsift.acquisition.fetcher import FetchPolicy
from feedsift.acquisition.schedule import Schedule
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers
from feedsift.cli.crawl_cmd import CrawlProgress
from feedsift.cli.store_args import db_type
from feedsift.crawl.crawler import CrawlOptions, utc_now
from feedsift.crawl.report import CrawlCounts
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.dedup.site import site_of
from feedsift.outputs.formats import DocumentStream
from feedsift.storage import Store, StoredArticle
from feedsift.storage.location import DatabaseTarget, describe_target
from feedsift.testweb import TestWeb

__all__ = ["DEMO_POLICY", "closing_lines", "closing_summary", "register", "run"]

#: The demo's fetch policy: loopback allowed (the test web lives there), no politeness
#: delay (the sites are ours), short timeouts and backoffs so the faults cost seconds.
DEMO_POLICY = FetchPolicy(
    min_delay=0.0, per_host=4, timeout=2.0, retries=2, backoff=0.2, max_retry_after=2.0,
    allow_private=True,
)  # fmt: skip
#: Commands the demo suggests at its end, one a line: (command, options after --db).
SUGGESTED_COMMANDS = (("stats", ""), ("export", " --format markdown"), ("templates list", ""))
#: Rounds of polling: the first sees the sites' back catalogue, later ones the new posts.
DEFAULT_ROUNDS = 3

DESCRIPTION = """\
Run feedsift's whole pipeline on a small web started on your own machine (127.0.0.1):
two blogs, a news site and a site of deliberate faults (slow pages, 500, 429, redirect
loops, broken XML, a wrong charset, an oversized page, a gzip bomb, robots.txt, resets).
feedsift subscribes to their feeds, polls them for a few rounds while new posts appear,
fetches, de-duplicates, stores and extracts each post, records every fault as a readable
error, and exports the articles. Nothing leaves your machine."""

EXAMPLES = """\
examples:
  feedsift demo                          three rounds, a summary of the articles at the end
  feedsift demo --rounds 5 --db demo.db  more rounds, keep the database where you say
  feedsift demo --db postgresql://localhost/feedsift   into an empty PostgreSQL database
  feedsift demo --format jsonl > out.jsonl
  feedsift examples                      extraction only, on bundled example pages
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo", help="the whole pipeline on a loopback test web (under a minute)",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=DEFAULT_ROUNDS, help="polling rounds (default: %(default)s)"
    )
    parser.add_argument(
        "--db", type=db_type, default=None, metavar="DB",
        help="database to create: a new SQLite file, or an empty PostgreSQL database's "
        "postgresql:// URL (default: a SQLite file in a new temporary folder)",
    )  # fmt: skip
    parser.add_argument(
        "-f",
        "--format",
        choices=("summary", "jsonl", "txt", "markdown"),
        default="summary",
        help="how to export the articles (default: summary)",
    )
    parser.add_argument("--no-faults", action="store_true", help="leave out the faulty site")
    parser.add_argument("--seed", type=int, default=7, help="the test web's content seed")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    db = args.db or Path(tempfile.mkdtemp(prefix="feedsift-demo-")) / "feedsift.db"
    if _in_use(db):
        print(f"feedsift: {describe_target(db)} holds feeds already; the demo wants a new "
              "database", file=sys.stderr)  # fmt: skip
        return EXIT_FAILED
    started = time.perf_counter()
    rounds: list[CrawlCounts] = []
    with TestWeb(seed=args.seed, rounds=args.rounds) as web:
        feeds = web.feed_urls("good" if args.no_faults else "all")
        _note(f"test web on 127.0.0.1: {len(web.site_urls())} sites, {len(feeds)} feeds")
        _subscribe(db, feeds)
        for number in range(1, args.rounds + 1):
            if number > 1:
                before = _post_count(web)
                web.advance()
                _note(f"the sites publish {_post_count(web) - before} new posts")
            rounds.append(asyncio.run(_round(db)))
            _note(f"round {number}: {rounds[-1].summary()}")
    _export(db, args.format)
    _note(f"done in {time.perf_counter() - started:.1f} s: {closing_summary(rounds)}")
    for line in closing_lines(db):
        _note(line)
    return EXIT_OK


def closing_summary(rounds: list[CrawlCounts]) -> str:
    """The demo's rounds in plain words, e.g. "42 articles stored from 21 feeds; 6 templates
    learned from the feeds; 0 extra posts found by following links in 68 pages"."""
    feeds = max((counts.feeds_polled for counts in rounds), default=0)
    articles = sum(counts.articles for counts in rounds)
    learned = sum(counts.templates_learned for counts in rounds)
    found = sum(counts.harvest_posts for counts in rounds)
    pages = sum(counts.harvest_pages for counts in rounds)
    return (
        f"{articles} articles stored from {feeds} feeds; {learned} templates learned from the "
        f"feeds; {found} extra posts found by following links in {pages} pages"
    )


def closing_lines(db: DatabaseTarget) -> list[str]:
    """Where the database is, then one command to try per line."""
    name = describe_target(db)
    shown = f"'{name}'" if isinstance(db, str) else name  # a URL's ? and & stay in quotes
    return [f"database: {name}", "try:"] + [
        f"  feedsift {command} --db {shown}{rest}" for command, rest in SUGGESTED_COMMANDS
    ]


def _in_use(db: DatabaseTarget) -> bool:
    """Whether ``db`` exists already: a file, or a PostgreSQL database with feeds."""
    if isinstance(db, Path):
        return db.exists()
    with Store(db) as store:
        return bool(store.feeds.all())


def _post_count(web: TestWeb) -> int:
    return sum(len(site.posts) for site in web.truth().sites)


def _note(text: str) -> None:
    print(f"demo: {text}", file=sys.stderr, flush=True)


def _subscribe(db: DatabaseTarget, feeds: list[str]) -> None:
    with Store(db) as store, store.transaction():
        for url in feeds:
            store.feeds.add(url, site_of(url), now=utc_now(), interval=Schedule().default)


async def _round(db: DatabaseTarget) -> CrawlCounts:
    settings = SessionSettings(
        db=db, policy=DEMO_POLICY, crawl=CrawlOptions(schedule=Schedule(fixed=0.0))
    )
    with CrawlProgress() as progress:
        return await run_session(settings, "once", all_feeds=True, listener=progress)


def _export(db: DatabaseTarget, fmt: str) -> None:
    with Store(db, create=False) as store:
        articles = list(store.articles.stream())
    if fmt != "summary":
        stream = DocumentStream(sys.stdout, fmt)  # type: ignore[arg-type]
        for stored in articles:
            stream.write(stored.article, stored.url)
        stream.close()
        return
    for stored in articles:
        print(_summary_line(stored))
    print(f"{len(articles)} articles (duplicates left out)")


def _summary_line(stored: StoredArticle) -> str:
    article = stored.article
    date = f"{article.published:%Y-%m-%d}" if article.published else "----------"
    words = len(article.text.split())
    return f"{date}  {stored.site:22} {words:5} words  {article.title or '(no title)'}"

"""``feedsift crawl`` and ``feedsift watch``: poll the feeds, fetch, store and extract."""

from __future__ import annotations

import argparse
import asyncio
from typing import Literal

from tqdm import tqdm

from feedsift.acquisition.schedule import Schedule
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.render_args import add_render_arguments
from feedsift.cli.store_args import (
    add_db_argument,
    add_fetch_arguments,
    add_rules_argument,
    fetch_policy,
    rule_files,
)
from feedsift.crawl.crawler import CrawlOptions
from feedsift.crawl.harvest import HarvestOptions
from feedsift.crawl.rendering import CrawlRendering
from feedsift.crawl.report import CrawlCounts
from feedsift.crawl.session import SessionSettings, install_stop_signals, run_session
from feedsift.crawl.templating import TemplateOptions
from feedsift.errors import RenderError
from feedsift.rendering.browser import check_renderer
from feedsift.sitelevel.models import SiteOptions
from feedsift.storage.location import describe_target

__all__ = ["METHODS", "CrawlProgress", "register"]

#: The --method choices: the site-level modes of SiteOptions, or the page level alone.
METHODS = ("hybrid", "site", "page")
#: Fallback reasons printed after the summary: the rest are counted, not listed.
MAX_LISTED_FALLBACKS = 5

CRAWL_DESCRIPTION = """\
Poll the subscribed feeds once: fetch each feed (conditional GET), store its new items,
fetch their pages politely, key them by URL key so duplicates are stored once, and extract
each new page into an article. Failures are recorded per feed and page (see `feedsift
stats` and `feedsift feeds list`) and the rest goes on. Without --once it keeps going,
like `feedsift watch`.

Each site's boilerplate is learned from its own pages as they arrive (--method hybrid,
the default): from the second page of a crawl DiffPost compares a page with the site's
other pages, and once 3 pages are known the URL Tree does; either can remove the template
boxes they find from the page-level result. Each page that comes from a feed item is
checked against the item (title, date, authors, tags, and the content or excerpt the feed
carries) with every method, and each field is taken from the method whose recent checks
beat the page level's on the site (else the page level's), so box removal is used only
where the site's own feed shows it helps. The learned state and the checks are kept in
the database, so a restart goes on where it stopped. Each article records the method of
its body (`feedsift stats`, the `method` field of `feedsift export`) and, per field, the
method and its scores (`sources` in `feedsift export`).

Each feed's template is learned from its items and their pages (where the title, body,
author, date and tags sit), then the site's own links (home page, sitemap, archive, tag
and pagination pages) are followed, politely and at most --harvest-pages pages, and every
page the template recognises as a post is stored (method `template`): a whole blog comes
in although its feed lists only the newest posts. When new posts stop matching, the
template is relearned as a new version (`feedsift templates show SITE`).

With --render each page the page-level model reads is laid out in a headless Chromium
(needs playwright and Debian's chromium): boxes, font sizes and visibility as a browser
draws them, instead of the estimate from the markup. Each extraction process (-j) starts
its own browser on its first page. A page renders with its stylesheets, fetched by
feedsift under the same rules as the pages (address guard, --allow-private, robots.txt,
size cap, --timeout) and kept for the run; images, fonts and scripts are not fetched, and
the browser itself reaches no network. It costs about 0.2-0.6 s a page (against tens of
ms), and the shipped model was trained on the markup estimate, so for now it changes few
articles (docs/rendering.md). Each rendered article says so (the `layout` entry of its
`sources`); the summary counts pages rendered and those that got the estimate because
they could not be rendered within --render-timeout."""

WATCH_DESCRIPTION = """\
Poll every feed on its own schedule until stopped: hourly at first, then adapted to how
often the feed publishes (15 min to 24 h); a failing feed backs off on its own. Ctrl-C or
SIGTERM finishes the work in flight, stores it and exits; a second Ctrl-C stops at once
(nothing confirmed is lost either way: the next run resumes)."""

EXAMPLES = """\
examples:
  feedsift crawl --once                   poll the feeds that are due, then exit (for cron)
  feedsift crawl --once --all             poll every feed now, whatever its schedule
  feedsift watch                          run until Ctrl-C, polling each feed when due
  feedsift watch --interval 600 -j 2      poll every 10 minutes, extract in 2 processes
  feedsift crawl --once --method page     no site-level learning (the page-level model)
  feedsift crawl --once --no-harvest      templates, but only the posts the feeds list
  feedsift crawl --once --render          lay pages out in a headless Chromium
  feedsift export --since 2026-11-01      then read what came in
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    for name, description, help_text in (
        ("crawl", CRAWL_DESCRIPTION, "poll feeds and extract new posts (--once: one round)"),
        ("watch", WATCH_DESCRIPTION, "poll feeds on their schedules until stopped"),
    ):
        parser = subparsers.add_parser(
            name, help=help_text, description=description, epilog=EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )  # fmt: skip
        if name == "crawl":
            parser.add_argument("--once", action="store_true", help="one round, then exit")
            parser.add_argument(
                "--all",
                action="store_true",
                help="with --once: poll every feed, not only the due ones",
            )
        _add_learning_options(parser)
        add_render_arguments(
            parser, "rendering",
            "lay pages out in a headless Chromium with their stylesheets (about 0.2-0.6 s "
            "a page; the shipped model was trained on the markup estimate); needs playwright "
            "and Chromium",
        )  # fmt: skip
        add_rules_argument(parser)
        add_db_argument(parser)
        add_fetch_arguments(parser)
        parser.set_defaults(func=run, command_name=name)


def _add_learning_options(parser: argparse.ArgumentParser) -> None:
    """How often feeds are polled, how many processes extract, what the sites learn."""
    parser.add_argument(
        "--interval",
        type=float,
        default=None,
        metavar="SECONDS",
        help="poll every feed at this fixed interval instead of adapting",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="extraction processes (default: %(default)s)"
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="hybrid",
        help="hybrid: the site-level boilerplate masks on the page-level result, per "
        "field where the site's feed items confirm them; site: the site-level learners "
        "alone, likewise; page: the page-level model only (default: %(default)s)",
    )
    parser.add_argument(
        "--no-templates",
        action="store_true",
        help="learn no feed templates (and follow no site links)",
    )
    parser.add_argument(
        "--no-harvest",
        action="store_true",
        help="learn feed templates, but do not follow sites' links to older posts",
    )
    parser.add_argument(
        "--harvest-pages",
        type=int,
        default=HarvestOptions().max_pages,
        metavar="N",
        help="most pages fetched per site when following its links (default: %(default)s)",
    )


def settings_from(args: argparse.Namespace) -> SessionSettings:
    schedule = Schedule(fixed=args.interval)
    site_level = None if args.method == "page" else SiteOptions(mode=args.method)
    templates = TemplateOptions(learn=not args.no_templates, harvest=not args.no_harvest,
                                limits=HarvestOptions(max_pages=args.harvest_pages))  # fmt: skip
    policy = fetch_policy(args)
    render = CrawlRendering(args.render_timeout, policy) if args.render else None
    return SessionSettings(
        db=args.db, policy=policy, crawl=CrawlOptions(schedule=schedule, templates=templates),
        rule_files=rule_files(args), jobs=args.jobs, site_level=site_level, render=render,
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    once = args.command_name == "crawl" and args.once
    settings = settings_from(args)
    if settings.render is not None:
        try:  # before any work: the workers would each find it out, page by page
            check_renderer(settings.render.executable_path)
        except RenderError as exc:
            report(None, f"--render: {exc}")
            return EXIT_FAILED
    with CrawlProgress() as progress:
        counts = asyncio.run(_session(settings, once, getattr(args, "all", False), progress))
    print(f"{'crawl' if once else 'watch'}: {counts.summary()}")
    print(f"database: {describe_target(settings.db)}")
    _report_fallbacks(counts)
    return EXIT_OK


def _report_fallbacks(counts: CrawlCounts) -> None:
    """A line on stderr for each of the first pages that could not be rendered."""
    for reason in counts.render_fallback_reasons[:MAX_LISTED_FALLBACKS]:
        report(None, f"markup estimate used, not rendered: {reason}")
    unlisted = counts.render_fallbacks - min(counts.render_fallbacks, MAX_LISTED_FALLBACKS)
    if unlisted:
        report(None, f"--render: {unlisted} more pages got the markup estimate")


async def _session(
    settings: SessionSettings, once: bool, all_feeds: bool, progress: CrawlProgress
) -> CrawlCounts:
    stop = asyncio.Event()
    install_stop_signals(stop)
    mode: Literal["once", "watch"] = "once" if once else "watch"
    return await run_session(settings, mode, all_feeds=all_feeds, listener=progress, stop=stop)


class CrawlProgress:
    """A progress bar of pages and articles, with errors printed above it as they come."""

    def __init__(self, *, disable: bool | None = None) -> None:
        self._bar = tqdm(desc="crawl", unit=" pages", disable=disable, leave=False)
        self._counts = {"feed": 0, "article": 0, "error": 0}

    def __call__(self, event: str, detail: str) -> None:
        if event == "error":
            report(None, detail)
        if event in self._counts:
            self._counts[event] += 1
        if event == "page":
            self._bar.update(1)
        self._bar.set_postfix(
            feeds=self._counts["feed"], articles=self._counts["article"],
            errors=self._counts["error"], refresh=False,
        )  # fmt: skip

    def __enter__(self) -> CrawlProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.close()

"""``feedsift feeds``: subscribe to feeds, import and export OPML, list and remove them."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from feedsift.acquisition.feedworker import FeedParsers
from feedsift.acquisition.fetcher import FetchPolicy
from feedsift.acquisition.opml import Subscription, read_opml, write_opml
from feedsift.acquisition.schedule import Schedule
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.store_args import add_db_argument, add_fetch_arguments, fetch_policy
from feedsift.crawl.crawler import utc_now
from feedsift.crawl.subscribe import FoundFeed, candidate_urls, discover, subscribe
from feedsift.dedup.site import site_of
from feedsift.errors import FeedError, FeedsiftError
from feedsift.storage import FeedRecord, Store

__all__ = ["register"]

DESCRIPTION = """\
Manage the feeds feedsift polls. A URL given to `add` may be a feed (RSS, Atom, JSON
Feed) or a site or page: feedsift then looks for its feed the way feed readers do
(<link rel="alternate">, the HTTP Link header, common feed paths). Without a scheme
(blog.example.org) https is tried, then http."""

EXAMPLES = """\
examples:
  feedsift feeds add https://blog.example.org/               find the blog's feed, subscribe
  feedsift feeds add blog.example.org                        the same (https, else http)
  feedsift feeds add https://news.example.com/rss/world.xml  subscribe to this feed as is
  feedsift feeds import subscriptions.opml                   every feed of a feed reader's export
  feedsift feeds export > subscriptions.opml                 the other way round
  feedsift feeds list                                        feeds, their state and last error
  feedsift feeds remove https://news.example.com/rss/world.xml
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "feeds", help="add, import, export, list and remove feeds", description=DESCRIPTION,
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    commands = parser.add_subparsers(title="feed commands", dest="feeds_command", required=True)
    add = commands.add_parser(
        "add",
        help="subscribe to feeds or sites",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add.add_argument("urls", nargs="+", metavar="URL", help="feed or site URLs")
    add.add_argument(
        "--as-is",
        action="store_true",
        help="subscribe to the URLs without fetching them (no discovery)",
    )
    add_fetch_arguments(add)
    imp = commands.add_parser("import", help="subscribe to every feed of an OPML file")
    imp.add_argument("opml", type=Path, help="OPML file (use - for stdin)")
    exp = commands.add_parser("export", help="write the subscriptions as OPML")
    exp.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    listing = commands.add_parser("list", help="feeds with their state")
    listing.add_argument("--errors", action="store_true", help="only feeds whose last poll failed")
    remove = commands.add_parser("remove", help="unsubscribe (stored articles are kept)")
    remove.add_argument("urls", nargs="+", metavar="URL", help="feed URLs as `feeds list` shows")
    for sub, func in (
        (add, _add),
        (imp, _import),
        (exp, _export),
        (listing, _list),
        (remove, _remove),
    ):
        add_db_argument(sub)
        sub.set_defaults(func=func)


def _add(args: argparse.Namespace) -> int:
    found, failed = asyncio.run(_find_all(args.urls, fetch_policy(args), as_is=args.as_is))
    if found:  # a failed `add` leaves no new database behind
        with Store(args.db) as store:
            for feed in found:
                added = subscribe(store, feed, utc_now(), Schedule())
                how = "" if feed.how == "feed" else f" (found by {feed.how})"
                print(f"{'added' if added else 'already subscribed'}: {feed.url}{how}")
    return EXIT_FAILED if failed else EXIT_OK


async def _find_all(
    urls: list[str], policy: FetchPolicy, *, as_is: bool
) -> tuple[list[FoundFeed], int]:
    """The feed of each URL (reported on stderr when there is none), and how many failed."""
    parsers = FeedParsers()
    found: list[FoundFeed] = []
    try:
        for url in urls:
            try:
                if as_is:
                    feed = FoundFeed(url, candidate_urls(url)[0], None, "feed")
                else:
                    feed = await discover(url, policy, parsers)
                site_of(feed.url)
            except FeedsiftError as exc:
                report(url, str(exc))
                continue
            found.append(feed)
    finally:
        parsers.close()
    return found, len(urls) - len(found)


def _import(args: argparse.Namespace) -> int:
    source = "<stdin>" if str(args.opml) == "-" else str(args.opml)
    try:
        data = sys.stdin.buffer.read() if source == "<stdin>" else args.opml.read_bytes()
    except OSError as exc:
        raise FeedError(f"{source}: cannot read: {exc.strerror or exc}") from exc
    subscriptions = read_opml(data, source)
    added = 0
    with Store(args.db) as store, store.transaction():
        for sub in subscriptions:
            added += store.feeds.add(
                sub.xml_url, site_of(sub.xml_url), now=utc_now(), interval=Schedule().default
            )
            store.feeds.describe(sub.xml_url, sub.title, sub.category)
    print(f"{added} feeds added, {len(subscriptions) - added} already subscribed ({source})")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    with Store(args.db, create=False) as store:
        feeds = store.feeds.all()
    data = write_opml(Subscription(f.url, f.title, f.site_url, f.category) for f in feeds)
    if args.output is None:
        sys.stdout.buffer.write(data)
    else:
        args.output.write_bytes(data)
        print(f"wrote {len(feeds)} feeds to {args.output}", file=sys.stderr)
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    with Store(args.db, create=False) as store:
        feeds = [f for f in store.feeds.all() if f.error_count or not args.errors]
    for feed in feeds:
        print(_describe(feed))
    if not feeds:
        print("no failing feeds" if args.errors else "no feeds: add some with `feedsift feeds add`")
    return EXIT_OK


def _describe(feed: FeedRecord) -> str:
    state = f"next poll {feed.next_poll_at:%Y-%m-%d %H:%M} UTC, every {feed.interval / 60:.0f} min"
    if feed.error_count:
        state = f"FAILING x{feed.error_count}: {feed.last_error}; {state}"
    title = f" ({feed.title})" if feed.title else ""
    return f"{feed.url}{title}\n    {feed.polls} polls; {state}"


def _remove(args: argparse.Namespace) -> int:
    missing = 0
    with Store(args.db, create=False) as store, store.transaction():
        for url in args.urls:
            if store.feeds.remove(url):
                print(f"removed: {url}")
            else:
                report(url, "not subscribed (see `feedsift feeds list`)")
                missing += 1
    return EXIT_FAILED if missing else EXIT_OK

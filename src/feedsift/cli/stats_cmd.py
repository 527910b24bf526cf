"""``feedsift stats``: per-feed and per-site counts, errors and timings of the database."""

from __future__ import annotations

import argparse

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.cli.store_args import add_db_argument
from feedsift.errors import ModelError
from feedsift.storage import (
    FeedStats,
    FeedTemplateVersion,
    MethodStats,
    SiteStats,
    Store,
    feed_stats,
    method_stats,
    site_stats,
)
from feedsift.storage.location import describe_target

__all__ = ["register"]

DESCRIPTION = """\
Show what the database holds: per feed, its items by state (stored, duplicate, failed,
pending), polls and error state; per site, documents, articles, duplicates found on
arrival and mean fetch and extraction times; per site and extraction method (page,
hybrid-diffpost, hybrid-urltree-strict...), the articles it made and how many pages the
site's learners have seen; per feed, its template's version (above 1: the site changed
its template and it was relearned); then the latest errors."""

EXAMPLES = """\
examples:
  feedsift stats                  the default database (feedsift.db)
  feedsift stats --errors 50      and the 50 latest errors
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats", help="counts, errors and timings per feed and per site",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "--errors",
        type=int,
        default=10,
        metavar="N",
        help="show the N latest errors (default: %(default)s)",
    )
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with Store(args.db, create=False) as store:
        feeds = feed_stats(store.connection)
        sites = site_stats(store.connection)
        errors = store.errors.recent(args.errors)
        methods = method_stats(store.connection)
        learned = dict(store.site_models.sites())
        templates = store.templates.feed_versions()
    print(f"database: {describe_target(args.db)}\n")
    print("\n".join(feed_lines(feeds)) + "\n")
    print("\n".join(site_lines(sites)) + "\n")
    print("\n".join(method_lines(methods, learned)) + "\n")
    if templates:
        print("\n".join(template_lines(templates)) + "\n")
    print(f"latest errors ({len(errors)}):")
    for error in errors:
        print(f"  {error.at:%Y-%m-%d %H:%M:%S} {error.stage:7} {error.url}: {error.reason}")
    return EXIT_OK


def feed_lines(feeds: list[FeedStats]) -> list[str]:
    lines = [f"{'feed':60} {'items':>5} {'stored':>6} {'dup':>4} {'fail':>4} {'pend':>4} "
             f"{'polls':>5} {'s/poll':>6}  state"]  # fmt: skip
    for f in feeds:
        state = f"failing x{f.error_count}: {f.last_error}" if f.error_count else "ok"
        lines.append(
            f"{_clip(f.url, 60):60} {f.items:5} {f.stored:6} {f.duplicates:4} {f.failed:4} "
            f"{f.pending:4} {f.polls:5} {f.mean_poll_seconds:6.2f}  {state}"
        )
    return lines


def site_lines(sites: list[SiteStats]) -> list[str]:
    lines = [f"{'site':32} {'docs':>5} {'articles':>8} {'exact':>5} {'near':>5} {'lists':>5} "
             f"{'fetch s':>7} {'extract s':>9} {'errors':>6}"]  # fmt: skip
    for s in sites:
        lines.append(
            f"{_clip(s.site, 32):32} {s.documents:5} {s.articles:8} {s.exact_duplicates:5} "
            f"{s.near_duplicates:5} {s.listings:5} {s.mean_fetch_seconds:7.3f} "
            f"{s.mean_extract_seconds:9.3f} {s.errors:6}"
        )
    return lines


def method_lines(methods: list[MethodStats], learned: dict[str, int]) -> list[str]:
    """Articles per site and method, with the pages the site's learners have seen."""
    lines = [f"{'site':32} {'learned':>7}  {'method':24} {'articles':>8}"]
    for m in methods:
        seen = learned.get(m.site)
        lines.append(f"{_clip(m.site, 32):32} {'-' if seen is None else seen:>7}  "
                     f"{_clip(m.method, 24):24} {m.articles:8}")  # fmt: skip
    return lines


def template_lines(templates: list[FeedTemplateVersion]) -> list[str]:
    """Each feed's current template: its version (above 1: relearned after drift), and the
    fields its checks on the feed's items gave it (the others are the page level's)."""
    lines = [f"{'feed template':60} {'version':>7} {'items':>5}  {'since':16}  fields"]
    for t in templates:
        drifts = t.version - 1
        drift = f"  (relearned after {drifts} drift{'s' if drifts > 1 else ''})" if drifts else ""
        lines.append(f"{_clip(t.feed_url, 60):60} {t.version:7} {t.items:5}  "
                     f"{t.valid_from:%Y-%m-%d %H:%M}  {_fields(t.checks)}{drift}")  # fmt: skip
    return lines


def _fields(checks: bytes | None) -> str:
    """The fields the checks gave the template, with their scores ("title 1.00/0.00": the
    template's against the page level's); "unchecked" without checks, "-" for none."""
    if checks is None:
        return "unchecked"
    from feedsift.sitelevel.combiner import saved_choices  # the combiner is heavy to import

    try:
        page, choices = saved_choices(checks)
    except ModelError:
        return "checks unreadable"
    won = [f"{c.field} {c.score:.2f}/{c.page_score:.2f}" for c in choices.values()
           if c.method != page and c.score is not None and c.page_score is not None]
    return ", ".join(won) or "-"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"

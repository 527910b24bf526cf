"""``feedsift templates``: the templates learned from each site's feeds, version by version."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING

from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.store_args import add_db_argument
from feedsift.dedup.site import site_of
from feedsift.errors import ModelError
from feedsift.storage import Store, StoredTemplate
from feedsift.storage.location import describe_target

if TYPE_CHECKING:
    from feedsift.templates.learner import PathCluster

__all__ = ["register"]

DESCRIPTION = """\
Show the templates feedsift has learned from feeds (the feed-template method): for each
feed of a site, where its posts keep their title, content, author, date and tags, as
light XPath paths merged over the feed's items, with how many items support each path,
and the key-path that tells the site's post pages from its other pages. Templates are
versioned per feed: when a site's template changes a new version is added and the old one
stays, each holding for the pages from its "valid from" time on."""

EXAMPLES = """\
examples:
  feedsift templates list                        every site with templates, feeds, versions
  feedsift templates show blog.example.org       its feeds' paths, newest version first
  feedsift templates show https://blog.example.org/ --db crawl.db
output of show, per path: PROPERTY  SUPPORT/ITEMS  PATH (best supported first), e.g.
  content    12/20  |html|body|div[@class=post]|div[@class=content]
and, where the crawl checked the template on the feed's own items, per field the method
chosen (template or the page level) with its score against the page level's, e.g.
  title    template  1.00 against the page level's 0.00 on the same 6 items
"""

#: Width of the property column of ``show``: the longest property name ("content") and a space.
PROPERTY_WIDTH = 8
#: Width of the support column of ``show``: "20/20" with room for feeds of 100+ items.
SUPPORT_WIDTH = 7
#: Width of the method column of the per-field choice: "template" and a space.
METHOD_WIDTH = 9
#: How learned and valid-from times are printed: to the second, in UTC.
MOMENT_FORMAT = "%Y-%m-%d %H:%M:%S UTC"


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "templates", help="the templates learned from each site's feeds",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    commands = parser.add_subparsers(
        title="template commands", dest="templates_command", required=True
    )
    show = commands.add_parser(
        "show", help="a site's templates: key-path and paths per property with their support",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    show.add_argument("site", metavar="SITE", help="a site (blog.example.org) or one of its URLs")
    listing = commands.add_parser("list", help="every site with templates")
    for sub, func in ((show, _show), (listing, _list)):
        add_db_argument(sub)
        sub.set_defaults(func=func)


def _show(args: argparse.Namespace) -> int:
    site = site_of(args.site) if "://" in args.site else args.site.lower()
    with Store(args.db, create=False) as store:
        versions = store.templates.of_site(site)
        feed_urls = {feed.id: feed.url for feed in store.feeds.all()}
    if not versions:
        report(site, f"no templates stored in {describe_target(args.db)} (`feedsift templates"
               " list` names the sites that have some)")  # fmt: skip
        return EXIT_FAILED
    print("\n".join(show_lines(site, versions, feed_urls)))
    return EXIT_OK


def _list(args: argparse.Namespace) -> int:
    with Store(args.db, create=False) as store:
        rows = [(site, len({t.feed_id for t in store.templates.of_site(site)}), count)
                for site, count in store.templates.sites()]  # fmt: skip
    if not rows:
        report(None, f"no templates stored in {describe_target(args.db)} yet")
        return EXIT_OK
    width = max(len("site"), *(len(site) for site, _, _ in rows))
    print(f"{'site':{width}} {'feeds':>5} {'versions':>8}")
    for site, feeds, count in rows:
        print(f"{site:{width}} {feeds:5} {count:8}")
    return EXIT_OK


def show_lines(
    site: str, versions: list[StoredTemplate], feed_urls: Mapping[int, str]
) -> list[str]:
    """The report of ``show``: per feed of ``site``, its versions newest first."""
    by_feed: dict[int, list[StoredTemplate]] = {}
    for template in versions:
        by_feed.setdefault(template.feed_id, []).append(template)
    lines = [f"site {site}: {len(by_feed)} feed(s), {len(versions)} template version(s)"]
    for feed_id, templates in by_feed.items():
        lines.append(f"\nfeed {feed_urls.get(feed_id, f'#{feed_id} (removed)')}")
        for template in sorted(templates, key=lambda t: -t.version):
            lines.extend(version_lines(template))
    return lines


def version_lines(template: StoredTemplate) -> list[str]:
    """One version: its header, key-path and every cluster of every property."""
    from feedsift.templates.learner import FeedTemplate  # the learner is heavy to import

    header = (
        f"  version {template.version}  valid from {template.valid_from:{MOMENT_FORMAT}}"
        f"  learned {template.learned_at:{MOMENT_FORMAT}} from {template.items} items"
    )
    try:
        learned = FeedTemplate.from_bytes(template.state)
    except ModelError as exc:
        return [f"{header}  state unreadable: {exc}", f"    key-path {template.key_path}"]
    lines = [header, f"    key-path {template.key_path}"]
    for name, clusters in _ordered(learned.clusters_).items():
        if not clusters:
            lines.append(f"    {name:{PROPERTY_WIDTH}} {'-':>{SUPPORT_WIDTH}}  not found")
        for cluster in clusters:
            support = f"{cluster.support}/{template.items}"
            lines.append(f"    {name:{PROPERTY_WIDTH}} {support:>{SUPPORT_WIDTH}}  {cluster.path}")
    if learned.title_in_head_:
        lines.append("    titles are read from <title>: it says every learned item's feed title")
    if template.checks is not None:
        lines.extend(check_lines(template.checks))
    return lines


def check_lines(checks: bytes) -> list[str]:
    """Per field, the method the feed's own items chose over the page level, and why."""
    from feedsift.sitelevel.combiner import saved_choices  # the combiner is heavy to import

    try:
        _, choices = saved_choices(checks)
    except ModelError as exc:
        return [f"    per-field checks unreadable: {exc}"]
    lines = ["    per field, checked on the feed's items against the page level:"]
    for field, choice in choices.items():
        lines.append(f"    {field:{PROPERTY_WIDTH}} {choice.method:{METHOD_WIDTH}} {choice.reason}")
    return lines


def _ordered(clusters: Mapping[str, list[PathCluster]]) -> dict[str, list[PathCluster]]:
    """The learner's properties in its reporting order, then any others it has."""
    from feedsift.templates.learner import PROPERTIES

    names = [*PROPERTIES, *(name for name in clusters if name not in PROPERTIES)]
    return {name: list(clusters.get(name, [])) for name in names}

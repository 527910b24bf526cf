"""``feedsift export``: stream stored articles out as JSON Lines, text, Markdown, CSV and more."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.cli.store_args import add_db_argument
from feedsift.errors import InputError
from feedsift.outputs.formats import OUTPUT_FORMATS, DocumentStream, OutputFormat
from feedsift.storage import Store, StoredArticle
from feedsift.storage.location import describe_target
from feedsift.storage.since import since_moment

__all__ = ["parse_since", "register"]

DESCRIPTION = """\
Write the stored articles, oldest first, in one stream. Duplicates found on arrival
(the same or nearly the same text as an earlier article of the site) are left out unless
--duplicates is given. --since and --site filter by arrival time and by site."""

EXAMPLES = """\
examples:
  feedsift export > articles.jsonl                 everything, as JSON Lines
  feedsift export --format txt --since 24h         what arrived in the last day, as text
  feedsift export --format markdown --site blog.example.org --since 2026-11-01
  feedsift export -o corpus.jsonl --duplicates     include the duplicates found on arrival
  feedsift export -f csv -o articles.csv           one row per article (url, title, ..., text)
  feedsift export -f xml > articles.xml            <doc> elements shaped like trafilatura's XML
"""

def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export", help="write stored articles as jsonl, txt, markdown, json, html, xml or csv",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "-f",
        "--format",
        choices=OUTPUT_FORMATS,
        default="jsonl",
        help="output format (default: %(default)s)",
    )
    parser.add_argument(
        "--since",
        type=parse_since,
        default=None,
        metavar="WHEN",
        help="only articles that arrived since WHEN: a date or ISO time "
        "(UTC unless it says), or an age such as 30m, 24h, 7d, 2w",
    )
    parser.add_argument("--site", default=None, help="only articles of this site (host name)")
    parser.add_argument(
        "--duplicates",
        action="store_true",
        help="also the exact and near duplicates found on arrival",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=None, help="file to write (default: stdout)"
    )
    add_db_argument(parser)
    parser.set_defaults(func=run)


def parse_since(text: str) -> datetime:
    """``--since``: a date, an ISO time or an age like ``24h``, as an aware time
    (:func:`~feedsift.storage.since.since_moment`; argparse's error when it is none)."""
    try:
        return since_moment(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    site = args.site.lower().removeprefix("www.") if args.site else None
    with Store(args.db, create=False) as store:
        articles = store.articles.stream(since=args.since, site=site, duplicates=args.duplicates)
        count = _write(articles, args.format, args.output)
    print(f"exported {count} articles from {describe_target(args.db)}", file=sys.stderr)
    return EXIT_OK


def _write(articles: Iterable[StoredArticle], fmt: OutputFormat, output: Path | None) -> int:
    try:
        out = sys.stdout if output is None else output.open("w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{output}: cannot write: {exc.strerror or exc}") from exc
    stream = DocumentStream(out, fmt)
    count = 0
    try:
        for stored in articles:
            stream.write(stored.article, stored.url)
            count += 1
        stream.close()
    finally:
        if output is not None:
            out.close()
    return count

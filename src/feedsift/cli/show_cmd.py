"""``feedsift show``: the URL key of a URL, step by step, and what the database has for it."""

from __future__ import annotations

import argparse
from pathlib import Path

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.cli.store_args import add_rules_argument, default_db, rule_files
from feedsift.dedup.rules import DEFAULT_USER_RULES, load_rules
from feedsift.dedup.urlkeys import explain_url_key
from feedsift.storage import Store

__all__ = ["register"]

DESCRIPTION = """\
Show how feedsift keys a document (the URL Tree paper's URL normalisation): the response
URL, the same with the 128-bit hash of the item's title as `_cid_` and the query sorted,
then the query filtered by the first URL-key rule whose pattern matches and whose
parameters the URL has. When no rule applies, only tracking parameters (utm_*, fbclid,
gclid, ref, ...) and `_cid_` are dropped: every other parameter may name the story, so
?id=12 and ?id=13 keep two keys. Documents with the same key are stored once. If the
database has a document with this key, or fetched from or redirected to URL, it is shown
too."""

EXAMPLES = f"""\
examples:
  feedsift show 'https://news.example.com/story?id=12&utm_source=rss'
  feedsift show 'http://abcnews.go.com/kabc/story?section=news&id=8691010' --title 'A title'
  feedsift show URL --rules my_rules.txt      with your own rules first
rules: the shipped list, plus {DEFAULT_USER_RULES} when it exists (one rule a line:
REGEX PARAM[,PARAM] # reason)
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "show", help="the URL key of a URL, step by step", description=DESCRIPTION,
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("url", help="a response URL (where redirects ended)")
    parser.add_argument("--title", default=None, help="the item's title as the feed gives it")
    add_rules_argument(parser)
    parser.add_argument(
        "--db",
        type=Path,
        default=default_db(),
        metavar="PATH",
        help="database to look the URL up in (default: %(default)s)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    steps = explain_url_key(args.url, args.title, load_rules(*rule_files(args)))
    print(f"response URL:        {steps.response_url}")
    print(f"with _cid_, sorted:  {steps.with_cid}")
    rule = steps.rule
    print(
        "rule:                "
        + (
            f"{rule.trigger.pattern} keeps {', '.join(rule.keep)}"
            if rule
            else "none applies: tracking parameters and _cid_ dropped, the rest kept"
        )
    )
    print(f"dropped:             {' '.join(steps.dropped) or 'nothing'}")
    print(f"URL key:             {steps.key}")
    if args.db.exists():
        _stored(args.db, args.url, steps.key)
    return EXIT_OK


def _stored(db: Path, url: str, key: str) -> None:
    with Store(db, create=False) as store:
        rows = store.connection.execute(
            "SELECT d.id, d.url_key, d.request_url, d.response_url, a.title,"
            " (SELECT COUNT(*) FROM items i WHERE i.document_id = d.id)"
            " FROM documents d LEFT JOIN articles a ON a.document_id = d.id"
            " WHERE d.url_key = ? OR d.request_url = ? OR d.response_url = ?",
            (key, url, url),
        ).fetchall()
    for row in rows:
        print(f"\nstored document {row[0]} in {db}: key {row[1]}")
        print(f"  fetched {row[2]} -> {row[3]}; {row[5]} feed items; title: {row[4]}")

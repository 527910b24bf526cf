"""``feedsift show``: the URL key of a URL, step by step, and what the database has for it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.cli.store_args import add_db_argument, add_rules_argument, rule_files
from feedsift.crawl.keys import SiteKeys
from feedsift.dedup.params import QueryParamLearner
from feedsift.dedup.rules import DEFAULT_USER_RULES, QueryRule, load_rules
from feedsift.dedup.site import site_of
from feedsift.dedup.urlkeys import CID_PARAMETER, UrlKey, explain_url_key
from feedsift.errors import InputError, ModelError
from feedsift.storage import Store
from feedsift.storage.location import DatabaseTarget, describe_target

__all__ = ["register"]

DESCRIPTION = """\
Show how feedsift keys a document (the URL Tree paper's URL normalisation): the response
URL, the same with the 128-bit hash of the item's title as `_cid_` and the query sorted,
then the query filtered by the first URL-key rule whose pattern matches and whose
parameters the URL has. When no rule applies, only tracking parameters (utm_*, fbclid,
gclid, ref, ...) and `_cid_` are dropped: every other parameter may name the story, so
?id=12 and ?id=13 keep two keys. If the crawl has learned from the site's feeds that a
parameter never names a page there (a session id that changes while the story stays), it is
dropped too, and `_cid_` kept in its place. Documents with the same key are stored once. If
the database has a document with this key, or fetched from or redirected to URL, it is
shown too."""

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
    add_db_argument(parser, "the database to look the URL up in")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    learned = _learned(args.db, args.url)
    rules = load_rules(*rule_files(args))
    steps = explain_url_key(args.url, args.title, rules, learned)
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
    if learned is not None:
        print(f"learned drop:        {_learned_step(steps, learned)}")
    print(f"URL key:             {steps.key}")
    if _exists(args.db):
        _stored(args.db, steps, args.title, rules)
    return EXIT_OK


def _exists(db: DatabaseTarget) -> bool:
    """Whether there is a database to look in (a PostgreSQL URL is tried: it says why not)."""
    return not isinstance(db, Path) or db.exists()


def _learned(db: DatabaseTarget, url: str) -> QueryParamLearner | None:
    """The URL's site's learned query parameters in ``db``, if the crawl learned any."""
    if not _exists(db):
        return None
    try:
        with Store(db, create=False) as store:
            saved = store.url_params.get(site_of(url))
        return None if saved is None else QueryParamLearner.from_bytes(saved)
    except (InputError, ModelError):
        return None


def _learned_step(steps: UrlKey, learned: QueryParamLearner) -> str:
    """The learned drop step: what it dropped, or why nothing."""
    if steps.learned:
        return (f"{' '.join(steps.learned)} (the site's feeds list stories again with new "
                "values of these; _cid_ kept in their place)")  # fmt: skip
    names = ", ".join(learned.dropped_names())
    if not names:
        return "nothing (no parameter of this site is known not to name a page)"
    if steps.rule is not None:
        return f"nothing (a rule applied; the site drops {names})"
    if CID_PARAMETER not in steps.key:
        return f"nothing (no title to keep as _cid_; the site drops {names})"
    return f"nothing here (the site drops {names}, so _cid_ stays in its keys)"


def _stored(
    db: DatabaseTarget, steps: UrlKey, title: str | None, rules: Sequence[QueryRule]
) -> None:
    """The stored documents with this key, or fetched from or redirected to the URL, or
    stored under the key they had before the site's learned drops (as the crawl finds them)."""
    url = steps.response_url
    with Store(db, create=False) as store:
        earlier = SiteKeys(store, rules).earlier_document(url, title)
        rows = store.connection.execute(
            "SELECT d.id, d.url_key, d.request_url, d.response_url, a.title,"
            " (SELECT COUNT(*) FROM items i WHERE i.document_id = d.id)"
            " FROM documents d LEFT JOIN articles a ON a.document_id = d.id"
            " WHERE d.url_key = ? OR d.request_url = ? OR d.response_url = ? OR d.id = ?",
            (steps.key, url, url, earlier),
        ).fetchall()
    for row in rows:
        print(f"\nstored document {row[0]} in {describe_target(db)}: key {row[1]}")
        print(f"  fetched {row[2]} -> {row[3]}; {row[5]} feed items; title: {row[4]}")

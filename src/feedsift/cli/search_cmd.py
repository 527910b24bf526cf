"""``feedsift search``: the stored articles that match a query, best first, with snippets."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Literal, TextIO, get_args

from feedsift.cli import EXIT_OK, Subparsers
from feedsift.cli.export_cmd import parse_since
from feedsift.cli.numbers import whole_number
from feedsift.cli.store_args import add_db_argument
from feedsift.outputs.serialize import to_json
from feedsift.storage import SearchHit, SearchQuery, Store
from feedsift.storage.search import DEFAULT_LIMIT, DEFAULT_MARKS

__all__ = ["SearchFormat", "register", "run"]

SearchFormat = Literal["txt", "json", "jsonl"]
#: How matches are shown in txt on a terminal: bold (ANSI), unless NO_COLOR is set.
TERMINAL_MARKS = ("\x1b[1m", "\x1b[0m")
#: Width of the hit numbers' column in txt.
NUMBER_WIDTH = 3

DESCRIPTION = """\
Search the stored articles' titles and texts, and list the best matches first, each with
its site, date, URL and a snippet of its text with the matching words marked (**bold**;
bold on a terminal). Ranking is BM25, a match in the title weighing five times one in the
text. Words are matched without case or accents, and by stem: "elections" also finds
"election", "running" finds "run" (the stemmer is English's).

QUERY syntax (SQLite FTS5): words, all of which must occur; "an exact phrase"; OR and NOT
between words or groups in parentheses; word* for words that start so; title:word or
text:word for one field; NEAR(word word, 10) for words at most 10 words apart. Words with
punctuation go in double quotes ("c++"). Several QUERY arguments are joined by spaces.

On PostgreSQL (--db postgresql://...) each article is stemmed in its own language (English,
German, French, ... and unstemmed when PostgreSQL has no stemmer for it or the page gave no
language), accents count, and QUERY is PostgreSQL's web search syntax: words, "an exact
phrase", OR, -word (NOT word means the same); title:, word* and NEAR are refused there.
Hits are ranked by cover density, a match in the title weighing five times one in the text.

Like feedsift export, --since filters by arrival time (when the article was stored) and
duplicates found on arrival are left out unless --duplicates is given. The count of all
matches goes to stderr."""

EXAMPLES = """\
examples:
  feedsift search lighthouse keepers                 articles with both words
  feedsift search '"lighthouse keeper"' --limit 5    the exact phrase, five best
  feedsift search 'title:election OR title:vote' --site news.example.org --since 7d
  feedsift search 'climat*' -f jsonl > hits.jsonl    one JSON object per hit
  feedsift search 'rust NOT game' --db crawl.db
  feedsift search '"lighthouse keeper" OR lamp' --db postgresql://localhost/feedsift
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "search", help="full-text search of the stored articles, ranked, with snippets",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("query", nargs="+", metavar="QUERY", help="what to look for (see above)")
    parser.add_argument("--site", default=None, help="only articles of this site (host name)")
    parser.add_argument(
        "--since", type=parse_since, default=None, metavar="WHEN",
        help="only articles that arrived since WHEN: a date or ISO time (UTC unless it "
        "says), or an age such as 30m, 24h, 7d, 2w",
    )  # fmt: skip
    parser.add_argument(
        "-n", "--limit", type=whole_number(1), default=DEFAULT_LIMIT, metavar="N",
        help="show the N best matches (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "-f", "--format", choices=get_args(SearchFormat), default="txt",
        help="txt (default): numbered hits for reading; json: one array; jsonl: one hit a line",
    )  # fmt: skip
    parser.add_argument(
        "--duplicates", action="store_true", help="also the duplicates found on arrival"
    )
    add_db_argument(parser)
    parser.set_defaults(func=run)




def run(args: argparse.Namespace) -> int:
    """Run ``feedsift search``; a bad query or a missing database raise (one line, exit 1)."""
    query = SearchQuery(
        " ".join(args.query), site=args.site, since=args.since, limit=args.limit,
        duplicates=args.duplicates, marks=_marks(args.format, sys.stdout),
    )  # fmt: skip
    with Store(args.db, create=False) as store:
        hits = store.fulltext.search(query)
        total = store.fulltext.count(query) if len(hits) == query.limit else len(hits)
    _write(hits, args.format, sys.stdout)
    print(_summary(len(hits), total, query.limit), file=sys.stderr)
    return EXIT_OK


def _marks(fmt: SearchFormat, out: TextIO) -> tuple[str, str]:
    if fmt == "txt" and out.isatty() and not os.environ.get("NO_COLOR"):
        return TERMINAL_MARKS
    return DEFAULT_MARKS


def _summary(shown: int, total: int, limit: int) -> str:
    if total == 0:
        return "no article matches"
    noun = "article matches" if total == 1 else "articles match"
    if shown < total:
        return f"{total} {noun}; the best {shown} shown (--limit {limit})"
    return f"{total} {noun}"


def _write(hits: Sequence[SearchHit], fmt: SearchFormat, out: TextIO) -> None:
    if fmt == "json":
        out.write(json.dumps([to_json(hit) for hit in hits], ensure_ascii=False, indent=2))
        out.write("\n")
    elif fmt == "jsonl":
        out.writelines(json.dumps(to_json(hit), ensure_ascii=False) + "\n" for hit in hits)
    else:
        out.write("\n".join(_txt_hit(number, hit) for number, hit in enumerate(hits, 1)))
        out.write("\n" if hits else "")


def _txt_hit(number: int, hit: SearchHit) -> str:
    """``N. title``, then site, date and URL, then the snippet, indented under the title."""
    indent = " " * (NUMBER_WIDTH + 1)
    date = hit.published.date().isoformat() if hit.published else None
    where = " · ".join(part for part in (hit.site, date, hit.url) if part)
    snippet = " ".join(hit.snippet.split())
    lines = [f"{number:>{NUMBER_WIDTH - 1}}. {hit.title or '(no title)'}", where]
    if snippet:
        lines.append(snippet)
    return lines[0] + "".join(f"\n{indent}{line}" for line in lines[1:]) + "\n"

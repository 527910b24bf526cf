"""Full-text search over the stored articles: ranked hits with snippets.

One small interface, :class:`ArticleSearch` (``search`` and ``count`` of a
:class:`SearchQuery`), so that each database brings its own engine behind it. The SQLite
one, :class:`SqliteArticleSearch`, queries the FTS5 index of migration 6 (titles and body
texts, Porter-stemmed Unicode words; kept in step by triggers) and ranks by BM25, the
title weighing more than the body. Queries use FTS5's syntax: words (all must occur),
``"a phrase"``, ``OR``, ``NOT``, ``prefix*``, ``title:word``, ``NEAR(a b, 5)`` and
parentheses. A query that does not parse is an :class:`~feedsift.errors.InputError` with
FTS5's reason.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from feedsift.errors import InputError, StorageError
from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MARKS",
    "ArticleSearch",
    "SearchHit",
    "SearchQuery",
    "SqliteArticleSearch",
    "search_hit",
    "site_key",
]

#: Hits returned unless asked otherwise: a screenful.
DEFAULT_LIMIT = 20
#: What surrounds a matched word in a snippet: Markdown's bold, rare in article text.
DEFAULT_MARKS = ("**", "**")
#: BM25 weight of a match in the title against one in the body: a query word in the title
#: says the article is about it, one in a long body may be a passing mention.
TITLE_WEIGHT = 5.0
BODY_WEIGHT = 1.0
#: Words in a snippet (FTS5 allows at most 64): about two lines of text.
SNIPPET_WORDS = 24
#: What marks text left out at either end of a snippet.
ELLIPSIS = "…"
#: The FTS5 column a snippet is cut from: the body text (column 1; the title is column 0).
BODY_COLUMN = 1


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """What to look for, and in which articles.

    ``since`` is the arrival time (when the article was stored, as ``feedsift export
    --since``); ``duplicates`` also searches the duplicates found on arrival; ``marks`` go
    around every matched word of the snippet.
    """

    text: str
    site: str | None = None
    since: datetime | None = None
    limit: int = DEFAULT_LIMIT
    duplicates: bool = False
    marks: tuple[str, str] = DEFAULT_MARKS


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One matching article: where it is, what it is, how well it matches (``score``, higher
    is better, comparable within one query only) and a snippet of its text."""

    article_id: int
    site: str
    url: str
    title: str | None
    kind: str
    published: datetime | None
    extracted_at: datetime
    score: float
    snippet: str


class ArticleSearch(Protocol):
    """Full-text search of one store's articles."""

    def search(self, query: SearchQuery) -> list[SearchHit]:
        """The best ``query.limit`` matches, best first."""
        ...

    def count(self, query: SearchQuery) -> int:
        """How many articles match (``limit`` aside)."""
        ...


def site_key(site: str) -> str:
    """A site as the store keys it: lower case, without ``www.``."""
    return site.strip().lower().removeprefix("www.")


class SqliteArticleSearch:
    """:class:`ArticleSearch` over SQLite's FTS5 index ``articles_fts``."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def search(self, query: SearchQuery) -> list[SearchHit]:
        where, params = self._where(query)
        open_mark, close_mark = query.marks
        rows = self._run(
            "SELECT a.id, a.site, a.url, a.title, a.kind, a.published, a.extracted_at,"
            f" bm25(articles_fts, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS rank,"
            f" snippet(articles_fts, {BODY_COLUMN}, ?, ?, ?, {SNIPPET_WORDS}) AS snippet"
            f" {where} ORDER BY rank, a.id DESC LIMIT ?",
            [open_mark, close_mark, ELLIPSIS, *params, max(0, query.limit)],
        )
        return [search_hit(row, -float(row["rank"])) for row in rows]  # bm25: lower is better

    def count(self, query: SearchQuery) -> int:
        where, params = self._where(query)
        ((total,),) = self._run(f"SELECT COUNT(*) {where}", params)
        return int(total)

    def _where(self, query: SearchQuery) -> tuple[str, list[object]]:
        """The FROM and WHERE clauses of ``query`` and their parameters."""
        self._check(query.text)
        where = (
            "FROM articles_fts JOIN articles AS a ON a.id = articles_fts.rowid"
            " WHERE articles_fts MATCH ?"
        )
        params: list[object] = [query.text]
        if query.site is not None:
            where, params = where + " AND a.site = ?", [*params, site_key(query.site)]
        if query.since is not None:
            where, params = where + " AND a.extracted_at >= ?", [*params, moment_to_db(query.since)]
        if not query.duplicates:
            where += " AND a.duplicate_of IS NULL AND a.near_duplicate_of IS NULL"
        return where, params

    def _check(self, text: str) -> None:
        """Raise :class:`InputError` unless FTS5 reads ``text`` as a query."""
        if not text.strip():
            raise InputError("empty search query: give at least one word")
        try:
            self._db.execute(
                "SELECT rowid FROM articles_fts WHERE articles_fts MATCH ? LIMIT 1", (text,)
            ).fetchall()
        except sqlite3.OperationalError as exc:
            raise InputError(f"bad search query {text!r}: {exc}{_hint(str(exc))}") from exc

    def _run(self, sql: str, params: list[object]) -> list[Any]:
        try:
            return list(self._db.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise StorageError(f"search failed: {exc}") from exc


def _hint(reason: str) -> str:
    """What to do about a query FTS5 cannot read."""
    if "no such column" in reason:
        return " (the columns are title and text; put words with - or : in double quotes)"
    if "unterminated string" in reason:
        return " (a double quote is not closed)"
    return ' (put words with punctuation in double quotes, e.g. "c++" or "e-mail")'


def search_hit(row: RowLike, score: float) -> SearchHit:
    """A hit from a row with the article's columns (``id``, ``site``, ... ``snippet``)."""
    extracted_at = moment_from_db(row["extracted_at"])
    assert extracted_at is not None  # NOT NULL column
    return SearchHit(
        article_id=row["id"], site=row["site"], url=row["url"], title=row["title"],
        kind=row["kind"], published=moment_from_db(row["published"]),
        extracted_at=extracted_at, score=score, snippet=row["snippet"] or "",
    )  # fmt: skip

"""The reads of ``feedsift serve``'s article endpoints that the tables have no function for:
one article by its id, the document it came from, and a page of article summaries
filtered by site, arrival time, kind and extraction method, newest first, with the count
of all that match.

Summaries are read from the articles' columns, not from their stored JSON records, so a
page of them costs no decoding of article bodies.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedsift.storage.articles import StoredArticle, stored_article
from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = [
    "DEFAULT_PAGE",
    "ArticleFilter",
    "ArticleSummary",
    "article_by_id",
    "article_document_id",
    "article_summaries",
    "count_articles",
]

#: Summaries in one page unless asked otherwise: a screenful.
DEFAULT_PAGE = 20
#: The columns of a summary, in :class:`ArticleSummary`'s order.
_SUMMARY_COLUMNS = (
    "id, site, url, title, kind, method, published, extracted_at, duplicate_of, near_duplicate_of"
)


@dataclass(frozen=True, slots=True)
class ArticleFilter:
    """Which stored articles, and which page of them.

    ``site`` is a site as the store keys it (lower case, no ``www.``); ``since`` the
    arrival time, as ``feedsift export --since``; ``kind`` a page kind's value
    (``article``, ``listing``...); ``method`` an extraction method (``page``,
    ``hybrid-diffpost``...). Duplicates found on arrival are left out unless ``duplicates``.
    """

    site: str | None = None
    since: datetime | None = None
    kind: str | None = None
    method: str | None = None
    duplicates: bool = False
    limit: int = DEFAULT_PAGE
    offset: int = 0


@dataclass(frozen=True, slots=True)
class ArticleSummary:
    """A stored article without its body: what a list shows."""

    id: int
    site: str
    url: str
    title: str | None
    kind: str
    method: str
    published: datetime | None
    extracted_at: datetime
    duplicate_of: int | None
    near_duplicate_of: int | None


def article_by_id(connection: Connection, article_id: int) -> StoredArticle | None:
    """The stored article ``article_id``, or None when there is none."""
    row = connection.execute("SELECT * FROM articles WHERE id = ?", (article_id,)).fetchone()
    return None if row is None else stored_article(row)


def article_document_id(connection: Connection, article_id: int) -> int | None:
    """The id of the stored document article ``article_id`` was extracted from, or None."""
    row = connection.execute(
        "SELECT document_id FROM articles WHERE id = ?", (article_id,)
    ).fetchone()
    return None if row is None else int(row[0])


def article_summaries(connection: Connection, wanted: ArticleFilter) -> list[ArticleSummary]:
    """One page of the articles ``wanted`` selects, the newest arrival first."""
    where, params = _where(wanted)
    rows = connection.execute(
        f"SELECT {_SUMMARY_COLUMNS} FROM articles {where} ORDER BY id DESC LIMIT ? OFFSET ?",
        [*params, max(0, wanted.limit), max(0, wanted.offset)],
    ).fetchall()
    return [_summary(row) for row in rows]


def count_articles(connection: Connection, wanted: ArticleFilter) -> int:
    """How many articles ``wanted`` selects (its page aside)."""
    where, params = _where(wanted)
    ((total,),) = connection.execute(f"SELECT COUNT(*) FROM articles {where}", params).fetchall()
    return int(total)


def _where(wanted: ArticleFilter) -> tuple[str, list[object]]:
    """The WHERE clause of ``wanted`` and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    for column, value in (("site", wanted.site), ("kind", wanted.kind), ("method", wanted.method)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if wanted.since is not None:
        clauses.append("extracted_at >= ?")
        params.append(moment_to_db(wanted.since))
    if not wanted.duplicates:
        clauses.append("duplicate_of IS NULL AND near_duplicate_of IS NULL")
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), params


def _summary(row: RowLike) -> ArticleSummary:
    extracted_at = moment_from_db(row["extracted_at"])
    assert extracted_at is not None  # NOT NULL column
    return ArticleSummary(
        id=int(row["id"]), site=row["site"], url=row["url"], title=row["title"],
        kind=row["kind"], method=row["method"], published=moment_from_db(row["published"]),
        extracted_at=extracted_at, duplicate_of=row["duplicate_of"],
        near_duplicate_of=row["near_duplicate_of"],
    )  # fmt: skip

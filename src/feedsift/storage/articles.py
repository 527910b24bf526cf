"""The ``articles`` table: one extraction result per document, with its provenance.

Each row keeps the whole :class:`~feedsift.records.Article` as JSON (``record``) beside the
columns that queries need: site, URL, title, dates, method and model version, and the
content fingerprints that mark exact and near duplicates within a site.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from feedsift.outputs.deserialize import article_from_dict
from feedsift.outputs.serialize import article_to_dict
from feedsift.records import Article
from feedsift.storage.columns import (
    moment_from_db,
    moment_to_db,
    signed64,
    to_json_text,
    unsigned64,
)
from feedsift.storage.connection import Connection, RowLike

__all__ = [
    "STREAM_BATCH",
    "ArticleTable",
    "NewArticle",
    "StoredArticle",
    "article_record",
    "stored_article",
]

#: Articles read per query while streaming: a few MB of records in memory at a time, on
#: either database (PostgreSQL's driver would otherwise read a whole result at once).
STREAM_BATCH = 500


@dataclass(frozen=True, slots=True)
class NewArticle:
    """An extraction result about to be stored."""

    document_id: int
    site: str
    url: str
    article: Article
    content_hash: str
    simhash: int
    extracted_at: datetime
    extract_seconds: float
    record: str = ""  #: :func:`article_record` of ``article`` when already made, else ""
    duplicate_of: int | None = None  #: an earlier article of the site with the same text
    near_duplicate_of: int | None = None  #: an earlier article of the site with close text


@dataclass(frozen=True, slots=True)
class StoredArticle:
    """A stored article, read back."""

    id: int
    site: str
    url: str
    extracted_at: datetime
    article: Article
    duplicate_of: int | None
    near_duplicate_of: int | None


def article_record(article: Article) -> str:
    """The JSON text an article is stored as."""
    return to_json_text(article_to_dict(article))


class ArticleTable:
    """Reads and writes of the ``articles`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, new: NewArticle) -> int | None:
        """Store ``new``; None when its document already has an article."""
        a = new.article
        row = self._db.execute(
            "INSERT INTO articles (document_id, site, url, kind, title, published,"
            " method, model_version, confidence, content_hash, simhash, duplicate_of,"
            " near_duplicate_of, record, extracted_at, extract_seconds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING id",
            (
                new.document_id, new.site, new.url, a.kind.value, a.title,
                moment_to_db(a.published), a.provenance.method, a.provenance.model_version,
                a.provenance.confidence, new.content_hash, signed64(new.simhash),
                new.duplicate_of, new.near_duplicate_of, new.record or article_record(a),
                moment_to_db(new.extracted_at), new.extract_seconds,
            ),
        ).fetchone()  # fmt: skip
        return None if row is None else int(row[0])

    def with_hash(self, site: str, content_hash: str) -> int | None:
        """The first article of ``site`` whose text has ``content_hash``."""
        row = self._db.execute(
            "SELECT MIN(id) FROM articles WHERE site = ? AND content_hash = ?",
            (site, content_hash),
        ).fetchone()
        return None if row[0] is None else int(row[0])

    def fingerprints(self, site: str) -> list[tuple[int, int]]:
        """``(id, simhash)`` of the site's articles that are not duplicates themselves."""
        rows = self._db.execute(
            "SELECT id, simhash FROM articles WHERE site = ? AND duplicate_of IS NULL"
            " AND near_duplicate_of IS NULL AND kind = 'article' ORDER BY id",
            (site,),
        ).fetchall()
        return [(int(row[0]), unsigned64(int(row[1]))) for row in rows]

    def stream(
        self, *, since: datetime | None = None, site: str | None = None, duplicates: bool = False
    ) -> Iterator[StoredArticle]:
        """Stored articles in the order they were extracted, filtered as asked."""
        query = "SELECT * FROM articles WHERE extracted_at >= ?"
        params: list[object] = [moment_to_db(since) or ""]
        if site is not None:
            query, params = query + " AND site = ?", [*params, site]
        if not duplicates:
            query += " AND duplicate_of IS NULL AND near_duplicate_of IS NULL"
        last = 0
        while True:  # a batch at a time, from the last id read on
            rows = self._db.execute(
                query + " AND id > ? ORDER BY id LIMIT ?", [*params, last, STREAM_BATCH]
            ).fetchall()
            yield from (stored_article(row) for row in rows)
            if len(rows) < STREAM_BATCH:
                return
            last = int(rows[-1]["id"])


def stored_article(row: RowLike) -> StoredArticle:
    """A row of the ``articles`` table as a record."""
    extracted_at = moment_from_db(row["extracted_at"])
    assert extracted_at is not None  # NOT NULL column
    return StoredArticle(
        id=row["id"],
        site=row["site"],
        url=row["url"],
        extracted_at=extracted_at,
        article=article_from_dict(json.loads(row["record"])),
        duplicate_of=row["duplicate_of"],
        near_duplicate_of=row["near_duplicate_of"],
    )

"""The ``documents`` table: fetched pages, one per URL key, raw bytes kept compressed.

A document is claimed by the process that stores it until its article is stored
(:mod:`feedsift.storage.claims`): a document without an article whose claim is free was
left by a process that ended, and another one extracts it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from feedsift.storage.claims import free, lease_params
from feedsift.storage.columns import (
    compress_body,
    decompress_body,
    moment_from_db,
    moment_to_db,
    to_json_text,
)
from feedsift.storage.connection import Connection, RowLike

__all__ = ["DocumentRecord", "DocumentTable", "NewDocument"]


@dataclass(frozen=True, slots=True)
class NewDocument:
    """A fetched page about to be stored."""

    url_key: str
    site: str
    request_url: str
    response_url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    fetched_at: datetime
    fetch_seconds: float

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    """A stored page with its body decompressed."""

    id: int
    document: NewDocument


class DocumentTable:
    """Reads and writes of the ``documents`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, document: NewDocument) -> tuple[int, bool]:
        """Store ``document`` unless its URL key is known; return (its id, whether it is new)."""
        row = self._db.execute(
            "INSERT INTO documents (url_key, site, request_url, response_url, status,"
            " headers, body, body_size, fetched_at, fetch_seconds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            _row(document),
        ).fetchone()
        if row is not None:
            return int(row[0]), True
        existing = self.id_of(document.url_key)
        assert existing is not None  # the insert was ignored for this key
        return existing, False

    def id_of(self, url_key: str) -> int | None:
        row = self._db.execute("SELECT id FROM documents WHERE url_key = ?", (url_key,)).fetchone()
        return None if row is None else int(row[0])

    def response_url_of(self, request_url: str) -> str | None:
        """Where a stored fetch of ``request_url`` ended, if there was one."""
        row = self._db.execute(
            "SELECT response_url FROM documents WHERE request_url = ? LIMIT 1", (request_url,)
        ).fetchone()
        return None if row is None else str(row[0])

    def of_item_title(self, site: str, title: str) -> list[tuple[int, str]]:
        """(id, response URL) of the documents of ``site`` that a feed item titled
        ``title`` led to."""
        rows = self._db.execute(
            "SELECT DISTINCT d.id, d.response_url FROM items i JOIN documents d"
            " ON d.id = i.document_id WHERE i.title = ? AND d.site = ? ORDER BY d.id",
            (title, site),
        )
        return [(int(row[0]), str(row[1])) for row in rows]

    def get(self, document_id: int) -> DocumentRecord | None:
        row = self._db.execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
        return None if row is None else DocumentRecord(row["id"], _document(row))

    def count_of_site(self, site: str) -> int:
        """How many documents of ``site`` are stored."""
        row = self._db.execute("SELECT COUNT(*) FROM documents WHERE site = ?", (site,))
        return int(row.fetchone()[0])

    def last_fetched(self, site: str) -> datetime | None:
        """When the newest stored document of ``site`` was fetched (``None``: none stored)."""
        row = self._db.execute(
            "SELECT fetched_at FROM documents WHERE site = ? ORDER BY id DESC LIMIT 1", (site,)
        ).fetchone()
        return None if row is None else moment_from_db(row[0])

    def claim(self, document_id: int, now: datetime) -> None:
        """Claim a document this process has just stored, until its article is stored."""
        self._db.execute(
            "UPDATE documents SET claimed_by = :worker, claimed_until = :until WHERE id = :id",
            {**lease_params(self._db.worker, now), "id": document_id},
        )

    def claim_unextracted(self, now: datetime, *, orphaned: bool = False) -> list[int]:
        """Claim the documents stored without an article whose claim is free, in id order,
        to extract them: every one (at start), or (``orphaned``) only those another
        process claimed and left (killed, or out of its lease): the periodic sweep."""
        which = " AND d.claimed_by IS NOT NULL AND d.claimed_by <> :worker" if orphaned else ""
        rows = self._db.execute(
            "UPDATE documents SET claimed_by = :worker, claimed_until = :until WHERE id IN ("
            f"SELECT d.id FROM documents AS d WHERE {free(self._db.dialect, 'd')}{which} AND"
            " NOT EXISTS (SELECT 1 FROM articles AS a WHERE a.document_id = d.id)"
            f"{self._db.dialect.skip_locked}) RETURNING id",
            lease_params(self._db.worker, now),
        ).fetchall()
        return sorted(int(row[0]) for row in rows)

    def release(self, document_id: int) -> None:
        """End this process's claim: the document's article is stored."""
        self._db.execute(
            "UPDATE documents SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (document_id, self._db.worker),
        )

    def hold(self, document_id: int) -> None:
        """Keep the claim for as long as this process lives (its extraction failed: not
        tried again before a process that starts later)."""
        self._db.execute(
            "UPDATE documents SET claimed_by = ?, claimed_until = NULL WHERE id = ?",
            (self._db.worker, document_id),
        )

    def without_article(self) -> list[int]:
        """Documents stored but not yet extracted (a crawl stopped in between)."""
        rows = self._db.execute(
            "SELECT d.id FROM documents d LEFT JOIN articles a ON a.document_id = d.id"
            " WHERE a.id IS NULL ORDER BY d.id"
        ).fetchall()
        return [int(row[0]) for row in rows]


def _row(d: NewDocument) -> tuple[object, ...]:
    return (
        d.url_key, d.site, d.request_url, d.response_url, d.status,
        to_json_text([list(pair) for pair in d.headers]), compress_body(d.body), len(d.body),
        moment_to_db(d.fetched_at), d.fetch_seconds,
    )  # fmt: skip


def _document(row: RowLike) -> NewDocument:
    fetched_at = moment_from_db(row["fetched_at"])
    assert fetched_at is not None  # NOT NULL column
    return NewDocument(
        url_key=row["url_key"],
        site=row["site"],
        request_url=row["request_url"],
        response_url=row["response_url"],
        status=row["status"],
        headers=tuple((str(k), str(v)) for k, v in json.loads(row["headers"])),
        body=decompress_body(row["body"]),
        fetched_at=fetched_at,
        fetch_seconds=row["fetch_seconds"],
    )

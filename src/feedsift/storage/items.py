"""The ``items`` table: the RSS readers' history of feed items, and what became of each.

An item is keyed by its site and its history key (a hash of title, description and
publication date, as the URL Tree pipeline does), so a post seen again in the next poll or
in another feed of the same site is not fetched again. Its state says where it is:
``new`` (seen, not fetched yet), ``retry`` (a fetch failed and will be tried again),
``stored`` (its page is a document), ``duplicate`` (its page had the URL key of a stored
document) or ``failed`` (given up, with the reason). A process claims an item before it
fetches its page (:mod:`feedsift.storage.claims`), so no other fetches it meanwhile;
settling the item, or recording its failure, ends the claim.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from feedsift.storage.claims import free, lease_params, site_taken
from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = ["ItemRecord", "ItemState", "ItemTable", "NewItem"]

ItemState = Literal["new", "retry", "stored", "duplicate", "failed"]
#: States whose page is still to be fetched.
PENDING_STATES = ("new", "retry")


@dataclass(frozen=True, slots=True)
class NewItem:
    """A feed item as seen in a poll, before it is stored."""

    history_key: str
    url: str | None
    title: str
    description: str
    published: datetime | None


@dataclass(frozen=True, slots=True)
class ItemRecord:
    """One stored feed item."""

    id: int
    feed_id: int
    site: str
    history_key: str
    url: str | None
    title: str
    published: datetime | None
    state: ItemState
    attempts: int
    document_id: int | None
    error: str | None
    description: str = ""  #: the feed's summary or excerpt, as stored


class ItemTable:
    """Reads and writes of the ``items`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, feed_id: int, site: str, items: Iterable[NewItem], now: datetime) -> int:
        """Store the items not seen before on ``site``; return how many were new."""
        rows = [
            (feed_id, site, i.history_key, i.url, i.title, i.description,
             moment_to_db(i.published), moment_to_db(now))
            for i in items
        ]  # fmt: skip
        cursor = self._db.executemany(
            "INSERT INTO items (feed_id, site, history_key, url, title, description,"
            " published, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            rows,
        )
        return max(0, cursor.rowcount)

    def pending(self, feed_id: int | None = None) -> list[ItemRecord]:
        """Items whose page is still to be fetched (of one feed, or of all), oldest first."""
        query = "SELECT * FROM items WHERE state IN ('new', 'retry')"
        params: tuple[int, ...] = ()
        if feed_id is not None:
            query, params = query + " AND feed_id = ?", (feed_id,)
        rows = self._db.execute(query + " ORDER BY id", params).fetchall()
        return [_record(row) for row in rows]

    def settled_urls(self, feed_id: int, limit: int) -> list[str]:
        """Links of the feed's newest ``limit`` items whose page was stored before."""
        rows = self._db.execute(
            "SELECT i.url FROM items i JOIN documents d ON d.id = i.document_id"
            " WHERE i.feed_id = ? AND i.state IN ('stored', 'duplicate')"
            " ORDER BY i.id DESC LIMIT ?",
            (feed_id, limit),
        )
        return [str(row[0]) for row in rows]

    def document_of(self, feed_id: int, url: str) -> int | None:
        """The stored document of the feed's item linking to ``url`` (``None``: none)."""
        row = self._db.execute(
            "SELECT document_id FROM items WHERE feed_id = ? AND url = ?"
            " AND document_id IS NOT NULL ORDER BY id DESC LIMIT 1",
            (feed_id, url),
        ).fetchone()
        return None if row is None else int(row[0])

    def of_document(self, document_id: int) -> ItemRecord | None:
        """The newest item whose page is the stored document ``document_id`` (``None``: a
        page stored without a feed item, e.g. found by following links)."""
        row = self._db.execute(
            "SELECT * FROM items WHERE document_id = ? ORDER BY id DESC LIMIT 1", (document_id,)
        ).fetchone()
        return None if row is None else _record(row)

    def claim(self, item_id: int, now: datetime) -> bool:
        """Claim the item to fetch its page; False when it is not pending any more or
        another live process holds it."""
        cursor = self._db.execute(
            "UPDATE items SET claimed_by = :worker, claimed_until = :until WHERE id = :id"
            f" AND state IN ('new', 'retry') AND {free(self._db.dialect, 'items')}",
            {**lease_params(self._db.worker, now), "id": item_id},
        )
        return cursor.rowcount == 1

    def release(self, item_id: int) -> None:
        """Give up this process's claim on the item without fetching it."""
        self._db.execute(
            "UPDATE items SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (item_id, self._db.worker),
        )

    def orphaned(self, now: datetime) -> list[ItemRecord]:
        """Pending items claimed by another process whose claim is free now (it was killed,
        or its lease ran out), of sites no other live process is crawling, oldest first:
        work to take over."""
        return self._takeable(
            "claimed_by IS NOT NULL AND claimed_by <> :worker AND state IN ('new', 'retry')",
            now,
        )

    def left_new(self, now: datetime) -> list[ItemRecord]:
        """Items found and never fetched (a crawl stopped in between), of sites no other
        live process is crawling, their claim free, oldest first: work to resume."""
        return self._takeable("state = 'new'", now)

    def _takeable(self, which: str, now: datetime) -> list[ItemRecord]:
        dialect = self._db.dialect
        rows = self._db.execute(
            f"SELECT * FROM items WHERE {which} AND {free(dialect, 'items')}"
            f" AND NOT {site_taken(dialect, 'items.site')} ORDER BY id",
            lease_params(self._db.worker, now),
        ).fetchall()
        return [_record(row) for row in rows]

    def settle(self, item_id: int, state: ItemState, document_id: int | None = None) -> None:
        """Mark an item ``stored`` or ``duplicate`` of ``document_id`` (its claim ends)."""
        self._db.execute(
            "UPDATE items SET state = ?, document_id = ?, error = NULL,"
            " attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL WHERE id = ?",
            (state, document_id, item_id),
        )

    def fail(self, item_id: int, reason: str, *, final: bool) -> None:
        """Record a failed fetch: ``retry`` later, or ``failed`` for good when ``final``
        (its claim ends)."""
        self._db.execute(
            "UPDATE items SET state = ?, error = ?, attempts = attempts + 1,"
            " claimed_by = NULL, claimed_until = NULL WHERE id = ?",
            ("failed" if final else "retry", reason, item_id),
        )

    def get(self, item_id: int) -> ItemRecord | None:
        row = self._db.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        return None if row is None else _record(row)


def _record(row: RowLike) -> ItemRecord:
    return ItemRecord(
        id=row["id"],
        feed_id=row["feed_id"],
        site=row["site"],
        history_key=row["history_key"],
        url=row["url"],
        title=row["title"],
        published=moment_from_db(row["published"]),
        state=row["state"],
        attempts=row["attempts"],
        document_id=row["document_id"],
        error=row["error"],
        description=row["description"] or "",
    )

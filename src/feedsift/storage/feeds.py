"""The ``feeds`` table: subscriptions, their conditional-GET validators and their schedule;
the feed a crawl process polls is claimed by it (:mod:`feedsift.storage.claims`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from feedsift.storage.claims import free, lease_params, site_taken
from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = ["FeedRecord", "FeedTable", "FeedUpdate"]


@dataclass(frozen=True, slots=True)
class FeedRecord:
    """One subscribed feed as stored."""

    id: int
    url: str
    site: str
    title: str | None
    format: str | None
    site_url: str | None
    category: str | None
    added_at: datetime
    etag: str | None
    last_modified: str | None
    interval: float  #: seconds between polls, as the schedule last set it
    next_poll_at: datetime
    last_polled_at: datetime | None
    last_ok_at: datetime | None
    last_status: int | None
    error_count: int  #: consecutive failed polls; 0 after a good one
    last_error: str | None
    polls: int
    poll_seconds: float  #: total time spent polling this feed


@dataclass(frozen=True, slots=True)
class FeedUpdate:
    """What one poll changes on a feed's row."""

    polled_at: datetime
    next_poll_at: datetime
    interval: float
    seconds: float
    status: int | None = None
    error: str | None = None  #: None when the poll succeeded
    etag: str | None = None
    last_modified: str | None = None
    title: str | None = None
    format: str | None = None
    site_url: str | None = None


class FeedTable:
    """Reads and writes of the ``feeds`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, url: str, site: str, *, now: datetime, interval: float) -> bool:
        """Subscribe to ``url`` (due at once); False when it was already there."""
        cursor = self._db.execute(
            "INSERT INTO feeds (url, site, added_at, interval_s, next_poll_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (url, site, moment_to_db(now), interval, moment_to_db(now)),
        )
        return cursor.rowcount == 1

    def describe(self, url: str, title: str | None, category: str | None) -> None:
        """Set the title and folder a subscription list gave, keeping what the feed said."""
        self._db.execute(
            "UPDATE feeds SET title = COALESCE(title, ?), category = COALESCE(?, category)"
            " WHERE url = ?",
            (title, category, url),
        )

    def remove(self, url: str) -> bool:
        return self._db.execute("DELETE FROM feeds WHERE url = ?", (url,)).rowcount == 1

    def get(self, url: str) -> FeedRecord | None:
        row = self._db.execute("SELECT * FROM feeds WHERE url = ?", (url,)).fetchone()
        return None if row is None else _record(row)

    def all(self) -> list[FeedRecord]:
        rows = self._db.execute("SELECT * FROM feeds ORDER BY site, url").fetchall()
        return [_record(row) for row in rows]

    def due(self, now: datetime) -> list[FeedRecord]:
        """Feeds whose next poll time has come, the longest waiting first."""
        rows = self._db.execute(
            "SELECT * FROM feeds WHERE next_poll_at <= ? ORDER BY next_poll_at, id",
            (moment_to_db(now),),
        ).fetchall()
        return [_record(row) for row in rows]

    def next_due(self, now: datetime | None = None) -> datetime | None:
        """When the next feed is due: of all, or (``now`` given) of those no other live
        process has claimed."""
        if now is None:
            (moment,) = self._db.execute("SELECT MIN(next_poll_at) FROM feeds").fetchone()
        else:
            (moment,) = self._db.execute(
                f"SELECT MIN(next_poll_at) FROM feeds AS f WHERE {self._free}",
                lease_params(self._db.worker, now),
            ).fetchone()
        return moment_from_db(moment)

    def claim_next(
        self, now: datetime, *, polled_before: datetime, due: bool = True
    ) -> FeedRecord | None:
        """Claim the feed to poll next: due by ``now`` (any, when not ``due``), not polled
        since ``polled_before`` (this round), its claim free, of a site no other live
        process is crawling; the longest waiting first. None when there is none left.

        Run it in a transaction: the candidate's site is locked (PostgreSQL) and checked
        again, so two processes that pick feeds of one site at the same moment do not both
        take it; the one that waited takes the next candidate (that site left out now)."""
        dialect = self._db.dialect
        params = {**lease_params(self._db.worker, now), "round": moment_to_db(polled_before)}
        wanted = " AND f.next_poll_at <= :now" if due else ""
        while True:  # each pass leaves out one more site that another process took
            candidate = self._db.execute(
                f"SELECT f.id, f.site FROM feeds AS f WHERE {self._free}{wanted}"
                " AND (f.last_polled_at IS NULL OR f.last_polled_at < :round)"
                f" AND NOT {site_taken(dialect, 'f.site')} ORDER BY f.next_poll_at, f.id"
                f" LIMIT 1{dialect.skip_locked}",
                params,
            ).fetchone()
            if candidate is None:
                return None
            if self._site_is_ours(str(candidate[1]), params):
                row = self._db.execute(
                    "UPDATE feeds SET claimed_by = :worker, claimed_until = :until"
                    " WHERE id = :id RETURNING *",
                    {**params, "id": candidate[0]},
                ).fetchone()
                return _record(row)

    def _site_is_ours(self, site: str, params: dict[str, object]) -> bool:
        """Lock ``site`` (PostgreSQL) and check that no other live process took it meanwhile."""
        if not self._db.dialect.lock_site:
            return True
        self._db.execute(self._db.dialect.lock_site, {"site": site})
        (taken,) = self._db.execute(
            f"SELECT {site_taken(self._db.dialect, ':site')}", {**params, "site": site}
        ).fetchone()
        return not taken

    def release(self, feed_id: int) -> None:
        """Give up this process's claim on the feed (its round is over)."""
        self._db.execute(
            "UPDATE feeds SET claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (feed_id, self._db.worker),
        )

    @property
    def _free(self) -> str:
        return free(self._db.dialect, "f")

    def update(self, feed_id: int, change: FeedUpdate) -> None:
        """Record one poll: schedule, validators and the error state."""
        ok = change.error is None
        self._db.execute(
            "UPDATE feeds SET last_polled_at = :at, next_poll_at = :next, interval_s = :interval,"
            " polls = polls + 1, poll_seconds = poll_seconds + :seconds, last_status = :status,"
            " error_count = CASE WHEN :ok THEN 0 ELSE error_count + 1 END,"
            " last_error = :error, last_ok_at = CASE WHEN :ok THEN :at ELSE last_ok_at END,"
            " etag = CASE WHEN :ok THEN COALESCE(:etag, etag) ELSE etag END,"
            " last_modified = CASE WHEN :ok THEN COALESCE(:modified, last_modified)"
            " ELSE last_modified END, title = COALESCE(:title, title),"
            " format = COALESCE(:format, format), site_url = COALESCE(:site_url, site_url)"
            " WHERE id = :id",
            {
                "at": moment_to_db(change.polled_at),
                "next": moment_to_db(change.next_poll_at),
                "interval": change.interval,
                "seconds": change.seconds,
                "status": change.status,
                "ok": ok,
                "error": change.error,
                "etag": change.etag,
                "modified": change.last_modified,
                "title": change.title,
                "format": change.format,
                "site_url": change.site_url,
                "id": feed_id,
            },
        )

    def reschedule_all(self, now: datetime) -> None:
        """Make every feed due now (``crawl --once`` polls them all)."""
        self._db.execute("UPDATE feeds SET next_poll_at = ?", (moment_to_db(now),))


def _record(row: RowLike) -> FeedRecord:
    return FeedRecord(
        id=row["id"],
        url=row["url"],
        site=row["site"],
        title=row["title"],
        format=row["format"],
        site_url=row["site_url"],
        category=row["category"],
        added_at=_moment(row["added_at"]),
        etag=row["etag"],
        last_modified=row["last_modified"],
        interval=row["interval_s"],
        next_poll_at=_moment(row["next_poll_at"]),
        last_polled_at=moment_from_db(row["last_polled_at"]),
        last_ok_at=moment_from_db(row["last_ok_at"]),
        last_status=row["last_status"],
        error_count=row["error_count"],
        last_error=row["last_error"],
        polls=row["polls"],
        poll_seconds=row["poll_seconds"],
    )


def _moment(text: str) -> datetime:
    moment = moment_from_db(text)
    assert moment is not None  # NOT NULL column
    return moment

"""The ``errors`` table: every failure of a poll, fetch or extraction, with its reason.

Errors are data here, not exceptions: the crawl records the one-line reason against the
feed (or page) and goes on; ``feedsift stats`` and ``feedsift feeds list`` show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from feedsift.storage.columns import moment_from_db, moment_to_db
from feedsift.storage.connection import Connection, RowLike

__all__ = ["ErrorLog", "ErrorRecord", "Stage"]

#: The pipeline stage an error happened in.
Stage = Literal["feed", "page", "extract"]


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """One recorded failure."""

    at: datetime
    stage: Stage
    feed_id: int | None
    url: str | None
    reason: str


class ErrorLog:
    """Reads and writes of the ``errors`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def add(self, error: ErrorRecord) -> None:
        self._db.execute(
            "INSERT INTO errors (at, stage, feed_id, url, reason) VALUES (?, ?, ?, ?, ?)",
            (moment_to_db(error.at), error.stage, error.feed_id, error.url, error.reason),
        )

    def recent(self, limit: int = 20, feed_id: int | None = None) -> list[ErrorRecord]:
        """The newest errors first, of one feed or of all."""
        where, params = ("WHERE feed_id = ?", (feed_id, limit)) if feed_id else ("", (limit,))
        rows = self._db.execute(
            f"SELECT * FROM errors {where} ORDER BY id DESC LIMIT ?", params
        ).fetchall()
        return [_record(row) for row in rows]


def _record(row: RowLike) -> ErrorRecord:
    at = moment_from_db(row["at"])
    assert at is not None  # NOT NULL column
    return ErrorRecord(at, row["stage"], row["feed_id"], row["url"], row["reason"])

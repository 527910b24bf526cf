"""The ``url_params`` table: per site, which query parameters its URL keys may drop.

A row holds the state of a site's :class:`~feedsift.dedup.params.QueryParamLearner` as its
envelope bytes; the crawl saves it with the items of the poll it learned from.
"""

from __future__ import annotations

from datetime import datetime

from feedsift.storage.columns import moment_to_db
from feedsift.storage.connection import Connection

__all__ = ["UrlParamTable"]


class UrlParamTable:
    """Reads and writes of the ``url_params`` table on one connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def save(self, site: str, state: bytes, saved_at: datetime) -> None:
        """Store ``site``'s learner state, replacing the previous one."""
        self._db.execute(
            "INSERT INTO url_params (site, state, saved_at) VALUES (?, ?, ?) ON CONFLICT (site)"
            " DO UPDATE SET state = excluded.state, saved_at = excluded.saved_at",
            (site, state, moment_to_db(saved_at)),
        )

    def get(self, site: str, *, lock: bool = False) -> bytes | None:
        """``site``'s saved learner state (``None``: nothing learned yet); ``lock``: its row
        locked until the transaction under way ends (PostgreSQL), to learn from it."""
        lock_clause = self._db.dialect.for_update if lock else ""
        row = self._db.execute(
            f"SELECT state FROM url_params WHERE site = ?{lock_clause}", (site,)
        ).fetchone()
        return None if row is None else bytes(row[0])

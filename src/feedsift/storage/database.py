"""Opening the feedsift database: one SQLite file in WAL mode, migrated on open.

WAL lets ``feedsift export`` and ``feedsift stats`` read while ``feedsift watch`` writes.
Every write that matters goes through :meth:`Database.transaction`, so what a command has
confirmed survives a killed process: SQLite either committed the whole transaction or
nothing of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from feedsift.errors import StorageError
from feedsift.storage.migrations import migrate

__all__ = ["BUSY_TIMEOUT_MS", "DEFAULT_DB", "Database"]

#: Where the database lives unless ``--db`` says otherwise: the current folder, visible.
DEFAULT_DB = Path("feedsift.db")
#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_MS = 10_000


class Database:
    """An open feedsift database. Use as a context manager or call :meth:`close`."""

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StorageError(f"{self.path}: no such database (add feeds first)")
        self.connection = _connect(self.path)
        try:
            self.previous_version = migrate(self.connection, str(self.path))
        except sqlite3.DatabaseError as exc:
            self.connection.close()
            raise StorageError(f"{self.path}: not a feedsift database ({exc})") from exc

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        connection = self.connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path}: not a feedsift database ({exc})") from exc
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"{path}: cannot open the database: {exc}") from exc
    return connection

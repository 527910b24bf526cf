"""Opening the feedsift database, migrated on open: a SQLite file in WAL mode (the default),
or a PostgreSQL database (``postgresql://...``, with the ``postgres`` extra: psycopg 3).

WAL lets ``feedsift export`` and ``feedsift stats`` read while ``feedsift watch`` writes;
PostgreSQL also lets several ``feedsift watch`` processes share the work
(:mod:`feedsift.storage.claims`). Every write that matters goes through
:meth:`Database.transaction`, so what a command has confirmed survives a killed process:
the database either committed the whole transaction or nothing of it.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from feedsift.errors import StorageError
from feedsift.storage.claims import SQLITE_ALIVE_FUNCTION, pid_alive
from feedsift.storage.connection import Connection, mixed_rows
from feedsift.storage.dialect import POSTGRESQL, SQLITE
from feedsift.storage.location import DatabaseTarget, describe_target, is_postgres
from feedsift.storage.migrations import migrate, schema_version

__all__ = ["BUSY_TIMEOUT_MS", "CONNECT_TIMEOUT_S", "DEFAULT_DB", "Database"]

#: Where the database lives unless ``--db`` says otherwise: the current folder, visible.
DEFAULT_DB = Path("feedsift.db")
#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_MS = 10_000
#: How long to wait for a PostgreSQL server to answer before saying it cannot be reached.
CONNECT_TIMEOUT_S = 10
#: What the install lacks when a PostgreSQL URL is given without psycopg.
POSTGRES_EXTRA = "pip install 'feedsift[postgres]'"


class Database:
    """An open feedsift database. Use as a context manager or call :meth:`close`."""

    def __init__(self, target: DatabaseTarget, *, create: bool = True) -> None:
        self.target: DatabaseTarget = target if is_postgres(target) else Path(target)
        self.name = describe_target(self.target)
        if is_postgres(self.target):
            self.connection = _connect_postgres(str(self.target), self.name)
        else:
            self.connection = _connect_sqlite(Path(self.target), create)
        try:
            if not create and schema_version(self.connection) == 0:
                raise StorageError(f"{self.name}: no feedsift tables there (add feeds first)")
            self.previous_version = migrate(self.connection, self.name)
        except BaseException as exc:
            self.connection.close()
            if isinstance(exc, self.connection.errors):
                raise StorageError(f"{self.name}: not a feedsift database ({exc})") from exc
            raise

    @property
    def path(self) -> DatabaseTarget:
        """The SQLite file, or the PostgreSQL URL (with its password)."""
        return self.target

    @property
    def is_postgres(self) -> bool:
        return self.connection.dialect is POSTGRESQL

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        connection = self.connection
        connection.execute(connection.dialect.begin)
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def _connect_sqlite(path: Path, create: bool) -> Connection:
    if not create and not path.exists():
        raise StorageError(f"{path}: no such database (add feeds first)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.create_function(SQLITE_ALIVE_FUNCTION, 1, pid_alive)
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path}: not a feedsift database ({exc})") from exc
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"{path}: cannot open the database: {exc}") from exc
    return Connection(connection, SQLITE, os.getpid())


def _connect_postgres(url: str, name: str) -> Connection:
    try:
        import psycopg
    except ImportError as exc:
        raise StorageError(f"{name}: PostgreSQL needs psycopg: {POSTGRES_EXTRA}") from exc
    try:
        options: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT_S}
        if "application_name" not in psycopg.conninfo.conninfo_to_dict(url):
            options["application_name"] = f"feedsift[{os.getpid()}]"  # who holds what
        raw = psycopg.connect(url, autocommit=True, row_factory=mixed_rows, **options)
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split())
        raise StorageError(f"{name}: cannot connect to PostgreSQL: {reason}") from exc
    (worker,) = raw.execute("SELECT pg_backend_pid()").fetchone() or (0,)
    return Connection(raw, POSTGRESQL, int(worker))

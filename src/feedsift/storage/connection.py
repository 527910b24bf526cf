"""One open database connection as the tables use it, for SQLite and PostgreSQL alike.

The tables write SQL with ``?`` and ``:name`` placeholders and read rows by position or by
column name (as :class:`sqlite3.Row` allows); a :class:`Connection` runs that SQL on either
database, translated by its :class:`~feedsift.storage.dialect.Dialect`. It also knows the
*worker* it is: the identity its claims on shared work are made under
(:mod:`feedsift.storage.claims`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex, overload

from feedsift.storage.dialect import Dialect

if TYPE_CHECKING:
    import psycopg

__all__ = ["Connection", "Cursor", "Params", "Row", "RowLike", "mixed_rows"]

#: Parameters of one statement: positional for ``?``, a mapping for ``:name``.
Params = Sequence[object] | Mapping[str, object]


class Cursor(Protocol):
    """What the tables read from a statement's result (sqlite3's and psycopg's cursors)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Sequence[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Row(tuple[Any, ...]):
    """A PostgreSQL row readable by position and by column name, as :class:`sqlite3.Row` is."""

    _columns: Mapping[str, int]

    def __new__(cls, values: Iterable[Any], columns: Mapping[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._columns = columns
        return row

    @overload
    def __getitem__(self, key: SupportsIndex | str) -> Any: ...
    @overload
    def __getitem__(self, key: slice) -> tuple[Any, ...]: ...

    def __getitem__(self, key: SupportsIndex | str | slice) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._columns[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._columns)


def mixed_rows(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    """psycopg's row factory for :class:`Row`: the column names of ``cursor``'s result."""
    names = [column.name for column in cursor.description or ()]
    columns = {name: index for index, name in enumerate(names)}
    return lambda values: Row(values, columns)


class Connection:
    """A SQLite or PostgreSQL connection in autocommit mode; transactions are begun and
    ended explicitly (:meth:`feedsift.storage.database.Database.transaction`)."""

    def __init__(
        self,
        raw: sqlite3.Connection | psycopg.Connection[Any],
        dialect: Dialect,
        worker: int,
    ) -> None:
        self.raw, self.dialect, self.worker = raw, dialect, worker
        self._translated: dict[str, str] = {}

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        """The driver's base exception: what a failed statement raises."""
        if isinstance(self.raw, sqlite3.Connection):
            return (sqlite3.Error,)
        import psycopg

        return (psycopg.Error,)

    def execute(self, sql: str, params: Params = ()) -> Cursor:
        if isinstance(self.raw, sqlite3.Connection):
            return self.raw.execute(sql, params)
        if not params:  # no parameters: psycopg takes the text as it is, % included
            return self.raw.execute(sql)
        return self.raw.execute(self._sql(sql), params)

    def executemany(self, sql: str, rows: Iterable[Params]) -> Cursor:
        """``sql`` once per row; ``rowcount`` is the sum over the rows."""
        if isinstance(self.raw, sqlite3.Connection):
            return self.raw.executemany(sql, rows)
        cursor = self.raw.cursor()
        cursor.executemany(self._sql(sql), rows)
        return cursor

    def script(self, statements: Sequence[str]) -> None:
        """Run ``statements`` (without parameters), in the transaction under way."""
        for statement in statements:
            self.raw.execute(statement)

    def close(self) -> None:
        self.raw.close()

    def _sql(self, sql: str) -> str:
        translated = self._translated.get(sql)
        if translated is None:
            translated = self._translated[sql] = self.dialect.sql(sql)
        return translated


class RowLike(Protocol):
    """A result row as the tables read it: by column name (``sqlite3.Row``, :class:`Row`)."""

    def __getitem__(self, key: str, /) -> Any: ...

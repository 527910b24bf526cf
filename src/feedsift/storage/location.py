"""Where a feedsift database is: a SQLite file's path, or a PostgreSQL server's URL.

``--db`` and ``$FEEDSIFT_DB`` take either: ``postgresql://user@host:5432/feedsift`` (or
``postgres://``, libpq's URL form, with its query parameters such as ``sslmode``) names a
PostgreSQL database; anything else is the path of a SQLite file.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["POSTGRES_SCHEMES", "DatabaseTarget", "describe_target", "is_postgres", "parse_target"]

#: A SQLite file's path, or a PostgreSQL URL (a ``str`` starting with a POSTGRES_SCHEMES).
DatabaseTarget = Path | str
#: The URL schemes libpq (and so psycopg) reads as a PostgreSQL connection URL.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: DatabaseTarget) -> bool:
    """Whether ``target`` is a PostgreSQL URL (else it is a SQLite file)."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def parse_target(text: str) -> DatabaseTarget:
    """``--db``'s value: a PostgreSQL URL kept as text, anything else a path."""
    return text if is_postgres(text) else Path(text)


def describe_target(target: DatabaseTarget) -> str:
    """``target`` for messages: a URL without its password."""
    if not is_postgres(target):
        return str(target)
    parts = urlsplit(str(target))
    if parts.password is None:
        return str(target)
    netloc = parts.netloc.rsplit("@", 1)
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))

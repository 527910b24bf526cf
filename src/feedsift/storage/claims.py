"""Claims: how several crawl processes share one database's work without doing it twice.

A row of work (a feed to poll, an item whose page is to be fetched, a stored document to
extract) is *claimed* before the work starts: ``claimed_by`` is the worker (the
:attr:`~feedsift.storage.connection.Connection.worker` of the claiming connection) and
``claimed_until`` the end of its lease. Another worker takes a claimed row only once the
claim is *free*:

* nobody holds it (``claimed_by`` is NULL: never claimed, or the work was done);
* its lease is over (``claimed_until`` has passed): the backstop for a worker that hangs;
* or its worker is gone: on PostgreSQL the claiming connection's server process, which the
  server ends when the client dies (a SIGKILL included); on SQLite the claiming process,
  by its pid. So a killed watcher's work is taken over at once, not after its lease.

PostgreSQL picks the next free row with ``FOR UPDATE SKIP LOCKED``, so two watchers asking
at the same moment get different rows; SQLite has one writer at a time and needs not.

Feeds are claimed by *site*: a process takes a feed only when no other live process holds a
feed of the same site, so each site is crawled by one process at a time. Its per-host
politeness (one request at a time, the crawl-delay) then holds across processes, and a
site's item fetches and its harvest (following its links) never fetch one page in two
processes. Pending items are taken over (at start, or from a killed process) only from
sites no other live process is crawling. A
lease held with ``claimed_until`` NULL lasts as long as its worker: a document whose
extraction failed is not tried again before its process ends (as it was tried once per
start when there was one process). Finished work clears its claim, so the claimed rows
(partial indexes) stay few and the sweep for orphaned work stays cheap.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from feedsift.storage.columns import moment_to_db
from feedsift.storage.connection import Connection
from feedsift.storage.dialect import Dialect

__all__ = [
    "CLAIMED_TABLES",
    "LEASE",
    "SQLITE_ALIVE_FUNCTION",
    "free",
    "lease_params",
    "pid_alive",
    "release_all",
    "site_taken",
]

#: How long a claim holds when its worker is alive but never finishes (a hung process, a
#: client whose server connection lingers): longer than one feed's round of fetches with
#: per-host politeness (16 pages in flight behind a 10 s crawl-delay wait under 3 min) and
#: its harvest's first pages, short enough that such a worker's work moves on the same hour.
LEASE = timedelta(minutes=30)
#: The tables whose rows are claimed.
CLAIMED_TABLES = ("feeds", "items", "documents")
#: The SQL function SQLite's claims ask whether a process is alive (:func:`pid_alive`).
SQLITE_ALIVE_FUNCTION = "feedsift_alive"


def free(dialect: Dialect, alias: str) -> str:
    """SQL true when the claim on row ``alias`` is free (parameters ``:now``)."""
    column = f"{alias}.claimed_by"
    return (
        f"({column} IS NULL OR {alias}.claimed_until < :now OR NOT {dialect.claimer_alive(column)})"
    )


def site_taken(dialect: Dialect, site: str) -> str:
    """SQL true when another live process holds a feed of the site ``site`` (an SQL
    expression; parameters ``:now`` and ``:worker``)."""
    return (
        f"EXISTS (SELECT 1 FROM feeds AS g WHERE g.site = {site} AND g.claimed_by IS NOT NULL"
        f" AND g.claimed_by <> :worker AND NOT {free(dialect, 'g')})"
    )


def lease_params(worker: int, now: datetime) -> dict[str, object]:
    """``:worker``, ``:now`` and ``:until`` (the lease's end) of a claim made ``now``."""
    return {"worker": worker, "now": moment_to_db(now), "until": moment_to_db(now + LEASE)}


def pid_alive(pid: int | None) -> bool:
    """Whether process ``pid`` exists on this machine (SQLite's claimers are processes)."""
    if pid is None or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, run by another user
        return True
    return True


def release_all(connection: Connection) -> None:
    """End every claim of ``connection``'s worker (its crawl session is over), in the
    caller's transaction."""
    for table in CLAIMED_TABLES:
        connection.execute(
            f"UPDATE {table} SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?",
            (connection.worker,),
        )

"""Two (or more) ``feedsift watch`` processes on one PostgreSQL database, one SIGKILLed
mid-crawl: the figures behind docs/scale.md's "Several watchers".

Runs the scenario of ``tests/test_crawl_shared.py`` (with its helpers) and prints what the
test asserts: when the victim was killed and what it held, what each process stored, the
posts, documents and articles, and how often each address of a post was requested.

  PYTHONPATH=src .venv/bin/python scripts/shared_watchers.py                 # own server
  PYTHONPATH=src .venv/bin/python scripts/shared_watchers.py --db postgresql://me@host/empty
  PYTHONPATH=src .venv/bin/python scripts/shared_watchers.py --harvest      # links followed

Without ``--db`` a throwaway server is started from the machine's PostgreSQL binaries, as
the tests do (``tests/pg_server.py``).
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from crawl_helpers import feedsift_command, query, stored_documents, subscribe
from feedsift.testweb import TestWeb
from pg_server import PostgresServer, find_bindir
from test_crawl_shared import (
    INTERVAL,
    SLOW_ENOUGH,
    WEBS,
    _post_fetches,
    _post_ids,
    _posts,
    _victim_when_both_fetch,
    _wait_until_settled,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="an empty PostgreSQL database (default: a throwaway one)")
    parser.add_argument("--watchers", type=int, default=2)
    parser.add_argument("--harvest", action="store_true", help="follow the sites' links too")
    args = parser.parse_args()
    with ExitStack() as stack:
        db = args.db or _throwaway_database(stack)
        webs = [stack.enter_context(TestWeb(seed=seed, rounds=2)) for seed in WEBS]
        _run(db, webs, args.watchers, args.harvest)


def _throwaway_database(stack: ExitStack) -> str:
    bindir = find_bindir()
    if bindir is None:
        sys.exit("no PostgreSQL binaries here: give --db")
    server = PostgresServer(bindir).start()
    stack.callback(server.stop)
    return server.create_database()


def _run(db: str, webs: list[TestWeb], count: int, harvest: bool) -> None:
    subscribe(db, [url for web in webs for url in web.feed_urls("good")])
    options = ("--delay", SLOW_ENOUGH, "--interval", INTERVAL) + (
        () if harvest else ("--no-harvest",)
    )
    command = feedsift_command(db, "watch", *options)
    watchers = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for _ in range(count)]  # fmt: skip
    started = time.monotonic()
    victim, _ = _victim_when_both_fetch(db, watchers)
    victim.send_signal(signal.SIGSTOP)
    held = [str(url) for (url,) in query(
        db, "SELECT url FROM items WHERE state IN ('new', 'retry') AND claimed_by ="
        " (SELECT pid FROM pg_stat_activity WHERE application_name = ?)",
        (f"feedsift[{victim.pid}]",),
    )]  # fmt: skip
    stored_then = len(stored_documents(db))
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    print(f"victim killed at {time.monotonic() - started:.1f} s holding {len(held)} pages; "
          f"{stored_then} documents stored by then")  # fmt: skip
    for web in webs:
        web.advance()
    survivors = [watcher for watcher in watchers if watcher is not victim]
    _wait_until_settled(webs, db, survivors[0])
    print(f"settled at {time.monotonic() - started:.1f} s")
    _stop(survivors)
    _report(db, webs, held)


def _stop(survivors: list[subprocess.Popen[str]]) -> None:
    for watcher in survivors:
        watcher.send_signal(signal.SIGTERM)
    for watcher in survivors:
        out, _ = watcher.communicate(timeout=60)
        stored = re.findall(r"(\d+) pages stored", out)
        print(f"survivor {watcher.pid} (exit {watcher.returncode}): {stored[0]} pages stored")


def _report(db: str, webs: list[TestWeb], held: list[str]) -> None:
    docs = stored_documents(db)
    ids = _post_ids(webs, [doc.response_url for doc in docs])
    print(f"posts {len(_posts(webs))}, documents {len(docs)}, distinct posts stored "
          f"{len(set(ids))}, articles {sum(1 for doc in docs if doc.text)}")  # fmt: skip
    fetches = _post_fetches(webs)
    twice = [url for url, times in fetches.items() if times > 1]
    print(
        f"post addresses requested {len(fetches)}, requests {sum(fetches.values())}, "
        f"times requested: {dict(sorted(Counter(fetches.values()).items()))}"
    )
    among = set(_post_ids(webs, twice)) <= set(_post_ids(webs, held))
    print(f"requested more than once: {len(twice)}, all among the victim's held pages: {among}")


if __name__ == "__main__":
    main()

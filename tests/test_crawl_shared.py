"""Two `feedsift watch` processes on one PostgreSQL database share the crawl of the loopback
test web: every post is stored once and no post page is fetched twice, and when one of them
is killed (SIGKILL) in the middle of its fetches, the other takes its work over and nothing
is lost: only the pages the killed one was fetching are fetched again.

The watchers run with ``--no-harvest``: following a site's links can meet a post before its
feed lists it, and the feed item's own address (a ``/r/ID`` redirect, a section or tracking
variant) is then fetched again to learn which stored page it is. That happens in a single
process too; it is the harvest's, not the sharing's, and would blur what is measured here.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from crawl_helpers import count_rows, feedsift_command, post_of, query, stored_documents, subscribe
from feedsift.testweb import TestWeb

GENERATED = ("marginalia", "fieldnotes", "gazette")
#: Per-host delay that makes the crawl last several seconds: a middle to kill one watcher in.
SLOW_ENOUGH = "0.2"
#: Feeds polled again every 2 s: the sites' new posts are seen soon after they appear.
INTERVAL = "2"
#: How long the survivor may take to finish everything (a loaded 2-core machine).
SETTLE_SECONDS = 120
#: Test webs served at once: 9 sites with 30 feeds, more than one watcher polls at a time
#: (8 feeds), so both have sites to crawl (a site is crawled by one process at a time).
WEBS = (5, 6, 7)
#: Pages stored before one watcher is killed: the crawl is well under way (of about 90).
STORED_FIRST = 15


@pytest.fixture
def webs() -> Iterator[list[TestWeb]]:
    started = [TestWeb(seed=seed, rounds=2).start() for seed in WEBS]
    try:
        yield started
    finally:
        for web in started:
            web.close()


def _posts(webs: list[TestWeb]) -> set[str]:
    return {f"{web.seed}/{p.post_id}" for web in webs for s in web.truth().sites
            if s.name in GENERATED for p in s.posts}  # fmt: skip


def _post_ids(webs: list[TestWeb], urls: list[str]) -> list[str]:
    """The post (web seed/post id) each URL reaches, where it reaches one."""
    truths = [(web.seed, web.truth()) for web in webs]
    return [f"{seed}/{post.post_id}" for url in urls for seed, truth in truths
            if (post := post_of(truth, url)) is not None]  # fmt: skip


def _backends(db: str, watchers: list[subprocess.Popen[str]]) -> dict[int, subprocess.Popen[str]]:
    """Each watcher by the server process of its connection (its claims' worker), which its
    ``application_name`` (``feedsift[PID]``) names."""
    by_name = {f"feedsift[{watcher.pid}]": watcher for watcher in watchers}
    rows = query(db, "SELECT pid, application_name FROM pg_stat_activity")
    return {int(pid): by_name[str(name)] for pid, name in rows if name in by_name}  # type: ignore[call-overload]


def _fetching(db: str, watchers: list[subprocess.Popen[str]]) -> Counter[subprocess.Popen[str]]:
    """How many pending items each watcher holds now (pages it is fetching)."""
    rows = query(db, "SELECT claimed_by FROM items WHERE claimed_by IS NOT NULL"
                     " AND state IN ('new', 'retry')")  # fmt: skip
    backends = _backends(db, watchers)
    return Counter(backends[int(worker)] for (worker,) in rows if int(worker) in backends)  # type: ignore[call-overload]


def _victim_when_both_fetch(
    db: str, watchers: list[subprocess.Popen[str]], seconds: float = 90
) -> tuple[subprocess.Popen[str], int]:
    """Wait until both watchers are fetching pages at the same moment (sharing the crawl),
    some pages stored already; return the one fetching more, and how many pages it holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for watcher in watchers:
            assert watcher.poll() is None, watcher.stderr.read() if watcher.stderr else ""
        fetching = _fetching(db, watchers)
        if len(fetching) == len(watchers) and count_rows(db, "documents") >= STORED_FIRST:
            ((victim, held),) = fetching.most_common(1)
            return victim, held
        time.sleep(0.02)
    raise AssertionError(f"the watchers never fetched pages at the same time in {seconds} s")


def _settled(webs: list[TestWeb], db: str) -> bool:
    """Every post of the test webs stored, every item settled, every document extracted."""
    docs = stored_documents(db)
    ((pending,),) = query(db, "SELECT COUNT(*) FROM items WHERE state IN ('new', 'retry')")
    stored = set(_post_ids(webs, [doc.response_url for doc in docs]))
    return stored == _posts(webs) and pending == 0 and all(doc.text for doc in docs)


def _wait_until_settled(webs: list[TestWeb], db: str, survivor: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + SETTLE_SECONDS
    while not _settled(webs, db):
        assert survivor.poll() is None, survivor.stderr.read() if survivor.stderr else ""
        assert time.monotonic() < deadline, "the survivor did not finish the crawl"
        time.sleep(0.2)


def _post_fetches(webs: list[TestWeb]) -> Counter[str]:
    """How often each address of a post (its URL or a variant) was requested."""
    fetched: Counter[str] = Counter()
    for web in webs:
        truth, bases = web.truth(), web.site_urls()
        for record in web.requests():
            url = bases.get(record.site, "") + record.target
            if record.site in GENERATED and post_of(truth, url) is not None:
                fetched[url] += 1
    return fetched


def test_two_watchers_share_the_work_and_a_killed_one_loses_nothing(
    webs: list[TestWeb], postgres_url: str
) -> None:
    db = postgres_url
    subscribe(db, [url for web in webs for url in web.feed_urls("good")])
    command = feedsift_command(db, "watch", "--delay", SLOW_ENOUGH, "--interval", INTERVAL,
                               "--no-harvest")  # fmt: skip
    watchers = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True) for _ in range(2)]  # fmt: skip
    try:
        victim, in_flight = _victim_when_both_fetch(db, watchers)
        victim.send_signal(signal.SIGSTOP)  # frozen: what it holds now is what it leaves
        held = [str(url) for (url,) in query(
            db, "SELECT url FROM items WHERE claimed_by IS NOT NULL AND state IN ('new', 'retry')"
            " AND claimed_by = (SELECT pid FROM pg_stat_activity WHERE application_name = ?)",
            (f"feedsift[{victim.pid}]",),
        )]  # fmt: skip
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        survivor = next(watcher for watcher in watchers if watcher is not victim)
        assert len(stored_documents(db)) < len(_posts(webs))  # killed in the middle
        for web in webs:
            web.advance()  # and the sites published meanwhile
        _wait_until_settled(webs, db, survivor)
        survivor.send_signal(signal.SIGTERM)
        out, err = survivor.communicate(timeout=60)
        assert survivor.returncode == 0, err
    finally:
        for watcher in watchers:
            if watcher.poll() is None:
                watcher.kill()
                watcher.communicate()
    assert in_flight >= 1 and held  # the victim was fetching pages when it died
    docs = stored_documents(db)
    by_survivor = int(re.findall(r"(\d+) pages stored", out)[0])
    assert 0 < by_survivor < len(docs)  # both stored pages: the crawl was shared
    ids = _post_ids(webs, [doc.response_url for doc in docs])
    assert len(ids) == len(docs) and sorted(ids) == sorted(_posts(webs))  # each post once
    fetches = _post_fetches(webs)
    twice = {url: n for url, n in fetches.items() if n > 1}
    # only the pages the victim was fetching when it died (by its links, their redirects
    # and variants: the same posts) were fetched again, by the survivor, once
    assert set(_post_ids(webs, list(twice))) <= set(_post_ids(webs, held)), (twice, held)
    assert max(twice.values(), default=1) <= 2, twice
    assert sum(fetches.values()) >= len(ids)
    ((claimed,),) = query(db, "SELECT COUNT(*) FROM items WHERE claimed_by IS NOT NULL")
    assert claimed == 0  # the survivor released its claims; the victim's were taken over

"""`feedsift watch` killed mid-crawl (SIGKILL) or stopped (SIGTERM), then run again, on
SQLite and on PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from crawl_helpers import (
    count_rows,
    feedsift_command,
    poll_only,
    post_of,
    query,
    stored_documents,
    subscribe,
    wait_for_rows,
)
from feedsift.storage.location import DatabaseTarget
from feedsift.testweb import TestWeb

GENERATED = ("marginalia", "fieldnotes", "gazette")
#: Per-host delay that makes the crawl last a few seconds, so there is a middle to kill in.
SLOW_ENOUGH = "0.2"


@pytest.fixture
def web() -> Iterator[TestWeb]:
    with TestWeb(seed=5, rounds=2) as started:
        yield started


def _posts(web: TestWeb) -> set[str]:
    return {p.post_id for s in web.truth().sites if s.name in GENERATED for p in s.posts}


def _check_against_truth(web: TestWeb, db: DatabaseTarget) -> None:
    truth = web.truth()
    docs = stored_documents(db)
    ids = [post.post_id for doc in docs if (post := post_of(truth, doc.response_url))]
    assert len(ids) == len(docs)  # every document is a post of the test web
    assert sorted(ids) == sorted(_posts(web))  # every post once: none lost, none twice
    assert all(doc.text for doc in docs)  # every document extracted
    states = _item_states(db)
    assert set(states) <= {"stored", "duplicate"}, states


def test_sigkill_mid_crawl_then_restart(web: TestWeb, database: DatabaseTarget) -> None:
    db = database
    subscribe(db, web.feed_urls("good"))
    watch = subprocess.Popen(feedsift_command(db, "watch", "--delay", SLOW_ENOUGH),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    try:
        wait_for_rows(db, "documents", 4, watch)
    finally:
        watch.send_signal(signal.SIGKILL)
        watch.wait()
    assert count_rows(db, "documents") < len(_posts(web))  # killed in the middle
    web.advance()  # and the sites published meanwhile
    rerun = subprocess.run(feedsift_command(db, "crawl", "--once", "--all", "--delay", "0"),
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert rerun.returncode == 0, rerun.stderr
    _check_against_truth(web, db)


def test_sigterm_finishes_work_in_flight_and_exits_cleanly(
    web: TestWeb, database: DatabaseTarget
) -> None:
    db = database
    subscribe(db, web.feed_urls("good"))
    watch = subprocess.Popen(feedsift_command(db, "watch", "--delay", SLOW_ENOUGH),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    wait_for_rows(db, "documents", 3, watch)
    watch.send_signal(signal.SIGTERM)
    out, err = watch.communicate(timeout=30)
    assert watch.returncode == 0, err
    assert "finishing the work in flight" in err and "watch:" in out
    ((unextracted,),) = query(
        db,
        "SELECT COUNT(*) FROM documents d LEFT JOIN articles a ON a.document_id = d.id"
        " WHERE a.id IS NULL",
    )
    assert unextracted == 0  # what was fetched before the stop was extracted and stored
    rerun = subprocess.run(feedsift_command(db, "crawl", "--once", "--all", "--delay", "0"),
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert rerun.returncode == 0, rerun.stderr
    _check_against_truth(web, db)


def _wait_until_settled(
    db: DatabaseTarget, process: subprocess.Popen[str], seconds: float = 15
) -> None:
    """Wait until no item is left ``new`` and every document has its article."""
    deadline = time.monotonic() + seconds
    while "new" in _item_states(db) or count_rows(db, "articles") < count_rows(db, "documents"):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, f"items still pending: {_item_states(db)}"
        time.sleep(0.05)


def _item_states(db: DatabaseTarget) -> dict[str, int]:
    rows = query(db, "SELECT state, COUNT(*) FROM items GROUP BY state")
    return {str(state): int(count) for state, count in rows}  # type: ignore[call-overload]


@pytest.mark.parametrize("command", [("crawl", "--once"), ("watch",)], ids=["crawl", "watch"])
def test_items_left_new_are_fetched_at_start_not_when_their_feed_is_due(
    web: TestWeb, database: DatabaseTarget, command: tuple[str, ...]
) -> None:
    db = database
    feed = web.feed_urls("good")[0]
    subscribe(db, [feed])
    poll_only(db, feed)
    left = _item_states(db)
    assert set(left) == {"new"} and count_rows(db, "documents") == 0
    process = subprocess.Popen(feedsift_command(db, *command, "--delay", "0"), text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    if command == ("watch",):
        _wait_until_settled(db, process)
        process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "0 feed polls" in out  # the feed was not due: the items came from the resume
    states = _item_states(db)
    assert set(states) <= {"stored", "duplicate"} and sum(states.values()) == left["new"]
    assert count_rows(db, "articles") == count_rows(db, "documents") >= 1

"""Claims on shared work (``storage/claims.py``), on SQLite and on PostgreSQL: two stores
on one database are two workers; a worker whose process died, or whose lease ran out,
leaves its work to the others."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from conftest import LoopbackServer
from crawl_helpers import count_rows, crawl_once, query, subscribe
from feedsift.crawl.templating import TemplateOptions
from feedsift.records import Article, BodyPart, Provenance
from feedsift.storage import ItemRecord, NewArticle, NewDocument, NewItem, Store
from feedsift.storage.claims import LEASE
from feedsift.storage.columns import moment_to_db
from feedsift.storage.location import DatabaseTarget

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
FEEDS = ("http://a.example/feed", "http://b.example/feed", "http://c.example/feed")


@pytest.fixture
def stores(database: DatabaseTarget) -> Iterator[tuple[Store, Store]]:
    """Two workers on one database holding three due feeds, one item each."""
    with Store(database) as first, Store(database) as second:
        with first.transaction():
            for url in FEEDS:
                first.feeds.add(url, url.split("/")[2], now=NOW, interval=3600)
            for feed in first.feeds.all():
                item = NewItem(f"k{feed.id}", f"http://{feed.site}/post", "T", "", None)
                first.items.add(feed.id, feed.site, [item], NOW)
        yield first, second


def _claim_all(store: Store, now: datetime = NOW) -> list[str]:
    urls = []
    while (feed := store.feeds.claim_next(now, polled_before=now)) is not None:
        urls.append(feed.url)
    return urls


def _die_holding_claims(database: DatabaseTarget) -> None:
    """A process claims every feed and item, stores a document, then dies holding them."""
    script = textwrap.dedent(f"""
        import os
        from datetime import datetime, UTC
        from feedsift.storage import NewDocument, Store
        now = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
        store = Store({str(database)!r})
        while store.feeds.claim_next(now, polled_before=now):
            pass
        for item in store.items.pending():
            assert store.items.claim(item.id, now)
        document = NewDocument("k", "a.example", "u", "u", 200, (), b"x", now, 0.1)
        document_id, _ = store.documents.add(document)
        store.documents.claim(document_id, now)
        os._exit(0)  # no goodbye: as a SIGKILL leaves it
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


def _when_orphaned(store: Store, seconds: float = 5) -> list[ItemRecord]:
    """The orphaned items once there are some (PostgreSQL ends a dead client's server
    process within moments, not in the same instant)."""
    deadline = time.monotonic() + seconds
    while not (orphans := store.items.orphaned(NOW)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return orphans


def test_two_workers_never_claim_the_same_feed(stores: tuple[Store, Store]) -> None:
    first, second = stores
    feed = first.feeds.claim_next(NOW, polled_before=NOW)
    assert feed is not None and feed.url == FEEDS[0]
    assert _claim_all(second) == list(FEEDS[1:])
    assert _claim_all(first) == []  # what is claimed, by anyone alive, is not free
    with first.transaction():
        first.feeds.release(feed.id)
    assert _claim_all(second) == [FEEDS[0]]


def test_a_feed_polled_this_round_or_not_due_is_not_claimed(stores: tuple[Store, Store]) -> None:
    first, _ = stores
    assert first.feeds.claim_next(NOW - timedelta(seconds=1), polled_before=NOW) is None
    feed = first.feeds.claim_next(NOW, polled_before=NOW - timedelta(hours=1), due=False)
    assert feed is not None  # --all: whatever its schedule, once per round
    with first.transaction():
        first.feeds.release(feed.id)
        first.connection.execute("UPDATE feeds SET last_polled_at = ?", (moment_to_db(NOW),))
    assert first.feeds.claim_next(NOW, polled_before=NOW, due=False) is None


def test_an_item_is_fetched_by_one_worker_and_settling_ends_the_claim(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    item = first.items.pending()[0]
    assert first.items.claim(item.id, NOW)
    assert not second.items.claim(item.id, NOW) and not first.items.claim(item.id, NOW)
    assert second.items.orphaned(NOW) == []  # its worker is alive, its lease holds
    with first.transaction():
        first.items.settle(item.id, "stored", None)
    assert not second.items.claim(item.id, NOW)  # done: not pending any more
    (claimed_by,) = first.connection.execute(
        "SELECT claimed_by FROM items WHERE id = ?", (item.id,)
    ).fetchone()
    assert claimed_by is None


def test_a_lease_that_ran_out_frees_the_work_of_a_live_worker(stores: tuple[Store, Store]) -> None:
    first, second = stores
    item = first.items.pending()[0]
    assert first.items.claim(item.id, NOW)
    later = NOW + LEASE + timedelta(seconds=1)
    if first.connection.worker != second.connection.worker:  # SQLite: one per process
        assert [orphan.id for orphan in second.items.orphaned(later)] == [item.id]
    assert second.items.claim(item.id, later)
    assert _claim_all(first) == list(FEEDS)
    assert _claim_all(second, later) == list(FEEDS)


def test_the_work_of_a_worker_that_died_is_free_at_once(database: DatabaseTarget) -> None:
    with Store(database) as survivor:
        with survivor.transaction():
            survivor.feeds.add(FEEDS[0], "a.example", now=NOW, interval=3600)
            (feed,) = survivor.feeds.all()
            survivor.items.add(feed.id, "a.example", [NewItem("k", "http://a/p", "T", "", None)],
                               NOW)  # fmt: skip
        _die_holding_claims(database)
        (orphan,) = _when_orphaned(survivor)
        assert survivor.items.claim(orphan.id, NOW)
        assert _claim_all(survivor) == [FEEDS[0]]
        assert len(survivor.documents.claim_unextracted(NOW, orphaned=True)) == 1
        assert survivor.documents.claim_unextracted(NOW) == []  # ours now


def test_unextracted_documents_are_claimed_once_and_freed_by_their_article(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    with first.transaction():
        document_id, _ = first.documents.add(
            NewDocument("k", "a.example", "u", "u", 200, (), b"<p>x</p>", NOW, 0.1)
        )
        first.documents.claim(document_id, NOW)
    assert second.documents.claim_unextracted(NOW) == []  # the storing worker extracts it
    assert second.documents.claim_unextracted(NOW, orphaned=True) == []
    article = Article((BodyPart("paragraph", "x"),), "T", Provenance("page", "v1", 0.9))
    with first.transaction():
        first.articles.add(NewArticle(document_id, "a.example", "u", article, "h", 1, NOW, 0.1))
        first.documents.release(document_id)
    assert first.documents.claim_unextracted(NOW) == []
    assert second.connection.execute(
        "SELECT COUNT(*) FROM documents WHERE claimed_by IS NOT NULL"
    ).fetchone()[0] == 0  # fmt: skip


def test_a_failed_extraction_is_held_while_its_worker_lives(stores: tuple[Store, Store]) -> None:
    first, second = stores
    with first.transaction():
        document_id, _ = first.documents.add(
            NewDocument("k", "a.example", "u", "u", 200, (), b"", NOW, 0.1)
        )
        first.documents.hold(document_id)
    far = NOW + 10 * LEASE
    assert second.documents.claim_unextracted(far, orphaned=True) == []
    first.release_claims()
    assert second.documents.claim_unextracted(far) == [document_id]  # a later start retries


def test_postgres_claims_skip_rows_another_transaction_is_claiming(postgres_url: str) -> None:
    """FOR UPDATE SKIP LOCKED: a worker does not wait for, nor take, a row another is in the
    middle of claiming."""
    with Store(postgres_url) as first, Store(postgres_url) as second:
        with first.transaction():
            for url in FEEDS[:2]:
                first.feeds.add(url, url.split("/")[2], now=NOW, interval=3600)
        second.connection.execute("SET statement_timeout = '5s'")  # fail, not hang
        with first.transaction():
            mine = first.feeds.claim_next(NOW, polled_before=NOW)
            theirs = second.feeds.claim_next(NOW, polled_before=NOW)
            assert mine is not None and theirs is not None and mine.url != theirs.url
            assert second.feeds.claim_next(NOW, polled_before=NOW) is None


def test_postgres_a_site_is_crawled_by_one_process_at_a_time(postgres_url: str) -> None:
    """Two feeds of one site: while one worker holds one of them, the other worker takes a
    feed of another site, also when both pick that site at the same moment."""
    feeds = ("http://a.example/feed", "http://a.example/tag/x/feed", "http://b.example/feed")
    with Store(postgres_url) as first, Store(postgres_url) as second:
        with first.transaction():
            for url in feeds:
                first.feeds.add(url, url.split("/")[2], now=NOW, interval=3600)
        taken: list[str | None] = []

        def second_claims() -> None:
            with second.transaction():
                feed = second.feeds.claim_next(NOW, polled_before=NOW)
            taken.append(feed.site if feed else None)

        with first.transaction():
            mine = first.feeds.claim_next(NOW, polled_before=NOW)
            assert mine is not None and mine.site == "a.example"
            racer = threading.Thread(target=second_claims)
            racer.start()  # picks a.example's other feed, then waits on the site's lock
            time.sleep(0.5)
            assert racer.is_alive()
        racer.join(10)
        assert taken == ["b.example"]  # a.example is ours: it took the other site
        again = first.feeds.claim_next(NOW, polled_before=NOW)  # the same worker: welcome
        assert again is not None and again.url == feeds[1]


# --- within one process ---------------------------------------------------------------------


def _rss(web: LoopbackServer, title: str, link: str) -> bytes:
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{title}</title>'
            f"<link>{web.url('/')}</link><item><title>{title}: the post</title>"
            f"<link>{link}</link><description>{title}</description></item></channel></rss>"
            ).encode()  # fmt: skip


def test_two_items_linking_one_page_fetch_it_once(
    web: LoopbackServer, database: DatabaseTarget, article_html: bytes
) -> None:
    """Two feeds of a site (polled at once) list one post under two items: its page is
    fetched once, and the second item finds it stored."""
    page = web.route("/post", article_html, delay=0.3)  # both fetches would be in flight
    feeds = [web.route(f"/feed{n}.xml", _rss(web, f"Feed {n}", page),
                       content_type="application/rss+xml") for n in (1, 2)]  # fmt: skip
    subscribe(database, feeds)
    crawl_once(database, templates=TemplateOptions(learn=False))
    assert [path for path, _ in web.requests].count("/post") == 1
    states = sorted(str(state) for (state,) in query(database, "SELECT state FROM items"))
    assert states == ["duplicate", "stored"] and count_rows(database, "documents") == 1

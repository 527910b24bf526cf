"""The store on SQLite and on PostgreSQL (the ``database`` fixture gives each test both):
migrations, transactions, each table's reads and writes, and what differs per database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from feedsift.cli.store_args import db_type, default_db
from feedsift.errors import StorageError
from feedsift.records import Article, BodyPart, PageKind, Provenance
from feedsift.storage import (
    SCHEMA_VERSION,
    ErrorRecord,
    FeedUpdate,
    NewArticle,
    NewDocument,
    NewItem,
    SavedSiteModel,
    Store,
    feed_stats,
    site_stats,
)
from feedsift.storage.dialect import pyformat
from feedsift.storage.location import DatabaseTarget, describe_target
from feedsift.storage.migrations import schema_version

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


@pytest.fixture
def store(database: DatabaseTarget) -> Iterator[Store]:
    with Store(database) as opened:
        yield opened


def _document(key: str = "http://a.example/p", body: bytes = b"<p>x</p>") -> NewDocument:
    return NewDocument(key, "a.example", key + "?utm=1", key, 200,
                       (("Content-Type", "text/html"),), body, NOW, 0.01)  # fmt: skip


def _article(text: str = "Some body text.") -> Article:
    return Article((BodyPart("paragraph", text),), "A title", Provenance("page", "v1", 0.9),
                   url="http://a.example/p", published=NOW)  # fmt: skip


def test_new_database_is_current(store: Store) -> None:
    assert schema_version(store.connection) == SCHEMA_VERSION
    assert store.database.previous_version == 0


def test_new_sqlite_database_is_wal(tmp_path: Path) -> None:
    with Store(tmp_path / "feedsift.db") as store:
        assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_reopening_keeps_data_and_version(database: DatabaseTarget) -> None:
    with Store(database) as store, store.transaction():
        store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=3600)
    with Store(database) as store:
        assert store.database.previous_version == SCHEMA_VERSION
        assert [f.url for f in store.feeds.all()] == ["http://a.example/feed"]


def test_newer_sqlite_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StorageError, match="newer than this feedsift"):
        Store(path)


def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"these are not the droids " * 200)
    with pytest.raises(StorageError, match="not a feedsift database"):
        Store(path)


def test_missing_database_when_not_creating(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no such database"):
        Store(tmp_path / "nope.db", create=False)


# --- PostgreSQL's own cases ---------------------------------------------------------------


def test_newer_postgres_schema_is_refused(postgres_url: str) -> None:
    Store(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("UPDATE feedsift_schema SET version = version + 1")
    with pytest.raises(StorageError, match="newer than this feedsift"):
        Store(postgres_url)


def test_an_empty_postgres_database_is_not_read_as_a_feedsift_one(postgres_url: str) -> None:
    with pytest.raises(StorageError, match="no feedsift tables there"):
        Store(postgres_url, create=False)


def test_another_applications_postgres_database_is_a_clear_error(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("CREATE TABLE feeds (id serial, name text)")
    with pytest.raises(StorageError, match=r"not a feedsift database \(.*feeds"):
        Store(postgres_url)


def test_an_unreachable_server_is_one_line_without_the_password(postgres_url: str) -> None:
    closed = postgres_url.replace("feedsift@", "feedsift:s3cret@").rsplit(":", 1)[0] + ":1/x"
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL") as caught:
        Store(closed)
    assert "s3cret" not in str(caught.value) and "\n" not in str(caught.value)
    assert describe_target(closed).startswith("postgresql://feedsift:***@127.0.0.1")


def test_concurrent_first_opens_create_the_schema_once(postgres_url: str) -> None:
    first, second = Store(postgres_url), Store(postgres_url)  # the second finds it made
    with first, second:
        assert second.database.previous_version == SCHEMA_VERSION
        assert schema_version(second.connection) == SCHEMA_VERSION


def test_postgres_schema_types_hold_what_sqlite_holds(store: Store) -> None:
    """64-bit SimHashes, doubles and bytes survive the round trip (int4 and float4 would not)."""
    with store.transaction():
        doc, _ = store.documents.add(_document(body=bytes(range(256))))
        store.articles.add(NewArticle(doc, "a.example", "http://a.example/p", _article(), "h",
                                      (1 << 64) - 1, NOW, 1 / 3))  # fmt: skip
    record = store.documents.get(doc)
    assert record is not None and record.document.body == bytes(range(256))
    assert store.articles.fingerprints("a.example")[0][1] == (1 << 64) - 1
    (seconds,) = store.connection.execute("SELECT extract_seconds FROM articles").fetchone()
    assert seconds == 1 / 3


def test_placeholders_are_translated_outside_quotes_only() -> None:
    sql = "SELECT '?', ':x', \"a?\", x::text, 5 % 2 FROM t WHERE a = ? AND b = :name"
    assert pyformat(sql) == (
        "SELECT '?', ':x', \"a?\", x::text, 5 %% 2 FROM t WHERE a = %s AND b = %(name)s"
    )


def test_transaction_rolls_back_everything(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=3600)
        raise RuntimeError("killed between two writes")
    assert store.feeds.all() == []


def test_feed_schedule_and_error_state(store: Store) -> None:
    with store.transaction():
        assert store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=3600)
        assert not store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=9)
    (feed,) = store.feeds.due(NOW)
    failed = FeedUpdate(NOW, NOW + timedelta(minutes=5), 3600, 0.5, 500, "HTTP 500")
    with store.transaction():
        store.feeds.update(feed.id, failed)
    feed = store.feeds.get(feed.url)  # type: ignore[assignment]
    assert feed is not None and feed.error_count == 1 and feed.last_error == "HTTP 500"
    assert store.feeds.due(NOW) == [] and store.feeds.next_due() == NOW + timedelta(minutes=5)
    ok = FeedUpdate(NOW, NOW + timedelta(hours=1), 3600, 0.1, 200, etag='"v2"', title="A")
    with store.transaction():
        store.feeds.update(feed.id, ok)
    feed = store.feeds.get(feed.url)  # type: ignore[assignment]
    assert feed is not None
    assert (feed.error_count, feed.last_error, feed.etag, feed.title) == (0, None, '"v2"', "A")
    assert feed.polls == 2 and feed.last_ok_at == NOW


def test_items_are_unique_per_site_history_key(store: Store) -> None:
    with store.transaction():
        store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=3600)
        store.feeds.add("http://a.example/cat/feed", "a.example", now=NOW, interval=3600)
    one, two = store.feeds.all()
    item = NewItem("k1", "http://a.example/p", "T", "D", NOW)
    with store.transaction():
        assert store.items.add(one.id, "a.example", [item, item], NOW) == 1
        assert store.items.add(two.id, "a.example", [item], NOW) == 0
    (pending,) = store.items.pending()
    with store.transaction():
        store.items.fail(pending.id, "HTTP 503", final=False)
    assert store.items.pending()[0].state == "retry"
    with store.transaction():
        store.items.fail(pending.id, "HTTP 503", final=True)
    assert store.items.pending() == []


def test_documents_are_unique_per_url_key(store: Store) -> None:
    with store.transaction():
        first, new = store.documents.add(_document(body=b"<p>one</p>"))
        again, new_again = store.documents.add(_document(body=b"<p>two</p>"))
    assert new and not new_again and first == again
    record = store.documents.get(first)
    assert record is not None and record.document.body == b"<p>one</p>"
    assert record.document.header("content-type") == "text/html"
    assert store.documents.response_url_of("http://a.example/p?utm=1") == "http://a.example/p"
    assert store.documents.without_article() == [first]


def test_articles_round_trip_and_filter_duplicates(store: Store) -> None:
    with store.transaction():
        doc_a, _ = store.documents.add(_document("http://a.example/a"))
        doc_b, _ = store.documents.add(_document("http://a.example/b"))
    first = NewArticle(doc_a, "a.example", "http://a.example/a", _article(), "h1",
                       (1 << 64) - 5, NOW, 0.02)  # fmt: skip
    with store.transaction():
        first_id = store.articles.add(first)
        assert store.articles.add(first) is None  # one article per document
        store.articles.add(NewArticle(doc_b, "a.example", "http://a.example/b", _article(),
                                      "h1", 7, NOW, 0.02, duplicate_of=first_id))  # fmt: skip
    assert store.articles.with_hash("a.example", "h1") == first_id
    assert store.articles.fingerprints("a.example") == [(first_id, (1 << 64) - 5)]
    (stored,) = store.articles.stream()
    assert stored.article == _article() and stored.article.kind is PageKind.ARTICLE
    assert len(list(store.articles.stream(duplicates=True))) == 2
    assert list(store.articles.stream(since=NOW + timedelta(seconds=1))) == []
    assert list(store.articles.stream(site="b.example")) == []
    assert store.documents.without_article() == []


def test_stats_and_errors(store: Store) -> None:
    with store.transaction():
        store.feeds.add("http://a.example/feed", "a.example", now=NOW, interval=3600)
        (feed,) = store.feeds.all()
        store.items.add(feed.id, "a.example", [NewItem("k", "http://a.example/p", "T", "", None)],
                        NOW)  # fmt: skip
        store.errors.add(ErrorRecord(NOW, "page", feed.id, "http://a.example/x", "HTTP 404"))
        store.documents.add(_document())
    (fs,) = feed_stats(store.connection)
    assert (fs.items, fs.pending, fs.stored) == (1, 1, 0)
    (ss,) = site_stats(store.connection)
    assert (ss.site, ss.documents, ss.articles, ss.errors) == ("a.example", 1, 0, 1)
    assert store.errors.recent(5)[0].reason == "HTTP 404"


def test_site_models_save_replace_and_name_what_to_replay(store: Store) -> None:
    ids = []
    with store.transaction():
        for n in range(5):
            doc, _ = store.documents.add(_document(f"http://a.example/{n}"))
            url = f"http://a.example/{n}"
            text = _article(f"text {n}")
            article = NewArticle(doc, "a.example", url, text, f"h{n}", n, NOW, 0.01)
            store.articles.add(article)
            ids.append(doc)
        unextracted, _ = store.documents.add(_document("http://a.example/late"))
    assert store.site_models.to_replay(limit=3) == ids[2:]  # newest 3, none saved yet
    with store.transaction():
        store.site_models.save(SavedSiteModel("a.example", b"one", ids[1], 2, NOW))
        store.site_models.save(SavedSiteModel("a.example", b"two", ids[3], 4, NOW))
    saved = store.site_models.get("a.example")
    assert saved == SavedSiteModel("a.example", b"two", ids[3], 4, NOW)
    assert store.site_models.to_replay(limit=10) == [ids[4]]  # not the unextracted one
    assert store.site_models.sites() == [("a.example", 4)]
    assert store.documents.count_of_site("a.example") == 6 and unextracted > ids[4]
    assert store.documents.last_fetched("a.example") == NOW
    assert store.documents.last_fetched("b.example") is None


def test_db_is_a_postgres_url_or_a_sqlite_path(monkeypatch: pytest.MonkeyPatch) -> None:
    assert db_type("postgresql://me@dbhost/feedsift") == "postgresql://me@dbhost/feedsift"
    assert db_type("Postgres://dbhost/feedsift?sslmode=require") == (
        "Postgres://dbhost/feedsift?sslmode=require"
    )
    assert db_type("postgresql.db") == Path("postgresql.db")
    monkeypatch.setenv("FEEDSIFT_DB", "postgresql://me:s3cret@dbhost:5433/feedsift")
    assert default_db() == "postgresql://me:s3cret@dbhost:5433/feedsift"
    assert describe_target(default_db()) == "postgresql://me:***@dbhost:5433/feedsift"
    monkeypatch.setenv("FEEDSIFT_DB", "")
    assert default_db() == Path("feedsift.db")

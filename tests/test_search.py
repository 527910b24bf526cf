"""Full-text search: the index of migration 6 (FTS5 in SQLite, a ``tsvector`` with each
article's language in PostgreSQL), ``feedsift search`` and ``feedsift.search``, on stores
written through the store's own API and on the demo's database (the whole pipeline against
the loopback test web), on both databases where they agree and on each where they differ."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import feedsift
from feedsift.cli.main import main
from feedsift.records import Article, BodyPart, Provenance
from feedsift.storage import NewArticle, NewDocument, SearchQuery, Store, StoredArticle
from feedsift.storage.articles import ArticleTable
from feedsift.storage.location import DatabaseTarget
from feedsift.storage.migrations import MIGRATIONS
from feedsift.storage.pg_search import websearch_text
from feedsift.testweb import TestWeb, TruthPost
from pg_server import PostgresServer

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Doc:
    """One article to store: where, what, when it arrived, and whether it is a duplicate."""

    site: str
    title: str
    text: str
    age_days: int = 0
    duplicate: bool = False
    language: str | None = "en"  #: PostgreSQL stems an article in its language


DOCS = (
    Doc("coast.example.org", "How the lighthouse keepers kept time",
        "Every lighthouse kept a log book in which the keepers wrote the time of each "
        "lamp change.", age_days=30),
    Doc("coast.example.org", "Storms of the northern coast",
        "The storm broke at dawn. Old keepers say a lighthouse is only as good as its "
        "lamp, and the lamp only as good as its keeper.", age_days=2),
    Doc("news.example.org", "Elections in Zürich",
        "Voters went to the polls on Sunday; running the election took three days."),
    Doc("news.example.org", "Elections in Zürich",
        "Voters went to the polls on Sunday; running the election took three days.",
        duplicate=True),
    Doc("birds.example.org", "Winter weight",
        "Small birds lose a surprising share of their body weight on a cold night."),
)  # fmt: skip


def _document(url: str, site: str) -> NewDocument:
    return NewDocument(url, site, url, url, 200, (("Content-Type", "text/html"),),
                       b"<p>stored</p>", NOW, 0.01)  # fmt: skip


def _add(articles: ArticleTable, document_id: int, number: int, doc: Doc, first: int | None) -> int:
    url = f"https://{doc.site}/{number}"
    article = Article((BodyPart("paragraph", doc.text),), doc.title,
                      Provenance("page", "v1", 0.9), url=url, language=doc.language)  # fmt: skip
    new = NewArticle(document_id, doc.site, url, article,
                     f"hash{number}", number, NOW - timedelta(days=doc.age_days), 0.01,
                     duplicate_of=first if doc.duplicate else None)  # fmt: skip
    added = articles.add(new)
    assert added is not None
    return added


def _fill(store: Store, docs: Sequence[Doc] = DOCS) -> list[int]:
    """Store ``docs`` through the store's write API; return the articles' ids."""
    ids: list[int] = []
    with store.transaction():
        for number, doc in enumerate(docs):
            document_id, _ = store.documents.add(
                _document(f"https://{doc.site}/{number}", doc.site)
            )
            ids.append(_add(store.articles, document_id, number, doc, ids[0] if ids else None))
    return ids


def _filled(target: DatabaseTarget, docs: Sequence[Doc] = DOCS) -> Iterator[Store]:
    with Store(target) as store:
        _fill(store, docs)
        yield store


@pytest.fixture
def db(database: DatabaseTarget) -> Iterator[Store]:
    """DOCS stored in SQLite, then in PostgreSQL."""
    yield from _filled(database)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Store]:
    yield from _filled(tmp_path / "feedsift.db")


@pytest.fixture
def pg_db(postgres_url: str) -> Iterator[Store]:
    yield from _filled(postgres_url)


def _titles(store: Store, text: str, **options: object) -> list[str | None]:
    return [hit.title for hit in store.fulltext.search(SearchQuery(text, **options))]  # type: ignore[arg-type]


# --- the index and its queries -------------------------------------------------------------


def test_a_match_in_the_title_ranks_above_one_in_the_text(db: Store) -> None:
    hits = db.fulltext.search(SearchQuery("lighthouse"))
    assert [hit.title for hit in hits] == [
        "How the lighthouse keepers kept time",
        "Storms of the northern coast",
    ]
    assert hits[0].score > hits[1].score > 0
    assert hits[0].site == "coast.example.org" and hits[0].url == "https://coast.example.org/0"


def test_snippets_mark_the_matches(sqlite_db: Store) -> None:
    (hit,) = sqlite_db.fulltext.search(SearchQuery('"body weight"'))
    assert hit.snippet == (
        "Small birds lose a surprising share of their **body weight** on a cold night."
    )
    (hit,) = sqlite_db.fulltext.search(SearchQuery("storm", marks=("<b>", "</b>")))
    assert hit.snippet.startswith("The <b>storm</b> broke at dawn.")


def test_words_match_by_stem_without_case_or_accents(sqlite_db: Store) -> None:
    assert _titles(sqlite_db, "zurich election") == ["Elections in Zürich"]
    assert _titles(sqlite_db, "ELECTIONS run") == ["Elections in Zürich"]
    assert _titles(sqlite_db, "keep*") == [
        "How the lighthouse keepers kept time",
        "Storms of the northern coast",
    ]


def test_query_syntax_phrases_or_not_and_columns(sqlite_db: Store) -> None:
    assert _titles(sqlite_db, '"log book"') == ["How the lighthouse keepers kept time"]
    assert _titles(sqlite_db, "storm OR birds") == ["Storms of the northern coast", "Winter weight"]
    assert _titles(sqlite_db, "lighthouse NOT storm") == ["How the lighthouse keepers kept time"]
    assert _titles(sqlite_db, "title:lamp") == []
    assert _titles(sqlite_db, "text:lamp") == [
        "Storms of the northern coast",  # "lamp" twice in a shorter text
        "How the lighthouse keepers kept time",
    ]


def test_filters_site_arrival_and_duplicates(db: Store) -> None:
    assert _titles(db, "lighthouse", site="WWW.Coast.example.org") == [
        "How the lighthouse keepers kept time",
        "Storms of the northern coast",
    ]
    assert _titles(db, "lighthouse", site="news.example.org") == []
    assert _titles(db, "lighthouse", since=NOW - timedelta(days=7)) == [
        "Storms of the northern coast"
    ]
    assert _titles(db, "elections") == ["Elections in Zürich"]
    assert _titles(db, "elections", duplicates=True) == ["Elections in Zürich"] * 2


def test_limit_and_count(db: Store) -> None:
    query = SearchQuery("lighthouse OR elections OR birds", limit=2)
    assert len(db.fulltext.search(query)) == 2
    assert db.fulltext.count(query) == 4


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ('"lighthouse', "a double quote is not closed"),
        ("c++", 'put words with punctuation in double quotes, e.g. "c++"'),
        ("author:jane", "no such column: author"),
        ("lighthouse AND", "syntax error"),
        ("   ", "empty search query"),
    ],
)
def test_a_query_fts5_cannot_read_is_an_input_error(
    sqlite_db: Store, query: str, reason: str
) -> None:
    with pytest.raises(feedsift.InputError, match=re.escape(reason)):
        sqlite_db.fulltext.search(SearchQuery(query))


def _check_index(store: Store) -> None:
    """SQLite: FTS5's own check that the index holds what the articles hold."""
    if not store.database.is_postgres:  # PostgreSQL's index is a generated column's
        store.connection.execute(
            "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')"
        )


def test_the_index_follows_deletes_of_documents(db: Store) -> None:
    with db.transaction():
        db.connection.execute("DELETE FROM documents WHERE url_key = 'https://birds.example.org/4'")
    assert _titles(db, "birds") == []
    _check_index(db)


def test_the_index_follows_updates(db: Store) -> None:
    with db.transaction():
        db.connection.execute(
            "UPDATE articles SET title = 'Spring plumage' WHERE url = 'https://birds.example.org/4'"
        )
    assert _titles(db, "plumage") == ["Spring plumage"]
    assert _titles(db, "winter") == []
    _check_index(db)


def test_sqlite_columns_restrict_a_match(sqlite_db: Store) -> None:
    with sqlite_db.transaction():
        sqlite_db.connection.execute(
            "UPDATE articles SET title = 'Winter plumage' WHERE url = 'https://birds.example.org/4'"
        )
    assert _titles(sqlite_db, "title:plumage") == ["Winter plumage"]
    assert _titles(sqlite_db, "title:weight") == []


# --- PostgreSQL: each article in its language, web search syntax ---------------------------

GERMAN = Doc("zeitung.example.de", "Wahlen in Zürich",
             "Die Wähler gingen am Sonntag an die Urnen; die Auszählung dauerte drei Tage.",
             language="de-CH")  # fmt: skip


def test_postgres_stems_each_article_in_its_language(postgres_url: str) -> None:
    untagged = Doc("x.example.org", "Keepers' notes", "The keepers counted.", language=None)
    for store in _filled(postgres_url, (*DOCS, GERMAN, untagged)):
        assert _titles(store, "ELECTIONS run") == ["Elections in Zürich"]  # English stems
        assert _titles(store, "Zürich wahl") == ["Wahlen in Zürich"]  # German: Wahlen, Wähler
        assert _titles(store, "keeper") == [  # an article without a language: not stemmed
            "How the lighthouse keepers kept time",
            "Storms of the northern coast",
        ]
        configs = dict(store.connection.execute("SELECT title, search_config::text FROM articles"))
        assert configs["Wahlen in Zürich"] == "german" and configs["Keepers' notes"] == "simple"


def test_postgres_reads_web_search_syntax_and_ftss_not(pg_db: Store) -> None:
    assert _titles(pg_db, '"log book"') == ["How the lighthouse keepers kept time"]
    assert _titles(pg_db, '"book log"') == []
    assert _titles(pg_db, "storm OR birds") == ["Storms of the northern coast", "Winter weight"]
    assert _titles(pg_db, "lighthouse NOT storm") == ["How the lighthouse keepers kept time"]
    assert _titles(pg_db, "lighthouse -storm") == ["How the lighthouse keepers kept time"]
    assert _titles(pg_db, "lighthouse AND storm") == ["Storms of the northern coast"]
    assert websearch_text('"NOT storm" NOT lamp AND NOTE') == '"NOT storm" -lamp   NOTE'
    assert _titles(pg_db, "lamp") == [
        "Storms of the northern coast",  # "lamp" twice in a shorter text
        "How the lighthouse keepers kept time",
    ]


def test_postgres_snippets_mark_the_matches(pg_db: Store) -> None:
    (hit,) = pg_db.fulltext.search(SearchQuery('"body weight"'))
    assert hit.snippet == "lose a surprising share of their **body** **weight** on a cold night."
    (hit,) = pg_db.fulltext.search(SearchQuery("storm", marks=('<b class="m">', "</b>")))
    assert hit.snippet.startswith('<b class="m">storm</b> broke at dawn.')
    (hit,) = pg_db.fulltext.search(SearchQuery("winter"))  # in the title only: the text's start
    assert hit.snippet.startswith("Small birds lose") and "**" not in hit.snippet


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("title:lamp", "'title:' is SQLite FTS5 syntax"),
        ("keep*", "'p*' is SQLite FTS5 syntax"),
        ("NEAR(lamp keeper)", "'NEAR(' is SQLite FTS5 syntax"),
        ("   ", "empty search query"),
    ],
)
def test_postgres_refuses_fts5_only_syntax_with_a_reason(
    pg_db: Store, query: str, reason: str
) -> None:
    with pytest.raises(feedsift.InputError, match=re.escape(reason)):
        pg_db.fulltext.search(SearchQuery(query))


def test_postgres_search_uses_the_gin_index(pg_db: Store) -> None:
    from feedsift.storage.pg_search import _where

    where, params = _where(SearchQuery("lighthouse"))
    pg_db.connection.execute("SET enable_seqscan = off")  # as a big table would make it
    plan = " ".join(row[0] for row in pg_db.connection.execute("EXPLAIN SELECT a.id " + where,
                                                                params))  # fmt: skip
    assert "Bitmap Index Scan on articles_search" in plan


def test_postgres_stores_and_finds_a_huge_text(pg_db: Store) -> None:
    """A text of distinct words whose whole tsvector would pass PostgreSQL's 1 MiB limit is
    stored (indexed up to its first 300,000 characters), not refused."""
    words = " ".join(f"w{n:07d}x" for n in range(150_000))  # 1.5 MB, all distinct
    (article_id,) = _fill(pg_db, (Doc("big.example.org", "A huge page", words),))
    assert [hit.article_id for hit in feedsift.search(pg_db, "w0000042x")] == [article_id]
    assert feedsift.search(pg_db, "w0149999x") == []  # past the indexed part


def test_an_older_database_is_migrated_and_its_articles_indexed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    connection = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:5]:
        connection.executescript(migration.sql)
    connection.execute("PRAGMA user_version = 5")
    for number, doc in enumerate(DOCS[:2]):
        url = f"https://{doc.site}/{number}"
        cursor = connection.execute(
            "INSERT INTO documents (url_key, site, request_url, response_url, status, headers,"
            " body, body_size, fetched_at, fetch_seconds) VALUES (?, ?, ?, ?, 200, '[]', x'', 0,"
            " '2026-11-22T08:00:00.000000+00:00', 0)",
            (url, doc.site, url, url),
        )
        assert cursor.lastrowid is not None
        _add(ArticleTable(connection), cursor.lastrowid, number, doc, None)
    connection.close()
    with Store(path, create=False) as store:
        assert store.database.previous_version == 5
        assert _titles(store, "lighthouse") == [DOCS[0].title, DOCS[1].title]


# --- from Python and the command line ------------------------------------------------------


def test_search_from_python_takes_a_path_or_a_store(db: Store) -> None:
    (by_path,) = feedsift.search(db.path, "birds", site="birds.example.org")
    (by_store,) = feedsift.search(db, "birds")
    assert by_path == by_store
    assert by_path.title == "Winter weight" and by_path.kind == "article"
    assert by_path.extracted_at == NOW and by_path.published is None
    with pytest.raises(feedsift.StorageError, match=r"no such database|does not exist"):
        feedsift.search(_missing(db), "birds")


def _missing(store: Store) -> str:
    """A database next to ``store``'s that does not exist (a file, or a PostgreSQL one)."""
    if isinstance(store.path, Path):
        return str(store.path.with_name("missing.db"))
    return store.path.rsplit("/", 1)[0] + "/missing"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["search", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_lists_hits_for_reading(capsys: pytest.CaptureFixture[str], db: Store) -> None:
    status, out, err = run(capsys, "lighthouse", "keepers", "--db", str(db.path))
    assert status == 0 and err == "2 articles match\n"
    lines = out.splitlines()
    assert lines[0] == " 1. How the lighthouse keepers kept time"
    assert lines[1] == "    coast.example.org · https://coast.example.org/0"
    assert lines[2].startswith("    ") and "**lighthouse** kept a log book" in lines[2]
    assert "**keepers**" in lines[2] and lines[4] == " 2. Storms of the northern coast"


def test_cli_json_and_jsonl(capsys: pytest.CaptureFixture[str], db: Store) -> None:
    status, out, err = run(
        capsys, "lighthouse", "-f", "jsonl", "--limit", "1", "--db", str(db.path)
    )
    (hit,) = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and err == "2 articles match; the best 1 shown (--limit 1)\n"
    assert hit["title"] == "How the lighthouse keepers kept time"
    assert hit["extracted_at"] == "2026-10-23T08:00:00+00:00" and hit["score"] > 0
    assert set(hit) == {"article_id", "site", "url", "title", "kind", "published",
                        "extracted_at", "score", "snippet"}  # fmt: skip
    _, out, _ = run(capsys, "lighthouse", "--site", "coast.example.org", "-f", "json",
                    "--since", "2026-11-01", "--db", str(db.path))  # fmt: skip
    assert [hit["title"] for hit in json.loads(out)] == ["Storms of the northern coast"]
    status, out, err = run(capsys, "zebra", "-f", "json", "--db", str(db.path))
    assert (status, out, err) == (0, "[]\n", "no article matches\n")


def test_cli_a_bad_query_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], db: Store
) -> None:
    bad, reason = ("title:x", "'title:' is SQLite FTS5 syntax") if db.database.is_postgres else (
        "c++", "fts5: syntax error")  # fmt: skip
    status, out, err = run(capsys, bad, "--db", str(db.path))
    assert (status, out) == (1, "")
    assert err.startswith(f"feedsift: bad search query '{bad}': {reason}")
    assert len(err.splitlines()) == 1
    status, _, err = run(capsys, "x", "--db", _missing(db))
    assert status == 1 and len(err.splitlines()) == 1
    assert "no such database" in err or 'database "missing" does not exist' in err
    status, _, err = run(capsys, "x", "--limit", "0", "--db", str(db.path))
    assert status == 2 and "must be 1 or more" in err


# --- the demo's database -------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def demo(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, dict[str, TruthPost]]]:
    """The database ``feedsift demo`` leaves (a SQLite file, then a PostgreSQL database),
    and the test web's true posts by URL path.

    The demo's web is gone when it ends; one started with the same seed and rounds
    publishes the same posts (on other ports: posts are matched by path).
    """
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("demo") / "demo.db")
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        db = server.create_database()
        request.addfinalizer(lambda: server.drop_database(db))
    assert main(["demo", "--rounds", "1", "--no-faults", "--db", db]) == 0
    with TestWeb(seed=7, rounds=1) as web:
        posts = web.truth().posts()
    by_path = {urlsplit(post.url).path: post for post in posts}
    assert len(by_path) == len(posts)  # paths tell the posts apart
    with Store(db, create=False) as store:
        yield store, by_path


def _stored(store: Store, truth: dict[str, TruthPost]) -> list[tuple[StoredArticle, TruthPost]]:
    pairs = [(s, truth.get(urlsplit(s.url).path)) for s in store.articles.stream()]
    return [(stored, post) for stored, post in pairs if post is not None]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _phrase(text: str, start: int, words: int = 8) -> str:
    """``words`` words of ``text`` from word ``start`` as an FTS5 phrase."""
    return '"' + " ".join(_words(text)[start : start + words]) + '"'


def _unique_phrase(post: TruthPost, posts: Iterable[TruthPost], store: Store) -> str:
    """The first 8-word passage of the post's true text that no other true post holds (the
    test web writes its posts from shared phrases), as the store's search reads a phrase:
    word for word in SQLite; in PostgreSQL stemmed, stop words left out (English)."""
    others = [" ".join(_words(other.text)) for other in posts if other is not post]
    for start in range(len(_words(post.text))):
        phrase = _phrase(post.text, start)
        if not _held_by_any(store, phrase.strip('"'), others):
            return phrase
    raise AssertionError(f"no passage of {post.title!r} is its own")


def _held_by_any(store: Store, phrase: str, texts: list[str]) -> bool:
    if not store.database.is_postgres:
        return any(phrase in text for text in texts)
    (held,) = store.connection.execute(
        "SELECT COALESCE(bool_or(to_tsvector('english', t) @@ phraseto_tsquery('english', ?)),"
        " FALSE) FROM unnest(CAST(? AS text[])) AS t",
        (phrase, texts),
    ).fetchone()
    return bool(held)


def test_demo_each_article_is_found_by_its_true_title(
    demo: tuple[Store, dict[str, TruthPost]],
) -> None:
    store, truth = demo
    pairs = _stored(store, truth)
    assert len(pairs) >= 20  # the demo stores about 26 posts
    column = "" if store.database.is_postgres else "title:"  # PostgreSQL: the title ranks first
    if store.database.is_postgres:  # the test web's pages say lang="en": stemmed as English
        configs = store.connection.execute("SELECT DISTINCT search_config::text FROM articles")
        assert [config for (config,) in configs] == ["english"]
    for stored, post in pairs:
        hits = feedsift.search(store, f"{column}{_phrase(post.title, 0, 50)}")
        assert hits and hits[0].article_id == stored.id, post.title


def test_demo_a_passage_of_a_posts_true_text_finds_that_post(
    demo: tuple[Store, dict[str, TruthPost]],
) -> None:
    store, truth = demo
    for stored, post in _stored(store, truth):
        phrase = _unique_phrase(post, truth.values(), store)
        hits = feedsift.search(store, phrase)
        assert [hit.article_id for hit in hits] == [stored.id], (post.title, phrase)
        assert "**" in hits[0].snippet


def test_demo_search_through_the_command_line_with_a_site(
    capsys: pytest.CaptureFixture[str], demo: tuple[Store, dict[str, TruthPost]]
) -> None:
    store, truth = demo
    stored, post = _stored(store, truth)[0]
    phrase = _unique_phrase(post, truth.values(), store)
    status, out, _ = run(capsys, phrase, "--site", stored.site, "-f", "jsonl",
                         "--db", str(store.path))  # fmt: skip
    hits = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and hits[0]["url"] == stored.url
    assert {hit["site"] for hit in hits} == {stored.site}

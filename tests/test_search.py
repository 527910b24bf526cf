"""Full-text search: the FTS5 index kept by migration 6, ``feedsift search`` and
``feedsift.search``, on stores written through the store's own API and on the demo's
database (the whole pipeline against the loopback test web)."""

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
from feedsift.storage.migrations import MIGRATIONS
from feedsift.testweb import TestWeb, TruthPost

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Doc:
    """One article to store: where, what, when it arrived, and whether it is a duplicate."""

    site: str
    title: str
    text: str
    age_days: int = 0
    duplicate: bool = False


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
                      Provenance("page", "v1", 0.9), url=url)  # fmt: skip
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


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "feedsift.db") as store:
        _fill(store)
        yield store


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


def test_snippets_mark_the_matches(db: Store) -> None:
    (hit,) = db.fulltext.search(SearchQuery('"body weight"'))
    assert hit.snippet == (
        "Small birds lose a surprising share of their **body weight** on a cold night."
    )
    (hit,) = db.fulltext.search(SearchQuery("storm", marks=("<b>", "</b>")))
    assert hit.snippet.startswith("The <b>storm</b> broke at dawn.")


def test_words_match_by_stem_without_case_or_accents(db: Store) -> None:
    assert _titles(db, "zurich election") == ["Elections in Zürich"]
    assert _titles(db, "ELECTIONS run") == ["Elections in Zürich"]
    assert _titles(db, "keep*") == [
        "How the lighthouse keepers kept time",
        "Storms of the northern coast",
    ]


def test_query_syntax_phrases_or_not_and_columns(db: Store) -> None:
    assert _titles(db, '"log book"') == ["How the lighthouse keepers kept time"]
    assert _titles(db, "storm OR birds") == ["Storms of the northern coast", "Winter weight"]
    assert _titles(db, "lighthouse NOT storm") == ["How the lighthouse keepers kept time"]
    assert _titles(db, "title:lamp") == []
    assert _titles(db, "text:lamp") == [
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
def test_a_query_fts5_cannot_read_is_an_input_error(db: Store, query: str, reason: str) -> None:
    with pytest.raises(feedsift.InputError, match=re.escape(reason)):
        db.fulltext.search(SearchQuery(query))


def test_the_index_follows_deletes_of_documents(db: Store) -> None:
    with db.transaction():
        db.connection.execute("DELETE FROM documents WHERE url_key = 'https://birds.example.org/4'")
    assert _titles(db, "birds") == []
    db.connection.execute("INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')")


def test_the_index_follows_updates(db: Store) -> None:
    with db.transaction():
        db.connection.execute(
            "UPDATE articles SET title = 'Winter plumage' WHERE url = 'https://birds.example.org/4'"
        )
    assert _titles(db, "title:plumage") == ["Winter plumage"]
    assert _titles(db, "title:weight") == []
    db.connection.execute("INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')")


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
    with pytest.raises(feedsift.StorageError, match="no such database"):
        feedsift.search(db.path.with_name("missing.db"), "birds")


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
    assert lines[2].startswith("    Every **lighthouse** kept a log book in which the **keepers**")
    assert lines[4] == " 2. Storms of the northern coast"


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
    status, out, err = run(capsys, "c++", "--db", str(db.path))
    assert (status, out) == (1, "")
    assert err.startswith("feedsift: bad search query 'c++': fts5: syntax error")
    assert len(err.splitlines()) == 1
    status, _, err = run(capsys, "x", "--db", str(db.path.with_name("none.db")))
    assert status == 1 and "no such database" in err
    status, _, err = run(capsys, "x", "--limit", "0", "--db", str(db.path))
    assert status == 2 and "must be 1 or more" in err


# --- the demo's database -------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, dict[str, TruthPost]]]:
    """The database ``feedsift demo`` leaves, and the test web's true posts by URL path.

    The demo's web is gone when it ends; one started with the same seed and rounds
    publishes the same posts (on other ports: posts are matched by path).
    """
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    assert main(["demo", "--rounds", "1", "--no-faults", "--db", str(db)]) == 0
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


def _unique_phrase(post: TruthPost, posts: Iterable[TruthPost]) -> str:
    """The first 8-word passage of the post's true text that no other true post holds (the
    test web writes its posts from shared phrases)."""
    others = [" ".join(_words(other.text)) for other in posts if other is not post]
    for start in range(len(_words(post.text))):
        phrase = _phrase(post.text, start)
        if not any(phrase.strip('"') in text for text in others):
            return phrase
    raise AssertionError(f"no passage of {post.title!r} is its own")


def test_demo_each_article_is_found_by_its_true_title(
    demo: tuple[Store, dict[str, TruthPost]],
) -> None:
    store, truth = demo
    pairs = _stored(store, truth)
    assert len(pairs) >= 20  # the demo stores about 26 posts
    for stored, post in pairs:
        hits = feedsift.search(store, f"title:{_phrase(post.title, 0, 50)}")
        assert hits and hits[0].article_id == stored.id, post.title


def test_demo_a_passage_of_a_posts_true_text_finds_that_post(
    demo: tuple[Store, dict[str, TruthPost]],
) -> None:
    store, truth = demo
    for stored, post in _stored(store, truth):
        phrase = _unique_phrase(post, truth.values())
        hits = feedsift.search(store, phrase)
        assert [hit.article_id for hit in hits] == [stored.id], (post.title, phrase)
        assert "**" in hits[0].snippet


def test_demo_search_through_the_command_line_with_a_site(
    capsys: pytest.CaptureFixture[str], demo: tuple[Store, dict[str, TruthPost]]
) -> None:
    store, truth = demo
    stored, post = _stored(store, truth)[0]
    status, out, _ = run(capsys, _unique_phrase(post, truth.values()), "--site", stored.site,
                         "-f", "jsonl", "--db", str(store.path))  # fmt: skip
    hits = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and hits[0]["url"] == stored.url
    assert {hit["site"] for hit in hits} == {stored.site}

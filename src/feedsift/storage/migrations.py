"""The database schema as an ordered list of migrations, one list for SQLite and PostgreSQL.

The schema version is the number of migrations applied (SQLite: ``PRAGMA user_version``;
PostgreSQL: the one row of ``feedsift_schema``). Opening a database applies the missing
ones in one transaction each; a database newer than this feedsift is refused rather than
written with an older idea of the schema. A migration is never edited once released:
change the schema by appending one.

Each migration is written once, in SQL both databases read, with SQLite's type names
(:meth:`~feedsift.storage.dialect.Dialect.schema` gives PostgreSQL its own), except where
the databases have no common SQL: the full-text index (migration 6) is FTS5 in SQLite and
a ``tsvector`` with a GIN index in PostgreSQL, so that migration has a text for each.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from feedsift.errors import StorageError
from feedsift.storage.connection import Connection
from feedsift.storage.dialect import Dialect

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration", "migrate", "schema_version"]

#: The key of the PostgreSQL advisory lock migrations hold, so that two processes opening
#: one new database do not both create its tables ("feedsift" in ASCII, as a number).
MIGRATION_LOCK = 0x6665656473696674


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema: its SQL, and PostgreSQL's own text where it differs."""

    sql: str
    postgresql: str | None = None  #: None: ``sql`` with PostgreSQL's type names

    def text(self, dialect: Dialect) -> str:
        if dialect.name == "postgresql" and self.postgresql is not None:
            return self.postgresql
        return dialect.schema(self.sql)


_V1 = """
CREATE TABLE feeds (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    site TEXT NOT NULL,
    title TEXT,
    format TEXT,
    site_url TEXT,
    category TEXT,
    added_at TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    interval_s REAL NOT NULL,
    next_poll_at TEXT NOT NULL,
    last_polled_at TEXT,
    last_ok_at TEXT,
    last_status INTEGER,
    error_count INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    polls INTEGER NOT NULL DEFAULT 0,
    poll_seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    url_key TEXT NOT NULL UNIQUE,
    site TEXT NOT NULL,
    request_url TEXT NOT NULL,
    response_url TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    body_size INTEGER NOT NULL,
    fetched_at TEXT NOT NULL,
    fetch_seconds REAL NOT NULL
);
CREATE INDEX documents_request_url ON documents(request_url);
CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
    site TEXT NOT NULL,
    history_key TEXT NOT NULL,
    url TEXT,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    published TEXT,
    seen_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'new'
        CHECK (state IN ('new', 'retry', 'stored', 'duplicate', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    document_id INTEGER REFERENCES documents(id),
    error TEXT,
    UNIQUE (site, history_key)
);
CREATE INDEX items_state ON items(state);
CREATE TABLE articles (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT,
    published TEXT,
    method TEXT NOT NULL,
    model_version TEXT NOT NULL,
    confidence REAL NOT NULL,
    content_hash TEXT NOT NULL,
    simhash INTEGER NOT NULL,
    duplicate_of INTEGER REFERENCES articles(id),
    near_duplicate_of INTEGER REFERENCES articles(id),
    record TEXT NOT NULL,
    extracted_at TEXT NOT NULL,
    extract_seconds REAL NOT NULL
);
CREATE INDEX articles_site_time ON articles(site, extracted_at);
CREATE INDEX articles_site_hash ON articles(site, content_hash);
CREATE TABLE errors (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    stage TEXT NOT NULL,
    feed_id INTEGER REFERENCES feeds(id) ON DELETE CASCADE,
    url TEXT,
    reason TEXT NOT NULL
);
CREATE INDEX errors_feed ON errors(feed_id);
"""

#: v2: the site-level learners' state per site with the last document it has learned;
#: documents indexed by site (counted per site, replayed per site).
_V2 = """
CREATE TABLE site_models (
    site TEXT PRIMARY KEY,
    state BLOB NOT NULL,
    last_document INTEGER NOT NULL,
    documents INTEGER NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE INDEX documents_site ON documents(site, id)
"""

#: v3: the feed-learned templates, versioned per feed: each version holds from
#: ``valid_from`` on, so older pages keep the template of their time.
_V3 = """
CREATE TABLE templates (
    id INTEGER PRIMARY KEY,
    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
    site TEXT NOT NULL,
    version INTEGER NOT NULL,
    valid_from TEXT NOT NULL,
    learned_at TEXT NOT NULL,
    items INTEGER NOT NULL,
    key_path TEXT NOT NULL,
    state BLOB NOT NULL,
    UNIQUE (feed_id, version)
);
CREATE INDEX templates_site ON templates(site)
"""

#: v4: the URL-key parameter learner's state per site (which query parameters name a page);
#: items indexed by title, to find a stored story again when its learned key changed.
_V4 = """
CREATE TABLE url_params (
    site TEXT PRIMARY KEY,
    state BLOB NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE INDEX items_title ON items(title)
"""

#: v5: a template version's per-field checks against the page level on the feed's items
#: (a :class:`~feedsift.sitelevel.combiner.FieldCombiner`'s state; NULL: not checked).
_V5 = """
ALTER TABLE templates ADD COLUMN checks BLOB
"""

#: v6: full-text search over the articles (SQLite FTS5; ``storage/search.py`` queries it).
#: An external-content index: the text stays in ``articles.record`` (read through a view),
#: the index holds only the tokens. Triggers keep it in step with every insert, update and
#: delete of an article (a document's cascade included); ``rebuild`` fills it for the
#: articles already stored. Tokens: Unicode words without diacritics, Porter-stemmed (a
#: search for "elections" finds "election"; stemming is English's, harmless elsewhere).
_V6 = """
CREATE VIEW articles_fts_content (id, title, text) AS
    SELECT id, title, json_extract(record, '$.text') FROM articles;
CREATE VIRTUAL TABLE articles_fts USING fts5(
    title, text,
    content = 'articles_fts_content', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
    INSERT INTO articles_fts (rowid, title, text)
    VALUES (new.id, new.title, json_extract(new.record, '$.text'));
END;
CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
    INSERT INTO articles_fts (articles_fts, rowid, title, text)
    VALUES ('delete', old.id, old.title, json_extract(old.record, '$.text'));
END;
CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, record ON articles BEGIN
    INSERT INTO articles_fts (articles_fts, rowid, title, text)
    VALUES ('delete', old.id, old.title, json_extract(old.record, '$.text'));
    INSERT INTO articles_fts (rowid, title, text)
    VALUES (new.id, new.title, json_extract(new.record, '$.text'));
END;
INSERT INTO articles_fts (articles_fts) VALUES ('rebuild')
"""

#: v6 in PostgreSQL: full-text search with the article's language (``storage/pg_search.py``
#: queries it). ``feedsift_text_config`` maps a language tag (``de``, ``pt-br``) to the text
#: search configuration that stems it, ``simple`` (no stemming, no stop words) for the rest.
#: Two stored generated columns keep the configuration and the ``tsvector`` in step with every
#: insert and update of the row, as SQLite's triggers do (and fill them for the rows already
#: there); the title weighs A, the text D, so a search can rank titles higher. The text is
#: indexed up to 300,000 characters: a ``tsvector`` holds at most 1 MiB, which a longer text
#: of distinct words can pass, and the insert of the article would then fail.
_V6_POSTGRESQL = """
CREATE FUNCTION feedsift_text_config(language TEXT) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE split_part(lower(coalesce(language, '')), '-', 1)
        WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque'
        WHEN 'ca' THEN 'catalan' WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch'
        WHEN 'en' THEN 'english' WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french'
        WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek' WHEN 'hi' THEN 'hindi'
        WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish'
        WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali'
        WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian' WHEN 'nn' THEN 'norwegian'
        WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian'
        WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish'
        WHEN 'ta' THEN 'tamil' WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish'
        ELSE 'simple' END::regconfig
$$;
ALTER TABLE articles ADD COLUMN search_config regconfig
    GENERATED ALWAYS AS (feedsift_text_config(record::jsonb ->> 'language')) STORED;
ALTER TABLE articles ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(feedsift_text_config(record::jsonb ->> 'language'),
                          coalesce(title, '')), 'A')
    || setweight(to_tsvector(feedsift_text_config(record::jsonb ->> 'language'),
                             left(coalesce(record::jsonb ->> 'text', ''), 300000)), 'D')
) STORED;
CREATE INDEX articles_search ON articles USING gin (search_vector)
"""

#: v7: claims, so that several processes share the crawl's work without doing it twice
#: (``storage/claims.py``): the worker that took a feed to poll, an item to fetch or a stored
#: document to extract, and until when. The partial indexes hold the claimed rows only.
_V7 = """
ALTER TABLE feeds ADD COLUMN claimed_by INTEGER;
ALTER TABLE feeds ADD COLUMN claimed_until TEXT;
ALTER TABLE items ADD COLUMN claimed_by INTEGER;
ALTER TABLE items ADD COLUMN claimed_until TEXT;
ALTER TABLE documents ADD COLUMN claimed_by INTEGER;
ALTER TABLE documents ADD COLUMN claimed_until TEXT;
CREATE INDEX items_claimed ON items(claimed_by) WHERE claimed_by IS NOT NULL;
CREATE INDEX documents_claimed ON documents(claimed_by) WHERE claimed_by IS NOT NULL
"""

#: Migration ``n`` turns a version ``n`` database into version ``n + 1``.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(_V1),
    Migration(_V2),
    Migration(_V3),
    Migration(_V4),
    Migration(_V5),
    Migration(_V6, _V6_POSTGRESQL),
    Migration(_V7),
)
#: The schema version this feedsift writes.
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(connection: Connection) -> int:
    """The number of migrations applied to the database (0: a new one)."""
    if connection.dialect.name == "sqlite":
        (version,) = connection.execute("PRAGMA user_version").fetchone()
        return int(version)
    (table,) = connection.execute("SELECT to_regclass('feedsift_schema')").fetchone()
    if table is None:
        return 0
    row = connection.execute("SELECT version FROM feedsift_schema").fetchone()
    return 0 if row is None else int(row[0])


def migrate(connection: Connection, source: str) -> int:
    """Bring the database at ``connection`` to :data:`SCHEMA_VERSION`; return the old version."""
    previous = version = schema_version(connection)
    _refuse_newer(version, source)
    while version < SCHEMA_VERSION:
        version = _apply_next(connection, source)
    return previous


def _refuse_newer(version: int, source: str) -> None:
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{source}: schema version {version} is newer than this feedsift's "
            f"({SCHEMA_VERSION}); upgrade feedsift"
        )


def _apply_next(connection: Connection, source: str) -> int:
    """Apply the next missing migration in its own transaction, the version read again
    under the write lock (another process may have applied it); return the new version."""
    dialect = connection.dialect
    connection.execute(dialect.begin)
    try:
        if dialect.name == "postgresql":
            connection.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            connection.execute("CREATE TABLE IF NOT EXISTS feedsift_schema (version INTEGER)")
        version = schema_version(connection)
        _refuse_newer(version, source)
        if version < SCHEMA_VERSION:
            connection.script(_statements(MIGRATIONS[version].text(dialect)))
            version += 1
            _set_version(connection, version)
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return version


def _set_version(connection: Connection, version: int) -> None:
    if connection.dialect.name == "sqlite":
        connection.execute(f"PRAGMA user_version = {int(version)}")
        return
    connection.execute("DELETE FROM feedsift_schema")
    connection.execute("INSERT INTO feedsift_schema (version) VALUES (?)", (version,))


def _statements(script: str) -> list[str]:
    """The SQL statements of ``script``; a trigger's body keeps the ``;`` inside it (and a
    PostgreSQL function's body, between ``$$``, the ``;`` inside it)."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending) and pending.count("$$") % 2 == 0:
            if pending.strip(" \n;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \n;"):
        statements.append(pending.strip())
    return statements

"""The database schema as an ordered list of migrations.

``PRAGMA user_version`` holds the number of migrations applied. Opening a database applies
the missing ones in one transaction each; a database newer than this feedsift is refused
rather than written with an older idea of the schema. A migration is never edited once
released: change the schema by appending one.
"""

from __future__ import annotations

import sqlite3

from feedsift.errors import StorageError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]

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

#: Migration ``n`` turns a version ``n`` database into version ``n + 1``.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6)
#: The schema version this feedsift writes.
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(connection: sqlite3.Connection, source: str) -> int:
    """Bring the database at ``connection`` to :data:`SCHEMA_VERSION`; return the old version."""
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{source}: schema version {version} is newer than this feedsift's "
            f"({SCHEMA_VERSION}); upgrade feedsift"
        )
    for number in range(version, SCHEMA_VERSION):
        _apply(connection, number)
    return int(version)


def _apply(connection: sqlite3.Connection, number: int) -> None:
    statements = _statements(MIGRATIONS[number])
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements:
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {number + 1}")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def _statements(script: str) -> list[str]:
    """The SQL statements of ``script``; a trigger's body keeps the ``;`` inside it."""
    statements: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \n;"):
        statements.append(pending.strip())
    return statements

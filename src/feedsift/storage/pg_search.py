"""Full-text search of the stored articles on PostgreSQL: each article in its own language.

:class:`PostgresArticleSearch` is the PostgreSQL side of
:class:`~feedsift.storage.search.ArticleSearch`. Migration 6 gives every article a
``tsvector`` (``search_vector``: title with weight A, text with weight D, a GIN index) made
with the text search configuration of its language (``search_config``: ``english``,
``german``, ``french``, ... ``simple`` for a language PostgreSQL does not stem or an article
without one). A query is read with each configuration in turn by ``websearch_to_tsquery``,
and each reading is matched against the articles of that configuration only, so a German
query word is stemmed as German against German articles and as English against English
ones. Hits are ranked by ``ts_rank_cd`` (cover density: matches close together count more)
with the title weighing :data:`~feedsift.storage.search.TITLE_WEIGHT` times the text, as
in SQLite, and normalised by the log of the article's length; the snippet is
``ts_headline``'s best passage of the text.

Queries are PostgreSQL's web search syntax: words (all must occur), ``"a phrase"``, ``OR``,
``-word`` (FTS5's ``NOT word`` is read as ``-word``, and ``AND`` as nothing, so the common
queries mean the same on both databases). FTS5's column filters (``title:``), prefixes
(``word*``) and ``NEAR`` have no web search spelling: such a query is an
:class:`~feedsift.errors.InputError` that says so, rather than a search for other words.
"""

from __future__ import annotations

import re
from typing import Any

from feedsift.errors import InputError, StorageError
from feedsift.storage.columns import moment_to_db
from feedsift.storage.connection import Connection
from feedsift.storage.search import (
    BODY_WEIGHT,
    SNIPPET_WORDS,
    TITLE_WEIGHT,
    SearchHit,
    SearchQuery,
    search_hit,
    site_key,
)

__all__ = ["PostgresArticleSearch", "websearch_text"]

#: ts_rank_cd's weights of the labels D, C, B, A: the text is D, the title A (B, C unused).
RANK_WEIGHTS = f"{{{BODY_WEIGHT / TITLE_WEIGHT}, 0, 0, 1}}"
#: ts_rank_cd's normalisation 1: divide by 1 + the log of the article's length, so a long
#: text does not win by length alone (SQLite's BM25 normalises by length too).
RANK_NORMALISATION = 1
#: Fewest words of a snippet: ts_headline widens a short match's passage to this.
SNIPPET_MIN_WORDS = 12
#: Characters of the text a snippet is looked for in: the text's indexed part (migration 6).
SNIPPET_CHARS = 300_000
#: FTS5 syntax with no web search spelling: a column filter, a prefix, NEAR.
_FTS5_ONLY = re.compile(r"\b(?:title|text)\s*:|\w\*|\bNEAR\s*\(")
#: FTS5's NOT and AND as whole words outside phrases (web search: -word, and nothing).
_NOT = re.compile(r"(?<![\w-])NOT\s+")
_AND = re.compile(r"(?<![\w-])AND(?![\w-])")

#: Every reading of the query: one per text search configuration of the server.
_READINGS = (
    "SELECT c.oid::regconfig AS config, websearch_to_tsquery(c.oid::regconfig, :text) AS query"
    " FROM pg_ts_config AS c"
)


class PostgresArticleSearch:
    """:class:`~feedsift.storage.search.ArticleSearch` over the ``tsvector`` of migration 6."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    def search(self, query: SearchQuery) -> list[SearchHit]:
        where, params = _where(query)
        open_mark, close_mark = query.marks
        best = (
            f"SELECT a.id, q.config, q.query, ts_rank_cd('{RANK_WEIGHTS}', a.search_vector,"
            f" q.query, {RANK_NORMALISATION}) AS rank {where}"
            " ORDER BY rank DESC, a.id DESC LIMIT :limit"
        )
        rows = self._run(
            "SELECT a.id, a.site, a.url, a.title, a.kind, a.published, a.extracted_at, b.rank,"
            " ts_headline(b.config, left(coalesce(a.record::jsonb ->> 'text', ''),"
            f" {SNIPPET_CHARS}), b.query, :options) AS snippet FROM ({best}) AS b"
            " JOIN articles AS a ON a.id = b.id ORDER BY b.rank DESC, a.id DESC",
            {**params, "limit": max(0, query.limit), "options": _options(open_mark, close_mark)},
        )
        return [search_hit(row, float(row["rank"])) for row in rows]

    def count(self, query: SearchQuery) -> int:
        where, params = _where(query)
        ((total,),) = self._run(f"SELECT COUNT(*) {where}", params)
        return int(total)

    def _run(self, sql: str, params: dict[str, object]) -> list[Any]:
        try:
            return list(self._db.execute(sql, params).fetchall())
        except self._db.errors as exc:
            raise StorageError(f"search failed: {' '.join(str(exc).split())}") from exc


def websearch_text(text: str) -> str:
    """``text`` as web search syntax (FTS5's ``NOT``/``AND`` translated); an
    :class:`InputError` for an empty query or FTS5 syntax web search has no spelling of."""
    if not text.strip():
        raise InputError("empty search query: give at least one word")
    outside = re.sub(r'"[^"]*"?', " ", text)  # what is not inside a phrase
    found = _FTS5_ONLY.search(outside)
    if found is not None:
        raise InputError(
            f"bad search query {text!r}: {found.group(0).strip()!r} is SQLite FTS5 syntax;"
            ' on PostgreSQL the query is web search syntax: words, "phrases", OR, -word'
            " (words match by stem: keeper finds keepers)"
        )
    pieces = re.split(r'("[^"]*"?)', text)  # phrases keep their words as they are
    return "".join(
        piece if piece.startswith('"') else _AND.sub(" ", _NOT.sub("-", piece)) for piece in pieces
    )


def _where(query: SearchQuery) -> tuple[str, dict[str, object]]:
    """The FROM and WHERE clauses of ``query`` (alias ``a`` for articles, ``q`` for the
    query's reading in the article's configuration) and their parameters."""
    where = (
        f"FROM ({_READINGS}) AS q JOIN articles AS a"
        " ON a.search_config = q.config AND a.search_vector @@ q.query WHERE TRUE"
    )
    params: dict[str, object] = {"text": websearch_text(query.text)}
    if query.site is not None:
        where, params["site"] = where + " AND a.site = :site", site_key(query.site)
    if query.since is not None:
        where, params["since"] = where + " AND a.extracted_at >= :since", moment_to_db(query.since)
    if not query.duplicates:
        where += " AND a.duplicate_of IS NULL AND a.near_duplicate_of IS NULL"
    return where, params


def _options(open_mark: str, close_mark: str) -> str:
    """ts_headline's options: the marks (quoted), and a snippet of about SNIPPET_WORDS words."""

    def quoted(mark: str) -> str:
        return '"' + mark.replace('"', '""') + '"'

    return (
        f"StartSel={quoted(open_mark)}, StopSel={quoted(close_mark)},"
        f" MaxWords={SNIPPET_WORDS}, MinWords={SNIPPET_MIN_WORDS}, ShortWord=2"
    )

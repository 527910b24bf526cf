"""The store: the database and its tables behind one explicit object.

A :class:`Store` is opened by the command that needs it and passed to the stages that
read or write; there is no global connection. All tables share one connection, so one
:meth:`Store.transaction` can span them (an item and its document commit together).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from feedsift.storage.articles import ArticleTable
from feedsift.storage.claims import release_all
from feedsift.storage.connection import Connection
from feedsift.storage.database import Database
from feedsift.storage.documents import DocumentTable
from feedsift.storage.errors_log import ErrorLog
from feedsift.storage.feeds import FeedTable
from feedsift.storage.items import ItemTable
from feedsift.storage.location import DatabaseTarget
from feedsift.storage.pg_search import PostgresArticleSearch
from feedsift.storage.search import ArticleSearch, SqliteArticleSearch
from feedsift.storage.site_models import SiteModelTable
from feedsift.storage.templates_table import TemplateTable
from feedsift.storage.url_params import UrlParamTable

__all__ = ["Store"]


class Store:
    """feeds, items, documents, articles, errors, site models, templates and learned URL
    parameters of one database (a SQLite file or a PostgreSQL URL), and the full-text search
    of its articles (``fulltext``)."""

    def __init__(self, path: DatabaseTarget, *, create: bool = True) -> None:
        self.database = Database(path, create=create)
        connection = self.database.connection
        self.feeds = FeedTable(connection)
        self.items = ItemTable(connection)
        self.documents = DocumentTable(connection)
        self.articles = ArticleTable(connection)
        self.errors = ErrorLog(connection)
        self.site_models = SiteModelTable(connection)
        self.templates = TemplateTable(connection)
        self.url_params = UrlParamTable(connection)
        self.fulltext: ArticleSearch = (
            PostgresArticleSearch(connection)
            if self.database.is_postgres
            else SqliteArticleSearch(connection)
        )

    @property
    def path(self) -> DatabaseTarget:
        """The SQLite file or the PostgreSQL URL."""
        return self.database.path

    @property
    def name(self) -> str:
        """The database for messages (a URL without its password)."""
        return self.database.name

    @property
    def connection(self) -> Connection:
        return self.database.connection

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction over every table."""
        with self.database.transaction() as connection:
            yield connection

    def release_claims(self) -> None:
        """End every claim this store's process holds on feeds, items and documents."""
        with self.transaction() as connection:
            release_all(connection)

    def close(self) -> None:
        self.database.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Storage: one SQLite file (WAL) or one PostgreSQL database: feeds, items, documents,
articles, errors, site models, and full-text search over the articles."""

from feedsift.storage.articles import ArticleTable, NewArticle, StoredArticle
from feedsift.storage.database import DEFAULT_DB, Database
from feedsift.storage.documents import DocumentRecord, DocumentTable, NewDocument
from feedsift.storage.errors_log import ErrorLog, ErrorRecord, Stage
from feedsift.storage.feeds import FeedRecord, FeedTable, FeedUpdate
from feedsift.storage.items import ItemRecord, ItemState, ItemTable, NewItem
from feedsift.storage.location import DatabaseTarget
from feedsift.storage.migrations import SCHEMA_VERSION
from feedsift.storage.pg_search import PostgresArticleSearch
from feedsift.storage.search import ArticleSearch, SearchHit, SearchQuery, SqliteArticleSearch
from feedsift.storage.site_models import SavedSiteModel, SiteModelTable
from feedsift.storage.stats import (
    FeedStats,
    MethodStats,
    SiteStats,
    feed_stats,
    method_stats,
    site_stats,
)
from feedsift.storage.store import Store
from feedsift.storage.templates_table import (
    FeedTemplateVersion,
    NewTemplate,
    StoredTemplate,
    TemplateTable,
)
from feedsift.storage.url_params import UrlParamTable

__all__ = [
    "DEFAULT_DB",
    "SCHEMA_VERSION",
    "ArticleSearch",
    "ArticleTable",
    "Database",
    "DatabaseTarget",
    "DocumentRecord",
    "DocumentTable",
    "ErrorLog",
    "ErrorRecord",
    "FeedRecord",
    "FeedStats",
    "FeedTable",
    "FeedTemplateVersion",
    "FeedUpdate",
    "ItemRecord",
    "ItemState",
    "ItemTable",
    "MethodStats",
    "NewArticle",
    "NewDocument",
    "NewItem",
    "NewTemplate",
    "PostgresArticleSearch",
    "SavedSiteModel",
    "SearchHit",
    "SearchQuery",
    "SiteModelTable",
    "SiteStats",
    "SqliteArticleSearch",
    "Stage",
    "Store",
    "StoredArticle",
    "StoredTemplate",
    "TemplateTable",
    "UrlParamTable",
    "feed_stats",
    "method_stats",
    "site_stats",
]

"""Storage: one SQLite file (WAL) holding feeds, items, documents, articles and errors."""

from feedsift.storage.articles import ArticleTable, NewArticle, StoredArticle
from feedsift.storage.database import DEFAULT_DB, Database
from feedsift.storage.documents import DocumentRecord, DocumentTable, NewDocument
from feedsift.storage.errors_log import ErrorLog, ErrorRecord, Stage
from feedsift.storage.feeds import FeedRecord, FeedTable, FeedUpdate
from feedsift.storage.items import ItemRecord, ItemState, ItemTable, NewItem
from feedsift.storage.migrations import SCHEMA_VERSION
from feedsift.storage.stats import FeedStats, SiteStats, feed_stats, site_stats
from feedsift.storage.store import Store

__all__ = [
    "DEFAULT_DB",
    "SCHEMA_VERSION",
    "ArticleTable",
    "Database",
    "DocumentRecord",
    "DocumentTable",
    "ErrorLog",
    "ErrorRecord",
    "FeedRecord",
    "FeedStats",
    "FeedTable",
    "FeedUpdate",
    "ItemRecord",
    "ItemState",
    "ItemTable",
    "NewArticle",
    "NewDocument",
    "NewItem",
    "SiteStats",
    "Stage",
    "Store",
    "StoredArticle",
    "feed_stats",
    "site_stats",
]

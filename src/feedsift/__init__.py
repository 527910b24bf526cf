"""feedsift: clean article streams from blogs and news sites.

>>> import feedsift
>>> article = feedsift.extract("<html><body><article><h1>Hi</h1><p>...</p></article></body></html>")

On the web: ``feedsift.extract_url(url)``, ``feedsift.fetch(url)`` and
``feedsift.fetch_feed(url)`` fetch politely and safely, as the command line does. From web
archives: ``feedsift.extract_warc(path)`` yields the article of every HTML record. In a
crawl's database: ``feedsift.search("feedsift.db", "query")`` ranks the stored articles.
"""

from feedsift._version import __version__
from feedsift.acquisition import (
    FeedEntry,
    FetchedPage,
    Fetcher,
    FetchPolicy,
    FetchResult,
    ParsedFeed,
    parse_feed,
)
from feedsift.acquisition.warc import WarcPage, WarcSkip, read_warc
from feedsift.api import (
    WarcArticle,
    bundled_extractor,
    extract,
    extract_url,
    extract_warc,
    fetch,
    fetch_feed,
    search,
)
from feedsift.crawl import ArrivalExtraction, Crawler, CrawlOptions, SessionSettings, run_session
from feedsift.dedup import history_key, url_key
from feedsift.errors import (
    ConfigError,
    DatasetError,
    FeedError,
    FeedsiftError,
    FetchError,
    HttpStatusError,
    InputError,
    ModelError,
    NotFittedError,
    RenderError,
    RobotsDisallowedError,
    SparkJobError,
    StorageError,
    UnsafeAddressError,
)
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.explain import explain_page
from feedsift.extractors.model import ModelBundle, load_bundle
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.blocks import BlockView, Subtree, TextBlock, text_blocks
from feedsift.parsing.layout import Layout, LayoutProvider, StaticLayout
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import (
    Article,
    BodyPart,
    Comment,
    FeedItem,
    FeedSample,
    FieldSource,
    PageKind,
    Provenance,
    SourceKind,
    Teaser,
)
from feedsift.rendering import BrowserLayout, DirectoryResources, Renderer, RenderOptions
from feedsift.sitelevel import (
    DiffPost,
    FieldChoice,
    FieldCombiner,
    HybridExtractor,
    SiteLearner,
    UrlTree,
)
from feedsift.storage import SearchHit, Store
from feedsift.templates import FeedTemplate, PostJudge

__all__ = [
    "ArrivalExtraction",
    "Article",
    "BlockView",
    "BodyPart",
    "BrowserLayout",
    "Comment",
    "ConfigError",
    "CrawlOptions",
    "Crawler",
    "DatasetError",
    "DiffPost",
    "DirectoryResources",
    "ExtractOptions",
    "FeedEntry",
    "FeedError",
    "FeedItem",
    "FeedSample",
    "FeedTemplate",
    "FeedsiftError",
    "FetchError",
    "FetchPolicy",
    "FetchResult",
    "FetchedPage",
    "Fetcher",
    "FieldChoice",
    "FieldCombiner",
    "FieldSource",
    "HttpStatusError",
    "HybridExtractor",
    "InputError",
    "Layout",
    "LayoutProvider",
    "LearnedPageExtractor",
    "ModelBundle",
    "ModelError",
    "NotFittedError",
    "PageExtractor",
    "PageKind",
    "ParsedFeed",
    "ParsedPage",
    "PostJudge",
    "Provenance",
    "RenderError",
    "RenderOptions",
    "Renderer",
    "RobotsDisallowedError",
    "SearchHit",
    "SessionSettings",
    "SiteLearner",
    "SourceKind",
    "SparkJobError",
    "StaticLayout",
    "StorageError",
    "Store",
    "Subtree",
    "Teaser",
    "TextBlock",
    "UnsafeAddressError",
    "UrlTree",
    "WarcArticle",
    "WarcPage",
    "WarcSkip",
    "__version__",
    "bundled_extractor",
    "explain_page",
    "extract",
    "extract_url",
    "extract_warc",
    "fetch",
    "fetch_feed",
    "history_key",
    "load_bundle",
    "parse_feed",
    "parse_page",
    "read_warc",
    "run_session",
    "search",
    "text_blocks",
    "url_key",
]

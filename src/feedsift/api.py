"""The public entry points: ``feedsift.extract(html, url=None, **options) -> Article``;
``fetch``, ``extract_url`` and ``fetch_feed`` for pages and feeds on the web;
``extract_warc`` for the HTML pages of a WARC file; and ``search`` for the stored articles.

The web functions fetch as ``feedsift extract URL`` does (one GET through the polite
fetcher: an identifying User-Agent, robots.txt, a bounded number of redirects, a size cap
counted after decompression, and private, loopback and link-local addresses refused unless
``allow_private``), and raise :class:`~feedsift.errors.FetchError` with a one-line reason.
They are synchronous; called where an event loop runs (a notebook), they fetch in a thread.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from datetime import datetime
from functools import cache, partial
from pathlib import Path
from typing import TypeVar

from feedsift.acquisition.feeds import MAX_FEED_BYTES, ParsedFeed
from feedsift.acquisition.feedworker import FeedParsers, ParseLimits
from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.acquisition.http import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, FetchedPage, fetch_page
from feedsift.acquisition.warc import DEFAULT_MAX_RECORD_BYTES, WarcPage, WarcSkip, read_warc
from feedsift.errors import InputError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.layout import LayoutProvider
from feedsift.parsing.limits import PageLimits
from feedsift.parsing.page import parse_page
from feedsift.records import Article
from feedsift.storage import SearchHit, SearchQuery, Store
from feedsift.storage.search import DEFAULT_LIMIT

__all__ = [
    "WarcArticle",
    "bundled_extractor",
    "extract",
    "extract_url",
    "extract_warc",
    "fetch",
    "fetch_feed",
    "search",
]

T = TypeVar("T")

_OPTION_NAMES = frozenset(f.name for f in fields(ExtractOptions))


@cache
def bundled_extractor() -> LearnedPageExtractor:
    """The page-level extractor with the model shipped in the package.

    Loaded on first use and shared afterwards: the model is read-only. Pass your own
    ``extractor=`` to :func:`extract` for another model or a fitted site-level learner.
    """
    return LearnedPageExtractor.from_file()


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    content_type: str | None = None,
    extractor: PageExtractor | None = None,
    limits: PageLimits | None = None,
    layout: LayoutProvider | None = None,
    **options: bool,
) -> Article:
    """Extract the article (or the listing) of one page.

    ``html`` may be text or raw bytes (decoded with BOM, ``content_type``'s charset,
    ``<meta>`` or detection). ``options`` are the fields of
    :class:`~feedsift.extractors.base.ExtractOptions`: ``include_comments``,
    ``with_metadata``, ``detect_listings``, ``htmldate``. ``extractor`` defaults to the bundled
    page-level model. A page over ``limits`` (default
    :class:`~feedsift.parsing.limits.PageLimits`: 8 million characters, 1.2 million words,
    50,000 elements)
    is cut, and :attr:`Article.truncated` says why.

    ``layout`` is where the page-level stages read each block's box and font from
    (default: :class:`~feedsift.parsing.layout.StaticLayout`'s estimate from the markup).
    To lay pages out in a headless Chromium, as ``feedsift extract --render`` does::

        with Renderer(RenderOptions()) as renderer:       # feedsift.rendering.browser
            layout = BrowserLayout(renderer)              # ...rendering.browser_layout
            article = extract(html, url, layout=layout)
            layout.tally()      # pages rendered, and those that fell back to the estimate

    Raises :class:`~feedsift.errors.InputError` for empty, binary or unparsable input and
    :class:`TypeError` for an unknown option, or a ``layout`` with an ``extractor`` that
    is not a :class:`LearnedPageExtractor`.
    """
    _check_options(options)
    page = parse_page(html, url, content_type, limits)
    chosen = _laid_out(extractor or bundled_extractor(), layout)
    article = chosen.extract(page, ExtractOptions(**options))
    return article if page.truncated is None else replace(article, truncated=page.truncated)


def _laid_out(extractor: PageExtractor, layout: LayoutProvider | None) -> PageExtractor:
    """``extractor`` reading layout from ``layout`` (as it is when ``layout`` is None)."""
    if layout is None:
        return extractor
    if not isinstance(extractor, LearnedPageExtractor):
        raise TypeError(f"layout= works with the page-level extractor, not {type(extractor)}")
    return extractor.with_layout(layout)


@dataclass(frozen=True, slots=True)
class WarcArticle:
    """One HTML page of a WARC file (its URL, record id, capture date, HTTP headers' content
    type and body) and the article extracted from it."""

    page: WarcPage
    article: Article


def extract_warc(
    path: str | os.PathLike[str],
    *,
    on_skip: Callable[[WarcSkip], None] | None = None,
    max_bytes: int = DEFAULT_MAX_RECORD_BYTES,
    extractor: PageExtractor | None = None,
    limits: PageLimits | None = None,
    layout: LayoutProvider | None = None,
    **options: bool,
) -> Iterator[WarcArticle]:
    """The article of every HTML response record of the WARC file at ``path``, in file order.

    Each page is decoded from its HTTP codings and extracted as :func:`extract` does (same
    ``extractor``, ``limits``, ``layout`` and ``options``), in the charset of its
    ``Content-Type``; the article's ``url`` is the record's target URI. Records that give no
    article are passed to ``on_skip`` (a :class:`~feedsift.acquisition.warc.WarcSkip` saying
    why: not HTML, another status, truncated, over ``max_bytes`` decoded, broken, or
    ``failed`` to extract) and the iteration goes on; requests, metadata and other
    non-response records are passed over.
    Raises :class:`~feedsift.errors.InputError` when the file cannot be read as a WARC file.
    """
    _check_options(options)
    records = read_warc(os.fspath(path), max_bytes)
    chosen = extractor if layout is None else _laid_out(extractor or bundled_extractor(), layout)
    return _warc_articles(records, on_skip or _ignore, chosen, limits, options)


def _warc_articles(
    records: Iterator[WarcPage | WarcSkip],
    on_skip: Callable[[WarcSkip], None],
    extractor: PageExtractor | None,
    limits: PageLimits | None,
    options: dict[str, bool],
) -> Iterator[WarcArticle]:
    for item in records:
        if isinstance(item, WarcSkip):
            on_skip(item)
            continue
        try:
            article = extract(
                item.body, item.url, content_type=item.content_type, extractor=extractor,
                limits=limits, layout=None, **options,
            )  # fmt: skip
        except InputError as exc:
            on_skip(WarcSkip("failed", str(exc), item.url, item.record_id, item.offset))
            continue
        yield WarcArticle(item, article)


def _ignore(skip: WarcSkip) -> None:
    """The default ``on_skip``: skipped records are passed over."""


def search(
    db: Store | Path | str,
    query: str,
    *,
    site: str | None = None,
    since: datetime | None = None,
    limit: int = DEFAULT_LIMIT,
    duplicates: bool = False,
) -> list[SearchHit]:
    """The stored articles that match ``query``, best first, as ``feedsift search`` finds them.

    ``db`` is an open :class:`~feedsift.storage.Store`, the path of a SQLite database or a
    ``postgresql://`` URL (opened, and migrated if it is older, for this call). ``query`` is
    in FTS5's syntax on SQLite: words (all must occur; "elections" also finds "election"),
    ``"a phrase"``, ``OR``, ``NOT``, ``prefix*``, ``title:word``; on PostgreSQL in web
    search syntax (words, ``"a phrase"``, ``OR``, ``-word`` or ``NOT word``), each article
    stemmed in its language. ``site`` and ``since`` (arrival time) filter; duplicates
    found on arrival are left out unless ``duplicates``. Each
    :class:`~feedsift.storage.SearchHit` has the article's id, site, url, title, kind,
    dates, a ``score`` (higher is better) and a ``snippet`` with the matches in ``**``.
    Raises :class:`~feedsift.errors.InputError` for a query the database cannot read and
    :class:`~feedsift.errors.StorageError` when there is no such database.
    """
    wanted = SearchQuery(query, site=site, since=since, limit=limit, duplicates=duplicates)
    if isinstance(db, Store):
        return db.fulltext.search(wanted)
    with Store(db, create=False) as store:
        return store.fulltext.search(wanted)


def _check_options(options: dict[str, bool]) -> None:
    unknown = set(options) - _OPTION_NAMES
    if unknown:
        raise TypeError(f"unknown extract option(s): {', '.join(sorted(unknown))}")


def fetch(
    url: str,
    *,
    allow_private: bool = False,
    check_robots: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> FetchedPage:
    """GET one HTML page politely and safely, as ``feedsift extract URL`` does.

    ``allow_private`` lets the fetch reach private and loopback addresses (a server of your
    own on 127.0.0.1); ``check_robots=False`` ignores the site's robots.txt. Bodies that
    are not HTML are refused. Raises :class:`~feedsift.errors.FetchError` with the reason.
    """
    return _run_sync(partial(
        fetch_page, url, timeout=timeout, max_bytes=max_bytes, check_robots=check_robots,
        allow_private=allow_private,
    ))  # fmt: skip


def extract_url(
    url: str,
    *,
    allow_private: bool = False,
    check_robots: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
    extractor: PageExtractor | None = None,
    limits: PageLimits | None = None,
    **options: bool,
) -> Article:
    """:func:`fetch` the page at ``url`` and :func:`extract` it (``options`` as there; for
    a rendered layout, :func:`fetch` and pass the body to :func:`extract` with ``layout``).

    The article's ``url`` is where redirects ended; the body is decoded with the charset
    of the response's ``Content-Type`` when the page declares none.
    """
    _check_options(options)
    page = fetch(url, allow_private=allow_private, check_robots=check_robots, timeout=timeout)
    return extract(page.body, page.final_url, content_type=page.content_type,
                   extractor=extractor, limits=limits, layout=None, **options)  # fmt: skip


def fetch_feed(
    url: str, *, allow_private: bool = False, check_robots: bool = True,
    timeout: float = DEFAULT_TIMEOUT, limits: ParseLimits | None = None,
) -> ParsedFeed:  # fmt: skip
    """GET the RSS, Atom, RDF or JSON feed at ``url`` and :func:`parse_feed` it.

    Fetched like :func:`fetch` (robots.txt, the SSRF guard, a size cap) and parsed as the
    crawl parses feeds: in a worker process with a deadline and a memory limit (``limits``,
    default :class:`~feedsift.acquisition.feedworker.ParseLimits`: 60 s, 2 GiB), started for
    this call (about a second). Raises :class:`~feedsift.errors.FetchError` when the fetch
    fails and :class:`~feedsift.errors.FeedError` when the answer is no feed or its parsing
    passes the limits. To parse in this process, call :func:`parse_feed` on the body.
    """
    policy = FetchPolicy(
        timeout=timeout, max_bytes=MAX_FEED_BYTES, min_delay=0.0, retries=0,
        robots=check_robots, allow_private=allow_private,
    )  # fmt: skip
    return _run_sync(partial(asyncio.run, _fetch_feed_once(url, policy, limits)))


async def _fetch_feed_once(url: str, policy: FetchPolicy, limits: ParseLimits | None) -> ParsedFeed:
    from feedsift.crawl.crawler import FEED_ACCEPT  # not at the top: the crawl imports us

    async with Fetcher(policy) as fetcher:
        result = await fetcher.fetch(url, accept=FEED_ACCEPT)
    parsers = FeedParsers(limits)
    try:
        return (await parsers.parse(result.body, result.response_url, result.content_type)).feed
    finally:
        parsers.close()


def _run_sync(call: Callable[[], T]) -> T:
    """``call()`` here, or in a worker thread when this thread runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return call()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()

"""Extraction on arrival: each new document goes through an extractor, off the event loop.

The crawler hands a :class:`ExtractionJob` to an :class:`ArrivalExtraction` and gets an
:class:`ExtractionOutcome` back: the article, or the reason it failed, plus the content
fingerprints used to spot duplicates. By default every page goes through the site-level
methods (:class:`~feedsift.sitelevel.SiteModels`: URL Tree, DiffPost or the page-level model,
chosen per site and page); with ``site_level=None`` the ``extractor`` alone runs (any
:class:`~feedsift.extractors.base.PageExtractor`). A job's ``role`` is ``article`` (learn and
extract) or ``learn`` (a comparison page, or a stored page replayed after a restart: learned,
not extracted, not stored).

Extraction is CPU work (tens of milliseconds a page), so it runs in worker processes when
``jobs > 1`` and in one worker thread otherwise, so the event loop keeps fetching meanwhile.
Site-level learners hold state, so every page of a site goes to the same worker (a site's
pages are learned in arrival order); each worker owns the learners of its sites and hands
their state back on :meth:`ArrivalExtraction.save_sites`. The workers also serialise each
article to the JSON the store keeps, which cost the loop as much as fetching did
(``feedsift bench --pipeline`` profile). Feeds are parsed in a worker process of their own,
bounded in time and memory (:mod:`feedsift.acquisition.feedworker`).

With ``render`` (``--render``) every page the page-level model reads is laid out in a
headless Chromium (:mod:`feedsift.crawl.rendering`): each worker process starts its own
browser on its first page and closes it when the stage closes; with ``jobs=1`` the one
browser lives in this process and renders from the extraction thread.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal, TypeVar

from feedsift.acquisition.feedworker import FeedParsers, ParseLimits, TimedFeed
from feedsift.api import bundled_extractor
from feedsift.crawl.keptpages import KeptPages
from feedsift.crawl.rendering import CrawlRendering, RenderReport, WorkerLayout, combine_reports
from feedsift.dedup.fingerprint import WordHashes, content_hash_of_tokens, simhash_of_tokens
from feedsift.errors import FeedsiftError, InputError, ModelError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article, FeedItem, PageKind
from feedsift.sitelevel.models import SavedSite, SiteModels, SiteOptions
from feedsift.storage.articles import article_record
from feedsift.text.tokens import tokenize_lower

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds a worker may take to close its browser when the stage closes.
CLOSE_TIMEOUT_S = 30.0

__all__ = [
    "ArrivalExtraction",
    "ExtractionJob",
    "ExtractionOutcome",
    "ExtractionSettings",
    "JobRole",
    "extract_job",
]


#: ``article``: learn the page and extract it; ``learn``: only learn it (see the module).
JobRole = Literal["article", "learn"]


@dataclass(frozen=True, slots=True)
class ExtractionJob:
    """One stored document to extract (or a page to learn from)."""

    document_id: int  #: 0 for a comparison page, which is not stored
    site: str
    url: str
    body: bytes
    content_type: str | None
    role: JobRole = "article"
    seen_at: datetime | None = None  #: when the page was fetched (DiffPost's same crawl)
    saved: SavedSite | None = None  #: the site's saved learner state, sent with its first job
    #: the feed item whose link this page is: the site's methods are checked against it
    item: FeedItem | None = None
    template: bytes | None = None  #: the item's feed's template (saved state), if it has one


@dataclass(frozen=True, slots=True)
class ExtractionOutcome:
    """What came of one job: an article with its fingerprints, or an error."""

    job: ExtractionJob
    article: Article | None
    error: str | None
    seconds: float
    content_hash: str = ""
    simhash: int = 0
    record: str = ""  #: the article as stored JSON, serialised in the worker

    @property
    def comparable(self) -> bool:
        """Whether the text may be compared with other articles (a non-empty body of one
        piece of content: an article, a thread, a product page ..., not a listing)."""
        return (
            self.article is not None
            and not self.article.kind.lists_items
            and self.article.kind is not PageKind.EMPTY
            and bool(self.article.body)
        )


def extract_job(
    job: ExtractionJob,
    extractor: PageExtractor,
    options: ExtractOptions,
    models: SiteModels | None = None,
    kept: KeptPages | None = None,
    words: WordHashes | None = None,
) -> ExtractionOutcome:
    """Run ``job`` (through ``models`` when given); a FeedsiftError becomes the ``error``.
    The parsed page of a feed item is ``kept`` for the feed's template jobs when given;
    ``words``: the worker's word hashes for the SimHash (the same fingerprint without)."""
    started = time.perf_counter()
    try:
        page = parse_page(job.body, job.url, job.content_type)
        if kept is not None and job.item is not None:
            kept.keep(job.url, job.content_type, job.body, page)
        if models is None:
            article = extractor.extract(page, options) if job.role == "article" else None
        else:
            _restore(models, job.saved)
            models.use_template(job.site, job.template)
            article = _through_models(models, job, page, options)
    except FeedsiftError as exc:
        return ExtractionOutcome(job, None, str(exc), time.perf_counter() - started)
    if article is None:
        return ExtractionOutcome(job, None, None, time.perf_counter() - started)
    if page.truncated is not None:  # a page cut by the parsing limits says so, as extract does
        article = replace(article, truncated=page.truncated)
    tokens = tokenize_lower(article.text)
    return ExtractionOutcome(
        job, article, None, time.perf_counter() - started, content_hash_of_tokens(tokens),
        simhash_of_tokens(tokens, words=words), article_record(article),
    )  # fmt: skip


def _through_models(
    models: SiteModels, job: ExtractionJob, page: ParsedPage, options: ExtractOptions
) -> Article | None:
    if job.role == "learn":
        models.learn(page, job.seen_at, job.document_id, job.item)
        return None
    return models.process(page, job.seen_at, job.document_id, options, job.item)


def _restore(models: SiteModels, saved: SavedSite | None) -> None:
    """Take the saved state of a site not learned yet; unreadable state: start afresh."""
    if saved is None or saved.site in models.sites_:
        return
    try:
        models.restore_site(saved)
    except ModelError as exc:
        logger.warning("%s: saved site-level state not used (%s); learning afresh", saved.site, exc)


def save_sites(models: SiteModels | None, sites: Sequence[str]) -> list[SavedSite]:
    """The state of those of ``sites`` that ``models`` knows."""
    if models is None:
        return []
    return [models.save_site(site) for site in sites if site in models.sites_]


@dataclass(frozen=True, slots=True)
class ExtractionSettings:
    """How the extraction stage runs, besides the extractor it is given."""

    jobs: int = 1  #: worker processes (1: one worker thread in this process)
    options: ExtractOptions = field(default_factory=ExtractOptions)
    #: how site-level learners are used; None: the extractor alone (see the module)
    site_level: SiteOptions | None = field(default_factory=SiteOptions)
    feed_limits: ParseLimits | None = None  #: the feed parser's deadline and memory
    render: CrawlRendering | None = None  #: lay pages out in a headless Chromium


class ArrivalExtraction:
    """The extraction stage of a crawl: an explicit object owning its workers."""

    def __init__(
        self, extractor: PageExtractor | None = None, settings: ExtractionSettings | None = None
    ) -> None:
        settings = settings or ExtractionSettings()
        self.extractor = extractor or bundled_extractor()
        self.jobs = max(1, settings.jobs)
        self.options = settings.options
        self.render = render = settings.render
        if render is not None and not isinstance(self.extractor, LearnedPageExtractor):
            raise InputError("rendering needs the learned page-level extractor")
        #: this process's browser layout (``jobs=1`` with ``render``; workers make their own)
        self._layout = WorkerLayout(render) if render is not None and self.jobs == 1 else None
        if self._layout is not None:
            self.extractor = _laid_out(self.extractor, self._layout)
        self.feeds = FeedParsers(settings.feed_limits)
        site_level = settings.site_level
        if site_level is not None and not isinstance(self.extractor, LearnedPageExtractor):
            site_level = None  # the hybrid needs the page-level model's block decisions
        self.site_level = site_level
        self._models = self._new_models()
        self._kept = KeptPages()  #: ``jobs=1``: item pages parsed in the worker thread
        self._words = WordHashes()  #: ``jobs=1``: the worker thread's SimHash word hashes
        self._pools: list[Executor] = []
        self._turn = itertools.count()

    def _new_models(self) -> SiteModels | None:
        if self.site_level is None:
            return None
        assert isinstance(self.extractor, LearnedPageExtractor)
        return SiteModels(self.extractor, self.site_level)

    def _executors(self) -> list[Executor]:
        if not self._pools:
            if self.jobs > 1:
                args = (self.extractor, self.options, self.site_level, self.render)
                self._pools = [
                    ProcessPoolExecutor(1, initializer=_start_worker, initargs=args)
                    for _ in range(self.jobs)
                ]
            else:
                self._pools = [ThreadPoolExecutor(1, thread_name_prefix="feedsift-extract")]
        return self._pools

    def _worker_of(self, site: str) -> Executor:
        pools = self._executors()
        return pools[zlib.crc32(site.encode("utf-8")) % len(pools)]

    async def extract(self, job: ExtractionJob) -> ExtractionOutcome:
        loop = asyncio.get_running_loop()
        worker = self._worker_of(job.site)
        if self.jobs > 1:
            return await loop.run_in_executor(worker, _worker_extract, job)
        return await loop.run_in_executor(
            worker, extract_job, job, self.extractor, self.options, self._models, self._kept,
            self._words,
        )

    async def run(self, site: str, function: Callable[..., T], *args: object) -> T:
        """Other CPU work of ``site`` (a module-level function, picklable arguments) on the
        site's worker: feed templates are learned and applied there."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker_of(site), function, *args)

    async def run_extracting(self, site: str, function: Callable[..., T], *args: object) -> T:
        """:meth:`run`, with the session's extractor given to ``function`` as ``extractor=``:
        the one this stage was made with (in a worker process, the copy the process started
        with, not sent again with every job); and as ``kept=`` the worker's item pages
        parsed on arrival (:class:`~feedsift.crawl.keptpages.KeptPages`)."""
        loop = asyncio.get_running_loop()
        worker = self._worker_of(site)
        if self.jobs > 1:
            return await loop.run_in_executor(worker, _worker_call, function, args)
        call = functools.partial(function, *args, extractor=self.extractor, kept=self._kept)
        return await loop.run_in_executor(worker, call)

    async def save_sites(self, sites: Sequence[str]) -> list[SavedSite]:
        """The learner state of ``sites`` (those learned so far), from their workers."""
        loop = asyncio.get_running_loop()
        if self.jobs == 1:
            return await loop.run_in_executor(self._worker_of(""), save_sites, self._models, sites)
        by_worker: dict[int, list[str]] = {}
        pools = self._executors()
        for site in sites:
            by_worker.setdefault(zlib.crc32(site.encode("utf-8")) % len(pools), []).append(site)
        parts = await asyncio.gather(
            *(loop.run_in_executor(pools[w], _worker_save, tuple(s)) for w, s in by_worker.items())
        )
        return [saved for part in parts for saved in part]

    async def render_report(self) -> RenderReport | None:
        """What rendering did so far, over every worker (``None`` without ``render``)."""
        if self.render is None:
            return None
        if self._layout is not None:
            return self._layout.report()
        loop = asyncio.get_running_loop()
        reports = await asyncio.gather(
            *(loop.run_in_executor(pool, _worker_report) for pool in self._pools)
        )  # no pools yet: no page was extracted, nothing rendered
        return combine_reports(report for report in reports if report is not None)

    async def parse_feed(self, body: bytes, url: str, content_type: str | None) -> TimedFeed:
        """:func:`~feedsift.acquisition.feeds.parse_feed` in a worker process of its own,
        bounded in time and memory (:class:`~feedsift.acquisition.feedworker.FeedParsers`):
        big feeds take feedparser seconds, which the event loop should not wait for, and a
        hostile one must not stall or exhaust the crawl."""
        return await self.feeds.parse(body, url, content_type)

    def close(self) -> None:
        self.feeds.close()
        if self.render is not None and self.jobs > 1:
            _close_worker_layouts(self._pools)
        for pool in self._pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self._pools = []
        if self._layout is not None:
            self._layout.close()


def _laid_out(extractor: PageExtractor, layout: WorkerLayout) -> PageExtractor:
    """``extractor`` reading its layout from ``layout`` (the constructor checked its type)."""
    assert isinstance(extractor, LearnedPageExtractor)
    return extractor.with_layout(layout)


def _close_worker_layouts(pools: Sequence[Executor]) -> None:
    """Each worker closes its browser (queued behind its work); one that does not answer in
    time is left to end with its process (the browser's driver ends with it)."""
    try:
        closing = [pool.submit(_worker_close_layout) for pool in pools]
        for future in closing:
            future.result(CLOSE_TIMEOUT_S)
    except Exception as exc:  # a worker that died or hangs: shutdown follows anyway
        logger.warning("an extraction worker did not close its browser: %s", exc)


@dataclass(slots=True)
class _WorkerState:
    """What a worker process was given when it started (one per process, set once)."""

    extractor: PageExtractor | None = None
    options: ExtractOptions | None = None
    models: SiteModels | None = None
    layout: WorkerLayout | None = None  #: with ``render``: its browser, started on demand
    kept: KeptPages = field(default_factory=KeptPages)  #: item pages parsed on arrival
    words: WordHashes = field(default_factory=WordHashes)  #: SimHash's hashes of words met


_WORKER = _WorkerState()


def _start_worker(
    extractor: PageExtractor, options: ExtractOptions, site_level: SiteOptions | None,
    render: CrawlRendering | None,
) -> None:  # fmt: skip
    if render is not None:
        _WORKER.layout = WorkerLayout(render)
        extractor = _laid_out(extractor, _WORKER.layout)
    _WORKER.extractor, _WORKER.options = extractor, options
    if site_level is not None and isinstance(extractor, LearnedPageExtractor):
        _WORKER.models = SiteModels(extractor, site_level)


def _worker_extract(job: ExtractionJob) -> ExtractionOutcome:
    assert _WORKER.extractor is not None and _WORKER.options is not None
    return extract_job(job, _WORKER.extractor, _WORKER.options, _WORKER.models, _WORKER.kept,
                       _WORKER.words)  # fmt: skip


def _worker_call(function: Callable[..., T], args: tuple[object, ...]) -> T:
    assert _WORKER.extractor is not None
    return function(*args, extractor=_WORKER.extractor, kept=_WORKER.kept)


def _worker_save(sites: tuple[str, ...]) -> list[SavedSite]:
    return save_sites(_WORKER.models, sites)


def _worker_report() -> RenderReport | None:
    return None if _WORKER.layout is None else _WORKER.layout.report()


def _worker_close_layout() -> None:
    if _WORKER.layout is not None:
        _WORKER.layout.close()

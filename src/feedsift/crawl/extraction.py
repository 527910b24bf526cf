"""Extraction on arrival: each new document goes through an extractor, off the event loop.

The crawler hands a :class:`ExtractionJob` to an :class:`ArrivalExtraction` and gets an
:class:`ExtractionOutcome` back: the article, or the reason it failed, plus the content
fingerprints used to spot duplicates. Which extractor runs is the hook: by default the
bundled page-level model; any :class:`~feedsift.extractors.base.PageExtractor` (a fitted
site-level learner, the combiner of later methods) plugs in through ``extractor``.

Extraction is CPU work (tens of milliseconds a page), so it runs in worker processes when
``jobs > 1`` (each worker receives the extractor once, when it starts) and in one worker
thread otherwise, so the event loop keeps fetching meanwhile. The workers also parse feeds
and serialise each article to the JSON the store keeps: both cost the loop as much as
fetching did (``feedsift bench --pipeline`` profile).
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.api import bundled_extractor
from feedsift.dedup.fingerprint import content_hash_of_tokens, simhash_of_tokens
from feedsift.errors import FeedsiftError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.parsing.page import parse_page
from feedsift.records import Article, PageKind
from feedsift.storage.articles import article_record
from feedsift.text.tokens import tokenize_lower

__all__ = [
    "ArrivalExtraction",
    "ExtractionJob",
    "ExtractionOutcome",
    "FeedParse",
    "extract_job",
    "timed_parse",
]


@dataclass(frozen=True, slots=True)
class ExtractionJob:
    """One stored document to extract."""

    document_id: int
    site: str
    url: str
    body: bytes
    content_type: str | None


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
        """Whether the text may be compared with other articles (a non-empty article body)."""
        return (
            self.article is not None
            and self.article.kind is PageKind.ARTICLE
            and bool(self.article.body)
        )


def extract_job(
    job: ExtractionJob, extractor: PageExtractor, options: ExtractOptions
) -> ExtractionOutcome:
    """Run ``extractor`` on ``job``; a FeedsiftError becomes the outcome's ``error``."""
    started = time.perf_counter()
    try:
        article = extractor.extract(parse_page(job.body, job.url, job.content_type), options)
    except FeedsiftError as exc:
        return ExtractionOutcome(job, None, str(exc), time.perf_counter() - started)
    tokens = tokenize_lower(article.text)
    return ExtractionOutcome(
        job, article, None, time.perf_counter() - started, content_hash_of_tokens(tokens),
        simhash_of_tokens(tokens), article_record(article),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class FeedParse:
    """A feed parsed in a worker, and the seconds the parsing itself took there."""

    feed: ParsedFeed
    seconds: float


def timed_parse(body: bytes, url: str, content_type: str | None) -> FeedParse:
    started = time.perf_counter()
    feed = parse_feed(body, url, content_type)
    return FeedParse(feed, time.perf_counter() - started)


class ArrivalExtraction:
    """The extraction stage of a crawl: an explicit object owning its worker pool."""

    def __init__(
        self,
        extractor: PageExtractor | None = None,
        *,
        jobs: int = 1,
        options: ExtractOptions | None = None,
    ) -> None:
        self.extractor = extractor or bundled_extractor()
        self.jobs = max(1, jobs)
        self.options = options or ExtractOptions()
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.jobs > 1:
                self._pool = ProcessPoolExecutor(
                    self.jobs, initializer=_start_worker, initargs=(self.extractor, self.options)
                )
            else:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="feedsift-extract")
        return self._pool

    async def extract(self, job: ExtractionJob) -> ExtractionOutcome:
        loop = asyncio.get_running_loop()
        if self.jobs > 1:
            return await loop.run_in_executor(self._executor(), _worker_extract, job)
        return await loop.run_in_executor(
            self._executor(), extract_job, job, self.extractor, self.options
        )

    async def parse_feed(self, body: bytes, url: str, content_type: str | None) -> FeedParse:
        """:func:`~feedsift.acquisition.feeds.parse_feed` in the workers: big feeds take
        feedparser a good fraction of a second, which the event loop should not wait for."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), timed_parse, body, url, content_type)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


@dataclass(slots=True)
class _WorkerState:
    """What a worker process was given when it started (one per process, set once)."""

    extractor: PageExtractor | None = None
    options: ExtractOptions | None = None


_WORKER = _WorkerState()


def _start_worker(extractor: PageExtractor, options: ExtractOptions) -> None:
    _WORKER.extractor, _WORKER.options = extractor, options


def _worker_extract(job: ExtractionJob) -> ExtractionOutcome:
    assert _WORKER.extractor is not None and _WORKER.options is not None
    return extract_job(job, _WORKER.extractor, _WORKER.options)

"""The crawl: poll feeds, fetch new items' pages, key and store them, extract on arrival.

This is the pipeline of the URL Tree paper's acquisition side, one step per method:

1. **poll** a feed with a conditional GET; parse it; every entry becomes an item keyed by
   its *history key* (title, description, publication date), so it is fetched once;
2. **fetch** each new item's page politely (the :class:`~feedsift.acquisition.fetcher.Fetcher`
   keeps per-host limits, robots.txt and retries);
3. **key** the page by its *URL key* (response URL, title hash, sorted query, rule list,
   and the query parameters its site was learned not to name pages by, see
   :mod:`feedsift.crawl.keys`); a page whose key is stored already is a duplicate of that
   document, not a new one;
4. **store** the raw page, in one transaction with its item's new state;
5. **extract** it (off the event loop, through the site-level learners of its site, see
   :mod:`feedsift.crawl.learning`) and store the article, marking exact and near
   duplicates of earlier articles of the same site.

Each step commits before the next starts, so a killed crawl resumes where it stopped: items
still ``new`` are fetched at once (not when their feed is due again), documents without an
article are extracted, pages the saved learner state has not seen are learned again, and the
unique keys of items, documents and articles make a repeated step a no-op instead of a
duplicate. Several crawls can share one database (PostgreSQL): each feed is claimed for its
round, each item before its page is fetched, each new document until its article is stored
(:mod:`feedsift.storage.claims`), so no page is fetched twice; :meth:`Crawler.recover` takes
over what a killed process had claimed. Failures are recorded against their feed or page,
and the crawl goes on: an unexpected exception too (a bug, or a library failing on hostile
input), recorded as an ``internal error`` with its type, so one bad input never ends a round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from feedsift.acquisition.feeds import FeedEntry, ParsedFeed
from feedsift.acquisition.fetcher import HTML_MEDIA_TYPES, Fetcher, FetchResult, Validators
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.extraction import (
    ArrivalExtraction,
    ExtractionJob,
    ExtractionOutcome,
    JobRole,
)
from feedsift.crawl.keys import SiteKeys
from feedsift.crawl.learning import SiteLearning
from feedsift.crawl.report import CrawlCounts, Listener
from feedsift.crawl.services import CrawlServices
from feedsift.crawl.templating import TemplateOptions, Templating
from feedsift.dedup.fingerprint import NearDuplicateIndex
from feedsift.dedup.history import history_key
from feedsift.dedup.params import ItemSample
from feedsift.dedup.rules import QueryRule, load_rules
from feedsift.dedup.site import site_of
from feedsift.errors import (
    FeedsiftError,
    FetchError,
    HttpStatusError,
    InputError,
    RobotsDisallowedError,
    UnsafeAddressError,
)
from feedsift.records import FeedItem
from feedsift.storage import (
    ErrorRecord,
    FeedRecord,
    FeedUpdate,
    ItemRecord,
    NewArticle,
    NewDocument,
    NewItem,
    Stage,
    Store,
)

__all__ = ["FEED_ACCEPT", "PAGE_KINDS", "CrawlOptions", "Crawler", "failure_reason"]

logger = logging.getLogger(__name__)

#: What we ask feed URLs for: every feed format first, then any XML, then anything.
FEED_ACCEPT = (
    "application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml,"
    " application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"
)
#: Media types an item's page may have; anything else (PDF, images) is recorded and skipped.
PAGE_KINDS = HTML_MEDIA_TYPES
#: HTTP statuses after which asking again soon is pointless (gone, forbidden, not found...).
RETRYABLE_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
#: Characters kept of an unexpected exception's message: the reason stays one short line.
MAX_INTERNAL_DETAIL = 200


@dataclass(frozen=True, slots=True)
class CrawlOptions:
    """How much runs at once, how often a failing page is retried, and the polling bounds."""

    schedule: Schedule = field(default_factory=Schedule)
    rules: tuple[QueryRule, ...] = field(default_factory=load_rules)  #: URL-key rules
    feeds_at_once: int = 8  #: feeds polled in parallel (per-host limits are the fetcher's)
    pages_at_once: int = 16  #: page fetches in flight over all hosts
    max_item_attempts: int = 3  #: polls in which a failing page is tried before giving up
    templates: TemplateOptions = field(default_factory=TemplateOptions)  #: feed templates


def utc_now() -> datetime:
    return datetime.now(UTC)


class Crawler:
    """One crawl over a store: an explicit object owning its duplicate indexes and counts."""

    def __init__(
        self,
        store: Store,
        fetcher: Fetcher,
        extraction: ArrivalExtraction,
        options: CrawlOptions | None = None,
        listener: Listener | None = None,
    ) -> None:
        self.store, self.fetcher, self.extraction = store, fetcher, extraction
        self.options = options or CrawlOptions()
        self.rules = self.options.rules
        self.counts = CrawlCounts()
        self.stop = asyncio.Event()
        self._listener = listener
        self._clock = utc_now
        self._pages = asyncio.Semaphore(self.options.pages_at_once)
        self._indexes: dict[str, NearDuplicateIndex] = {}
        self._extracting: set[asyncio.Task[None]] = set()
        #: item pages being fetched, by URL: their lock and how many fetches use it
        self._fetching: dict[str, tuple[asyncio.Lock, int]] = {}
        self.learning = SiteLearning(store, extraction, lambda: self._clock())
        self.keys = SiteKeys(store, self.rules)
        self.services = CrawlServices(
            store, fetcher, extraction, self.rules, self.counts, lambda: self.stop.is_set(),
            lambda: self._clock(), listener,
        )  # fmt: skip
        self.templating = Templating(self.services, self.store_harvested, self.options.templates)
        self._fresh: dict[int, list[int]] = {}  # feed id -> documents its last poll stored
        self._resumed: set[int] = set()  # items resume() tried: not again in the first round
        #: this round's feed entries by link: the item a fetched page is checked against
        self._feed_items: dict[str, FeedItem] = {}

    # -- rounds -------------------------------------------------------------------------

    async def resume(self) -> None:
        """Finish what a previous, interrupted crawl left: learn again the pages the saved
        site-level state lacks, extract the documents it stored but did not extract, and
        fetch the items it found but did not fetch (without waiting for their feed); work
        another live process has claimed is left to it."""
        self._extract_stored("learn", self.learning.replay_ids())
        self._extract_stored("article", self.store.documents.claim_unextracted(self._clock()))
        left = self.store.items.left_new(self._clock())
        self._resumed = {item.id for item in left}
        await self._fetch_by_feed(left)
        self._fresh.clear()  # their feeds' next polls learn templates from their own items
        await self.drain()

    async def recover(self) -> None:
        """Take over the work other processes claimed and left (killed, or out of their
        lease): extract the documents they stored, fetch the items they had taken."""
        now = self._clock()
        self._extract_stored("article", self.store.documents.claim_unextracted(now, orphaned=True))
        orphans = self.store.items.orphaned(now)
        self.counts.taken_over += len(orphans)
        await self._fetch_by_feed(orphans)
        await self.drain()

    def _extract_stored(self, role: JobRole, ids: Sequence[int]) -> None:
        """Extract (or only learn, by ``role``) stored documents, each with its feed item."""
        for document_id in ids:
            record = self.store.documents.get(document_id)
            if record is not None:
                item = self.store.items.of_document(document_id)
                feed_item = _as_feed_item(item) if item is not None else None
                feed = item.feed_id if item is not None else None
                self._start_extraction(document_id, record.document, role, feed_item, feed)

    async def _fetch_by_feed(self, items: Sequence[ItemRecord]) -> None:
        by_feed: dict[int, list[ItemRecord]] = {}
        for item in items:
            by_feed.setdefault(item.feed_id, []).append(item)
        await asyncio.gather(*(self._fetch_items(feed, group) for feed, group in by_feed.items()))

    async def run_round(self, *, all_feeds: bool = False) -> int:
        """Poll the due feeds (every feed, with ``all_feeds``) once, several at once, each
        claimed before its poll so that another process polls the others; fetch their new
        pages, extract them. A feed whose handling fails unexpectedly is recorded as failed
        and the others go on. Return how many feeds this process polled."""
        started, polled = self._clock(), 0

        async def poller() -> None:
            nonlocal polled
            while not self.stop.is_set():
                with self.store.transaction():
                    feed = self.store.feeds.claim_next(
                        self._clock(), polled_before=started, due=not all_feeds
                    )
                if feed is None:
                    return
                polled += 1
                await self._claimed_feed_round(feed)

        await asyncio.gather(*(poller() for _ in range(self.options.feeds_at_once)))
        self._resumed.clear()
        await self.drain()
        return polled

    async def _claimed_feed_round(self, feed: FeedRecord) -> None:
        started = time.perf_counter()
        try:
            await self._feed_round(feed)
        except Exception as exc:  # a bug or a library's failure: policy is ours
            logger.info("%s: unexpected failure", feed.url, exc_info=exc)
            self._feed_failed(feed, exc, self._clock(), time.perf_counter() - started)
        finally:
            with self.store.transaction():
                self.store.feeds.release(feed.id)

    async def _feed_round(self, feed: FeedRecord) -> None:
        parsed = await self.poll_feed(feed)
        entries = {i.url: i for i in parsed.sample().items if i.url} if parsed else {}
        self._feed_items.update(entries)
        try:
            await self.fetch_pending(feed.id)
        finally:
            for url in entries:
                self._feed_items.pop(url, None)
        fresh = self._fresh.pop(feed.id, [])
        if parsed is not None and not self.stop.is_set():
            await self._templates(feed, parsed, fresh)

    async def _templates(self, feed: FeedRecord, parsed: ParsedFeed, fresh: list[int]) -> None:
        """The feed's template step; its failure is recorded for the feed, the round goes on."""
        try:
            await self.templating.after_poll(feed, parsed, fresh)
        except FeedsiftError as exc:
            with self.store.transaction():
                self._record_error("feed", feed.id, feed.url, f"template: {exc}", self._clock())

    async def drain(self) -> None:
        """Wait until every extraction started so far is stored; save what was learned."""
        while self._extracting:
            await asyncio.gather(*list(self._extracting))
        self.counts.site_states_saved += await self.learning.save()

    # -- feeds --------------------------------------------------------------------------

    async def poll_feed(self, feed: FeedRecord) -> ParsedFeed | None:
        """Fetch and parse one feed; store its new items and its next poll time; return the
        parsed feed (``None`` when it failed or did not change)."""
        started = time.perf_counter()
        now = self._clock()
        try:
            result = await self.fetcher.fetch(
                feed.url, validators=Validators(feed.etag, feed.last_modified), accept=FEED_ACCEPT
            )
            parsed = None
            if not result.not_modified:
                parse = await self.extraction.parse_feed(
                    result.body, result.response_url, result.content_type
                )
                parsed = parse.feed
                self.counts.times.feeds += parse.seconds
        except FeedsiftError as exc:
            self._feed_failed(feed, exc, now, time.perf_counter() - started)
            return None
        self._feed_polled(feed, result, parsed, now, time.perf_counter() - started)
        return parsed

    def _feed_polled(
        self,
        feed: FeedRecord,
        result: FetchResult,
        parsed: ParsedFeed | None,
        now: datetime,
        seconds: float,
    ) -> None:
        self.counts.feeds_polled += 1
        self.counts.feeds_unchanged += parsed is None
        self.counts.times.feeds += result.elapsed
        self.counts.times.wait += result.waited
        self.counts.bytes_fetched += len(result.body)
        published = [entry.published for entry in parsed.entries] if parsed else []
        interval = self.options.schedule.interval(published) if parsed else feed.interval
        update = FeedUpdate(
            polled_at=now,
            next_poll_at=self.options.schedule.next_time(now, interval),
            interval=interval,
            seconds=seconds,
            status=result.status,
            etag=result.validators.etag,
            last_modified=result.validators.last_modified,
            title=parsed.title if parsed else None,
            format=parsed.format if parsed else None,
            site_url=parsed.site_url if parsed else None,
        )
        items = _new_items(parsed) if parsed else []
        with self.store.transaction():
            new = self.store.items.add(feed.id, feed.site, items, now)
            if parsed:
                self.keys.learn((ItemSample(e.url, e.title) for e in parsed.entries if e.url), now)
            self.store.feeds.update(feed.id, update)
        self.counts.new_items += new
        self._tell("feed", f"{feed.url}: {new} new items" if parsed else f"{feed.url}: unchanged")

    def _feed_failed(
        self, feed: FeedRecord, error: Exception, now: datetime, seconds: float
    ) -> None:
        self.counts.feeds_polled += 1
        self.counts.feed_errors += 1
        self.counts.times.feeds += seconds
        retry_after = error.retry_after if isinstance(error, HttpStatusError) else None
        wait = self.options.schedule.after_error(feed.error_count + 1, retry_after)
        status = error.status if isinstance(error, HttpStatusError) else None
        update = FeedUpdate(
            polled_at=now,
            next_poll_at=self.options.schedule.next_time(now, wait),
            interval=feed.interval,
            seconds=seconds,
            status=status,
            error=failure_reason(error),
        )
        with self.store.transaction():
            self.store.feeds.update(feed.id, update)
            self._record_error("feed", feed.id, feed.url, failure_reason(error), now)

    # -- pages --------------------------------------------------------------------------

    async def fetch_pending(self, feed_id: int) -> None:
        """Fetch the pages of the feed's items not fetched yet (new, or failed before; an
        item that failed in this crawl's resume waits for the next round)."""
        pending = [i for i in self.store.items.pending(feed_id) if i.id not in self._resumed]
        await self._fetch_items(feed_id, pending)

    async def _fetch_items(self, feed_id: int, items: list[ItemRecord]) -> None:
        """Fetch ``items`` of one feed, after comparison pages when its site's learners want."""
        site = _site_or_none(items[0].url) if items else None
        if site is not None:
            await self._fetch_comparisons(feed_id, site)
        await asyncio.gather(*(self._fetch_item(item) for item in items))

    async def _fetch_comparisons(self, feed_id: int, site: str) -> None:
        """Fetch older items of the feed again for the learners of ``site`` (not stored)."""
        wanted = self.learning.comparisons_wanted(site)
        for url in self.store.items.settled_urls(feed_id, wanted) if wanted else ():
            async with self._pages:
                try:
                    result = await self.fetcher.fetch(url, kinds=PAGE_KINDS)
                except FetchError as exc:
                    self._tell("error", f"{url}: comparison page not fetched: {exc}")
                    continue
            self.counts.comparison_pages += 1
            self._tell("page", f"{result.response_url}: comparison page (learned, not stored)")
            job = ExtractionJob(
                0, site_of(result.response_url), result.response_url, result.body,
                result.content_type, "learn", result.fetched_at,
            )  # fmt: skip
            self._start_job(job)

    async def _fetch_item(self, item: ItemRecord) -> None:
        async with self._pages:
            if self.stop.is_set() or not self._claim(item):
                return
            try:
                await self._fetch_item_page(item)
            except Exception as exc:  # a bug or a library's failure: this page fails alone
                logger.info("%s: unexpected failure", item.url, exc_info=exc)
                last = item.attempts + 1 >= self.options.max_item_attempts
                self._item_failed(item, exc, final=last)

    async def _fetch_item_page(self, item: ItemRecord) -> None:
        if item.url is None:
            self._item_failed(item, FetchError("the feed item has no link"), final=True)
            return
        async with self._one_fetch_of(item.url):  # a page two items link: fetched once
            if self._known_duplicate(item, item.url):
                return
            try:
                result = await self.fetcher.fetch(item.url, kinds=PAGE_KINDS)
            except FetchError as exc:
                final = _is_permanent(exc) or item.attempts + 1 >= self.options.max_item_attempts
                self._item_failed(item, exc, final=final)
                return
            self._page_fetched(item, result)

    @contextlib.asynccontextmanager
    async def _one_fetch_of(self, url: str) -> AsyncIterator[None]:
        """Hold ``url`` while it is fetched and stored: another item of this crawl linking
        the same page waits, then finds it stored (feeds of one site are polled at once)."""
        lock, users = self._fetching.get(url, (asyncio.Lock(), 0))
        self._fetching[url] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            users = self._fetching[url][1] - 1
            if users:
                self._fetching[url] = (lock, users)
            else:  # nobody waits: forget the address (a watch runs for months)
                del self._fetching[url]

    def _claim(self, item: ItemRecord) -> bool:
        """Claim the item to fetch its page; False: done already, or another process has it."""
        with self.store.transaction():
            claimed = self.store.items.claim(item.id, self._clock())
        self.counts.left_to_others += not claimed
        return claimed

    def _known_duplicate(self, item: ItemRecord, url: str) -> bool:
        """Settle ``item`` without a fetch when an earlier fetch of its URL gives a stored key."""
        response_url = self.store.documents.response_url_of(url)
        if response_url is None:
            return False
        document_id = self.keys.stored_document(response_url, item.title)
        if document_id is None:
            return False
        with self.store.transaction():
            self.store.items.settle(item.id, "duplicate", document_id)
        self.counts.url_duplicates += 1
        self._tell("item", f"{url}: duplicate of a stored page (no fetch)")
        return True

    def _page_fetched(self, item: ItemRecord, result: FetchResult) -> None:
        started = time.perf_counter()
        document = self._document(result, item.title)
        earlier = self.keys.earlier_document(result.response_url, item.title)
        with self.store.transaction():
            if earlier is None:
                document_id, new = self.store.documents.add(document)
            else:  # stored under its key of before the site's parameters were learned
                document_id, new = earlier, False
            if new:  # ours until its article is stored
                self.store.documents.claim(document_id, self._clock())
            self.store.items.settle(item.id, "stored" if new else "duplicate", document_id)
        self._count_page(result, new, time.perf_counter() - started)
        if new:
            self._fresh.setdefault(item.feed_id, []).append(document_id)
            feed_item = self._feed_items.get(item.url or "") or _as_feed_item(item)
            self._start_extraction(document_id, document, "article", feed_item, item.feed_id)

    def _document(self, result: FetchResult, title: str | None) -> NewDocument:
        return NewDocument(
            url_key=self.keys.key_of(result.response_url, title),
            site=site_of(result.response_url),
            request_url=result.request_url,
            response_url=result.response_url,
            status=result.status,
            headers=result.headers,
            body=result.body,
            fetched_at=result.fetched_at,
            fetch_seconds=result.elapsed,
        )

    def store_harvested(self, result: FetchResult, outcome: ExtractionOutcome) -> bool:
        """Store a post found through links, with its article; False when its URL key is
        stored already (then nothing is written)."""
        document = self._document(result, None)
        with self.store.transaction():
            document_id, new = self.store.documents.add(document)
            if new:
                self.store.documents.claim(document_id, self._clock())
        if new:
            self.counts.pages_stored += 1
            self._store_article(replace(outcome, job=replace(outcome.job, document_id=document_id)))
        return new

    def _count_page(self, result: FetchResult, new: bool, store_seconds: float) -> None:
        counts = self.counts
        counts.pages_stored += new
        counts.url_duplicates += not new
        counts.bytes_fetched += len(result.body)
        counts.times.fetch += result.elapsed
        counts.times.wait += result.waited
        counts.times.store += store_seconds
        self._tell("page", f"{result.response_url}: {'stored' if new else 'URL duplicate'}")

    def _item_failed(self, item: ItemRecord, error: Exception, *, final: bool) -> None:
        now, reason = self._clock(), failure_reason(error)
        with self.store.transaction():
            self.store.items.fail(item.id, reason, final=final)
            self._record_error("page", item.feed_id, item.url, reason, now)
        self.counts.page_errors += 1

    # -- articles -----------------------------------------------------------------------

    def _start_extraction(
        self,
        document_id: int,
        document: NewDocument,
        role: JobRole = "article",
        feed_item: FeedItem | None = None,
        feed_id: int | None = None,
    ) -> None:
        """Extract (or only learn) a stored document; ``feed_item``: the item of the feed
        ``feed_id`` that links it, which the site's methods (the feed's template among
        them, once it has one) are checked against."""
        template = self.store.templates.current(feed_id) if feed_id is not None else None
        job = ExtractionJob(
            document_id, document.site, document.response_url, document.body,
            document.header("content-type"), role, document.fetched_at, item=feed_item,
            template=template.state if template is not None else None,
        )  # fmt: skip
        self._start_job(job)

    def _start_job(self, job: ExtractionJob) -> None:
        job = replace(job, saved=self.learning.state_for(job.site))
        task = asyncio.get_running_loop().create_task(self._extract(job))
        self._extracting.add(task)
        task.add_done_callback(self._extracting.discard)

    async def _extract(self, job: ExtractionJob) -> None:
        try:
            outcome = await self.extraction.extract(job)
        except Exception as exc:  # a bug or a library's failure: this page fails alone
            logger.info("%s: unexpected extraction failure", job.url, exc_info=exc)
            outcome = ExtractionOutcome(job, None, failure_reason(exc), 0.0)
        self.counts.times.extract += outcome.seconds
        if job.role == "learn":
            self.counts.pages_learned += outcome.error is None
            return
        if outcome.article is None:
            with self.store.transaction():
                reason = f"extraction failed: {outcome.error}"
                self._record_error("extract", None, job.url, reason, self._clock())
                self.store.documents.hold(job.document_id)  # not again while we live
            self.counts.extract_errors += 1
            return
        self._store_article(outcome)

    def _store_article(self, outcome: ExtractionOutcome) -> None:
        job, article = outcome.job, outcome.article
        assert article is not None
        duplicate_of = near_of = None
        if outcome.comparable:
            duplicate_of = self.store.articles.with_hash(job.site, outcome.content_hash)
            near_of = None if duplicate_of else self._index(job.site).find(outcome.simhash)
        new = NewArticle(
            job.document_id, job.site, job.url, article, outcome.content_hash, outcome.simhash,
            self._clock(), outcome.seconds, outcome.record, duplicate_of, near_of,
        )  # fmt: skip
        with self.store.transaction():
            article_id = self.store.articles.add(new)
            self.store.documents.release(job.document_id)
        if article_id is not None and outcome.comparable and not (duplicate_of or near_of):
            self._index(job.site).add(article_id, outcome.simhash)
        self._count_article(job, duplicate_of, near_of)

    def _count_article(self, job: ExtractionJob, exact: int | None, near: int | None) -> None:
        self.counts.articles += 1
        self.counts.exact_duplicates += exact is not None
        self.counts.near_duplicates += near is not None
        note = " (exact duplicate)" if exact else " (near duplicate)" if near else ""
        self._tell("article", f"{job.url}: extracted{note}")

    def _index(self, site: str) -> NearDuplicateIndex:
        index = self._indexes.get(site)
        if index is None:
            index = self._indexes[site] = NearDuplicateIndex()
            for article_id, fingerprint in self.store.articles.fingerprints(site):
                index.add(article_id, fingerprint)
        return index

    # -- errors and events --------------------------------------------------------------

    def _record_error(
        self, stage: Stage, feed_id: int | None, url: str | None, reason: str, now: datetime
    ) -> None:
        self.store.errors.add(ErrorRecord(now, stage, feed_id, url, reason))
        self._tell("error", f"{url}: {reason}")

    def _tell(self, event: str, detail: str) -> None:
        if self._listener is not None:
            self._listener(event, detail)


def failure_reason(error: BaseException) -> str:
    """The one-line reason recorded for a failure: a FeedsiftError's own message, or the
    type and message of an unexpected exception (a bug), marked ``internal error``."""
    if isinstance(error, FeedsiftError):
        return str(error)
    detail = " ".join(str(error).split())[:MAX_INTERNAL_DETAIL]
    return f"internal error: {type(error).__name__}" + (f": {detail}" if detail else "")


def _site_or_none(url: str | None) -> str | None:
    try:
        return site_of(url) if url else None
    except InputError:
        return None  # a link without a host: the item fails on its own, with its reason


def _as_feed_item(item: ItemRecord) -> FeedItem:
    """A stored item as the feed stated it, as far as the store keeps it (no content,
    authors or tags: a page fetched in a later session is checked on title, date, excerpt)."""
    return FeedItem(item.url, item.title, item.description, None, item.published)


def _new_items(parsed: ParsedFeed) -> list[NewItem]:
    return [_new_item(entry) for entry in parsed.entries]


def _new_item(entry: FeedEntry) -> NewItem:
    key = history_key(entry.title, entry.description, entry.published)
    return NewItem(key, entry.url, entry.title, entry.description, entry.published)


def _is_permanent(error: FetchError) -> bool:
    """Whether asking again in a later poll cannot help."""
    if isinstance(error, RobotsDisallowedError | UnsafeAddressError):
        return True
    return isinstance(error, HttpStatusError) and error.status not in RETRYABLE_STATUSES

"""One partition's records, host after host, into article rows (runs in the executors).

A partition arrives sorted by :class:`~feedsift.spark.records.RecordKey`: whole sites, each
host's records together, its feed items first, then its pages in capture order. For each
host, :func:`partition_rows` keeps the feed items (by link, at most
:data:`MAX_HOST_ITEMS`) and streams the pages:

* a host with fewer than :data:`MIN_HOST_PAGES` pages gets the page level alone, exactly as
  ``feedsift extract`` extracts a WARC page (:func:`feedsift.extract`), and so does every
  host when the job runs without site-level options (``feedsift spark --method page``: the
  pages are extracted as they come, nothing held);
* a bigger one gets the site-level engine of the crawl
  (:class:`~feedsift.sitelevel.SiteModels`: URL Tree and DiffPost learned from the stream,
  the per-field combiner checking them on the host's feed items), fed in capture order; its
  learners are dropped when the host ends, so a partition holds one host's learners at a
  time, within the URL Tree's eviction bounds (:class:`~feedsift.sitelevel.Eviction`);
  like the crawl, it learns the host's feed template from item pages and gives it to
  the combiner to check on the later ones (:mod:`feedsift.spark.templating`). The
  :class:`~feedsift.sitelevel.SiteOptions` say how (``hybrid`` masks or ``site`` learners
  alone, as ``feedsift crawl --method`` does).

The learners are per host, as in the crawl (a registered domain's hosts often run different
templates); the ``site`` column is the registered domain.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from itertools import groupby

from feedsift.acquisition.warc import WarcPage, WarcSkip
from feedsift.api import extract
from feedsift.errors import FeedsiftError
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article, FeedItem
from feedsift.sitelevel.combiner import MIN_CHECKS
from feedsift.sitelevel.models import SiteModels, SiteOptions
from feedsift.sitelevel.urltree import DEFAULT_N_MIN
from feedsift.spark.reading import KeyedRecord
from feedsift.spark.records import ArticleRow, RecordKey
from feedsift.spark.tally import LEARNED, PAGE_LEVEL, TEMPLATE, JobTally
from feedsift.spark.templating import HostTemplate

__all__ = ["DEFAULT_SITE_LEVEL", "MAX_HOST_ITEMS", "MIN_HOST_PAGES", "HostRun", "article_row",
           "partition_rows"]  # fmt: skip

logger = logging.getLogger(__name__)

#: A host with fewer pages gets the page level alone: the URL Tree judges from a host's
#: ``n_min``-th page, and the combiner wants :data:`MIN_CHECKS` checks on judged pages
#: before it uses a method, so every field of a smaller host is the page level's anyway.
MIN_HOST_PAGES = DEFAULT_N_MIN + MIN_CHECKS - 1
#: Feed items kept per host (the first, in capture order): a crawl's feeds list a host's
#: recent posts, a few hundred at most; more is an archive dump that would only cost memory.
MAX_HOST_ITEMS = 10_000
#: How big hosts learn unless told: the crawl's default (hybrid masks, per field where the
#: host's feed items confirm them).
DEFAULT_SITE_LEVEL = SiteOptions()


def partition_rows(
    records: Iterable[KeyedRecord],
    extractor: LearnedPageExtractor,
    tally: JobTally,
    site_level: SiteOptions | None = DEFAULT_SITE_LEVEL,
) -> Iterator[ArticleRow]:
    """The article rows of a sorted partition's pages (see the module); ``site_level``
    ``None``: the page level on every page."""
    for _, host_records in groupby(records, key=lambda pair: (pair[0].site, pair[0].host)):
        yield from HostRun(extractor, tally, site_level).rows(host_records)


class HostRun:
    """One host's records: its feed items, its first pages held until the host is known to
    be big enough to learn, then its learners (without site-level options, each page on the
    page level as it comes)."""

    def __init__(
        self, extractor: LearnedPageExtractor, tally: JobTally, site_level: SiteOptions | None
    ) -> None:
        self.extractor, self.tally, self.site_level = extractor, tally, site_level
        self.items: dict[str, FeedItem] = {}
        self.held: list[tuple[RecordKey, WarcPage]] = []
        self.models: SiteModels | None = None
        self.template: HostTemplate | None = None

    def rows(self, records: Iterable[KeyedRecord]) -> Iterator[ArticleRow]:
        if self.site_level is None:
            yield from self._page_level_only(records)
            return
        for key, record in records:
            if isinstance(record, FeedItem):
                if len(self.items) < MAX_HOST_ITEMS:
                    self.items.setdefault(record.url or "", record)
            elif self.models is not None:
                yield from self._learned(key, record)
            else:
                self.held.append((key, record))
                if len(self.held) >= MIN_HOST_PAGES:
                    yield from self._start_learning()
        if self.held:  # the host ended before it was big enough
            self.tally.hosts[PAGE_LEVEL] += 1
            for key, page in self.held:
                yield from self._page_level(key, page)
        self.models, self.template, self.items, self.held = None, None, {}, []

    def _page_level_only(self, records: Iterable[KeyedRecord]) -> Iterator[ArticleRow]:
        """Every page of the host on the page level, in capture order; its feed items
        passed over."""
        pages = 0
        for key, record in records:
            if isinstance(record, WarcPage):
                pages += 1
                yield from self._page_level(key, record)
        if pages:
            self.tally.hosts[PAGE_LEVEL] += 1

    def _start_learning(self) -> Iterator[ArticleRow]:
        assert self.site_level is not None
        self.models = SiteModels(self.extractor, self.site_level)
        self.template = HostTemplate(len(self.items))
        self.tally.hosts[LEARNED] += 1
        held, self.held = self.held, []
        for key, page in held:
            yield from self._learned(key, page)

    def _learned(self, key: RecordKey, record: WarcPage) -> Iterator[ArticleRow]:
        assert self.models is not None
        item = self.items.get(record.url)
        try:
            page = parse_page(record.body, record.url, record.content_type)
            article = self.models.process(page, record.date, item=item)
        except Exception as exc:
            self._failed(key, record, exc)
            return
        if item is not None:
            self._teach(key.host, item, page)
        yield self._row(key, record, article)

    def _teach(self, host: str, item: FeedItem, page: ParsedPage) -> None:
        """Keep an item page for the host's template; hand the template to the combiner
        once it is learned."""
        assert self.models is not None and self.template is not None
        state = self.template.add(item, page)
        if state is not None:
            self.models.use_template(host, state)
            self.tally.hosts[TEMPLATE] += 1

    def _page_level(self, key: RecordKey, record: WarcPage) -> Iterator[ArticleRow]:
        try:
            article = extract(record.body, record.url, content_type=record.content_type,
                              extractor=self.extractor)  # fmt: skip
        except Exception as exc:
            self._failed(key, record, exc)
            return
        yield self._row(key, record, article)

    def _row(self, key: RecordKey, record: WarcPage, article: Article) -> ArticleRow:
        row = article_row(key.site, record, article)
        self.tally.methods[row.method] += 1
        return row

    def _failed(self, key: RecordKey, record: WarcPage, exc: Exception) -> None:
        reason = str(exc) if isinstance(exc, FeedsiftError) else f"internal error: {exc!r}"
        logger.info("%s: %s did not extract: %s", key.source, record.url, reason)
        skip = WarcSkip("failed", reason, record.url, record.record_id, record.offset)
        self.tally.skip(key.source, skip)


def article_row(site: str, record: WarcPage, article: Article) -> ArticleRow:
    """The row of ``record``'s article."""
    provenance = article.provenance
    return ArticleRow(
        url=record.url, site=site, kind=article.kind.value, title=article.title,
        text=article.text, published=article.published, authors=article.authors,
        language=article.language, method=provenance.method,
        confidence=float(provenance.confidence), warc_record_id=record.record_id,
    )  # fmt: skip

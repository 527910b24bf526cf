"""What passes between the Spark job's stages: record keys and the rows written out.

Every record read from a WARC file travels with a :class:`RecordKey`: Spark partitions by
its ``site`` and sorts by the whole key, so each partition holds whole sites, each host's
records together, feed items before pages, then pages in capture order. The job writes one
:class:`ArticleRow` per HTML page extracted, with the columns of :data:`ARTICLE_COLUMNS`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

__all__ = [
    "ARTICLE_COLUMNS",
    "ITEM_ORDER",
    "NO_DATE",
    "PAGE_ORDER",
    "ArticleRow",
    "RecordKey",
    "capture_key",
    "published_columns",
    "site_partition",
]

#: A host's feed items sort before its pages: every item is known when its page comes,
#: whether the crawler fetched the feed before or after the page.
ITEM_ORDER = 0
PAGE_ORDER = 1
#: The capture time of a record without a readable ``WARC-Date``: after every real one
#: (digits sort before ``~``), so such pages are learned last, in file order.
NO_DATE = "~"


def capture_key(date: datetime | None) -> str:
    """A capture time as text that sorts in time order (ISO 8601 in UTC)."""
    if date is None:
        return NO_DATE
    moment = date.astimezone(UTC) if date.tzinfo is not None else date
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


@dataclass(frozen=True, slots=True, order=True)
class RecordKey:
    """Where a record goes and when it comes: fields compare in this order."""

    site: str  #: registered domain: the partition
    host: str  #: ``host[:port]`` without ``www.``: one site's learners
    order: int  #: :data:`ITEM_ORDER` or :data:`PAGE_ORDER`
    captured: str  #: :func:`capture_key` of the record's ``WARC-Date``
    source: str  #: the WARC file's name (ties: file order)
    offset: int  #: where the record starts in its file
    position: int = 0  #: an item's place in its feed


def site_partition(key: RecordKey) -> int:
    """The number Spark takes modulo the partition count: the same for every record of a
    site, on every machine (a CRC, not Python's ``hash``, which each process salts)."""
    return zlib.crc32(key.site.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class ArticleRow:
    """One HTML page's article as written to Parquet (see :data:`ARTICLE_COLUMNS`)."""

    url: str  #: the record's target URI
    site: str  #: the registered domain
    kind: str  #: :class:`~feedsift.records.PageKind` value
    title: str | None
    text: str
    published: datetime | None
    authors: tuple[str, ...]
    language: str | None
    method: str  #: the method that made the body (``page``, ``hybrid-urltree-strict`` ...)
    confidence: float  #: the provenance's confidence
    warc_record_id: str

    def values(self) -> tuple[object, ...]:
        """The values in :data:`ARTICLE_COLUMNS` order (``published`` as its two columns,
        :func:`published_columns`; authors as a list, as Spark's arrays are)."""
        return (self.url, self.site, self.kind, self.title, self.text,
                *published_columns(self.published), list(self.authors), self.language,
                self.method, self.confidence, self.warc_record_id)  # fmt: skip


def published_columns(moment: datetime | None) -> tuple[datetime | None, int | None]:
    """A publication time as Parquet keeps it: the instant in UTC, and the offset the page
    stated, in minutes east of UTC (Parquet's timestamps hold no zone, and without the
    offset a post dated midnight in Berlin would be on the day before). A time stated
    without a zone is taken as UTC, so its day stays the stated day on every machine (Spark
    would read it in the worker's local zone), and its offset is null."""
    if moment is None:
        return None, None
    offset = moment.utcoffset()
    if offset is None:
        return moment.replace(tzinfo=UTC), None
    return moment.astimezone(UTC), offset // timedelta(minutes=1)


#: The output's columns, in order (``published_offset``: see :func:`published_columns`).
ARTICLE_COLUMNS = (
    "url", "site", "kind", "title", "text", "published", "published_offset", "authors",
    "language", "method", "confidence", "warc_record_id",
)  # fmt: skip

"""One WARC file's records, keyed for the shuffle (runs in the executors).

:func:`keyed_records` reads a file's bytes with :func:`~feedsift.acquisition.warc.read_warc`
and yields ``(RecordKey, record)`` pairs: a :class:`~feedsift.acquisition.warc.WarcPage` for
each HTML page, and a :class:`~feedsift.records.FeedItem` for each item of each feed the
crawl captured (RSS, Atom, RDF, JSON Feed), keyed to the host its link names, so that a
page's feed item reaches the page's partition ahead of it. Everything else is counted in
the task's :class:`~feedsift.spark.tally.JobTally`: skipped records by reason, a file that
is no WARC file as unreadable. Nothing here raises for bad input.

A page of a ``.warc.gz`` file goes to the shuffle as its record's own gzip member (a
:class:`PackedPage`, about a fifth of the page's bytes), and :func:`unpacked` reads it
again in the partition that extracts it: the shuffle moves, sorts and spills a fifth of
the bytes, for a second decompression spread over the extracting tasks.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, replace

from feedsift.acquisition.discovery import FEED_ONLY_MEDIA_TYPES
from feedsift.acquisition.feeds import parse_feed
from feedsift.acquisition.fetcher import HTML_MEDIA_TYPES
from feedsift.acquisition.warc import DEFAULT_MAX_RECORD_BYTES, WarcPage, WarcSkip, read_warc
from feedsift.dedup.site import site_of
from feedsift.errors import FeedsiftError, InputError
from feedsift.records import FeedItem
from feedsift.spark.records import ITEM_ORDER, PAGE_ORDER, RecordKey, capture_key
from feedsift.spark.sites import registered_domain
from feedsift.spark.tally import JobTally

__all__ = ["READ_MEDIA_TYPES", "KeyedRecord", "PackedPage", "ShuffledRecord", "keyed_records",
           "unpacked"]  # fmt: skip

#: What a record must be to be read: HTML pages, and the feeds whose items check the
#: site-level methods (the generic ``text/xml`` and JSON types are mostly not feeds).
READ_MEDIA_TYPES = HTML_MEDIA_TYPES | FEED_ONLY_MEDIA_TYPES

#: The first bytes of a gzip member: a record that starts with them can be read alone.
GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class PackedPage:
    """A page as the bytes of its WARC record's gzip member (and any records up to the
    next one read: a request, metadata), for :func:`unpacked` to read again."""

    member: bytes
    offset: int  #: where the member starts in its file
    max_bytes: int  #: the record size cap the first reading applied


#: What the extraction reads: a page or a feed item, with its key.
KeyedRecord = tuple[RecordKey, WarcPage | FeedItem]
#: What the reading stage passes to the shuffle: pages may be packed.
ShuffledRecord = tuple[RecordKey, WarcPage | FeedItem | PackedPage]


def keyed_records(
    name: str, data: bytes, tally: JobTally, max_bytes: int = DEFAULT_MAX_RECORD_BYTES
) -> Iterator[ShuffledRecord]:
    """The pages and feed items of the WARC file ``name`` whose bytes are ``data``."""
    held: tuple[RecordKey, WarcPage] | None = None  # a page waits for its end: the next record
    try:
        for record in read_warc(io.BytesIO(data), max_bytes, READ_MEDIA_TYPES):
            if held is not None:
                yield _packed(*held, data[held[1].offset : record.offset], max_bytes)
                held = None
            if isinstance(record, WarcSkip):
                tally.skip(name, record)
            elif record.media_type in FEED_ONLY_MEDIA_TYPES:
                yield from _feed_items(name, record, tally)
            else:
                key = _page_key(name, record, tally)
                held = None if key is None else (key, record)
    except InputError as exc:
        tally.unreadable[f"{name}: {exc}"] += 1
        return
    if held is not None:
        yield _packed(*held, data[held[1].offset :], max_bytes)
    tally.files += 1


def _packed(key: RecordKey, page: WarcPage, member: bytes, max_bytes: int) -> ShuffledRecord:
    """The page as ``member``, its record's bytes up to the next record read, when they are
    a gzip member smaller than its body (a ``.warc.gz``, not a plain ``.warc``; not a
    member that runs to a broken file's end: a break right after the page reports the
    page's own offset, so the member is empty and the page goes as it is)."""
    if member.startswith(GZIP_MAGIC) and len(member) < len(page.body):
        return key, PackedPage(member, page.offset, max_bytes)
    return key, page


def unpacked(value: WarcPage | FeedItem | PackedPage) -> WarcPage | FeedItem:
    """A shuffled record as the extraction reads it: a packed page read again."""
    if not isinstance(value, PackedPage):
        return value
    record = next(read_warc(io.BytesIO(value.member), value.max_bytes, READ_MEDIA_TYPES))
    if not isinstance(record, WarcPage):  # read whole once already: cannot happen
        raise InputError(f"the record at byte {value.offset} no longer reads: {record.detail}")
    return replace(record, offset=value.offset)


def _page_key(name: str, page: WarcPage, tally: JobTally) -> RecordKey | None:
    """The page's key (``None``: a URL without a usable host, counted as broken)."""
    try:
        host = site_of(page.url)
    except InputError as exc:
        tally.skip(name, WarcSkip("broken", str(exc), page.url, page.record_id, page.offset))
        return None
    tally.pages += 1
    return RecordKey(registered_domain(host), host, PAGE_ORDER, capture_key(page.date), name,
                     page.offset)  # fmt: skip


def _feed_items(name: str, feed: WarcPage, tally: JobTally) -> Iterator[KeyedRecord]:
    """Each item of the feed, keyed to its link's host (items without a usable link and
    feeds that do not parse are passed over; the latter are counted as not HTML)."""
    try:
        sample = parse_feed(feed.body, feed.url, feed.content_type).sample()
    except FeedsiftError:
        detail = f"{feed.media_type} (not a readable feed)"
        tally.skip(name, WarcSkip("not-html", detail, feed.url, feed.record_id, feed.offset))
        return
    tally.feeds += 1
    captured = capture_key(feed.date)
    for position, item in enumerate(sample.items):
        try:
            host = site_of(item.url) if item.url else ""
        except InputError:
            continue
        if host:
            tally.items += 1
            key = RecordKey(registered_domain(host), host, ITEM_ORDER, captured, name,
                            feed.offset, position)  # fmt: skip
            yield key, item

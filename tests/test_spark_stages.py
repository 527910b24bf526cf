"""The Spark job's stages without Spark: site keys, ordering, reading, hosts and the tally."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import feedsift
from feedsift.acquisition.discovery import FEED_ONLY_MEDIA_TYPES
from feedsift.acquisition.warc import WarcPage, WarcSkip, read_warc
from feedsift.acquisition.warc_writer import write_warc
from feedsift.api import bundled_extractor
from feedsift.records import FeedItem
from feedsift.sitelevel.models import SiteOptions
from feedsift.spark.hosts import MIN_HOST_PAGES, partition_rows
from feedsift.spark.job import spark_inputs
from feedsift.spark.reading import (
    READ_MEDIA_TYPES,
    KeyedRecord,
    PackedPage,
    keyed_records,
    unpacked,
)
from feedsift.spark.records import (
    ITEM_ORDER,
    NO_DATE,
    PAGE_ORDER,
    ArticleRow,
    RecordKey,
    capture_key,
    published_columns,
    site_partition,
)
from feedsift.spark.sites import registered_domain
from feedsift.spark.tally import (
    LEARNED,
    MAX_DETAILS,
    OTHER_DETAILS,
    PAGE_LEVEL,
    TEMPLATE,
    JobTally,
)
from spark_warc import (
    BIG_PAGES,
    BIG_SITE,
    IP_URL,
    SMALL_SITE,
    SMALL_URLS,
    big_url,
    crawl_records,
    write_crawl,
)

# --- site keys ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "site"),
    [
        ("news.bbc.co.uk", "bbc.co.uk"),  # a two-label public suffix
        ("bbc.co.uk", "bbc.co.uk"),
        ("www.example.com", "example.com"),
        ("a.b.c.example.com.au", "example.com.au"),
        ("jane.github.io", "jane.github.io"),  # the list's private section: a blog per name
        ("shop.example.com:8443", "example.com"),  # the port does not make another site
        ("192.168.10.4", "192.168.10.4"),  # an IP address is its own site, port and all
        ("127.0.0.1:8080", "127.0.0.1:8080"),
        ("localhost", "localhost"),
        ("co.uk", "co.uk"),  # a suffix itself
        ("News.Example.ORG", "example.org"),
    ],
)
def test_the_site_is_the_registered_domain(host: str, site: str) -> None:
    assert registered_domain(host) == site


# --- ordering -------------------------------------------------------------------------------


def test_capture_keys_sort_in_time_whatever_the_zone_and_undated_last() -> None:
    paris = timezone(timedelta(hours=2))
    early = datetime(2024, 5, 1, 13, 0, tzinfo=paris)  # 11:00 UTC
    late = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    assert capture_key(early) < capture_key(late) < capture_key(None) == NO_DATE
    assert capture_key(datetime(2024, 5, 1, 12, 0, 0, 5, tzinfo=UTC)) > capture_key(late)


def test_published_keeps_its_instant_and_the_offset_that_gives_the_pages_own_day() -> None:
    berlin = datetime(2023, 6, 29, 0, 30, tzinfo=timezone(timedelta(hours=2)))
    instant, offset = published_columns(berlin)
    assert instant == datetime(2023, 6, 28, 22, 30, tzinfo=UTC) and offset == 120
    assert (instant + timedelta(minutes=offset)).date().isoformat() == "2023-06-29"
    west = published_columns(datetime(2023, 6, 29, 23, 0, tzinfo=timezone(timedelta(hours=-3))))
    assert west == (datetime(2023, 6, 30, 2, 0, tzinfo=UTC), -180)
    assert published_columns(datetime(2023, 6, 29)) == (datetime(2023, 6, 29, tzinfo=UTC), None)
    assert published_columns(None) == (None, None)


def _key(host: str, order: int, when: datetime | None, offset: int = 0) -> RecordKey:
    return RecordKey(registered_domain(host), host, order, capture_key(when), "f", offset)


def test_a_site_sorts_host_by_host_items_first_then_pages_in_capture_order() -> None:
    now = datetime(2024, 5, 1, tzinfo=UTC)
    keys = [
        _key("www.a.com", PAGE_ORDER, now + timedelta(hours=1)),
        _key("blog.a.com", PAGE_ORDER, now),
        _key("www.a.com", ITEM_ORDER, now + timedelta(days=1)),  # the feed fetched last
        _key("www.a.com", PAGE_ORDER, None, 5),
        _key("www.a.com", PAGE_ORDER, now),
    ]
    ordered = sorted(keys)
    assert [(k.host, k.order) for k in ordered] == [
        ("blog.a.com", PAGE_ORDER), *[("www.a.com", ITEM_ORDER)], *[("www.a.com", PAGE_ORDER)] * 3,
    ]  # fmt: skip
    assert [k.captured for k in ordered[2:]] == sorted(k.captured for k in ordered[2:])
    assert ordered[-1].captured == NO_DATE
    assert site_partition(keys[0]) == site_partition(keys[1])  # one site, one partition
    assert site_partition(keys[0]) == zlib.crc32(b"a.com")  # the same in every process


# --- reading --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_crawl(tmp_path_factory.mktemp("crawl") / "crawl.warc.gz")


@pytest.fixture(scope="module")
def keyed(crawl: Path) -> tuple[list[KeyedRecord], JobTally]:
    """The reading stage's records as the extraction reads them (packed pages read again)."""
    tally = JobTally()
    shuffled = keyed_records("crawl.warc.gz", crawl.read_bytes(), tally)
    return [(key, unpacked(value)) for key, value in shuffled], tally


def test_pages_of_a_warc_gz_travel_as_their_gzip_members_and_read_back_the_same(
    crawl: Path, tmp_path: Path
) -> None:
    shuffled = list(keyed_records("crawl.warc.gz", crawl.read_bytes(), JobTally()))
    packed = [value for _, value in shuffled if isinstance(value, PackedPage)]
    direct = {p.record_id: p for p in read_warc(crawl, media_types=READ_MEDIA_TYPES)
              if isinstance(p, WarcPage) and p.media_type not in FEED_ONLY_MEDIA_TYPES}  # fmt: skip
    assert len(packed) == len(direct) == BIG_PAGES + 3
    for value in packed:
        page = unpacked(value)
        assert isinstance(page, WarcPage) and page == direct[page.record_id]
        assert len(value.member) < len(page.body)
    plain = tmp_path / "crawl.warc"  # an uncompressed file: its pages travel as they are
    write_warc(plain, crawl_records(), compress=False)
    values = [value for _, value in keyed_records("crawl.warc", plain.read_bytes(), JobTally())]
    assert not any(isinstance(value, PackedPage) for value in values)
    assert sum(isinstance(value, WarcPage) for value in values) == BIG_PAGES + 3


def test_reading_keys_pages_by_site_and_feed_items_by_their_links_host(
    keyed: tuple[list[KeyedRecord], JobTally],
) -> None:
    records, tally = keyed
    pages = [(k, r) for k, r in records if isinstance(r, WarcPage)]
    items = [(k, r) for k, r in records if isinstance(r, FeedItem)]
    assert len(pages) == BIG_PAGES + 3 and len(items) == BIG_PAGES
    sites = {r.url: k.site for k, r in pages}
    assert sites[big_url(0)] == BIG_SITE and sites[SMALL_URLS[0]] == SMALL_SITE
    assert sites[IP_URL] == "127.0.0.1:8080"
    assert all(k.order == ITEM_ORDER and k.host == f"{BIG_SITE}" for k, _ in items)
    assert (tally.files, tally.pages, tally.feeds, tally.items) == (1, BIG_PAGES + 3, 1, 8)
    assert tally.skipped == {"not-html": 1, "broken": 1}
    assert tally.details["not-html"] == {"image/png": 1}


def test_a_file_that_is_no_warc_is_counted_unreadable_not_raised() -> None:
    tally = JobTally()
    assert list(keyed_records("page.warc", b"<html>not a warc</html>", tally)) == []
    assert tally.files == 0 and len(tally.unreadable) == 1
    assert next(iter(tally.unreadable)).startswith("page.warc: not a readable WARC file")


# --- hosts ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rows(keyed: tuple[list[KeyedRecord], JobTally]) -> tuple[list[ArticleRow], JobTally]:
    tally = JobTally()
    made = list(partition_rows(sorted(keyed[0]), bundled_extractor(), tally))
    return made, tally


def test_big_hosts_learn_and_small_ones_get_the_page_level(
    rows: tuple[list[ArticleRow], JobTally], crawl: Path
) -> None:
    made, tally = rows
    assert len(made) == BIG_PAGES + 3  # one row per HTML page
    assert tally.hosts == {LEARNED: 1, PAGE_LEVEL: 2, TEMPLATE: 1}  # 8 items: template at 4
    big = [row for row in made if row.site == BIG_SITE]
    assert [row.url for row in big] == [big_url(n) for n in (3, 0, 7, 1, 5, 2, 6, 4)]
    assert big[-1].method.startswith("hybrid-")  # the feed's checks chose a site method
    assert "Subscribe to our weekly letter" not in big[-1].text
    assert "Story number 4" in (big[-1].title or "")
    small = {row.url: row for row in made if row.site != BIG_SITE}
    assert {row.method for row in small.values()} == {"page"}
    extracted = {a.page.url: a.article for a in feedsift.extract_warc(crawl)}
    for url, row in small.items():  # exactly what feedsift extract gives
        assert row.text == extracted[url].text and row.title == extracted[url].title
        assert row.warc_record_id.startswith("<urn:uuid:")
    assert sum(tally.methods.values()) == len(made) == tally.articles


def test_without_site_level_every_host_gets_the_page_level(
    keyed: tuple[list[KeyedRecord], JobTally], crawl: Path
) -> None:
    tally = JobTally()
    made = list(partition_rows(sorted(keyed[0]), bundled_extractor(), tally, None))
    assert len(made) == BIG_PAGES + 3 and {row.method for row in made} == {"page"}
    assert tally.hosts == {PAGE_LEVEL: 3}  # the big host too; its feed items passed over
    extracted = {a.page.url: a.article for a in feedsift.extract_warc(crawl)}
    assert all(row.text == extracted[row.url].text for row in made)


def test_site_mode_learns_with_the_site_level_learners_alone(
    keyed: tuple[list[KeyedRecord], JobTally],
) -> None:
    tally = JobTally()
    site = SiteOptions(mode="site")
    made = list(partition_rows(sorted(keyed[0]), bundled_extractor(), tally, site))
    assert tally.hosts == {LEARNED: 1, PAGE_LEVEL: 2, TEMPLATE: 1}
    big = [row for row in made if row.site == BIG_SITE]
    assert big[-1].method in {"urltree-strict", "diffpost"}  # a learner's own text
    assert not any(row.method.startswith("hybrid-") for row in made)


def test_a_page_that_fails_is_counted_and_the_host_goes_on() -> None:
    now = datetime(2024, 5, 1, tzinfo=UTC)

    def pages() -> Iterator[KeyedRecord]:
        for n, body in enumerate((b"", b"<html><body><p>Hello there.</p></body></html>")):
            url = f"https://one.example.com/{n}"
            yield (_key("one.example.com", PAGE_ORDER, now, n),
                   WarcPage(url, f"<id{n}>", now, 200, "text/html", None, body, n))  # fmt: skip

    tally = JobTally()
    made = list(partition_rows(pages(), bundled_extractor(), tally))
    assert [row.url for row in made] == ["https://one.example.com/1"]
    assert tally.skipped == {"failed": 1}
    assert MIN_HOST_PAGES > 2


# --- the tally ------------------------------------------------------------------------------


def test_tallies_add_up_and_keep_a_bounded_number_of_details() -> None:
    one, two = JobTally(files=1, pages=3), JobTally(files=2, pages=1)
    for n in range(MAX_DETAILS + 5):
        one.skip("a.warc", WarcSkip("status", f"HTTP status {400 + n}", None, None, n))
    two.skip("b.warc", WarcSkip("broken", "cut short", None, None, 0))
    two.methods["page"] += 2
    total = JobTally().merge(one).merge(two)
    assert (total.files, total.pages, total.articles) == (3, 4, 2)
    assert total.skipped == {"status": MAX_DETAILS + 5, "broken": 1}
    assert len(total.details["status"]) == MAX_DETAILS + 1
    assert total.details["status"][OTHER_DETAILS] == 5
    assert total.details["broken"] == {"b.warc: cut short": 1}


# --- inputs ---------------------------------------------------------------------------------


def test_inputs_become_file_urls_and_urls_pass_through(crawl: Path, tmp_path: Path) -> None:
    resolved = spark_inputs([str(crawl.parent), "s3a://bucket/crawl/*.warc.gz",
                             str(tmp_path / "none-*.warc.gz")])  # fmt: skip
    assert resolved.paths == (crawl.resolve().as_uri(), "s3a://bucket/crawl/*.warc.gz")
    assert resolved.missing == (str(tmp_path / "none-*.warc.gz"),)

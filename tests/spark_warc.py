"""A small crawl as a WARC file, for the Spark job's tests: three sites and the records a
crawl also holds (an image, a broken tail).

* ``harbour.co.uk``: the harbour blog of ``test_site_models`` (its template boxes, its feed
  with each post's full content): :data:`BIG_PAGES` posts on ``www.``, captured out of
  file order, and its RSS feed captured before them: enough to learn;
* ``news.coastpaper.co.uk``: two pages (the fixtures ``article.html``, ``second.html``): too
  few, so the page level;
* ``127.0.0.1:8080``: one page on an IP host (its own site);
* a PNG record (not HTML) and a gzip member cut short at the end (broken).
"""

from __future__ import annotations

import gzip
from datetime import timedelta
from email.utils import format_datetime
from html import escape
from pathlib import Path
from typing import Any

from conftest import PAGES
from feedsift.acquisition.warc_writer import http_response, warc_record, write_warc
from test_site_models import NOW, _html, _item

BIG_SITE = "harbour.co.uk"
BIG_HOST = f"www.{BIG_SITE}"
#: Posts of the big site: past the learning threshold, with a few pages to spare.
BIG_PAGES = 8
SMALL_SITE = "coastpaper.co.uk"
SMALL_URLS = (f"https://news.{SMALL_SITE}/2024/lighthouse", f"https://news.{SMALL_SITE}/2024/pier")
IP_URL = "http://127.0.0.1:8080/notes/first"
FEED_URL = f"https://{BIG_HOST}/feed/"
#: Capture order of the big site's posts: not their order in the file.
CAPTURE_ORDER = (3, 0, 7, 1, 5, 2, 6, 4)


def big_url(n: int) -> str:
    return f"https://{BIG_HOST}/posts/{n}/"


def feed_xml() -> bytes:
    """The big site's RSS feed: each post's title, link, date and full content."""
    items = []
    for n in range(BIG_PAGES):
        item = _item(n, BIG_HOST)
        content = escape(item.content or "")
        items.append(f"<item><title>{item.title}</title><link>{big_url(n)}</link>"
                     f"<guid>{big_url(n)}</guid><pubDate>{format_datetime(NOW)}</pubDate>"
                     f"<content:encoded>{content}</content:encoded></item>")  # fmt: skip
    return ('<?xml version="1.0" encoding="utf-8"?><rss version="2.0" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>'
            f"<title>Harbour notes</title><link>https://{BIG_HOST}/</link>"
            f"{''.join(items)}</channel></rss>").encode()  # fmt: skip


def crawl_records() -> list[bytes]:
    """The records, in file order (the big site's posts out of capture order)."""
    records = [warc_record(FEED_URL, http_response(feed_xml(), "application/rss+xml"),
                           date=NOW - timedelta(hours=1))]  # fmt: skip
    for n in range(BIG_PAGES):
        when = NOW + timedelta(minutes=CAPTURE_ORDER.index(n))
        records.append(warc_record(big_url(n), http_response(_html(n).encode()), date=when))
    for url, name in zip(SMALL_URLS, ("article.html", "second.html"), strict=True):
        records.append(warc_record(url, http_response((PAGES / name).read_bytes()), date=NOW))
    records.append(warc_record(IP_URL, http_response((PAGES / "article.html").read_bytes())))
    png = http_response(b"\x89PNG\r\n\x1a\n" + bytes(200), "image/png")
    records.append(warc_record(f"https://{BIG_HOST}/logo.png", png, date=NOW))
    return records


def write_crawl(path: Path) -> Path:
    """The crawl as a ``.warc.gz``, its last record cut short (a broken tail)."""
    write_warc(path, crawl_records())
    with open(path, "ab") as handle:
        handle.write(gzip.compress(b"WARC/1.1\r\nWARC-Type: response\r\n")[:-6] + b"\x00junk")
    return path


def read_parquet(out: Path) -> list[dict[str, Any]]:
    """The rows of the Parquet folder ``out``, read back with Spark (one core, UTC)."""
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC").getOrCreate())  # fmt: skip
    try:
        return [row.asDict() for row in spark.read.parquet(str(out)).collect()]
    finally:
        spark.stop()

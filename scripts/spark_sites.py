"""Site-level methods in ``feedsift spark``: real blogs captured with their real feeds.

Builds one ``.warc.gz`` as a crawl of the blogs of ``../shared/sites/ssg`` would have left
it, plus ``warc_roundtrip``'s sample of the other folders of ``../shared/bench`` and
``../shared/sites`` (``--sample`` pages, the ssg folders left out: they are all in anyway).
Per blog (loaded with ``feedsift bench --templates``' loader, ``find_sites``):

* its feed, bytes as the generator wrote them, as an HTTP 200 response at the feed's own
  URL (site.json's ``feed_path`` below its ``build_dir``, under the site's root URL) with
  ``application/rss+xml`` or ``application/atom+xml`` (by the feed's root element), its
  ``WARC-Date`` the site's build commit time;
* then every post (``pages/``) and non-post page (``other/``), one second apart, in a
  seeded random order (a broad crawl visits a site in no set order), each at the URL a
  crawler would have fetched: the feed item's link for a post the feed lists (matched by
  path, as the bench matches them), else its gold URL percent-encoded.

Sites built for a local preview (``http://localhost:PORT``: four share ``localhost:4000``)
are moved to ``http://<owner>.github.io`` in their URLs, feed and pages alike, so that each
is its own site, as on the web. Then the script times, as whole commands (the Spark time
includes starting the JVM),

  feedsift spark SITES.warc.gz -o OUT.parquet --master local[N]
  feedsift extract SITES.warc.gz -f jsonl -o OUT.jsonl -j N

and reports rows against HTML records, the ``method`` counts per blog, and both outputs'
quality on the blogs' posts against the gold: body word-LCS F1 (feedsift's scorer),
title (lenient: case, quotes and dashes) and date (the same calendar day, in the zone the
page stated: the Parquet's ``published`` instant and ``published_offset``).

  python scripts/spark_sites.py --sample 1000 -j 2
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from spark_throughput import timed
from warc_roundtrip import sample_pages

from feedsift.acquisition.feeds import parse_feed
from feedsift.acquisition.warc_writer import http_response, warc_record, write_warc
from feedsift.errors import FeedsiftError
from feedsift.evaluation.datasets import read_page_html
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.templates_bench import (
    BlogSite,
    SitePage,
    date_matches,
    find_sites,
    path_key,
)
from feedsift.text.tokens import same_title_lenient

#: Hosts of sites built for a local preview, not where they are served.
LOCAL_HOSTS = ("localhost", "127.0.0.1")
#: Characters a URL keeps as they are when percent-encoded (the reserved ones, and ``%``
#: so that an encoded URL stays as it is).
URL_SAFE = ":/?#[]@!$&'()*+,;=%~"
#: The feed's media type by its root element.
FEED_TYPES = {b"<rss": "application/rss+xml", b"<feed": "application/atom+xml",
              b"<rdf:RDF": "application/rdf+xml"}  # fmt: skip
#: How much of a feed is searched for its root element (an XML declaration, comments and a
#: stylesheet line may come first).
FEED_HEAD_BYTES = 4096
#: Time between two captures of one site.
CAPTURE_STEP = timedelta(seconds=1)
HTML_TYPE = "text/html; charset=utf-8"
#: A written record's id, to find its capture again in the outputs.
RECORD_ID = re.compile(rb"WARC-Record-ID: *(<[^>\r\n]+>)")


@dataclass(frozen=True, slots=True)
class Capture:
    """One record of the WARC: what was fetched, from where, when."""

    url: str
    body: bytes
    content_type: str
    date: datetime
    page: SitePage | None = None  #: None: the feed, or a page of the other sample
    site: str = ""  #: the ssg folder's name ("" for the other sample)


@dataclass(frozen=True, slots=True)
class Origin:
    """A site's URL prefix as built, and where the WARC puts it (the same when served)."""

    built: str
    served: str

    def url(self, url: str) -> str:
        return self.served + url[len(self.built) :] if url.startswith(self.built) else url

    def bytes(self, data: bytes) -> bytes:
        if self.built == self.served:
            return data
        data = data.replace(self.built.encode(), self.served.encode())
        return data.replace(self.built.split(":", 1)[1].encode(),
                            self.served.split(":", 1)[1].encode())  # fmt: skip


def site_origin(site: BlogSite) -> Origin:
    """``http://localhost:PORT`` moved to ``http://<owner>.github.io``; others kept."""
    parts = urlsplit(site.base_url)
    built = f"{parts.scheme}://{parts.netloc}"
    if parts.hostname not in LOCAL_HOSTS:
        return Origin(built, built)
    return Origin(built, f"http://{site.name.split('__')[0].lower()}.github.io")


def feed_url(folder: Path, site: BlogSite) -> str:
    """The feed's URL: site.json's ``feed_path`` below its ``build_dir``, under the root."""
    info = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    feed_path, build_dir = str(info["feed_path"]), str(info.get("build_dir") or "")
    base_path = urlsplit(site.base_url).path.lstrip("/")
    relative = feed_path.removeprefix(build_dir).lstrip("/").removeprefix(base_path)
    return site.base_url + relative


def feed_type(feed: bytes) -> str:
    head = feed[:FEED_HEAD_BYTES]
    found = [(head.find(tag), kind) for tag, kind in FEED_TYPES.items() if tag in head]
    if not found:
        raise SystemExit(f"no RSS, Atom or RDF root element in a feed: {head[:200]!r}")
    return min(found)[1]


def crawled_url(url: str) -> str:
    """``url`` as a crawler writes it in ``WARC-Target-URI``: non-ASCII percent-encoded."""
    return quote(url, safe=URL_SAFE)


def feed_links(feed: bytes, url: str) -> dict[str, str]:
    """The feed items' links by :func:`path_key` (the first link of a path wins)."""
    try:
        entries = parse_feed(feed, url).entries
    except FeedsiftError as exc:
        print(f"{url}: feed not parsed ({exc}); its posts keep their gold URLs",
              file=sys.stderr)  # fmt: skip
        return {}
    links: dict[str, str] = {}
    for entry in entries:
        if entry.url:
            links.setdefault(path_key(entry.url), entry.url)
    return links


def blog_captures(folder: Path, rng: random.Random) -> Iterator[Capture]:
    """The feed of the blog in ``folder``, then its pages (see the module)."""
    (site,) = find_sites(folder)
    info = json.loads((folder / "site.json").read_text(encoding="utf-8"))
    captured = datetime.fromisoformat(str(info["commit_date"]))
    origin = site_origin(site)
    assert site.feed_path is not None
    feed = origin.bytes(site.feed_path.read_bytes())
    url = origin.url(feed_url(folder, site))
    yield Capture(url, feed, feed_type(feed), captured, site=site.name)
    links = feed_links(feed, url)
    pages = list(site.pages)
    rng.shuffle(pages)
    for number, page in enumerate(pages, 1):
        page_url = origin.url(page.url)
        page_url = links.get(path_key(page_url), crawled_url(page_url))
        yield Capture(page_url, origin.bytes(read_page_html(page.path)), HTML_TYPE,
                      captured + number * CAPTURE_STEP, page, site.name)  # fmt: skip


def sample_captures(shared: Path, count: int, seed: int) -> Iterator[Capture]:
    """``warc_roundtrip``'s sample without the ssg folders, captured now."""
    now = datetime.now().astimezone()
    ssg = (shared / "sites" / "ssg").resolve()
    for page in sample_pages(shared, count, seed, exclude=ssg):
        yield Capture(str(page.url), read_page_html(page.path), HTML_TYPE, now)


def write_captures(captures: list[Capture], path: Path) -> dict[str, Capture]:
    """Write the WARC; the captures by their record's ``WARC-Record-ID``."""
    by_id: dict[str, Capture] = {}

    def records() -> Iterator[bytes]:
        for capture in captures:
            block = http_response(capture.body, capture.content_type)
            record = warc_record(capture.url, block, date=capture.date)
            found = RECORD_ID.search(record)
            assert found is not None
            by_id[found.group(1).decode()] = capture
            yield record

    write_warc(path, records())
    return by_id


# -- reading the outputs and scoring ------------------------------------------------------


def spark_rows(out: Path) -> list[dict[str, Any]]:
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .getOrCreate())  # fmt: skip
    spark.sparkContext.setLogLevel("ERROR")
    try:
        columns = ("warc_record_id", "url", "title", "text", "published", "published_offset",
                   "method")  # fmt: skip
        rows = [row.asDict() for row in spark.read.parquet(str(out)).select(*columns).collect()]
    finally:
        spark.stop()
    for row in rows:
        row["published"] = stated_time(row["published"], row.pop("published_offset"))
    return rows


def stated_time(published: datetime | None, offset: int | None) -> datetime | None:
    """The time the page stated, from the Parquet's instant (which PySpark hands back as a
    naive local time) and offset (minutes east of UTC)."""
    if published is None:
        return None
    moment = published.astimezone(UTC)
    return moment if offset is None else moment.astimezone(timezone(timedelta(minutes=offset)))


def extract_rows(jsonl: Path) -> list[dict[str, Any]]:
    with jsonl.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    for row in rows:
        published = row.get("published")
        row["published"] = datetime.fromisoformat(published) if published else None
        row["method"] = (row.get("provenance") or {}).get("method", "page")
    return rows


@dataclass(frozen=True, slots=True)
class Quality:
    """Pooled scores of one output on the blogs' posts that have gold for each field."""

    posts: int
    body_f1: float
    titles: tuple[int, int]  #: (right, with gold)
    dates: tuple[int, int]

    def line(self) -> str:
        title, date = self.titles, self.dates
        return (f"{self.posts:5d} posts  body F1 {self.body_f1:.3f}  title "
                f"{title[0] / max(title[1], 1):.3f} ({title[0]}/{title[1]})  date "
                f"{date[0] / max(date[1], 1):.3f} ({date[0]}/{date[1]})")  # fmt: skip


def quality(rows: list[dict[str, Any]], by_id: dict[str, Capture], site: str = "") -> Quality:
    """The scores of ``rows`` on the posts of every blog, or of the blog ``site``."""
    f1s, titles, dates = [], [0, 0], [0, 0]
    for row in rows:
        capture = by_id.get(row["warc_record_id"])
        gold = capture.page.gold if capture and capture.page else None
        if site and capture is not None and capture.site != site:
            continue
        if gold is None:
            continue
        if gold.text:
            f1s.append(lcs_prf(row["text"] or "", gold.text).f1)
        if gold.title:
            titles[0] += same_title_lenient(row["title"], gold.title)
            titles[1] += 1
        if gold.date[:10]:
            dates[0] += date_matches(row["published"], gold.date)
            dates[1] += 1
    body = sum(f1s) / len(f1s) if f1s else 0.0
    return Quality(len(f1s), body, (titles[0], titles[1]), (dates[0], dates[1]))


def method_table(
    rows: list[dict[str, Any]], extracted: list[dict[str, Any]], by_id: dict[str, Capture]
) -> list[str]:
    """One line per blog: its pages' records, rows, the posts' body F1 of Spark and of
    extract, and the rows by method."""
    records = Counter(c.site for c in by_id.values() if c.site and c.page is not None)
    methods: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        capture = by_id.get(row["warc_record_id"])
        if capture is not None and capture.site:
            methods[capture.site][row["method"]] += 1
    lines = ["  blog                                     pages  rows  body F1 spark/extract  "
             "methods"]  # fmt: skip
    for site in sorted(records):
        spark, extract = quality(rows, by_id, site), quality(extracted, by_id, site)
        lines.append(f"  {site:40s} {records[site]:5d} {sum(methods[site].values()):5d}  "
                     f"{spark.body_f1:.3f} / {extract.body_f1:.3f}         "
                     f"{dict(methods[site].most_common())}")  # fmt: skip
    return lines


def page_level_check(rows: list[dict[str, Any]], extracted: list[dict[str, Any]]) -> str:
    """Rows whose body the page level made, and how many have another text than extract's
    (matched by record id)."""
    texts = {row["warc_record_id"]: row["text"] for row in extracted}
    page = [row for row in rows if row["method"] == "page"]
    differ = sum(row["text"] != texts.get(row["warc_record_id"]) for row in page)
    return f"rows with method page whose text differs from extract's: {differ} of {len(page)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--sample", type=int, default=1000,
                        help="pages of the other folders in the WARC too")  # fmt: skip
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--work", type=Path, help="folder for the WARC and outputs")
    args = parser.parse_args()
    ssg = args.shared / "sites" / "ssg"
    if not ssg.is_dir():
        print(f"{ssg} is missing: this check needs ../shared", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    captures = [c for folder in sorted(p.parent for p in ssg.glob("*/site.json"))
                for c in blog_captures(folder, rng)]  # fmt: skip
    captures += sample_captures(args.shared, args.sample, args.seed)
    work = args.work or Path(tempfile.mkdtemp(prefix="spark-sites-"))
    work.mkdir(parents=True, exist_ok=True)
    warc = work / "sites.warc.gz"
    by_id = write_captures(captures, warc)
    html = sum(c.content_type == HTML_TYPE for c in captures)
    print(f"{warc}: {len(captures)} records, {html} HTML, {len(captures) - html} feeds "
          f"({warc.stat().st_size // 1024} KiB)", flush=True)  # fmt: skip
    python = [sys.executable, "-m", "feedsift"]
    out, jsonl = work / "spark.parquet", work / "extract.jsonl"
    spark_s, summary = timed([*python, "spark", str(warc), "-o", str(out), "--overwrite",
                              "--master", f"local[{args.jobs}]"])  # fmt: skip
    extract_s, _ = timed([*python, "extract", str(warc), "-f", "jsonl", "-o", str(jsonl),
                          "-j", str(args.jobs)])  # fmt: skip
    print(f"spark local[{args.jobs}] {spark_s:.1f} s, extract -j {args.jobs} {extract_s:.1f} s, "
          f"ratio {spark_s / extract_s:.2f}\n{summary.strip()}")  # fmt: skip
    rows, extracted = spark_rows(out), extract_rows(jsonl)
    print(f"{len(rows)} Spark rows, {len(extracted)} extract rows, for {html} HTML records; "
          f"methods {dict(Counter(r['method'] for r in rows).most_common())}")  # fmt: skip
    print(page_level_check(rows, extracted))
    print("per blog:", *method_table(rows, extracted, by_id), sep="\n")
    print(f"blog posts against gold:\n  spark    {quality(rows, by_id).line()}\n"
          f"  extract  {quality(extracted, by_id).line()}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

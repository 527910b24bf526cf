"""``feedsift spark`` end to end: a small crawl through Spark in local mode, Parquet read back.

Spark starts a JVM (Java 17 or later) and two Python workers; the tests run the job once
(about 20 s on 2 cores) and check every row against ``feedsift extract``, then once more
with ``--method page`` (the JVM already up).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import feedsift
from feedsift.cli.main import main
from spark_warc import (
    BIG_PAGES,
    BIG_SITE,
    IP_URL,
    SMALL_SITE,
    SMALL_URLS,
    big_url,
    read_parquet,
    write_crawl,
)

pytest.importorskip("pyspark", reason="feedsift spark needs the spark extra")
pytestmark = pytest.mark.skipif(
    shutil.which("java") is None and not os.environ.get("JAVA_HOME"),
    reason="Spark needs Java 17 or later, and this machine has no java on the PATH nor JAVA_HOME",
)

#: Small and quiet: two cores shared with other jobs, two shuffle partitions, no web UI, no
#: class archive (saving one costs a first run about 10 s; test_spark_classarchive.py).
SPARK_ARGS = ("--master", "local[2]", "--partitions", "2",
              "--conf", "spark.sql.shuffle.partitions=2", "--no-class-cache")  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The job run once on the crawl: its status, stdout, stderr and the rows read back."""
    folder = tmp_path_factory.mktemp("spark")
    warc = write_crawl(folder / "crawl.warc.gz")
    out = folder / "articles.parquet"
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(["spark", str(warc), "-o", str(out), *SPARK_ARGS])
    yield {"status": status, "warc": warc, "out": out, "rows": read_parquet(out),
           "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}  # fmt: skip


def test_one_row_per_html_record_with_its_site_and_method(run: dict[str, Any]) -> None:
    rows = {row["url"]: row for row in run["rows"]}
    assert len(run["rows"]) == len(rows) == BIG_PAGES + 3
    assert set(rows) == {*(big_url(n) for n in range(BIG_PAGES)), *SMALL_URLS, IP_URL}
    assert list(run["rows"][0]) == ["url", "site", "kind", "title", "text", "published",
                                    "published_offset", "authors", "language", "method",
                                    "confidence", "warc_record_id"]  # fmt: skip
    assert {rows[big_url(n)]["site"] for n in range(BIG_PAGES)} == {BIG_SITE}
    assert {rows[url]["site"] for url in SMALL_URLS} == {SMALL_SITE}
    assert rows[IP_URL]["site"] == "127.0.0.1:8080"
    # the big site learned: its last captured posts' bodies are a site-level method's
    last = rows[big_url(4)]
    assert last["method"].startswith("hybrid-")
    assert "Subscribe to our weekly letter" not in last["text"]
    assert {rows[url]["method"] for url in (*SMALL_URLS, IP_URL)} == {"page"}
    assert all(row["warc_record_id"].startswith("<urn:uuid:") for row in rows.values())
    assert all(isinstance(row["authors"], list) for row in rows.values())


def test_page_level_rows_are_what_feedsift_extract_gives(
    run: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    main(["extract", str(run["warc"]), "-f", "jsonl"])
    extracted = {r["url"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    page_rows = [row for row in run["rows"] if row["method"] == "page"]
    assert len(page_rows) >= 3
    for row in page_rows:
        assert row["text"] == extracted[row["url"]]["text"]
        assert row["title"] == extracted[row["url"]]["title"]


def test_skipped_records_are_counted_in_one_line_each_and_not_fatal(
    run: dict[str, Any],
) -> None:
    lines = run["stderr"].splitlines()
    assert lines[0] == "feedsift: WARC: 1 record not HTML, skipped (image/png)"
    assert lines[1].startswith("feedsift: WARC: 1 record broken, skipped (file:")
    assert "the file breaks after the record" in lines[1] and len(lines) == 2
    assert run["status"] == 1  # a broken record counts as a failed input, as in extract
    summary = run["stdout"].splitlines()[0]
    assert summary.startswith(f"spark: {BIG_PAGES + 3} articles from {BIG_PAGES + 3} HTML pages")
    learned = "1 hosts learned (1 with a feed template), 2 on the page level"
    assert f"(1 feeds, 8 items); {learned}" in summary


def test_method_page_gives_every_row_the_page_level_as_feedsift_extract(
    run: dict[str, Any], tmp_path: Path
) -> None:
    """The same crawl with ``--method page`` (Spark's JVM is up already: a few seconds)."""
    out = tmp_path / "pages.parquet"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
        status = main(["spark", str(run["warc"]), "-o", str(out), "--method", "page",
                       *SPARK_ARGS])  # fmt: skip
    assert status == 1  # the broken record, as in the default run
    rows = read_parquet(out)
    assert len(rows) == BIG_PAGES + 3 and {row["method"] for row in rows} == {"page"}
    extracted = {a.page.url: a.article for a in feedsift.extract_warc(run["warc"])}
    assert all(row["text"] == extracted[row["url"]].text for row in rows)
    assert "; 0 hosts learned (0 with a feed template), 3 on the page level" in stdout.getvalue()


def test_an_existing_output_is_refused_before_spark_starts(
    run: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["spark", str(run["warc"]), "-o", str(run["out"]), *SPARK_ARGS])
    assert status == 1
    assert capsys.readouterr().err == (
        f"feedsift: {run['out']} exists: choose another output or --overwrite\n"
    )


def test_each_warc_file_of_a_few_mb_is_a_reading_task_of_its_own(tmp_path: Path) -> None:
    """Spark's default packs files into a task up to 128 MiB (or a core's share of the
    input): two 3 MB files would be read by one task, on one core."""
    from feedsift.spark.job import JobSettings, _session, warc_files

    files = []
    for n in range(2):
        path = tmp_path / f"part-{n}.warc.gz"
        path.write_bytes(os.urandom(3 << 20))
        files.append(path.as_uri())
    spark = _session(JobSettings(inputs=tuple(files), output=str(tmp_path / "out"),
                                 master="local[2]"))  # fmt: skip
    try:
        assert warc_files(spark.sparkContext, tuple(files)).getNumPartitions() == 2
    finally:
        spark.stop()

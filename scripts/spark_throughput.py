"""Spark's overhead: ``feedsift spark --master local[N]`` against ``feedsift extract -j N``.

Builds a sample per size from pages with a URL of ``../shared/bench`` and ``../shared/sites``
(``warc_roundtrip``'s sample: every dataset folder in turn), written as ``--files`` F
``.warc.gz`` files (page i in file i mod F, so a site's pages are spread over the files as
in a real crawl; default: one file per Spark core, since Spark reads each file in one
task), then times

  feedsift spark SAMPLE-1.warc.gz ... SAMPLE-F.warc.gz -o OUT.parquet --master local[N]
  feedsift extract SAMPLE-1.warc.gz ... SAMPLE-F.warc.gz -f jsonl -o OUT.jsonl -j N

as whole commands (the Spark time includes starting the JVM), and prints the ratio per size.
It also checks the Parquet: one row per page, and for every row the page level made
(``method`` = ``page``) the same text as ``feedsift extract``; hosts with enough pages in
the sample learn their site-level methods, whose texts may differ by design.

  python scripts/spark_throughput.py --sizes 300 1000 3000 -j 2            # 2 files
  python scripts/spark_throughput.py --sizes 300 1000 3000 -j 2 --files 1  # 1 file
  python scripts/spark_throughput.py --sizes 1000 3000 all -j 2            # all 4,136 pages

A size larger than the pages with a URL (or ``all``) is all of them; the table shows how
many the sample holds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from warc_roundtrip import sample_pages, write_sample_warc

from feedsift.evaluation.datasets import GoldPage


def timed(command: list[str]) -> tuple[float, str]:
    """Run ``command``; the seconds it took and its stdout (its stderr shown when it
    fails)."""
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        print(result.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"{command[3]} failed with status {result.returncode}")
    return seconds, result.stdout


def spark_rows(out: Path) -> list[dict[str, Any]]:
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .getOrCreate())  # fmt: skip
    spark.sparkContext.setLogLevel("ERROR")
    try:
        frame = spark.read.parquet(str(out)).select("warc_record_id", "text", "method")
        return [row.asDict() for row in frame.collect()]
    finally:
        spark.stop()


def check(rows: list[dict[str, Any]], jsonl: Path, pages: int) -> str:
    """One line: rows per page, methods, and page-level rows whose text differs (matched by
    record id: a sample may hold one URL twice, from two datasets)."""
    with jsonl.open(encoding="utf-8") as handle:
        extracted = {r["warc_record_id"]: r["text"] for r in map(json.loads, handle)}
    page_level = [row for row in rows if row["method"] == "page"]
    differ = sum(row["text"] != extracted.get(row["warc_record_id"]) for row in page_level)
    methods = Counter(row["method"] for row in rows)
    return (f"{len(rows)} rows for {pages} pages ({len(extracted)} from extract); methods "
            f"{dict(methods.most_common())}; page-level rows with another text than "
            f"extract's: {differ} of {len(page_level)}")  # fmt: skip


#: What ``--sizes all`` asks for: more pages than the datasets hold, so every one.
ALL_PAGES = 10**9


def page_count(text: str) -> int:
    """A ``--sizes`` value: a number of pages, or ``all``."""
    if text == "all":
        return ALL_PAGES
    try:
        return int(text)
    except ValueError:
        message = f"expected a number of pages or 'all', got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def measure(
    pages: int, args: argparse.Namespace, work: Path
) -> tuple[int, float, float, str]:
    """The sample's pages, both commands' seconds on it, and what the check and Spark's
    summary say."""
    sample = sample_pages(args.shared, pages, args.seed)
    pages = len(sample)
    warcs = write_sample_files(sample, work / f"sample-{pages}", args.files)
    python = [sys.executable, "-m", "feedsift"]
    out, jsonl = work / f"spark-{pages}.parquet", work / f"extract-{pages}.jsonl"
    spark_s, summary = timed([*python, "spark", *warcs, "-o", str(out), "--master",
                              f"local[{args.jobs}]"])  # fmt: skip
    extract_s, _ = timed([*python, "extract", *warcs, "-f", "jsonl", "-o", str(jsonl),
                          "-j", str(args.jobs)])  # fmt: skip
    note = check(spark_rows(out), jsonl, len(sample))
    return pages, spark_s, extract_s, f"{note}\n  {summary.splitlines()[0]}"


def write_sample_files(sample: list[GoldPage], stem: Path, files: int) -> list[str]:
    """The sample as ``files`` WARC files named ``STEM-K.warc.gz``, page i in file i mod
    ``files``; their paths."""
    paths = []
    for k in range(files):
        path = stem.with_name(f"{stem.name}-{k + 1}.warc.gz")
        write_sample_warc(sample[k::files], path)
        paths.append(str(path))
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--sizes", type=page_count, nargs="+", default=[300, 1000, 3000],
                        help="pages per sample, or 'all' (default: 300 1000 3000)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--files", type=int, help="WARC files per sample (default: -j)")
    args = parser.parse_args()
    args.files = args.files or args.jobs
    if args.files < 1:
        parser.error("--files must be 1 or more")
    if not (args.shared / "bench").is_dir():
        print(f"{args.shared}/bench is missing: this check needs ../shared", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="spark-throughput-"))
    print(f"{args.files} WARC file(s) per sample")
    print(f"pages   spark local[{args.jobs}]   extract -j {args.jobs}   ratio")
    notes = []
    for size in args.sizes:
        pages, spark_s, extract_s, note = measure(size, args, work)
        print(f"{pages:5d}   {spark_s:10.1f} s   {extract_s:10.1f} s   {spark_s / extract_s:5.2f}",
              flush=True)  # fmt: skip
        notes.append(f"{pages}: {note}")
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

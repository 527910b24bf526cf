"""Spark's overhead: ``feedsift spark --master local[N]`` against ``feedsift extract -j N``.

Builds a sample per size from pages with a URL of ``../shared/bench`` and ``../shared/sites``
(``warc_roundtrip``'s sample: every dataset folder in turn), written as ``--files`` F
``.warc.gz`` files (page i in file i mod F, so a site's pages are spread over the files as
in a real crawl; default: one file per Spark core, since Spark reads each file in one
task), then times

  feedsift spark SAMPLE-1.warc.gz ... SAMPLE-F.warc.gz -o OUT.parquet --master local[N]
  feedsift spark SAMPLE-1.warc.gz ... SAMPLE-F.warc.gz -o OUT.parquet --master local[N] \
      --method page
  feedsift extract SAMPLE-1.warc.gz ... SAMPLE-F.warc.gz -f jsonl -o OUT.jsonl -j N

as whole commands, one after the other (the Spark times include starting the JVM, which
maps the class archive in the script's own ``--class-cache``: a first run on 20 pages saves
it, its seconds printed apart; ``--no-class-cache`` times Spark without the archive;
``--rounds`` R runs each R times, each round starting one command further along), and
prints per size and round the seconds, the ratios to ``extract`` and the load average: the
default job's ratio (Spark, and the site-level work of hosts with enough pages, which
``extract`` does not do) and the page-level job's (the same extraction as ``extract``:
what Spark itself costs). It also checks each Parquet: one row per page, and for every row
the page level made (``method`` = ``page``; every row of the page-level job) the same text
as ``feedsift extract``; hosts with enough pages in the sample learn their site-level
methods, whose texts may differ by design.

  python scripts/spark_throughput.py --sizes 300 1000 3000 -j 2            # 2 files
  python scripts/spark_throughput.py --sizes 300 1000 3000 -j 2 --files 1  # 1 file
  python scripts/spark_throughput.py --sizes 1000 3000 all -j 2 --rounds 2  # all 4,136 pages

A size larger than the pages with a URL (or ``all``) is all of them; the table shows how
many the sample holds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from statistics import median
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
#: The commands timed on each sample, in the first round's order; each later round starts
#: one further along, so that none always runs first while the machine's load drifts.
COMMANDS = ("spark", "spark --method page", "extract")
#: The command line of this interpreter's feedsift (this checkout's, with PYTHONPATH=src).
FEEDSIFT = (sys.executable, "-m", "feedsift")


@dataclass(frozen=True, slots=True)
class SizeRun:
    """One sample's timings and checks."""

    pages: int
    rounds: tuple[tuple[float, ...], ...]  #: per round, the seconds of each of COMMANDS
    loads: tuple[float, ...]  #: per round, the 1-minute load average as it started
    notes: tuple[str, ...]  #: per Spark command: the check, then the job's summary


def page_count(text: str) -> int:
    """A ``--sizes`` value: a number of pages, or ``all``."""
    if text == "all":
        return ALL_PAGES
    try:
        return int(text)
    except ValueError:
        message = f"expected a number of pages or 'all', got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def measure(size: int, args: argparse.Namespace, work: Path) -> SizeRun:
    """Every command's seconds on a sample of ``size`` pages, ``--rounds`` times, and what
    the checks and Spark's summaries say (of the last round)."""
    sample = sample_pages(args.shared, size, args.seed)
    pages = len(sample)
    warcs = write_sample_files(sample, work / f"sample-{pages}", args.files)
    outs = {name: work / f"{name.replace(' --method ', '-')}-{pages}.parquet"
            for name in COMMANDS[:2]}  # fmt: skip
    jsonl = work / f"extract-{pages}.jsonl"
    argv = command_lines(warcs, outs, jsonl, args)
    rounds, loads, summaries = [], [], {}
    for number in range(args.rounds):
        start = number % len(COMMANDS)
        loads.append(os.getloadavg()[0])
        seconds = {}
        for name in COMMANDS[start:] + COMMANDS[:start]:
            seconds[name], stdout = timed(argv[name])
            summaries[name] = stdout.splitlines()[0] if stdout else ""
        rounds.append(tuple(seconds[name] for name in COMMANDS))
    notes = tuple(f"{name}: {check(spark_rows(out), jsonl, pages)}\n  {summaries[name]}"
                  for name, out in outs.items())  # fmt: skip
    return SizeRun(pages, tuple(rounds), tuple(loads), notes)


def command_lines(
    warcs: list[str], outs: dict[str, Path], jsonl: Path, args: argparse.Namespace
) -> dict[str, list[str]]:
    """The argument vector of each of :data:`COMMANDS`."""
    jobs = args.jobs
    spark = [*FEEDSIFT, "spark", *warcs, "--master", f"local[{jobs}]", "--overwrite",
             *class_cache_args(args), "-o"]  # fmt: skip
    return {"spark": [*spark, str(outs["spark"])],
            "spark --method page": [*spark, str(outs["spark --method page"]), "--method", "page"],
            "extract": [*FEEDSIFT, "extract", *warcs, "-f", "jsonl", "-o", str(jsonl), "-j",
                        str(jobs)]}  # fmt: skip


def class_cache_args(args: argparse.Namespace) -> list[str]:
    """The Spark commands' class archive arguments: the run's own folder, or none."""
    if args.no_class_cache:
        return ["--no-class-cache"]
    return ["--class-cache", str(args.class_cache)]


def save_archive(args: argparse.Namespace, work: Path) -> None:
    """Run Spark once on a small sample so that the timed runs map a class archive (unless
    ``--no-class-cache``); print how long that first, saving run took."""
    if args.no_class_cache:
        return
    warcs = write_sample_files(sample_pages(args.shared, 20, args.seed), work / "warm", 1)
    argv = [*FEEDSIFT, "spark", *warcs, "--master", f"local[{args.jobs}]", "--overwrite",
            *class_cache_args(args), "-o", str(work / "warm.parquet")]  # fmt: skip
    seconds, _ = timed(argv)
    saved = sorted(args.class_cache.glob("spark-*.jsa"))
    size = f"{saved[0].stat().st_size / 2**20:.0f} MB" if saved else "no archive saved"
    print(f"first run (20 pages), saving the class archive: {seconds:.1f} s; {size}")


def print_rounds(run: SizeRun) -> None:
    """A line per round: the seconds of COMMANDS, both Spark commands' ratios to extract's
    and the load average as the round started; then, for several rounds, the medians of
    each column."""
    lines = [(*seconds, seconds[0] / seconds[2], seconds[1] / seconds[2], load)
             for seconds, load in zip(run.rounds, run.loads, strict=True)]  # fmt: skip
    labels = [str(n + 1) for n in range(len(lines))]
    if len(lines) > 1:
        lines.append(tuple(median(column) for column in zip(*lines, strict=True)))
        labels.append("median")
    for label, (spark_s, page_s, extract_s, ratio, page_ratio, load) in zip(labels, lines,
                                                                            strict=True):
        print(f"{run.pages:5d}  {label:>6}  {spark_s:7.1f} s  {page_s:19.1f} s  "
              f"{extract_s:7.1f} s  {ratio:5.2f}  {page_ratio:10.2f}  {load:4.1f}", flush=True)


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
    parser.add_argument("--rounds", type=int, default=1, help="times each command runs")
    parser.add_argument(
        "--no-class-cache", action="store_true", help="time Spark without the JVM's class archive"
    )
    args = parser.parse_args()
    args.files = args.files or args.jobs
    if args.files < 1 or args.rounds < 1:
        parser.error("--files and --rounds must be 1 or more")
    if not (args.shared / "bench").is_dir():
        print(f"{args.shared}/bench is missing: this check needs ../shared", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="spark-throughput-"))
    args.class_cache = work / "class-cache"
    save_archive(args, work)
    print(f"{args.files} WARC file(s) per sample; spark on local[{args.jobs}], extract -j "
          f"{args.jobs}; ratios to extract")  # fmt: skip
    print("pages   round    spark      spark --method page    extract    ratio  page ratio"
          "  load")  # fmt: skip
    notes = []
    for size in args.sizes:
        run = measure(size, args, work)
        print_rounds(run)
        notes.extend(f"{run.pages}, {note}" for note in run.notes)
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

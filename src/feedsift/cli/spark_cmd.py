"""``feedsift spark``: the HTML pages of web archives extracted site by site on Spark."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.crawl_cmd import METHODS
from feedsift.cli.extract_cmd import MIB
from feedsift.cli.numbers import whole_number
from feedsift.cli.warc_inputs import WarcTally
from feedsift.errors import SparkJobError
from feedsift.sitelevel.models import SiteOptions
from feedsift.spark.classarchive import ArchivePlan, default_cache_dir, plan_archive
from feedsift.spark.tally import LEARNED, PAGE_LEVEL, TEMPLATE, JobTally

__all__ = ["register", "run"]

DESCRIPTION = """\
Extract every HTML page of WARC files on Apache Spark and write one Parquet row per page:
url, site, kind, title, text, published (the instant, UTC), published_offset (the zone the
page stated, minutes east of UTC: published + published_offset is the page's own day),
authors, language, method, confidence and warc_record_id.

Spark reads the files in parallel (local paths, folders, globs, or any file system URL
Spark reads: hdfs://, s3a://, gs://), keys each record by its site (the registered
domain, from the Public Suffix List bundled with the `tld` package: news.bbc.co.uk and
www.bbc.co.uk are one site, bbc.co.uk), sends each site to one partition and sorts it by
capture time (WARC-Date). Each host with enough pages learns its template from its own
stream, as `feedsift watch` does (URL Tree, DiffPost, and the feed template learned from
the first half of its item pages, checked field by field on the host's feed items when the
crawl captured its RSS or Atom feeds); smaller hosts get the page-level extractor, the
same text `feedsift extract` gives. The `method` column says which made each body. With
--method page every host gets the page level, every row the text `feedsift extract`
gives, and the job still reads, shuffles and sorts by site: what Spark itself costs.

Records that are not HTML, not status 200, truncated by the crawler, too large or broken,
and pages that fail to extract, are counted and reported at the end, one line per kind;
they never stop the job. Needs the `spark` extra (pip install 'feedsift[spark]') and
Java 17 or later. On a cluster, run it with spark-submit: see docs/scale.md.

The first run on a machine saves the classes Spark's JVM loaded in a class archive (about
170 MB, in --class-cache); later runs map them from it and start about 3 s sooner. A new
Spark, Java or class path makes a new archive; --no-class-cache runs without one."""

EXAMPLES = """\
examples:
  feedsift spark crawl.warc.gz -o articles.parquet          this machine, all cores
  feedsift spark crawls/ -o out.parquet --master 'local[2]'  every WARC file under crawls/
  feedsift spark 's3a://bucket/crawl/*.warc.gz' -o s3a://bucket/articles --overwrite
  feedsift spark a.warc.gz b.warc.gz -o out.parquet --conf spark.driver.memory=4g
  feedsift spark crawl.warc.gz -o pages.parquet --method page    no site-level learning

read the output with Spark, pandas or DuckDB:
  python -c "import pandas; print(pandas.read_parquet('out.parquet').head())"
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "spark", help="extract the pages of WARC files on Apache Spark, into Parquet",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="WARC files, folders of them, globs or file system URLs",
    )
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="the Parquet folder to write (a path or a URL)",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace OUT when it exists (default: refuse)"
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="hybrid",
        help="how hosts with enough pages are extracted, as in `feedsift crawl`: hybrid: the "
        "site-level boilerplate masks on the page-level result, per field where the host's "
        "feed items confirm them; site: the site-level learners alone, likewise; page: the "
        "page-level model only, on every host (default: %(default)s)",
    )
    _add_spark_options(parser)
    parser.set_defaults(func=run)


def _add_spark_options(parser: argparse.ArgumentParser) -> None:
    """Where the job runs and how Spark spreads it."""
    group = parser.add_argument_group("Spark")
    group.add_argument(
        "--master",
        default=None,
        metavar="URL",
        help="where to run: local[N], spark://HOST:PORT, yarn ... (default: "
        "spark-submit's --master, else local[*])",
    )
    group.add_argument(
        "--partitions",
        type=whole_number(1),
        default=None,
        metavar="N",
        help="partitions the sites are spread over (default: Spark's default parallelism)",
    )
    group.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=_setting,
        help="another Spark setting (repeatable)",
    )
    _add_class_cache_options(group)
    group.add_argument(
        "--max-size",
        type=float,
        default=50.0,
        metavar="MB",
        help="skip records larger than this, decompressed (default: 50)",
    )


def _add_class_cache_options(group: argparse._ArgumentGroup) -> None:
    """Where the driver JVM's class archive is kept, or none."""
    group.add_argument(
        "--class-cache",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the JVM's class archive is kept (default: $FEEDSIFT_CACHE_DIR, else "
        "$XDG_CACHE_HOME/feedsift, else ~/.cache/feedsift)",
    )
    group.add_argument(
        "--no-class-cache",
        action="store_true",
        help="neither save nor map a class archive (every run loads Spark's classes anew)",
    )


def _class_archive(args: argparse.Namespace) -> ArchivePlan | None:
    if args.no_class_cache:
        return None
    return plan_archive(args.class_cache or default_cache_dir(), tuple(args.conf))


def _tell_archive(plan: ArchivePlan | None) -> None:
    """One line on standard error when this run saved the class archive, or tried to and
    could not (each run would try again: the user may prefer to turn it off)."""
    if plan is None or plan.mode != "save":
        return
    if not plan.path.exists():
        report(None, f"Spark's JVM saved no class archive in {plan.path.parent} (each run "
                     "tries again; --no-class-cache: not)")  # fmt: skip
        return
    size = plan.path.stat().st_size / MIB
    print(
        f"feedsift: saved Spark's classes in {plan.path} ({size:.0f} MB): later runs start "
        "sooner (--no-class-cache: without it)",
        file=sys.stderr,
    )


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value


def run(args: argparse.Namespace) -> int:
    from feedsift.spark.job import JobSettings, run_job, spark_inputs

    inputs = spark_inputs(args.inputs)
    for missing in inputs.missing:
        report(missing, "no such file, folder of WARC files or glob match")
    if not inputs.paths:
        raise SparkJobError("no input to read")
    settings = JobSettings(
        inputs=inputs.paths, output=args.output, master=args.master,
        partitions=args.partitions, max_bytes=int(args.max_size * MIB),
        overwrite=args.overwrite, config=tuple(args.conf),
        site_level=None if args.method == "page" else SiteOptions(mode=args.method),
        class_archive=_class_archive(args),
    )  # fmt: skip
    tally = run_job(settings)
    _tell_archive(settings.class_archive)
    failures = _report(tally) + len(inputs.missing)
    print(f"spark: {_summary(tally)}")
    print(f"output: {args.output}")
    return EXIT_FAILED if failures else EXIT_OK


def _report(tally: JobTally) -> int:
    """Say what the run met on stderr; the number of failed inputs and records."""
    for name, count in tally.unreadable.items():
        report(None, f"{name}" + (f" (×{count})" if count > 1 else ""))
    warcs = WarcTally(pages=tally.pages, files=tally.files, skipped=tally.skipped,
                      details=tally.details)  # fmt: skip
    warcs.report()
    return sum(tally.unreadable.values()) + warcs.failures - warcs.unreadable


def _summary(tally: JobTally) -> str:
    methods = ", ".join(f"{m} {n}" for m, n in tally.methods.most_common()) or "none"
    return (
        f"{tally.articles} articles from {tally.pages} HTML pages of {tally.files} WARC "
        f"file(s) ({tally.feeds} feeds, {tally.items} items); {tally.hosts[LEARNED]} hosts "
        f"learned ({tally.hosts[TEMPLATE]} with a feed template), {tally.hosts[PAGE_LEVEL]} "
        f"on the page level; bodies by {methods}"
    )

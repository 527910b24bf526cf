"""The Spark job: WARC files in, one Parquet row per HTML page out (the driver's side).

:func:`run_job` starts (or joins, under ``spark-submit``) a Spark session and wires the
stages; Spark does all the distribution:

1. ``binaryFiles`` reads the WARC files in parallel, one task per file (files under
   :data:`READ_SPLIT_BYTES` packed together; a Hadoop file system path or glob: local,
   ``hdfs://``, ``s3a://`` ...);
2. :func:`~feedsift.spark.reading.keyed_records` turns each file into pages and feed items
   keyed by :class:`~feedsift.spark.records.RecordKey`;
3. ``repartitionAndSortWithinPartitions`` sends each site (registered domain) to one
   partition (:func:`~feedsift.spark.records.site_partition`) and sorts it there, spilling
   to disk as Spark's shuffle does;
4. ``mapPartitions`` runs :func:`~feedsift.spark.hosts.partition_rows` on each partition
   (the site level as :attr:`JobSettings.site_level` says, or the page level alone);
5. Spark's own Parquet writer writes the rows (:data:`ARTICLE_SCHEMA`).

Each task adds its :class:`~feedsift.spark.tally.JobTally` to one accumulator, which the
driver reads once the write is done. This is the only module that imports PySpark, and only
when a job runs: the rest of feedsift works without the ``spark`` extra.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from feedsift.acquisition.warc import DEFAULT_MAX_RECORD_BYTES, WARC_SUFFIXES
from feedsift.errors import SparkJobError
from feedsift.sitelevel.models import SiteOptions
from feedsift.spark.classarchive import JAVA_OPTIONS, ArchivePlan
from feedsift.spark.hosts import DEFAULT_SITE_LEVEL
from feedsift.spark.records import ARTICLE_COLUMNS, RecordKey, site_partition
from feedsift.spark.tally import JobTally

if TYPE_CHECKING:
    from pyspark import RDD, Accumulator, SparkContext
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType

__all__ = ["DEFAULT_MASTER", "READ_SPLIT_BYTES", "SPARK_EXTRA", "JobSettings", "LocalInputs",
           "run_job", "spark_inputs", "warc_files"]  # fmt: skip

#: Where a job runs when neither ``--master`` nor ``spark-submit`` says: this machine, on
#: all its cores.
DEFAULT_MASTER = "local[*]"
#: What the install lacks when PySpark (or the Public Suffix List package) is missing.
SPARK_EXTRA = "pip install 'feedsift[spark]'"
#: Modules of the ``spark`` extra.
EXTRA_MODULES = ("pyspark", "tld")
#: WARC files packed into one reading task up to this size: with Spark's default (128 MiB,
#: or a core's share of the input if less), a few files of tens of MB were read in one
#: task, on one core, however many cores waited; from this size on a file is a task.
READ_SPLIT_BYTES = "1m"
#: Settings of every session: no web UI (a batch job, often on shared machines), times in
#: UTC (``published`` is stored as an instant), Python's faulthandler for crashed workers,
#: a reading task per WARC file (:data:`READ_SPLIT_BYTES`).
SESSION_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.python.worker.faulthandler.enabled": "true",
    "spark.files.maxPartitionBytes": READ_SPLIT_BYTES,
}


@dataclass(frozen=True, slots=True)
class JobSettings:
    """What one ``feedsift spark`` run reads, writes and runs on."""

    inputs: tuple[str, ...]  #: paths, globs or URLs as Spark's ``binaryFiles`` reads them
    output: str  #: the Parquet folder (a path or a Hadoop file system URL)
    master: str | None = None  #: ``None``: spark-submit's master, else :data:`DEFAULT_MASTER`
    partitions: int | None = None  #: shuffle partitions; ``None``: Spark's parallelism
    max_bytes: int = DEFAULT_MAX_RECORD_BYTES  #: a record's size cap, decoded
    overwrite: bool = False  #: replace an existing output
    config: tuple[tuple[str, str], ...] = ()  #: more Spark settings (``--conf``)
    #: how big hosts learn (``None``: the page level on every page, as ``feedsift extract``)
    site_level: SiteOptions | None = DEFAULT_SITE_LEVEL
    #: the driver JVM's class archive (:func:`~feedsift.spark.classarchive.plan_archive`;
    #: ``None``: none), mapped or saved by this run
    class_archive: ArchivePlan | None = None


@dataclass(frozen=True, slots=True)
class LocalInputs:
    """Inputs resolved on the driver: what Spark reads, and the arguments that named
    nothing (reported, not fatal)."""

    paths: tuple[str, ...]
    missing: tuple[str, ...]


def spark_inputs(args: Iterable[str]) -> LocalInputs:
    """``args`` as Spark paths: a URL with a scheme (``s3a://``, ``hdfs://``) as it is, for
    Spark to list and glob; a local file, folder (its WARC files, recursively) or glob as
    the ``file://`` URLs of its files, so executors read them wherever they run."""
    paths: list[str] = []
    missing: list[str] = []
    for arg in args:
        if _is_url(arg):
            paths.append(arg)
            continue
        found = _local_files(arg)
        paths.extend(Path(p).resolve().as_uri() for p in found)
        if not found:
            missing.append(arg)
    return LocalInputs(tuple(dict.fromkeys(paths)), tuple(missing))


def _is_url(arg: str) -> bool:
    scheme = urlsplit(arg).scheme
    return len(scheme) > 1 and "://" in arg  # not a Windows drive letter


def _local_files(arg: str) -> list[str]:
    if os.path.isdir(arg):
        return sorted(os.path.join(folder, name) for folder, _, names in os.walk(arg)
                      for name in names if name.lower().endswith(WARC_SUFFIXES))  # fmt: skip
    if os.path.isfile(arg):
        return [arg]
    return sorted(p for p in glob.glob(arg, recursive=True) if os.path.isfile(p))


def run_job(settings: JobSettings) -> JobTally:
    """Run the job (see the module); the tally of what it met. SparkJobError when Spark
    cannot start or the job fails (the reason in one line)."""
    require_extra()
    if any("," in path for path in settings.inputs):
        raise SparkJobError("Spark reads a list of inputs split at commas: rename the "
                            "inputs whose path holds one")  # fmt: skip
    if not settings.overwrite and not _is_url(settings.output) and os.path.exists(settings.output):
        raise SparkJobError(f"{settings.output} exists: choose another output or --overwrite")
    spark = _session(settings)
    spark.sparkContext.setLogLevel("ERROR")  # the job's own errors are reported in one line
    try:
        return _run(spark, settings)
    except Exception as exc:
        raise SparkJobError(f"the Spark job failed: {_spark_reason(exc)}") from exc
    finally:
        spark.stop()
        if settings.class_archive is not None:
            settings.class_archive.finish()


def require_extra() -> None:
    """SparkJobError naming the extra when PySpark or ``tld`` is not installed."""
    lacking = [name for name in EXTRA_MODULES if importlib.util.find_spec(name) is None]
    if lacking:
        raise SparkJobError(f"feedsift spark needs {' and '.join(lacking)}: {SPARK_EXTRA}")


def _session(settings: JobSettings) -> SparkSession:
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    try:
        conf = SparkConf()
        if settings.master or not conf.contains("spark.master"):
            conf.setMaster(settings.master or DEFAULT_MASTER)
        if conf.get("spark.master", "").startswith("local"):  # workers: this venv's feedsift
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        conf.setAll([*SESSION_CONFIG.items(), *settings.config]).setAppName("feedsift spark")
        if settings.class_archive is not None:
            conf.set(JAVA_OPTIONS, settings.class_archive.java_options(conf.get(JAVA_OPTIONS, "")))
        return SparkSession.builder.config(conf=conf).getOrCreate()
    except Exception as exc:  # Java missing, a bad master URL ...
        raise SparkJobError(f"Spark did not start: {_spark_reason(exc)} (needs Java 17 or "
                            "later: JAVA_HOME or java on the PATH)") from exc  # fmt: skip


def _run(spark: SparkSession, settings: JobSettings) -> JobTally:
    context = spark.sparkContext
    tally = context.accumulator(JobTally(), cast(Any, _TallyParam()))
    files = warc_files(context, settings.inputs)
    keyed = files.flatMap(partial(_read_file, tally, settings.max_bytes))
    partitions = settings.partitions or context.defaultParallelism
    shuffled = keyed.repartitionAndSortWithinPartitions(partitions, site_partition)
    rows = shuffled.mapPartitions(partial(_extract_partition, tally, settings.site_level))
    frame = spark.createDataFrame(rows, _schema())
    mode = "overwrite" if settings.overwrite else "errorifexists"
    frame.write.mode(mode).parquet(settings.output)
    return cast(JobTally, tally.value)


def warc_files(context: SparkContext, inputs: tuple[str, ...]) -> RDD[tuple[str, bytes]]:
    """The files ``inputs`` name as ``(name, bytes)`` pairs, a reading task per file (small
    files packed, :data:`READ_SPLIT_BYTES`)."""
    return context.binaryFiles(",".join(inputs), minPartitions=max(len(inputs), 1))


# -- in the executors -----------------------------------------------------------------------


def _read_file(
    tally: Accumulator[JobTally], max_bytes: int, file: tuple[str, bytes]
) -> Iterator[tuple[RecordKey, Any]]:
    """One WARC file's keyed records; its counts go to ``tally`` once it is read."""
    from feedsift.spark.reading import keyed_records

    local = JobTally()
    name, data = file
    yield from keyed_records(name, data, local, max_bytes)
    tally.add(local)


def _extract_partition(
    tally: Accumulator[JobTally],
    site_level: SiteOptions | None,
    records: Iterable[tuple[RecordKey, Any]],
) -> Iterator[tuple[object, ...]]:
    """One sorted partition's article rows, as tuples in :data:`ARTICLE_COLUMNS` order."""
    from feedsift.api import bundled_extractor
    from feedsift.spark.hosts import partition_rows
    from feedsift.spark.reading import unpacked

    local = JobTally()
    pairs = ((key, unpacked(value)) for key, value in records)
    for row in partition_rows(pairs, bundled_extractor(), local, site_level):
        yield row.values()
    tally.add(local)


# -- Spark's types ----------------------------------------------------------------------------


def _schema() -> StructType:
    """The Parquet schema: :data:`ARTICLE_COLUMNS` with their Spark types."""
    from pyspark.sql import types as t

    text = t.StringType()
    nullable = {"title", "published", "published_offset", "language"}
    kinds: dict[str, t.DataType] = {"published": t.TimestampType(),
                                    "published_offset": t.IntegerType(),
                                    "authors": t.ArrayType(text, containsNull=False),
                                    "confidence": t.DoubleType()}  # fmt: skip
    return t.StructType([t.StructField(name, kinds.get(name, text), name in nullable)
                         for name in ARTICLE_COLUMNS])  # fmt: skip


class _TallyParam:
    """Adds up the tasks' tallies (Spark's ``AccumulatorParam`` protocol)."""

    def zero(self, value: JobTally) -> JobTally:
        return JobTally()

    def addInPlace(self, value1: JobTally, value2: JobTally) -> JobTally:
        return value1.merge(value2)


def _spark_reason(exc: BaseException) -> str:
    """The first line of what Spark or Py4J said, without the Java stack."""
    text = str(exc).strip() or type(exc).__name__
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:500]
    return text

"""A class archive for the Spark driver's JVM: the JDK's Class Data Sharing (AppCDS).

A ``feedsift spark`` run on one machine spends about 9 s before and after its work (the
JVM, the Spark context and SQL session, the first job's classes, the stop), most of it
loading and verifying some 20,000 classes from Spark's jars. The JDK can save the classes
a run loaded, already parsed and verified, in an archive (``-XX:ArchiveClassesAtExit``,
Java 13 and later) and map them from it in later runs (``-XX:SharedArchiveFile``): about
3 s less a run (docs/scale.md). So when ``feedsift spark`` launches the driver's JVM itself:

- with no archive for this Spark, Java and class path yet, the run saves one: the JVM
  writes it to a temporary file as it exits; :meth:`ArchivePlan.finish` closes the JVM
  after the job, waits for it, and renames the file into place (so an archive is whole or
  absent, and a killed run leaves at most a temporary file, removed by a later run);
- with one, the run maps it.

The JVM checks an archive against its own version and class path and runs without it on
any mismatch (never wrongly); an archive's name is a digest of what it depends on, so a new
Spark, Java or ``--conf spark.jars`` makes a new one, and saving one removes the others.
Under ``spark-submit`` the JVM is already running, so nothing here applies.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["ARCHIVE_MAGIC", "CLASSPATH_SETTINGS", "ArchivePlan", "default_cache_dir",
           "plan_archive"]  # fmt: skip

#: The first four bytes of a dynamic CDS archive (HotSpot's ``CDS_DYNAMIC_ARCHIVE_MAGIC``,
#: little-endian): a file without them is not an archive the JVM wrote.
ARCHIVE_MAGIC = bytes.fromhex("a8ab0bf0")
#: Spark settings that change the driver's class path, so each value has its own archive.
CLASSPATH_SETTINGS = ("spark.jars", "spark.jars.packages", "spark.driver.extraClassPath",
                      "spark.driver.userClassPathFirst")  # fmt: skip
#: The JVM's options are Spark's ``spark.driver.extraJavaOptions``.
JAVA_OPTIONS = "spark.driver.extraJavaOptions"
#: The JVM's own notes on the archive (jars it cannot archive, a mismatch) stay quiet:
#: they would go to standard output, after the job's summary.
QUIET = "-Xlog:cds*=off"
#: Seconds to wait for the JVM to write the archive as it exits (about 170 MB: 2-5 s).
EXIT_WAIT_S = 120.0
#: A temporary archive older than this belongs to a run that died: it is removed.
STALE_TEMP_S = 3600.0


def default_cache_dir() -> Path:
    """Where feedsift keeps what it can rebuild: ``$FEEDSIFT_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/feedsift``, else ``~/.cache/feedsift``."""
    explicit = os.environ.get("FEEDSIFT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "feedsift"


@dataclass(frozen=True, slots=True)
class ArchivePlan:
    """What a run does with the class archive at ``path``."""

    path: Path  #: the archive, once saved
    mode: Literal["use", "save"]  #: map the archive, or save one as the JVM exits

    @property
    def temporary(self) -> Path:
        """Where the JVM of a saving run writes (this process's own name)."""
        return self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")

    def java_options(self, given: str = "") -> str:
        """``spark.driver.extraJavaOptions``: the options ``given`` and this plan's."""
        flag = (f"-XX:SharedArchiveFile={self.path}" if self.mode == "use"
                else f"-XX:ArchiveClassesAtExit={self.temporary}")  # fmt: skip
        return " ".join(part for part in (given.strip(), flag, QUIET) if part)

    def finish(self) -> bool:
        """After a saving run's ``spark.stop()``: close the JVM, wait for it to write the
        archive, put it in place and remove older ones; whether an archive was saved. A
        using run has nothing to do."""
        if self.mode == "use" or not _close_jvm():
            return False
        temporary = self.temporary
        if not _is_archive(temporary):
            temporary.unlink(missing_ok=True)
            return False
        os.replace(temporary, self.path)
        for other in self.path.parent.glob("spark-*.jsa"):
            if other != self.path:
                other.unlink(missing_ok=True)
        return True


def plan_archive(cache_dir: Path, config: tuple[tuple[str, str], ...]) -> ArchivePlan | None:
    """The plan for a run whose Spark settings are ``config``: ``None`` when this process
    does not launch the driver's JVM (``spark-submit``, or a JVM already up), when Java or
    PySpark cannot be found, or when ``cache_dir`` cannot be written."""
    try:
        from pyspark import SparkContext
    except ImportError:
        return None
    if SparkContext._gateway is not None or "PYSPARK_GATEWAY_PORT" in os.environ:
        return None
    key = _archive_key(config)
    if key is None:
        return None
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        _remove_stale_temporaries(cache_dir)
    except OSError:
        return None
    path = cache_dir / f"spark-{key}.jsa"
    return ArchivePlan(path, "use" if _is_archive(path) else "save")


def _archive_key(config: tuple[tuple[str, str], ...]) -> str | None:
    """PySpark's version and a digest of its jars, the Java binary and the class path
    settings; ``None`` without Java."""
    import pyspark

    java = _java_binary()
    if java is None:
        return None
    jars = Path(pyspark.__file__).parent / "jars"
    names = sorted(p.name for p in jars.glob("*.jar")) if jars.is_dir() else []
    stat = java.stat()
    settings = sorted((k, v) for k, v in config if k in CLASSPATH_SETTINGS)
    facts = repr((str(jars), names, str(java), stat.st_size, stat.st_mtime_ns, settings))
    digest = hashlib.blake2b(facts.encode(), digest_size=6).hexdigest()
    return f"{pyspark.__version__}-{digest}"


def _java_binary() -> Path | None:
    """The ``java`` Spark's launcher runs: ``$JAVA_HOME/bin/java``, else the PATH's."""
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not found or not os.path.isfile(found):
        return None
    return Path(os.path.realpath(found))


def _is_archive(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(ARCHIVE_MAGIC)) == ARCHIVE_MAGIC
    except OSError:
        return False


def _remove_stale_temporaries(cache_dir: Path) -> None:
    now = time.time()
    for temporary in cache_dir.glob("spark-*.jsa.*.tmp"):
        if now - temporary.stat().st_mtime > STALE_TEMP_S:
            temporary.unlink(missing_ok=True)


def _close_jvm() -> bool:
    """Shut down the JVM PySpark launched and wait for it to exit (it exits when its
    standard input closes); whether it did. A later session in this process launches a
    new one."""
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    process = getattr(gateway, "proc", None)
    if gateway is None or not isinstance(process, subprocess.Popen):
        return False
    gateway.shutdown()
    SparkContext._gateway = None
    SparkContext._jvm = None
    if process.stdin is not None:
        process.stdin.close()
    try:
        process.wait(timeout=EXIT_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        return False
    return True

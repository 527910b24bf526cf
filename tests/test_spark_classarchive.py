"""The Spark driver's class archive (``feedsift.spark.classarchive``): where it lives, what
its name depends on, when a run maps or saves it, and two real runs (the first saves it,
the second maps it and writes the same rows)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from feedsift.spark.classarchive import (
    ARCHIVE_MAGIC,
    ArchivePlan,
    default_cache_dir,
    plan_archive,
)
from spark_warc import read_parquet, write_crawl

pytest.importorskip("pyspark", reason="feedsift spark needs the spark extra")
HAS_JAVA = shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))
needs_java = pytest.mark.skipif(not HAS_JAVA, reason="Spark needs Java 17 or later")


@pytest.fixture
def no_jvm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan as a process whose JVM is not up yet (another test may have started one; the
    tests that plan start none)."""
    from pyspark import SparkContext

    monkeypatch.setattr(SparkContext, "_gateway", None)
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)


def test_the_cache_folder_is_feedsifts_own_else_xdgs_else_the_homes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FEEDSIFT_CACHE_DIR", str(tmp_path / "own"))
    assert default_cache_dir() == tmp_path / "own"
    monkeypatch.delenv("FEEDSIFT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "feedsift"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "feedsift"


def test_a_plan_maps_or_saves_and_keeps_the_options_given(tmp_path: Path) -> None:
    use = ArchivePlan(tmp_path / "spark-a.jsa", "use")
    assert use.java_options("-Xss4m") == (
        f"-Xss4m -XX:SharedArchiveFile={tmp_path / 'spark-a.jsa'} -Xlog:cds*=off"
    )
    save = ArchivePlan(tmp_path / "spark-a.jsa", "save")
    assert save.java_options() == (
        f"-XX:ArchiveClassesAtExit={tmp_path}/spark-a.jsa.{os.getpid()}.tmp -Xlog:cds*=off"
    )
    assert not use.finish()  # nothing to do after a run that mapped the archive


@needs_java
@pytest.mark.usefixtures("no_jvm")
def test_a_run_saves_an_archive_until_a_whole_one_is_there(tmp_path: Path) -> None:
    plan = plan_archive(tmp_path, ())
    assert plan is not None and plan.mode == "save"
    assert plan.path.parent == tmp_path and plan.path.name.startswith("spark-")
    plan.path.write_bytes(b"not an archive")  # a file the JVM did not write
    assert plan_archive(tmp_path, ()) == plan
    plan.path.write_bytes(ARCHIVE_MAGIC + bytes(64))
    assert plan_archive(tmp_path, ()) == ArchivePlan(plan.path, "use")


@needs_java
@pytest.mark.usefixtures("no_jvm")
def test_the_archive_is_per_class_path(tmp_path: Path) -> None:
    plain = plan_archive(tmp_path, ())
    other_setting = plan_archive(tmp_path, (("spark.sql.shuffle.partitions", "2"),))
    more_jars = plan_archive(tmp_path, (("spark.jars", "/opt/extra.jar"),))
    assert plain is not None and other_setting is not None and more_jars is not None
    assert plain.path == other_setting.path != more_jars.path


@needs_java
@pytest.mark.usefixtures("no_jvm")
def test_a_dead_runs_temporary_archive_is_removed_a_fresh_one_kept(tmp_path: Path) -> None:
    stale, fresh = tmp_path / "spark-x.jsa.11.tmp", tmp_path / "spark-x.jsa.12.tmp"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"half")
    hours_ago = time.time() - 2 * 3600
    os.utime(stale, (hours_ago, hours_ago))
    plan_archive(tmp_path, ())
    assert not stale.exists() and fresh.exists()


@pytest.mark.usefixtures("no_jvm")
def test_no_plan_where_this_process_does_not_launch_the_jvm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PYSPARK_GATEWAY_PORT", "4242")  # spark-submit started the JVM
    assert plan_archive(tmp_path, ()) is None
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT")
    from pyspark import SparkContext

    monkeypatch.setattr(SparkContext, "_gateway", object())  # a JVM already up here
    assert plan_archive(tmp_path, ()) is None
    monkeypatch.setattr(SparkContext, "_gateway", None)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-java"))
    assert plan_archive(tmp_path, ()) is None


def _spark(warc: Path, out: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """``feedsift spark`` in a process of its own: a JVM of its own."""
    argv = [sys.executable, "-m", "feedsift", "spark", str(warc), "-o", str(out),
            "--master", "local[2]", "--partitions", "2", "--class-cache", str(cache),
            "--method", "page"]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def _rows(out: Path) -> list[tuple[str, str]]:
    return sorted((row["warc_record_id"], row["text"]) for row in read_parquet(out))


@needs_java
def test_the_first_run_saves_the_archive_and_the_next_maps_it(tmp_path: Path) -> None:
    warc = write_crawl(tmp_path / "crawl.warc.gz")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "spark-0.0.0-000000000000.jsa").write_bytes(ARCHIVE_MAGIC)  # an older archive
    first = _spark(warc, tmp_path / "first.parquet", cache)
    assert first.returncode == 1, first.stderr[-2000:]  # the crawl's broken record
    saved = list(cache.iterdir())  # the older archive replaced, no temporary left
    assert len(saved) == 1 and saved[0].read_bytes()[:4] == ARCHIVE_MAGIC
    assert saved[0].stat().st_size > 10 << 20
    assert f"feedsift: saved Spark's classes in {saved[0]}" in first.stderr
    second = _spark(warc, tmp_path / "second.parquet", cache)
    assert second.returncode == 1, second.stderr[-2000:]
    assert "saved Spark's classes" not in second.stderr
    assert list(cache.iterdir()) == saved
    assert _rows(tmp_path / "second.parquet") == _rows(tmp_path / "first.parquet")
    assert len(_rows(tmp_path / "first.parquet")) == 11


def test_a_saving_run_that_left_no_archive_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from feedsift.cli.spark_cmd import _tell_archive

    plan = ArchivePlan(tmp_path / "spark-a.jsa", "save")
    _tell_archive(plan)
    assert capsys.readouterr().err == (
        f"feedsift: Spark's JVM saved no class archive in {tmp_path} (each run tries again; "
        "--no-class-cache: not)\n"
    )
    _tell_archive(ArchivePlan(plan.path, "use"))  # a run that mapped it says nothing
    assert capsys.readouterr().err == ""

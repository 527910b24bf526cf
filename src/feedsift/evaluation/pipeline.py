"""The whole pipeline's throughput on loopback: fetched, stored and extracted pages a second.

The test web serves the real blogs of ``../shared/sites/ssg`` (their real feeds and pages)
on 127.0.0.1 from its own process (as a remote server would, not competing for this
process's interpreter), or, when that folder is missing, its generated sites (said loudly: the
figures are then on ~40 pages only). A crawl session polls every feed once with the
politeness delay at zero and stores and extracts every new page; its wall time and the
busy time of each stage give the pages a second and where the time goes.

Two references run in the same process on the same pages, so the figures are ratios:
the fetch alone (the same URLs through the same fetcher, nothing stored or extracted) and
the extraction alone, one core, for feedsift and trafilatura (when installed).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from feedsift.acquisition.fetcher import Fetcher, FetchPolicy
from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import CrawlOptions, utc_now
from feedsift.crawl.report import CrawlCounts
from feedsift.crawl.session import SessionSettings, run_session
from feedsift.crawl.templating import TemplateOptions
from feedsift.dedup.site import site_of
from feedsift.errors import DatasetError, FeedsiftError
from feedsift.evaluation.bench import DEFAULT_TURN
from feedsift.evaluation.peers import FeedsiftPeer, Peer, PeerInput, TrafilaturaPeer
from feedsift.evaluation.report import format_table
from feedsift.parsing.charset import decode_html
from feedsift.storage import Store

__all__ = [
    "PipelineOptions",
    "PipelineResult",
    "extraction_rates",
    "render_pipeline",
    "run_pipeline_bench",
]

#: Loopback and our own server: no delay, several requests at once per host.
BENCH_POLICY = FetchPolicy(min_delay=0.0, per_host=8, retries=0, allow_private=True)
#: Seconds the test web may take to start (it reads the real blogs' files first).
SERVER_START_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class PipelineOptions:
    """Where the sites are and how many extraction processes run."""

    sites_dir: Path = Path("../shared/sites/ssg")
    jobs: int = 2
    pages_at_once: int = 32


@dataclass(frozen=True, slots=True)
class PipelineResult:
    """What one pipeline run measured."""

    source: str
    feeds: int
    pages: int
    articles: int
    megabytes: float
    wall: float
    main_cpu: float  #: CPU seconds of the event-loop process (fetching, keys, storage)
    worker_cpu: float  #: CPU seconds of the worker processes (feeds, extraction, records)
    server_cpu: float  #: CPU seconds of the test web's process (serving the pages)
    busy: dict[str, float]  #: summed busy seconds per stage
    fetch_only_wall: float
    extract_rates: dict[str, float] = field(default_factory=dict)  #: docs/s, one core

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.wall if self.wall else 0.0


def run_pipeline_bench(
    options: PipelineOptions, note: Callable[[str], None] = print
) -> PipelineResult:
    """Start the test web, crawl it into a fresh database, time the references."""
    root = options.sites_dir if options.sites_dir.is_dir() else None
    if root is None:
        note(f"{options.sites_dir} is missing: measuring on the generated test web only")
    with _served_web(root) as (feeds, server), tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        _subscribe(db, feeds)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        counts, wall, cpu = _crawl(db, options)
        workers = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - _cpu(children)
        served = _process_cpu(server.pid)
        urls, pages = _stored_pages(db)
        fetch_wall = asyncio.run(_fetch_only(urls, options.pages_at_once))
    source = f"{options.sites_dir} (real blogs)" if root else "generated test web"
    return PipelineResult(
        source, len(feeds), counts.pages_stored, counts.articles,
        counts.bytes_fetched / 1e6, wall, cpu, workers, served, _busy(counts), fetch_wall,
        extraction_rates(pages, [FeedsiftPeer(), TrafilaturaPeer()]),
    )  # fmt: skip


@contextmanager
def _served_web(root: Path | None) -> Iterator[tuple[list[str], subprocess.Popen[bytes]]]:
    """Run the test web in its own process (as a remote server would be); yield its feeds."""
    with tempfile.TemporaryDirectory() as folder:
        port_file = Path(folder) / "web.json"
        command = [sys.executable, "-m", "feedsift.testweb", "--rounds", "1",
                   "--port-file", str(port_file)]  # fmt: skip
        if root is not None:
            command += ["--ssg-root", str(root)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            yield _feeds(_wait_for_json(port_file, server), real=root is not None), server
        finally:
            server.terminate()
            server.wait(timeout=30)


def _wait_for_json(path: Path, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not path.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            raise DatasetError("the test web did not start (python -m feedsift.testweb)")
        time.sleep(0.05)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _feeds(described: dict[str, Any], real: bool) -> list[str]:
    """The good feeds of the real blogs (or of the generated sites when there are none)."""
    generated = {"marginalia", "fieldnotes", "gazette"}
    bases = [url for name, url in described["sites"].items() if (name in generated) != real]
    return [f for f in described["feeds"]["good"] if any(f.startswith(b + "/") for b in bases)]


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def _process_cpu(pid: int) -> float:
    """CPU seconds a running process used so far (Linux ``/proc``; 0 where unavailable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _subscribe(db: Path, feeds: list[str]) -> None:
    with Store(db) as store, store.transaction():
        for url in feeds:
            store.feeds.add(url, site_of(url), now=utc_now(), interval=3600)


def _crawl(db: Path, options: PipelineOptions) -> tuple[CrawlCounts, float, float]:
    # templates are learned, but the sites' links are not followed: the figures are the feed
    # pipeline's (the harvest is measured by scripts/harvest_e2e.py)
    templates = TemplateOptions(harvest=False)
    crawl = CrawlOptions(schedule=Schedule(fixed=0), pages_at_once=options.pages_at_once,
                         templates=templates)  # fmt: skip
    settings = SessionSettings(db=db, policy=BENCH_POLICY, crawl=crawl, jobs=options.jobs)
    started, cpu = time.perf_counter(), time.process_time()
    counts = asyncio.run(run_session(settings, "once", all_feeds=True))
    return counts, time.perf_counter() - started, time.process_time() - cpu


def _stored_pages(db: Path) -> tuple[list[str], list[tuple[str, bytes]]]:
    with Store(db, create=False) as store:
        ids = [int(row[0]) for row in store.connection.execute("SELECT id FROM documents")]
        records = [store.documents.get(i) for i in ids]
    pages = [(r.document.response_url, r.document.body) for r in records if r is not None]
    return [url for url, _ in pages], pages


async def _fetch_only(urls: list[str], at_once: int) -> float:
    gate = asyncio.Semaphore(at_once)
    started = time.perf_counter()
    async with Fetcher(BENCH_POLICY) as fetcher:

        async def one(url: str) -> None:
            async with gate:
                await fetcher.fetch(url)

        await asyncio.gather(*(one(url) for url in urls), return_exceptions=True)
    return time.perf_counter() - started


def _busy(counts: CrawlCounts) -> dict[str, float]:
    t = counts.times
    return {"feeds": t.feeds, "fetch": t.fetch, "store": t.store, "extract": t.extract}


def extraction_rates(pages: list[tuple[str, bytes]], candidates: list[Peer]) -> dict[str, float]:
    """Documents a second, one core, in this process, of each available peer on ``pages``
    (URL, body). The peers take turns over runs of
    :data:`~feedsift.evaluation.bench.DEFAULT_TURN` pages, as in ``feedsift bench``: one
    peer's whole run after the other's met different loads of a shared machine (feedsift
    once measured slower than trafilatura there, 1.5 times faster taking turns)."""
    inputs = [PeerInput(body, _decoded(body), url) for url, body in pages]
    peers = [peer for peer in candidates if peer.available()]
    seconds = dict.fromkeys((peer.name for peer in peers), 0.0)
    for peer in peers:
        peer.warm_up()
    for number, start in enumerate(range(0, len(inputs), DEFAULT_TURN)):
        run = inputs[start : start + DEFAULT_TURN]
        first = number % max(1, len(peers))
        for peer in [*peers[first:], *peers[:first]]:
            seconds[peer.name] += _timed(peer, run)
    return {name: len(inputs) / spent if spent else 0.0 for name, spent in seconds.items()}


def _decoded(body: bytes) -> str:
    try:
        return decode_html(body).text
    except FeedsiftError:
        return ""


def _timed(peer: Peer, inputs: list[PeerInput]) -> float:
    """Seconds ``peer`` takes over ``inputs`` (a page it fails on counts its time)."""
    started = time.perf_counter()
    for page in inputs:
        try:
            peer.run(page)
        except Exception:
            continue
    return time.perf_counter() - started


def render_pipeline(result: PipelineResult) -> str:
    """The figures as a small table plus the stage shares."""
    busy_total = sum(result.busy.values()) or 1.0
    pipeline = result.pages_per_second
    fetch_only = result.pages / result.fetch_only_wall if result.fetch_only_wall else 0.0
    rows = [
        ["pipeline (fetch, key, store, extract)", f"{pipeline:.1f}", "1.00"],
        ["fetch only (same fetcher, same URLs)", f"{fetch_only:.1f}", _ratio(fetch_only, pipeline)],
    ]
    for name, rate in result.extract_rates.items():
        rows.append([f"extract only, {name}, 1 core", f"{rate:.1f}", _ratio(rate, pipeline)])
    lines = [
        f"pipeline on loopback: {result.source}",
        f"{result.feeds} feeds, {result.pages} pages stored, {result.articles} articles, "
        f"{result.megabytes:.1f} MB in {result.wall:.1f} s",
        _cpu_line(result),
        "",
        format_table(["run", "pages/s", "vs pipeline"], rows),
        "busy time by stage (summed over concurrent work, queueing excluded): "
        + ", ".join(f"{k} {v:.1f} s ({100 * v / busy_total:.0f}%)" for k, v in result.busy.items()),
    ]
    return "\n".join(lines) + "\n"


def _cpu_line(result: PipelineResult) -> str:
    per_page = 1000 / max(result.pages, 1)
    parts = (("crawler", result.main_cpu), ("workers", result.worker_cpu),
             ("test web", result.server_cpu))  # fmt: skip
    total = sum(seconds for _, seconds in parts)
    return (
        "CPU ms per page: " + ", ".join(f"{n} {s * per_page:.1f}" for n, s in parts)
        + f"; total {total * per_page:.1f} ms = {total / result.wall:.2f} cores busy on average"
    )


def _ratio(rate: float, reference: float) -> str:
    return f"{rate / reference:.2f}" if reference else "-"

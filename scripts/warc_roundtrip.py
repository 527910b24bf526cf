"""WARC round trip: does ``feedsift extract`` give the same articles from a WARC as from files?

Samples pages with a URL from ``../shared/bench`` and ``../shared/sites`` (the same number
from every dataset folder, as far as each has them), writes them as HTTP 200 response
records (``text/html; charset=utf-8``: the pages are UTF-8) into one ``.warc.gz`` with a
gzip member per record, then runs

  feedsift extract SAMPLE.warc.gz -f jsonl     the WARC
  feedsift extract FILE ... -f jsonl           the same pages as files, in the same order

and compares them article by article. The files' command line cannot give each file its
URL (``--url`` is for one input), so the files are also extracted from Python with their
URL (``feedsift.extract(bytes, url)``): WARC against that is the check of the WARC path
alone; WARC against the command line on files adds what knowing the URL changes.

  python scripts/warc_roundtrip.py --pages 300 -j 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import feedsift
from feedsift.acquisition.warc_writer import http_response, warc_record, write_warc
from feedsift.evaluation.datasets import GoldPage, iter_pages, read_page_html
from feedsift.outputs.serialize import article_to_dict

#: Fields that say where an article came from rather than what it is (a file given on the
#: command line has no URL: its ``url`` is null).
ORIGIN_FIELDS = ("input", "url", "warc_record_id", "warc_date")


@dataclass(frozen=True, slots=True)
class Comparison:
    """How one side's articles compare with the WARC's, page by page."""

    name: str
    pages: int
    same_title: int
    same_text: int
    same_record: int
    differing: tuple[str, ...]  #: "dataset/id: field, field" of each page not the same


def sample_pages(
    shared: Path, count: int, seed: int, exclude: Path | None = None
) -> list[GoldPage]:
    """``count`` pages with an http(s) URL, taken in turn from every dataset folder (but
    those under ``exclude``)."""
    rng = random.Random(seed)
    pools = []
    for root in (shared / "bench", shared / "sites"):
        for folder in sorted(gold.parent for gold in root.rglob("gold.jsonl")):
            if exclude is not None and folder.resolve().is_relative_to(exclude):
                continue
            pages = [p for p in iter_pages(folder, "all") if (p.url or "").startswith("http")]
            rng.shuffle(pages)
            pools.append(pages)
    interleaved = (p for group in itertools.zip_longest(*pools) for p in group if p)
    return list(itertools.islice(interleaved, count))


def write_sample_warc(pages: list[GoldPage], path: Path) -> None:
    records = (
        warc_record(str(page.url), http_response(read_page_html(page.path))) for page in pages
    )
    write_warc(path, records)


def run_cli(args: list[str], output: Path) -> float:
    """Run ``feedsift extract ARGS -f jsonl -o OUTPUT``; return the seconds it took."""
    command = [sys.executable, "-m", "feedsift", "extract", *args, "-f", "jsonl", "-o"]
    started = time.perf_counter()
    result = subprocess.run([*command, str(output)], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.stderr:
        print(result.stderr.rstrip(), file=sys.stderr)
    return seconds


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def api_records(pages: list[GoldPage]) -> Iterator[dict[str, Any]]:
    """Each page extracted in this process with its URL, as ``feedsift extract`` would."""
    for page in pages:
        yield article_to_dict(feedsift.extract(read_page_html(page.path), page.url))


def compare(
    name: str, pages: list[GoldPage], warc: list[dict[str, Any]], other: list[dict[str, Any]]
) -> Comparison:
    same_title = same_text = same_record = 0
    differing = []
    for page, left, right in zip(pages, warc, other, strict=True):
        left = {k: v for k, v in left.items() if k not in ORIGIN_FIELDS}
        right = {k: v for k, v in right.items() if k not in ORIGIN_FIELDS}
        same_title += left["title"] == right["title"]
        same_text += left["text"] == right["text"]
        same_record += left == right
        if left != right:
            fields = sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))
            differing.append(f"{page.dataset}/{page.id}: {', '.join(fields)}")
    return Comparison(name, len(pages), same_title, same_text, same_record, tuple(differing))


def report(comparison: Comparison, shown: int) -> None:
    c = comparison
    print(f"WARC vs {c.name}: {c.pages} pages; same title {c.same_title}, same text "
          f"{c.same_text}, same record (all fields but {', '.join(ORIGIN_FIELDS)}) "
          f"{c.same_record}")  # fmt: skip
    for line in c.differing[:shown]:
        print(f"  differs: {line}")
    if len(c.differing) > shown:
        print(f"  ... and {len(c.differing) - shown} more")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--pages", type=int, default=300, help="pages in the WARC")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--shown", type=int, default=20, help="differing pages listed")
    args = parser.parse_args()
    if not (args.shared / "bench").is_dir():
        print(f"{args.shared}/bench is missing: this check needs ../shared", file=sys.stderr)
        return 2
    pages = sample_pages(args.shared, args.pages, args.seed)
    work = Path(tempfile.mkdtemp(prefix="warc-roundtrip-"))
    warc = work / "sample.warc.gz"
    write_sample_warc(pages, warc)
    print(f"{len(pages)} pages from {len({p.dataset for p in pages})} dataset folders "
          f"in {warc} ({warc.stat().st_size // 1024} KiB)")  # fmt: skip
    jobs = ["-j", str(args.jobs)]
    warc_s = run_cli([str(warc), *jobs], work / "warc.jsonl")
    files_s = run_cli([*(str(p.path) for p in pages), *jobs], work / "files.jsonl")
    print(f"feedsift extract -j {args.jobs}: WARC {warc_s:.1f} s, files {files_s:.1f} s "
          f"(ratio {warc_s / files_s:.2f})")  # fmt: skip
    from_warc = read_jsonl(work / "warc.jsonl")
    if len(from_warc) != len(pages):
        print(f"the WARC gave {len(from_warc)} articles for {len(pages)} pages", file=sys.stderr)
        return 1
    report(compare("files, with their URL (Python)", pages, from_warc,
                   list(api_records(pages))), args.shown)  # fmt: skip
    by_input = {record["input"]: record for record in read_jsonl(work / "files.jsonl")}
    missing = [p for p in pages if str(p.path) not in by_input]
    if missing:
        print(f"no article from {len(missing)} files: {missing[0].path} ...", file=sys.stderr)
        return 1
    from_files = [by_input[str(p.path)] for p in pages]
    report(compare("files (command line, no URL)", pages, from_warc, from_files), args.shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())

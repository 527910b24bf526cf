"""Time feedsift's default call at two commits on the same pages, alternately.

A shared machine's load comes in bursts, so one pass is noise: each checkout runs in a
process of its own (``git worktree`` checkouts, imported by path), every page is timed three
times and only its fastest time counts, and the two checkouts take turns ``--rounds``
times. Prints each run's mean milliseconds a page and each pair's ratio.

    git worktree add /tmp/feedsift-base <commit>
    .venv/bin/python scripts/speed_ab.py /tmp/feedsift-base .
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path("../shared/bench")
#: Every n-th test page of each dataset (every second: 543 pages, a minute a run).
PAGE_STEP = 2
REPEATS = 3


def _time_here(src: Path, bench_dir: Path) -> float:
    """Mean over pages of each page's fastest default call, in milliseconds."""
    sys.path.insert(0, str(src))
    import feedsift
    from feedsift.evaluation.datasets import dataset_dirs, iter_pages, read_page_html

    if not Path(feedsift.__file__).resolve().is_relative_to(src.resolve()):
        raise SystemExit(f"imported {feedsift.__file__}, not the checkout in {src}")
    pages = [
        (read_page_html(page.path), page.url)
        for folder in dataset_dirs(bench_dir)
        for number, page in enumerate(iter_pages(folder, "test"))
        if number % PAGE_STEP == 0
    ]
    feedsift.extract(pages[0][0])  # loads the model
    fastest = [float("inf")] * len(pages)
    for _ in range(REPEATS):
        for index, (html, url) in enumerate(pages):
            start = time.perf_counter()
            feedsift.extract(html, url=url)
            fastest[index] = min(fastest[index], time.perf_counter() - start)
    return 1000 * sum(fastest) / len(pages)


def _run(checkout: Path, bench_dir: Path) -> float:
    command = [sys.executable, __file__, "--one", str(checkout / "src"), "--bench", str(bench_dir)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return float(out.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, nargs="?", help="checkout timed first")
    parser.add_argument("new", type=Path, nargs="?", help="checkout timed second")
    parser.add_argument("--rounds", type=int, default=2, help="alternations (default: 2)")
    parser.add_argument("--bench", type=Path, default=BENCH_DIR, help="gold datasets folder")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.one:
        print(f"{_time_here(args.one, args.bench):.4f}")
        return 0
    if args.base is None or args.new is None:
        parser.error("give two checkouts")
    if not args.bench.is_dir():
        raise SystemExit(f"{args.bench} is missing: the shared benchmark data are needed")
    for _ in range(args.rounds):
        base, new = _run(args.base, args.bench), _run(args.new, args.bench)
        print(f"base {base:.2f} ms/page, new {new:.2f} ms/page, new/base {new / base:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

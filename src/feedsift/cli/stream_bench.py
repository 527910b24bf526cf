"""``feedsift bench --stream``: site-level methods replayed over site streams.

Kept apart from :mod:`feedsift.cli.bench_cmd` (which parses the options and dispatches
here) so that the benchmark command's module stays about the page-level benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from tqdm import tqdm

from feedsift.api import bundled_extractor
from feedsift.cli import EXIT_OK
from feedsift.cli.bench_common import missing_default
from feedsift.errors import DatasetError
from feedsift.evaluation.peers import TrafilaturaPeer
from feedsift.evaluation.stream import DEFAULT_STREAM_DIR, find_streams, replay_site
from feedsift.evaluation.stream_report import render_stream, stream_json, write_plots

__all__ = ["run_stream"]

#: Where plots go unless --plots says otherwise (next to the other bench results).
RESULTS_DIR = Path("bench-results")


def run_stream(args: argparse.Namespace) -> int:
    """Replay every site stream below ``args.stream``; print, write JSON and plots."""
    root = Path(args.stream)
    if root == DEFAULT_STREAM_DIR and not root.is_dir():
        raise DatasetError(missing_default("site stream", root, "feedsift bench --stream DIR"))
    streams = find_streams(root, args.limit)
    trafilatura = TrafilaturaPeer()
    peer = trafilatura if trafilatura.available() else None
    total = sum(len(s.pages) for s in streams)
    with tqdm(total=total, unit=" pages", disable=args.quiet or None, desc="stream") as bar:
        results = [replay_site(s, bundled_extractor(), peer, lambda: bar.update(1))
                   for s in streams]  # fmt: skip
    print(render_stream(results), end="")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    plots = args.plots or RESULTS_DIR / f"stream-{stamp}"
    written = write_plots(results, plots)
    _say(args, f"wrote {len(written)} plots to {plots}/")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(stream_json(results), indent=1) + "\n", encoding="utf-8")
        _say(args, f"wrote {args.json}")
    return EXIT_OK


def _say(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, file=sys.stderr)

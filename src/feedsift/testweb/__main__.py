"""``python -m feedsift.testweb``: run the test web until SIGTERM or SIGINT.

Writes a JSON file (``--port-file``) with the control URL, the sites and the feed URLs once
every server listens, so another process (a test, a crawler) can find them.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from feedsift.testweb.faults import DEFAULT_SLOW_SECONDS
from feedsift.testweb.web import TestWeb

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m feedsift.testweb",
        description="Serve a loopback web of blogs and news sites with feeds, faults and a "
        "truth API until stopped (SIGTERM or Ctrl-C).",
        epilog="example: python -m feedsift.testweb --port-file web.json & "
        "curl -X POST $(jq -r .advance web.json)",
    )
    parser.add_argument("--port-file", type=Path, help="write the URLs here as JSON")
    parser.add_argument("--seed", type=int, default=7, help="texts and dates (default 7)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of posts (default 4)")
    parser.add_argument(
        "--slow-seconds",
        type=float,
        default=DEFAULT_SLOW_SECONDS,
        help="how long the slow fault URLs wait (default %(default)s)",
    )
    parser.add_argument("--ssg-root", type=Path, help="also serve the real blogs in this folder")
    return parser


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    stop = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    web = TestWeb(
        args.seed, rounds=args.rounds, ssg_root=args.ssg_root, slow_seconds=args.slow_seconds
    ).start()
    try:
        description = json.dumps({**web.describe(), "pid": os.getpid()}, indent=1)
        if args.port_file is not None:
            _write_atomically(args.port_file, description)
        print(description, flush=True)
        web.serve_forever(stop)
    finally:
        web.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

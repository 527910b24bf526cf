"""``feedsift bench --render``: static against rendered layout on blogs with their CSS.

Kept apart from :mod:`feedsift.cli.bench_cmd` (which parses the options and dispatches
here); the harness is :mod:`feedsift.evaluation.render_bench`.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from datetime import datetime
from pathlib import Path

from tqdm import tqdm

from feedsift.cli import EXIT_FAILED, EXIT_OK
from feedsift.cli.bench_common import RESULTS_DIR, missing_default
from feedsift.errors import DatasetError, RenderError
from feedsift.evaluation.listings import DEFAULT_SITES_DIR
from feedsift.evaluation.render_bench import RenderBenchOptions, posts_to_run, run_render_bench
from feedsift.evaluation.render_report import render_json, render_markdown, render_text

__all__ = ["run_render"]


def run_render(args: argparse.Namespace) -> int:
    """Both layouts on every post under ``args.render``; print, write JSON and Markdown."""
    root = Path(args.render)
    if root == DEFAULT_SITES_DIR and not root.is_dir():
        raise DatasetError(missing_default("blog sites", root, "feedsift bench --render DIR"))
    total = sum(len(site.posts) for site, _ in posts_to_run(root, args.limit))
    with tqdm(total=total, unit=" posts", disable=args.quiet or None, desc="render") as bar:
        options = RenderBenchOptions(args.limit, args.model, progress=lambda: bar.update(1))
        try:
            result = run_render_bench(root, options)
        except RenderError as exc:
            print(f"feedsift bench: --render: {exc}", file=sys.stderr)
            return EXIT_FAILED
    command = _command(args)
    print(render_text(result), end="")
    json_path, markdown_path = _paths(args)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    markdown_path.parent.mkdir(parents=True, exist_ok=True)
    data = render_json(result, command)
    json_path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    markdown_path.write_text(render_markdown(result, command), encoding="utf-8")
    if not args.quiet:
        print(f"wrote {json_path} and {markdown_path}", file=sys.stderr)
    return EXIT_OK


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run, for the reports."""
    words = ["feedsift", "bench", "--render", str(args.render)]
    if args.limit:
        words += ["--limit", str(args.limit)]
    if args.model:
        words += ["--model", str(args.model)]
    return shlex.join(words)


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    default = RESULTS_DIR / f"render-{stamp}"
    return args.json or default.with_suffix(".json"), args.markdown or default.with_suffix(".md")

"""``feedsift bench --templates``: site-level template methods on real blogs and their feeds.

Kept apart from :mod:`feedsift.cli.bench_cmd` (which parses the options and dispatches
here) so that the benchmark command's module stays about the page-level benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from feedsift.cli import EXIT_OK
from feedsift.cli.bench_common import missing_default
from feedsift.errors import DatasetError
from feedsift.evaluation.templates_bench import (
    DEFAULT_TEMPLATES_DIR,
    TemplatesOptions,
    find_sites,
    run_site,
)
from feedsift.evaluation.templates_report import render_templates, templates_json

__all__ = ["run_templates"]


def run_templates(args: argparse.Namespace) -> int:
    """Fit and score every method on every site below ``args.templates``; print, write JSON."""
    root = Path(args.templates)
    if root == DEFAULT_TEMPLATES_DIR and not root.is_dir():
        raise DatasetError(missing_default("blog sites", root, "feedsift bench --templates DIR"))
    sites = find_sites(root, args.limit)
    total = sum(len(s.pages) for s in sites)
    with tqdm(total=total, unit=" pages", disable=args.quiet or None, desc="templates") as bar:
        options = TemplatesOptions(progress=lambda: bar.update(1))
        results = [run_site(site, options) for site in sites]
    print(render_templates(results), end="")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(templates_json(results, options.max_items), ensure_ascii=False, indent=1)
        args.json.write_text(text + "\n", encoding="utf-8")
        _say(args, f"wrote {args.json}")
    return EXIT_OK


def _say(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, file=sys.stderr)

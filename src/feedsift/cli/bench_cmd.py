"""``feedsift bench``: measure feedsift against its peers on gold datasets.

The CLI's main module calls :func:`register` to add the subcommand; :func:`run` returns
the exit status (0 done, 1 data missing or malformed, 2 bad arguments).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from feedsift.cli.bench_common import EXIT_DATA, EXIT_OK, EXIT_USAGE, RESULTS_DIR, missing_default
from feedsift.cli.numbers import whole_number
from feedsift.errors import DatasetError, ModelError
from feedsift.evaluation.bench import DEFAULT_TURN, BenchOptions, run_bench
from feedsift.evaluation.datasets import DEFAULT_BENCH_DIR
from feedsift.evaluation.listings import (
    DEFAULT_SITES_DIR,
    ListingsOptions,
    listings_json,
    render_listings,
    run_listings,
)
from feedsift.evaluation.peers import all_peers
from feedsift.evaluation.report import render_table, summarize, write_report

__all__ = ["register", "run"]

#: Where reports go when no path is given (git-ignored).

DESCRIPTION = f"""\
Run feedsift and its peers side by side on gold datasets and score them.

Each dataset folder holds pages/<id>.html.gz (or <id>.html), gold.jsonl (with a
`split` field) and README.txt; DATASETS_DIR is one such folder or a folder of them
(default: {DEFAULT_BENCH_DIR}, the shared benchmark data next to the project).

Per dataset and pooled, on the chosen split: main-text precision/recall/F1 by word
LCS and by 4-gram shingles, trafilatura's snippet scores where gold has with/without
snippets, title/author/date accuracy where gold has them, and docs/s and MB/s with the
speed ratio against trafilatura. The peers (trafilatura, readability-lxml, jusText,
boilerpy3, resiliparse, goose3; htmldate for dates) run in the same process on the same
pages when installed: pip install 'feedsift[compare]'. They take turns over runs of
--turn pages (each peer extracts the run's pages in a row, timed warm as on a stream;
the peer that opens a run rotates), so the machine's noise hits them alike.

Writes a table on the terminal and JSON + Markdown reports (default: {RESULTS_DIR}/).

With --listings, checks instead whether feedsift reports the home, archive, tag and
category pages of real blogs as listings, and their posts and about/404 pages not
(default sites folder: {DEFAULT_SITES_DIR}).

With --pipeline, measures the crawl pipeline instead: the test web serves the real blogs
of the sites folder on 127.0.0.1, feedsift polls their feeds once with politeness delays
at zero, and reports pages fetched, stored and extracted a second, the share of each
stage, and the fetch alone and extraction alone (feedsift, trafilatura) as references.

With --stream, replays the sites of ../shared/sites (or SITES_DIR) page by page in time
order through URL Tree (each heuristic), DiffPost, their hybrids with the page-level
extractor, the page-level extractor and trafilatura, and reports the cumulative moving
average of word-LCS F1 per site and pooled (also after the first 20 documents of each
site), with a PNG per site (--plots DIR) and JSON (--json PATH).

With --templates, lets each site-level method learn every blog of SITES_DIR (default:
{DEFAULT_SITES_DIR}) from its real feed and the pages the feed links, then reports per
site and pooled its post detection (posts against non-post pages), title, date, author
and tag accuracy, body F1 on the posts in and not in the feed, and its fit CPU time.
The methods: the feed template, the page level, "chosen" (per site and field, the one of
those two the feed's own items confirm) and trafilatura; chosen is also set against the
best single method on each measure, pooled and per site.

With --render, extracts every post of every blog of SITES_DIR (default:
{DEFAULT_SITES_DIR}) twice with the same model: with the layout estimated from the markup
and with the layout a headless Chromium draws, the page served at its own URL with the
blog's saved assets/ (its stylesheets; CDN files are blocked). Reports per site and pooled
body F1 and lenient title accuracy in both modes, the share of blocks the browser hides or
puts outside the main column, ms a page (median and p90, warm) and the browser's peak
memory (PSS and anonymous RSS), and pages that fell back to the estimate; writes JSON and
Markdown (default: {RESULTS_DIR}/render-<time>.*). Needs playwright and Chromium."""

EXAMPLES = """\
examples:
  feedsift bench                                   all datasets, test split, all peers
  feedsift bench --datasets dragnet,fundus --peers feedsift,trafilatura
  feedsift bench --limit 20 --quiet                a quick look: 20 pages per dataset
  feedsift bench path/to/datasets --split all --json out.json --markdown out.md
  feedsift bench --listings                        listing detection on the shared blogs
  feedsift bench --listings path/to/sites --json listings.json
  feedsift bench --pipeline -j 2                   crawl throughput on loopback
  feedsift bench --stream --json stream.json       URL Tree, DiffPost, hybrid as streams
  feedsift bench --templates --json templates.json feed-learned templates on the blogs
  feedsift bench --render --limit 20               static against rendered layout"""


def _names(value: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected NAME[,NAME...]")
    return names




def _add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    peers = ", ".join(p.name for p in all_peers())
    add = parser.add_argument
    add(
        "folder",
        nargs="?",
        type=Path,
        metavar="DATASETS_DIR",
        help=f"datasets folder (default: {DEFAULT_BENCH_DIR})",
    )
    add(
        "--split",
        choices=("test", "train", "all"),
        default="test",
        help="gold split to report on (default: test)",
    )
    add(
        "--datasets",
        type=_names,
        default=(),
        metavar="NAME,...",
        help="only these datasets (folder names; default: all)",
    )
    add(
        "--peers",
        type=_names,
        default=(),
        metavar="NAME,...",
        help=f"only these peers (default: all installed of {peers})",
    )
    add("--limit", type=whole_number(1), metavar="N", help="at most N pages per dataset (or site)")
    add("--model", type=Path, metavar="PATH",
        help="bench a bundle written by `feedsift train -o PATH` instead of the shipped model")
    add(
        "--turn",
        type=whole_number(1),
        default=DEFAULT_TURN,
        metavar="N",
        help="pages each peer extracts in a row before the next peer takes the same pages "
        f"(default: {DEFAULT_TURN}; 1 rotates the peers page by page, timing each one cold)",
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--json", type=Path, metavar="PATH", help="write the JSON report here")
    add("--markdown", type=Path, metavar="PATH", help="write the Markdown report here")
    add(
        "--listings",
        nargs="?",
        const=str(DEFAULT_SITES_DIR),
        metavar="SITES_DIR",
        help=f"check listing detection on blog sites (default: {DEFAULT_SITES_DIR})",
    )
    add(
        "--pipeline",
        nargs="?",
        const=str(DEFAULT_SITES_DIR),
        metavar="SITES_DIR",
        help="measure the whole crawl pipeline on loopback, serving these blogs' real feeds "
        f"and pages (default: {DEFAULT_SITES_DIR}; the generated test web when missing)",
    )
    add("-j", "--jobs", type=whole_number(1), default=2, help="extraction processes for --pipeline")
    add(
        "--stream",
        nargs="?",
        const="../shared/sites",
        metavar="SITES_DIR",
        help="replay site streams (default: ../shared/sites) through the site-level methods, "
        "the hybrid, the page-level extractor and trafilatura; cumulative F1 per site",
    )
    add(
        "--templates",
        nargs="?",
        const="../shared/sites/ssg",
        metavar="SITES_DIR",
        help="fit the site-level methods on each blog's feed (default: ../shared/sites/ssg) "
        "and score post detection, metadata and body F1 on all its pages",
    )
    add(
        "--render",
        nargs="?",
        const=str(DEFAULT_SITES_DIR),
        metavar="SITES_DIR",
        help="extract each blog's posts with the static and the rendered layout, the blog's "
        f"own CSS served (default: {DEFAULT_SITES_DIR}); scores, ms a page, browser memory",
    )
    add("--plots", type=Path, metavar="DIR", help="with --stream: where to write the PNGs")
    add("--quiet", action="store_true", help="no progress bar and no notes on stderr")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bench`` subcommand; its ``func`` default is :func:`run`."""
    parser = subparsers.add_parser(
        "bench",
        help="benchmark feedsift against trafilatura and other peers on gold datasets",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_selection_arguments(parser)
    _add_output_arguments(parser)
    parser.set_defaults(func=run)


def _fail(message: str, status: int) -> int:
    print(f"feedsift bench: {message}", file=sys.stderr)
    return status


def _note(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, file=sys.stderr)


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run, for the reports."""
    words = ["feedsift", "bench"]
    if args.folder is not None:
        words.append(str(args.folder))
    if args.split != "test":
        words += ["--split", args.split]
    for option in ("datasets", "peers"):
        if getattr(args, option):
            words += [f"--{option}", ",".join(getattr(args, option))]
    if args.limit:
        words += ["--limit", str(args.limit)]
    if args.model:
        words += ["--model", str(args.model)]
    return shlex.join(words)


def _report_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    default = RESULTS_DIR / f"bench-{stamp}"
    return args.json or default.with_suffix(".json"), args.markdown or default.with_suffix(".md")


def _run_bench(args: argparse.Namespace) -> int:
    root = args.folder if args.folder is not None else DEFAULT_BENCH_DIR
    if args.folder is None and not root.is_dir():
        return _fail(missing_default("benchmark", root, "feedsift bench DATASETS_DIR"), EXIT_DATA)
    options = BenchOptions(
        args.split, args.datasets, args.peers, args.limit, not args.quiet, args.turn, args.model
    )
    try:
        report = summarize(run_bench(root, options))
    except (DatasetError, ModelError) as exc:
        return _fail(str(exc), EXIT_DATA)
    except ValueError as exc:
        return _fail(str(exc), EXIT_USAGE)
    if report.run.missing_peers:
        _note(args, f"not installed: {', '.join(report.run.missing_peers)}")
    print(render_table(report), end="")
    json_path, markdown_path = _report_paths(args)
    write_report(report, json_path, markdown_path, _command(args))
    _note(args, f"wrote {json_path} and {markdown_path}")
    return EXIT_OK


def _run_listings(args: argparse.Namespace) -> int:
    if args.folder is not None:
        return _fail("give the sites folder after --listings, not as DATASETS_DIR", EXIT_USAGE)
    if args.markdown or args.peers or args.datasets or args.split != "test":
        return _fail("--listings takes only --limit, --json and --quiet", EXIT_USAGE)
    root = Path(args.listings)
    if root == DEFAULT_SITES_DIR and not root.is_dir():
        usage = "feedsift bench --listings SITES_DIR"
        return _fail(missing_default("blog sites", root, usage), EXIT_DATA)
    try:
        result = run_listings(root, ListingsOptions(args.limit, progress=not args.quiet))
    except DatasetError as exc:
        return _fail(str(exc), EXIT_DATA)
    print(render_listings(result), end="")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(_json_text(listings_json(result)), encoding="utf-8")
        _note(args, f"wrote {args.json}")
    return EXIT_OK


def _json_text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _run_pipeline(args: argparse.Namespace) -> int:
    from feedsift.evaluation.pipeline import PipelineOptions, render_pipeline, run_pipeline_bench

    options = PipelineOptions(Path(args.pipeline), jobs=args.jobs)
    result = run_pipeline_bench(options, note=lambda text: _note(args, text))
    print(render_pipeline(result), end="")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = {**asdict(result), "pages_per_second": result.pages_per_second}
        args.json.write_text(_json_text(data), encoding="utf-8")
        _note(args, f"wrote {args.json}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Run ``feedsift bench`` with parsed arguments; returns the exit status."""
    if args.stream is not None:
        from feedsift.cli.stream_bench import run_stream

        return run_stream(args)
    if args.templates is not None:
        from feedsift.cli.templates_bench import run_templates

        return run_templates(args)
    if args.render is not None:
        from feedsift.cli.render_bench import run_render

        return run_render(args)
    if args.pipeline is not None:
        return _run_pipeline(args)
    if args.listings is not None:
        return _run_listings(args)
    return _run_bench(args)

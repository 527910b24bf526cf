"""``feedsift``: the command-line entry point.

``main(argv)`` parses the command line, sets up logging and runs the chosen command. It is
the one place that turns errors into policy: a :class:`~feedsift.errors.FeedsiftError`
becomes one ``feedsift: <reason>`` line on stderr, an unexpected exception too (its
traceback only with ``-v``), Ctrl-C exits 130 and a closed stdout pipe ends quietly.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from collections.abc import Sequence

from tqdm import tqdm

from feedsift._version import __version__
from feedsift.cli import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    bench_cmd,
    crawl_cmd,
    demo_cmd,
    examples_cmd,
    export_cmd,
    extract_cmd,
    feeds_cmd,
    report,
    search_cmd,
    serve_cmd,
    show_cmd,
    spark_cmd,
    stats_cmd,
    templates_cmd,
    train_cmd,
)
from feedsift.errors import FeedsiftError

__all__ = ["build_parser", "main"]

DESCRIPTION = """\
feedsift turns blog and news pages into clean articles: title, body text, authors, dates
and tags, without the navigation, ads, share buttons, related links and comments around
them. It reads saved pages, folders of them, URLs and stdin, and writes plain text, JSON,
JSON Lines, Markdown or HTML. Subscribed to feeds, it polls them politely, stores each new
post once (URL keys, content fingerprints) and extracts it on arrival; it learns each
site's boilerplate from the site's own pages and each feed's template from its items, and
follows a site's links to the posts its feed no longer lists."""

EPILOG = """\
examples:
  feedsift demo                         the whole pipeline on a loopback test web (< 1 min)
  feedsift examples                     what feedsift makes of a few bundled example pages
  feedsift extract page.html            the article of a saved page, as plain text
  feedsift extract https://example.org/2024/05/some-post --format markdown
  feedsift extract pages/ -o out/ -j 4  every page under pages/ into out/, 4 processes
  feedsift extract pages/ --format jsonl > articles.jsonl
  curl -s https://example.org/ | feedsift extract --url https://example.org/
  feedsift feeds add https://blog.example.org/   subscribe (the feed is found for you)
  feedsift watch                        poll, store and extract until Ctrl-C
  feedsift export --since 24h > new.jsonl
  feedsift search 'lighthouse keeper*' --since 7d   the stored articles that match, best first
  feedsift extract crawl.warc.gz -f jsonl -j 2   every HTML page of a web archive
  feedsift spark 'crawls/*.warc.gz' -o articles.parquet   the same on Spark, site by site
  feedsift COMMAND --help               every option of a command, with examples

exit status:
  0 everything done, 1 some inputs failed (each named on stderr), 2 bad command line,
  130 interrupted
"""

#: The command modules; each adds its sub-parser with ``register(subparsers)``.
COMMANDS = (
    demo_cmd, extract_cmd, feeds_cmd, crawl_cmd, export_cmd, search_cmd, stats_cmd, show_cmd,
    examples_cmd, bench_cmd, train_cmd, templates_cmd, spark_cmd, serve_cmd,
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The ``feedsift`` parser with every command registered."""
    parser = argparse.ArgumentParser(
        prog="feedsift",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="say more on stderr: -v progress notes and tracebacks, -vv debugging detail",
    )
    subparsers = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``feedsift`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return _exit_status(exc)
    _configure_logging(args.verbose)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args))
    except SystemExit as exc:  # a command's own usage error (parser.error)
        return _exit_status(exc)
    except KeyboardInterrupt:
        report(None, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except FeedsiftError as exc:
        report(None, str(exc) or type(exc).__name__)
        return EXIT_FAILED
    except Exception as exc:  # a bug: one line, and the traceback when asked for
        report(None, f"internal error: {type(exc).__name__}: {exc}")
        if args.verbose:
            traceback.print_exc(file=sys.stderr)
        else:
            print("feedsift: run with -v for the traceback", file=sys.stderr)
        return EXIT_FAILED


def _exit_status(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else EXIT_FAILED


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (tests, embedding)
        pass


class _StderrHandler(logging.Handler):
    """Writes log records to the current ``sys.stderr``, around any progress bar."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:  # logging must never raise
            self.handleError(record)


def _configure_logging(verbosity: int) -> None:
    """Log feedsift's messages to stderr: warnings, info with -v, debug with -vv."""
    logger = logging.getLogger("feedsift")
    levels = {0: logging.WARNING, 1: logging.INFO}
    logger.setLevel(levels.get(verbosity, logging.DEBUG))
    if not any(isinstance(handler, _StderrHandler) for handler in logger.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("feedsift: %(levelname)s: %(message)s"))
        logger.addHandler(handler)


if __name__ == "__main__":
    sys.exit(main())

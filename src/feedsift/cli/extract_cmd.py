"""``feedsift extract``: pages in (files, folders, globs, URLs, stdin), articles out.

Inputs are extracted in order, in this process or in ``--jobs`` worker processes; results
are written in input order whatever finishes first. A broken input (unreadable, empty,
binary, too large, a failed fetch) is reported on stderr with its reason and the batch
goes on; the exit status says whether anything failed.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import signal
import sys
import traceback
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal, Protocol, TextIO

from tqdm import tqdm

from feedsift.acquisition.http import DEFAULT_TIMEOUT
from feedsift.api import extract
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.inputs import (
    HTML_SUFFIXES,
    MAX_INPUT_BYTES,
    InputSource,
    LoadOptions,
    load_input,
    resolve_inputs,
)
from feedsift.errors import FeedsiftError, ModelError
from feedsift.extractors.base import ExtractOptions
from feedsift.outputs.formats import (
    DOCUMENT_FORMATS,
    FILE_SUFFIXES,
    OUTPUT_FORMATS,
    DocumentStream,
    OutputFormat,
    render,
)
from feedsift.records import Article, PageKind

__all__ = ["ExtractSettings", "Outcome", "extract_source", "register", "run"]

logger = logging.getLogger(__name__)

#: Most inputs handed to a worker process at once: fewer hand-overs, still a balanced load.
MAX_CHUNKSIZE = 8
#: One mebibyte, the unit of ``--max-size``.
MIB = 1024 * 1024

DESCRIPTION = f"""\
Extract the article (or, for a home or archive page, the list of posts) from each INPUT.

An INPUT is a saved page; a folder, searched recursively for
{", ".join(HTML_SUFFIXES)} files; a glob pattern such as 'pages/**/*.html'
(expanded here too); an http(s) URL, fetched with one polite GET that honours robots.txt;
or - for stdin. No INPUT at all reads stdin.

Output goes to stdout unless -o is given. With several inputs, txt puts a '==> INPUT <=='
line before each document, json writes one array, jsonl one line per input (with an
"input" field), markdown separates documents with a rule, html puts them in one page,
xml puts each <doc> (trafilatura's shape) in one <docs> root, csv writes one header line
and one row per input. A broken input is reported on stderr with its reason and the
others go on."""

EPILOG = """\
examples:
  feedsift extract post.html                        plain text: title, blank line, body
  feedsift extract post.html --format markdown      headings, lists, quotes, code, tables kept
  feedsift extract archive/ --format csv -o articles.csv    one row per page
  feedsift extract https://example.org/2024/05/post --format json
  feedsift extract archive/ --format jsonl -o articles.jsonl -j 4
  feedsift extract 'site/**/*.html.gz' -o texts/    one .txt per page under texts/
  feedsift extract saved.html --url https://example.org/post   resolve links against it
  curl -s https://example.org/post | feedsift extract - --format html > clean.html

output (-o PATH):
  one input         PATH is the file written (a file inside PATH if PATH is a folder)
  several inputs    txt, markdown, html, xml: PATH is a folder, one file per input named
                    after it (page.txt, page.md, page.html, page.xml; a folder's layout is
                    kept), unless PATH ends in .txt, .md, .html or .xml: then it is one
                    file, as on stdout; json, jsonl, csv: PATH is the one file written
  PATH ending in / or an existing folder always means one file per input in that folder

exit status: 0 all inputs extracted, 1 some failed, 2 bad command line, 130 interrupted
"""


@dataclass(frozen=True, slots=True)
class ExtractSettings:
    """What every input is extracted with (sent to worker processes as one record)."""

    options: ExtractOptions = field(default_factory=ExtractOptions)
    base_url: str | None = None
    load: LoadOptions = field(default_factory=LoadOptions)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One input's result: its article, or the reason it failed (and a traceback for bugs)."""

    source: InputSource
    article: Article | None = None
    error: str | None = None
    trace: str | None = None


OutputKind = Literal["stdout", "file", "folder"]


@dataclass(frozen=True, slots=True)
class OutputTarget:
    """Where results go: stdout, one file, or a folder with one file per input."""

    kind: OutputKind
    path: Path | None = None


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``feedsift extract`` to the command line."""
    parser = subparsers.add_parser(
        "extract",
        help="extract articles from files, folders, URLs or stdin",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "inputs", nargs="*", metavar="INPUT", help="file, folder, glob, http(s) URL or - (stdin)"
    )
    _add_output_options(parser)
    _add_extraction_options(parser)
    _add_input_options(parser)
    _add_running_options(parser)
    parser.set_defaults(func=run, subparser=parser)


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("output")
    group.add_argument(
        "-f",
        "--format",
        choices=OUTPUT_FORMATS,
        default="txt",
        metavar="FORMAT",
        help="txt (default), json, jsonl, markdown, html, xml or csv",
    )
    group.add_argument(
        "-o", "--output", metavar="PATH", help="file or folder to write (see below); - = stdout"
    )


def _add_extraction_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("extraction")
    group.add_argument(
        "--comments", action="store_true", help="also extract reader comments (kept apart)"
    )
    group.add_argument(
        "--no-metadata",
        dest="with_metadata",
        action="store_false",
        help="skip title, authors, dates and tags (a little faster)",
    )
    group.add_argument(
        "--no-listings",
        dest="detect_listings",
        action="store_false",
        help="treat every page as an article (no home/archive page detection)",
    )
    group.add_argument(
        "--htmldate",
        action="store_true",
        help="when a page shows no date at all, also ask htmldate (slower: parses it again)",
    )
    group.add_argument(
        "--url", metavar="URL", help="the page's address, for one file or stdin input"
    )


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("fetching and limits")
    group.add_argument(
        "--timeout",
        type=_positive_float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up on a URL after this long (default {DEFAULT_TIMEOUT:g})",
    )
    group.add_argument(
        "--allow-private",
        action="store_true",
        help="fetch private, loopback and link-local addresses too (refused by default)",
    )
    group.add_argument(
        "--ignore-robots",
        action="store_true",
        help="fetch URLs even where the site's robots.txt disallows it",
    )
    group.add_argument(
        "--max-size",
        type=_positive_float,
        default=MAX_INPUT_BYTES / MIB,
        metavar="MB",
        help=f"refuse larger inputs, counted decompressed (default {MAX_INPUT_BYTES // MIB})",
    )


def _add_running_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("running")
    group.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="worker processes for many inputs (default 1; 0 = one per CPU)",
    )
    group.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: with several inputs, when stderr is a terminal)",
    )


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0: {text!r}")
    return value


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text!r}")
    return value or os.cpu_count() or 1


def run(args: argparse.Namespace) -> int:
    """Run ``feedsift extract`` with parsed arguments; return the exit status."""
    parser: argparse.ArgumentParser = args.subparser
    if not args.inputs and _stdin_is_terminal():
        parser.error("no input: give files, folders or URLs, or pipe a page into stdin")
    settings = _settings(args)
    stdin = getattr(sys.stdin, "buffer", None)
    resolved = resolve_inputs(args.inputs, stdin, settings.load.max_bytes)
    if args.url and resolved.many:
        parser.error("--url is for a single input (one file or stdin)")
    target = _output_target(args.output, args.format, resolved.many, parser)
    for problem in resolved.problems:
        report(problem.name, problem.reason)
    failures = len(resolved.problems)
    if resolved.sources:
        try:
            failures += _extract_all(resolved.sources, resolved.many, target, settings, args)
        except BrokenPipeError:
            raise
        except OSError as exc:  # the output cannot be written: nothing else can go on
            subject = str(exc.filename) if exc.filename else args.output
            report(subject, f"cannot write: {exc.strerror or exc}")
            return EXIT_FAILED
    return EXIT_FAILED if failures else EXIT_OK


def _stdin_is_terminal() -> bool:
    return sys.stdin is None or sys.stdin.isatty()


def _settings(args: argparse.Namespace) -> ExtractSettings:
    load = LoadOptions(
        max_bytes=int(args.max_size * MIB),
        timeout=args.timeout,
        check_robots=not args.ignore_robots,
        allow_private=args.allow_private,
    )
    options = ExtractOptions(
        include_comments=args.comments,
        with_metadata=args.with_metadata,
        detect_listings=args.detect_listings,
        htmldate=args.htmldate,
    )
    return ExtractSettings(options=options, base_url=args.url, load=load)


def _output_target(
    output: str | None, fmt: OutputFormat, many: bool, parser: argparse.ArgumentParser
) -> OutputTarget:
    if output is None or output == "-":
        return OutputTarget("stdout")
    path = Path(output)
    if path.is_dir() or output.endswith(("/", os.sep)):
        return OutputTarget("folder", path)
    suffix = FILE_SUFFIXES[fmt]
    if many and fmt in DOCUMENT_FORMATS and path.suffix.lower() != suffix:
        if path.exists():
            parser.error(
                f"-o {output}: several inputs in {fmt} are written one file each into a "
                f"folder, and this is a file (give a folder, a file name ending in {suffix}, "
                "or use --format jsonl)"
            )
        return OutputTarget("folder", path)
    return OutputTarget("file", path)


def _extract_all(
    sources: Sequence[InputSource],
    many: bool,
    target: OutputTarget,
    settings: ExtractSettings,
    args: argparse.Namespace,
) -> int:
    """Extract and write every source in order; return how many failed."""
    failures = 0
    show_progress = args.progress
    if show_progress is None:
        show_progress = len(sources) > 1 and sys.stderr.isatty()
    outcomes = _outcomes(sources, settings, args.jobs)
    with (
        _open_sink(target, args.format, many) as sink,
        closing(outcomes),
        tqdm(total=len(sources), unit="page", disable=not show_progress, file=sys.stderr) as bar,
    ):
        for outcome in outcomes:
            if outcome.article is not None:
                _note_empty(outcome.source, outcome.article)
                sink.write(outcome.source, outcome.article)
            else:
                failures += 1
                _report_failure(outcome, args.verbose)
            bar.update()
    return failures


def _note_empty(source: InputSource, article: Article) -> None:
    if article.kind is PageKind.EMPTY:
        logger.info("%s: no article content found", source.name)


def _report_failure(outcome: Outcome, verbose: int) -> None:
    report(outcome.source.name, outcome.error or "failed")
    if verbose and outcome.trace:
        tqdm.write(outcome.trace.rstrip("\n"), file=sys.stderr)


# --- extraction, here or in worker processes ---------------------------------------------


def extract_source(source: InputSource, settings: ExtractSettings) -> Outcome:
    """Load and extract one input; a failure becomes an :class:`Outcome` with a reason.

    Only a :class:`ModelError` escapes: without a usable model no input can succeed.
    """
    try:
        loaded = load_input(source, settings.load)
        article = extract(
            loaded.data,
            settings.base_url or loaded.url,
            content_type=loaded.content_type,
            **asdict(settings.options),
        )
    except ModelError:  # no page can be extracted: the run stops, reported once
        raise
    except FeedsiftError as exc:
        return Outcome(source, error=str(exc) or type(exc).__name__)
    except Exception as exc:  # a bug on one page must not stop the batch
        reason = f"internal error: {type(exc).__name__}: {exc}"
        return Outcome(source, error=reason, trace=traceback.format_exc())
    return Outcome(source, article=article)


def _outcomes(
    sources: Sequence[InputSource], settings: ExtractSettings, jobs: int
) -> Generator[Outcome, None, None]:
    """Outcomes in input order, from ``jobs`` worker processes when there is work for them."""
    work = functools.partial(extract_source, settings=settings)
    if jobs <= 1 or len(sources) <= 1:
        yield from map(work, sources)
        return
    workers = min(jobs, len(sources))
    chunksize = max(1, min(MAX_CHUNKSIZE, len(sources) // (workers * 4)))
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        yield from executor.map(work, sources, chunksize=chunksize)
    except BaseException:  # Ctrl-C or the reader stopped: drop the queued work, do not wait
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops the pool once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- writing -----------------------------------------------------------------------------


class _Sink(Protocol):
    def write(self, source: InputSource, article: Article) -> None: ...


class _StreamSink:
    """Everything into one text stream: one document, or several framed by the format."""

    def __init__(self, out: TextIO, fmt: OutputFormat, many: bool) -> None:
        self._out = out
        self._fmt = fmt
        self._stream = DocumentStream(out, fmt) if many else None
        self.written = 0

    def write(self, source: InputSource, article: Article) -> None:
        if self._stream is not None:
            self._stream.write(article, source.name)
        else:
            self._out.write(render(article, self._fmt, input_name=source.name))
        self._out.flush()
        self.written += 1

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()


class _FolderSink:
    """One file per input in a folder, each written whole or not at all."""

    def __init__(self, folder: Path, fmt: OutputFormat) -> None:
        self._folder = folder
        self._fmt = fmt
        self._used: set[str] = set()

    def write(self, source: InputSource, article: Article) -> None:
        text = render(article, self._fmt, input_name=source.name)
        _write_atomically(self._free_path(source.stem), text)

    def _free_path(self, stem: str) -> Path:
        """``stem`` + suffix, or ``stem-2`` + suffix ... when this run already wrote it."""
        suffix = FILE_SUFFIXES[self._fmt]
        candidate, number = stem, 1
        while candidate.lower() in self._used:
            number += 1
            candidate = f"{stem}-{number}"
        self._used.add(candidate.lower())
        return self._folder / f"{candidate}{suffix}"


@contextmanager
def _open_sink(target: OutputTarget, fmt: OutputFormat, many: bool) -> Iterator[_Sink]:
    """The sink for ``target``: stdout, a folder, or one file (see :func:`_file_stream`)."""
    if target.kind == "folder" and target.path is not None:
        target.path.mkdir(parents=True, exist_ok=True)
        yield _FolderSink(target.path, fmt)
    elif target.kind == "file" and target.path is not None:
        with _file_stream(target.path, fmt, many) as sink:
            yield sink
    else:
        with _closing_stream(sys.stdout, fmt, many) as sink:
            yield sink


@contextmanager
def _file_stream(path: Path, fmt: OutputFormat, many: bool) -> Iterator[_StreamSink]:
    """A stream into ``path``, written as ``path.part`` and renamed at the end.

    Also renamed after Ctrl-C or an error once something was written (what was extracted
    is kept). The old file stays untouched when nothing was written (a single input that
    failed, a run stopped early) unless the run completed (an empty json array is a result),
    and when the process is killed.
    """
    part = path.with_name(path.name + ".part")
    sink: _StreamSink | None = None
    completed = False
    try:
        with (
            open(part, "w", encoding="utf-8") as handle,
            _closing_stream(handle, fmt, many) as sink,
        ):
            yield sink
            completed = True
    finally:
        if sink is not None and (sink.written or (many and completed)):
            os.replace(part, path)
        else:
            part.unlink(missing_ok=True)


@contextmanager
def _closing_stream(out: TextIO, fmt: OutputFormat, many: bool) -> Iterator[_StreamSink]:
    """A stream sink that writes its closing part even when the run stops early."""
    sink = _StreamSink(out, fmt, many)
    try:
        yield sink
    finally:
        sink.close()


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)

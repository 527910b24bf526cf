"""``feedsift extract``: pages in (files, folders, globs, URLs, stdin, WARC files), articles out.

Inputs are extracted in order, in this process or in ``--jobs`` worker processes; results
are written in input order whatever finishes first. A WARC file is read here, in the main
process, and its HTML records are handed to the workers a few at a time, so its pages are
extracted in parallel and only a bounded number of them is in memory at once. A broken
input (unreadable, empty, binary, too large, a failed fetch) is reported on stderr with its
reason and the batch goes on; a WARC's skipped records are counted and reported at the end
(see :mod:`feedsift.cli.warc_inputs`); the exit status says whether anything failed.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import signal
import sys
import traceback
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal, Protocol, TextIO

from tqdm import tqdm

from feedsift.acquisition.http import DEFAULT_TIMEOUT
from feedsift.api import bundled_extractor, extract
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.inputs import (
    HTML_SUFFIXES,
    MAX_INPUT_BYTES,
    WARC_SUFFIXES,
    InputSource,
    LoadOptions,
    load_input,
    resolve_inputs,
)
from feedsift.cli.numbers import whole_number
from feedsift.cli.render_args import add_render_arguments
from feedsift.cli.warc_inputs import WarcTally, expand_warcs
from feedsift.errors import FeedsiftError, ModelError, RenderError
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.explain import (
    PageExplanation,
    explain_page,
    explanation_text,
    explanation_to_dict,
)
from feedsift.outputs.formats import (
    DOCUMENT_FORMATS,
    FILE_SUFFIXES,
    OUTPUT_FORMATS,
    DocumentStream,
    OutputFormat,
    render,
)
from feedsift.outputs.origin import Origin
from feedsift.parsing.layout import LayoutProvider
from feedsift.parsing.page import parse_page
from feedsift.records import Article, PageKind
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.browser_layout import BrowserLayout, RenderFallback

__all__ = ["ExtractSettings", "Outcome", "extract_batch", "extract_source", "register", "run"]

logger = logging.getLogger(__name__)

#: Most inputs handed to a worker process at once: fewer hand-overs, still a balanced load.
MAX_CHUNKSIZE = 8
#: Pages of a WARC handed to a worker at once: their number is not known in advance, and
#: small batches keep the workers evenly loaded.
STREAM_CHUNKSIZE = 4
#: Batches in flight per worker: one being extracted and one waiting, so no worker idles
#: while the main process reads on, and a WARC is never read far ahead of its extraction.
BATCHES_PER_WORKER = 2
#: One mebibyte, the unit of ``--max-size``.
MIB = 1024 * 1024

DESCRIPTION = f"""\
Extract the article (or, for a home or archive page, the list of posts) from each INPUT.

An INPUT is a saved page; a WARC file ({" or ".join(WARC_SUFFIXES)}), one article per HTML
record (see below); a folder, searched recursively for these files
({", ".join(HTML_SUFFIXES + WARC_SUFFIXES)}); a glob pattern such as
'pages/**/*.html' (expanded here too); an http(s) URL, fetched with one polite GET that
honours robots.txt; or - for stdin. No INPUT at all reads stdin.

Output goes to stdout unless -o is given. With several inputs, txt puts a '==> INPUT <=='
line before each document, json writes one array, jsonl one line per input (with an
"input" field), markdown separates documents with a rule, html puts them in one page,
xml puts each <doc> (trafilatura's shape) in one <docs> root, csv writes one header line
and one row per input. A broken input is reported on stderr with its reason and the
others go on.

A WARC file counts as several inputs, one per HTML page (status 200, text/html or
application/xhtml+xml; decoded from its transfer and content codings and read in the
charset of its HTTP Content-Type). Each article's url is the record's target URI, and
json, jsonl, csv, xml and html add its warc_record_id and warc_date (the capture time);
txt and markdown name the page's URL after the file. Other records are skipped: requests,
metadata and revisits without a word; records that are not HTML, have another status or
were truncated by the crawler are counted in one line per kind at the end; broken records
and records over --max-size are counted too and make the exit status 1. With -j N the
WARC is read here and its pages are extracted by N processes, in file order."""

EPILOG = """\
examples:
  feedsift extract post.html                        plain text: title, blank line, body
  feedsift extract post.html --format markdown      headings, lists, quotes, code, tables kept
  feedsift extract archive/ --format csv -o articles.csv    one row per page
  feedsift extract https://example.org/2024/05/post --format json
  feedsift extract archive/ --format jsonl -o articles.jsonl -j 4
  feedsift extract 'site/**/*.html.gz' -o texts/    one .txt per page under texts/
  feedsift extract crawl.warc.gz -f jsonl -o articles.jsonl -j 2   every HTML record
  feedsift extract 'crawls/*.warc.gz' -f csv -o articles.csv       many WARC files
  feedsift extract saved.html --url https://example.org/post   resolve links against it
  curl -s https://example.org/post | feedsift extract - --format html > clean.html
  feedsift extract post.html --explain              why each block is kept or removed
  feedsift extract post.html --explain -f json      the same as JSON (one object per page)
  feedsift extract post.html --render               laid out by a headless Chromium
  feedsift extract saved/ --render --url https://example.org/ -f jsonl   (see rendering)

explaining (--explain): instead of the article, each page's text blocks in document order,
one line each: index, KEPT or removed, the stage that decided (block classifier,
navigation, title block, tidy, comment list, listing items, forum thread, product
specification, links only), the block classifier's content score, the block's role and
the reason in words, and the block's first 80 characters. Formats txt (default) and json
only; -o PATH is one file.

rendering (--render): by default the boxes, fonts and positions of the text blocks that the
model reads are estimated from the markup. --render lays each page out in a headless
Chromium instead (one browser for the whole run: Debian's chromium package, or the one
$FEEDSIFT_CHROMIUM names, driven by the Python package playwright): each block's box,
position and font are what a reader's browser shows, and a block the CSS hides has no
size. The browser gets
nothing from the network: a page renders with its own <style> elements, style attributes
and inline scripts; its linked stylesheets, fonts, images and scripts are blocked (those
on 127.0.0.1 or localhost load with --allow-private). A saved file therefore renders with
its inline CSS only; --url sets the address it is rendered at. A page not rendered within
--render-timeout is extracted with the markup estimate, and a line on stderr says so.
Pages are rendered in this process one at a time (no -j); about 0.2-0.6 s a page. The
shipped model was trained on the markup estimate, so for now --render changes few pages
(docs/rendering.md has the figures). Without Chromium or playwright, --render stops with
one line and status 1.

output (-o PATH):
  one input         PATH is the file written (a file inside PATH if PATH is a folder)
  several inputs    txt, markdown, html, xml: PATH is a folder, one file per input named
                    after it (page.txt, page.md, page.html, page.xml; a folder's layout is
                    kept; a WARC's pages go to a folder named after it, each named after
                    its URL), unless PATH ends in .txt, .md, .html or .xml: then it is one
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
    #: where the blocks' layout comes from (--render: a browser of this process, never
    #: sent to a worker; None: the static estimate)
    layout: LayoutProvider | None = None


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
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="file, WARC file, folder, glob, http(s) URL or - (stdin)",
    )
    _add_output_options(parser)
    _add_extraction_options(parser)
    _add_input_options(parser)
    add_render_arguments(
        parser, "rendering (see below)",
        "lay pages out in a headless Chromium (their CSS applies) instead of estimating "
        "the layout from the markup; needs playwright and Chromium",
    )  # fmt: skip
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
    group.add_argument(
        "--explain",
        action="store_true",
        help="print why each text block is kept or removed, not the article (txt or json; "
        "see below)",
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
        help="refuse larger inputs (for a WARC file: larger records), counted decompressed "
        f"(default {MAX_INPUT_BYTES // MIB})",
    )


def _add_running_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("running")
    group.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="worker processes for many inputs or a WARC's pages (default 1; 0 = one per CPU)",
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
    return whole_number(0)(text) or os.cpu_count() or 1


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
    if args.explain and args.format not in EXPLAIN_FORMATS:
        parser.error(f"--explain writes txt or json, not {args.format}")
    target = _output_target(args.output, args.format, resolved.many, parser)
    if args.explain and target.kind == "folder":
        parser.error("--explain writes one file: give -o a file name")
    if args.render and args.jobs > 1:
        parser.error("--render lays pages out in one browser in this process: drop -j")
    for problem in resolved.problems:
        report(problem.name, problem.reason)
    failures = len(resolved.problems)
    if resolved.sources:
        try:
            with _layout(args) as layout:
                work = _explain_all if args.explain else _extract_all
                laid_out = replace(settings, layout=layout)
                failures += work(resolved.sources, resolved.many, target, laid_out, args)
        except BrokenPipeError:
            raise
        except RenderError as exc:  # no browser: nothing can be rendered
            report(None, f"--render: {exc}")
            return EXIT_FAILED
        except OSError as exc:  # the output cannot be written: nothing else can go on
            subject = str(exc.filename) if exc.filename else args.output
            report(subject, f"cannot write: {exc.strerror or exc}")
            return EXIT_FAILED
    return EXIT_FAILED if failures else EXIT_OK


@contextmanager
def _layout(args: argparse.Namespace) -> Iterator[LayoutProvider | None]:
    """With --render, a :class:`BrowserLayout` over a browser started for the run and
    closed at its end (a line on stderr for each page it could not render, one for the
    count at the end); else None, the static estimate, at no cost."""
    if not args.render:
        yield None
        return
    options = RenderOptions(page_timeout_ms=args.render_timeout, allow_loopback=args.allow_private)
    with Renderer(options) as renderer:
        layout = BrowserLayout(renderer, on_fallback=_report_fallback)
        yield layout
        tally = layout.tally()
        if tally.fallbacks:
            pages = tally.rendered + tally.fallbacks
            report(None, f"--render: {tally.fallbacks} of {pages} pages got the markup "
                   "estimate: not rendered")  # fmt: skip


def _report_fallback(fallback: RenderFallback) -> None:
    report(None, f"markup estimate used, not rendered: {fallback.reason}")


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
    """Extract and write every source (a WARC file's pages in its place) in order; return
    how many failed."""
    warc = any(source.kind == "warc" for source in sources)
    count = None if warc else len(sources)  # a WARC's pages are known only once read
    tally = WarcTally()
    units = expand_warcs(sources, settings.load.max_bytes, tally)
    outcomes = _outcomes(units, settings, args.jobs, count)
    failures = 0
    with (
        _open_sink(target, args.format, many, warc) as sink,
        closing(outcomes),
        _progress_bar(count, args.progress) as bar,
    ):
        for outcome in outcomes:
            if outcome.article is not None:
                _note_empty(outcome.source, outcome.article)
                sink.write(outcome.source, outcome.article)
            else:
                failures += 1
                _report_failure(outcome, args.verbose)
            bar.update()
    tally.report()
    return failures + tally.failures


def _progress_bar(count: int | None, wanted: bool | None) -> tqdm:
    """A bar over the pages, by default with several inputs on a terminal (no total when
    WARC files are read: how many pages they hold is known only at their end)."""
    several = count is None or count > 1
    show = wanted if wanted is not None else several and sys.stderr.isatty()
    return tqdm(total=count, unit="page", disable=not show, file=sys.stderr)


def _note_empty(source: InputSource, article: Article) -> None:
    if article.kind is PageKind.EMPTY:
        logger.info("%s: no article content found", _subject(source))


def _report_failure(outcome: Outcome, verbose: int) -> None:
    report(_subject(outcome.source), outcome.error or "failed")
    if verbose and outcome.trace:
        tqdm.write(outcome.trace.rstrip("\n"), file=sys.stderr)


def _subject(source: InputSource) -> str:
    """How messages name an input: a WARC page by its file and URL."""
    return f"{source.name}: {source.location}" if source.kind == "record" else source.name


# --- explaining, here ---------------------------------------------------------------------

#: The formats of ``--explain``.
EXPLAIN_FORMATS = ("txt", "json")


def _explain_all(
    sources: Sequence[InputSource],
    many: bool,
    target: OutputTarget,
    settings: ExtractSettings,
    args: argparse.Namespace,
) -> int:
    """Write the explanation of every source (a WARC file's pages in its place), in order,
    in this process; return how many failed."""
    tally = WarcTally()
    failures, explained = 0, []
    for source in expand_warcs(sources, settings.load.max_bytes, tally):
        try:
            explained.append((_subject(source), explain_source(source, settings)))
        except ModelError:
            raise
        except FeedsiftError as exc:
            report(_subject(source), str(exc) or type(exc).__name__)
            failures += 1
    tally.report()
    output = _explanations(explained, args.format, many)
    if target.kind == "file" and target.path is not None:
        _write_atomically(target.path, output)
    else:
        sys.stdout.write(output)
    return failures + tally.failures


def _explanations(explained: list[tuple[str, PageExplanation]], fmt: str, many: bool) -> str:
    """The explanations as text (a '==> INPUT <==' line before each of several), or as
    JSON: one object with an "input" field, an array of them for several inputs."""
    if fmt == "json":
        objects = [{"input": name, **explanation_to_dict(e)} for name, e in explained]
        whole = objects if many else objects[0] if objects else None
        return json.dumps(whole, ensure_ascii=False, indent=2) + "\n"
    texts = [(f"==> {name} <==\n" if many else "") + explanation_text(e) for name, e in explained]
    return "\n".join(texts)


def explain_source(source: InputSource, settings: ExtractSettings) -> PageExplanation:
    """Load one input and explain the bundled extractor's decisions on it."""
    loaded = load_input(source, settings.load)
    page = parse_page(loaded.data, settings.base_url or loaded.url, loaded.content_type)
    extractor = bundled_extractor().with_layout(settings.layout)
    return explain_page(extractor, page, settings.options)


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
            layout=settings.layout,
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


def extract_batch(sources: Sequence[InputSource], settings: ExtractSettings) -> list[Outcome]:
    """:func:`extract_source` on each of ``sources``: the work one worker does at a time."""
    return [extract_source(source, settings) for source in sources]


def _outcomes(
    sources: Iterable[InputSource], settings: ExtractSettings, jobs: int, count: int | None
) -> Generator[Outcome, None, None]:
    """Outcomes in input order, from ``jobs`` worker processes when there is work for them.

    ``count`` is the number of sources, ``None`` when unknown (WARC pages, read as they go).
    """
    if jobs <= 1 or count == 1:
        yield from (extract_source(source, settings) for source in sources)
        return
    workers = jobs if count is None else min(jobs, count)
    chunksize = STREAM_CHUNKSIZE if count is None else _chunksize(count, workers)
    work = functools.partial(extract_batch, settings=settings)
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        yield from _in_order(executor, work, _batches(sources, chunksize), workers)
    except BaseException:  # Ctrl-C or the reader stopped: drop the queued work, do not wait
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown()


def _chunksize(count: int, workers: int) -> int:
    return max(1, min(MAX_CHUNKSIZE, count // (workers * 4)))


def _batches(sources: Iterable[InputSource], size: int) -> Iterator[list[InputSource]]:
    batch: list[InputSource] = []
    for source in sources:
        batch.append(source)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _in_order(
    executor: ProcessPoolExecutor,
    work: functools.partial[list[Outcome]],
    batches: Iterator[list[InputSource]],
    workers: int,
) -> Iterator[Outcome]:
    """The batches' outcomes in order, with at most :data:`BATCHES_PER_WORKER` batches per
    worker submitted and not yet written (the input is read no further ahead than that)."""
    pending: deque[Future[list[Outcome]]] = deque()
    for batch in batches:
        pending.append(executor.submit(work, batch))
        if len(pending) >= workers * BATCHES_PER_WORKER:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops the pool once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- writing -----------------------------------------------------------------------------


class _Sink(Protocol):
    def write(self, source: InputSource, article: Article) -> None: ...


def _origin(source: InputSource) -> Origin:
    """What the output says of an input: its name, and a WARC page's record id and date."""
    if source.page is None:
        return Origin(source.name)
    return Origin(source.name, source.page.record_id, source.page.date)


class _StreamSink:
    """Everything into one text stream: one document, or several framed by the format."""

    def __init__(self, out: TextIO, fmt: OutputFormat, many: bool, warc: bool) -> None:
        self._out = out
        self._fmt = fmt
        self._stream = DocumentStream(out, fmt, warc=warc) if many else None
        self.written = 0

    def write(self, source: InputSource, article: Article) -> None:
        if self._stream is not None:
            self._stream.write(article, _origin(source))
        else:
            self._out.write(render(article, self._fmt, origin=_origin(source)))
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
        text = render(article, self._fmt, origin=_origin(source))
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
def _open_sink(target: OutputTarget, fmt: OutputFormat, many: bool, warc: bool) -> Iterator[_Sink]:
    """The sink for ``target``: stdout, a folder, or one file (see :func:`_file_stream`);
    ``warc``: WARC files are among the inputs (csv then has the WARC columns)."""
    if target.kind == "folder" and target.path is not None:
        target.path.mkdir(parents=True, exist_ok=True)
        yield _FolderSink(target.path, fmt)
    elif target.kind == "file" and target.path is not None:
        with _file_stream(target.path, fmt, many, warc) as sink:
            yield sink
    else:
        with _closing_stream(sys.stdout, fmt, many, warc) as sink:
            yield sink


@contextmanager
def _file_stream(path: Path, fmt: OutputFormat, many: bool, warc: bool) -> Iterator[_StreamSink]:
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
            _closing_stream(handle, fmt, many, warc) as sink,
        ):
            yield sink
            completed = True
    finally:
        if sink is not None and (sink.written or (many and completed)):
            os.replace(part, path)
        else:
            part.unlink(missing_ok=True)


@contextmanager
def _closing_stream(
    out: TextIO, fmt: OutputFormat, many: bool, warc: bool
) -> Iterator[_StreamSink]:
    """A stream sink that writes its closing part even when the run stops early."""
    sink = _StreamSink(out, fmt, many, warc)
    try:
        yield sink
    finally:
        sink.close()


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)

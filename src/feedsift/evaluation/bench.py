"""Run feedsift and its peers side by side over gold datasets and score every page.

Every peer sees the same pages in the same process. The peers take *turns* over runs of
:data:`DEFAULT_TURN` pages: each peer extracts the run's pages in a row, as it would on a
stream of pages, then the next peer the same pages; the scoring comes after the run. So
each peer is timed warm, as in real use, and the machine's noise (on a shared machine it
comes in swings longer than a run) still hits all peers alike: speed figures are best
read as ratios. The peer that opens a run changes from run to run: the first peer finds
the caches cold (the scoring came before it) and the ones after it find the same pages
already read. A turn of one page (``turn=1``) rotates the peers page by page, which
times every peer cold: its caches are the previous peer's. Only the peer's own call is timed
(``time.perf_counter`` around ``Peer.run``): reading, gunzipping and decoding the page
are shared and not charged.

A peer that raises on a page is scored as if it returned nothing, and the error is
counted; one broken peer never stops the run. Aggregation and rendering are in
:mod:`feedsift.evaluation.report`.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from tqdm import tqdm

from feedsift.errors import DatasetError, InputError
from feedsift.evaluation.datasets import GoldPage, Split, dataset_dirs, iter_pages, read_page_html
from feedsift.evaluation.metrics import (
    PRF,
    ShingleCounts,
    SnippetCounts,
    lcs_prf,
    shingle_counts,
    snippet_counts,
)
from feedsift.evaluation.peers import Peer, PeerInput, PeerResult, select_peers
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.charset import decode_html
from feedsift.text.tokens import lenient_title, normalize_space, same_title_lenient

__all__ = [
    "DEFAULT_TURN",
    "BenchOptions",
    "BenchRun",
    "DatasetInfo",
    "PageScore",
    "PeerInfo",
    "Scores",
    "lenient_title",
    "load_pages",
    "run_bench",
    "same_authors",
    "same_title",
    "same_title_lenient",
    "score_page",
]

#: Peer error messages are kept to this length (some libraries put whole pages in them).
ERROR_MESSAGE_CHARS = 300
#: Pages each peer extracts in a row before the next peer takes the same pages: a second
#: or so of work per peer, short against the minutes-long swings of a shared machine.
DEFAULT_TURN = 20


@dataclass(frozen=True, slots=True)
class BenchOptions:
    """What to run: split, dataset and peer names (empty = all), pages per dataset."""

    split: Split = "test"
    datasets: tuple[str, ...] = ()
    peers: tuple[str, ...] = ()
    limit: int | None = None
    progress: bool = True  #: show a tqdm bar on stderr
    turn: int = DEFAULT_TURN  #: pages each peer extracts in a row (1: page by page)
    model: Path | None = None  #: a bundle written by ``feedsift train`` (default: the shipped one)


@dataclass(frozen=True, slots=True)
class PeerInfo:
    """A peer that took part in the run."""

    name: str
    version: str | None
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scores:
    """One peer's scores on one page; ``None`` where the gold or the peer lacks the field."""

    lcs: PRF | None = None
    shingles: ShingleCounts | None = None
    snippets: SnippetCounts | None = None
    title_ok: bool | None = None
    title_lenient_ok: bool | None = None  #: the same title, case, quotes and dashes folded
    authors_ok: bool | None = None
    date_ok: bool | None = None


@dataclass(frozen=True, slots=True)
class PageScore:
    """One peer on one gold page: scores, time and, for inspection, what it returned
    besides the text."""

    dataset: str
    page_id: str
    peer: str
    seconds: float
    size: int  #: input HTML bytes
    error: str | None
    chars: int  #: length of the extracted text
    scores: Scores
    title: str | None = None
    authors: tuple[str, ...] = ()
    date: str | None = None
    page_type: str | None = None  #: the gold's kind of page, where the dataset has one


@dataclass(frozen=True, slots=True)
class DatasetInfo:
    """A dataset of the run: how many pages were run and how many have each gold field."""

    name: str
    pages: int
    text: int
    snippets: int
    title: int
    authors: int
    date: int
    part_of: str | None = None  #: the dataset this group of pages (one page type) belongs to

    @classmethod
    def of(cls, name: str, pages: Sequence[GoldPage], part_of: str | None = None) -> DatasetInfo:
        return cls(
            name=name,
            part_of=part_of,
            pages=len(pages),
            text=sum(1 for p in pages if p.text),
            snippets=sum(1 for p in pages if p.with_snippets or p.without_snippets),
            title=sum(1 for p in pages if p.title),
            authors=sum(1 for p in pages if p.authors),
            date=sum(1 for p in pages if p.date),
        )


@dataclass(frozen=True, slots=True)
class BenchRun:
    """Everything one benchmark run measured."""

    root: Path
    options: BenchOptions
    datasets: tuple[DatasetInfo, ...]
    peers: tuple[PeerInfo, ...]
    missing_peers: tuple[str, ...]
    scores: tuple[PageScore, ...]
    started: datetime
    wall_seconds: float


def same_title(predicted: str | None, gold: str) -> bool:
    """Exact title match after whitespace normalisation."""
    return predicted is not None and normalize_space(predicted) == normalize_space(gold)


def _author_key(name: str) -> str:
    return normalize_space(name).casefold()


def same_authors(predicted: Sequence[str], gold: Sequence[str]) -> bool:
    """Same set of author names, compared case- and whitespace-insensitively."""
    return {_author_key(a) for a in predicted if a.strip()} == {_author_key(a) for a in gold}


def _snippets(text: str, page: GoldPage) -> SnippetCounts:
    # Whitespace-normalised substring matching, as trafilatura's own evaluation does.
    return snippet_counts(
        normalize_space(text),
        [normalize_space(s) for s in page.with_snippets],
        [normalize_space(s) for s in page.without_snippets],
    )


def _text_scores(page: GoldPage, text: str) -> Scores:
    snippets = None
    if page.with_snippets or page.without_snippets:
        snippets = _snippets(text, page)
    if not page.text:
        return Scores(snippets=snippets)
    return Scores(lcs_prf(text, page.text), shingle_counts(text, page.text), snippets)


def _meta_scores(page: GoldPage, fields: frozenset[str], result: PeerResult) -> Scores:
    title_ok = lenient_ok = authors_ok = date_ok = None
    if page.title and "title" in fields:
        title_ok = same_title(result.title, page.title)
        lenient_ok = same_title_lenient(result.title, page.title)
    if page.authors and "authors" in fields:
        authors_ok = same_authors(result.authors, page.authors)
    if page.date and "date" in fields:
        date_ok = result.date == page.date
    return Scores(title_ok=title_ok, title_lenient_ok=lenient_ok, authors_ok=authors_ok,
                  date_ok=date_ok)  # fmt: skip


def score_page(page: GoldPage, fields: frozenset[str], result: PeerResult) -> Scores:
    """The scores of ``result`` against ``page`` on the ``fields`` the peer extracts."""
    meta = _meta_scores(page, fields, result)
    if "text" not in fields:
        return meta
    text = _text_scores(page, result.text)
    return replace(meta, lcs=text.lcs, shingles=text.shingles, snippets=text.snippets)


def _run_peer(peer: Peer, page: PeerInput) -> tuple[PeerResult, float, str | None]:
    start = time.perf_counter()
    try:
        result = peer.run(page)
    except Exception as exc:  # any peer failure is an empty output
        return PeerResult(), time.perf_counter() - start, _describe(exc)
    seconds = time.perf_counter() - start
    try:
        return peer.complete(page, result), seconds, None
    except Exception as exc:  # metadata failure keeps the timed text
        return result, seconds, _describe(exc)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:ERROR_MESSAGE_CHARS]


def _peer_input(page: GoldPage) -> PeerInput:
    data = read_page_html(page.path)
    try:
        html = decode_html(data).text
    except InputError:
        html = data.decode("utf-8", errors="replace")
    return PeerInput(data, html, page.url)


def _score_turn(
    pages: Sequence[GoldPage], peers: Sequence[Peer], first: int
) -> Iterator[PageScore]:
    """Each peer runs all of ``pages`` in a row, peer number ``first`` first; then every
    result is scored (page by page, peers in their given order)."""
    sources = [_peer_input(page) for page in pages]
    order = [*range(first, len(peers)), *range(first)]
    timed = {n: [_run_peer(peers[n], source) for source in sources] for n in order}
    runs = [timed[n] for n in range(len(peers))]
    for number, (page, source) in enumerate(zip(pages, sources, strict=True)):
        for peer, results in zip(peers, runs, strict=True):
            result, seconds, error = results[number]
            yield PageScore(
                dataset=page.dataset,
                page_id=page.id,
                peer=peer.name,
                seconds=seconds,
                size=len(source.data),
                error=error,
                chars=len(result.text),
                title=result.title,
                authors=result.authors,
                date=result.date.isoformat() if result.date else None,
                page_type=page.page_type,
                scores=score_page(page, peer.fields, result),
            )


@contextmanager
def _silenced_peers() -> Iterator[None]:
    """Mute the peers' log records (up to ERROR) and warnings during the run: they would
    tear the progress bar apart, and a peer's failure is counted in the report anyway."""
    previous = logging.root.manager.disable
    logging.disable(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)


def _pick_datasets(root: Path, names: Sequence[str]) -> list[Path]:
    folders = dataset_dirs(root)
    if not names:
        return folders
    by_name = {folder.name: folder for folder in folders}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise DatasetError(
            f"no dataset {', '.join(unknown)} under {root}; found: {', '.join(by_name)}"
        )
    return [by_name[n] for n in dict.fromkeys(names)]


def load_pages(root: Path, options: BenchOptions) -> dict[str, list[GoldPage]]:
    """The gold pages to run, per dataset name, after split and limit."""
    pages: dict[str, list[GoldPage]] = {}
    for folder in _pick_datasets(root, options.datasets):
        selected = list(iter_pages(folder, options.split))
        pages[folder.name] = selected[: options.limit] if options.limit else selected
    return pages


def _infos(name: str, pages: Sequence[GoldPage]) -> list[DatasetInfo]:
    """The dataset's gold counts, then those of each of its page types (if it has them)."""
    kinds = sorted({p.page_type for p in pages if p.page_type})
    parts = [DatasetInfo.of(f"{name}/{k}", [p for p in pages if p.page_type == k], name)
             for k in kinds]  # fmt: skip
    return [DatasetInfo.of(name, pages), *parts]


def run_bench(
    root: Path, options: BenchOptions = BenchOptions(), peers: Sequence[Peer] | None = None
) -> BenchRun:
    """Run the peers over the datasets under ``root`` and score every page.

    ``peers`` overrides the peer selection of ``options`` (tests pass their own). Raises
    :class:`DatasetError` when ``root`` holds no dataset or a named dataset is missing, and
    ``ValueError`` for an unknown peer name.
    """
    missing: list[str] = []
    if peers is not None:
        chosen = list(peers)
    else:
        model = LearnedPageExtractor.from_file(options.model) if options.model else None
        chosen, missing = select_peers(options.peers, model)
    pages = load_pages(root, options)
    with _silenced_peers():
        for peer in chosen:
            peer.warm_up()
    started, clock = datetime.now(UTC), time.perf_counter()
    every_page = [page for group in pages.values() for page in group]
    turn = max(1, options.turn)
    scores: list[PageScore] = []
    bar = tqdm(total=len(every_page), desc="bench", unit="page", disable=not options.progress)
    with bar, _silenced_peers():
        for number, start in enumerate(range(0, len(every_page), turn)):
            run = every_page[start : start + turn]
            scores.extend(_score_turn(run, chosen, number % max(1, len(chosen))))
            bar.update(len(run))
    return BenchRun(
        root=root,
        options=options,
        datasets=tuple(info for name, group in pages.items() for info in _infos(name, group)),
        peers=tuple(PeerInfo(p.name, p.version(), tuple(sorted(p.fields))) for p in chosen),
        missing_peers=tuple(missing),
        scores=tuple(scores),
        started=started,
        wall_seconds=time.perf_counter() - clock,
    )

"""Turn a benchmark run into summary records, a terminal table, JSON and Markdown.

Per dataset and pooled, per peer: LCS precision/recall/F1 (mean over pages with gold
text), shingle and snippet scores, title/author/date accuracy over pages with that gold,
errors, docs/s and MB/s, and the speed ratio against trafilatura on the same pages.
The pooled row averages LCS over every page of every dataset with gold text, pools the
snippet counts of the snippet datasets, and pools metadata over pages with that gold.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from feedsift.evaluation.bench import BenchRun, DatasetInfo, PageScore
from feedsift.evaluation.metrics import (
    PRF,
    SnippetCounts,
    mean_prf,
    shingle_prf,
    snippet_prf,
)

__all__ = [
    "POOLED",
    "REFERENCE_PEER",
    "Accuracy",
    "BenchReport",
    "Speed",
    "SummaryRow",
    "first_errors",
    "format_table",
    "markdown_table",
    "render_markdown",
    "render_table",
    "report_json",
    "summarize",
    "write_report",
]

#: Speed ratios are given against this peer: the strongest and best-known of the field.
REFERENCE_PEER = "trafilatura"
#: Name of the row that pools all datasets.
POOLED = "pooled"
#: Peers whose per-page scores go into the JSON, so their differences can be inspected.
PAGE_DETAIL_PEERS = ("feedsift", "trafilatura")
BYTES_PER_MB = 1_000_000
#: First-error messages are cut to this length in the table footer (the JSON has them all).
ERROR_CHARS = 160


@dataclass(frozen=True, slots=True)
class Accuracy:
    """Share of pages (with that gold field) where the peer got it right."""

    correct: int
    total: int

    @property
    def value(self) -> float:
        return self.correct / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class Speed:
    """Time spent in the peer's own calls over ``docs`` pages of ``size`` bytes."""

    seconds: float
    docs: int
    size: int

    @property
    def docs_per_s(self) -> float:
        return self.docs / self.seconds if self.seconds else 0.0

    @property
    def mb_per_s(self) -> float:
        return self.size / BYTES_PER_MB / self.seconds if self.seconds else 0.0


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One peer on one dataset (or pooled)."""

    dataset: str
    peer: str
    pages: int
    errors: int
    speed: Speed
    lcs: PRF | None = None
    lcs_pages: int = 0
    shingles: PRF | None = None
    snippets: PRF | None = None
    snippet_counts: SnippetCounts | None = None
    title: Accuracy | None = None
    title_lenient: Accuracy | None = None
    authors: Accuracy | None = None
    date: Accuracy | None = None
    speed_ratio: float | None = None  #: docs/s over the reference peer's, same pages


@dataclass(frozen=True, slots=True)
class BenchReport:
    """A run with its summary rows: every dataset's peers in run order, then pooled."""

    run: BenchRun
    rows: tuple[SummaryRow, ...]


def _accuracy(flags: Iterable[bool | None]) -> Accuracy | None:
    known = [flag for flag in flags if flag is not None]
    return Accuracy(sum(known), len(known)) if known else None


def _summary_row(dataset: str, peer: str, scores: Sequence[PageScore]) -> SummaryRow:
    lcs = [s.scores.lcs for s in scores if s.scores.lcs is not None]
    shingles = [s.scores.shingles for s in scores if s.scores.shingles is not None]
    snippets = [s.scores.snippets for s in scores if s.scores.snippets is not None]
    counts = sum(snippets, SnippetCounts()) if snippets else None
    return SummaryRow(
        dataset=dataset,
        peer=peer,
        pages=len(scores),
        errors=sum(1 for s in scores if s.error),
        speed=Speed(sum(s.seconds for s in scores), len(scores), sum(s.size for s in scores)),
        lcs=mean_prf(lcs) if lcs else None,
        lcs_pages=len(lcs),
        shingles=shingle_prf(shingles) if shingles else None,
        snippets=snippet_prf(counts) if counts else None,
        snippet_counts=counts,
        title=_accuracy(s.scores.title_ok for s in scores),
        title_lenient=_accuracy(s.scores.title_lenient_ok for s in scores),
        authors=_accuracy(s.scores.authors_ok for s in scores),
        date=_accuracy(s.scores.date_ok for s in scores),
    )


def _with_ratios(rows: list[SummaryRow]) -> list[SummaryRow]:
    reference = next((r for r in rows if r.peer == REFERENCE_PEER), None)
    if reference is None or not reference.speed.docs_per_s:
        return rows
    base = reference.speed.docs_per_s
    return [replace(r, speed_ratio=r.speed.docs_per_s / base) for r in rows]


def summarize(run: BenchRun) -> BenchReport:
    """Summary rows per dataset and pooled, peers in run order."""
    groups: dict[tuple[str, str], list[PageScore]] = defaultdict(list)
    for score in run.scores:
        groups[score.dataset, score.peer].append(score)
        groups[POOLED, score.peer].append(score)
        if score.page_type:
            groups[f"{score.dataset}/{score.page_type}", score.peer].append(score)
    names = [info.name for info in run.datasets] + [POOLED]
    rows: list[SummaryRow] = []
    for dataset in names:
        block = [
            _summary_row(dataset, peer.name, groups[dataset, peer.name])
            for peer in run.peers
            if groups.get((dataset, peer.name))
        ]
        rows.extend(_with_ratios(block))
    return BenchReport(run, tuple(rows))


def pooled_info(datasets: Sequence[DatasetInfo]) -> DatasetInfo:
    """The gold counts of all datasets together (page-type groups are inside them)."""
    datasets = [d for d in datasets if d.part_of is None]
    return DatasetInfo(
        name=POOLED,
        pages=sum(d.pages for d in datasets),
        text=sum(d.text for d in datasets),
        snippets=sum(d.snippets for d in datasets),
        title=sum(d.title for d in datasets),
        authors=sum(d.authors for d in datasets),
        date=sum(d.date for d in datasets),
    )


# ---------------------------------------------------------------- table columns


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _prf(part: str, pick: Callable[[SummaryRow], PRF | None]) -> Callable[[SummaryRow], str]:
    def cell(row: SummaryRow) -> str:
        value = pick(row)
        return _num(getattr(value, part)) if value is not None else "-"

    return cell


def _acc(pick: Callable[[SummaryRow], Accuracy | None]) -> Callable[[SummaryRow], str]:
    def cell(row: SummaryRow) -> str:
        value = pick(row)
        return _num(value.value) if value is not None else "-"

    return cell


def _ratio(row: SummaryRow) -> str:
    return "-" if row.speed_ratio is None else f"{row.speed_ratio:.2f}x"


@dataclass(frozen=True, slots=True)
class Column:
    """A table column, shown when the dataset has the gold field ``needs`` (or always)."""

    header: str
    cell: Callable[[SummaryRow], str]
    needs: str | None = None


COLUMNS = (
    Column("peer", lambda r: r.peer),
    Column("n", lambda r: str(r.pages)),
    Column("err", lambda r: str(r.errors)),
    Column("LCS-P", _prf("precision", lambda r: r.lcs), "text"),
    Column("LCS-R", _prf("recall", lambda r: r.lcs), "text"),
    Column("LCS-F1", _prf("f1", lambda r: r.lcs), "text"),
    Column("sh-F1", _prf("f1", lambda r: r.shingles), "text"),
    Column("snip-P", _prf("precision", lambda r: r.snippets), "snippets"),
    Column("snip-R", _prf("recall", lambda r: r.snippets), "snippets"),
    Column("snip-F1", _prf("f1", lambda r: r.snippets), "snippets"),
    Column("title", _acc(lambda r: r.title), "title"),
    Column("title~", _acc(lambda r: r.title_lenient), "title"),
    Column("author", _acc(lambda r: r.authors), "authors"),
    Column("date", _acc(lambda r: r.date), "date"),
    Column("docs/s", lambda r: _num(r.speed.docs_per_s, 1)),
    Column("MB/s", lambda r: _num(r.speed.mb_per_s, 2)),
    Column("vs-traf", _ratio),
)


def _columns(info: DatasetInfo) -> list[Column]:
    return [c for c in COLUMNS if c.needs is None or getattr(info, c.needs) > 0]


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """Aligned plain-text table: the first ``left`` columns left-aligned, the others right."""
    widths = [max(len(x) for x in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        padded = (
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """GitHub-flavoured Markdown table, numbers right-aligned."""
    align = [":---", *["---:"] * (len(headers) - 1)]
    lines = [headers, align, *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def _blocks(report: BenchReport) -> list[tuple[DatasetInfo, list[SummaryRow]]]:
    infos = [*report.run.datasets, pooled_info(report.run.datasets)]
    return [(info, [r for r in report.rows if r.dataset == info.name]) for info in infos]


GOLD_FIELDS = ("text", "snippets", "title", "authors", "date")


def _heading(info: DatasetInfo) -> str:
    gold = [f"{name} {getattr(info, name)}" for name in GOLD_FIELDS if getattr(info, name)]
    return f"{info.name}: {info.pages} pages (gold: {', '.join(gold) or 'none'})"


def _cells(info: DatasetInfo, rows: Sequence[SummaryRow]) -> tuple[list[str], list[list[str]]]:
    columns = _columns(info)
    return [c.header for c in columns], [[c.cell(r) for c in columns] for r in rows]


def first_errors(scores: Iterable[PageScore]) -> dict[str, str]:
    """Each failing peer's first error, with the page it happened on."""
    found: dict[str, str] = {}
    for score in scores:
        if score.error and score.peer not in found:
            found[score.peer] = f"{score.dataset}/{score.page_id}: {score.error}"
    return found


def _footer(run: BenchRun) -> list[str]:
    lines = [f"split {run.options.split}; wall time {run.wall_seconds:.1f} s"]
    if run.missing_peers:
        lines.append(f"not installed: {', '.join(run.missing_peers)}")
    for peer, error in first_errors(run.scores).items():
        lines.append(f"first error of {peer}: {error[:ERROR_CHARS]}")
    return lines


def render_table(report: BenchReport) -> str:
    """The terminal table: one block per dataset, then the pooled block."""
    parts: list[str] = []
    for info, rows in _blocks(report):
        if rows:
            headers, cells = _cells(info, rows)
            parts.append(_heading(info) + "\n" + format_table(headers, cells))
    return "\n\n".join([*parts, "\n".join(_footer(report.run))]) + "\n"


MARKDOWN_NOTES = """\
- Main text: LCS precision/recall/F1 on lower-cased word tokens (Unicode `\\w+`, one token
  per CJK character), mean over pages with gold text; `sh-F1` is the bag-of-4-gram-shingle
  F1 of the ScrapingHub article-extraction-benchmark; `snip` is trafilatura's snippet
  scoring (pooled tp/fn/fp/tn, whitespace-normalised substring match).
- title: exact match after whitespace normalisation; `title~` the same with case, quote
  styles, dashes and end punctuation folded; author: same set of names (case and
  whitespace ignored); date: same calendar day. Over pages whose gold has the field.
- Speed: `time.perf_counter()` around each peer's own call, one process, one core, all
  peers on a page before the next page; `vs-traf` is docs/s over trafilatura's on the same
  pages. A peer's exception counts as empty output (column `err`)."""


def render_markdown(report: BenchReport, command: str | None = None) -> str:
    """The report as a Markdown document."""
    run = report.run
    lines = ["# feedsift bench", ""]
    if command:
        lines += [f"Command: `{command}`", ""]
    lines += [f"Started {run.started.isoformat(timespec='seconds')}; " + "; ".join(_footer(run))]
    peers = ", ".join(f"{p.name} {p.version or '?'}" for p in run.peers)
    lines += ["", f"Peers: {peers}", ""]
    for info, rows in _blocks(report):
        if rows:
            headers, cells = _cells(info, rows)
            lines += [f"## {_heading(info)}", "", markdown_table(headers, cells), ""]
    lines += ["## How to read it", "", MARKDOWN_NOTES, ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- JSON


def _row_json(row: SummaryRow) -> dict[str, Any]:
    data = asdict(row)
    data["speed"].update(docs_per_s=row.speed.docs_per_s, mb_per_s=row.speed.mb_per_s)
    for name in ("title", "title_lenient", "authors", "date"):
        value = getattr(row, name)
        if value is not None:
            data[name]["value"] = value.value
    return data


def report_json(report: BenchReport, command: str | None = None) -> dict[str, Any]:
    """Everything in the report, with per-page scores of :data:`PAGE_DETAIL_PEERS`."""
    run = report.run
    options = asdict(run.options)
    options.pop("progress")
    options["model"] = str(run.options.model) if run.options.model else None
    return {
        "command": command,
        "root": str(run.root),
        "options": options,
        "started": run.started.isoformat(),
        "wall_seconds": run.wall_seconds,
        "peers": [asdict(p) for p in run.peers],
        "missing_peers": list(run.missing_peers),
        "datasets": [asdict(d) for d in run.datasets],
        "summary": [_row_json(row) for row in report.rows],
        "pages": [asdict(s) for s in run.scores if s.peer in PAGE_DETAIL_PEERS],
    }


def write_report(
    report: BenchReport, json_path: Path, markdown_path: Path, command: str | None = None
) -> None:
    """Write the JSON and Markdown files, creating their folders."""
    for path in (json_path, markdown_path):
        path.parent.mkdir(parents=True, exist_ok=True)
    data = report_json(report, command)
    json_path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    markdown_path.write_text(render_markdown(report, command), encoding="utf-8")

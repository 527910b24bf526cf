"""Summaries and rendering of benchmark runs, on hand-made page scores."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from feedsift.evaluation.bench import (
    BenchOptions,
    BenchRun,
    DatasetInfo,
    PageScore,
    PeerInfo,
    Scores,
)
from feedsift.evaluation.metrics import PRF, ShingleCounts, SnippetCounts
from feedsift.evaluation.report import (
    POOLED,
    Accuracy,
    Speed,
    format_table,
    markdown_table,
    render_markdown,
    render_table,
    summarize,
    write_report,
)


def _score(dataset: str, page: str, peer: str, seconds: float, **scores: object) -> PageScore:
    return PageScore(dataset, page, peer, seconds, 2_000_000, None, 10, Scores(**scores))  # type: ignore[arg-type]


def _run() -> BenchRun:
    scores = [
        _score("text", "a", "feedsift", 0.5, lcs=PRF(1.0, 0.5, 2 / 3), title_ok=True,
               shingles=ShingleCounts(0.5, 0.25, 0.25)),
        _score("text", "a", "trafilatura", 1.0, lcs=PRF(0.5, 0.5, 0.5), title_ok=False,
               shingles=ShingleCounts(1.0, 0.0, 0.0)),
        _score("text", "b", "feedsift", 0.5, lcs=PRF(0.0, 0.0, 0.0)),
        _score("text", "b", "trafilatura", 1.0, lcs=PRF(1.0, 1.0, 1.0)),
        _score("snip", "s", "feedsift", 1.0, snippets=SnippetCounts(2, 0, 1, 1)),
        _score("snip", "s", "trafilatura", 1.0, snippets=SnippetCounts(1, 1, 0, 2)),
        _score("snip", "s", "htmldate", 0.25),
    ]  # fmt: skip
    scores[-1] = replace(scores[-1], error="ValueError: no date here")
    return BenchRun(
        root=Path("/data"),
        options=BenchOptions(),
        datasets=(DatasetInfo("text", 2, 2, 0, 1, 0, 0), DatasetInfo("snip", 1, 0, 1, 0, 0, 0)),
        peers=(
            PeerInfo("feedsift", "0.1.0", ("text",)),
            PeerInfo("trafilatura", "2.3.1", ("text",)),
            PeerInfo("htmldate", "1.11.0", ("date",)),
        ),
        missing_peers=("goose3",),
        scores=tuple(scores),
        started=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
        wall_seconds=12.5,
    )


def test_accuracy_and_speed() -> None:
    assert Accuracy(3, 4).value == 0.75 and Accuracy(0, 0).value == 0.0
    speed = Speed(seconds=2.0, docs=10, size=4_000_000)
    assert speed.docs_per_s == 5.0 and speed.mb_per_s == 2.0
    assert Speed(0.0, 0, 0).docs_per_s == 0.0


def test_summary_rows_per_dataset_and_pooled() -> None:
    rows = {(r.dataset, r.peer): r for r in summarize(_run()).rows}
    assert list(rows)[:2] == [("text", "feedsift"), ("text", "trafilatura")]
    text = rows["text", "feedsift"]
    assert text.lcs == PRF(0.5, 0.25, 1 / 3)
    assert text.title == Accuracy(1, 1)
    assert text.shingles is not None and text.shingles.precision == pytest.approx(2 / 3)
    assert text.speed_ratio == pytest.approx(2.0)  # half the time of trafilatura
    assert ("text", "htmldate") not in rows  # htmldate ran on no page of that dataset
    pooled = rows[POOLED, "feedsift"]
    assert pooled.pages == 3 and pooled.lcs_pages == 2
    assert pooled.snippet_counts == SnippetCounts(2, 0, 1, 1)
    assert pooled.speed_ratio == pytest.approx(3.0 / 2.0)
    assert rows[POOLED, "htmldate"].lcs is None


def test_terminal_table_shows_only_columns_with_gold() -> None:
    table = render_table(summarize(_run()))
    blocks = table.split("\n\n")
    assert blocks[0].startswith("text: 2 pages (gold: text 2, title 1)")
    assert "LCS-F1" in blocks[0] and "snip-F1" not in blocks[0] and "author" not in blocks[0]
    assert blocks[1].startswith("snip: 1 pages (gold: snippets 1)")
    assert "snip-F1" in blocks[1] and "LCS-F1" not in blocks[1]
    assert "2.00x" in blocks[0]
    assert "not installed: goose3" in table
    assert "first error of htmldate: snip/s: ValueError: no date here" in table
    header = blocks[0].splitlines()[1]
    assert header.split() == ["peer", "n", "err", "LCS-P", "LCS-R", "LCS-F1", "sh-F1",
                              "title", "title~", "docs/s", "MB/s", "vs-traf"]  # fmt: skip


def test_format_table_aligns_columns() -> None:
    text = format_table(["name", "n"], [["a", "1"], ["long name", "123"]])
    assert text.splitlines() == ["name         n", "---------  ---", "a            1",
                                 "long name  123"]  # fmt: skip
    assert markdown_table(["a", "b"], [["x", "1"]]).splitlines() == [
        "| a | b |", "| :--- | ---: |", "| x | 1 |",
    ]  # fmt: skip


def test_reports_are_written_and_parse(tmp_path: Path) -> None:
    report = summarize(_run())
    json_path, md_path = tmp_path / "a" / "r.json", tmp_path / "b" / "r.md"
    write_report(report, json_path, md_path, "feedsift bench /data")
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["command"] == "feedsift bench /data"
    assert data["missing_peers"] == ["goose3"]
    assert {p["peer"] for p in data["pages"]} == {"feedsift", "trafilatura"}
    pooled = next(r for r in data["summary"] if r["dataset"] == POOLED and r["peer"] == "feedsift")
    assert pooled["speed"]["docs_per_s"] == pytest.approx(3 / 2.0)
    assert pooled["title"] == {"correct": 1, "total": 1, "value": 1.0}
    markdown = md_path.read_text(encoding="utf-8")
    assert markdown == render_markdown(report, "feedsift bench /data")
    assert "Command: `feedsift bench /data`" in markdown
    assert "## pooled: 3 pages" in markdown
    assert "| feedsift | 3 | 0 |" in markdown

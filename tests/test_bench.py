"""feedsift bench: scoring on known outputs, error handling, the CLI and a smoke run."""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path
from typing import ClassVar

import pytest

from feedsift.cli import bench_cmd
from feedsift.errors import DatasetError
from feedsift.evaluation.bench import BenchOptions, BenchRun, run_bench, same_authors, same_title
from feedsift.evaluation.peers import Peer, PeerField, PeerInput, PeerResult
from feedsift.evaluation.report import POOLED, SummaryRow, summarize

FIXTURES = Path(__file__).parent / "fixtures" / "bench" / "datasets"


class ScriptedPeer(Peer):
    """A peer whose output per page URL is given; raises on the URLs in ``fail``."""

    module = "feedsift"
    distribution = "feedsift"
    fields: ClassVar[frozenset[PeerField]] = frozenset({"text", "title", "authors", "date"})

    def __init__(
        self, name: str, outputs: dict[str, PeerResult], fail: frozenset[str] = frozenset()
    ) -> None:
        self.name = name
        self.outputs = outputs
        self.fail = fail

    def run(self, page: PeerInput) -> PeerResult:
        if page.url in self.fail:
            raise RuntimeError("scripted failure")
        return self.outputs.get(page.url or "", PeerResult())


def _write_dataset(root: Path, name: str, rows: list[dict[str, object]]) -> None:
    folder = root / name
    (folder / "pages").mkdir(parents=True)
    for row in rows:
        html = f"<html><body><p>page {row['id']}</p></body></html>"
        (folder / "pages" / f"{row['id']}.html").write_text(html, encoding="utf-8")
    lines = "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "gold.jsonl").write_text(lines, encoding="utf-8")


@pytest.fixture()
def known_root(tmp_path: Path) -> Path:
    """Two tiny datasets whose scores are worked out by hand in the tests."""
    _write_dataset(
        tmp_path,
        "text",
        [
            {
                "id": "a",
                "url": "u:a",
                "split": "test",
                "text": "one two three four five six",
                "title": "Hello World",
                "author": ["Jane Doe"],
                "date": "2024-03-05T23:30:00-05:00",
            },
            {"id": "b", "url": "u:b", "split": "test", "text": "alpha beta gamma delta"},
            {"id": "c", "url": "u:c", "split": "train", "text": "never scored"},
        ],
    )
    _write_dataset(
        tmp_path,
        "snip",
        [
            {
                "id": "s",
                "url": "u:s",
                "split": "test",
                "with": ["alpha beta", "gamma  delta"],
                "without": ["menu", "footer text"],
            }
        ],
    )
    return tmp_path


KNOWN_OUTPUTS = {
    # LCS 5 of 6 extracted and 6 gold tokens; shingles tp 2, fp 1, fn 1.
    "u:a": PeerResult(
        "one two three four five seven", "  Hello \n World ", ("jane  DOE",), date(2024, 3, 5)
    ),
    # Exactly the gold: LCS and shingles perfect.
    "u:b": PeerResult("alpha beta gamma delta"),
    # Both "with" snippets (the second across a line break), "menu" leaked, "footer text" not.
    "u:s": PeerResult("alpha beta\ngamma delta menu"),
}


def _row(run: BenchRun, dataset: str, peer: str) -> SummaryRow:
    return next(r for r in summarize(run).rows if r.dataset == dataset and r.peer == peer)


def test_known_output_gets_known_scores(known_root: Path) -> None:
    run = run_bench(
        known_root, BenchOptions(progress=False), [ScriptedPeer("scripted", KNOWN_OUTPUTS)]
    )
    text = _row(run, "text", "scripted")
    assert text.pages == 2 and text.errors == 0
    assert text.lcs is not None and text.shingles is not None
    assert text.lcs.precision == pytest.approx((5 / 6 + 1.0) / 2)
    assert text.lcs.f1 == pytest.approx((5 / 6 + 1.0) / 2)
    assert text.shingles.precision == pytest.approx((2 / 3 + 1.0) / 2)
    assert text.title is not None and (text.title.correct, text.title.total) == (1, 1)
    assert text.authors is not None and text.authors.value == 1.0
    assert text.date is not None and text.date.value == 1.0
    snip = _row(run, "snip", "scripted")
    assert snip.snippet_counts is not None
    assert (snip.snippet_counts.tp, snip.snippet_counts.fn) == (2, 0)
    assert (snip.snippet_counts.fp, snip.snippet_counts.tn) == (1, 1)
    assert snip.snippets is not None and snip.snippets.f1 == pytest.approx(0.8)
    assert snip.lcs is None


class LoggingPeer(ScriptedPeer):
    """A scripted peer that writes down which peer ran which gold page, in order (the
    warm-up page, which has no URL, aside)."""

    def __init__(self, name: str, log: list[tuple[str, str]]) -> None:
        super().__init__(name, KNOWN_OUTPUTS)
        self.log = log

    def run(self, page: PeerInput) -> PeerResult:
        if page.url:
            self.log.append((self.name, page.url))
        return super().run(page)


@pytest.mark.parametrize("turn", [1, 2, 20])
def test_peers_take_turns_over_runs_of_pages(known_root: Path, turn: int) -> None:
    log: list[tuple[str, str]] = []
    peers = [LoggingPeer("first", log), LoggingPeer("second", log)]
    run = run_bench(known_root, BenchOptions(progress=False, turn=turn), peers)
    pages = [url for name, url in log if name == "first"]  # every page once, in run order
    assert sorted(pages) == ["u:a", "u:b", "u:s"] and len(log) == 6
    expected = [
        (name, url)
        for number, start in enumerate(range(0, 3, turn))
        for name in (("first", "second") if number % 2 == 0 else ("second", "first"))
        for url in pages[start : start + turn]
    ]
    assert log == expected  # each peer runs a whole turn before the next; openers alternate
    # scores come back page by page, peers in order, whatever the turn
    first_page = run.scores[0].page_id
    assert [(s.page_id, s.peer) for s in run.scores[:2]] == [
        (first_page, "first"),
        (first_page, "second"),
    ]
    assert _row(run, "text", "second").lcs == _row(run, "text", "first").lcs


def test_pooled_row_averages_pages_of_all_datasets(known_root: Path) -> None:
    run = run_bench(
        known_root, BenchOptions(progress=False), [ScriptedPeer("scripted", KNOWN_OUTPUTS)]
    )
    pooled = _row(run, POOLED, "scripted")
    assert pooled.pages == 3
    assert pooled.lcs_pages == 2
    assert pooled.snippet_counts is not None and pooled.snippet_counts.tp == 2
    assert pooled.speed.size == sum(s.size for s in run.scores)


def test_failing_peer_counts_errors_and_run_goes_on(known_root: Path) -> None:
    broken = ScriptedPeer("broken", KNOWN_OUTPUTS, fail=frozenset({"u:a", "u:s"}))
    good = ScriptedPeer("good", KNOWN_OUTPUTS)
    run = run_bench(known_root, BenchOptions(progress=False), [broken, good])
    failed = [s for s in run.scores if s.error]
    assert {(s.peer, s.page_id) for s in failed} == {("broken", "a"), ("broken", "s")}
    assert all("scripted failure" in (s.error or "") for s in failed)
    row = _row(run, "text", "broken")
    assert row.errors == 1 and row.lcs is not None
    assert row.lcs.f1 == pytest.approx(0.5)  # page a scored as empty output, page b perfect
    assert _row(run, POOLED, "good").errors == 0


def test_speed_ratio_is_against_trafilatura(known_root: Path) -> None:
    peers = [ScriptedPeer("fast", KNOWN_OUTPUTS), ScriptedPeer("trafilatura", KNOWN_OUTPUTS)]
    run = run_bench(known_root, BenchOptions(progress=False), peers)
    fast, reference = _row(run, POOLED, "fast"), _row(run, POOLED, "trafilatura")
    assert reference.speed_ratio == pytest.approx(1.0)
    expected = fast.speed.docs_per_s / reference.speed.docs_per_s
    assert fast.speed_ratio == pytest.approx(expected)


def test_split_datasets_and_limit(known_root: Path) -> None:
    peer = [ScriptedPeer("scripted", KNOWN_OUTPUTS)]
    every = run_bench(known_root, BenchOptions(split="all", progress=False), peer)
    assert sorted(s.page_id for s in every.scores) == ["a", "b", "c", "s"]
    one = run_bench(known_root, BenchOptions(datasets=("text",), limit=1, progress=False), peer)
    assert [s.page_id for s in one.scores] == ["a"]
    assert [d.name for d in one.datasets] == ["text"]


def test_missing_folder_or_dataset_is_a_dataset_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"datasets folder not found: .*nowhere"):
        run_bench(tmp_path / "nowhere", BenchOptions(progress=False), [])
    with pytest.raises(DatasetError, match="no dataset"):
        run_bench(tmp_path, BenchOptions(progress=False), [])
    with pytest.raises(DatasetError, match=r"no dataset nope under .*found: news, snippets"):
        run_bench(FIXTURES, BenchOptions(datasets=("nope",), progress=False), [])


def test_title_and_author_matching() -> None:
    assert same_title(" A  title\n", "A title")
    assert not same_title("a title", "A title")
    assert not same_title(None, "A title")
    assert same_authors(["Ann  Lee", "bo kim"], ["Bo Kim", "ann lee"])
    assert not same_authors(["Ann Lee"], ["Ann Lee", "Bo Kim"])


# ---------------------------------------------------------------- through the CLI


def _cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="feedsift")
    bench_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *argv])
    status: int = args.func(args)
    return status


def test_default_data_missing_gives_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _cli("--quiet") == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "shared benchmark data is not there" in err
    assert "feedsift bench DATASETS_DIR" in err


def test_unknown_peer_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(str(FIXTURES), "--peers", "feedsift,nosuchpeer", "--quiet") == 2
    assert "unknown peer nosuchpeer" in capsys.readouterr().err


def test_smoke_run_feedsift_and_trafilatura_on_fixtures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("trafilatura")
    json_path, md_path = tmp_path / "out" / "bench.json", tmp_path / "out" / "bench.md"
    argv = ["--peers", "feedsift,trafilatura", "--json", str(json_path)]
    status = _cli(str(FIXTURES), *argv, "--markdown", str(md_path), "--quiet")
    assert status == 0
    table = capsys.readouterr().out
    assert "news: 2 pages (gold: text 2, title 2, authors 1, date 2)" in table
    assert "snippets: 2 pages (gold: snippets 2)" in table
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["command"].startswith("feedsift bench ")
    rows = {(r["dataset"], r["peer"]): r for r in data["summary"]}
    for peer in ("feedsift", "trafilatura"):
        assert rows["news", peer]["errors"] == 0
        assert rows["news", peer]["lcs"]["f1"] > 0.5  # clean articles: most of the text found
        assert rows["snippets", peer]["snippet_counts"]["tp"] >= 2
    assert rows["pooled", "trafilatura"]["speed_ratio"] == pytest.approx(1.0)
    assert {p["peer"] for p in data["pages"]} == {"feedsift", "trafilatura"}
    assert len(data["pages"]) == 8
    markdown = md_path.read_text(encoding="utf-8")
    assert "## news: 2 pages" in markdown and "| peer |" in markdown

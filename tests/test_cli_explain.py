"""``feedsift extract --explain``: a line per block with its decision, or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ARTICLE_SENTENCE, PAGES
from feedsift.cli.main import main

ARTICLE = str(PAGES / "article.html")
SECOND = str(PAGES / "second.html")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["extract", "--explain", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_line_per_block_with_its_decision(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ARTICLE)
    assert (status, err) == (0, "")
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert rows and [int(row[0]) for row in rows] == list(range(len(rows)))
    assert {"KEPT", "removed"} <= {row[1] for row in rows} <= {"KEPT", "TITLE", "removed"}
    kept = [line for line in out.splitlines() if " KEPT " in line and "kept: content" in line]
    assert any(ARTICLE_SENTENCE[:30] in line for line in kept)


def test_json_parses_and_names_the_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ARTICLE, "-f", "json")
    data = json.loads(out)
    assert status == 0 and data["input"] == ARTICLE
    assert ARTICLE_SENTENCE in data["article"]["text"]
    assert any(b["kept"] and ARTICLE_SENTENCE in b["text"] for b in data["blocks"])
    assert {"index", "kept", "role", "stage", "score", "threshold", "reason"} <= set(
        data["blocks"][0]
    )
    status, out, _ = run(capsys, ARTICLE, SECOND, "--format", "json")
    assert status == 0 and [d["input"] for d in json.loads(out)] == [ARTICLE, SECOND]


def test_several_inputs_output_file_and_formats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(capsys, ARTICLE, SECOND)
    assert status == 0 and f"==> {ARTICLE} <==" in out and f"==> {SECOND} <==" in out
    target = tmp_path / "why.txt"
    assert run(capsys, ARTICLE, "-o", str(target))[0] == 0
    assert " KEPT " in target.read_text(encoding="utf-8")
    status, _, err = run(capsys, ARTICLE, "-f", "csv")
    assert status == 2 and "txt or json" in err


def test_a_broken_input_is_reported_and_the_rest_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    status, out, err = run(capsys, str(empty), ARTICLE)
    assert status == 1 and "empty.html" in err and " KEPT " in out


def test_help_teaches_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--explain" in out and "block classifier" in out

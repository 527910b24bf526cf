"""``feedsift extract`` options, run in-process through ``main``: formats, output, usage."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from conftest import ARTICLE_SENTENCE, NAV_TEXT, PAGES, SECOND_SENTENCE, THIRD_SENTENCE
from feedsift.api import extract as real_extract
from feedsift.cli import extract_cmd
from feedsift.cli.main import main

ARTICLE = str(PAGES / "article.html")
SECOND = str(PAGES / "second.html")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["extract", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_single_file_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ARTICLE)
    assert (status, err) == (0, "")
    assert ARTICLE_SENTENCE in out
    assert NAV_TEXT not in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ARTICLE, "--format", "json")
    data = json.loads(out)
    assert status == 0
    assert data["input"] == ARTICLE
    assert ARTICLE_SENTENCE in data["text"]
    assert data["kind"] in ("article", "listing", "empty")
    assert {"title", "authors", "published", "body", "provenance", "sources"} <= set(data)


def test_jsonl_markdown_html(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, ARTICLE, "-f", "jsonl")
    assert len(out.splitlines()) == 1
    assert ARTICLE_SENTENCE in json.loads(out)["text"]
    _, out, _ = run(capsys, ARTICLE, "-f", "markdown")
    assert ARTICLE_SENTENCE in out and NAV_TEXT not in out
    _, out, _ = run(capsys, ARTICLE, "-f", "html")
    doc = lxml_html.document_fromstring(out)
    assert ARTICLE_SENTENCE in doc.find("body").text_content()
    assert out.startswith("<!DOCTYPE html>")


def test_url_option_is_the_page_address(capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://coast.example.org/2023/10/lighthouse-time"
    _, out, _ = run(capsys, ARTICLE, "--url", url, "-f", "json")
    assert json.loads(out)["url"] == url


def test_options_reach_the_extractor(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []

    def recording_extract(html: bytes, url: str | None, **options: Any) -> Any:
        calls.append({"url": url, **options})
        return real_extract(html, url, **options)

    monkeypatch.setattr(extract_cmd, "extract", recording_extract)
    assert run(capsys, ARTICLE, "--comments", "--no-metadata")[0] == 0
    assert run(capsys, ARTICLE)[0] == 0
    assert calls[0]["include_comments"] is True and calls[0]["with_metadata"] is False
    assert calls[1]["include_comments"] is False and calls[1]["with_metadata"] is True
    assert calls[1]["url"] is None


def test_several_inputs_as_text_have_header_lines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ARTICLE, SECOND)
    assert status == 0
    assert out.startswith(f"==> {ARTICLE} <==\n")
    assert f"\n==> {SECOND} <==\n" in out
    assert out.index(ARTICLE_SENTENCE) < out.index(SECOND_SENTENCE)


def test_several_inputs_as_json_make_one_array(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, str(PAGES), "-f", "json")
    items = json.loads(out)
    assert [Path(item["input"]).name for item in items] == [
        "article.html",
        "second.html",
        "third.htm",
    ]


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "article.json"
    status, out, err = run(capsys, ARTICLE, "-f", "json", "-o", str(target))
    assert (status, out, err) == (0, "", "")
    assert ARTICLE_SENTENCE in json.loads(target.read_text("utf-8"))["text"]
    assert not list(tmp_path.glob("*.part"))


def test_a_failed_single_input_leaves_the_output_file_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "article.txt"
    target.write_text("an earlier good result")
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    status, _, err = run(capsys, str(empty), "-o", str(target))
    assert (status, err) == (1, f"feedsift: {empty}: empty document\n")
    assert target.read_text() == "an earlier good result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["article.txt", "empty.html"]


def test_output_dash_is_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert ARTICLE_SENTENCE in run(capsys, ARTICLE, "-o", "-")[1]


def test_many_inputs_to_a_folder_keep_the_layout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_dir = tmp_path / "texts"
    status, out, _ = run(capsys, str(PAGES), "-o", str(out_dir))
    assert (status, out) == (0, "")
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
    assert written == ["article.txt", "more/third.txt", "second.txt"]
    assert THIRD_SENTENCE in (out_dir / "more" / "third.txt").read_text("utf-8")
    run(capsys, str(PAGES), "-o", str(out_dir), "-f", "markdown")  # a second run adds .md files
    assert (out_dir / "article.md").exists() and (out_dir / "article.txt").exists()


def test_one_input_into_an_existing_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, ARTICLE, "-f", "html", "-o", str(tmp_path))[0] == 0
    assert "<!DOCTYPE html>" in (tmp_path / "article.html").read_text("utf-8")


def test_same_names_do_not_overwrite_each_other(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(ARTICLE, tmp_path / "a" / "page.html")
    shutil.copy(SECOND, tmp_path / "b" / "page.html")
    out_dir = tmp_path / "out"
    args = [str(tmp_path / "a" / "page.html"), str(tmp_path / "b" / "page.html")]
    assert run(capsys, *args, "-o", f"{out_dir}/")[0] == 0
    assert ARTICLE_SENTENCE in (out_dir / "page.txt").read_text("utf-8")
    assert SECOND_SENTENCE in (out_dir / "page-2.txt").read_text("utf-8")


def test_many_inputs_as_jsonl_into_one_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "all.jsonl"
    assert run(capsys, str(PAGES), "-f", "jsonl", "-o", str(target))[0] == 0
    rows = [json.loads(line) for line in target.read_text("utf-8").splitlines()]
    assert len(rows) == 3 and THIRD_SENTENCE in rows[2]["text"]


def test_glob_pattern_is_expanded(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(PAGES / "**" / "*.htm"), "-f", "jsonl")
    assert status == 0
    assert [Path(json.loads(line)["input"]).name for line in out.splitlines()] == ["third.htm"]


def test_missing_input_fails_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "no-such-page.html", ARTICLE)
    assert status == 1
    assert err == "feedsift: no-such-page.html: no such file or directory\n"
    assert ARTICLE_SENTENCE in out  # the good input still came out


def test_size_cap(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ARTICLE, "--max-size", "0.001")
    assert (status, out) == (1, "")
    assert err.startswith(f"feedsift: {ARTICLE}: file too large: ")
    assert "the limit is 1048" in err


def test_unwritable_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, _, err = run(capsys, ARTICLE, "-o", str(blocker / "out.txt"))
    assert status == 1
    assert err.startswith("feedsift: ") and "cannot write" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "pdf"], "invalid choice: 'pdf'"),
        (["--jobs", "-1"], "must be 0 or more"),
        (["--timeout", "0"], "must be more than 0"),
        ([str(PAGES), "--url", "https://example.org/"], "--url is for a single input"),
    ],
)
def test_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run(capsys, ARTICLE, *args)
    assert (status, out) == (2, "")
    assert message in err and "usage: feedsift extract" in err


def test_many_documents_into_an_existing_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    existing = tmp_path / "notes"
    existing.write_text("keep me")
    status, _, err = run(capsys, ARTICLE, SECOND, "-o", str(existing))
    assert status == 2 and "one file each into a folder" in err
    assert existing.read_text() == "keep me"


def test_many_documents_into_a_file_named_for_the_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "all.md"
    assert run(capsys, ARTICLE, SECOND, "-f", "markdown", "-o", str(target))[0] == 0
    text = target.read_text("utf-8")
    assert text.startswith(f"<!-- input: {ARTICLE} -->")
    assert ARTICLE_SENTENCE in text and SECOND_SENTENCE in text


def test_no_listings_reaches_the_extractor(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[object] = []

    def recording_extract(html: bytes, url: str | None, **options: Any) -> Any:
        seen.append(options["detect_listings"])
        return real_extract(html, url, **options)

    monkeypatch.setattr(extract_cmd, "extract", recording_extract)
    run(capsys, ARTICLE, "--no-listings")
    run(capsys, ARTICLE)
    assert seen == [False, True]


def test_no_input_on_a_terminal_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.BytesIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Terminal()))
    status, _, err = run(capsys)
    assert status == 2 and "no input" in err


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "feedsift extract post.html" in out
    assert "--jobs" in out and "--ignore-robots" in out and "exit status" in out
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    assert "extract" in top and "demo" in top and "examples:" in top

"""End to end through the CLI: folders with broken files, URLs on loopback, stdin, processes."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import (
    ARTICLE_SENTENCE,
    NAV_TEXT,
    PAGES,
    SECOND_SENTENCE,
    THIRD_SENTENCE,
    LoopbackServer,
)
from feedsift import __version__
from feedsift.cli import extract_cmd
from feedsift.cli.main import main
from feedsift.errors import ModelError

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256)) * 4


@pytest.fixture
def mixed_folder(tmp_path: Path) -> Path:
    """The fixture pages plus a binary file and an empty file with .html names."""
    folder = tmp_path / "site"
    shutil.copytree(PAGES, folder)
    (folder / "broken.html").write_bytes(PNG)
    (folder / "more" / "empty.html").write_bytes(b"")
    return folder


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_folder_with_broken_files(capsys: pytest.CaptureFixture[str], mixed_folder: Path) -> None:
    status, out, err = run(capsys, "extract", str(mixed_folder), "--format", "jsonl")
    assert status == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert [Path(row["input"]).name for row in rows] == ["article.html", "second.html", "third.htm"]
    assert ARTICLE_SENTENCE in rows[0]["text"] and THIRD_SENTENCE in rows[2]["text"]
    assert err.splitlines() == [
        f"feedsift: {mixed_folder / 'broken.html'}: not an HTML page: looks like PNG image",
        f"feedsift: {mixed_folder / 'more' / 'empty.html'}: empty document",
    ]


def test_url_on_loopback(
    capsys: pytest.CaptureFixture[str], web: LoopbackServer, article_html: bytes
) -> None:
    url = web.route("/2023/10/lighthouse.html", article_html)
    status, out, err = run(capsys, "extract", url, "--format", "json", "--allow-private")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["input"] == url and data["url"] == url
    assert ARTICLE_SENTENCE in data["text"] and NAV_TEXT not in data["text"]


def test_failed_url_does_not_stop_the_batch(
    capsys: pytest.CaptureFixture[str], web: LoopbackServer, article_html: bytes
) -> None:
    good = web.route("/good.html", article_html)
    slow = web.route("/slow.html", article_html, delay=2.0)
    status, out, err = run(
        capsys, "extract", web.url("/gone.html"), slow, good, "--timeout", "0.3", "--allow-private"
    )
    assert status == 1
    assert out.count("==> ") == 1 and ARTICLE_SENTENCE in out
    assert err.splitlines() == [
        f"feedsift: {web.url('/gone.html')}: HTTP 404 Not Found",
        f"feedsift: {slow}: timed out after 0.3 s",
    ]


def test_robots_and_ignore_robots(
    capsys: pytest.CaptureFixture[str], web: LoopbackServer, article_html: bytes
) -> None:
    web.route("/robots.txt", b"User-agent: *\nDisallow: /\n", content_type="text/plain")
    url = web.route("/post.html", article_html)
    status, out, err = run(capsys, "extract", url, "--allow-private")
    assert (status, out) == (1, "")
    assert err == f"feedsift: {url}: disallowed by {web.base_url}/robots.txt\n"
    status, out, _ = run(capsys, "extract", url, "--ignore-robots", "--allow-private")
    assert status == 0 and ARTICLE_SENTENCE in out


def test_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, article_html: bytes
) -> None:
    feed_stdin(monkeypatch, article_html)
    status, out, _ = run(capsys, "extract")
    assert status == 0 and ARTICLE_SENTENCE in out and NAV_TEXT not in out
    feed_stdin(monkeypatch, article_html)
    status, out, _ = run(capsys, "extract", "-", "--url", "https://example.org/p", "-f", "json")
    data = json.loads(out)
    assert (data["input"], data["url"]) == ("<stdin>", "https://example.org/p")


def test_binary_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, PNG)
    status, out, err = run(capsys, "extract", "-")
    assert (status, out) == (1, "")
    assert err == "feedsift: <stdin>: not an HTML page: looks like PNG image\n"


def test_jobs_2_equals_jobs_1(capsys: pytest.CaptureFixture[str], mixed_folder: Path) -> None:
    for extra in range(3):  # enough inputs that every worker gets some
        shutil.copy(PAGES / "second.html", mixed_folder / f"copy-{extra}.html")
    one = run(capsys, "extract", str(mixed_folder), "-f", "jsonl", "--jobs", "1")
    two = run(capsys, "extract", str(mixed_folder), "-f", "jsonl", "--jobs", "2")
    assert one == two
    assert one[0] == 1 and len(one[1].splitlines()) == 6 and len(one[2].splitlines()) == 2


def test_progress_bar_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "extract", str(PAGES), "--progress", "-f", "jsonl")
    assert status == 0 and "3/3" in err
    assert run(capsys, "extract", str(PAGES), "-f", "jsonl")[2] == ""  # not a terminal: no bar


def test_a_bug_on_one_page_is_reported_and_the_rest_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = extract_cmd.extract

    def flaky(html: bytes, url: str | None, **options: object) -> object:
        if b"bicycle" in html:
            raise RuntimeError("boom")
        return real(html, url, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(extract_cmd, "extract", flaky)
    status, out, err = run(capsys, "extract", str(PAGES), "-f", "jsonl")
    assert status == 1 and len(out.splitlines()) == 2
    assert err.splitlines() == [
        f"feedsift: {PAGES / 'more' / 'third.htm'}: internal error: RuntimeError: boom"
    ]
    status, _, err = run(capsys, "-v", "extract", str(PAGES), "-f", "jsonl")
    assert "Traceback (most recent call last)" in err and "RuntimeError: boom" in err


def test_ctrl_c_exits_130_and_keeps_what_was_written(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = extract_cmd.extract

    def interrupted_at_the_second_page(html: bytes, url: str | None, **options: object) -> object:
        if b"Small birds" in html:
            raise KeyboardInterrupt
        return real(html, url, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(extract_cmd, "extract", interrupted_at_the_second_page)
    target = tmp_path / "out.json"
    status, _, err = run(capsys, "extract", str(PAGES), "-f", "json", "-o", str(target))
    assert (status, err) == (130, "feedsift: interrupted\n")
    (item,) = json.loads(target.read_text("utf-8"))  # the array is closed, the page kept
    assert ARTICLE_SENTENCE in item["text"]
    assert not (tmp_path / "out.json.part").exists()


def test_a_model_error_stops_the_run_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def no_model(html: bytes, url: str | None, **options: object) -> object:
        raise ModelError("model file missing")

    monkeypatch.setattr(extract_cmd, "extract", no_model)
    target = tmp_path / "out.jsonl"
    target.write_text("earlier results\n")
    status, out, err = run(capsys, "extract", str(PAGES), "-f", "jsonl", "-o", str(target))
    assert (status, out, err) == (1, "", "feedsift: model file missing\n")
    assert target.read_text() == "earlier results\n"


def test_examples(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "examples")
    assert (status, err) == (0, "")
    for name in ("blog-post.html", "news-article.html", "blog-home.html", "artikel-de.html"):
        assert f"== {name}: " in out
    assert out.count("\n  kind ") == 4 and out.count("\n  text ") + out.count("\n  posts ") == 4
    assert "The example pages are in" in out


def test_examples_formats(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "examples", "--format", "json")
    items = json.loads(out)
    assert status == 0 and len(items) == 4
    assert "Marlow reservoir" in items[1]["text"]
    status, out, _ = run(capsys, "examples", "blog-home", "news-article", "-f", "jsonl")
    assert [json.loads(line)["input"] for line in out.splitlines()] == [
        "news-article.html",
        "blog-home.html",
    ]
    status, _, err = run(capsys, "examples", "nope")
    assert status == 2 and "no example 'nope'" in err


def test_version_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version") == (0, f"feedsift {__version__}\n", "")
    status, _, err = run(capsys)
    assert status == 2 and "usage: feedsift" in err


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    return env


def test_real_process(mixed_folder: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "feedsift", "extract", str(mixed_folder), "-f", "jsonl"]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, env=subprocess_env(), check=False
    )
    assert done.returncode == 1
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 3 and SECOND_SENTENCE in rows[1]["text"]
    assert len(done.stderr.splitlines()) == 2
    assert str(mixed_folder / "broken.html") in done.stderr.splitlines()[0]
    version = subprocess.run(
        [sys.executable, "-m", "feedsift.cli.main", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env=subprocess_env(),
        check=False,
    )
    assert (version.returncode, version.stdout) == (0, f"feedsift {__version__}\n")

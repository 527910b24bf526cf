"""``feedsift extract --render`` through a real Chromium, run in-process through ``main``.

The tests that launch a browser are skipped when Playwright cannot be imported or no
Chromium is found (``FEEDSIFT_CHROMIUM`` or ``chromium`` on the ``PATH``), as
tests/test_rendering.py is; the one about a missing Chromium runs everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import needs_browser
from conftest import ARTICLE_SENTENCE, PAGES
from feedsift.cli import extract_cmd
from feedsift.cli.main import main
from feedsift.rendering.browser_layout import BrowserLayout, RenderTally

ARTICLE = str(PAGES / "article.html")
#: A page whose script never ends: it cannot render within any time limit.
STUCK = "<html><body><p>{}</p><script>while (true) {{}}</script></body></html>"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["extract", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def tallies(monkeypatch: pytest.MonkeyPatch) -> list[BrowserLayout]:
    """Every BrowserLayout the command makes, to read its tally after the run."""
    made: list[BrowserLayout] = []

    class Kept(BrowserLayout):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(extract_cmd, "BrowserLayout", Kept)
    return made


@needs_browser
def test_render_lays_out_every_page_in_one_browser(
    capsys: pytest.CaptureFixture[str], tallies: list[BrowserLayout]
) -> None:
    second = str(PAGES / "second.html")
    status, out, err = run(capsys, ARTICLE, second, "--render", "-f", "jsonl")
    assert (status, err) == (0, "")
    assert ARTICLE_SENTENCE in out and len(out.splitlines()) == 2
    assert len(tallies) == 1
    assert tallies[0].tally() == RenderTally(rendered=2, fallbacks=0, reasons=())


@needs_browser
def test_a_page_not_rendered_in_time_gets_the_markup_estimate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tallies: list[BrowserLayout]
) -> None:
    page = tmp_path / "stuck.html"
    page.write_text(STUCK.format(ARTICLE_SENTENCE), encoding="utf-8")
    status, out, err = run(capsys, str(page), "--render", "--render-timeout", "1000")
    assert status == 0 and ARTICLE_SENTENCE in out  # extracted all the same
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("feedsift: markup estimate used, not rendered: ")
    assert "not rendered within 1000 ms" in lines[0]
    assert lines[1] == "feedsift: --render: 1 of 1 pages got the markup estimate: not rendered"
    assert tallies[0].tally().fallbacks == 1


def test_render_without_chromium_is_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FEEDSIFT_CHROMIUM", str(tmp_path / "no-chromium"))
    status, out, err = run(capsys, ARTICLE, "--render")
    assert (status, out) == (1, "")
    assert err.splitlines() == [
        f"feedsift: --render: Chromium {str(tmp_path / 'no-chromium')!r} is not an executable file"
    ]


def test_render_is_refused_with_worker_processes(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ARTICLE, "--render", "-j", "2")
    assert (status, out) == (2, "")
    assert "--render lays pages out in one browser in this process: drop -j" in err

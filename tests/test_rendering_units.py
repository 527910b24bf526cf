"""The renderer's pure parts, without a browser: network rule, resources, contrast, column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from feedsift.errors import RenderError
from feedsift.parsing.page import parse_page
from feedsift.rendering.browser import (
    CHROMIUM_ENV,
    MEMORY_FEATURES_OFF,
    RenderOptions,
    chromium_path,
    launch_args,
)
from feedsift.rendering.column import main_column
from feedsift.rendering.marking import MARK_ATTR, marked_source, marked_tree
from feedsift.rendering.measure import MAX_FADED_SHARE, contrast_ratio, unfaded
from feedsift.rendering.network import (
    DirectoryResources,
    Verdict,
    browser_url,
    decide,
    is_loopback_url,
)
from feedsift.rendering.provider import layout_of


def test_loopback_hosts() -> None:
    for url in ("http://127.0.0.1:8000/x", "http://[::1]/", "http://localhost/", "ws://a.localhost/"):
        assert is_loopback_url(url), url
    for url in ("http://192.0.2.1/", "https://example.com/", "http://127.0.0.1.example/"):
        assert not is_loopback_url(url), url


def test_network_rule() -> None:
    doc = "http://site.test/post#top"
    assert decide("http://site.test/post", doc, True, None, False) is Verdict.DOCUMENT
    # the same URL fetched by a script is not the document
    assert decide("http://site.test/post", doc, False, None, False) is Verdict.BLOCK
    assert decide("http://127.0.0.1:9/a.css", doc, False, None, True) is Verdict.NETWORK
    assert decide("http://127.0.0.1:9/a.css", doc, False, None, False) is Verdict.BLOCK
    assert decide("http://192.0.2.1/a.png", doc, False, None, True) is Verdict.BLOCK
    assert decide("file:///etc/passwd", doc, False, None, True) is Verdict.BLOCK
    from feedsift.rendering.network import Resource

    found = Resource(b"p{}", "text/css")
    assert decide("https://example.com/x.css", doc, False, found, False) is Verdict.RESOURCE


def test_browser_url_escapes_like_a_browser() -> None:
    assert browser_url("HTTPS://Alignof.GitHub.io/blog/Post/") == (
        "https://alignof.github.io/blog/Post/"
    )  # Chromium lower-cases scheme and host: else the navigation is not the document
    assert browser_url("http://blog.test") == "http://blog.test/"
    assert browser_url("http://blog.test/2019/09/05/搭建/?q=é#top") == (
        "http://blog.test/2019/09/05/%E6%90%AD%E5%BB%BA/?q=%C3%A9#top"
    )
    assert browser_url("http://bücher.test:8080/a%20b") == "http://xn--bcher-kva.test:8080/a%20b"
    escaped = browser_url("http://blog.test/搭建/")
    assert decide(escaped, "http://blog.test/搭建/", True, None, False) is Verdict.DOCUMENT


def test_directory_resources(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text("p{color:red}")
    (tmp_path / "index.html").write_text("<p>home</p>")
    (tmp_path.parent / "secret.txt").write_text("no")
    anywhere = DirectoryResources(tmp_path)
    found = anywhere.resolve("https://blog.test/css/site.css?v=3")
    assert found is not None and found.body == b"p{color:red}"
    assert found.content_type == "text/css"
    assert anywhere.resolve("https://blog.test/") is not None  # index.html
    assert anywhere.resolve("https://blog.test/css/missing.css") is None
    assert anywhere.resolve("https://blog.test/../secret.txt") is None
    assert anywhere.resolve("https://blog.test/%2e%2e/secret.txt") is None
    own = DirectoryResources(tmp_path, hosts=frozenset({"blog.test"}))
    assert own.resolve("https://cdn.test/css/site.css") is None
    assert own.resolve("https://blog.test/css/site.css") is not None


def test_contrast_ratio_is_wcag() -> None:
    assert contrast_ratio((0, 0, 0, 1), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((255, 255, 255, 1), (255, 255, 255)) == pytest.approx(1.0)
    assert contrast_ratio((119, 119, 119, 1), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio((0, 0, 0, 0), (255, 255, 255)) == pytest.approx(1.0)  # transparent


def test_faded_blocks_are_shown_only_when_they_are_most_of_the_page() -> None:
    def row(visible: float) -> tuple[float, ...]:
        return (0.0,) * 6 + (visible,) + (0.0,) * 10

    rows = [row(1.0), row(2.0), row(0.0)]
    assert [r[6] for r in unfaded(rows, [10, 80, 10])] == [1.0, 1.0, 0.0]
    assert [r[6] for r in unfaded(rows, [60, 30, 10])] == [1.0, 0.0, 0.0]
    assert MAX_FADED_SHARE == 0.5 and [r[6] for r in unfaded(rows, [0, 0, 0])] == [1, 0, 0]


def test_main_column_is_the_densest_band() -> None:
    # article 0-880 px with most text, sidebar 950-1270, full-width footer, hidden block
    x = [0, 0, 950, 0, 0]
    width = [880, 880, 320, 1280, 880]
    chars = [3000, 1000, 600, 300, 5000]
    visible = [True, True, True, True, False]
    found = main_column(x, width, chars, visible)
    assert found.tolist() == [True, True, False, False, False]
    assert not main_column([], [], [], []).any()


def test_marks_go_on_a_copy_and_follow_the_source() -> None:
    html = ("<!DOCTYPE html><html><head><style>p{color:red}</style></head><body>"
            "<div>intro<p>one</p>tail</div><p style='display:none'>gone</p>"
            "<p>a<br>b</p></body></html>")  # fmt: skip
    page = parse_page(html)
    before = [dict(b.element.attrib) for b in page.view.blocks]
    marked = marked_source(page.view, page.decoded.text)
    assert [dict(b.element.attrib) for b in page.view.blocks] == before
    assert "<style>p{color:red}</style>" in marked and marked.startswith("<!DOCTYPE html>")
    assert f'<div {MARK_ATTR}="0 2">' in marked and f'<p {MARK_ATTR}="1">' in marked
    assert f'<p {MARK_ATTR}="3 4">' in marked
    own = marked_tree(page.view)
    assert "<style>" not in own and f'{MARK_ATTR}="3 4"' in own
    with pytest.raises(RenderError, match="blocks"):
        marked_source(page.view, "<p>another page</p>")


def test_layout_of_hides_and_scales() -> None:
    from feedsift.rendering.measure import BlockMeasure, PageMeasure

    shown = BlockMeasure(128, 400, 640, 40, 20, True, True, 21.0, True, "owner")
    hidden = BlockMeasure(128, 800, 640, 40, 16, False, False, None, False, "missing")
    found = layout_of(PageMeasure((shown, hidden), 1280, 1600, 1, 1, (), 1, None), (1280, 800))
    assert found.x.tolist() == [0.1, 0.1] and found.y.tolist() == [0.5, 1.0]
    assert found.width.tolist() == [0.5, 0.0] and found.height.tolist() == [0.05, 0.0]
    assert found.visible is not None and found.visible.tolist() == [True, False]
    assert found.contrast is not None and np.isnan(found.contrast[1])
    assert found.bold.tolist() == [True, False]


def test_missing_chromium_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHROMIUM_ENV, "/nonexistent/chromium")
    with pytest.raises(RenderError, match="not an executable"):
        chromium_path()
    monkeypatch.delenv(CHROMIUM_ENV)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RenderError, match="no Chromium found"):
        chromium_path()


def test_launch_args_carry_one_disable_features_switch() -> None:
    # Chromium reads only the last --disable-features: Playwright's list, ours and the
    # caller's must all be in the one switch, and it must come last
    options = RenderOptions(allow_loopback=True, extra_args=("--x", "--disable-features=Foo,Bar"))
    args = launch_args(options, "--mark=1")
    switches = [a for a in args if a.startswith("--disable-features=")]
    assert switches == [args[-1]]
    off = args[-1].split("=", 1)[1].split(",")
    assert {"HttpsUpgrades", "LocalNetworkAccessChecks", "Foo", "Bar"} <= set(off)
    assert set(MEMORY_FEATURES_OFF) <= set(off) and len(off) == len(set(off))
    assert "--x" in args and "--mark=1" in args
    plain = launch_args(RenderOptions(), "--mark=1")[-1]
    assert "LocalNetworkAccessChecks" not in plain and "Foo" not in plain

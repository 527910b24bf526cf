"""The layout protocol's ``page`` argument and BrowserLayout's fallback, without a browser
(fake renderers stand in for Chromium; tests/test_rendering.py uses a real one)."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest

from feedsift.api import extract
from feedsift.errors import RenderError
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.extractors.pipeline import analyse_page
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout, LayoutProvider, StaticLayout
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.rendering import browser_layout
from feedsift.rendering.browser import RenderedPage, Renderer, RenderOptions
from feedsift.rendering.browser_layout import BrowserLayout, RenderFallback
from feedsift.rendering.measure import PageMeasure
from feedsift.rendering.network import ResourceResolver

HTML = """<!DOCTYPE html><html><head><title>A post</title>
<style>.side { display: none }</style></head><body>
<h1>A post</h1><div class="side"><p>Sidebar</p></div>
<p>The first paragraph of the post, with enough words to be the body of it.</p>
<p>The second paragraph of the post, again with words enough to count as text.</p>
</body></html>"""
URL = "http://blog.test/post/"


class _Recording:
    """A provider that remembers the pages it was given and answers statically."""

    def __init__(self) -> None:
        self.pages: list[ParsedPage | None] = []

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        self.pages.append(page)
        return StaticLayout().layout(view)


class _StuckRenderer:
    """Every page times out, as a renderer does with a page that never loads."""

    options = RenderOptions(page_timeout_ms=5)

    def __init__(self) -> None:
        self.calls = 0

    def render(self, html: str, script: str, arg: object = None, url: str | None = None,
               resources: ResourceResolver | None = None) -> RenderedPage:  # fmt: skip
        self.calls += 1
        raise RenderError(f"{url}: not rendered within 5 ms")


class _FlatRenderer:
    """Lays every block out as a 100 px line at the top left, the document it was given
    and its URL kept."""

    options = RenderOptions()

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []

    def render(self, html: str, script: str, arg: object = None, url: str | None = None,
               resources: ResourceResolver | None = None) -> RenderedPage:  # fmt: skip
        self.seen.append((html, url))
        texts = cast(dict[str, list[str]], arg)["texts"]
        row = [0.0, 10.0, 100.0, 20.0, 16.0, 0, 1, 0, 0, 0, 1, 255, 255, 255, 0, 0.0, 100.0]
        value = {"rows": [row] * len(texts), "width": 1280, "height": 800, "ms": 1.0}
        return RenderedPage(url or "", value, (), 1, 12.5, 300.0)


def _page() -> ParsedPage:
    return parse_page(HTML, URL)


def test_static_layout_ignores_the_page() -> None:
    page = _page()
    with_page = StaticLayout().layout(page.view, page)
    without = StaticLayout().layout(page.view)
    assert np.array_equal(with_page.y, without.y) and np.array_equal(with_page.x, without.x)


def test_the_pipeline_passes_the_page_to_its_provider() -> None:
    page, recording = _page(), _Recording()
    provider: LayoutProvider = recording
    analyse_page(page, provider)
    assert recording.pages == [page]


def test_extract_takes_a_layout_and_the_default_is_unchanged() -> None:
    recording = _Recording()
    with_layout = extract(HTML, URL, layout=recording)
    assert len(recording.pages) == 1 and recording.pages[0] is not None
    assert recording.pages[0].url == URL
    assert with_layout.text == extract(HTML, URL).text  # the same layout, the same article


def test_with_layout_shares_the_models() -> None:
    base = LearnedPageExtractor.from_file()
    recording = _Recording()
    twin = base.with_layout(recording)
    assert twin is not base and twin.layout is recording and base.layout is None
    assert twin.bundle is base.bundle and twin.roles is base.roles
    assert base.with_layout(None) is base


def test_a_layout_needs_the_page_level_extractor() -> None:
    class Other:
        name = "other"

        def extract(self, page: ParsedPage, options: object = None) -> object:
            raise AssertionError("not called")

    with pytest.raises(TypeError, match="page-level extractor"):
        extract(HTML, URL, extractor=Other(), layout=_Recording())  # type: ignore[arg-type]


def test_a_render_that_times_out_falls_back_to_the_static_layout() -> None:
    stuck = _StuckRenderer()
    seen: list[RenderFallback] = []
    provider = BrowserLayout(cast(Renderer, stuck), on_fallback=seen.append)
    page = _page()
    found = provider.layout(page.view, page)
    static = StaticLayout().layout(page.view)
    assert stuck.calls == 1
    assert np.array_equal(found.y, static.y) and found.visible is None
    assert seen == [RenderFallback(URL, f"{URL}: not rendered within 5 ms")]
    tally = provider.tally()
    assert (tally.rendered, tally.fallbacks, tally.reasons) == (0, 1, tuple(seen))
    article = extract(HTML, URL, layout=provider)
    assert article.text == extract(HTML, URL).text
    assert provider.tally().fallbacks == 2


def test_fallback_reasons_are_kept_up_to_a_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_layout, "MAX_KEPT_FALLBACKS", 2)
    provider = BrowserLayout(cast(Renderer, _StuckRenderer()))
    page = _page()
    for _ in range(3):
        provider.layout(page.view, page)
    tally = provider.tally()
    assert tally.fallbacks == 3 and len(tally.reasons) == 2


def test_a_rendered_page_is_measured_from_its_own_source() -> None:
    flat = _FlatRenderer()
    measured: list[PageMeasure] = []
    provider = BrowserLayout(cast(Renderer, flat), on_measure=measured.append)
    page = _page()
    found = provider.layout(page.view, page)
    html, url = flat.seen[0]
    assert url == URL and ".side { display: none }" in html  # the source, <style> kept
    assert found.visible is not None and found.visible.all()
    assert found.width.tolist() == [100 / 1280] * len(page.view.blocks)
    assert [m.elapsed_ms for m in measured] == [12.5] and measured[0].memory_mb == 300.0
    assert provider.tally().rendered == 1 and provider.tally().fallbacks == 0
    provider.layout(page.view)  # no page: the view's own tree, no document URL
    assert flat.seen[1][1] is None and provider.tally().rendered == 2

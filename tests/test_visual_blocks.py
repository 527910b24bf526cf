"""Visual segments from a page rendered in a real Chromium, and the post's visual end.

Skipped when Playwright cannot be imported or no Chromium is found, as
tests/test_rendering.py is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed")

from browser_support import require_browser
from feedsift.api import bundled_extractor
from feedsift.extractors.explain import explain_page
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.provider import RenderedLayout
from feedsift.rendering.segments import visual_segments

require_browser()

#: One cue of each kind, and two look-alikes that must not cut: a link underlined by a
#: border and a bordered ``<code>`` inside a sentence.
CUES = """<!DOCTYPE html><html><head><style>
body { font: 16px/1.5 serif; margin: 0; }
main { width: 640px; margin: 20px auto; }
p { margin: 0 0 12px; }
a.line { border-bottom: 1px solid #36c; }
code { border: 1px solid #ccc; }
.ruled { border-top: 2px solid #888; }
.box { background: #e8eef4; padding: 12px; }
.far { margin-top: 160px; }
.faint { border-top: 1px solid transparent; }
</style></head><body><main>
<p>First paragraph of the page, with <a class="line" href="#">an underlined link</a>.</p>
<p>Second paragraph, with <code>some_code()</code> in its sentence.</p>
<hr>
<p>Third paragraph, after a horizontal rule.</p>
<div class="ruled"><p>Fourth paragraph, under a bordered box's top edge.</p></div>
<div class="faint"><p>Fifth paragraph, under a transparent border.</p></div>
<div class="box"><p>Sixth paragraph, on a grey background.</p>
<p>Seventh paragraph, on the same grey.</p></div>
<p>Eighth paragraph, back on white.</p>
<p class="far">Ninth paragraph, far below the eighth.</p>
</main></body></html>"""


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    with Renderer(RenderOptions(page_timeout_ms=5000)) as found:
        yield found


def test_segments_of_a_rendered_page(renderer: Renderer) -> None:
    page = parse_page(CUES, url="http://cues.test/page")
    measured = RenderedLayout.for_page(renderer, page).measure(page.view)
    texts = [b.text.split(",")[0] for b in page.view.blocks]
    cuts = [(texts[s.start], s.cut) for s in visual_segments(measured.blocks)]
    assert cuts == [
        ("First paragraph of the page", "first"),
        ("Third paragraph", "separator"),
        ("Fourth paragraph", "separator"),
        ("Sixth paragraph", "background"),
        ("Eighth paragraph", "background"),
        ("Ninth paragraph", "gap"),
    ]
    grey = visual_segments(measured.blocks)[3]
    assert grey.background == (232.0, 238.0, 244.0) and grey.shown == 2
    assert measured.separator_ms >= 0.0 and measured.script_ms >= measured.separator_ms


#: A post, then in a box of its own (another background, far below) a list of other posts
#: whose excerpts read like prose, and no post-end phrase anywhere.
RELATED = Path(__file__).parent / "fixtures" / "render" / "related-post.html"
#: The related list's excerpts, which read like prose (the block classifier keeps some).
EXCERPTS = ("How I built a cold frame", "A long look at the tools", "Three bins, two years")


def _post(html: str | None = None) -> ParsedPage:
    return parse_page(html or RELATED.read_text(encoding="utf-8"), url="http://garden.test/shed/")


def test_the_related_box_after_the_post_leaves_the_body(renderer: Renderer) -> None:
    page = _post()
    rendered = bundled_extractor().with_layout(RenderedLayout.for_page(renderer, page))
    off = rendered.with_drop_after_visual_end(False).extract(page).text
    on_extractor = rendered.with_drop_after_visual_end(True)
    on = on_extractor.extract(page).text
    kept = tuple(excerpt for excerpt in EXCERPTS if excerpt in off)
    assert kept  # the classifier keeps some of them: the visual end has work to do
    assert not any(excerpt in on for excerpt in EXCERPTS)
    assert "In the end the whole job cost" in on and "Last spring the old shed" in on
    for block in explain_page(on_extractor, page).blocks:
        if block.text.startswith(kept):
            assert block.stage == "visual end" and not block.kept
            assert "after the post's visual end" in block.reason


def test_the_static_layout_and_a_post_end_phrase_leave_the_rule_out(renderer: Renderer) -> None:
    page = _post()
    base = bundled_extractor()
    assert base.with_drop_after_visual_end(True).extract(page) == base.extract(page)
    decision = base.with_drop_after_visual_end(True).decide(page)
    assert decision.trace is not None and decision.trace.visual_end is None
    marked = _post(RELATED.read_text(encoding="utf-8").replace(
        "</article>", "<p>Leave a comment</p></article>"))  # fmt: skip
    rendered = base.with_layout(RenderedLayout.for_page(renderer, marked))
    decision = rendered.with_drop_after_visual_end(True).decide(marked)
    assert decision.trace is not None and decision.trace.visual_end is None

"""The renderer with a real Chromium: layout, the network rule, time and memory limits.

Skipped when Playwright cannot be imported or no Chromium is found (``FEEDSIFT_CHROMIUM``
or ``chromium`` on the ``PATH``). One browser serves the whole module.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api", reason="playwright is not installed")

from browser_support import require_browser
from feedsift.errors import RenderError
from feedsift.parsing.layout import Layout, StaticLayout
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.measure import PageMeasure
from feedsift.rendering.memory import command_line, tree_pids
from feedsift.rendering.network import Resource, ResourceResolver
from feedsift.rendering.provider import RenderedLayout

require_browser()

#: Page time limit of the module's renderer (ms): the test pages take well under 1 s.
TIMEOUT_MS = 2500
EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "feedsift" / "examples"

STYLED = """<!DOCTYPE html><html><head><title>t</title><style>
.side { float: right; width: 25%; }
.main { margin-right: 30%; }
h1.small { font-size: 12px; }
.hidden { display: none; }
.ghost { visibility: hidden; }
.pale { color: #777; }
</style></head><body>
<h1 class="small">A heading styled small</h1>
<div class="side"><p>Sidebar link one</p><p>Sidebar link two</p></div>
<div class="main">
<p>The article's first paragraph, long enough to be most of the text on this page; it runs
on over several lines so that the main column is unmistakably here and nowhere else.</p>
<p class="pale">Second paragraph in grey<br>and its second line after a break</p>
<p class="hidden">Hidden by a class</p>
<p class="ghost">Hidden by visibility</p>
<p>The last paragraph of the article with more words, more words and a few more words.</p>
</div></body></html>"""


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    with Renderer(RenderOptions(page_timeout_ms=TIMEOUT_MS, allow_loopback=True)) as found:
        yield found


@pytest.fixture(scope="module")
def css_server() -> Iterator[str]:
    """A loopback server with one stylesheet, ``/big.css``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b".loop { font-size: 40px; }"
            self.send_response(200 if self.path == "/big.css" else 404)
            self.send_header("Content-Type", "text/css")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _by_text(
    page_html: str, renderer: Renderer, resources: ResourceResolver | None = None
) -> tuple[ParsedPage, PageMeasure, Layout]:
    page = parse_page(page_html, url="http://site.test/post")
    provider = RenderedLayout.for_page(renderer, page, resources)
    measured = provider.measure(page.view)
    layout = provider.layout(page.view)
    return page, measured, layout


def test_styled_page(renderer: Renderer) -> None:
    page, measured, layout = _by_text(STYLED, renderer)
    texts = [b.text for b in page.view.blocks]
    side = [i for i, t in enumerate(texts) if t.startswith("Sidebar")]
    article = [i for i, t in enumerate(texts) if t.startswith("The ")]
    hidden = [i for i, t in enumerate(texts) if t.startswith("Hidden")]
    assert len(side) == 2 and len(article) == 2 and len(hidden) == 2, texts
    for i in side:
        assert layout.x[i] > 0.6
        assert layout.width[i] < min(layout.width[j] for j in article)
    assert layout.visible is not None and layout.main_column is not None
    for i in hidden:
        assert not layout.visible[i] and layout.width[i] == 0 and layout.height[i] == 0
    heading = texts.index("A heading styled small")
    assert layout.font_size[heading] == 12.0 and layout.bold[heading]
    assert all(layout.main_column[i] for i in article)
    assert not any(layout.main_column[i] for i in side + hidden)
    grey = texts.index("Second paragraph in grey")
    after = texts.index("and its second line after a break")
    assert measured.blocks[grey].box == measured.blocks[after].box == "text"
    assert layout.y[after] > layout.y[grey]
    assert measured.blocks[grey].contrast == pytest.approx(4.48, abs=0.01)
    assert measured.blocks[article[0]].contrast == pytest.approx(21.0)
    assert measured.blocks[article[0]].box == "owner"


SETTLED = """<!DOCTYPE html><html><head><style>
@keyframes appear { from { opacity: 0; } to { opacity: 1; } }
.fade { animation: appear 2s ease-in; }
.forwards { opacity: 0; animation: appear 2s 0.5s forwards; }
.slow { transition: opacity 3s; }
.drop { opacity: 0; }
</style></head><body>
<article class="fade"><p>A fade-in article measured on its first frame was hidden before.</p>
<p class="forwards">Starts at opacity zero and ends at one, after a delay, kept forwards.</p>
<p class="slow" id="t">Fades in by a transition that a script starts at load.</p>
<p>The article's last paragraph with enough words to be most of the page's text here.</p>
</article><p class="drop">A small menu kept at opacity zero</p>
<script>addEventListener('load', () => { const t = document.getElementById('t');
t.style.opacity = 0; t.offsetWidth; t.style.opacity = 1; });</script>
</body></html>"""


def test_animations_are_finished_before_measuring(renderer: Renderer) -> None:
    page, _, layout = _by_text(SETTLED, renderer)
    texts = [b.text for b in page.view.blocks]
    assert layout.visible is not None
    shown = {t[:12]: bool(v) for t, v in zip(texts, layout.visible, strict=True)}
    assert shown == {"A fade-in ar": True, "Starts at op": True, "Fades in by ": True,
                     "The article'": True, "A small menu": False}  # fmt: skip


FADED = """<!DOCTYPE html><html><head><style>
.motion .post { opacity: 0; }
.hidden { display: none; }
</style></head><body class="motion"><p>Site name</p>
<div class="post"><p>The whole post waits at opacity zero for a script from a CDN that
was blocked, so without the rule nothing of it would count as shown at all.</p>
<p class="hidden">Still hidden by display none, faded or not.</p></div>
<div style="height: 100px; overflow-x: hidden; overflow-y: auto">
<p style="margin-top: 900px">Below the fold of a scrolling box, reached by scrolling.</p>
</div></body></html>"""


def test_a_page_left_faded_by_a_blocked_script_is_shown(renderer: Renderer) -> None:
    page, _, layout = _by_text(FADED, renderer)
    texts = [b.text[:10] for b in page.view.blocks]
    assert layout.visible is not None
    assert dict(zip(texts, layout.visible.tolist(), strict=True)) == {
        "Site name": True, "The whole ": True, "Still hidd": False, "Below the ": True,
    }  # fmt: skip


def test_no_request_leaves_loopback(renderer: Renderer, css_server: str) -> None:
    html = f"""<!DOCTYPE html><html><head>
<link rel="stylesheet" href="https://example.com/x.css">
<link rel="stylesheet" href="{css_server}/big.css">
<link rel="stylesheet" href="/own.css">
</head><body><p class="loop">Styled by the loopback server</p>
<p class="own">Styled by the resolver</p><p>Plain</p>
<img src="http://192.0.2.1/a.png"><iframe src="http://example.org/"></iframe>
</body></html>"""

    class Own:
        def resolve(self, url: str) -> Resource | None:
            if url == "http://site.test/own.css":
                return Resource(b".own { font-size: 30px; }", "text/css")
            return None

    _, measured, layout = _by_text(html, renderer, Own())
    assert set(measured.blocked) >= {
        "https://example.com/x.css", "http://192.0.2.1/a.png", "http://example.org/",
    }  # fmt: skip
    assert not any(url.startswith(css_server) for url in measured.blocked)
    assert layout.font_size.tolist() == [40.0, 30.0, 16.0]


def test_script_requests_are_blocked(renderer: Renderer) -> None:
    html = """<html><body><p>x</p><script>
window.tried = Promise.all([
  fetch('http://203.0.113.9/').then(() => 'reached', () => 'failed'),
  new Promise((done) => { const ws = new WebSocket('ws://198.51.100.7/');
                          ws.onerror = ws.onclose = () => done('closed'); }),
]);
</script></body></html>"""
    found = renderer.render(html, "() => window.tried", url="http://site.test/")
    assert found.value == ["failed", "closed"]
    assert "http://203.0.113.9/" in found.blocked
    assert any(url.startswith("ws://198.51.100.7") for url in found.blocked)


@pytest.mark.parametrize(
    "script", ["while (true) {}", "setTimeout(() => { while (true) {} }, 0)"],
    ids=["before-load", "after-load"],
)  # fmt: skip
def test_a_page_that_never_ends_times_out(renderer: Renderer, script: str) -> None:
    html = f"<html><body><p>stuck</p><script>{script}</script></body></html>"
    started = time.perf_counter()
    with pytest.raises(RenderError, match=f"not rendered within {TIMEOUT_MS} ms"):
        renderer.render(html, "() => document.title", url="http://stuck.test/")
    assert time.perf_counter() - started < TIMEOUT_MS / 1000 + 3
    again = renderer.render("<title>fine</title><p>x</p>", "() => document.title",
                            url="http://stuck.test/next")  # fmt: skip
    assert again.value == "fine"


def test_rendered_layout_matches_static_units(renderer: Renderer) -> None:
    html = ("<!DOCTYPE html><html><body><h1>Plain title</h1><p>A plain paragraph of text.</p>"
            "<h2>Sub</h2><p>More text.</p></body></html>")  # fmt: skip
    page = parse_page(html)
    rendered = RenderedLayout.for_page(renderer, page).layout(page.view)
    static = StaticLayout().layout(page.view)
    assert len(rendered) == len(static) == 4
    assert rendered.font_size.tolist() == static.font_size.tolist() == [32.0, 16.0, 24.0, 16.0]
    assert rendered.bold.tolist() == static.bold.tolist() == [True, False, True, False]
    assert list(rendered.y) == sorted(rendered.y) and 0 < rendered.y[0] < 0.1
    assert all(0 <= v <= 1 for v in (*rendered.x, *rendered.width))


def test_real_page(renderer: Renderer) -> None:
    page = parse_page((EXAMPLES / "blog-post.html").read_bytes(), url="http://blog.test/post")
    provider = RenderedLayout.for_page(renderer, page)
    measured = provider.measure(page.view)
    layout = provider.layout(page.view)
    assert len(layout) == len(measured.blocks) == len(page.view.blocks) > 5
    assert measured.missing == 0
    assert measured.document_height > 0 and measured.elapsed_ms > 0
    assert layout.main_column is not None and layout.main_column.any()
    # the view's own tree renders too (no source): same number of rows
    assert len(RenderedLayout(renderer).layout(page.view)) == len(page.view.blocks)


def test_memory_limit_restarts_the_browser() -> None:
    options = RenderOptions(memory_limit_mb=1, page_timeout_ms=TIMEOUT_MS, pool_size=1)
    with Renderer(options) as small:
        first = small.render("<p>a</p>", "() => 1")
        assert first.memory_mb is not None and first.memory_mb > 1
        assert small.restarts == 0
        assert small.render("<p>b</p>", "() => 2").value == 2
        assert small.restarts == 1
    with pytest.raises(RenderError, match="closed"):
        small.render("<p>c</p>", "() => 3")
    small.close()  # closing twice is fine


def test_a_context_is_closed_after_context_pages() -> None:
    options = RenderOptions(context_pages=2, page_timeout_ms=TIMEOUT_MS, pool_size=1)
    count = "() => { sessionStorage.n = (+sessionStorage.n || 0) + 1; return +sessionStorage.n; }"
    with Renderer(options) as worn:
        seen = [worn.render("<p>x</p>", count, url="http://site.test/a").value for _ in range(5)]
    assert seen == [1, 2, 1, 2, 1]  # a new context (and renderer process) every 2 pages


#: Page function counting the pages a context has rendered (its session storage).
COUNT_PAGES = "() => { sessionStorage.n = (+sessionStorage.n || 0) + 1; return +sessionStorage.n; }"


def _visits(options: RenderOptions, sites: str) -> list[int]:
    with Renderer(options) as renderer:
        return [renderer.render("<p>x</p>", COUNT_PAGES, url=f"http://{s}.test/").value
                for s in sites]  # fmt: skip


def test_an_idle_context_of_another_site_is_closed_after_idle_pages() -> None:
    # two sites taking turns keep their contexts; once the caller moves on to site c,
    # the contexts of a and b close one page after their last, so b starts afresh
    kept = RenderOptions(idle_pages=0, page_timeout_ms=TIMEOUT_MS, pool_size=2)
    assert _visits(kept, "ababccb") == [1, 1, 2, 2, 1, 2, 3]
    closed = RenderOptions(idle_pages=1, page_timeout_ms=TIMEOUT_MS, pool_size=2)
    assert _visits(closed, "ababccb") == [1, 1, 2, 2, 1, 2, 1]


def test_a_context_has_one_renderer_process(renderer: Renderer) -> None:
    # MEMORY_FEATURES_OFF: no omnibox-popup WebUI renderer, no spare renderer
    renderer.render("<p>x</p>", "() => 1", url="http://one.test/")
    pid = renderer.browser_pid
    assert pid is not None
    renderers = [c for c in map(command_line, tree_pids(pid)) if "--type=renderer" in c]
    assert renderers and not any("--top-chrome-webui" in c for c in renderers)

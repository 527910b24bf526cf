"""Static against rendered layout on real blogs served with their own stylesheets.

The harness of ``feedsift bench --render``: for every post (``pages/``) of every blog of
``../shared/sites/ssg`` (or any folder of that layout, see
:mod:`feedsift.evaluation.templates_bench`), the page-level extractor runs twice on the
same parsed page with the same model: once with the static layout estimate and once with
a :class:`~feedsift.rendering.browser_layout.BrowserLayout`, the page rendered at its own
URL with the blog's saved ``assets/`` answering its subresources
(:class:`~feedsift.rendering.network.DirectoryResources`, limited to the page's host and
the MANIFEST's ``absolute_self_hosts``; everything else, CDN stylesheets included, is
blocked). One Chromium serves every site.

Per page: body word-LCS F1 against the gold text and the lenient title match (as
``feedsift bench`` scores them) in both modes, and in rendered mode once more with the
blocks the page does not show dropped from the body and once with the blocks after the
post's visual end dropped (the same render), the wall time
of each extraction, the browser's own time for the page (load and measure), the blocks
it called hidden or put outside the main column, and the fallback reason when it could
not render. Over the run:
the browser's peak memory (anonymous RSS after every page; PSS, which costs about 200 ms a
read, every :data:`PSS_EVERY` pages and after each site), launch time and restarts.

Nothing here is tuned on these pages: the model is whatever bundle is given (the shipped
one by default, trained on static features).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from feedsift.api import bundled_extractor
from feedsift.errors import DatasetError, FeedsiftError
from feedsift.evaluation.datasets import marked_dirs, read_page_html
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.templates_bench import BlogSite, SitePage, find_sites
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Layout
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article
from feedsift.rendering.browser import Renderer, RenderOptions
from feedsift.rendering.browser_layout import BrowserLayout, RenderFallback
from feedsift.rendering.measure import PageMeasure
from feedsift.rendering.network import DirectoryResources
from feedsift.text.tokens import same_title_lenient

__all__ = [
    "ASSETS_DIR",
    "PSS_EVERY",
    "ModeResult",
    "PageRun",
    "RenderBenchOptions",
    "RenderBenchResult",
    "SiteRun",
    "posts_to_run",
    "run_render_bench",
    "site_resources",
]

#: A site's saved stylesheets, at their URL paths, and the file that describes them.
ASSETS_DIR = "assets"
MANIFEST = "MANIFEST.json"
#: The file that marks a site folder (its posts' gold).
GOLD_FILE = "gold.jsonl"
#: Rendered pages between two PSS reads of the browser (a read costs about 200 ms).
PSS_EVERY = 10


@dataclass(frozen=True, slots=True)
class RenderBenchOptions:
    """``limit``: posts per site; ``model``: a bundle file (default: the shipped one);
    ``render``: the renderer's options; ``progress``: called after each page."""

    limit: int | None = None
    model: Path | None = None
    render: RenderOptions = field(default_factory=RenderOptions)
    progress: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class ModeResult:
    """One extraction of one page: scores (None without gold) and wall time."""

    f1: float | None
    title: bool | None
    ms: float  #: the extraction, parsing excluded


@dataclass(frozen=True, slots=True)
class PageRun:
    """One post in both modes (``static`` and ``rendered`` None when it was unreadable)."""

    page_id: str
    static: ModeResult | None
    rendered: ModeResult | None
    render_ms: float | None = None  #: the browser's load and measure; None: not rendered
    blocks: int = 0
    hidden: int = 0  #: blocks the browser did not show
    off_column: int = 0  #: shown blocks outside the main column
    fallback: str | None = None  #: why the static estimate was used in rendered mode
    error: str | None = None  #: why the page could not be read or extracted
    #: rendered, with the blocks the page does not show dropped from the body (the same
    #: render: ``LearnedPageExtractor.drop_unshown``)
    unshown_out: ModeResult | None = None
    #: rendered, with the blocks after the post's visual end dropped from the body (the
    #: same render: ``LearnedPageExtractor.drop_after_visual_end``)
    visual_end: ModeResult | None = None


@dataclass(frozen=True, slots=True)
class SiteRun:
    """One blog: its stylesheets (saved, and external hence blocked) and its posts."""

    name: str
    css_files: int
    external_css: int
    pages: tuple[PageRun, ...]


@dataclass(frozen=True, slots=True)
class RenderBenchResult:
    """Every site, and the browser over the whole run."""

    sites: tuple[SiteRun, ...]
    launch_ms: float
    peak_pss_mb: float
    peak_anon_mb: float
    restarts: int
    seconds: float


def site_resources(folder: Path, pages: Sequence[SitePage]) -> DirectoryResources | None:
    """The site's ``assets/`` for its pages' hosts and MANIFEST ``absolute_self_hosts``
    (None when it saved no assets)."""
    assets = folder / ASSETS_DIR
    if not assets.is_dir():
        return None
    hosts = {urlsplit(p.url).hostname or "" for p in pages}
    named = _manifest(folder).get("absolute_self_hosts")
    hosts.update(str(h).lower() for h in (named if isinstance(named, list) else ()))
    return DirectoryResources(assets, frozenset(h for h in hosts if h))


def _manifest(folder: Path) -> dict[str, object]:
    path = folder / ASSETS_DIR / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: not JSON: {exc}") from exc
    return data if isinstance(data, dict) else {}


def _count(value: object) -> int:
    return len(value) if isinstance(value, list) else 0


class _Watch:
    """What the browser layout reported for the page being extracted, and memory peaks."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.measure: PageMeasure | None = None
        self.fallback: RenderFallback | None = None
        self.rendered = 0
        self.peak_pss = 0.0
        self.peak_anon = 0.0

    def measured(self, measure: PageMeasure) -> None:
        self.measure = measure
        self.rendered += 1
        self.peak_anon = max(self.peak_anon, measure.memory_mb or 0.0)
        if self.rendered % PSS_EVERY == 0:
            self.read_pss()

    def fell_back(self, fallback: RenderFallback) -> None:
        self.fallback = fallback

    def read_pss(self) -> None:
        self.peak_pss = max(self.peak_pss, self.renderer.memory_mb(proportional=True))

    def reset(self) -> None:
        self.measure, self.fallback = None, None


def _mode(extractor: LearnedPageExtractor, page: ParsedPage, gold: SitePage) -> ModeResult:
    started = time.perf_counter()
    article = extractor.extract(page)
    ms = (time.perf_counter() - started) * 1000
    return _scored(article, gold, ms)


def _scored(article: Article, page: SitePage, ms: float) -> ModeResult:
    gold = page.gold
    assert gold is not None  # only posts are run
    f1 = lcs_prf(article.text, gold.text).f1 if gold.text else None
    title = same_title_lenient(article.title, gold.title) if gold.title else None
    return ModeResult(f1, title, ms)


@dataclass(frozen=True, slots=True)
class _Extractors:
    static: LearnedPageExtractor
    rendered: LearnedPageExtractor
    unshown_out: LearnedPageExtractor  #: rendered, ``drop_unshown`` on
    visual_end: LearnedPageExtractor  #: rendered, ``drop_after_visual_end`` on


class _Remembered:
    """A layout provider that gives the same view's layout once: both rendered
    extractions of a page read one render."""

    def __init__(self, inner: BrowserLayout) -> None:
        self.inner = inner
        self._last: tuple[BlockView, Layout] | None = None

    def layout(self, view: BlockView, page: ParsedPage | None = None) -> Layout:
        if self._last is not None and self._last[0] is view:
            return self._last[1]
        found = self.inner.layout(view, page)
        self._last = (view, found)
        return found


def _page_run(page: SitePage, extractors: _Extractors, watch: _Watch) -> PageRun:
    watch.reset()
    try:
        parsed = parse_page(read_page_html(page.path), page.url)
        static = _mode(extractors.static, parsed, page)
        rendered = _mode(extractors.rendered, parsed, page)
        unshown_out = _mode(extractors.unshown_out, parsed, page)
        visual_end = _mode(extractors.visual_end, parsed, page)
    except (FeedsiftError, OSError) as exc:
        return PageRun(page.id, None, None, error=f"{type(exc).__name__}: {exc}")
    measure, fallback = watch.measure, watch.fallback
    if measure is None:
        return PageRun(page.id, static, rendered, fallback=fallback.reason if fallback else None,
                       unshown_out=unshown_out, visual_end=visual_end)  # fmt: skip
    hidden = sum(not b.visible for b in measure.blocks)
    off = sum(b.visible and not b.main_column for b in measure.blocks)
    return PageRun(page.id, static, rendered, measure.elapsed_ms, len(measure.blocks),
                   hidden, off, unshown_out=unshown_out, visual_end=visual_end)  # fmt: skip


def _site_run(
    site: BlogSite, folder: Path, base: LearnedPageExtractor, watch: _Watch,
    progress: Callable[[], None] | None,
) -> SiteRun:  # fmt: skip
    layout = BrowserLayout(watch.renderer, site_resources(folder, site.posts),
                           on_fallback=watch.fell_back, on_measure=watch.measured)  # fmt: skip
    remembered = _Remembered(layout)
    rendered = base.with_layout(remembered).with_drop_unshown(False)
    extractors = _Extractors(base.with_layout(None), rendered.with_drop_after_visual_end(False),
                             rendered.with_drop_unshown(True).with_drop_after_visual_end(False),
                             rendered.with_drop_after_visual_end(True))  # fmt: skip
    runs = []
    for page in site.posts:
        runs.append(_page_run(page, extractors, watch))
        if progress is not None:
            progress()
    watch.read_pss()
    manifest = _manifest(folder)
    return SiteRun(site.name, _count(manifest.get("css_files")),
                   _count(manifest.get("external")), tuple(runs))  # fmt: skip


def _extractor(model: Path | None) -> LearnedPageExtractor:
    return LearnedPageExtractor.from_file(model) if model else bundled_extractor()


def posts_to_run(root: Path, limit: int | None) -> list[tuple[BlogSite, Path]]:
    """Every site under ``root`` that has posts, with its folder (``limit`` posts each)."""
    pairs = zip(find_sites(root, limit), marked_dirs(root, GOLD_FILE, "site"), strict=True)
    return [(site, folder) for site, folder in pairs if site.posts]


def run_render_bench(root: Path, options: RenderBenchOptions) -> RenderBenchResult:
    """Both modes on every post of every site under ``root``; :class:`RenderError` when
    no browser starts, :class:`DatasetError` when there is no site."""
    sites = posts_to_run(root, options.limit)
    base = _extractor(options.model)
    started = time.perf_counter()
    with Renderer(options.render) as renderer:
        launched = time.perf_counter()
        watch = _Watch(renderer)
        runs = tuple(_site_run(site, folder, base, watch, options.progress)
                     for site, folder in sites)  # fmt: skip
        restarts = renderer.restarts
    return RenderBenchResult(
        runs, (launched - started) * 1000, watch.peak_pss, watch.peak_anon, restarts,
        time.perf_counter() - started,
    )  # fmt: skip

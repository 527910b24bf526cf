"""Site-level template methods measured on real blogs with their real feeds.

This is the harness of ``feedsift bench --templates``: it loads the blog sites of
``../shared/sites/ssg`` (or any folder of the same layout), lets every method learn a site
from its own feed and the pages the feed links, then scores the method on all the site's
posts (``pages/``) and non-post pages (``other/``).

Layout of one site folder::

    site.json            site_url: the site's root URL (page paths are below it)
    feed.xml             the site's real feed, unmodified (may be malformed)
    gold.jsonl           the posts: id, url, path, title, date, author, tags, text, in_feed
    pages/<id>.html.gz   those posts (plain <id>.html works too)
    other.jsonl          non-post pages: id, path, kind (home, tag, about ...)
    other/<id>.html.gz   those pages

A method is anything shaped like :class:`SiteMethod`; the harness takes *factories* (a
fresh method per site) so a site-level learner joins by appending its class to
:func:`default_factories`' list. Measures, per site and method and pooled over every page
of every site (micro-averaged):

* post detection: precision and recall of ``is_post`` with ``pages/`` as the positives
  and ``other/`` as the negatives (``-`` when the method cannot tell, ``is_post`` None);
* title: exact match after whitespace normalisation and casefolding;
* date: the same calendar day (see :func:`date_matches`);
* author, where the gold has one (see :func:`author_matches`);
* tags, where the gold has some: the mean Jaccard index of the casefolded tag sets (partial
  credit: themes often show the tags and categories together, gold keeps them apart);
* body: word-LCS F1, split into posts the feed links (``in_feed``: they include the at
  most :data:`MAX_FIT_ITEMS` pages a method learns from, so partly a training score) and
  posts it does not link (the generalisation the feed paper is about);
* CPU seconds of each method's ``fit`` and of its page calls (``time.process_time``).

A page that cannot be read or parsed, or on which a method raises a
:class:`~feedsift.errors.FeedsiftError` (a learner used unfitted raises
:class:`~feedsift.errors.NotFittedError`), counts as a miss: not a post, empty text.
"""

from __future__ import annotations

import importlib
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from datetime import time as day_start
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urljoin, urlsplit

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.api import bundled_extractor
from feedsift.errors import DatasetError, FeedsiftError
from feedsift.evaluation.datasets import find_page_file, marked_dirs, read_page_html
from feedsift.evaluation.listings import DEFAULT_SITES_DIR
from feedsift.evaluation.metrics import lcs_prf
from feedsift.evaluation.peers import PeerInput, TrafilaturaPeer, parse_peer_date
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article, BodyPart, PageKind, Provenance
from feedsift.sitelevel.combiner import FieldCombiner, cross_fit
from feedsift.templates.judge import PostJudge
from feedsift.templates.learner import FeedTemplate, fit_template

__all__ = [
    "DEFAULT_TEMPLATES_DIR",
    "MAX_FIT_ITEMS",
    "BlogSite",
    "ChosenMethod",
    "GoldPost",
    "MethodFactory",
    "MethodRun",
    "PageLevelMethod",
    "PageScore",
    "SiteMethod",
    "SitePage",
    "SiteRun",
    "TemplatesOptions",
    "TrafilaturaMethod",
    "author_matches",
    "date_matches",
    "default_factories",
    "find_sites",
    "fit_pages",
    "path_key",
    "run_site",
    "score_page",
    "tag_jaccard",
    "title_matches",
]

#: Where the blogs with their real feeds live relative to the working directory.
DEFAULT_TEMPLATES_DIR = DEFAULT_SITES_DIR
#: Feed items a method learns from: the feed paper's setting, and what Jekyll/Hexo feeds hold.
MAX_FIT_ITEMS = 20
#: The feed's file in a site folder and the name its URL gets below the site's root URL.
FEED_FILE = "feed.xml"
#: Kind given to the site's posts (``pages/``); ``other/`` pages keep other.jsonl's kind.
POST_KIND = "post"
#: Path endings that name the same page as the path without them (static hosts serve
#: ``/a/index.html`` as ``/a/`` and, on GitHub Pages, ``/a.html`` as ``/a``).
SAME_PAGE_SUFFIXES = ("/index.html", "/index.htm", ".html", ".htm")
#: Gold authors copied from a YAML front matter block keep its key (``name:   Jane``).
YAML_KEY = re.compile(r"^\s*name\s*:\s*", re.IGNORECASE)
#: Separators in gold author fields that name several people (``admin, 吳恩達``).
NAME_SEPARATORS = re.compile(r"\s*(?:,|;|\band\b|&|、)\s*")
WHITESPACE = re.compile(r"\s+")


# -- the protocol and the two adapters ----------------------------------------------------


class SiteMethod(Protocol):
    """A method that learns a site from its feed, then finds and extracts its posts."""

    name: str

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> object:
        """Learn from ``feed`` and the pages its items link, keyed by the item's link."""
        ...

    def is_post(self, page: ParsedPage) -> bool | None:
        """Whether ``page`` is one of the site's posts; None when the method cannot tell."""
        ...

    def extract(self, page: ParsedPage) -> Article:
        """The article of ``page``."""
        ...


#: Makes a fresh method for one site.
MethodFactory = Callable[[], SiteMethod]


class PageLevelMethod:
    """feedsift's page-level extractor: learns nothing; a post is what it calls an article."""

    name = "page"

    def __init__(self, extractor: LearnedPageExtractor | None = None) -> None:
        self.extractor = extractor or bundled_extractor()
        self._last: tuple[ParsedPage, Article] | None = None  # is_post then extract: once

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> PageLevelMethod:
        return self

    def is_post(self, page: ParsedPage) -> bool | None:
        return self.extract(page).kind is PageKind.ARTICLE

    def extract(self, page: ParsedPage) -> Article:
        if self._last is None or self._last[0] is not page:
            self._last = (page, self.extractor.extract(page))
        return self._last[1]


class TemplateMethod:
    """feedsift's feed-learned template (:class:`~feedsift.templates.FeedTemplate`): learns
    from the feed and its pages; a post is a page its key-path and counts accept, unless it
    is a listing or a site page that the feed does not list (what the crawl's harvest does,
    :class:`~feedsift.templates.judge.PostJudge`)."""

    name = "template"

    def __init__(self, extractor: LearnedPageExtractor | None = None) -> None:
        self.template = FeedTemplate()
        self.judge = PostJudge(self.template, extractor or bundled_extractor())
        self._listed: frozenset[str] = frozenset()

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> TemplateMethod:
        self.template.fit(feed.sample(), pages)
        self._listed = frozenset(path_key(e.url) for e in feed.entries if e.url)
        return self

    def is_post(self, page: ParsedPage) -> bool | None:
        listed = path_key(page.url or "") in self._listed
        return self.judge.is_post(page, listed=listed)

    def extract(self, page: ParsedPage) -> Article:
        return self.template.extract(page)


class ChosenMethod:
    """The per-field choice over the page level and the feed template (issue 17,
    :func:`~feedsift.sitelevel.combiner.cross_fit`): the template tells posts, and each field
    comes from the method the feed's own items confirm. Before a fit (a site whose feed
    links none of its pages) nothing was checked, so it is the page level, as the crawl
    is for a site without a feed."""

    name = "chosen"

    def __init__(self, extractor: LearnedPageExtractor | None = None) -> None:
        self.extractor = extractor or bundled_extractor()
        self.posts = TemplateMethod(self.extractor)
        self.page = PageLevelMethod(self.extractor)
        self.combiner: FieldCombiner | None = None

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> ChosenMethod:
        self.posts.fit(feed, pages)
        self.combiner = cross_fit(self.extractor, fit_template, feed.sample(), pages)
        return self

    def is_post(self, page: ParsedPage) -> bool | None:
        if self.combiner is None:
            return self.page.is_post(page)
        return self.posts.is_post(page)

    def extract(self, page: ParsedPage) -> Article:
        if self.combiner is None:
            return self.page.extract(page)
        return self.combiner.extract(page)


class TrafilaturaMethod:
    """The trafilatura peer: its text (comments off, as the peer runs it), then title,
    authors, date, and tags and categories together from its metadata. It cannot tell
    posts from other pages."""

    name = "trafilatura"

    def __init__(self) -> None:
        self.peer = TrafilaturaPeer()

    def fit(self, feed: ParsedFeed, pages: Mapping[str, ParsedPage]) -> TrafilaturaMethod:
        return self

    def is_post(self, page: ParsedPage) -> bool | None:
        return None

    def extract(self, page: ParsedPage) -> Article:
        html = page.decoded.text
        try:
            text = self.peer.run(PeerInput(html.encode("utf-8"), html, page.url)).text
            meta = importlib.import_module("trafilatura").extract_metadata(
                html, default_url=page.url)  # fmt: skip
        except Exception:  # a peer failing on a page scores 0 there, like an empty result
            return _trafilatura_article("", None)
        return _trafilatura_article(text, meta)


def _trafilatura_article(text: str, meta: Any) -> Article:
    """An article of trafilatura's text and metadata (``meta`` None: none found)."""
    body = tuple(BodyPart("paragraph", line) for line in text.split("\n") if line.strip())
    kind = PageKind.ARTICLE if body else PageKind.EMPTY
    provenance = Provenance("trafilatura", "", 1.0)
    if meta is None:
        return Article(body, None, provenance, kind)
    day = parse_peer_date(meta.date)
    authors = tuple(a.strip() for a in str(meta.author or "").split(";") if a.strip())
    tags = tuple(str(t) for t in [*(meta.tags or ()), *(meta.categories or ())] if t)
    published = datetime.combine(day, day_start()) if day else None
    return Article(body, meta.title or None, provenance, kind, authors=authors,
                   published=published, tags=tags)  # fmt: skip


def default_factories() -> list[MethodFactory]:
    """The methods measured by default: the feed template, the page level, the per-field
    choice over those two (``chosen``), and trafilatura when installed."""
    factories: list[MethodFactory] = [TemplateMethod, PageLevelMethod, ChosenMethod]
    if TrafilaturaPeer().available():
        factories.append(TrafilaturaMethod)
    return factories


# -- loading the sites ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoldPost:
    """What a post's Markdown source says (empty fields where it says nothing)."""

    title: str
    date: str
    authors: tuple[str, ...]
    tags: tuple[str, ...]
    text: str
    in_feed: bool


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site: a post (with gold) or a non-post page (``gold`` None)."""

    id: str
    kind: str
    url: str
    path: Path
    gold: GoldPost | None = None


@dataclass(frozen=True, slots=True)
class BlogSite:
    """A site folder: its root URL, its feed's file and its pages."""

    name: str
    base_url: str
    feed_path: Path | None
    posts: tuple[SitePage, ...]
    others: tuple[SitePage, ...]

    @property
    def feed_url(self) -> str:
        return urljoin(self.base_url, FEED_FILE)

    @property
    def pages(self) -> tuple[SitePage, ...]:
        return self.posts + self.others


def find_sites(root: Path, limit: int | None = None) -> list[BlogSite]:
    """Every site folder under ``root`` (or ``root`` itself), at most ``limit`` posts and
    ``limit`` other pages each; :class:`DatasetError` when there is none."""
    return [_site(folder, limit) for folder in marked_dirs(root, "gold.jsonl", "site")]


def _site(folder: Path, limit: int | None) -> BlogSite:
    base = _base_url(folder)
    posts = [p for row in _rows(folder / "gold.jsonl") if (p := _post(folder, row, base))]
    others = [p for row in _rows(folder / "other.jsonl") if (p := _other(folder, row, base))]
    feed = folder / FEED_FILE
    return BlogSite(folder.name, base, feed if feed.is_file() else None,
                    tuple(posts[:limit]), tuple(others[:limit]))  # fmt: skip


def _base_url(folder: Path) -> str:
    """site.json's site_url with a final slash; a made-up host when it is not absolute."""
    info = folder / "site.json"
    url = ""
    if info.is_file():
        try:
            url = str(json.loads(info.read_text(encoding="utf-8")).get("site_url") or "")
        except (json.JSONDecodeError, AttributeError) as exc:
            raise DatasetError(f"{info}: not a JSON object: {exc}") from exc
    if not url.startswith(("http://", "https://")):
        url = "http://" + folder.name.split("__")[-1].lower().replace("_", "-")
    return url if url.endswith("/") else url + "/"


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DatasetError(f"{path}:{number}: {exc.msg}") from exc


def _page_url(base: str, row: dict[str, Any]) -> str:
    """The gold URL when absolute; else the site path below the site's root URL (which
    may itself have a path, ``/blog/``)."""
    url = str(row.get("url") or "")
    if url.startswith(("http://", "https://")):
        return url
    path = str(row.get("path") or url or "")
    return base + path.lstrip("/")


def _post(folder: Path, row: dict[str, Any], base: str) -> SitePage | None:
    path = find_page_file(folder, str(row.get("id", "")))
    if path is None:
        return None
    gold = GoldPost(
        title=str(row.get("title") or ""),
        date=str(row.get("date") or ""),
        authors=_gold_authors(row.get("author")),
        tags=tuple(str(tag) for tag in row.get("tags") or ()),
        text=str(row.get("text") or ""),
        in_feed=bool(row.get("in_feed")),
    )
    return SitePage(str(row["id"]), POST_KIND, _page_url(base, row), path, gold)


def _other(folder: Path, row: dict[str, Any], base: str) -> SitePage | None:
    path = find_page_file(folder, str(row.get("id", "")), "other")
    if path is None:
        return None
    return SitePage(str(row["id"]), str(row.get("kind") or "unknown"), _page_url(base, row), path)


def _gold_authors(value: Any) -> tuple[str, ...]:
    """The names of a gold author field, without YAML keys left in it."""
    values = value if isinstance(value, list) else [value or ""]
    names = (YAML_KEY.sub("", str(v)).strip() for v in values)
    return tuple(part for name in names for part in NAME_SEPARATORS.split(name) if part)


# -- matching feed items to pages -------------------------------------------------------


def path_key(url: str) -> str:
    """A URL's path for matching: no scheme or host, percent-decoded, without a final
    slash or a same-page ending (:data:`SAME_PAGE_SUFFIXES`)."""
    path = unquote(urlsplit(url).path).rstrip("/")
    for suffix in SAME_PAGE_SUFFIXES:
        if path.endswith(suffix):
            path = path.removesuffix(suffix)
            break
    return path.rstrip("/")


def fit_pages(
    feed: ParsedFeed, posts: Mapping[str, ParsedPage], max_items: int = MAX_FIT_ITEMS
) -> dict[str, ParsedPage]:
    """The parsed pages the feed's items link (``posts`` keyed by :func:`path_key`), keyed
    by the item's link; the first ``max_items`` linked items in feed order (newest first
    in the feeds generators write)."""
    linked: dict[str, ParsedPage] = {}
    for entry in feed.entries:
        page = posts.get(path_key(entry.url)) if entry.url else None
        if entry.url and page is not None and entry.url not in linked:
            linked[entry.url] = page
            if len(linked) >= max_items:
                break
    return linked


# -- scoring one page -------------------------------------------------------------------


def _normal(text: str) -> str:
    return WHITESPACE.sub(" ", text).strip().casefold()


def title_matches(found: str | None, gold: str) -> bool:
    """Exact match after whitespace normalisation and casefolding."""
    return bool(found) and _normal(found or "") == _normal(gold)


def _gold_days(value: str) -> set[date]:
    """The gold date's own calendar day and, when it carries an offset, its UTC day."""
    try:
        days = {date.fromisoformat(value[:10])}
    except ValueError:
        return set()
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return days
    if moment.tzinfo is not None:
        days.add(moment.astimezone(UTC).date())
    return days


def date_matches(found: datetime | None, gold: str) -> bool:
    """The same calendar day: the found datetime's day in its own timezone or in UTC
    against the gold's day as written or in UTC. Both readings are accepted because a
    feed or a page may state the moment in UTC while the Markdown states it locally: a
    post written at 00:30 in Berlin is on the day before in UTC, and either is right."""
    if found is None:
        return False
    days = {found.date()}
    if found.tzinfo is not None:
        days.add(found.astimezone(UTC).date())
    return bool(days & _gold_days(gold))


def author_matches(found: Sequence[str], gold: Sequence[str]) -> bool:
    """Some found author equals or contains some gold name, ignoring case."""
    names = [_normal(name) for name in found]
    return any(_normal(g) in name for g in gold for name in names if name)


def tag_jaccard(found: Sequence[str], gold: Sequence[str]) -> float:
    """Jaccard index of the casefolded, whitespace-normalised tag sets."""
    a, b = {_normal(t) for t in found} - {""}, {_normal(t) for t in gold} - {""}
    return len(a & b) / len(a | b) if a | b else 1.0


@dataclass(frozen=True, slots=True)
class PageScore:
    """One method on one page; a field is None where the page has no gold for it."""

    page_id: str
    is_post_page: bool  #: the truth: a post of pages/, else a page of other/
    predicted: bool | None  #: None: the method could not tell (or the page was unreadable)
    in_feed: bool = False
    title: bool | None = None
    date: bool | None = None
    author: bool | None = None
    tags: float | None = None
    f1: float | None = None
    error: str | None = None


def _metadata_scores(article: Article | None, gold: GoldPost) -> dict[str, Any]:
    """Title, date, author and tags of ``article`` (None: nothing extracted) against gold."""
    return {
        "title": title_matches(article.title, gold.title) if article else False,
        "date": date_matches(article.published, gold.date) if article else False,
        "author": author_matches(article.authors, gold.authors) if article else False,
        "tags": tag_jaccard(article.tags, gold.tags) if article else 0.0,
    }


def _post_score(page: SitePage, predicted: bool | None, article: Article | None,
                error: str | None) -> PageScore:  # fmt: skip
    gold = page.gold
    assert gold is not None  # only posts are scored on their content
    scores = _metadata_scores(article, gold)
    return PageScore(
        page.id, True, predicted, gold.in_feed,
        title=scores["title"] if gold.title else None,
        date=scores["date"] if _gold_days(gold.date) else None,
        author=scores["author"] if gold.authors else None,
        tags=scores["tags"] if gold.tags else None,
        f1=_body_f1(article, gold.text),
        error=error,
    )  # fmt: skip


def _body_f1(article: Article | None, gold: str) -> float | None:
    """Word-LCS F1 of the body; None without gold text, 0 when nothing was extracted."""
    if not gold:
        return None
    return lcs_prf(article.text, gold).f1 if article is not None else 0.0


def score_page(method: SiteMethod, page: SitePage, parsed: ParsedPage | str) -> PageScore:
    """``method`` on one page (``parsed`` is the reason when the page could not be read)."""
    if isinstance(parsed, str):
        if page.gold is None:
            return PageScore(page.id, False, None, error=parsed)
        return _post_score(page, None, None, parsed)
    error, predicted, article = None, None, None
    try:
        predicted = method.is_post(parsed)
        article = method.extract(parsed) if page.gold is not None else None
    except FeedsiftError as exc:
        error = f"{type(exc).__name__}: {exc}"
    if page.gold is None:
        return PageScore(page.id, False, predicted, error=error)
    return _post_score(page, predicted, article, error)


# -- one site -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemplatesOptions:
    """``factories``: the methods (default :func:`default_factories`); ``max_items``: the
    feed items learned from; ``progress``: called after each page."""

    factories: tuple[MethodFactory, ...] = ()
    max_items: int = MAX_FIT_ITEMS
    progress: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class MethodRun:
    """One method on one site: its fit and its page scores."""

    method: str
    fitted: bool
    fit_cpu_seconds: float
    page_cpu_seconds: float
    pages: tuple[PageScore, ...]
    fit_error: str | None = None


@dataclass(frozen=True, slots=True)
class SiteRun:
    """Every method on one site; ``note`` says why the methods were not fitted."""

    site: str
    posts: int
    others: int
    feed_items: int
    fit_urls: tuple[str, ...]
    methods: tuple[MethodRun, ...]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class _Fit:
    """What one method learns from (or why it learns nothing)."""

    feed: ParsedFeed | None
    pages: dict[str, ParsedPage] = field(default_factory=dict)
    note: str | None = None


def _parse(page: SitePage) -> ParsedPage | str:
    try:
        return parse_page(read_page_html(page.path), page.url)
    except (FeedsiftError, OSError, EOFError) as exc:
        return f"{page.id}: {exc}"


def _prepare_fit(site: BlogSite, parsed: Mapping[SitePage, ParsedPage | str],
                 max_items: int) -> _Fit:  # fmt: skip
    if site.feed_path is None:
        return _Fit(None, note=f"no {FEED_FILE}")
    try:
        feed = parse_feed(site.feed_path.read_bytes(), site.feed_url)
    except FeedsiftError as exc:
        return _Fit(None, note=f"feed not parsed: {exc}")
    posts = {path_key(p.url): v for p, v in parsed.items()
             if p.gold is not None and not isinstance(v, str)}  # fmt: skip
    pages = fit_pages(feed, posts, max_items)
    note = None if pages else f"none of the {len(feed.entries)} feed items links a post"
    return _Fit(feed, pages, note)


def _fit(method: SiteMethod, fit: _Fit) -> tuple[bool, float, str | None]:
    """Fit ``method`` when there is something to learn from: (fitted, CPU seconds, error)."""
    if fit.feed is None or not fit.pages:
        return False, 0.0, None
    started = time.process_time()
    try:
        method.fit(fit.feed, fit.pages)
    except FeedsiftError as exc:
        return False, time.process_time() - started, f"{type(exc).__name__}: {exc}"
    return True, time.process_time() - started, None


def run_site(site: BlogSite, options: TemplatesOptions = TemplatesOptions()) -> SiteRun:
    """Every method learns ``site`` from its feed, then is scored on all its pages."""
    parsed = {page: _parse(page) for page in site.pages}
    fit = _prepare_fit(site, parsed, options.max_items)
    methods = [factory() for factory in options.factories or default_factories()]
    fits = [_fit(method, fit) for method in methods]
    scores: list[list[PageScore]] = [[] for _ in methods]
    spent = [0.0 for _ in methods]
    for page, result in parsed.items():
        for index, method in enumerate(methods):
            started = time.process_time()
            scores[index].append(score_page(method, page, result))
            spent[index] += time.process_time() - started
        if options.progress is not None:
            options.progress()
    runs = tuple(MethodRun(m.name, f[0], f[1], s, tuple(p), f[2])
                 for m, f, s, p in zip(methods, fits, spent, scores, strict=True))  # fmt: skip
    entries = len(fit.feed.entries) if fit.feed else 0
    return SiteRun(site.name, len(site.posts), len(site.others), entries,
                   tuple(fit.pages), runs, fit.note)  # fmt: skip

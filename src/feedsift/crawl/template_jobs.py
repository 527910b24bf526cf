"""The CPU work of feed templates, run in the extraction workers: learn, check, harvest.

Each job carries what it needs as bytes (pages, a saved template), so any worker can run it
and the event loop only fetches and stores. See :mod:`feedsift.crawl.templating` for when
the crawl asks for them.

The page level in these jobs (the listing veto, the combiner's) is the session's extractor,
given by :meth:`~feedsift.crawl.extraction.ArrivalExtraction.run_extracting`.
When asked (``TemplateOptions.combine``), learning also checks the template against the page
level on the feed's own items (:func:`~feedsift.sitelevel.combiner.cross_fit`), and the
harvest's posts take each field from the method those checks chose, not all from the
template.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from feedsift.acquisition.feeds import ParsedFeed
from feedsift.api import bundled_extractor
from feedsift.crawl.extraction import ExtractionJob, ExtractionOutcome
from feedsift.crawl.keptpages import KeptPages
from feedsift.crawl.links import canonical_link, page_links
from feedsift.dedup.fingerprint import content_hash_of_tokens, simhash_of_tokens
from feedsift.errors import FeedsiftError
from feedsift.extractors.base import PageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article
from feedsift.sitelevel.combiner import FieldCombiner, cross_fit
from feedsift.storage.articles import article_record
from feedsift.storage.documents import NewDocument
from feedsift.templates.judge import PostJudge, Verdict
from feedsift.templates.learner import FeedTemplate, fit_template
from feedsift.text.tokens import tokenize_lower

__all__ = [
    "FetchedPage",
    "HarvestJob",
    "HarvestOutcome",
    "LearnOutcome",
    "check_pages",
    "harvest_page",
    "learn_template",
    "recheck_fields",
]


@dataclass(frozen=True, slots=True)
class FetchedPage:
    """A page as fetched: the URL asked for (a feed item's link), where it ended, bytes."""

    link: str
    url: str
    body: bytes
    content_type: str | None

    @classmethod
    def stored(cls, document: NewDocument, link: str | None = None) -> FetchedPage:
        """A stored document as a fetched page (``link``: the address asked for, if not
        the document's request URL)."""
        return cls(link or document.request_url, document.response_url, document.body,
                   document.header("content-type"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class LearnOutcome:
    """A template learned from a feed (``state`` None: none could be, ``error`` says why)."""

    state: bytes | None
    key_path: str | None
    items: int
    error: str | None = None
    checks: bytes | None = None  #: the per-field checks (a FieldCombiner's state), if asked


@dataclass(frozen=True, slots=True)
class HarvestJob:
    """One page met while following a site's links, with the template to judge it."""

    page: FetchedPage
    template: bytes
    site: str
    stored: bool  #: the page is stored already: its links only are wanted
    checks: bytes | None = None  #: per-field checks: a post's fields as they chose


@dataclass(frozen=True, slots=True)
class HarvestOutcome:
    """What the page is, its links, and its article when it is a new post."""

    job: HarvestJob
    verdict: Verdict | None  #: None: a stored page (links only) or one not judged (error)
    links: tuple[str, ...]
    extraction: ExtractionOutcome | None
    error: str | None = None
    canonical: str | None = None  #: the page's ``<link rel="canonical">``, resolved


def _parse(page: FetchedPage, kept: KeptPages | None) -> ParsedPage:
    """The page parsed: the worker's copy parsed on arrival when it has it (``kept``)."""
    if kept is None:
        return parse_page(page.body, page.url, page.content_type)
    return kept.parsed(page.body, page.url, page.content_type)


def learn_template(
    feed: ParsedFeed,
    pages: tuple[FetchedPage, ...],
    combine: bool = False,
    *,
    extractor: PageExtractor | None = None,
    kept: KeptPages | None = None,
) -> LearnOutcome:
    """Fit a :class:`~feedsift.templates.FeedTemplate` on the feed and its items' pages
    (and, with ``combine``, check it per field against the page level on them:
    ``extractor``, the session's, else the bundled model); ``kept``: the worker's pages
    parsed on arrival, not parsed again."""
    parsed: dict[str, ParsedPage] = {}
    for page in pages:
        try:
            parsed[page.link] = _parse(page, kept)
        except FeedsiftError:
            continue  # an unreadable page teaches nothing; the others still do
    template = FeedTemplate().fit(feed.sample(), parsed)
    if not template.is_fitted:
        reason = "a comment feed" if template.comment_feed_ else (
            f"no key-path found in {len(parsed)} item pages")  # fmt: skip
        return LearnOutcome(None, None, template.items_learned_, reason)
    checks = None
    if combine:
        page_level = extractor or bundled_extractor()
        combiner = cross_fit(page_level, fit_template, feed.sample(), parsed)
        checks = combiner.to_bytes()
    return LearnOutcome(template.to_bytes(), str(template.key_path), template.items_learned_,
                        checks=checks)  # fmt: skip


def recheck_fields(
    checks: bytes,
    template: bytes,
    feed: ParsedFeed,
    pages: tuple[FetchedPage, ...],
    *,
    extractor: PageExtractor | None = None,
    kept: KeptPages | None = None,
) -> bytes:
    """The saved per-field ``checks`` of the saved ``template`` checked again on a poll's
    new item pages (the template learned none of them): the combiner's new state
    (``kept``: the worker's pages parsed on arrival)."""
    parsed: dict[str, ParsedPage] = {}
    for page in pages:
        try:
            parsed[page.link] = _parse(page, kept)
        except FeedsiftError:
            continue  # an unreadable page checks nothing
    learned = FeedTemplate.from_bytes(template)
    combiner = FieldCombiner.from_bytes(checks, extractor or bundled_extractor(), [learned])
    items = [item for item in feed.sample().items if item.url in parsed]
    return combiner.partial_fit(items, parsed).to_bytes()


def check_pages(template: bytes, pages: tuple[FetchedPage, ...]) -> tuple[bool, ...]:
    """For each page, whether the saved template takes it for a post (drift detection)."""
    learned = FeedTemplate.from_bytes(template)
    verdicts = []
    for page in pages:
        try:
            verdicts.append(learned.is_post(_parse(page, None)))
        except FeedsiftError:
            verdicts.append(False)
    return tuple(verdicts)


def harvest_page(
    job: HarvestJob, *, extractor: PageExtractor | None = None, kept: KeptPages | None = None
) -> HarvestOutcome:
    """Judge a page met through links: its links, and its article if it is a new post
    (``kept``: the worker's pages parsed on arrival; a stored feed item is one).

    The template judges it, and the page level (``extractor``, the session's, else the
    bundled model) vetoes listings (:class:`~feedsift.templates.judge.PostJudge`) and is
    the combiner's page level: no page found this way is a feed item.
    A page whose judging fails keeps its links (the walk goes on through it).
    """
    started = time.perf_counter()
    try:
        page = _parse(job.page, kept)
        links = page_links(page.root, job.page.url)
        canonical = canonical_link(page.root, job.page.url)
    except FeedsiftError as exc:
        return HarvestOutcome(job, None, (), None, str(exc))
    if job.stored:  # a feed item or a page met before: its links only are wanted
        return HarvestOutcome(job, None, links, None, canonical=canonical)
    try:
        template = FeedTemplate.from_bytes(job.template)
        page_level = extractor or bundled_extractor()
        verdict = PostJudge(template, page_level).verdict(page)
        article = _post_article(job, (page_level, template), page) if verdict == "post" else None
    except FeedsiftError as exc:
        return HarvestOutcome(job, None, links, None, str(exc), canonical)
    if article is None:
        return HarvestOutcome(job, verdict, links, None, canonical=canonical)
    return HarvestOutcome(job, verdict, links, _stored_post(job, article, started), None,
                          canonical)  # fmt: skip


def _post_article(
    job: HarvestJob, methods: tuple[PageExtractor, FeedTemplate], page: ParsedPage
) -> Article:
    """The harvested post's article: the template's, or per field the checked choice
    between the page level and the template (``methods``)."""
    page_level, template = methods
    if job.checks is None:
        return template.extract(page)
    return FieldCombiner.from_bytes(job.checks, page_level, [template]).extract_post(page)


def _stored_post(job: HarvestJob, article: Article, started: float) -> ExtractionOutcome:
    """The harvested post as the crawl stores articles, with its content fingerprints."""
    tokens = tokenize_lower(article.text)
    extraction_job = ExtractionJob(0, job.site, job.page.url, b"", job.page.content_type)
    return ExtractionOutcome(
        extraction_job, article, None, time.perf_counter() - started,
        content_hash_of_tokens(tokens), simhash_of_tokens(tokens), article_record(article),
    )  # fmt: skip

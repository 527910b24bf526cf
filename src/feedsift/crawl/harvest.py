"""The harvest: a site's own links followed to the posts its feed does not list.

A feed lists the newest 10-20 posts; the template learned from it
(:mod:`feedsift.templates`) tells posts from other pages. Once a feed's first template is
learned, the harvest walks the site breadth first from its home page and its sitemap (when
there is one): every page is fetched through the crawl's polite
:class:`~feedsift.acquisition.fetcher.Fetcher` (robots.txt, per-host delay), judged by the
template in a worker, and its same-site links queued (archive, tag, pagination and post
pages alike). A page judged a post is stored with its article (method ``template``); other
pages are only read for their links. Pages stored already (the feed's own posts) are read
from the store, not fetched again. The walk is bounded per site (:class:`HarvestOptions`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree

from feedsift.acquisition.fetcher import HTML_MEDIA_TYPES, FetchResult
from feedsift.crawl.extraction import ExtractionOutcome
from feedsift.crawl.services import CrawlServices
from feedsift.crawl.template_jobs import FetchedPage, HarvestJob, HarvestOutcome, harvest_page
from feedsift.dedup.urlkeys import url_key
from feedsift.errors import FetchError
from feedsift.parsing.xpath import select_strings
from feedsift.storage import StoredTemplate

__all__ = [
    "SITEMAP_PATH",
    "HarvestOptions",
    "Harvester",
    "PostSink",
    "frontier_key",
    "home_of",
]

#: Where a sitemap usually is (robots.txt may name others; this one is tried).
SITEMAP_PATH = "/sitemap.xml"
#: Media types a sitemap may have.
SITEMAP_KINDS = frozenset({"application/xml", "text/xml", "application/x-xml"})
#: Query parameters that never name a page (campaign and click tracking).
TRACKING_PREFIXES = ("utm_", "fbclid", "gclid", "mc_", "ref", "source")
_LOCS = etree.XPath("//*[local-name()='loc']/text()")
#: Verdicts of pages that the template takes for posts and a veto does not.
VETOED = frozenset({"listing", "site page"})

#: Stores a harvested post: the fetch and the worker's extraction of it; True when new.
PostSink = Callable[[FetchResult, ExtractionOutcome], bool]


@dataclass(frozen=True, slots=True)
class HarvestOptions:
    """How far a harvest goes on one site."""

    max_pages: int = 2_000  #: pages fetched per site and harvest (stored ones are free)
    max_depth: int = 50  #: links followed from the home page (pagination chains are long)
    sitemap: bool = True  #: also start from the site's sitemap.xml


class Harvester:
    """Follows one site's links from its home page, storing the posts the template finds."""

    def __init__(
        self,
        context: CrawlServices,
        sink: PostSink,
        options: HarvestOptions | None = None,
        checks: bytes | None = None,
    ) -> None:
        """``checks``: the site's per-field checks (a FieldCombiner's state), when the
        posts found are to take each field from the method they chose."""
        self.context, self.sink = context, sink
        self.options = options or HarvestOptions()
        self.checks = checks

    async def harvest(self, site: str, home: str, template: StoredTemplate) -> int:
        """Walk ``site`` from ``home``; return how many new posts were stored."""
        queue: deque[tuple[str, int]] = deque([(home, 0)])
        if self.options.sitemap:
            queue.extend((url, 1) for url in await self._sitemap(home))
        seen: set[str] = set()
        budget, found = self.options.max_pages, 0
        while queue and budget > 0 and not self.context.stopping():
            url, depth = queue.popleft()
            if frontier_key(url) in seen:
                continue
            seen.add(frontier_key(url))
            key = url_key(url, None, self.context.rules)
            outcome, fetched = await self._visit(site, url, key, template)
            budget -= fetched is not None
            if outcome is None:
                continue
            if outcome.canonical is not None and outcome.canonical != url:
                seen.add(frontier_key(outcome.canonical))
                canonical = url_key(outcome.canonical, None, self.context.rules)
                if fetched is not None and self.context.store.documents.id_of(canonical):
                    continue  # another address of a stored page: its links are known
            found += self._keep(outcome, fetched)
            if depth < self.options.max_depth:
                queue.extend((link, depth + 1) for link in outcome.links)
        return found

    async def _visit(
        self, site: str, url: str, key: str, template: StoredTemplate
    ) -> tuple[HarvestOutcome | None, FetchResult | None]:
        """The worker's judgement of the page: from the store when it is stored, else
        fetched (``None`` outcome when the fetch fails)."""
        stored = self._stored(key)
        fetched = None
        if stored is None:
            fetched = await self._fetch(url)
            if fetched is None:
                return None, None
            self.context.counts.harvest_pages += 1
            stored = self._stored(url_key(fetched.response_url, None, self.context.rules))
            page = stored or FetchedPage(url, fetched.response_url, fetched.body,
                                         fetched.content_type)  # fmt: skip
        else:
            page = stored
        job = HarvestJob(page, template.state, site, stored=page is stored, checks=self.checks)
        outcome = await self.context.extraction.run_extracting(site, harvest_page, job)
        return outcome, fetched

    def _stored(self, key: str) -> FetchedPage | None:
        document_id = self.context.store.documents.id_of(key)
        record = self.context.store.documents.get(document_id) if document_id else None
        if record is None:
            return None
        return FetchedPage.stored(record.document)

    async def _fetch(self, url: str) -> FetchResult | None:
        try:
            return await self.context.fetcher.fetch(url, kinds=HTML_MEDIA_TYPES)
        except FetchError as exc:
            self._tell("harvest", f"{url}: not followed: {exc}")
            return None

    def _keep(self, outcome: HarvestOutcome, fetched: FetchResult | None) -> bool:
        if outcome.error:
            self._tell("harvest", f"{outcome.job.page.url}: {outcome.error}")
        elif outcome.verdict in VETOED:
            self.context.counts.harvest_vetoed += 1
            self._tell("harvest", f"{outcome.job.page.url}: has the post layout but is a "
                                  f"{outcome.verdict}: not stored")  # fmt: skip
        if outcome.extraction is None or fetched is None:
            return False
        new = self.sink(fetched, outcome.extraction)
        self.context.counts.harvest_posts += new
        return new

    async def _sitemap(self, home: str) -> list[str]:
        """The page URLs of the site's sitemap (one level of sitemap index followed)."""
        locs = await self._locs(urljoin(home, SITEMAP_PATH))
        nested = [loc for loc in locs if urlsplit(loc).path.lower().endswith(".xml")]
        for index in nested[:10]:
            locs.extend(await self._locs(index))
        return [loc for loc in locs if loc not in nested]

    async def _locs(self, url: str) -> list[str]:
        try:
            result = await self.context.fetcher.fetch(url, kinds=SITEMAP_KINDS)
            root = etree.fromstring(result.body, etree.XMLParser(resolve_entities=False,
                                                                 no_network=True))  # fmt: skip
        except (FetchError, etree.XMLSyntaxError, ValueError):
            return []
        return [urljoin(url, loc.strip()) for loc in select_strings(_LOCS, root)]

    def _tell(self, event: str, detail: str) -> None:
        self.context.tell(event, detail)


def frontier_key(url: str) -> str:
    """How the walk tells addresses apart: the URL with its query sorted and tracking
    parameters left out. Not the URL key, which drops queries no rule keeps: listing pages
    paginated by query (``?page=2``) would all look like the first one."""
    parts = urlsplit(url)
    query = sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                   if not k.lower().startswith(TRACKING_PREFIXES))  # fmt: skip
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, urlencode(query), ""))


def home_of(url: str) -> str:
    """The site root of ``url`` (scheme and host)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"

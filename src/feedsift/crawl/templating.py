"""Feed templates in the crawl: learned after a poll, checked for drift, then the harvest.

After each poll of a feed (and the fetch of its new pages) the crawl calls
:meth:`Templating.after_poll`:

* **No template yet**: it is learned in a worker from the feed and the stored pages of its
  items (at least :data:`MIN_LEARN_PAGES`), stored as version 1, valid from now, and the
  site's links are followed to the posts the feed does not list (:mod:`~feedsift.crawl.harvest`).
  When none can be learned (a comment feed, pages that hold none of the items' values), the
  next polls try again only once the feed's items or their pages have changed.
* **A template**: the poll's new pages are checked with it. When
  :data:`DRIFT_PAGES` new pages in a row are not posts by it, the site has changed its
  template: a new version is learned from those pages (the feed's older items still show
  the old template), valid from now, and the old version stays in the store for the pages
  of its time (``feedsift templates show``). The run of missed pages is kept in memory:
  a restart starts counting again.
  ``feedsift stats`` counts the versions; the crawl's summary counts the drifts.

With ``TemplateOptions.combine`` (off by default, no command-line flag yet: issue 17 part 3
will make it the one path) a first template is also checked field by field against the page
level on the feed's items, and the harvest's posts take each field from the method the
checks chose (:mod:`feedsift.sitelevel.combiner`); the checks are stored with the template
version (``feedsift templates show`` and ``feedsift stats`` print the choice), and each
later poll's new item pages are checked too (``partial_fit``), so the choice follows a
redesign that breaks one field.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field

from feedsift.acquisition.feeds import ParsedFeed
from feedsift.crawl.harvest import Harvester, HarvestOptions, PostSink, home_of
from feedsift.crawl.services import CrawlServices
from feedsift.crawl.template_jobs import (
    FetchedPage,
    LearnOutcome,
    check_pages,
    learn_template,
    recheck_fields,
)
from feedsift.dedup.site import site_of
from feedsift.storage import FeedRecord, NewTemplate, StoredTemplate
from feedsift.templates.learner import MAX_ITEMS

__all__ = ["DRIFT_PAGES", "MIN_LEARN_PAGES", "TemplateOptions", "Templating"]

#: Fewest item pages a template is learned from: one page cannot tell template from post.
MIN_LEARN_PAGES = 2
#: New pages in a row that a template must miss before the site is said to have changed.
DRIFT_PAGES = 2
#: Width of the digest of a failed learning's input: 128 bits, no two inputs share one.
LEARN_DIGEST_BYTES = 16


@dataclass(frozen=True, slots=True)
class TemplateOptions:
    """Whether feed templates are learned, and how far their harvest goes."""

    learn: bool = True
    harvest: bool = True
    limits: HarvestOptions = field(default_factory=HarvestOptions)
    #: harvested posts take each field from the method the feed's items confirm
    combine: bool = False


class Templating:
    """The crawl's feed templates: learning, drift and harvest, one feed at a time."""

    def __init__(
        self, services: CrawlServices, sink: PostSink, options: TemplateOptions | None = None
    ) -> None:
        self.services, self.sink = services, sink
        self.options = options or TemplateOptions()
        self._misses: dict[int, list[FetchedPage]] = {}  # feed id -> new pages missed in a row
        self._harvesting: dict[str, asyncio.Lock] = {}  # site -> one harvest at a time
        #: feed id -> digest of the items and pages its first template could not be learned
        #: from (:func:`_learn_input`): a later poll with the same ones does not try again
        self._unlearned: dict[int, bytes] = {}

    async def after_poll(self, feed: FeedRecord, parsed: ParsedFeed, fresh: list[int]) -> None:
        """Learn, check or relearn the feed's template after a poll that stored ``fresh``."""
        if not self.options.learn or not parsed.entries:
            return
        current = self.services.store.templates.current(feed.id)
        if current is None:
            pages = self._item_pages(feed, parsed)
        else:
            new_pages = self._documents(fresh)
            await self._recheck(parsed, current, new_pages)
            pages = await self._missed(feed, current, new_pages)  # the new template's pages
            if not pages:
                return
        learned = await self._learn(feed, parsed, current, pages)
        if learned is not None and current is None and self.options.harvest:
            home = parsed.site_url or feed.site_url or home_of(feed.url)
            await self._harvest(home, *learned)

    async def _learn(
        self,
        feed: FeedRecord,
        parsed: ParsedFeed,
        current: StoredTemplate | None,
        pages: tuple[FetchedPage, ...],
    ) -> tuple[StoredTemplate, bytes | None] | None:
        """The template learned and stored, with its per-field checks when asked for."""
        if len(pages) < MIN_LEARN_PAGES:
            return None
        site = site_of(pages[0].url)
        outcome = await self._learn_job(feed.id, parsed, current, pages)
        if outcome is None:
            return None  # learned from the very same items and pages before, in vain
        if outcome.state is None or outcome.key_path is None:
            self._tell("template", f"{feed.url}: no template learned: {outcome.error}")
            return None
        now = self.services.clock()
        new = NewTemplate(feed.id, site, now, now, outcome.items, outcome.key_path,
                          outcome.state, outcome.checks)  # fmt: skip
        with self.services.store.transaction():
            stored = self.services.store.templates.add(new)
        self.services.counts.templates_learned += 1
        self.services.counts.template_drifts += current is not None
        what = "relearned after drift" if current else "learned"
        self._tell("template", f"{feed.url}: template v{stored.version} {what} from "
                               f"{outcome.items} items: {outcome.key_path}")  # fmt: skip
        return stored, outcome.checks

    async def _learn_job(
        self, feed_id: int, parsed: ParsedFeed, current: StoredTemplate | None,
        pages: tuple[FetchedPage, ...],
    ) -> LearnOutcome | None:  # fmt: skip
        """What a worker learned from ``parsed`` and ``pages``; ``None``, with no job, when
        the feed's first template could not be learned from the very same ones before."""
        tried = self._unlearned.get(feed_id) if current is None else None
        learning = _learn_input(parsed, pages) if tried is not None else None
        if learning is not None and learning == tried:
            return None
        combine = self.options.combine and current is None  # checks serve the first harvest
        outcome = await self.services.extraction.run_extracting(
            site_of(pages[0].url), learn_template, parsed, pages, combine)  # fmt: skip
        if outcome.state is not None and outcome.key_path is not None:
            self._unlearned.pop(feed_id, None)
        elif current is None:
            self._unlearned[feed_id] = learning or _learn_input(parsed, pages)
        return outcome

    def _item_pages(self, feed: FeedRecord, parsed: ParsedFeed) -> tuple[FetchedPage, ...]:
        """The stored pages of the feed's first :data:`MAX_ITEMS` entries (those fit uses)."""
        store = self.services.store
        pages = []
        for entry in parsed.entries[:MAX_ITEMS]:
            document_id = store.items.document_of(feed.id, entry.url) if entry.url else None
            record = store.documents.get(document_id) if document_id else None
            if entry.url and record is not None:
                pages.append(FetchedPage.stored(record.document, entry.url))
        return tuple(pages)

    async def _recheck(
        self, parsed: ParsedFeed, current: StoredTemplate, pages: tuple[FetchedPage, ...]
    ) -> None:
        """Check the template per field again on the poll's new item pages (drift in one
        field: a redesign that moves the title), when it has checks: stored in its row."""
        if current.checks is None or not pages:
            return
        site = site_of(pages[0].url)
        checks = await self.services.extraction.run_extracting(
            site, recheck_fields, current.checks, current.state, parsed, pages)  # fmt: skip
        with self.services.store.transaction():
            self.services.store.templates.set_checks(current.id, checks)

    async def _missed(
        self, feed: FeedRecord, current: StoredTemplate, pages: tuple[FetchedPage, ...]
    ) -> tuple[FetchedPage, ...]:
        """The new pages the template missed in a row, once they are :data:`DRIFT_PAGES` or
        more (the site changed its template: they teach the new one); else nothing."""
        if not pages:
            return ()
        site = site_of(pages[0].url)
        verdicts = await self.services.extraction.run(site, check_pages, current.state, pages)
        missed = self._misses.setdefault(feed.id, [])
        for page, is_post in zip(pages, verdicts, strict=True):
            missed[:] = [] if is_post else [*missed, page]
        if len(missed) < DRIFT_PAGES:
            return ()
        self._misses[feed.id] = []
        self._tell("template", f"{feed.url}: {len(missed)} new posts in a row do not match "
                   f"template v{current.version}: the site changed its template")
        return tuple(missed)

    def _documents(self, ids: list[int]) -> tuple[FetchedPage, ...]:
        pages = []
        for document_id in ids:
            record = self.services.store.documents.get(document_id)
            if record is not None:
                pages.append(FetchedPage.stored(record.document))
        return tuple(pages)

    async def _harvest(self, home: str, template: StoredTemplate, checks: bytes | None) -> None:
        """Follow the site's links; one harvest of a site at a time (two feeds of a site
        learn their templates in one round): the second finds the first's posts stored."""
        harvester = Harvester(self.services, self.sink, self.options.limits, checks)
        async with self._harvesting.setdefault(template.site, asyncio.Lock()):
            found = await harvester.harvest(template.site, home, template)
        self._tell("template", f"{template.site}: {found} posts found through links")

    def _tell(self, event: str, detail: str) -> None:
        self.services.tell(event, detail)


def _learn_input(parsed: ParsedFeed, pages: tuple[FetchedPage, ...]) -> bytes:
    """A digest of what a template is learned from: the feed's items (all their values),
    and each page's addresses, content type and bytes. Learning is deterministic, so the
    same digest learns the same template, or none."""
    digest = hashlib.blake2b(repr(parsed.sample()).encode(), digest_size=LEARN_DIGEST_BYTES)
    for page in pages:
        digest.update(repr((page.link, page.url, page.content_type, len(page.body))).encode())
        digest.update(page.body)
    return digest.digest()

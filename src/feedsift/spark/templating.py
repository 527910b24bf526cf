"""A host's feed template in the Spark job, learned from the first of its item pages.

The crawl learns a site's feed template (:class:`~feedsift.templates.FeedTemplate`) from
the pages of its feed's items and hands it to the site's
:class:`~feedsift.sitelevel.SiteModels` (:meth:`~feedsift.sitelevel.SiteModels.use_template`),
whose combiner checks it on later feed items beside the URL Tree and DiffPost. A Spark
partition streams a host's pages once, in capture order, with the item pages among the
others, so :class:`HostTemplate` keeps the item pages as they pass and learns the template
when it holds half of the host's items (:func:`learning_quota`): the other half is left to
check it on, since a template is never checked on a page that taught it (those pages were
extracted before it existed). Hosts whose feeds list too few items to check a template, or
whose item pages the crawl did not capture, learn none: their choice stays between the
page level and the two learners.
"""

from __future__ import annotations

import logging

from feedsift.errors import FeedsiftError
from feedsift.parsing.page import ParsedPage
from feedsift.records import FeedItem, FeedSample
from feedsift.sitelevel.combiner import MIN_CHECKS
from feedsift.templates.learner import MAX_ITEMS, FeedTemplate

__all__ = ["MIN_LEARN_PAGES", "MIN_TEMPLATE_ITEMS", "HostTemplate", "learning_quota"]

logger = logging.getLogger(__name__)

#: Fewest item pages a template is learned from: one page cannot tell template from post
#: (the crawl's ``feedsift.crawl.templating.MIN_LEARN_PAGES``).
MIN_LEARN_PAGES = 2
#: Fewest feed items a host needs for a template: enough to learn from and then to check
#: it :data:`~feedsift.sitelevel.combiner.MIN_CHECKS` times, the fewest a choice rests on.
MIN_TEMPLATE_ITEMS = MIN_LEARN_PAGES + MIN_CHECKS


def learning_quota(items: int) -> int | None:
    """Item pages to learn a host's template from when its feeds list ``items`` items:
    half of them, at least :data:`MIN_LEARN_PAGES` and at most the template's
    ``MAX_ITEMS``; ``None`` when too few are left to check it on."""
    if items < MIN_TEMPLATE_ITEMS:
        return None
    return min(MAX_ITEMS, max(MIN_LEARN_PAGES, items // 2))


class HostTemplate:
    """One host's item pages until its template is learned (then nothing is kept)."""

    def __init__(self, items: int) -> None:
        self.quota = learning_quota(items)
        self.items: list[FeedItem] = []
        self.pages: dict[str, ParsedPage] = {}
        self.learned = False

    def add(self, item: FeedItem, page: ParsedPage) -> bytes | None:
        """Keep ``item``'s page; the template's state once the quota is reached and a
        template is found (``None`` before, after, and when none is found)."""
        if self.quota is None or self.learned or not item.url or item.url in self.pages:
            return None
        self.items.append(item)
        self.pages[item.url] = page
        if len(self.pages) < self.quota:
            return None
        self.learned = True
        items, pages = tuple(self.items), self.pages
        self.items, self.pages = [], {}
        return _fit(FeedSample("", None, items), pages)


def _fit(sample: FeedSample, pages: dict[str, ParsedPage]) -> bytes | None:
    try:
        template = FeedTemplate().fit(sample, pages)
    except Exception as exc:  # a host without a template goes on; the job never stops
        reason = str(exc) if isinstance(exc, FeedsiftError) else f"internal error: {exc!r}"
        logger.info("no feed template from %d item pages: %s", len(pages), reason)
        return None
    return template.to_bytes() if template.is_fitted else None

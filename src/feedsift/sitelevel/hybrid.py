"""The hybrid: a site-level learner's boilerplate mask, then the page-level extractor.

The page-level model judges every block from the page alone; a site-level learner knows
which blocks the site repeats. The hybrid runs the page-level stages on the whole page (its
features need the page's full layout) and then drops from the body every block the
site-level learner calls boilerplate, so template text the model let through (a related
box, a newsletter line, a footer the model took for content) goes, and the model's title,
listing and metadata decisions stay. Before the site-level learner is fitted for the site,
the hybrid is the page-level extractor.
"""

from __future__ import annotations

from dataclasses import replace

from feedsift.errors import NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.page import BlockDecision, LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, Provenance
from feedsift.sitelevel.base import BlockMask, SiteLearner

__all__ = ["HybridExtractor", "masked_decision"]


class HybridExtractor:
    """A page extractor: ``page_level`` with ``site_level``'s boilerplate removed."""

    def __init__(self, site_level: SiteLearner, page_level: LearnedPageExtractor) -> None:
        self.site_level = site_level
        self.page_level = page_level

    @property
    def name(self) -> str:
        return f"hybrid-{self.site_level.method}"

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        return self.extract_decided(page, self.page_level.decide(page), options)

    def extract_decided(
        self, page: ParsedPage, decision: BlockDecision, options: ExtractOptions | None = None
    ) -> Article:
        """As :meth:`extract`, reusing a page-level decision already made for ``page``."""
        try:
            mask = self.site_level.boilerplate(page)
        except NotFittedError:
            return self.page_level.extract_decided(page, decision, options)
        article = self.page_level.extract_decided(page, masked_decision(decision, mask), options)
        old = article.provenance
        return replace(article, provenance=Provenance(self.name, old.model_version, old.confidence))


def masked_decision(decision: BlockDecision, boilerplate: BlockMask) -> BlockDecision:
    """``decision`` without the blocks marked boilerplate (the title block stays its own)."""
    return replace(decision, content=decision.content & ~boilerplate)

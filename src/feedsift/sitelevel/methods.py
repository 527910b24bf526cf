"""A site's methods as page extractors that share one page-level decision per page.

The per-site combiner (:class:`~feedsift.sitelevel.combiner.FieldCombiner`) extracts a
feed item's page with every method to check it, then extracts each page with the methods it
chose. URL Tree and DiffPost are used as *masks* on the page-level decision (the hybrid,
:mod:`feedsift.sitelevel.hybrid`) or alone (``site`` mode); either way the page-level stages
ran once for the page. :class:`PageMemo` is that explicit cache: it holds the page being
handled, its download time, its page-level decision and article; :class:`PageLevelMethod`
and :class:`MaskMethod` read it, so checking three methods costs one ``decide``.

A mask method whose learner cannot judge the page yet (the URL Tree's node has fewer than
``n_min`` documents, DiffPost has no comparison page of the same crawl) raises
:class:`~feedsift.errors.NotFittedError`: the combiner then neither checks it on that page
nor takes a field from it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import numpy as np

from feedsift.errors import NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.page import BlockDecision, LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, Provenance
from feedsift.sitelevel.base import BlockMask, SiteLearner, article_from_mask
from feedsift.sitelevel.hybrid import masked_decision

__all__ = ["BODY_ONLY", "MaskMethod", "PageLevelMethod", "PageMemo"]

#: What a mask changes is the body: the hybrid's other fields are the page level's, so its
#: extraction skips metadata and comments and takes them from the page level's article.
BODY_ONLY = ExtractOptions(with_metadata=False, include_comments=False)
#: What an extraction without options means.
DEFAULT_OPTIONS = ExtractOptions()


class PageMemo:
    """The page being handled and what the page level made of it (one page at a time)."""

    def __init__(self, page_level: LearnedPageExtractor) -> None:
        self.page_level = page_level
        self.page: ParsedPage | None = None
        self.seen_at: datetime | None = None
        self._decision: BlockDecision | None = None
        self._articles: dict[ExtractOptions, Article] = {}
        self._made: dict[tuple[str, ExtractOptions], Article] = {}

    def start(self, page: ParsedPage, seen_at: datetime | None = None) -> None:
        """Forget the last page; ``page`` (downloaded at ``seen_at``) is handled next."""
        self.page, self.seen_at = page, seen_at
        self._decision, self._articles, self._made = None, {}, {}

    def clear(self) -> None:
        """Forget the page (a site's memo must not keep its last page alive)."""
        self.page, self.seen_at = None, None
        self._decision, self._articles, self._made = None, {}, {}

    def decision(self, page: ParsedPage) -> BlockDecision:
        """The page level's block decision of ``page`` (made once per page)."""
        if page is not self.page:
            self.start(page)
        if self._decision is None:
            self._decision = self.page_level.decide(page)
        return self._decision

    def article(self, page: ParsedPage, options: ExtractOptions | None) -> Article:
        """The page level's article of ``page`` with ``options`` (made once per page)."""
        decision = self.decision(page)
        options = options or DEFAULT_OPTIONS  # the checks' None and a caller's default alike
        made = self._articles.get(options)
        if made is None:
            made = self._articles[options] = self.page_level.extract_decided(
                page, decision, options)  # fmt: skip
        return made


    def made(self, page: ParsedPage, key: tuple[str, ExtractOptions]) -> Article | None:
        """What a method (``key``: its name and the options) made of ``page`` already."""
        if page is not self.page:
            self.start(page)
        return self._made.get(key)

    def keep(self, key: tuple[str, ExtractOptions], article: Article) -> Article:
        """Remember what a method made of the current page; return it."""
        self._made[key] = article
        return article


class PageLevelMethod:
    """The page-level extractor, through the memo."""

    def __init__(self, memo: PageMemo) -> None:
        self.memo = memo

    @property
    def name(self) -> str:
        return self.memo.page_level.name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        return self.memo.article(page, options)


class MaskMethod:
    """A site-level learner's boilerplate mask: on the page-level result (``hybrid``) or
    alone (``site``); NotFittedError while the learner cannot judge the page."""

    def __init__(
        self, learner: SiteLearner, memo: PageMemo, hybrid: bool = True, n_min: int = 0
    ) -> None:
        self.learner, self.memo, self.hybrid, self.n_min = learner, memo, hybrid, n_min

    @property
    def name(self) -> str:
        method = self.learner.method
        return f"hybrid-{method}" if self.hybrid else method

    def mask(self, page: ParsedPage) -> BlockMask:
        """The learner's mask of ``page``; NotFittedError when it cannot judge it yet."""
        support = getattr(self.learner, "support", None)
        if support is not None and support(page) < self.n_min:
            raise NotFittedError(f"{self.learner.name} has fewer than {self.n_min} documents "
                                 "under this page's path")  # fmt: skip
        seen_at = self.memo.seen_at if page is self.memo.page else None
        return self.learner.boilerplate(page, seen_at)

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        key = (self.name, options or DEFAULT_OPTIONS)
        made = self.memo.made(page, key)  # checked on the page, then chosen for a field
        return made if made is not None else self.memo.keep(key, self._extract(page, options))

    def _extract(self, page: ParsedPage, options: ExtractOptions | None) -> Article:
        mask = self.mask(page)
        if not self.hybrid:
            return article_from_mask(page, mask, self.learner.method, options)
        base = self.memo.article(page, options)
        decision = self.memo.decision(page)
        kept = masked_decision(page, decision, mask)
        old = base.provenance
        provenance = Provenance(self.name, old.model_version,
                                old.confidence, old.kind_confidence)  # fmt: skip
        if np.array_equal(kept.content, decision.content):
            return replace(base, provenance=provenance)  # no box of the body was boilerplate
        masked = self.memo.page_level.extract_decided(page, kept, BODY_ONLY)
        return replace(base, body=masked.body, kind=masked.kind, provenance=provenance)

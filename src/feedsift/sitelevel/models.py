"""The per-site choice of method: every site's learners in one explicit object.

:class:`SiteModels` is what the crawl pipeline extracts with. For each site (``host``
without ``www.``) it keeps a URL Tree (heuristic ``strict``) and a DiffPost, learns each page
of the site's stream in the papers' order (the URL Tree inserts a page before judging it,
DiffPost judges it against earlier pages and then keeps it) and picks, per page:

1. **URL Tree** once its selected node has ``n_min`` documents (the paper's support);
2. else **DiffPost** when a comparison page of the same crawl is at hand;
3. else the **page-level** extractor.

In the default ``hybrid`` mode the chosen learner's boilerplate mask is applied to the
page-level extractor's result (:class:`~feedsift.sitelevel.hybrid.HybridExtractor`), which
measured better than either learner alone on the shared site streams (docs/sitelevel.md);
``site`` mode uses the learner's own extraction. Every article's provenance names the
method that produced it (``page``, ``hybrid-urltree``, ``hybrid-diffpost``, ``urltree``,
``diffpost``).

State is saved and restored per site (:meth:`SiteModels.save_site`,
:meth:`SiteModels.restore_site`) with a schema version; the crawl keeps it in the store.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from feedsift.dedup.site import site_of
from feedsift.errors import InputError, ModelError, NotFittedError
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article
from feedsift.sitelevel.base import SiteLearner, article_from_mask
from feedsift.sitelevel.diffpost import COMPARISONS, DiffPost
from feedsift.sitelevel.hybrid import HybridExtractor
from feedsift.sitelevel.urltree import DEFAULT_N_MIN, UrlTree

__all__ = ["SavedSite", "SiteLearners", "SiteMode", "SiteModels", "SiteOptions"]

#: ``hybrid``: the learner's mask on the page-level result; ``site``: the learner alone.
SiteMode = Literal["hybrid", "site"]


@dataclass(frozen=True, slots=True)
class SiteOptions:
    """How the site-level methods are used (the defaults are the measured best)."""

    mode: SiteMode = "hybrid"
    n_min: int = DEFAULT_N_MIN  #: URL Tree node support before it judges
    comparisons: int = COMPARISONS  #: DiffPost comparison pages per judged page


@dataclass(slots=True)
class SiteLearners:
    """One site's learners and how much they have learned."""

    urltree: UrlTree
    diffpost: DiffPost
    documents: int = 0  #: pages learned
    last_document: int = 0  #: highest stored document id learned (0: none known)


@dataclass(frozen=True, slots=True)
class SavedSite:
    """A site's learner state as bytes, with what it covers."""

    site: str
    state: bytes
    documents: int
    last_document: int


@dataclass(slots=True)
class SiteModels:
    """Per site: URL Tree and DiffPost, learned from the site's stream; the method choice."""

    page_level: LearnedPageExtractor
    options: SiteOptions = field(default_factory=SiteOptions)
    sites_: dict[str, SiteLearners] = field(default_factory=dict)

    #: version of :meth:`save_site`'s layout; bump it when the layout changes
    schema_version = 1
    name = "site-models"

    # -- learning and extracting --------------------------------------------------------

    def learn(self, page: ParsedPage, seen_at: datetime | None = None, document: int = 0) -> None:
        """Learn ``page`` without extracting it (a comparison page, or a replayed one).

        The URL Tree skips a page whose URL key it holds already (a comparison page is an
        older item fetched again): counting one document twice would fake support."""
        learners = self.learners(page)
        if not learners.urltree.knows(page):
            learners.urltree.partial_fit(page, seen_at)
        learners.diffpost.partial_fit(page, seen_at)
        _count(learners, document)

    def process(
        self,
        page: ParsedPage,
        seen_at: datetime | None = None,
        document: int = 0,
        options: ExtractOptions | None = None,
    ) -> Article:
        """Learn ``page`` and extract it, in the papers' order (see the module)."""
        learners = self.learners(page)
        learners.urltree.partial_fit(page, seen_at)
        article = self._judge(learners, page, seen_at, options)
        learners.diffpost.partial_fit(page, seen_at)
        _count(learners, document)
        return article

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """Extract ``page`` with what its site's learners know, learning nothing."""
        learners = self.sites_.get(_site(page))
        if learners is None:
            return self.page_level.extract(page, options)
        return self._judge(learners, page, None, options)

    def choose(
        self, learners: SiteLearners, page: ParsedPage, seen_at: datetime | None = None
    ) -> SiteLearner | None:
        """The learner that judges ``page``: URL Tree, DiffPost or none (page level)."""
        if learners.urltree.support(page) >= self.options.n_min:
            return learners.urltree
        try:
            learners.diffpost.comparison_pages(page, seen_at)
        except NotFittedError:
            return None
        return learners.diffpost

    def _judge(
        self,
        learners: SiteLearners,
        page: ParsedPage,
        seen_at: datetime | None,
        options: ExtractOptions | None,
    ) -> Article:
        learner = self.choose(learners, page, seen_at)
        if learner is None:
            return self.page_level.extract(page, options)
        mask = learner.boilerplate(page, seen_at)
        if self.options.mode == "site":
            return article_from_mask(page, mask, learner.method, options)
        hybrid = HybridExtractor(learner, self.page_level)
        return hybrid.extract_masked(page, self.page_level.decide(page), mask, options)

    def learners(self, page: ParsedPage) -> SiteLearners:
        """The learners of ``page``'s site (new ones for a site not seen yet)."""
        site = _site(page)
        learners = self.sites_.get(site)
        if learners is None:
            learners = self.sites_[site] = self._fresh()
        return learners

    def _fresh(self) -> SiteLearners:
        return SiteLearners(UrlTree(n_min=self.options.n_min),
                            DiffPost(comparisons=self.options.comparisons))  # fmt: skip

    # -- state --------------------------------------------------------------------------

    def save_site(self, site: str) -> SavedSite:
        """The state of ``site``'s learners (KeyError when the site is unknown)."""
        learners = self.sites_[site]
        payload = {
            "schema": self.schema_version,
            "urltree": learners.urltree.get_state(),
            "diffpost": learners.diffpost.get_state(),
        }
        data = gzip.compress(json.dumps(payload, separators=(",", ":")).encode(), compresslevel=6)
        return SavedSite(site, data, learners.documents, learners.last_document)

    def restore_site(self, saved: SavedSite) -> None:
        """Take ``saved`` as the site's state; ModelError for another schema version."""
        payload = _load(saved.state)
        if payload.get("schema") != self.schema_version:
            raise ModelError(
                f"saved site state has schema {payload.get('schema')}; "
                f"this feedsift reads {self.schema_version}"
            )
        try:
            urltree = UrlTree.from_state(payload["urltree"])
            diffpost = DiffPost.from_state(payload["diffpost"])
        except KeyError as exc:
            raise ModelError(f"saved site state lacks {exc}") from exc
        self.sites_[saved.site] = SiteLearners(
            urltree, diffpost, saved.documents, saved.last_document
        )


def _count(learners: SiteLearners, document: int) -> None:
    learners.documents += 1
    learners.last_document = max(learners.last_document, document)


def _site(page: ParsedPage) -> str:
    if not page.url:
        raise InputError("site-level extraction needs the page's URL (it names the site)")
    return site_of(page.url)


def _load(data: bytes) -> dict[str, Any]:
    try:
        payload = json.loads(gzip.decompress(data))
    except (OSError, EOFError, ValueError) as exc:
        raise ModelError(f"not a saved site state: {exc}") from exc
    if not isinstance(payload, dict):
        raise ModelError("not a saved site state: not a JSON object")
    return payload

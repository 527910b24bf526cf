"""Every site's learners and its per-field choice of method: what the crawl extracts with.

:class:`SiteModels` keeps, for each site (``host`` without ``www.``), a URL Tree (heuristic
``strict``) and a DiffPost learned from the site's stream in the papers' order (the URL Tree
inserts a page before judging it, DiffPost judges it against earlier pages and then keeps
it), and a :class:`~feedsift.sitelevel.combiner.FieldCombiner` above them and the page-level
extractor. Its methods (:mod:`feedsift.sitelevel.methods`):

* ``page``: the page-level extractor;
* ``hybrid-urltree-strict``, ``hybrid-diffpost``: the learner's boilerplate boxes removed
  from the page-level result (``hybrid`` mode, :mod:`feedsift.sitelevel.hybrid`), or the
  learner alone (``urltree-strict``, ``diffpost``: ``site`` mode); each only on the pages its
  learner can judge (the URL Tree's node has ``n_min`` documents; DiffPost has a comparison
  page of the same crawl);
* ``template``: the site's feed template (:mod:`feedsift.templates`), once the crawl has
  learned one (:meth:`SiteModels.use_template`); a new version starts unchecked.

A page that arrives as a feed item comes with the item (:class:`~feedsift.records.FeedItem`):
every method is checked on it field by field against what the feed says (title, date,
authors, tags, and the body where the feed carries the content or an excerpt), and each
field is taken from the method whose recent checks beat the page level's on the same items
(:mod:`feedsift.sitelevel.combiner`); with no such checks, the page level's. So box removal
is used on a site only where the site's own feed shows it helps (issue 17; docs/sitelevel.md
measured the hybrids a little below the page level on average). Each article's ``sources``
say which method made each field and why; its provenance names the method of its body.

State is saved and restored per site (:meth:`SiteModels.save_site`,
:meth:`SiteModels.restore_site`) with a schema version; the crawl keeps it in the store.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from feedsift.dedup.site import site_of
from feedsift.errors import InputError, ModelError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, FeedItem, Provenance
from feedsift.sitelevel.combiner import FieldCombiner, maker
from feedsift.sitelevel.diffpost import COMPARISONS, DiffPost
from feedsift.sitelevel.methods import MaskMethod, PageLevelMethod, PageMemo
from feedsift.sitelevel.urltree import DEFAULT_N_MIN, UrlTree
from feedsift.templates.learner import FeedTemplate

logger = logging.getLogger(__name__)

__all__ = ["SavedSite", "SiteLearners", "SiteMode", "SiteModels", "SiteOptions"]

#: ``hybrid``: the learner's mask on the page-level result; ``site``: the learner alone.
SiteMode = Literal["hybrid", "site"]
#: Saved-state layouts this feedsift reads: 1 (learners only) and 2 (with the checks).
READABLE_SCHEMAS = frozenset({1, 2})


@dataclass(frozen=True, slots=True)
class SiteOptions:
    """How the site-level methods are used (the defaults are the measured best)."""

    mode: SiteMode = "hybrid"
    n_min: int = DEFAULT_N_MIN  #: URL Tree node support before it judges
    comparisons: int = COMPARISONS  #: DiffPost comparison pages per judged page


@dataclass(slots=True)
class SiteLearners:
    """One site's learners, its per-field checks, and how much it has learned."""

    urltree: UrlTree
    diffpost: DiffPost
    combiner: FieldCombiner  #: page level and the two mask methods, checked on feed items
    memo: PageMemo  #: the page being handled, shared by the combiner's methods
    documents: int = 0  #: pages learned
    last_document: int = 0  #: highest stored document id learned (0: none known)
    template: FeedTemplate | None = None  #: the site's feed template, once the crawl has one
    template_key: str = ""  #: digest of the template the ``template`` checks were made with


@dataclass(frozen=True, slots=True)
class SavedSite:
    """A site's learner state as bytes, with what it covers."""

    site: str
    state: bytes
    documents: int
    last_document: int


@dataclass(slots=True)
class SiteModels:
    """Per site: URL Tree and DiffPost learned from the stream, checked on the feed."""

    page_level: LearnedPageExtractor
    options: SiteOptions = field(default_factory=SiteOptions)
    sites_: dict[str, SiteLearners] = field(default_factory=dict)

    #: version of :meth:`save_site`'s layout; bump it when the layout changes
    schema_version = 2
    name = "site-models"

    # -- learning and extracting --------------------------------------------------------

    def learn(
        self,
        page: ParsedPage,
        seen_at: datetime | None = None,
        document: int = 0,
        item: FeedItem | None = None,
    ) -> None:
        """Learn ``page`` without extracting it (a comparison page, or a replayed one, whose
        feed ``item`` is checked again when known).

        The URL Tree skips a page whose URL key it holds already (a comparison page is an
        older item fetched again): counting one document twice would fake support."""
        learners = self.learners(page)
        if not learners.urltree.knows(page):
            learners.urltree.partial_fit(page, seen_at)
        learners.memo.start(page, seen_at)
        try:
            _check(learners, page, item)
        finally:
            learners.memo.clear()
        learners.diffpost.partial_fit(page, seen_at)
        _count(learners, document)

    def process(
        self,
        page: ParsedPage,
        seen_at: datetime | None = None,
        document: int = 0,
        options: ExtractOptions | None = None,
        item: FeedItem | None = None,
    ) -> Article:
        """Learn ``page``, check the methods on its feed ``item`` (when it is one) and
        extract it with the fields each method was chosen for, in the papers' order."""
        learners = self.learners(page)
        learners.urltree.partial_fit(page, seen_at)
        learners.memo.start(page, seen_at)
        try:
            _check(learners, page, item)
            article = _extract(learners, page, options)
        finally:
            learners.memo.clear()
        learners.diffpost.partial_fit(page, seen_at)
        _count(learners, document)
        return article

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        """Extract ``page`` with what its site's learners know, learning nothing."""
        learners = self.sites_.get(_site(page))
        if learners is None:
            return self.page_level.extract(page, options)
        learners.memo.start(page)
        try:
            return _extract(learners, page, options)
        finally:
            learners.memo.clear()

    def use_template(self, site: str, state: bytes | None) -> None:
        """Make the feed template saved as ``state`` one of ``site``'s methods, checked on
        the feed items that arrive from now on like the others (a new version of the
        template starts unchecked); a state that does not load is not used."""
        learners = self.learners_of(site)
        key = hashlib.sha256(state).hexdigest()[:16] if state else ""
        if state is None or (learners.template is not None and key == learners.template_key):
            return
        try:
            template = FeedTemplate.from_bytes(state)
        except ModelError as exc:
            logger.warning("%s: feed template not used by the site's checks (%s)", site, exc)
            return
        checks = learners.combiner.get_state()
        if key != learners.template_key:  # another template's verdicts go, in a copy
            kept = {m: c for m, c in checks["checks"].items() if m != template.name}
            checks = {**checks, "checks": kept}
        learners.template, learners.template_key = template, key
        learners.combiner = self._combiner(learners.urltree, learners.diffpost, learners.memo,
                                           template).set_state(checks)  # fmt: skip

    def learners(self, page: ParsedPage) -> SiteLearners:
        """The learners of ``page``'s site (new ones for a site not seen yet)."""
        return self.learners_of(_site(page))

    def learners_of(self, site: str) -> SiteLearners:
        """The learners of ``site`` (new ones for a site not seen yet)."""
        learners = self.sites_.get(site)
        if learners is None:
            urltree = UrlTree(n_min=self.options.n_min)
            diffpost = DiffPost(comparisons=self.options.comparisons)
            learners = self.sites_[site] = self._fresh(urltree, diffpost)
        return learners

    def _fresh(self, urltree: UrlTree, diffpost: DiffPost) -> SiteLearners:
        """A site's learners with a combiner over them that has checked nothing yet."""
        memo = PageMemo(self.page_level)
        combiner = self._combiner(urltree, diffpost, memo).fit((), {})
        return SiteLearners(urltree, diffpost, combiner, memo)

    def _combiner(
        self, urltree: UrlTree, diffpost: DiffPost, memo: PageMemo,
        template: FeedTemplate | None = None,
    ) -> FieldCombiner:  # fmt: skip
        """A combiner over the page level, the two mask methods and the feed template."""
        hybrid = self.options.mode == "hybrid"
        methods: list[PageExtractor] = [MaskMethod(urltree, memo, hybrid, self.options.n_min),
                                        MaskMethod(diffpost, memo, hybrid)]  # fmt: skip
        if template is not None:
            methods.append(template)
        return FieldCombiner(PageLevelMethod(memo), methods)

    # -- state --------------------------------------------------------------------------

    def save_site(self, site: str) -> SavedSite:
        """The state of ``site``'s learners (KeyError when the site is unknown)."""
        learners = self.sites_[site]
        payload = {
            "schema": self.schema_version,
            "urltree": learners.urltree.get_state(),
            "diffpost": learners.diffpost.get_state(),
            "checks": learners.combiner.get_state(),
            "template_key": learners.template_key,
        }
        data = gzip.compress(json.dumps(payload, separators=(",", ":")).encode(), compresslevel=6,
                             mtime=0)  # the same state, the same bytes (see saved_state)
        return SavedSite(site, data, learners.documents, learners.last_document)

    def restore_site(self, saved: SavedSite) -> None:
        """Take ``saved`` as the site's state; ModelError for a schema version this feedsift
        does not read (a state of schema 1, saved before the checks, starts them afresh)."""
        payload = _load(saved.state)
        if payload.get("schema") not in READABLE_SCHEMAS:
            raise ModelError(
                f"saved site state has schema {payload.get('schema')}; "
                f"this feedsift reads {self.schema_version}"
            )
        try:
            learners = self._fresh(UrlTree.from_state(payload["urltree"]),
                                   DiffPost.from_state(payload["diffpost"]))  # fmt: skip
        except KeyError as exc:
            raise ModelError(f"saved site state lacks {exc}") from exc
        if "checks" in payload:
            learners.combiner.set_state(payload["checks"])
        learners.template_key = str(payload.get("template_key") or "")
        learners.documents, learners.last_document = saved.documents, saved.last_document
        self.sites_[saved.site] = learners


def _check(learners: SiteLearners, page: ParsedPage, item: FeedItem | None) -> None:
    """Check every method on the feed ``item`` that ``page`` is the page of."""
    if item is not None and item.url:
        learners.combiner.partial_fit([item], {item.url: page})


def _extract(learners: SiteLearners, page: ParsedPage, options: ExtractOptions | None) -> Article:
    """The combiner's article; its provenance names the method that made the body."""
    article = learners.combiner.extract(page, options)
    method = maker(article, "body")
    if method is None:
        return article
    old = article.provenance
    return replace(article, provenance=Provenance(method, old.model_version, old.confidence,
                                                  old.kind_confidence))  # fmt: skip


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

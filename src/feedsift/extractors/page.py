"""The page-level extractor: what feedsift uses when it knows nothing about a site.

Per page: signals and candidates (:mod:`~feedsift.extractors.pipeline`), then the learned
stages (:mod:`~feedsift.extractors.stages`): title block, body subtree, block classifier.
Listing pages are reported as listings with their teasers, comments are kept apart, and
metadata (authors, dates, tags ...) comes from the metadata stage, with the title chosen
by a learned ranker among every title-like string of the page, the title block included.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime
from importlib.resources import files
from pathlib import Path

import numpy as np

from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.block_dates import (
    DateAnchors,
    date_near_title,
    shown_date_line,
    writes_day,
)
from feedsift.extractors.body import assemble_body
from feedsift.extractors.boxes import (
    SIDE_BOX_WORDS,
    SIDE_TAGS,
    named_box_blocks,
    tagged_box_blocks,
)
from feedsift.extractors.captions import without_captions
from feedsift.extractors.chunks import chunked_body
from feedsift.extractors.cleanup import tidy_body
from feedsift.extractors.comments import comment_list_blocks, find_comments
from feedsift.extractors.controls import social_controls
from feedsift.extractors.kinds import (
    KIND_LABELS,
    KindGuess,
    KindModels,
    ListingEvidence,
    guess_kind,
    kind_features,
    kind_vector,
)
from feedsift.extractors.listing import (
    Listing,
    PageFindings,
    TeaserList,
    find_listing,
    teaser_list,
)
from feedsift.extractors.model import ModelBundle, Predictor, load_bundle
from feedsift.extractors.navigation import navigation_blocks
from feedsift.extractors.pipeline import PageAnalysis, analyse_page
from feedsift.extractors.product import review_blocks, specification_blocks
from feedsift.extractors.repeats import repeat_candidates, repeated_blocks
from feedsift.extractors.roles import ClassRoleCache
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.stages import block_looks, choose_title, score_subtrees
from feedsift.extractors.subtrees import outside_side_boxes
from feedsift.extractors.thread import Thread, find_thread
from feedsift.extractors.title_ranker import RankerPage, choose_title_text, visible_titles
from feedsift.extractors.token_classes import TokenClassCache
from feedsift.extractors.visual_end import after_visual_end
from feedsift.metadata import PageMetadata, read_metadata
from feedsift.metadata.dates import htmldate_published, same_day_loosely
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import LayoutProvider
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, Comment, FieldSource, PageKind, Provenance, SourceKind

__all__ = [
    "DEFAULT_ARTICLE_BLOCK_THRESHOLD",
    "DEFAULT_BLOCK_THRESHOLD",
    "DEFAULT_MODEL_PATH",
    "DROP_AFTER_VISUAL_END",
    "RENDERED_LAYOUT",
    "BlockDecision",
    "BlockTrace",
    "LearnedPageExtractor",
    "ShownBlocks",
    "listing_of",
    "shown_blocks",
]

#: The model bundle shipped inside the package (rebuilt by ``feedsift train``).
DEFAULT_MODEL_PATH = Path(str(files("feedsift") / "models" / "page-model.npz"))
#: Content probability from which a block is kept, unless the bundle says otherwise.
DEFAULT_BLOCK_THRESHOLD = 0.5
#: The same on a page the kind classifier calls an article, unless the bundle says
#: otherwise: on an unseen set's articles a model scores captions and bylines between 0.4
#: and 0.5; held out, the strict article sets (Fundus, Dragnet) gained from 0.5 and the
#: inclusive ones lost a little (docs/model.md, "A stricter threshold on articles").
DEFAULT_ARTICLE_BLOCK_THRESHOLD = 0.5
#: What an article says when its page was laid out by a browser (``--render``) rather than
#: estimated from the markup: a ``layout`` source (an article without one was estimated).
RENDERED_LAYOUT = FieldSource("layout", "browser", "rendered in a headless Chromium")
#: Whether blocks a rendered layout calls not shown leave the body by default: off, since
#: on the ssg blogs it did not pass its bar (docs/rendering.md, part 3).
DROP_UNSHOWN = False
#: Whether, on a rendered page without a post-end phrase after the title, the kept blocks
#: after the post's visual end leave the body by default: off, since on the ssg blogs it
#: gained on three but lost 0.018 F1 on one, over the bar (docs/rendering.md, part 4).
DROP_AFTER_VISUAL_END = False
#: Where a ranked title string was first seen, as a provenance source (else the title block).
_TITLE_SOURCES: dict[str, SourceKind] = {
    "json-ld": "json-ld", "opengraph": "opengraph", "meta": "meta", "dom": "dom",
    "title-tag": "title-tag",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Kinds:
    """The kind of page and the teaser list behind it (read before the block stage)."""

    guess: KindGuess
    teasers: TeaserList


@dataclass(frozen=True, slots=True)
class BlockTrace:
    """The body mask after each step of :meth:`LearnedPageExtractor.decide` (own copies);
    the last step's, the decision's ``content``, drops the comment list on articles."""

    classified: np.ndarray  #: the block classifier's: content probability >= threshold
    #: with the blocks written from a kept block's template (:mod:`~feedsift.extractors.repeats`)
    repeated: np.ndarray
    #: without the blocks inside the page's navigation (:mod:`~feedsift.extractors.navigation`)
    navigated: np.ndarray
    untitled: np.ndarray  #: without the title block (a field of its own, unless it is all)
    tidied: np.ndarray  #: without bylines, post-end phrases and stray labels
    #: the previous step's without the blocks the rendered page does not show (``None``: the
    #: rule is off or the layout does not say what is shown; see ``drop_unshown``)
    shown: np.ndarray | None = None
    #: the mask before it without the blocks after the post's visual end (``None``: the rule
    #: is off, the layout has no visual segments, or a post-end phrase follows the title;
    #: see ``drop_after_visual_end``)
    visual_end: np.ndarray | None = None
    #: the block classifier's first look (its score before the second look's blend)
    first_look: np.ndarray | None = None
    #: the content probability from which ``classified`` keeps a block on this page
    threshold: float = DEFAULT_BLOCK_THRESHOLD


@dataclass(frozen=True, slots=True)
class BlockDecision:
    """The learned stages' findings on one page."""

    analysis: PageAnalysis
    title_block: int
    title_score: float
    best_subtree: int
    scores: np.ndarray  #: content probability per block
    content: np.ndarray  #: boolean mask of the blocks kept as body
    kinds: _Kinds  #: the kind classifier's guess and the teaser list it read
    #: how ``decide`` came to ``content`` (not updated by callers that change ``content``)
    trace: BlockTrace | None = None


class LearnedPageExtractor:
    """Page-level extraction with the models of one :class:`ModelBundle`."""

    name = "page"

    def __init__(self, bundle: ModelBundle, layout: LayoutProvider | None = None) -> None:
        self.bundle = bundle
        self.layout = layout
        self._title_model: Predictor = bundle.get("title")
        self._ranker: Predictor = bundle.get("ranker")
        self._subtree: Predictor = bundle.get("subtree")
        self._block: Predictor = bundle.get("block")
        #: the block stage's second look; bundles built before it have none
        self._refine: Predictor | None = bundle.models.get("refine")
        self._kinds = KindModels.of({k: bundle.models[f"kind_{k}"] for k in KIND_LABELS
                                     if f"kind_{k}" in bundle.models})  # fmt: skip
        self.threshold = float(bundle.info.get("block_threshold", DEFAULT_BLOCK_THRESHOLD))
        #: the threshold on a page guessed to be an article (any other kind: ``threshold``)
        self.article_threshold = float(
            bundle.info.get("article_block_threshold", DEFAULT_ARTICLE_BLOCK_THRESHOLD)
        )
        self.roles = ClassRoleCache()
        self.token_classes = TokenClassCache()
        #: drop from the body the blocks a rendered layout says the page does not show
        #: (nothing changes with a layout that does not say: the static estimate)
        self.drop_unshown = DROP_UNSHOWN
        #: on a rendered page without a post-end phrase after the title, drop from the body
        #: the kept blocks in visual segments after the post's (:mod:`.visual_end`)
        self.drop_after_visual_end = DROP_AFTER_VISUAL_END

    @classmethod
    def from_file(cls, path: Path = DEFAULT_MODEL_PATH) -> LearnedPageExtractor:
        """Load a bundle written by ``feedsift train``."""
        return cls(load_bundle(path))

    def with_layout(self, layout: LayoutProvider | None) -> LearnedPageExtractor:
        """This extractor reading layout from ``layout`` (``None``: the static estimate),
        sharing its models and caches: a shallow copy, cheap enough for every call."""
        if layout is self.layout:
            return self
        twin = copy.copy(self)
        twin.layout = layout
        return twin

    def with_drop_unshown(self, drop: bool) -> LearnedPageExtractor:
        """This extractor with :attr:`drop_unshown` set to ``drop`` (a shallow copy)."""
        if drop == self.drop_unshown:
            return self
        twin = copy.copy(self)
        twin.drop_unshown = drop
        return twin

    def with_drop_after_visual_end(self, drop: bool) -> LearnedPageExtractor:
        """This extractor with :attr:`drop_after_visual_end` set to ``drop`` (a shallow
        copy)."""
        if drop == self.drop_after_visual_end:
            return self
        twin = copy.copy(self)
        twin.drop_after_visual_end = drop
        return twin

    def decide(self, page: ParsedPage) -> BlockDecision:
        """Run the learned block-level stages on a parsed page."""
        analysis = analyse_page(page, self.layout, self.roles, self.token_classes)
        signals, table = analysis.signals, analysis.table
        teasers = teaser_list(page.view, signals.roles.near, page.url)
        guess = self.guess_kind(page, signals, teasers.evidence(page.view))
        title = choose_title(analysis.titles, self._title_model)
        context = score_subtrees(signals, table, analysis.subtree_tags, title.block,
                                 self._subtree)  # fmt: skip
        best = outside_side_boxes(table, analysis.subtree_tags, context)
        body = chunked_body(page.view.subtrees, table, signals.roles.own, best)
        context = replace(context, best_subtree=body, kind_scores=kind_vector(guess))
        looks = block_looks(signals, table, context, self._block, self._refine)
        scores = looks.final
        threshold = self.threshold_for(guess)
        classified = scores >= threshold
        repeated = classified | _repeated(page, analysis, scores, body, classified)
        navigated = repeated & ~navigation_blocks(analysis.subtree_tags, table, signals.owner)
        navigated &= ~social_controls(page.view, signals, navigated)
        shown = _shown_only(navigated, analysis.visible) if self.drop_unshown else None
        kept = navigated if shown is None else shown
        ended = self._visual_end(analysis, kept, title.block, scores, threshold)
        untitled = (kept if ended is None else ended).copy()
        if title.block >= 0 and untitled.sum() > untitled[title.block]:
            untitled[title.block] = False  # the title is a field of its own, unless it is all
        tidied = tidy_body([b.text for b in page.view.blocks], signals, untitled)  # a new mask
        content = tidied.copy()
        if _page_kind(guess, listed=False) is PageKind.ARTICLE:
            content &= ~comment_list_blocks(page.view, signals)  # comments are a field
        trace = BlockTrace(classified, repeated, navigated, untitled, tidied, shown, ended,
                           looks.first, threshold)  # fmt: skip
        return BlockDecision(analysis, title.block, title.score, context.best_subtree, scores,
                             content, _Kinds(guess, teasers), trace)  # fmt: skip

    def threshold_for(self, guess: KindGuess) -> float:
        """The block threshold for a page of the guessed kind: the article one only where
        the kind classifier's first choice is an article (a listing the teaser check missed
        keeps the other)."""
        return self.article_threshold if guess.kind == "article" else self.threshold

    def _visual_end(
        self, analysis: PageAnalysis, kept: np.ndarray, title: int, scores: np.ndarray,
        threshold: float,
    ) -> np.ndarray | None:
        """``kept`` without the blocks after the post's visual end, when the rule is on and
        applies (see :attr:`BlockTrace.visual_end`). A segment's sureness is judged on the
        blocks the base threshold keeps: the article threshold leaves out a related box's
        weaker blocks, and its mean would then rise over the bar."""
        if not self.drop_after_visual_end or analysis.segment is None:
            return None
        marker = analysis.signals.marker
        judged = kept | ((scores >= self.threshold) & (scores < threshold))
        after = after_visual_end(judged, analysis.segment, title, marker, scores)
        if after is None:
            return None
        found: np.ndarray = kept & ~after
        return found

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        return self.extract_decided(page, self.decide(page), options)

    def extract_decided(
        self, page: ParsedPage, decision: BlockDecision, options: ExtractOptions | None = None
    ) -> Article:
        """The article of a page whose :meth:`decide` is ``decision`` (which a caller may have
        changed first: the hybrid drops the blocks a site-level learner calls boilerplate)."""
        options = options or ExtractOptions()
        signals = decision.analysis.signals
        listing = listing_of(page, decision) if options.detect_listings else None
        guess = decision.kinds.guess
        comments: tuple[Comment, ...] = ()
        if options.include_comments:
            comments = find_comments(page.view, signals, decision.content, decision.title_block)
        meta = None
        if options.with_metadata:
            meta = read_metadata(page, date_search=False)
            meta = _with_date(page, decision, meta, options.htmldate)
        return self._article(page, decision, _Found(listing, guess, comments), meta)

    def guess_kind(
        self, page: ParsedPage, signals: PageSignals, evidence: ListingEvidence
    ) -> KindGuess:
        """The kind classifier's guess (an article, unsure, when the bundle has no kinds)."""
        if not self._kinds.labels:
            return KindGuess("article", 0.0, {})
        return guess_kind(kind_features(page, signals, evidence), self._kinds)

    def _title_text(
        self, page: ParsedPage, decision: BlockDecision, meta: PageMetadata | None
    ) -> tuple[str | None, FieldSource | None]:
        block = decision.title_block
        block_title = page.view.blocks[block].text if block >= 0 else None
        block_source = FieldSource("title", "model", "title block")
        if meta is None:
            return block_title, block_source if block_title else None
        visible = visible_titles([b.text for b in page.view.blocks],
                                 decision.analysis.signals.link)  # fmt: skip
        ranked = RankerPage(block_title, decision.title_score, page.url, visible)
        option = choose_title_text(meta, ranked, self._ranker)
        if option is None:
            return None, None
        source, _, detail = option.first.partition("/")
        known = _TITLE_SOURCES.get(source)
        if known is None:
            return option.text, block_source
        return option.text, FieldSource("title", known, f"{detail} (ranked)")

    def _article(
        self, page: ParsedPage, decision: BlockDecision, found: _Found,
        meta: PageMetadata | None,
    ) -> Article:  # fmt: skip
        listing = found.listing
        shown = shown_blocks(page, decision, listing)
        thread = shown.thread
        if thread is not None:
            meta = _thread_date(meta, thread)
        body = assemble_body([page.view.blocks[i] for i in np.flatnonzero(shown.mask)])
        kind = shown.kind if body else PageKind.EMPTY
        title, title_source = self._title_text(page, decision, meta)
        provenance = Provenance(self.name, self.bundle.version, _confidence(decision),
                                found.guess.scores.get(kind.value, 0.0))  # fmt: skip
        article = Article(
            body=body, title=title, url=page.url, kind=kind, provenance=provenance,
            posts=listing.teasers if listing else (), comments=found.comments,
            thread=thread.posts if thread else (),
        )  # fmt: skip
        article = _with_metadata(article, meta, title_source)
        if decision.analysis.visible is None:
            return article
        return replace(article, sources=(*article.sources, RENDERED_LAYOUT))


def _shown_only(classified: np.ndarray, visible: np.ndarray | None) -> np.ndarray | None:
    """The classifier's blocks less those the rendered page does not show (display or
    visibility, zero size, opacity 0 once animations ended, clipped or off the page);
    ``None`` when the layout does not say which are shown."""
    if visible is None:
        return None
    kept: np.ndarray = classified & visible.astype(bool)
    return kept


def listing_of(page: ParsedPage, decision: BlockDecision) -> Listing | None:
    """The page's listing (its teasers and their blocks), ``None`` when it is no listing."""
    signals = decision.analysis.signals
    findings = PageFindings(signals.roles.near, decision.content, signals.words,
                            decision.best_subtree)  # fmt: skip
    return find_listing(page.view, findings, page.url, decision.kinds.teasers)


@dataclass(frozen=True, slots=True)
class ShownBlocks:
    """The blocks an article's text is made of, and the steps after :meth:`decide` that
    added them to the decision's ``content`` or dropped them."""

    mask: np.ndarray  #: the blocks shown, in document order
    kind: PageKind  #: the page's kind (``empty`` is decided later, on the body)
    listing: Listing | None  #: its items' titles and teasers replace what was kept inside
    thread: Thread | None  #: a forum thread's posts are shown whatever the classifier said
    specification: np.ndarray | None  #: a product's key-value tables, shown too
    links_only: bool  #: the shown blocks were links alone: nothing is shown


def shown_blocks(page: ParsedPage, decision: BlockDecision, listing: Listing | None) -> ShownBlocks:
    """What the article shows of a page: the decision's ``content``, or a listing's items,
    plus a forum thread's posts or a product's specification table (less its customers'
    reviews); side boxes (asides, footers, the author's box) and figure captions leave a
    page that is one piece of content."""
    kind = _page_kind(decision.kinds.guess, listing is not None)
    shown = listing.text_blocks(decision.content) if listing else decision.content
    thread = find_thread(page.view) if kind is PageKind.FORUM else None
    if thread is not None:
        shown = shown | thread.blocks
    specification = None
    if kind is PageKind.PRODUCT:
        specification = specification_blocks(page.view, decision.best_subtree)
        shown = (shown | specification) & ~review_blocks(page.view, decision.best_subtree)
    if kind in SINGLE_KINDS:
        shown = _single_page_blocks(page, decision, shown)
    links_only = listing is None and _link_words_only(decision.analysis.signals, shown)
    if links_only:
        shown = np.zeros_like(shown)  # links alone are navigation, not content
    return ShownBlocks(shown, kind, listing, thread, specification, links_only)


def _single_page_blocks(page: ParsedPage, decision: BlockDecision, shown: np.ndarray) -> np.ndarray:
    """The shown blocks of one piece of content (an article, a thread, a product ...) less
    its side boxes (``<aside>``, ``<footer>``, the box about its author) and its figure
    captions. A box that holds the body subtree stays, and so does one that holds the
    title block and most of the shown words (an early HTML5 ``<aside class="blogPost">``);
    a title block alone does not keep its box: it may be a sidebar's link to the post."""
    words = decision.analysis.signals.words
    boxes = _side_boxes(page.view, decision.best_subtree, -1)
    if decision.title_block >= 0 and boxes[decision.title_block]:
        spared = _side_boxes(page.view, decision.best_subtree, decision.title_block)
        if 2 * words[shown & boxes & ~spared].sum() > words[shown].sum():
            boxes = spared  # the box holds the headline and most of the text: the post
    return without_captions(page.view, shown & ~boxes, words)


def _side_boxes(view: BlockView, body: int, title: int) -> np.ndarray:
    """The blocks of the side boxes and author boxes that hold neither the body subtree
    nor the title block (``-1``: none)."""
    named = named_box_blocks(view, body, SIDE_BOX_WORDS, title)
    found: np.ndarray = named | tagged_box_blocks(view, body, SIDE_TAGS, title)
    return found


@dataclass(frozen=True, slots=True)
class _Found:
    """What the page-level stages found besides the kept blocks."""

    listing: Listing | None
    guess: KindGuess
    comments: tuple[Comment, ...]


#: Kinds of pages that are one piece of content (not a list of other pages).
SINGLE_KINDS = (PageKind.ARTICLE, PageKind.FORUM, PageKind.PRODUCT, PageKind.SERVICE,
                PageKind.DOCUMENTATION)  # fmt: skip


#: A body with fewer words outside links than this is a menu the block stage kept, not
#: content (the DiffPost paper drops elements with too little non-anchor text).
MIN_NON_LINK_WORDS = 3


def _link_words_only(signals: PageSignals, shown: np.ndarray) -> bool:
    words = signals.words[shown]
    if not len(words):
        return False
    return float((words * (1.0 - signals.link[shown])).sum()) < MIN_NON_LINK_WORDS


def _page_kind(guess: KindGuess, listed: bool) -> PageKind:
    """The page's kind: a list of items only where the listing check found its items (the
    classifier picks listing or collection), else the most probable single-content kind
    (a page whose body comes out empty is made ``empty`` after)."""
    if listed:
        collection = guess.scores.get("collection", 0.0) > guess.scores.get("listing", 0.0)
        return PageKind.COLLECTION if collection else PageKind.LISTING
    single = [k for k in SINGLE_KINDS if k.value in guess.scores]
    if not single:
        return PageKind.ARTICLE
    return max(single, key=lambda k: guess.scores[k.value])


def _with_metadata(
    article: Article, meta: PageMetadata | None, title_source: FieldSource | None
) -> Article:
    """The article with the metadata stage's fields and their provenance."""
    sources = tuple(s for s in (meta.sources if meta else ()) if s.field != "title")
    if title_source is not None:
        sources = (title_source, *sources)
    if meta is None:
        return replace(article, sources=sources)
    return replace(
        article, authors=meta.authors, published=meta.published, updated=meta.updated,
        tags=meta.tags, language=meta.language, canonical_url=meta.canonical_url,
        site_name=meta.site_name, image=meta.image, description=meta.description,
        sources=sources,
    )  # fmt: skip


#: The provenance detail of a date read off the date line near the title.
DATE_LINE = "date line near the title"


def _with_date(
    page: ParsedPage, decision: BlockDecision, meta: PageMetadata, htmldate: bool
) -> PageMetadata:
    """Fill an undeclared publication date from the date line near the title, else (when
    asked) from htmldate's markup search, which parses the page again; a declared date the
    page never shows yields to the one its date line shows."""
    if meta.published is not None:
        return _shown_over_declared(page, decision, meta, meta.published)
    found = date_near_title(page.view, decision.analysis.signals, _date_anchors(decision))
    source = FieldSource("published", "dom", DATE_LINE)
    if found is None and htmldate:
        found = htmldate_published(page.decoded.text, page.url)
        source = FieldSource("published", "htmldate", "find_date")
    if found is None:
        return meta
    return replace(meta, published=found, sources=(*meta.sources, source))


def _shown_over_declared(
    page: ParsedPage, decision: BlockDecision, meta: PageMetadata, declared: datetime
) -> PageMetadata:
    """The date the post's date line shows, when the page declares another day it writes
    nowhere: a CMS that keeps the first draft's ``datePublished`` under a post it re-dated
    ("November 21, 2025" under the headline, 2019 in the JSON-LD) or a date stamped by the
    page's builder. A declared moment the page also writes, a day off or day and month
    swapped, stays."""
    anchors = _date_anchors(decision)
    shown = shown_date_line(page.view, decision.analysis.signals, anchors)
    if shown is None or same_day_loosely(declared, shown) or writes_day(page.view, declared):
        return meta
    kept = tuple(s for s in meta.sources if s.field != "published")
    source = FieldSource("published", "dom", SHOWN_DATE_LINE)
    return replace(meta, published=shown, sources=(*kept, source))


#: The provenance detail of a shown date that overrode a declared one.
SHOWN_DATE_LINE = "date line near the title, over a declared day the page never shows"
#: Where a publication date was guessed rather than declared by the page.
GUESSED_DATES = frozenset(
    {("dom", DATE_LINE), ("dom", SHOWN_DATE_LINE), ("htmldate", "find_date")}
)


def _thread_date(meta: PageMetadata | None, thread: Thread) -> PageMetadata | None:
    """A forum thread's date is its opening post's, unless the page declares one: a date
    line near the title may be a reply's, htmldate's guess anything on the page."""
    first = thread.posts[0].published if thread.posts else None
    if meta is None or first is None:
        return meta
    sources = [s for s in meta.sources if s.field == "published"]
    if sources and (sources[-1].source, sources[-1].detail) not in GUESSED_DATES:
        return meta
    kept = tuple(s for s in meta.sources if s.field != "published")
    source = FieldSource("published", "dom", "the thread's first post")
    return replace(meta, published=first, sources=(*kept, source))


def _date_anchors(decision: BlockDecision) -> DateAnchors:
    """The title block and the body's first and last kept blocks."""
    kept = np.flatnonzero(decision.content)
    if not len(kept):
        return DateAnchors(decision.title_block)
    return DateAnchors(decision.title_block, int(kept[0]), int(kept[-1]))


def _confidence(decision: BlockDecision) -> float:
    """Word-weighted mean certainty of the keep/drop decisions (0.5 = coin toss, 1 = sure)."""
    words = decision.analysis.signals.words
    if not words.sum():
        return 0.0
    certainty = np.abs(decision.scores - 0.5) * 2
    return float((certainty * words).sum() / words.sum())


def _repeated(
    page: ParsedPage, analysis: PageAnalysis, scores: np.ndarray, body: int, kept: np.ndarray
) -> np.ndarray:
    """The blocks that join a ``kept`` block of their template, inside the ``body`` subtree
    (:mod:`~feedsift.extractors.repeats`)."""
    table, signals = analysis.table, analysis.signals
    span = (int(table.first[body]), int(table.last[body])) if body >= 0 else None
    candidates = repeat_candidates(scores, signals.link, span)
    return repeated_blocks(page.view.subtrees, signals.owner, kept, candidates)

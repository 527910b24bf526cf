"""Why each text block of a page is in its article or not: the page-level extractor's
decisions, block by block, with the step that made each one.

:meth:`LearnedPageExtractor.decide` builds the body in steps (recorded in its
:class:`~feedsift.extractors.page.BlockTrace`): the block classifier keeps the blocks whose
content probability reaches the threshold; the blocks inside the page's ``<nav>`` leave
it (:mod:`~feedsift.extractors.navigation`); with ``drop_unshown`` and a rendered layout,
the blocks the page does not show leave it; with ``drop_after_visual_end`` and a rendered
layout, on a page without a post-end phrase after the title, the blocks after the post's
visual end leave it; the title block leaves the body (the title is a
field of its own); bylines, post-end phrases and stray labels are tidied out; on an article
the blocks of a list of comments go. Then the article shows, besides or instead of these,
a listing's item titles and teasers, a forum thread's posts or a product's specification
table, and nothing when the body is links alone. :func:`explain_page` names, for every
block, the last of these steps that changed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.page import (
    BlockDecision,
    BlockTrace,
    LearnedPageExtractor,
    ShownBlocks,
    listing_of,
    shown_blocks,
)
from feedsift.outputs.serialize import JsonValue, article_to_dict, to_json
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, FieldSource

__all__ = [
    "BlockExplanation",
    "BlockRole",
    "DecisionStage",
    "PageExplanation",
    "explain_page",
    "explanation_text",
    "explanation_to_dict",
]

#: The step that decided a block, in the order they run.
DecisionStage = Literal[
    "block classifier", "repeated template", "navigation", "not shown", "visual end",
    "title block", "tidy", "comment list", "listing items", "forum thread",
    "product specification", "side boxes", "links only",
]  # fmt: skip
#: What a block is to the article.
BlockRole = Literal["body", "title", "comment", "listing item", "thread post", "removed"]
#: Characters of a block's text in :func:`explanation_text`.
TEXT_PREVIEW = 80


@dataclass(frozen=True, slots=True)
class BlockExplanation:
    """One text block: whether the article shows it, and which step decided."""

    index: int
    text: str
    tag: str  #: the tag of the block's owner element
    path: str  #: the owner's XPath (``/html/body/article/p[2]``)
    kept: bool  #: in the article's body (or its listing or thread text) as extracted
    role: BlockRole
    stage: DecisionStage
    score: float  #: the block classifier's content probability
    threshold: float  #: from which the classifier keeps a block
    reason: str  #: the decision in words
    #: the classifier's first look, before the second look's blend (docs/model.md; equal
    #: to ``score`` with a bundle that has no second look)
    first_score: float | None = None

    @property
    def decision(self) -> str:
        """"KEPT" (in the body), "TITLE" (out of the body as the title field) or "removed"."""
        if self.kept:
            return "KEPT"
        return "TITLE" if self.role == "title" else "removed"


@dataclass(frozen=True, slots=True)
class PageExplanation:
    """A page's article and the decision on each of its blocks, in document order."""

    article: Article  #: what ``extractor.extract(page, options)`` returns
    kind: str  #: the kind classifier's guess (the article's kind may differ: listing, empty)
    kind_confidence: float
    title_block: int  #: -1 when no block was chosen
    title_score: float
    best_subtree: int  #: the body subtree the block stage read (-1 when none)
    best_subtree_path: str | None
    threshold: float
    blocks: tuple[BlockExplanation, ...]

    @property
    def sources(self) -> tuple[FieldSource, ...]:
        """Where each metadata field of the article came from."""
        return self.article.sources


def explain_page(
    extractor: LearnedPageExtractor, page: ParsedPage, options: ExtractOptions | None = None
) -> PageExplanation:
    """The article of ``page`` and why each block is in it or not."""
    options = options or ExtractOptions()
    decision = extractor.decide(page)
    article = extractor.extract_decided(page, decision, options)
    listing = listing_of(page, decision) if options.detect_listings else None
    shown = shown_blocks(page, decision, listing)
    trace = decision.trace
    if trace is None:  # decide always records one
        raise ValueError("the decision carries no trace")
    threshold = trace.threshold
    blocks = tuple(_block(page, decision, (trace, shown), threshold, i)
                   for i in range(len(page.view.blocks)))  # fmt: skip
    guess = decision.kinds.guess
    return PageExplanation(
        article, guess.kind, guess.confidence, decision.title_block, decision.title_score,
        decision.best_subtree, _subtree_path(page, decision.best_subtree), threshold, blocks,
    )  # fmt: skip


def _subtree_path(page: ParsedPage, subtree: int) -> str | None:
    if subtree < 0:
        return None
    element = page.view.subtrees[subtree].element
    return str(element.getroottree().getpath(element))


def _block(
    page: ParsedPage, decision: BlockDecision, steps: tuple[BlockTrace, ShownBlocks],
    threshold: float, i: int,
) -> BlockExplanation:  # fmt: skip
    trace, shown = steps
    block = page.view.blocks[i]
    kept = bool(shown.mask[i])
    stage = _shown_stage(shown, decision.content, i) or _decided_stage(trace, decision.content, i)
    role = _role(decision, shown, stage, i)
    score = float(decision.scores[i])
    reason = _reason(stage, kept, score, threshold)
    first = None if trace.first_look is None else float(trace.first_look[i])
    return BlockExplanation(i, block.text, block.tag, block.dom_path(), kept, role, stage,
                            score, threshold, reason, first)  # fmt: skip


def _decided_stage(trace: BlockTrace, content: np.ndarray, i: int) -> DecisionStage:
    """The step of :meth:`~LearnedPageExtractor.decide` that settled block ``i``: the first
    whose mask drops it (a step that is off has no mask), else the classifier's keep."""
    steps: tuple[tuple[np.ndarray | None, DecisionStage], ...] = (
        (trace.repeated, "block classifier"), (trace.navigated, "navigation"),
        (trace.shown, "not shown"), (trace.visual_end, "visual end"),
        (trace.untitled, "title block"), (trace.tidied, "tidy"), (content, "comment list"),
    )  # fmt: skip
    for mask, stage in steps:
        if mask is not None and not mask[i]:
            return stage
    return "block classifier" if trace.classified[i] else "repeated template"


def _shown_stage(shown: ShownBlocks, content: np.ndarray, i: int) -> DecisionStage | None:
    """The step after the decision that added or dropped block ``i`` (``None``: none)."""
    if bool(shown.mask[i]) == bool(content[i]):
        return None
    if shown.links_only:
        return "links only"
    if shown.listing is not None and shown.listing.item_blocks[i]:
        return "listing items"
    if not shown.mask[i]:  # a single page's side box, even inside a forum post
        return "side boxes"
    if shown.thread is not None and shown.thread.blocks[i]:
        return "forum thread"
    return "product specification"


def _role(decision: BlockDecision, shown: ShownBlocks, stage: DecisionStage, i: int) -> BlockRole:
    if shown.listing is not None and shown.listing.teaser_blocks[i] and shown.mask[i]:
        return "listing item"
    if shown.thread is not None and shown.thread.blocks[i] and shown.mask[i]:
        return "thread post"
    if i == decision.title_block:
        return "title"
    if shown.mask[i]:
        return "body"
    return "comment" if stage == "comment list" else "removed"


#: The reason of a decision by each step but the classifier's, when kept and when removed.
_REASONS: dict[DecisionStage, tuple[str, str]] = {
    "repeated template": ("kept: written from the template of a kept block (its list's "
                          "other items)", ""),
    "navigation": ("", "removed: inside the page's <nav> (navigation)"),
    "not shown": ("", "removed: the rendered page does not show it"),
    "visual end": ("", "removed: after the post's visual end (no post-end phrase after the "
                       "title; the rendered page's visual blocks)"),
    "title block": ("", "removed: the title is a field of its own"),
    "tidy": ("", "removed: a byline, post-end phrase or stray label (ad, 'read more')"),
    "comment list": ("", "removed: inside a list of comments (comments are a field)"),
    "listing items": ("kept: a listed item's title or teaser",
                      "removed: inside a listed item, not its title or teaser"),
    "forum thread": ("kept: part of a post of the forum thread", ""),
    "product specification": ("kept: in the product's specification table", ""),
    "side boxes": ("", "removed: a figure caption, or in an <aside>, a <footer> or a box "
                       "of customers' reviews, about the author or asking cookie consent"),
    "links only": ("", "removed: the body was links alone (navigation, not content)"),
}  # fmt: skip


def _reason(stage: DecisionStage, kept: bool, score: float, threshold: float) -> str:
    if stage == "block classifier":
        shown, limit = _digits(score, threshold)
        if kept:
            return f"kept: content score {shown} >= {limit}"
        return f"removed: content score {shown} < {limit}"
    return _REASONS[stage][0 if kept else 1]


def _digits(score: float, threshold: float) -> tuple[str, str]:
    """Score and threshold with two decimals, or three where two would look equal (a score
    of 0.398 against 0.40 reads "0.398 < 0.400", not "0.40 < 0.40")."""
    shown, limit = f"{score:.2f}", f"{threshold:.2f}"
    if shown == limit and score != threshold:
        shown, limit = f"{score:.3f}", f"{threshold:.3f}"
    return shown, limit


# --- output ------------------------------------------------------------------------------


def explanation_to_dict(explanation: PageExplanation) -> dict[str, JsonValue]:
    """The explanation as JSON-safe data: the page's findings, the article, the blocks."""
    return {
        "kind": explanation.kind,
        "kind_confidence": explanation.kind_confidence,
        "title_block": explanation.title_block,
        "title_score": explanation.title_score,
        "best_subtree": explanation.best_subtree,
        "best_subtree_path": explanation.best_subtree_path,
        "threshold": explanation.threshold,
        "kept_blocks": sum(b.kept for b in explanation.blocks),
        "sources": to_json(explanation.sources),
        "article": article_to_dict(explanation.article),
        "blocks": [to_json(block) for block in explanation.blocks],
    }


def explanation_text(explanation: PageExplanation) -> str:
    """The explanation as a readable table: the page's findings, then a line per block."""
    article = explanation.article
    kept = sum(b.kept for b in explanation.blocks)
    lines = [
        f"url:       {article.url or '-'}",
        f"kind:      {article.kind.value} (classifier: {explanation.kind} "
        f"{explanation.kind_confidence:.2f})",
        f"title:     {article.title or '-'} (title block {explanation.title_block}, "
        f"score {explanation.title_score:.2f})",
        f"body:      subtree {explanation.best_subtree} {explanation.best_subtree_path or ''}",
        *(f"source:    {s.field} <- {s.source} {s.detail}".rstrip() for s in article.sources),
        f"blocks:    {kept} of {len(explanation.blocks)} kept; threshold "
        f"{explanation.threshold:.2f}",
        "",
        f"{'#':>4}  {'decision':<8} {'stage':<21} {'score':>5}  {'role':<12} reason | text",
    ]
    lines.extend(_block_line(block) for block in explanation.blocks)
    return "\n".join(lines) + "\n"


def _block_line(block: BlockExplanation) -> str:
    text = block.text if len(block.text) <= TEXT_PREVIEW else block.text[: TEXT_PREVIEW - 1] + "…"
    return (f"{block.index:>4}  {block.decision:<8} {block.stage:<21} {block.score:>5.2f}  "
            f"{block.role:<12} {block.reason} | {text}")  # fmt: skip

"""Training examples: one gold page turned into labelled feature inputs.

The lxml tree is dropped once the signals are computed, so thousands of examples fit in
memory and travel between worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from feedsift.evaluation.datasets import GoldPage, read_page_html
from feedsift.extractors.comments import comment_list_blocks
from feedsift.extractors.kinds import kind_features
from feedsift.extractors.listing import teaser_list
from feedsift.extractors.pipeline import analyse_page
from feedsift.extractors.ranges import SubtreeTable
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.titles import title_match
from feedsift.metadata import PageMetadata, read_metadata
from feedsift.parsing.page import parse_page
from feedsift.training.align import CONTENT_SHARE, align_blocks, label_from_snippets
from feedsift.training.silver import silver_title

__all__ = ["PageExample", "build_example"]

#: Label value of blocks whose status the gold does not tell (snippet gold).
UNKNOWN = -1


@dataclass(frozen=True, slots=True)
class PageExample:
    """Everything training needs from one gold page (numpy and strings only)."""

    dataset: str
    page_id: str
    url: str | None
    signals: PageSignals
    table: SubtreeTable
    subtree_tags: tuple[str, ...]
    title_index: np.ndarray
    title_features: np.ndarray
    title_labels: np.ndarray  #: per title candidate: match with the gold title (0..1), or empty
    labels: np.ndarray  #: per block: 1 content, 0 boilerplate, -1 unknown
    block_texts: tuple[str, ...]
    gold_text: str | None
    gold_title: str | None
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]
    meta: PageMetadata
    kind_features: np.ndarray  #: the page-kind classifier's row
    page_type: str | None = None  #: the gold set's kind of page, where it says one
    site: str | None = None
    title_is_silver: bool = False  #: ``gold_title`` read off the gold text (training.silver)


#: Page types whose replies are the content (elsewhere a list of comments is a field).
THREAD_TYPES = frozenset({"forum"})


def _labels(texts: list[str], gold: GoldPage) -> np.ndarray:
    if gold.text:
        shares = align_blocks(texts, gold.text).shares
        return np.array([s >= CONTENT_SHARE for s in shares], dtype=np.int64)
    found = label_from_snippets(texts, gold.with_snippets, gold.without_snippets)
    return np.array([UNKNOWN if f is None else int(f) for f in found], dtype=np.int64)


def contract_labels(labels: np.ndarray, comments: np.ndarray, page_type: str | None) -> np.ndarray:
    """The gold labels as feedsift's output reads them: the blocks of a list of comments
    are not body but the ``comments`` field, whatever the gold set did with them (CleanEval
    keeps 98% of comment words, Dragnet 1%), except on a forum thread, where the replies
    are the content. Extraction applies the same rule (``comments.comment_list_blocks``),
    so training on the sets' own choice only taught the classifier a contradiction."""
    if page_type in THREAD_TYPES:
        return labels
    return np.where(comments & (labels == 1), 0, labels)


def build_example(gold: GoldPage) -> PageExample:
    """Parse, analyse and label one gold page."""
    page = parse_page(read_page_html(gold.path), gold.url)
    analysis = analyse_page(page)
    evidence = teaser_list(page.view, analysis.signals.roles.near, page.url).evidence(page.view)
    texts = [b.text for b in page.view.blocks]
    cand = analysis.titles
    meta = read_metadata(page)
    title = gold.title
    if not title and gold.text:
        title = silver_title(gold.text, meta.title_candidates)
    if title:
        title_labels = np.array([title_match(texts[i], title) for i in cand.index])
    else:
        title_labels = np.zeros(0)
    return PageExample(
        dataset=gold.dataset,
        page_id=gold.id,
        url=gold.url,
        signals=analysis.signals,
        table=analysis.table,
        subtree_tags=analysis.subtree_tags,
        title_index=cand.index,
        title_features=cand.features,
        title_labels=title_labels,
        labels=contract_labels(_labels(texts, gold),
                               comment_list_blocks(page.view, analysis.signals), gold.page_type),
        block_texts=tuple(texts),
        gold_text=gold.text,
        gold_title=title,
        with_snippets=gold.with_snippets,
        without_snippets=gold.without_snippets,
        meta=meta,
        kind_features=kind_features(page, analysis.signals, evidence),
        page_type=gold.page_type,
        site=gold.site,
        title_is_silver=bool(title) and not gold.title,
    )

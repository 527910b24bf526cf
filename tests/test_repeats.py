"""Blocks written from the template of a kept block join it: the rest of a list that the
block classifier began (listicle entries, feature lists, a thread's posts)."""

from __future__ import annotations

import copy

import numpy as np

from feedsift.api import bundled_extractor
from feedsift.extractors.explain import explain_page
from feedsift.extractors.pipeline import analyse_page
from feedsift.extractors.repeats import (
    REPEAT_MAX_LINK_SHARE,
    REPEAT_MIN_SCORE,
    repeat_candidates,
    repeated_blocks,
    template_ids,
)
from feedsift.parsing.page import ParsedPage, parse_page

_ITEM = "Entry {} of the list tells what the place offers and why readers liked it."


def _page() -> ParsedPage:
    """Blocks: intro, 4 entries of ``div.entry > p``, 2 of ``div.pair > p``, 3 of
    ``div.other > p`` (a different class: another template)."""
    entries = "".join(f'<div class="entry"><p>{_ITEM.format(i)}</p></div>' for i in range(4))
    pairs = "".join(f'<div class="pair"><p>{_ITEM.format(i)}</p></div>' for i in range(2))
    others = "".join(f'<div class="other"><p>{_ITEM.format(i)}</p></div>' for i in range(3))
    main = f"<main><p>The intro of the list.</p>{entries}{pairs}{others}</main>"
    return parse_page(f"<html><body>{main}</body></html>".encode(), "http://list.test/best")


def _block_templates(page: ParsedPage) -> tuple[np.ndarray, np.ndarray]:
    """Each block's template and its owner subtree."""
    owner = analyse_page(page).signals.owner
    return template_ids(page.view.subtrees)[owner], owner


def test_blocks_of_one_chain_of_tags_and_classes_share_a_template() -> None:
    page = _page()
    templates, _ = _block_templates(page)
    assert len(templates) == 10
    entries, pairs, others = templates[1:5], templates[5:7], templates[7:10]
    assert len(set(entries)) == len(set(pairs)) == len(set(others)) == 1
    assert len({entries[0], pairs[0], others[0], templates[0]}) == 4


def _joined(kept_at: list[int], candidates: np.ndarray | None = None) -> list[int]:
    page = _page()
    _, owner = _block_templates(page)
    kept = np.zeros(10, dtype=bool)
    kept[kept_at] = True
    if candidates is None:
        candidates = np.ones(10, dtype=bool)
    return np.flatnonzero(repeated_blocks(page.view.subtrees, owner, kept, candidates)).tolist()


def test_the_other_entries_of_a_kept_entry_join_it() -> None:
    assert _joined([0, 2]) == [1, 3, 4]


def test_a_pair_is_no_list_and_a_template_with_nothing_kept_stays_out() -> None:
    assert _joined([0, 5]) == []  # the pair's other block: a template of two blocks
    assert _joined([0]) == []  # nothing kept among the entries or the others


def test_only_candidates_join() -> None:
    candidates = np.ones(10, dtype=bool)
    candidates[3] = False
    assert _joined([1], candidates) == [2, 4]


def test_candidates_are_prose_in_the_body_that_the_classifier_half_believes() -> None:
    scores = np.array([0.9, REPEAT_MIN_SCORE, REPEAT_MIN_SCORE - 0.01, 0.3, 0.3])
    links = np.array([0.0, 0.0, 0.0, REPEAT_MAX_LINK_SHARE, 0.1])
    assert repeat_candidates(scores, links, (0, 3)).tolist() == [True, True, False, False, False]
    assert not repeat_candidates(scores, links, None).any()


_ENTRY = (
    "Entry {} of the list: the {} studio teaches design in twelve weeks, with projects for "
    "real clients, a portfolio review at the end and a mentor who answers every evening."
)


def _listicle() -> ParsedPage:
    cards = "".join(
        f'<article class="card"><h3><a href="/c{i}">Course {i}</a></h3>'
        f'<div class="card-body"><p>{_ENTRY.format(i, word)}</p></div></article>'
        for i, word in enumerate(["small", "large", "old", "new", "busy", "quiet"])
    )
    intro = "<p>" + "A course is a good way into a new career, and the city has many. " * 3
    html = (
        "<html><head><title>The best design courses</title></head><body>"
        f"<main><h1>The best design courses in town</h1>{intro}</p>{cards}</main></body></html>"
    )
    return parse_page(html.encode(), "http://courses.test/best")


def test_explain_names_the_entries_that_joined_a_kept_one() -> None:
    page = _listicle()
    extractor = copy.copy(bundled_extractor())
    scores = extractor.decide(page).scores
    entries = [i for i, b in enumerate(page.view.blocks) if b.text.startswith("Entry")]
    # a threshold that keeps the best-scored half of the entries only
    extractor.threshold = extractor.article_threshold = float(np.median(scores[entries]))
    explained = explain_page(extractor, page)
    stages = {explained.blocks[i].stage for i in entries}
    assert stages == {"block classifier", "repeated template"}
    assert all(explained.blocks[i].kept for i in entries)
    assert all(_ENTRY.format(i, "x")[:9] in explained.article.text for i in range(6))

"""``feedsift.extractors.explain``: every block of a page with the step that kept or
removed it, and the same article as ``extract`` (the trace costs the output nothing)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from feedsift.api import bundled_extractor
from feedsift.extractors.base import ExtractOptions
from feedsift.extractors.explain import (
    PageExplanation,
    explain_page,
    explanation_text,
    explanation_to_dict,
)
from feedsift.extractors.model import ModelBundle
from feedsift.extractors.page import DEFAULT_ARTICLE_BLOCK_THRESHOLD, LearnedPageExtractor
from feedsift.parsing.page import parse_page
from feedsift.records import PageKind

URL = "https://coast.example.org/2024/keepers-log/"
PARAGRAPHS = (
    "Every lighthouse kept a log book in which the keepers wrote the time of each lamp "
    "change, the weather at dusk and at dawn, and every ship that passed close enough.",
    "The books were collected each spring by the district inspector, who read them by the "
    "fire of the keepers' kitchen and signed the last page before he left.",
    "Some of them survive in the county archive, their pages stiff with salt, and tell of "
    "storms that no newspaper of the time thought worth a line.",
)
COMMENTS = (
    "Lovely piece, my grandfather kept one of these logs on the northern coast.",
    "Is the county archive open to visitors on weekends, or only by appointment?",
)
ARTICLE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
    "<title>The keepers' log | Coast Notes</title></head><body>"
    '<nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/archive/">Archive</a>'
    "</nav><article><h1>The keepers' log</h1>"
    '<p class="byline">By Ada Lovelace, 3 May 2024</p>'
    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    + '</article><div id="comments"><ol class="comment-list">'
    + "".join(
        f'<li class="comment"><div class="comment-author vcard"><b class="fn">Reader {n}</b>'
        f' says:</div><div class="comment-content"><p>{text}</p></div></li>'
        for n, text in enumerate(COMMENTS)
    )
    + '</ol></div><footer><p>Share this post</p><a href="/privacy/">Privacy</a></footer>'
    "</body></html>"
)
FORUM = Path(__file__).parent / "fixtures" / "kinds" / "forum-thread.html"
FORUM_URL = "https://forum.example.org/threads/which-soldering-iron.5521/"


def _explain(html: str | bytes, url: str, options: ExtractOptions | None = None) -> PageExplanation:
    page = parse_page(html, url)
    explanation = explain_page(bundled_extractor(), page, options)
    assert explanation.article == bundled_extractor().extract(page, options)
    return explanation


@pytest.fixture(scope="module")
def article() -> PageExplanation:
    return _explain(ARTICLE, URL)


def _block(explanation: PageExplanation, text: str) -> int:
    return next(b.index for b in explanation.blocks if b.text.startswith(text))


def test_the_explained_article_is_the_extracted_one(article: PageExplanation) -> None:
    assert article.article.title == "The keepers' log"
    assert [b.index for b in article.blocks] == list(range(len(article.blocks)))
    kept_text = " ".join(b.text for b in article.blocks if b.kept)
    assert all(p in article.article.text and p in kept_text for p in PARAGRAPHS)
    assert article.sources == article.article.sources and article.sources
    assert article.kind == "article" and 0.0 < article.kind_confidence <= 1.0
    with_comments = _explain(ARTICLE, URL, ExtractOptions(include_comments=True))
    assert len(with_comments.article.comments) == len(COMMENTS)


def test_body_paragraphs_are_kept_by_the_block_classifier(article: PageExplanation) -> None:
    for paragraph in PARAGRAPHS:
        block = article.blocks[_block(article, paragraph[:40])]
        assert block.kept and block.role == "body" and block.stage == "block classifier"
        assert block.score >= block.threshold == article.threshold
        assert block.reason == f"kept: content score {block.score:.2f} >= {block.threshold:.2f}"
        assert block.tag == "p" and block.path.startswith("/html/body/article/p")


def test_navigation_footer_and_comments_are_removed_with_a_reason(
    article: PageExplanation,
) -> None:
    for text in ("Home About Archive", "Share this post", "Privacy", COMMENTS[0]):
        block = article.blocks[_block(article, text)]
        assert not block.kept and block.role in ("removed", "comment")
        assert block.reason.startswith("removed: ")
        if block.stage == "block classifier":
            assert block.score < block.threshold and f"{block.score:.2f} <" in block.reason


def test_the_title_block_is_the_title(article: PageExplanation) -> None:
    title = article.blocks[article.title_block]
    assert title.text == "The keepers' log" and title.role == "title" and not title.kept
    assert title.stage == "title block" and "field of its own" in title.reason
    assert article.title_score > 0.5 and article.best_subtree_path == "/html/body/article"
    byline = article.blocks[_block(article, "By Ada Lovelace")]
    assert not byline.kept and byline.stage == "tidy"


def test_a_forum_threads_posts_are_shown_as_thread_posts() -> None:
    explanation = _explain(FORUM.read_bytes(), FORUM_URL)
    assert explanation.article.kind is PageKind.FORUM
    authors = [b for b in explanation.blocks if b.text in ("mira_k", "oldtimer")]
    assert authors and all(b.kept and b.role == "thread post" for b in authors)
    assert any(b.stage == "forum thread" for b in explanation.blocks)


def test_a_listings_items_are_shown_as_listing_items() -> None:
    html = files("feedsift").joinpath("examples", "blog-home.html").read_bytes()
    explanation = _explain(html, "https://blog.example.org/")
    assert explanation.article.kind.lists_items
    items = [b for b in explanation.blocks if b.role == "listing item"]
    assert items and all(b.kept for b in items)
    assert {post.title for post in explanation.article.posts} <= {b.text for b in items}


def test_the_trace_records_each_step_and_leaves_the_decision_alone() -> None:
    page = parse_page(ARTICLE, URL)
    decision = bundled_extractor().decide(page)
    trace = decision.trace
    assert trace is not None
    extractor = bundled_extractor()
    assert trace.threshold == extractor.threshold_for(decision.kinds.guess)
    assert np.array_equal(trace.classified, decision.scores >= trace.threshold)
    assert not (trace.untitled & ~trace.classified).any()  # each step only removes
    assert not (trace.tidied & ~trace.untitled).any()
    assert not (decision.content & ~trace.tidied).any()
    assert trace.tidied is not decision.content


def test_the_explanation_as_text_and_json(article: PageExplanation) -> None:
    text = explanation_text(article)
    assert "KEPT" in text and "removed" in text and "block classifier" in text
    assert len(text.splitlines()) > len(article.blocks)
    data = explanation_to_dict(article)
    blocks = data["blocks"]
    assert isinstance(blocks, list) and len(blocks) == len(article.blocks)
    assert data["kept_blocks"] == sum(b.kept for b in article.blocks)
    article_data = data["article"]
    assert isinstance(article_data, dict) and article_data["title"] == "The keepers' log"


def test_a_score_next_to_the_threshold_reads_with_three_decimals() -> None:
    from feedsift.extractors.explain import _reason

    assert _reason("block classifier", False, 0.398, 0.4) == (
        "removed: content score 0.398 < 0.400"
    )
    assert _reason("block classifier", True, 0.9, 0.4) == "kept: content score 0.90 >= 0.40"


def test_each_block_shows_the_first_look_beside_the_blended_score(
    article: PageExplanation,
) -> None:
    """The bundled model has a second look, so a block's score is the mean of two looks
    and the first is shown apart; without the second look the two are the same number."""

    firsts = [b.first_score for b in article.blocks]
    assert all(f is not None and 0.0 <= f <= 1.0 for f in firsts)
    assert any(f != b.score for f, b in zip(firsts, article.blocks, strict=True))
    blocks = explanation_to_dict(article)["blocks"]
    assert isinstance(blocks, list)
    assert all(isinstance(b, dict) and "first_score" in b for b in blocks)
    bundle = bundled_extractor().bundle
    older = ModelBundle(bundle.version, {k: m for k, m in bundle.models.items()
                                         if k != "refine"}, bundle.info)  # fmt: skip
    alone = explain_page(LearnedPageExtractor(older), parse_page(ARTICLE, URL))
    assert all(b.first_score == b.score for b in alone.blocks)


def test_an_article_is_held_to_the_article_threshold_and_a_forum_to_the_other() -> None:
    article = explain_page(bundled_extractor(), parse_page(ARTICLE, URL))
    assert article.kind == "article"
    assert article.threshold == bundled_extractor().article_threshold
    forum = explain_page(bundled_extractor(), parse_page(FORUM.read_bytes(), FORUM_URL))
    assert forum.kind == "forum"
    assert forum.threshold == bundled_extractor().threshold < article.threshold


def test_the_bundle_sets_both_thresholds_and_an_older_one_gets_the_defaults() -> None:
    bundle = bundled_extractor().bundle
    assert bundled_extractor().threshold == bundle.info["block_threshold"] == 0.4
    assert bundled_extractor().article_threshold == bundle.info["article_block_threshold"]
    older = ModelBundle(bundle.version, bundle.models, {"block_threshold": 0.3})
    extractor = LearnedPageExtractor(older)
    assert extractor.threshold == 0.3
    assert extractor.article_threshold == DEFAULT_ARTICLE_BLOCK_THRESHOLD


def test_captions_asides_footers_and_author_boxes_are_removed_as_side_boxes() -> None:
    fact = (
        "The first lighthouse on this coast was lit in 1791 and burned whale oil for sixty years."
    )
    tags = (
        "This story is part of our series on the coast's working past, with letters from the "
        "keepers' families and the county archive's photographs of every light."
    )
    caption = "The lamp room at dusk, seen from the keepers' cottage. Photo: county archive"
    bio = (
        "Ann Reed writes about the coast's history and walks its cliffs every weekend with "
        "her two dogs and a notebook full of questions for the old keepers."
    )
    body = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    html = (
        f"<html><head><title>The keepers' log</title></head><body><article><h1>The keepers' "
        f"log</h1>{body}<figure><img src='/l.jpg' alt=''><figcaption>{caption}</figcaption>"
        f"</figure>{body.replace('log', 'journal')}<aside><p>{fact}</p></aside>"
        f"<div class='author-bio'><p>{bio}</p></div><footer><p>{tags}</p></footer>"
        "</article></body></html>"
    ).encode()
    explanation = _explain(html, URL)
    boxes = [b for b in explanation.blocks if b.text in (caption, bio, fact, tags)]
    assert len(boxes) == 4
    assert all(not b.kept and b.stage == "side boxes" and b.reason for b in boxes)
    assert all(b.text not in explanation.article.text for b in boxes)


def test_a_forum_posts_footer_is_a_side_box_not_a_thread_post() -> None:
    end = "twenty to three hundred pounds.</p>"
    footer = (
        "<footer class='signature'><p>My bench: a second-hand oscilloscope, a bench supply "
        "and far too many unfinished fuzz pedals waiting for the right transistors.</p></footer>"
    )
    html = FORUM.read_text().replace(end, end + footer, 1)
    explanation = _explain(html, FORUM_URL)
    assert explanation.article.kind is PageKind.FORUM
    signature = [b for b in explanation.blocks if b.text.startswith("My bench:")]
    assert signature and not signature[0].kept
    assert signature[0].stage == "side boxes" and signature[0].reason

"""Page kinds: the classifier's features, forum threads, listings as text, and the kind
each fixture page gets from the bundled model."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

import feedsift
from feedsift import PageKind
from feedsift.extractors.kinds import (
    KIND_FEATURE_NAMES,
    KIND_LABELS,
    ListingEvidence,
    guess_kind,
    kind_features,
    kind_label,
)
from feedsift.extractors.model import TreeEnsemble
from feedsift.extractors.pipeline import analyse_page
from feedsift.extractors.product import review_blocks
from feedsift.extractors.thread import find_thread
from feedsift.parsing.page import parse_page

KINDS = Path(__file__).parent / "fixtures" / "kinds"
FORUM_URL = "https://forum.example.org/threads/which-soldering-iron.5521/"


def _page(name: str) -> bytes:
    return (KINDS / name).read_bytes()


def test_kind_labels_fold_aliases() -> None:
    assert kind_label("blog") == "article"
    assert kind_label("Forum") == "forum"
    assert kind_label("recipe") is None and kind_label(None) is None


def test_kind_features_have_one_value_per_name() -> None:
    page = parse_page(_page("product.html"), "https://shop.example.org/p/trailmate-40/")
    signals = analyse_page(page).signals
    row = kind_features(page, signals, ListingEvidence())
    assert row.shape == (len(KIND_FEATURE_NAMES),)
    named = dict(zip(KIND_FEATURE_NAMES, row, strict=True))
    assert named["schema_product"] == 1.0 and named["og_product"] == 1.0
    assert named["url_product"] == 1.0 and named["prices"] > 0
    assert named["schema_forum"] == 0.0


def test_guess_kind_normalises_the_one_against_the_rest_scores() -> None:
    def constant(p: float) -> TreeEnsemble:  # no trees: every row gets the baseline
        logit = float(np.log(p / (1 - p)))
        return TreeEnsemble(np.zeros((0, 1), np.int64), np.zeros((0, 1)), np.zeros((0, 2)),
                            logit, 1, 3, "logistic")  # fmt: skip

    guess = guess_kind(np.zeros(3), {"article": constant(0.2), "forum": constant(0.6)})
    assert guess.kind == "forum"
    assert guess.confidence == pytest.approx(0.75)
    assert set(guess.scores) <= set(KIND_LABELS)


def test_thread_posts_in_order_with_authors_and_dates() -> None:
    page = parse_page(_page("forum-thread.html"), FORUM_URL)
    thread = find_thread(page.view)
    assert thread is not None
    assert [p.author for p in thread.posts] == ["mira_k", "oldtimer", "fluxqueen"]
    assert [p.published.day for p in thread.posts if p.published] == [3, 3, 4]
    assert thread.posts[0].text.startswith("I want to start repairing")
    assert "brass wool" in thread.posts[2].text
    assert all("Report" not in p.text.split("\n") for p in thread.posts)


def test_no_thread_on_a_single_article() -> None:
    blog = files("feedsift").joinpath("examples", "blog-post.html").read_bytes()
    assert find_thread(parse_page(blog).view) is None  # its paragraphs are no posts


def test_forum_thread_text_holds_every_post() -> None:
    article = feedsift.extract(_page("forum-thread.html"), FORUM_URL)
    assert article.kind is PageKind.FORUM
    assert 0.0 < article.provenance.kind_confidence <= 1.0
    for words in ("temperature controlled station", "cheapest station", "brass wool"):
        assert words in article.text
    assert [p.author for p in article.thread] == ["mira_k", "oldtimer", "fluxqueen"]
    assert "Privacy policy" not in article.text


def test_product_page_keeps_description_and_specifications() -> None:
    article = feedsift.extract(_page("product.html"), "https://shop.example.org/p/trailmate-40/")
    assert article.kind is PageKind.PRODUCT
    assert "ventilated back panel" in article.text
    assert "Recycled ripstop nylon" in article.text
    assert article.title == "Trailmate 40 L Hiking Backpack"
    assert "Cairngorms" not in article.text and "stitching" not in article.text  # reviews


def test_a_product_pages_aside_leaves_its_text() -> None:
    aside = (
        "<aside class='delivery-note'><p>Free delivery on orders over fifty pounds to every "
        "address in the mainland, with returns accepted for sixty days after the parcel "
        "reaches you.</p></aside>"
    )
    specs = ' <div class="specs">'
    html = _page("product.html").decode().replace(specs, aside + specs, 1)
    article = feedsift.extract(html.encode(), "https://shop.example.org/p/trailmate-40/")
    assert article.kind is PageKind.PRODUCT
    assert "ventilated back panel" in article.text and "Recycled ripstop nylon" in article.text
    assert "Free delivery" not in article.text


def test_a_review_box_that_holds_the_body_is_not_customers_reviews() -> None:
    html = """<html><body><div class="review-page"><article class="post">
    <h1>Trailmate 40 reviewed</h1><p>We took it up three hills.</p></article>
    <div class="user-reviews"><p>Great pack!</p></div></div></body></html>"""
    view = parse_page(html).view
    body = next(s.index for s in view.subtrees if s.element.get("class") == "post")
    dropped = [b.text for b, out in zip(view.blocks, review_blocks(view, body), strict=True) if out]
    assert dropped == ["Great pack!"]  # the page's own review stays, the readers' go
    assert len([b for b in review_blocks(view, -1) if b]) == 3  # no body: every box is one


def test_navigation_only_page_is_empty() -> None:
    article = feedsift.extract(_page("nav-only.html"), "https://council.example.org/sitemap/")
    assert article.kind is PageKind.EMPTY
    assert article.text == ""


def test_listing_text_is_its_items_in_order() -> None:
    html = files("feedsift").joinpath("examples", "blog-home.html").read_bytes()
    article = feedsift.extract(html, "https://blog.example.org/")
    assert article.kind.lists_items
    assert len(article.posts) >= 3
    positions = [article.text.find(post.title) for post in article.posts]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)
    assert all(post.text.split("\n")[0] in article.text for post in article.posts if post.text)


def test_a_title_area_beside_the_post_stream_is_not_the_thread() -> None:
    words = "the minimum supported version moved and nobody told the packagers about it"
    posts = "".join(
        f'<div class="topic-body"><span itemprop="author">user{n}</span>'
        f"<time datetime='2026-02-2{n}T10:00:00Z'>Feb 2{n}</time><p>{words} {n}</p></div>"
        for n in range(4)
    )
    html = (f'<html><body><div><div id="topic-title"><h1>{words}</h1><p>{words} {words}</p>'
            f"</div><div>{posts}</div></div></body></html>")  # fmt: skip
    thread = find_thread(parse_page(html).view)
    assert thread is not None
    assert [p.author for p in thread.posts] == ["user0", "user1", "user2", "user3"]


def test_a_threads_blocks_are_its_messages_and_who_wrote_them_when_not_their_cards() -> None:
    page = parse_page(_page("forum-thread.html"), FORUM_URL)
    thread = find_thread(page.view)
    assert thread is not None
    kept = [b.text for b, keep in zip(page.view.blocks, thread.blocks, strict=True) if keep]
    assert {"mira_k", "oldtimer", "fluxqueen"} <= set(kept)  # the line naming each author
    assert sum(text.startswith("Mar ") for text in kept) == 3  # each post's date line
    assert any(text.startswith("Buy the cheapest station") for text in kept)
    for card in ("New member", "Well-known member", "Joined Jun 2011 · Messages 8,211"):
        assert card not in kept

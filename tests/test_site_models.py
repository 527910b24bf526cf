"""SiteModels: URL Tree, DiffPost and the page level per site, chosen per field by the feed."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta

import pytest

from feedsift.api import bundled_extractor
from feedsift.errors import ModelError
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import FeedItem, FeedSample
from feedsift.sitelevel import SavedSite, SiteModels, SiteOptions
from feedsift.templates.learner import FeedTemplate

WORDS = ("river stone lantern orchard meadow harbor copper violet thunder ember quiet "
         "marble falcon willow summit canyon").split()  # fmt: skip
NAV = '<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/tags">Tags</a></nav>'
#: A box of template text inside the article container: the page level keeps it as body.
PROMO = (
    "<div class='newsletter'><p>Subscribe to our weekly letter and never miss a story from "
    "the harbour desk, delivered free every Sunday morning.</p><p>Join eleven thousand "
    "readers who already get it, and unsubscribe whenever you like.</p></div>"
)
#: The author's stock line, repeated from post to post among the post's own paragraphs.
SIGNOFF = "<p>Thanks for reading, and see you next week with more notes from the harbour.</p>"
NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def _story(n: int, length: int = 40) -> str:
    return " ".join(WORDS[(n * 7 + i * (n % 5 + 1)) % len(WORDS)] for i in range(length)) + "."


def _html(n: int) -> str:
    """Post ``n`` of the harbour blog: its article between the site's template boxes."""
    body = (f"<article><h1>Story number {n}</h1><p>{_story(n)}</p>{SIGNOFF}"
            f"<p>{_story(n + 50)}</p>{PROMO}</article>")  # fmt: skip
    return (f"<html><head><title>Story number {n}</title></head><body>{NAV}{body}"
            "<footer><p>Copyright the harbour desk, all rights reserved.</p></footer>"
            "</body></html>")  # fmt: skip


def _page(n: int, site: str = "harbour.example") -> ParsedPage:
    return parse_page(_html(n), f"https://{site}/posts/{n}/")


@pytest.fixture(scope="module")
def page_level() -> LearnedPageExtractor:
    return bundled_extractor()


def _item(n: int, site: str = "harbour.example", *, promo: bool = False) -> FeedItem:
    """The feed's item of ``_page(n)``: its title and the post's content (the newsletter
    box only when ``promo``: a feed that carries it too)."""
    content = f"<p>{_story(n)}</p>{SIGNOFF}<p>{_story(n + 50)}</p>{PROMO if promo else ''}"
    return FeedItem(f"https://{site}/posts/{n}/", f"Story number {n}", content=content,
                    published=NOW)  # fmt: skip


def test_without_feed_items_every_field_is_the_page_levels(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    articles = [models.process(_page(n), NOW, n + 1) for n in range(5)]
    assert [a.provenance.method for a in articles] == ["page"] * 5
    assert "Subscribe to our weekly letter" in articles[-1].text  # no check said drop it
    body = articles[-1].source_of("body")
    assert body is not None and "no feed item could check it" in body.detail
    learners = models.sites_["harbour.example"]
    assert learners.documents == 5 and learners.last_document == 5


def test_feed_items_choose_the_hybrid_that_drops_the_template_box(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    for n in range(5):
        article = models.process(_page(n), NOW, n + 1, item=_item(n))
    choice = models.sites_["harbour.example"].combiner.choice("body")
    assert choice.method.startswith("hybrid-") and choice.checks >= 3
    assert choice.score is not None and choice.page_score is not None
    assert choice.score > choice.page_score
    after = models.process(_page(5), NOW, 6)  # a page found otherwise: the same choice
    for made in (article, after):
        assert made.provenance.method == choice.method
        assert "Subscribe to our weekly letter" not in made.text
        assert "Thanks for reading" in made.text  # the author's repeated line stays
    assert _story(5)[:40] in after.text
    title = after.source_of("title")
    assert title is not None and title.detail.startswith("page:")  # a tie: the page level
    assert models.sites_["harbour.example"].memo.page is None  # no site keeps its last page


def test_a_feed_that_carries_the_box_keeps_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    for n in range(5):
        article = models.process(_page(n), NOW, n + 1, item=_item(n, promo=True))
    assert models.sites_["harbour.example"].combiner.choice("body").method == "page"
    assert article.provenance.method == "page"
    assert "Subscribe to our weekly letter" in article.text


def test_site_mode_uses_the_learner_alone(page_level: LearnedPageExtractor) -> None:
    models = SiteModels(page_level, SiteOptions(mode="site"))
    for n in range(6):
        article = models.process(_page(n), NOW, item=_item(n))
    assert article.provenance.method in ("urltree-strict", "diffpost")
    assert "Subscribe" not in article.text and "Home" not in article.text


def test_diffpost_is_checked_only_with_a_comparison_page_of_the_same_crawl(
    page_level: LearnedPageExtractor,
) -> None:
    old = SiteModels(page_level)
    old.learn(_page(0), NOW - timedelta(days=3))
    old.process(_page(1), NOW, item=_item(1))  # the only other page is another crawl's
    assert "hybrid-diffpost" not in old.sites_["harbour.example"].combiner.checks_
    models = SiteModels(page_level)
    models.learn(_page(0), NOW - timedelta(days=3))
    models.learn(_page(0), NOW)  # fetched again: a comparison page of this crawl
    assert models.sites_["harbour.example"].urltree.support(_page(9)) == 2  # 0 counted once
    models.process(_page(1), NOW, item=_item(1))
    assert len(models.sites_["harbour.example"].combiner.checks_["hybrid-diffpost"]["body"]) == 1


def test_a_replayed_page_checks_its_feed_item_again(page_level: LearnedPageExtractor) -> None:
    models = SiteModels(page_level)
    for n in range(4):
        models.learn(_page(n), NOW, n + 1, item=_item(n))
    assert models.sites_["harbour.example"].combiner.items_checked_ == 4


def test_sites_learn_apart_and_unknown_sites_get_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    for n in range(5):
        models.process(_page(n, "one.example"), NOW, item=_item(n, "one.example"))
    assert models.extract(_page(5, "one.example")).provenance.method.startswith("hybrid-")
    assert models.extract(_page(5, "two.example")).provenance.method == "page"
    assert models.process(_page(5, "two.example"), NOW).provenance.method == "page"


def test_saved_state_restores_the_same_extraction(page_level: LearnedPageExtractor) -> None:
    models = SiteModels(page_level)
    for n in range(5):
        models.process(_page(n), NOW, n + 1, item=_item(n))
    saved = models.save_site("harbour.example")
    restored = SiteModels(page_level)
    restored.restore_site(saved)
    assert restored.sites_["harbour.example"].last_document == 5
    assert restored.sites_["harbour.example"].combiner.choices_ == (
        models.sites_["harbour.example"].combiner.choices_)  # fmt: skip
    again = restored.process(_page(7), NOW, 8)
    assert again == models.process(_page(7), NOW, 8)


def test_a_state_saved_before_the_checks_keeps_its_learners(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    for n in range(4):
        models.process(_page(n), NOW, n + 1, item=_item(n))
    saved = models.save_site("harbour.example")
    payload = json.loads(gzip.decompress(saved.state))
    payload["schema"] = 1
    del payload["checks"]
    older = SavedSite(saved.site, gzip.compress(json.dumps(payload).encode()), 4, 4)
    restored = SiteModels(page_level)
    restored.restore_site(older)
    learners = restored.sites_["harbour.example"]
    assert learners.urltree.support(_page(9)) == 5 and learners.combiner.items_checked_ == 0


def test_state_of_another_schema_or_not_a_state_is_refused(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    models.process(_page(0), NOW)
    saved = models.save_site("harbour.example")
    payload = json.loads(gzip.decompress(saved.state))
    payload["schema"] = 99
    newer = SavedSite(saved.site, gzip.compress(json.dumps(payload).encode()), 1, 1)
    with pytest.raises(ModelError, match="schema 99"):
        models.restore_site(newer)
    with pytest.raises(ModelError, match="not a saved site state"):
        models.restore_site(SavedSite("harbour.example", b"junk", 1, 1))


def _template(numbers: range) -> bytes:
    """A feed template learned from the items and pages ``numbers`` of the harbour blog."""
    items = tuple(_item(n) for n in numbers)
    sample = FeedSample("https://harbour.example/feed.xml", "Harbour desk", items)
    pages = {item.url or "": _page(n) for n, item in zip(numbers, items, strict=True)}
    template = FeedTemplate().fit(sample, pages)
    assert template.is_fitted
    return template.to_bytes()


def test_the_feed_template_joins_the_checks_and_keeps_them_until_a_new_version(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    first = _template(range(0, 4))
    models.use_template("harbour.example", first)
    for n in range(4, 9):
        models.process(_page(n), NOW, n + 1, item=_item(n))
    learners = models.sites_["harbour.example"]
    assert len(learners.combiner.checks_["template"]["title"]) == 5
    assert learners.combiner.choice("title").checks >= 3
    restored = SiteModels(page_level)
    restored.restore_site(models.save_site("harbour.example"))
    restored.use_template("harbour.example", first)  # the same version: its checks stay
    assert len(restored.sites_["harbour.example"].combiner.checks_["template"]["title"]) == 5
    restored.use_template("harbour.example", _template(range(0, 6)))  # a new version
    assert "template" not in restored.sites_["harbour.example"].combiner.checks_
    restored.use_template("harbour.example", b"not a template")  # refused, nothing changes
    assert restored.sites_["harbour.example"].template is not None

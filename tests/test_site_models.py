"""SiteModels: the per-site choice between URL Tree, DiffPost and the page level."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta

import pytest

from feedsift.api import bundled_extractor
from feedsift.errors import ModelError
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.sitelevel import SavedSite, SiteModels, SiteOptions

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


def _page(n: int, site: str = "harbour.example") -> ParsedPage:
    body = (f"<article><h1>Story number {n}</h1><p>{_story(n)}</p>{SIGNOFF}"
            f"<p>{_story(n + 50)}</p>{PROMO}</article>")  # fmt: skip
    html = (f"<html><head><title>Story number {n}</title></head><body>{NAV}{body}"
            "<footer><p>Copyright the harbour desk, all rights reserved.</p></footer>"
            "</body></html>")  # fmt: skip
    return parse_page(html, f"https://{site}/posts/{n}/")


@pytest.fixture(scope="module")
def page_level() -> LearnedPageExtractor:
    return bundled_extractor()


def test_method_per_page_page_level_then_diffpost_then_url_tree(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    methods = [models.process(_page(n), NOW, n + 1).provenance.method for n in range(4)]
    assert methods == ["page", "hybrid-diffpost", "hybrid-urltree-strict", "hybrid-urltree-strict"]
    learners = models.sites_["harbour.example"]
    assert learners.documents == 4 and learners.last_document == 4


def test_hybrid_drops_the_template_box_and_keeps_the_authors_repeated_line(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    first = models.process(_page(0), NOW)
    assert "Subscribe to our weekly letter" in first.text  # the page level keeps the box
    for n in range(1, 5):
        article = models.process(_page(n), NOW)
    assert "Subscribe to our weekly letter" not in article.text
    assert "Thanks for reading" in article.text
    assert _story(4)[:40] in article.text


def test_site_mode_uses_the_learner_alone(page_level: LearnedPageExtractor) -> None:
    models = SiteModels(page_level, SiteOptions(mode="site"))
    for n in range(3):
        article = models.process(_page(n), NOW)
    assert article.provenance.method == "urltree-strict"
    assert "Subscribe" not in article.text and "Home" not in article.text


def test_diffpost_needs_a_comparison_page_of_the_same_crawl(
    page_level: LearnedPageExtractor,
) -> None:
    old = SiteModels(page_level)
    old.learn(_page(0), NOW - timedelta(days=3))
    assert old.process(_page(1), NOW).provenance.method == "page"  # another crawl's page
    models = SiteModels(page_level)
    models.learn(_page(0), NOW - timedelta(days=3))
    models.learn(_page(0), NOW)  # fetched again: a comparison page of this crawl
    assert models.sites_["harbour.example"].urltree.support(_page(9)) == 2  # 0 counted once
    assert models.process(_page(1), NOW).provenance.method == "hybrid-diffpost"


def test_sites_learn_apart_and_unknown_sites_get_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    models = SiteModels(page_level)
    for n in range(3):
        models.process(_page(n, "one.example"), NOW)
    assert models.extract(_page(5, "one.example")).provenance.method == "hybrid-urltree-strict"
    assert models.extract(_page(5, "two.example")).provenance.method == "page"
    assert models.process(_page(5, "two.example"), NOW).provenance.method == "page"


def test_saved_state_restores_the_same_extraction(page_level: LearnedPageExtractor) -> None:
    models = SiteModels(page_level)
    for n in range(5):
        models.process(_page(n), NOW, n + 1)
    saved = models.save_site("harbour.example")
    restored = SiteModels(page_level)
    restored.restore_site(saved)
    assert restored.sites_["harbour.example"].last_document == 5
    again = restored.process(_page(7), NOW, 8)
    assert again == models.process(_page(7), NOW, 8)


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

"""FieldCombiner (issue 17 part 2): per site and field, the method the feed's items confirm.

The generated blog of ``feedsite``: a feed template learns from four posts and is checked,
with the bundled page-level extractor, on later posts it did not learn from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.api import bundled_extractor
from feedsift.errors import ModelError, NotFittedError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, BodyPart, FeedItem, FeedSample, Provenance
from feedsift.saved_state import pack_state
from feedsift.sitelevel import combiner as combiner_module
from feedsift.sitelevel.combiner import (
    MIN_CHECKS,
    MIN_FULL_DESCRIPTION_WORDS,
    FieldCombiner,
    _end_tokens,
    checked_values,
    cross_fit,
    ends_score,
    field_scores,
    head_score,
    saved_choices,
)
from feedsift.sitelevel.diffpost import DiffPost
from feedsift.sitelevel.urltree import UrlTree
from feedsift.templates.feedvalues import ItemValues, item_values
from feedsift.templates.learner import FeedTemplate
from feedsift.text.overlap import lcs_prf
from feedsift.text.tokens import tokenize, tokenize_lower
from feedsite import Layout, Post, feed_sample, pages_of, post_page

LEARNED = [Post(n) for n in range(1, 5)]  #: the posts the template learns from
CHECKED = [Post(n) for n in range(5, 11)]  #: later posts, held out from the template
LATER = [Post(n) for n in range(11, 19)]  #: posts after a redesign
PLAIN, PROMO, SITE_HEAD = Layout(), Layout(promo=True), Layout(site_head=True)


@pytest.fixture(scope="module")
def page_level() -> LearnedPageExtractor:
    return bundled_extractor()


def _template(layout: Layout = PLAIN) -> FeedTemplate:
    return FeedTemplate().fit(feed_sample(LEARNED), pages_of(LEARNED, layout))


def _combiner(
    page_level: LearnedPageExtractor, template: FeedTemplate, layout: Layout,
    posts: list[Post] = CHECKED, full_content: bool = True,
) -> FieldCombiner:  # fmt: skip
    """A combiner checked on the whole feed (``LEARNED`` + ``posts``): the template is
    checked only on ``posts``, the ones it did not learn from."""
    everything = [*LEARNED, *posts]
    pages = {**pages_of(LEARNED, layout), **pages_of(posts, layout)}
    learned = {"template": {post.url for post in LEARNED}}
    sample = feed_sample(everything, full_content)
    return FieldCombiner(page_level, [template]).fit(sample.items, pages, learned)


def test_a_wrong_template_title_path_leaves_the_title_to_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    # the template learned the title in h2.headline; later posts show a promotion there
    combiner = _combiner(page_level, _template(), PROMO)
    choice = combiner.choice("title")
    assert choice.method == "page"
    assert choice.score == 1.0
    assert combiner.scores_["template"]["title"].score == 0.0
    assert combiner.scores_["template"]["title"].checks == len(CHECKED)  # not LEARNED
    article = combiner.extract(post_page(Post(30), PROMO))
    assert article.title == Post(30).title
    source = article.source_of("title")
    assert source is not None and source.detail.startswith("page: 1.00 against template's 0.00")
    assert article.provenance.method == "combiner"
    assert isinstance(combiner, PageExtractor)  # a fitted combiner extracts like any other


def test_a_right_template_title_path_wins_over_a_wrong_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    # the page's head names the site, not the post: the page level's title is wrong
    combiner = _combiner(page_level, _template(SITE_HEAD), SITE_HEAD)
    assert combiner.choice("title").method == "template"
    assert combiner.scores_["page"]["title"].score == 0.0
    article = combiner.extract(post_page(Post(30), SITE_HEAD))
    assert article.title == Post(30).title
    assert page_level.extract(post_page(Post(30), SITE_HEAD)).title != Post(30).title
    source = article.source_of("title")
    assert source is not None and source.source == "template"
    assert source.detail.startswith("template: 1.00 against the page level's 0.00 on the same 6")


def test_a_perfect_tie_on_titles_goes_to_the_template_other_ties_to_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    # both right on every checked item: the template's title path is the site's title
    # element (TIE_WINNERS); on dates the page level, which needs no site state, keeps it
    combiner = _combiner(page_level, _template(), PLAIN)
    title, date = combiner.choice("title"), combiner.choice("published")
    assert (title.method, title.score, title.page_score) == ("template", 1.0, 1.0)
    assert combiner.scores_["template"]["published"].score == 1.0
    assert (date.method, date.score) == ("page", 1.0)
    assert title.reason == f"1.00 against the page level's 1.00 on the same {len(CHECKED)} items"


def test_fields_the_feed_cannot_check_stay_with_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    # teasers too short to be the post's start (no body check), and no authors in the feed
    template = _template(SITE_HEAD)
    items = [FeedItem(i.url, i.title, "A short teaser [...]", None, i.published, (), i.tags)
             for i in feed_sample(CHECKED, full_content=False).items]  # fmt: skip
    combiner = FieldCombiner(page_level, [template]).fit(items, pages_of(CHECKED, SITE_HEAD))
    for field in ("body", "authors"):
        choice = combiner.choice(field)
        assert (choice.method, choice.score, choice.checks) == ("page", None, 0)
        assert choice.reason == "no feed item could check it"
    assert combiner.choice("title").method == "template"
    article = combiner.extract(post_page(Post(30), SITE_HEAD))
    assert article.text == page_level.extract(post_page(Post(30), SITE_HEAD)).text


def test_too_few_checks_leave_the_field_to_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    few = CHECKED[: MIN_CHECKS - 1]
    combiner = _combiner(page_level, _template(SITE_HEAD), SITE_HEAD, few)
    choice = combiner.choice("title")
    assert choice.method == "page"
    assert choice.reason == f"no other method has {MIN_CHECKS} checks"


def test_the_state_round_trips(page_level: LearnedPageExtractor) -> None:
    template = _template(SITE_HEAD)
    combiner = _combiner(page_level, template, SITE_HEAD)
    again = FieldCombiner.from_bytes(combiner.to_bytes(), page_level, [template])
    assert again.scores_ == combiner.scores_
    assert again.choices_ == combiner.choices_
    assert again.items_checked_ == combiner.items_checked_
    page = post_page(Post(30), SITE_HEAD)
    assert again.extract(page) == combiner.extract(page)
    assert saved_choices(combiner.to_bytes()) == ("page", combiner.choices_)  # no extractor


def test_another_state_is_refused(page_level: LearnedPageExtractor) -> None:
    combiner = _combiner(page_level, _template(), Layout())
    with pytest.raises(ModelError):
        FieldCombiner.from_bytes(_template().to_bytes(), page_level)
    with pytest.raises(ModelError):
        FieldCombiner.from_bytes(pack_state("combiner", 1, {"window": 3}), page_level)
    assert FieldCombiner.from_bytes(combiner.to_bytes(), page_level).choice("title").method == (
        "page")  # fmt: skip


def test_a_redesign_that_breaks_the_chosen_method_moves_the_choice(
    page_level: LearnedPageExtractor,
) -> None:
    template = _template(SITE_HEAD)
    combiner = _combiner(page_level, template, SITE_HEAD)
    assert combiner.choice("title").method == "template"
    # the redesign: the head names the post again, the template's heading shows a promotion
    combiner.partial_fit(feed_sample(LATER).items, pages_of(LATER, PROMO))
    choice = combiner.choice("title")
    assert choice.method == "page"
    assert combiner.scores_["template"]["title"].checks == combiner.window
    assert combiner.items_checked_ == len(LEARNED) + len(CHECKED) + len(LATER)
    assert combiner.extract(post_page(Post(40), PROMO)).title == Post(40).title


class _Counted:
    """A method that counts the pages it is asked to extract."""

    def __init__(self, method: PageExtractor) -> None:
        self.method, self.calls = method, 0

    @property
    def name(self) -> str:
        return self.method.name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        self.calls += 1
        return self.method.extract(page, options)


def test_a_made_verdict_is_rechecked_on_one_item_in_n_until_a_check_goes_against_it(
    page_level: LearnedPageExtractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    cleaned: list[str | None] = []  # the items whose values were made (their markup cleaned)

    def counted(item: FeedItem) -> ItemValues | None:
        cleaned.append(item.url)
        return checked_values(item)

    monkeypatch.setattr(combiner_module, "checked_values", counted)
    template = _Counted(_template(SITE_HEAD))
    combiner = FieldCombiner(page_level, [template], window=4, recheck_every=3)
    steady = [Post(n) for n in range(5, 15)]
    combiner.fit(feed_sample(steady).items, pages_of(steady, SITE_HEAD))
    assert combiner.choice("title").method == "template"
    # every item until the window (4) is full, then items 6 and 9 of 10
    assert template.calls == 4 + 2 and combiner.items_checked_ == len(steady)
    assert len(cleaned) == len(set(cleaned)) == 4 + 2  # the items not due: counted only
    assert combiner.get_state()["recheck_every"] == 3
    # a redesign: the first due check goes against the verdict, so every item is checked
    later = [Post(n) for n in range(15, 21)]
    combiner.partial_fit(feed_sample(later).items, pages_of(later, PROMO))
    assert combiner.choice("title").method == "page"
    # items 10 and 11 skipped; 12 is due and goes against the verdict, so 13 is checked
    # too; the window (1, 1, 0, 0 against 0, 0, 1, 1) now leans to the page level, which
    # the checks agree with: 14 is skipped, 15 is due
    assert template.calls == 6 + 3


def test_box_removal_is_used_only_where_it_beats_the_page_level(
    page_level: LearnedPageExtractor,
) -> None:
    posts = [*LEARNED, *CHECKED]
    pages = pages_of(posts)
    tree, diffpost = UrlTree(n_min=1).fit(pages.values()), DiffPost().fit(pages.values())
    combiner = FieldCombiner(page_level, [_template(), tree, diffpost]).fit(
        feed_sample(posts).items, pages, {"template": {post.url for post in LEARNED}}
    )
    assert set(combiner.scores_) == {"page", "template", "urltree", "diffpost"}
    body = combiner.scores_["urltree"]["body"]
    assert body.checks == len(posts) and body.score < body.page_score  # keeps the sidebar
    assert combiner.choice("body").method == "template"


def _fit_template(sample: FeedSample, pages: Mapping[str, ParsedPage]) -> FeedTemplate:
    return FeedTemplate().fit(sample, pages)


def test_cross_fitting_checks_a_template_on_the_items_it_learns_from(
    page_level: LearnedPageExtractor,
) -> None:
    posts = [*LEARNED, *CHECKED]
    combiner = cross_fit(page_level, _fit_template, feed_sample(posts), pages_of(posts, SITE_HEAD))
    assert combiner.choice("title").method == "template"
    assert combiner.scores_["template"]["title"].checks == len(posts)  # every item, once
    assert combiner.items_checked_ == len(posts)
    (template,) = combiner.methods
    assert isinstance(template, FeedTemplate) and template.items_learned_ == len(posts)
    assert combiner.extract(post_page(Post(30), SITE_HEAD)).title == Post(30).title


def test_extracting_before_fit_raises_not_fitted(page_level: LearnedPageExtractor) -> None:
    combiner = FieldCombiner(page_level, [_template()])
    with pytest.raises(NotFittedError):
        combiner.extract(post_page(Post(30)))
    with pytest.raises(NotFittedError):
        combiner.choice("title")


def test_recheck_every_must_be_positive(page_level: LearnedPageExtractor) -> None:
    with pytest.raises(ValueError, match="recheck_every"):
        FieldCombiner(page_level, recheck_every=0).fit([], {})


def test_methods_need_different_names(page_level: LearnedPageExtractor) -> None:
    with pytest.raises(ValueError, match="different names"):
        FieldCombiner(page_level, [_template(), _template()]).fit([], {})


# -- the checks ---------------------------------------------------------------------------


def test_field_scores_check_what_the_feed_gives(page_level: LearnedPageExtractor) -> None:
    post = Post(7)
    article = page_level.extract(post_page(post))
    values = item_values(feed_sample([post]).items[0])
    assert values is not None
    scores = field_scores(values, article)
    assert set(scores) == {"title", "body", "published", "authors", "tags"}
    assert scores["title"] == scores["published"] == scores["authors"] == scores["tags"] == 1.0
    assert scores["body"] > 0.9
    assert field_scores(values, None) == dict.fromkeys(scores, 0.0)


def test_a_date_is_the_same_day_in_its_own_zone_or_in_utc() -> None:
    late = datetime(2024, 3, 5, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 6 March UTC
    item = FeedItem("https://notes.example/p/", "T", published=datetime(2024, 3, 6, 4, tzinfo=UTC))
    values = item_values(item)
    assert values is not None
    article = bundled_extractor().extract(post_page(Post(1)))
    assert field_scores(values, replace(article, published=late))["published"] == 1.0
    wrong = replace(article, published=datetime(2024, 3, 8, tzinfo=UTC))
    assert field_scores(values, wrong)["published"] == 0.0


def test_a_long_uncut_description_counts_as_full_content() -> None:
    long = " ".join(f"word{n}" for n in range(MIN_FULL_DESCRIPTION_WORDS))
    url = "https://notes.example/p/"
    full = checked_values(FeedItem(url, "T", description=f"<p>{long}</p>"))
    assert full is not None and not full.truncated
    for cut in (FeedItem(url, "T", description=f"{long} [...]"),
                FeedItem(url, "T", description=" ".join(long.split()[:80]))):  # fmt: skip
        values = checked_values(cut)
        assert values is not None and values.truncated  # an excerpt: only its start is checked


# -- excerpts: the body's start -------------------------------------------------------------


def test_an_excerpt_checks_how_the_body_starts() -> None:
    excerpt = " ".join(f"word{n}" for n in range(20))
    assert head_score(excerpt, f"{excerpt} and the rest of the post") == 1.0
    assert head_score(excerpt, f"Recent posts: one two three {excerpt}") == 0.75
    assert head_score(excerpt, " ".join(excerpt.split()[5:])) < 0.9  # its first lines missing
    url = "https://notes.example/p/"
    teaser = checked_values(FeedItem(url, "T", description="A teaser line [...]"))
    assert teaser is not None and "body" not in field_scores(teaser, None)
    values = checked_values(FeedItem(url, "T", description=f"{excerpt} [...]"))
    assert values is not None and field_scores(values, None)["body"] == 0.0


#: Characters of every kind tokens care about: ASCII and other letters, CJK (a token each),
#: digits, the underscore, separators, and letters whose lower case is two characters.
_MIXED = st.text("aB é İ你好 .-_1\nßxyz", min_size=1, max_size=7)


@given(excerpt=st.lists(_MIXED, max_size=20).map(" ".join),
       body=st.lists(_MIXED, max_size=600).map(" ".join))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_the_head_check_reads_only_the_start_but_scores_the_whole_bodys_first_words(
    excerpt: str, body: str
) -> None:
    """head_score tokenizes only as much of the body as its first words take: the same
    score as cutting the whole body's tokens."""
    head = tokenize(body)[: len(tokenize(excerpt))]
    assert head_score(excerpt, body) == lcs_prf(" ".join(head), excerpt).f1


@given(body=st.lists(st.one_of(_MIXED, st.sampled_from(["wo\u00adrd", "lo\u200bng", "\ufeffx"])),
                    max_size=400).map(" ".join),
       count=st.integers(1, 40))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_a_long_bodys_ends_are_tokenized_alone_as_the_whole_body_gives_them(
    body: str, count: int
) -> None:
    tokens = tokenize_lower(body)
    assert _end_tokens(body, count) == (tokens[:count], tokens[-count:])


@pytest.mark.parametrize("words", [0, 40, 700, 2500])
def test_the_body_check_of_a_long_post_scores_as_its_whole_tokens_do(words: int) -> None:
    reference = " ".join(f"Word{n % 97}, x{n}." for n in range(900))
    values = checked_values(FeedItem("https://notes.example/p/", "T", content=reference))
    assert values is not None and not values.truncated
    text = [" ".join(f"word{n % 89} X{n}" for n in range(i, min(i + 50, words)))
            for i in range(0, words, 50)]
    parts = tuple(BodyPart("paragraph", t) for t in text)
    article = Article(parts, "T", Provenance("page", "", 1.0))
    expected = ends_score(tokenize_lower(article.text), tokenize_lower(values.content))
    assert field_scores(values, article)["body"] == expected


class _SidebarFirst:
    """``inner``'s article with a sidebar box before the post's text."""

    def __init__(self, inner: PageExtractor, name: str) -> None:
        self.inner, self.name = inner, name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        article = self.inner.extract(page, options)
        box = BodyPart("paragraph", "Recent posts: post number one, post number two, more")
        return replace(article, body=(box, *article.body))


@pytest.mark.parametrize("sidebar_first", ["page", "clean"])
def test_on_excerpts_the_body_that_opens_with_the_post_is_chosen(
    page_level: LearnedPageExtractor, sidebar_first: str
) -> None:
    posts = [*LEARNED, *CHECKED]
    items = feed_sample(posts, full_content=False).items
    plain = _Renamed(page_level, "clean")
    own, other = (_SidebarFirst(page_level, "page"), plain) if sidebar_first == "page" else (
        page_level, _SidebarFirst(plain, "clean"))  # fmt: skip
    combiner = FieldCombiner(own, [other]).fit(items, pages_of(posts))
    choice = combiner.choice("body")
    assert choice.checks == len(posts)
    assert choice.method == ("clean" if sidebar_first == "page" else "page")
    article = combiner.extract(post_page(Post(30)))
    assert not article.text.startswith("Recent posts") and Post(30).paragraphs[0] in article.text


class _Renamed:
    """``inner`` under another name (a second method that extracts as the page level)."""

    def __init__(self, inner: PageExtractor, name: str) -> None:
        self.inner, self.name = inner, name

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        return self.inner.extract(page, options)

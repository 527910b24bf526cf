"""PostJudge: the template's verdict and the listing and site-page vetoes, on a generated
blog whose tag pages and about page reuse the post markup (as Hugo and Jekyll themes do)."""

from __future__ import annotations

import asyncio
import html

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from feedsift.acquisition.feeds import parse_feed
from feedsift.api import bundled_extractor
from feedsift.crawl.extraction import ArrivalExtraction, ExtractionSettings
from feedsift.crawl.template_jobs import (
    FetchedPage,
    HarvestJob,
    harvest_page,
    learn_template,
    recheck_fields,
)
from feedsift.extractors.base import ExtractOptions
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import Article, PageKind
from feedsift.sitelevel.combiner import saved_choices
from feedsift.templates.judge import PostJudge, is_site_page
from feedsift.templates.learner import FeedTemplate
from feedsite import FEED_URL, Layout, Post, feed_xml, post_html

SITE = "https://quietbench.example"
TITLES = (
    "Sharpening a plane iron by hand", "Building a shaker side table", "Choosing oak for a bench",
    "Finishing walnut with hard wax oil", "Cutting dovetails without a jig",
)  # fmt: skip


def _url(number: int) -> str:
    return f"{SITE}/posts/{number}/"


def _article(number: int, title: str, body: str, linked: bool = False) -> str:
    heading = f'<a href="{_url(number)}">{title}</a>' if linked else title
    return (
        f'<article class="post" id="post-{number}"><h1 class="title">{heading}</h1>'
        f'<time datetime="2024-05-{number + 1:02d}">May {number + 1}, 2024</time>'
        f'<div class="content">{body}</div></article>'
    )


def _page(title: str, main: str) -> str:
    nav = "".join(f'<a href="{SITE}/{slug}/">{slug}</a> ' for slug in ("tags", "about"))
    return (
        f"<html><head><title>{title}</title></head><body><header><nav>{nav}</nav></header>"
        f"<main>{main}</main><footer><p>Quiet bench, a woodworking journal.</p></footer>"
        "</body></html>"
    )


def _paragraphs(number: int) -> str:
    return (
        f"<p>Post {number} starts with the wood: where it grew, how it was dried and why that "
        "matters for what follows in the workshop.</p>"
        "<p>Then come the tools, sharpened and set, and the long afternoon of careful work "
        "that the rest of this post describes step by step.</p>"
    )


def _post(number: int) -> str:
    return _page(TITLES[number], _article(number, TITLES[number], _paragraphs(number)))


def _rss(numbers: range) -> bytes:
    items = "".join(
        f"<item><title>{TITLES[n]}</title><link>{_url(n)}</link>"
        f"<description>{html.escape(_paragraphs(n))}</description>"
        f"<pubDate>{n + 1:02d} May 2024 10:00:00 +0000</pubDate></item>"
        for n in numbers
    )
    return (f'<rss version="2.0"><channel><title>Quiet bench</title><link>{SITE}/</link>'
            f"{items}</channel></rss>").encode()  # fmt: skip


@pytest.fixture(scope="module")
def judge() -> PostJudge:
    feed = parse_feed(_rss(range(1, 5)), f"{SITE}/index.xml")
    pages = {_url(n): parse_page(_post(n), _url(n)) for n in range(1, 5)}
    return PostJudge(FeedTemplate().fit(feed.sample(), pages), bundled_extractor())


def _tag_page() -> ParsedPage:
    """A tag page listing one post: its teaser in the post's own markup."""
    teaser = _article(0, TITLES[0], "<p>Post 0 starts with the wood and the tools.</p>", True)
    return parse_page(_page("Tag: oak", teaser), f"{SITE}/tags/oak/")


def _about_page(url: str = f"{SITE}/about/") -> ParsedPage:
    body = ("<p>I build furniture in a small shed behind the house and write about each piece "
            "here, with the mistakes left in so that others can learn from them.</p>") * 2
    return parse_page(_page("About", _article(9, "About this journal", body)), url)


def test_a_post_the_feed_does_not_list_is_a_post(judge: PostJudge) -> None:
    page = parse_page(_post(0), _url(0))
    assert judge.verdict(page) == "post"
    assert judge.is_post(page)


def test_a_page_of_another_layout_is_not(judge: PostJudge) -> None:
    page = parse_page(_page("Tags", "<ul><li><a href='/tags/oak/'>oak</a></li></ul>"),
                      f"{SITE}/tags/")  # fmt: skip
    assert judge.verdict(page) == "layout"


def test_a_tag_page_with_one_teaser_in_the_post_markup_is_a_listing(judge: PostJudge) -> None:
    page = _tag_page()
    assert judge.template.is_post(page)  # the layout alone cannot tell
    assert judge.verdict(page) == "listing"
    assert not judge.is_post(page)


def test_an_about_page_in_the_post_layout_is_a_site_page(judge: PostJudge) -> None:
    page = _about_page()
    assert judge.template.is_post(page)
    assert judge.verdict(page) == "site page"


def test_a_page_the_feed_lists_is_a_post_whatever_its_address(judge: PostJudge) -> None:
    assert judge.verdict(_about_page(), listed=True) == "post"
    assert judge.verdict(_tag_page(), listed=True) == "post"


@pytest.mark.parametrize(
    "url",
    ["https://a.example/about/", "https://a.example/de/impressum", "https://a.example/about.html",
     "https://a.example/about-me/index.html", "https://a.example/legal/", "/privacy-policy/"],
)  # fmt: skip
def test_site_page_addresses(url: str) -> None:
    assert is_site_page(url)


@pytest.mark.parametrize(
    "url",
    ["https://a.example/posts/about-time/", "https://a.example/about/my-first-bench/",
     "https://a.example/2024/05/now-what.html", "https://a.example/", "", None,
     "http://[::1/about/"],
)  # fmt: skip
def test_posts_that_only_mention_a_slug_are_not_site_pages(url: str | None) -> None:
    assert not is_site_page(url)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=30))
def test_a_site_page_is_only_the_last_segment(slug: str) -> None:
    assert not is_site_page(f"https://a.example/about/{slug}x/")


# -- the harvest's use of the judge (crawl/template_jobs.py) ----------------------------


def _job(judge: PostJudge, html_text: str, url: str, stored: bool = False,
         template: bytes | None = None) -> HarvestJob:  # fmt: skip
    page = FetchedPage(url, url, html_text.encode(), "text/html; charset=utf-8")
    return HarvestJob(page, template or judge.template.to_bytes(), "quietbench", stored)


def test_harvest_page_stores_a_post_with_the_template(judge: PostJudge) -> None:
    outcome = harvest_page(_job(judge, _post(0), _url(0)))
    assert outcome.verdict == "post" and outcome.error is None
    assert outcome.extraction is not None and outcome.extraction.article is not None
    assert outcome.extraction.article.title == TITLES[0]
    assert outcome.extraction.article.provenance.method == "template"
    assert f"{SITE}/about/" in outcome.links


def test_harvest_page_follows_a_vetoed_page_without_storing_it(judge: PostJudge) -> None:
    tag = _tag_page()
    outcome = harvest_page(_job(judge, etree.tostring(tag.root, encoding="unicode"), tag.url or ""))
    assert outcome.verdict == "listing"
    assert outcome.extraction is None
    assert _url(0) in outcome.links


def test_harvest_page_of_a_stored_page_reads_its_links_only(judge: PostJudge) -> None:
    outcome = harvest_page(_job(judge, _post(1), _url(1), stored=True))
    assert outcome.verdict is None and outcome.extraction is None and outcome.error is None
    assert f"{SITE}/tags/" in outcome.links


def test_harvest_page_with_an_unreadable_template_keeps_the_links(judge: PostJudge) -> None:
    outcome = harvest_page(_job(judge, _post(0), _url(0), template=b"not a template"))
    assert outcome.error and outcome.verdict is None and outcome.extraction is None
    assert f"{SITE}/about/" in outcome.links


class _Counting:
    """The bundled page level, counting its pages: the session's extractor in a crawl."""

    name = "page"

    def __init__(self) -> None:
        self.inner, self.pages = bundled_extractor(), 0

    def extract(self, page: ParsedPage, options: ExtractOptions | None = None) -> Article:
        self.pages += 1
        return self.inner.extract(page, options)


def test_harvest_page_judges_with_the_extractor_it_is_given(judge: PostJudge) -> None:
    session = _Counting()
    tag = _tag_page()
    job = _job(judge, etree.tostring(tag.root, encoding="unicode"), tag.url or "")
    assert harvest_page(job, extractor=session).verdict == "listing"  # its veto
    assert session.pages == 1


def _given(value: int, *, extractor: object, kept: object) -> tuple[int, object]:
    return value, extractor


def test_the_extraction_stage_gives_template_jobs_the_session_extractor() -> None:
    session = _Counting()
    stage = ArrivalExtraction(session, ExtractionSettings(site_level=None))
    try:
        assert asyncio.run(stage.run_extracting("quietbench", _given, 7)) == (7, session)
    finally:
        stage.close()


def _fetched(posts: list[Post], layout: Layout) -> tuple[FetchedPage, ...]:
    return tuple(FetchedPage(p.url, p.url, post_html(p, layout).encode(), "text/html")
                 for p in posts)  # fmt: skip


def test_a_later_poll_checks_the_fields_again_and_a_redesign_moves_the_choice() -> None:
    first, later = [Post(n) for n in range(1, 11)], [Post(n) for n in range(11, 19)]
    feed = parse_feed(feed_xml(first), FEED_URL)
    # the page's head names the site: the page level's titles are wrong, the template's right
    outcome = learn_template(feed, _fetched(first, Layout(site_head=True)), combine=True)
    assert outcome.checks is not None and outcome.state is not None
    assert saved_choices(outcome.checks)[1]["title"].method == "template"
    # the redesign: the head names the post again, the template's heading shows a promotion
    polled = parse_feed(feed_xml([*first, *later]), FEED_URL)
    checks = recheck_fields(outcome.checks, outcome.state, polled,
                            _fetched(later, Layout(promo=True)))  # fmt: skip
    page_level, choices = saved_choices(checks)
    assert choices["title"].method == page_level == "page"


RELATED = (
    "Why a card scraper beats sandpaper on figured maple",
    "The workbench vise I keep coming back to",
    "Storing hand planes so the soles stay flat",
    "Glue ups without panic: clamps and cauls",
)


def _short_post_with_related_posts() -> ParsedPage:
    """A short post followed by a "You may also enjoy" grid of other posts' cards (the
    Minimal Mistakes theme of Jekyll): more teaser text than post text."""
    cards = "".join(
        f'<article class="archive__item"><h2 class="archive__item-title">'
        f'<a href="{_url(20 + i)}">{title}</a></h2><p class="page__meta">3 minute read</p>'
        f'<p class="archive__item-excerpt">{title}: a longer post with photos of every step.'
        "</p></article>"
        for i, title in enumerate(RELATED)
    )
    related = (f'<div class="page__related"><h4 class="page__related-title">You may also enjoy'
               f'</h4><div class="grid__wrapper">{cards}</div></div>')  # fmt: skip
    body = "<p>A quick photo of the finished stool.</p>"
    main = _article(7, "A three legged stool", body) + related
    return parse_page(_page("A three legged stool", main), _url(7))


def test_a_post_whose_related_cards_look_like_a_listing_is_a_post(judge: PostJudge) -> None:
    page = _short_post_with_related_posts()
    assert judge.extractor.extract(page).kind.lists_items  # the page level alone is misled
    assert judge.template.is_post(page)
    assert judge.verdict(page) == "post"  # the teasers are outside the post's body
    assert judge.verdict(_tag_page()) == "listing"  # inside it on the tag page


def test_a_harvested_post_the_page_level_takes_for_a_listing_is_combined() -> None:
    feed = parse_feed(_rss(range(1, 5)), f"{SITE}/index.xml")
    fetched = tuple(FetchedPage(_url(n), _url(n), _post(n).encode(), "text/html")
                    for n in range(1, 5))  # fmt: skip
    learned = learn_template(feed, fetched, combine=True)
    assert learned.state is not None and learned.checks is not None
    page = _short_post_with_related_posts()
    assert bundled_extractor().extract(page).kind.lists_items
    html_text = etree.tostring(page.root, encoding="unicode")
    job = HarvestJob(FetchedPage(_url(7), _url(7), html_text.encode(), "text/html"),
                     learned.state, "quietbench", False, checks=learned.checks)  # fmt: skip
    outcome = harvest_page(job)
    assert outcome.verdict == "post" and outcome.extraction is not None
    article = outcome.extraction.article
    assert article is not None and article.provenance.method == "combiner"
    assert article.kind is PageKind.ARTICLE and not article.posts

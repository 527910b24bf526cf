"""Item pages parsed on arrival and kept for the site's template jobs (KeptPages)."""

from __future__ import annotations

from feedsift.acquisition.feeds import parse_feed
from feedsift.api import bundled_extractor
from feedsift.crawl.extraction import ExtractionJob, extract_job
from feedsift.crawl.keptpages import KeptPages
from feedsift.crawl.template_jobs import FetchedPage, learn_template
from feedsift.extractors.base import ExtractOptions
from feedsift.parsing.page import parse_page
from feedsift.sitelevel.models import SiteModels
from feedsite import FEED_URL, Post, feed_item, feed_xml, post_html

URL = "https://notes.example/posts/1/"
BODY = post_html(Post(1)).encode()


def test_a_kept_page_is_taken_only_for_the_same_bytes_address_and_type() -> None:
    kept = KeptPages()
    page = parse_page(BODY, URL, "text/html")
    kept.keep(URL, "text/html", BODY, page)
    assert kept.parsed(BODY, URL, "text/html") is page
    changed = BODY.replace(b"</body>", b"<p>An edit.</p></body>")
    assert kept.parsed(changed, URL, "text/html") is not page  # the page changed since
    assert kept.parsed(BODY, URL, "text/html; charset=latin-1") is not page
    assert kept.parsed(BODY, URL + "?amp", "text/html") is not page
    assert (kept.hits, kept.misses) == (1, 3)


def test_the_oldest_page_goes_when_the_worker_keeps_its_capacity() -> None:
    kept = KeptPages(capacity=2)
    pages = {n: parse_page(BODY, f"{URL}{n}", None) for n in range(3)}
    for n, page in pages.items():
        kept.keep(f"{URL}{n}", None, BODY, page)
    assert len(kept) == 2
    assert kept.parsed(BODY, f"{URL}0", None) is not pages[0]
    assert kept.parsed(BODY, f"{URL}2", None) is pages[2]
    nothing = KeptPages(capacity=0)
    nothing.keep(URL, None, BODY, pages[0])
    assert len(nothing) == 0


def test_the_template_learned_from_kept_pages_is_the_one_learned_from_bytes() -> None:
    """A feed's items go through the worker's extraction (learned, checked on their item,
    extracted), then its template job learns from the very pages, not parsing them again,
    and learns what it learns from the bytes."""
    posts = [Post(n) for n in range(1, 7)]
    feed = parse_feed(feed_xml(posts), FEED_URL)
    extractor, kept = bundled_extractor(), KeptPages()
    models = SiteModels(extractor)
    fetched = []
    for number, post in enumerate(posts, 1):
        body = post_html(post).encode()
        job = ExtractionJob(number, "notes.example", post.url, body, "text/html",
                            item=feed_item(post))  # fmt: skip
        assert extract_job(job, extractor, ExtractOptions(), models, kept).error is None
        fetched.append(FetchedPage(post.url, post.url, body, "text/html"))
    assert len(kept) == len(posts)
    reused = learn_template(feed, tuple(fetched), True, extractor=extractor, kept=kept)
    assert (kept.hits, kept.misses) == (len(posts), 0)  # none parsed again
    parsed = learn_template(feed, tuple(fetched), True, extractor=extractor)
    assert reused.state is not None
    assert (reused.state, reused.checks, reused.key_path) == (
        parsed.state, parsed.checks, parsed.key_path)  # fmt: skip

"""Links worth following on a site, and how the harvest tells addresses apart."""

from __future__ import annotations

from urllib.parse import urlencode

from hypothesis import given, settings
from hypothesis import strategies as st

from feedsift.crawl.harvest import frontier_key, home_of
from feedsift.crawl.links import canonical_link, page_links, same_site_link
from feedsift.parsing.page import parse_page

PAGE = """<html><head><link rel="canonical" href="/posts/one/"></head><body>
<a href="/posts/two/">two</a> <a href="https://www.blog.example/tags/x/#top">tag</a>
<a href="page/2/">next</a> <a href="https://other.example/">away</a>
<a href="/img/cat.JPG">img</a> <a href="mailto:me@blog.example">mail</a>
<a href="#comments">comments</a> <a href="/feed.xml">feed</a> <a href="/posts/two/">again</a>
</body></html>"""


def test_page_links_keep_same_site_pages_in_order_once() -> None:
    page = parse_page(PAGE, "https://blog.example/posts/one/")
    assert page_links(page.root, page.url or "") == (
        "https://blog.example/posts/two/",
        "https://www.blog.example/tags/x/",
        "https://blog.example/posts/one/page/2/",
    )


def test_canonical_link_is_resolved_and_kept_on_the_site() -> None:
    page = parse_page(PAGE, "https://blog.example/posts/one/?utm_source=rss")
    assert canonical_link(page.root, page.url or "") == "https://blog.example/posts/one/"
    away = parse_page('<html><head><link rel="canonical" href="https://x.example/"></head>'
                      "<body><p>x</p></body></html>", "https://blog.example/a/")  # fmt: skip
    assert canonical_link(away.root, "https://blog.example/a/") is None


def test_same_site_link_refuses_other_schemes_and_files() -> None:
    base, site = "https://blog.example/a/", "blog.example"
    assert same_site_link("javascript:void(0)", base, site) is None
    assert same_site_link("ftp://blog.example/x", base, site) is None
    assert same_site_link("/archive.zip", base, site) is None
    assert same_site_link("../b/", base, site) == "https://blog.example/b/"


def test_home_of_is_the_origin() -> None:
    assert home_of("https://blog.example:8443/x/y?z=1") == "https://blog.example:8443/"


_PARAMS = st.lists(st.tuples(st.sampled_from(["page", "p", "tag", "utm_source", "ref"]),
                             st.text("abc123", max_size=3)), max_size=4, unique_by=lambda t: t[0])


@settings(max_examples=100, deadline=None)
@given(_PARAMS, st.randoms())
def test_frontier_key_ignores_query_order_fragments_and_tracking(params, rng) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(params)
    rng.shuffle(shuffled)
    a = f"https://Blog.example/list?{urlencode(params)}#top"
    b = f"https://blog.example/list?{urlencode(shuffled)}"
    assert frontier_key(a) == frontier_key(b)
    kept = [(k, v) for k, v in params if k in ("page", "p", "tag")]
    plain = f"https://blog.example/list?{urlencode(kept)}" if kept else "https://blog.example/list"
    assert frontier_key(a) == frontier_key(plain)


def test_query_pagination_is_told_apart() -> None:
    assert frontier_key("https://b.example/?page=2") != frontier_key("https://b.example/?page=3")

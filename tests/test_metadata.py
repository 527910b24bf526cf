"""read_metadata end to end: every source together, title candidates and the title rule."""

from __future__ import annotations

import json
import re
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedsift.metadata import PageMetadata, TitleCandidate, read_metadata
from feedsift.metadata.dom import HOME_HREF
from feedsift.metadata.scan import spaced_text_of
from feedsift.metadata.titles import TITLE_SEPARATORS
from feedsift.metadata.values import mend_mojibake, site_host
from feedsift.parsing.page import parse_page
from feedsift.records import FieldSource
from feedsift.text.tokens import CJK_RANGES

ARTICLE = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    "headline": "Rivers rise across the north",
    "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}],
    "datePublished": "2024-02-03T04:05:06Z",
    "dateModified": "2024-02-04T00:00:00Z",
    "publisher": {"@type": "Organization", "name": "The Daily Example"},
    "keywords": ["floods", "weather"],
}

FULL_PAGE = f"""<!doctype html><html lang="en-GB"><head>
<title>Rivers rise across the north | Weather | The Daily Example</title>
<meta property="og:title" content="Rivers rise across the north | The Daily Example">
<meta name="twitter:title" content="Rivers rise in the north">
<meta name="description" content="Flood warnings are in place.">
<link rel="canonical" href="https://daily.example/weather/rivers">
<script type="application/ld+json">{json.dumps(ARTICLE)}</script>
</head><body><nav><a href="/">Home</a></nav>
<article><h1>Rivers rise across the north</h1><h1>Second heading</h1>
<p>Flood warnings are in place along three rivers after a week of rain.</p></article>
</body></html>"""


def test_full_page() -> None:
    meta = read_metadata(parse_page(FULL_PAGE, url="https://daily.example/x"))
    assert isinstance(meta, PageMetadata)
    assert meta.title == "Rivers rise across the north"
    assert meta.authors == ("Ann Lee", "Bo Chen")
    assert meta.published == datetime(2024, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert meta.updated == datetime(2024, 2, 4, tzinfo=UTC)
    assert meta.tags == ("floods", "weather")
    assert meta.language == "en-gb"
    assert meta.canonical_url == "https://daily.example/weather/rivers"
    assert meta.site_name == "The Daily Example"
    assert meta.description == "Flood warnings are in place."
    assert meta.image is None
    assert set(meta.sources) == {
        FieldSource("title", "json-ld", "headline"),
        FieldSource("authors", "json-ld", "author"),
        FieldSource("published", "json-ld", "datePublished"),
        FieldSource("updated", "json-ld", "dateModified"),
        FieldSource("tags", "json-ld", "keywords"),
        FieldSource("language", "dom", "html[lang]"),
        FieldSource("canonical_url", "meta", "link[rel=canonical]"),
        FieldSource("site_name", "json-ld", "publisher"),
        FieldSource("description", "meta", "description"),
    }


def test_title_candidates_are_distinct_and_in_priority_order() -> None:
    meta = read_metadata(parse_page(FULL_PAGE))
    candidates = meta.title_candidates
    texts = [c.text for c in candidates]
    assert len(texts) == len(set(texts))
    assert candidates[0] == TitleCandidate("Rivers rise across the north", "json-ld", "headline")
    assert candidates[1] == TitleCandidate(
        "Rivers rise across the north | The Daily Example", "opengraph", "og:title"
    )
    assert TitleCandidate("Rivers rise in the north", "meta", "twitter:title") in candidates
    assert TitleCandidate("Second heading", "dom", "h1") in candidates
    assert TitleCandidate("Weather", "title-tag", "title-part:1") in candidates
    assert TitleCandidate("The Daily Example", "opengraph", "og:title-part:1") in candidates
    details = [c.detail for c in candidates]
    assert details.index("twitter:title") < details.index("h1") < details.index("title")


def test_site_name_is_stripped_from_the_structured_title() -> None:
    html = """<html><head><title>Quiet week at the harbour - Port News</title>
    <meta property="og:title" content="Quiet week at the harbour - Port News">
    <meta property="og:site_name" content="Port News"></head><body><p>x</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.title == "Quiet week at the harbour"
    assert meta.source_of("title") == FieldSource("title", "opengraph", "og:title-part:0")


def test_kicker_parts_are_candidates() -> None:
    html = """<html><head>
    <meta property="og:title" content="Election night: Results come in slowly">
    </head><body><p>x</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.title == "Election night: Results come in slowly"
    assert TitleCandidate("Results come in slowly", "opengraph", "og:title-after-kicker") in (
        meta.title_candidates
    )


def test_heading_confirmed_by_the_title_tag_without_structured_title() -> None:
    html = """<html><head><title>Site name » Notes on gardening</title></head>
    <body><h1>Site name</h1><h1>Notes on gardening</h1><p>Soil first.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.title == "Site name"  # the first heading that is a part of the <title>
    assert meta.source_of("title") == FieldSource("title", "dom", "h1")


def test_a_line_break_in_a_byline_separates_its_words_an_inline_tag_does_not() -> None:
    html = """<html><head></head><body><h1>Notes</h1>
    <div class="byline">By <span class="author">Ian Ly<em>nam</em><br><span>October 8</span>
    </span></div><p>Soil first.</p></body></html>"""
    assert read_metadata(parse_page(html)).authors == ("Ian Lynam",)
    assert spaced_text_of(parse_page(html).body.find(".//h1")) == "Notes"


def test_a_line_break_in_the_heading_separates_its_words() -> None:
    html = """<html><head><title>Packaging studio</title></head><body>
    <h1>Cosmetic Packaging<br><span class="rotating">Design</span></h1><p>We draw boxes.</p>
    </body></html>"""
    titles = {c.text for c in read_metadata(parse_page(html)).title_candidates}
    assert "Cosmetic Packaging Design" in titles and "Cosmetic PackagingDesign" not in titles


def test_title_tag_when_no_heading_matches() -> None:
    html = """<html><head><title>Notes on gardening</title></head>
    <body><h1>Lorem</h1><p>Soil first.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.title == "Notes on gardening"
    assert meta.source_of("title") == FieldSource("title", "title-tag", "title")


def test_page_without_metadata_gives_empty_fields() -> None:
    meta = read_metadata(parse_page("<html><body><p>Nothing to see.</p></body></html>"))
    assert meta.title is None
    assert meta.title_candidates == ()
    assert meta.authors == ()
    assert meta.tags == ()
    assert (meta.published, meta.updated, meta.language, meta.canonical_url) == (None,) * 4
    assert (meta.site_name, meta.image, meta.description) == (None,) * 3
    assert meta.sources == ()


def test_frozen_record() -> None:
    meta = read_metadata(parse_page(FULL_PAGE))
    with pytest.raises(FrozenInstanceError):
        meta.title = "changed"  # type: ignore[misc]


def test_cjk_titles_are_cut_at_separators_without_spaces() -> None:
    html = """<html><head><title>2025-03-05 第10周 星期三-小径分岔的兔子洞</title></head>
    <body><h1>2025-03-05 第10周 星期三</h1><p>x</p></body></html>"""
    texts = [c.text for c in read_metadata(parse_page(html)).title_candidates]
    assert "2025-03-05 第10周 星期三" in texts and "小径分岔的兔子洞" in texts
    english = read_metadata(parse_page("<title>An e-mail from 2025-03-05</title>"))
    assert [c.text for c in english.title_candidates] == ["An e-mail from 2025-03-05"]
    mixed = read_metadata(parse_page("<title>Journey-小径分岔的兔子洞</title>"))
    assert {"Journey", "小径分岔的兔子洞"} <= {c.text for c in mixed.title_candidates}


BLOG_POST = """<html><head><title>KaTeX demo | Retypeset</title></head><body>
<header><a href="/en/">Retypeset</a><nav><a href="/">Home</a></nav></header>
<article><h1>KaTeX demo</h1><p>Maths in the browser.</p></article></body></html>"""


def test_site_name_from_a_front_page_link_the_title_confirms() -> None:
    meta = read_metadata(parse_page(BLOG_POST, url="https://blog.example/en/posts/katex/"))
    assert meta.site_name == "Retypeset"
    assert FieldSource("site_name", "dom", "home-link") in meta.sources


def test_a_front_page_link_the_title_does_not_name_is_no_site_name() -> None:
    html = BLOG_POST.replace("<title>KaTeX demo | Retypeset</title>", "<title>KaTeX demo</title>")
    assert read_metadata(parse_page(html)).site_name is None  # "Home" is a menu, not a name
    front = BLOG_POST.replace('<a href="/en/">Retypeset</a>', "").replace("KaTeX demo |", "Home |")
    assert read_metadata(parse_page(front)).site_name is None  # "Home | Retypeset": a menu word


def test_a_logo_alt_names_the_site_and_structured_names_come_first() -> None:
    image = '<a href="https://blog.example/"><img src="l.png" alt="Retypeset"></a>'
    logo = BLOG_POST.replace('<a href="/en/">Retypeset</a>', image)
    assert read_metadata(parse_page(logo, url="https://blog.example/p")).site_name == "Retypeset"
    other_host = read_metadata(parse_page(logo, url="https://elsewhere.example/p"))
    assert other_host.site_name is None  # another host's front page is not this site's
    og = logo.replace("</head>", '<meta property="og:site_name" content="Retypeset Blog"></head>')
    assert read_metadata(parse_page(og)).site_name == "Retypeset Blog"


@pytest.mark.parametrize(
    ("href", "home"),
    [("/", True), ("./", True), ("/index.html", True), ("https://a.example", True),
     ("//a.example/", True), ("/en/", True), ("/zh-tw/", True), ("", False), ("#", False),
     ("/blog/", False), ("/?p=1", False), ("https://a.example/post", False),
     ("mailto:a@a.example", False), ("../index.html", True), ("../../index.html", True),
     ("../../", False),
     ("../genindex.html", False), ("index.html#x", False)],
)  # fmt: skip
def test_front_page_hrefs(href: str, home: bool) -> None:
    assert bool(HOME_HREF.fullmatch(href)) is home


def _defining_separators() -> re.Pattern[str]:
    """TITLE_SEPARATORS written the plain way (the shipped one matches the separator first)."""
    seps = "(?:\\||-|_|–|—|｜)"
    return re.compile(
        r"\s+(?:\||-|–|—|::|»|·|/|>|\\)\s+"
        f"|(?<=[{CJK_RANGES}]){seps}(?=\\S)|(?<=\\S){seps}(?=[{CJK_RANGES}])"
    )


@given(st.text(alphabet="ab1 -|_–—｜»/:小径日本カ", max_size=30))
def test_title_separators_match_their_plain_definition(text: str) -> None:
    assert TITLE_SEPARATORS.split(text) == _defining_separators().split(text)


@pytest.mark.parametrize(
    ("url", "host"),
    [("https://www.Example.org:8080/x", "example.org"), ("//cdn.example.org/", "cdn.example.org"),
     ("https://user@blog.example/", "blog.example"), ("/posts/x", ""), (None, ""),
     ("http://[::1", "")],
)  # fmt: skip
def test_site_host(url: str | None, host: str) -> None:
    assert site_host(url) == host


@pytest.mark.parametrize(
    ("raw", "mended"),
    [("itertools \u00e2\u0080\u0094 Functions", "itertools — Functions"),
     ("CafÃ© crÃ¨me", "Café crème"), ("Ã‰tÃ© 2021", "Été 2021"),
     ("Café crème", "Café crème"), ("naïve Âge", "naïve Âge"), ("café»", "café»")],
)  # fmt: skip
def test_utf8_read_as_latin1_is_mended_and_other_text_left_alone(raw: str, mended: str) -> None:
    assert mend_mojibake(raw) == mended


def test_a_title_written_as_mojibake_is_read_back() -> None:
    page = parse_page("<html><head><title>itertools \u00e2\u0080\u0094 Functions</title>"
                      "</head><body><p>x</p></body></html>")  # fmt: skip
    assert read_metadata(page).title == "itertools — Functions"


def test_headings_that_are_wholly_a_link_to_another_page() -> None:
    html = """<html><head><title>Go SDK docs are out | Authing Blog</title></head><body>
    <header><a href="/blog/"><h1><img src="logo.png"> Blog</h1></a></header>
    <h1><a href="#top">Go SDK docs are out</a></h1><h1>Go SDK</h1>
    <p>Read them now.</p></body></html>"""
    post = read_metadata(parse_page(html, url="https://authing.example/blog/go-sdk/"))
    assert post.linked_headings == ("Blog",)  # a fragment is the page itself
    assert "Blog" in {c.text for c in post.title_candidates}  # still a title string
    assert read_metadata(parse_page(html)).linked_headings == ()  # no address: none
    home = read_metadata(parse_page(html, url="https://authing.example/blog/"))
    assert home.linked_headings == ()  # on the page it links to


def test_a_sphinx_docs_root_link_names_the_site() -> None:
    # Sphinx writes every link relative: the project's name in the header links to the
    # documentation root up the folders, and is an <h1> before the page's own heading
    html = """<html><head><title>ORM Quick Start &mdash; SQLAlchemy 2.0 Documentation</title>
    </head><body><h1><a href="../index.html">SQLAlchemy 2.0 Documentation</a></h1>
    <h1>ORM Quick Start</h1><p>Declare models, then query them.</p></body></html>"""
    meta = read_metadata(parse_page(html, url="https://docs.example/en/20/orm/quickstart.html"))
    assert meta.site_name == "SQLAlchemy 2.0 Documentation"
    assert FieldSource("site_name", "dom", "home-link") in meta.sources


def test_a_relative_link_to_this_folder_is_the_front_page_only_at_the_root() -> None:
    # MkDocs writes href="./" on the current page's own tab: "Models - Pydantic" is not
    # a site called "Models"
    html = """<html><head><title>Models - Pydantic Validation</title></head><body>
    <nav><a href="./">Models</a></nav><h1>Models</h1><p>Text.</p></body></html>"""
    docs = read_metadata(parse_page(html, url="https://docs.example/latest/concepts/models/"))
    assert docs.site_name is None and docs.home_links == ()
    root = read_metadata(parse_page(html, url="https://docs.example/index.html"))
    assert root.home_links == ("Models",)

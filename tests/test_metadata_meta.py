"""OpenGraph, meta-name vocabularies, link tags and microdata."""

from __future__ import annotations

from datetime import UTC, datetime

from feedsift.metadata import read_metadata
from feedsift.metadata.meta_tags import meta_clues
from feedsift.metadata.scan import scan_markup
from feedsift.parsing.page import parse_page
from feedsift.records import FieldSource

OPENGRAPH_PAGE = """<html lang="EN_us"><head>
<title>Big story - Section - Example</title>
<meta property="og:title" content="Big story">
<meta property="og:site_name" content="Example">
<meta property="og:image" content="/img/lead.jpg">
<meta property="og:description" content="  What happened,
   in short. ">
<meta property="og:locale" content="fr_FR">
<meta property="article:published_time" content="2021-04-05T06:07:08+02:00">
<meta property="article:modified_time" content="2021-04-06">
<meta property="article:author" content="https://facebook.com/someone">
<meta property="article:tag" content="Rivers">
<meta property="article:tag" content="Boats">
<meta name="keywords" content="keyword one, keyword two">
<meta name="author" content="Jane Doe">
<link rel="canonical" href="../story.html">
</head><body><h1>Big story</h1><p>Text of the story goes here.</p></body></html>"""


def test_opengraph_and_meta_fields_with_provenance() -> None:
    meta = read_metadata(parse_page(OPENGRAPH_PAGE, url="https://ex.org/news/2021/x.html"))
    assert meta.title == "Big story"
    assert meta.site_name == "Example"
    assert meta.image == "https://ex.org/img/lead.jpg"
    assert meta.canonical_url == "https://ex.org/news/story.html"
    assert meta.description == "What happened, in short."
    assert meta.language == "en-us"  # <html lang> comes before og:locale
    assert meta.published is not None
    assert meta.published.isoformat() == "2021-04-05T06:07:08+02:00"
    assert meta.updated == datetime(2021, 4, 6, tzinfo=UTC)
    assert meta.tags == ("Rivers", "Boats")  # article:tag beats meta keywords
    assert meta.authors == ("Jane Doe",)  # the article:author URL is no name
    assert FieldSource("published", "opengraph", "article:published_time") in meta.sources
    assert FieldSource("authors", "meta", "author") in meta.sources
    assert FieldSource("tags", "opengraph", "article:tag") in meta.sources
    assert FieldSource("language", "dom", "html[lang]") in meta.sources


def test_meta_keywords_are_the_last_resort_for_tags() -> None:
    html = '<html><head><meta name="keywords" content="alpha, beta ,, gamma"></head></html>'
    meta = read_metadata(parse_page(html))
    assert meta.tags == ("alpha", "beta", "gamma")
    assert meta.source_of("tags") == FieldSource("tags", "meta", "keywords")


def test_repeated_citation_authors_make_an_author_list() -> None:
    html = """<html><head>
    <meta name="citation_author" content="Marie Curie">
    <meta name="citation_author" content="Pierre Curie">
    <meta name="citation_publication_date" content="2003/06/25">
    </head><body></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("Marie Curie", "Pierre Curie")
    assert meta.source_of("authors") == FieldSource("authors", "meta", "citation_author")
    assert meta.published == datetime(2003, 6, 25, tzinfo=UTC)


def test_dublin_core_and_parsely_keys() -> None:
    html = """<html><head>
    <meta name="DC.creator" content="Ann Writer">
    <meta name="parsely-pub-date" content="2019-09-09T09:09:09Z">
    <meta name="parsely-tags" content="one,two">
    <meta http-equiv="content-language" content="de-DE">
    </head><body></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("Ann Writer",)
    assert meta.published == datetime(2019, 9, 9, 9, 9, 9, tzinfo=UTC)
    assert meta.tags == ("one", "two")
    assert meta.language == "de-de"
    assert meta.source_of("published") == FieldSource("published", "meta", "parsely-pub-date")


def test_microdata_reads_the_first_item_only() -> None:
    html = """<html><head><title>Micro</title></head><body>
    <article itemscope itemtype="https://schema.org/NewsArticle">
      <h1 itemprop="headline">Micro headline</h1>
      <span itemprop="author" itemscope itemtype="https://schema.org/Person">
        <a href="/people/ann"><span itemprop="name">Ann Author</span></a></span>
      <time itemprop="datePublished" datetime="2018-07-08T09:10:11+00:00">8 July</time>
      <p>Story text.</p>
    </article>
    <aside><div itemscope itemtype="https://schema.org/NewsArticle">
      <span itemprop="author">Teaser Writer</span>
      <time itemprop="datePublished" datetime="2001-01-01">old</time>
    </div></aside></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("Ann Author",)
    assert meta.published == datetime(2018, 7, 8, 9, 10, 11, tzinfo=UTC)
    assert meta.source_of("authors") == FieldSource("authors", "dom", "itemprop:author")
    assert meta.title == "Micro headline"


def test_base_href_and_protocol_relative_urls() -> None:
    html = """<html><head><base href="https://cdn.ex.org/site/">
    <meta name="twitter:image" content="//img.ex.org/t.png">
    <link rel="canonical" href="page.html"></head><body></body></html>"""
    meta = read_metadata(parse_page(html, url="https://ex.org/other/"))
    assert meta.canonical_url == "https://cdn.ex.org/site/page.html"
    assert meta.image == "https://img.ex.org/t.png"


def test_relative_urls_are_dropped_without_a_page_url() -> None:
    html = """<html><head><link rel="canonical" href="/a.html">
    <meta property="og:url" content="https://ex.org/a.html">
    <meta property="og:image" content="data:image/png;base64,AAAA"></head><body></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.canonical_url == "https://ex.org/a.html"
    assert meta.source_of("canonical_url") == FieldSource("canonical_url", "opengraph", "og:url")
    assert meta.image is None


def test_space_separated_properties_and_rdfa_dublin_core_keys() -> None:
    html = """<html><head><title>Title Element</title>
    <meta property="x:title dc:title" content="Preferred title">
    <meta property="og:title twitter:title" content="A title">
    <meta property="dcterm:creator" content="Creator Name">
    </head><body><p>Text.</p></body></html>"""
    page = parse_page(html)
    found = {(c.source, c.detail): c.value for c in meta_clues(scan_markup(page.root))}
    assert found[("opengraph", "og:title")] == "A title"
    assert found[("meta", "twitter:title")] == "A title"
    assert found[("meta", "dc.title")] == "Preferred title"
    assert read_metadata(page).authors == ("Creator Name",)

"""Author names: splitting, prefixes, junk rejection, and bylines found in the DOM."""

from __future__ import annotations

import pytest

from feedsift.metadata import read_metadata
from feedsift.metadata.authors import author_names, looks_like_name, split_authors
from feedsift.parsing.page import parse_page
from feedsift.records import FieldSource


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        ("By Jane Doe and John Roe", ["Jane Doe", "John Roe"]),
        (
            "Von Till Eckert, Max Bernhard und Martin Murphy",
            ["Till Eckert", "Max Bernhard", "Martin Murphy"],
        ),
        ("Par Sébastien Farcis", ["Sébastien Farcis"]),
        ("written by: Ann Lee", ["Ann Lee"]),
        ("Elena Oberholzer (obe)", ["Elena Oberholzer"]),
        ("Jane Doe | Staff Reporter", ["Jane Doe"]),
        ("신현주 기자", ["신현주"]),
        ("di Mario Rossi", ["Mario Rossi"]),
        ("Luigi Di Maio", ["Luigi Di Maio"]),
        ("Di Maio", ["Di Maio"]),
        ("Redaktion hessenschau.de", ["Redaktion hessenschau.de"]),
        ("Min Jin Lee", ["Min Jin Lee"]),
        ("Orion Jones on", ["Orion Jones"]),
        ("erstellt von Dominique — veröffentlicht", ["Dominique"]),
        ("Jane Doe jane.doe@example.org", ["Jane Doe"]),
        ("AP &amp; Reuters", ["AP", "Reuters"]),
    ],
)
def test_split_authors(byline: str, names: list[str]) -> None:
    assert split_authors(byline) == names


@pytest.mark.parametrize(
    "junk",
    [
        "https://www.facebook.com/some.author",
        "@handle",
        "March 11, 2015 3:46 PM",
        "Please enter your name here",
        "Share on Twitter",
        "3 Min",
        "17 Comments",
        "View Profile",
        "Thursday",
        "admin",
        "By",
        "This is a whole sentence that somebody pasted into the author field of the CMS",
        "x",
    ],
)
def test_junk_is_not_an_author(junk: str) -> None:
    assert split_authors(junk) == []


def test_author_names_deduplicate_case_blind_keeping_first_spelling() -> None:
    assert author_names(["Jane Doe", "JANE DOE", "by John Roe"]) == ("Jane Doe", "John Roe")


def test_looks_like_name() -> None:
    assert looks_like_name("Ann Lee")
    assert looks_like_name("松岡大地")
    assert not looks_like_name("red")


BYLINE_PAGE = """<html><head><title>Story</title></head><body>
<article><h1>Story</h1>
<div class="article-byline">By <span class="author-name">Jane Doe</span> and
<span class="author-name">John Roe</span></div>
<p>Words of the story, long enough to be a paragraph of an article.</p></article>
<section class="comments"><form><div class="comment-form-author">
<label>Name</label><div class="td-warning-author">Please enter your name here</div></div></form>
</section>
<aside><div class="teaser"><h3>Other story</h3>
<span class="author-name">Other Writer</span></div></aside>
</body></html>"""


def test_dom_byline_when_no_structured_author() -> None:
    meta = read_metadata(parse_page(BYLINE_PAGE))
    assert meta.authors == ("Jane Doe", "John Roe")
    assert meta.source_of("authors") == FieldSource("authors", "dom", "byline:1")


def test_structured_author_wins_over_byline() -> None:
    html = BYLINE_PAGE.replace("<title>", '<meta name="author" content="Meta Person"><title>')
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("Meta Person",)


def test_rel_author_link_and_byline_box_with_prefix() -> None:
    html = """<html><body><div class="byline">by <a href="/u/ann" rel="author">Ann Lee</a>
    <span class="date">2020-01-01</span></div><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("Ann Lee",)
    assert meta.source_of("authors") == FieldSource("authors", "dom", "a[rel=author]")


def test_byline_box_text_is_cleaned() -> None:
    html = """<html><body><p class="Byline">BY GILLIAN MOHNEY</p><p>Story text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.authors == ("GILLIAN MOHNEY",)
    assert meta.source_of("authors") == FieldSource("authors", "dom", "byline:2")

"""Feed discovery: link tags, Link headers, guessed paths and the cheap feed sniff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from feedsift.acquisition.discovery import (
    COMMON_FEED_PATHS,
    FeedLink,
    feed_links_in_header,
    feed_links_in_html,
    guessed_feed_links,
    looks_like_feed,
)
from feedsift.acquisition.feeds import parse_feed

FEEDS = Path(__file__).parent / "fixtures" / "feeds"
PAGE_URL = "https://lighthouse.example.org/notes/2024/keepers.html"


def test_link_tags_of_a_page() -> None:
    links = feed_links_in_html((FEEDS / "page.html").read_bytes(), PAGE_URL)
    assert [link.url for link in links] == [
        # <base href="/notes/"> decides, not the page's own folder.
        "https://lighthouse.example.org/notes/feed/",
        "https://lighthouse.example.org/notes/atom.xml",  # rel="Alternate Feed", type with params
        "https://lighthouse.example.org/feed.json",
        # comment feeds come last, in page order, whatever the language
        "https://lighthouse.example.org/notes/comments/feed/",
        "https://lighthouse.example.org/notes/nebel/feed/",
    ]
    first = links[0]
    assert first == FeedLink(
        url="https://lighthouse.example.org/notes/feed/",
        title="Lighthouse Notes » Feed",
        media_type="application/rss+xml",
        source="link-tag",
    )
    assert links[1].media_type == "application/atom+xml"
    assert links[2].media_type == "application/feed+json"


def test_what_is_not_a_feed_link() -> None:
    html = """<html><head>
      <link rel="stylesheet" type="text/css" href="/s.css">
      <link rel="alternate" type="text/html" hreflang="de" href="/de/">
      <link rel="home" type="application/rss+xml" href="/not-alternate.xml">
      <link rel="alternate" type="application/json" href="/wp-json/wp/v2/posts/12">
      <link rel="alternate" type="application/json+oembed" href="/oembed?url=x">
      <link rel="alternate" type="application/rss+xml" href="">
      <link rel="alternate" type="application/rss+xml" href="javascript:void(0)">
      <!-- <link rel="alternate" type="application/rss+xml" href="/commented.xml"> -->
    </head><body></body></html>"""
    assert feed_links_in_html(html, "https://x.example/") == ()


def test_json_and_xml_types_with_rel_alternate() -> None:
    html = """<link rel="alternate" type="application/json" title="JSON" href="/feed.json">
    <link rel="ALTERNATE" type="text/xml" href="/old.xml">
    <link rel="alternate" type="application/rdf+xml" href="/index.rdf">
    <link rel="alternate" type="application/rss+xml" href="feed://x.example/rss">"""
    links = feed_links_in_html(html, "https://x.example/a/b")
    assert [(link.url, link.media_type) for link in links] == [
        ("https://x.example/feed.json", "application/json"),
        ("https://x.example/old.xml", "text/xml"),
        ("https://x.example/index.rdf", "application/rdf+xml"),
        ("http://x.example/rss", "application/rss+xml"),
    ]


def test_html_text_and_legacy_charset() -> None:
    html = '<html><head><meta charset="iso-8859-1"><link rel="alternate" '
    html += 'type="application/atom+xml" title="Caf\xe9" href="/atom"></head></html>'
    (link,) = feed_links_in_html(html.encode("iso-8859-1"), "https://x.example/")
    assert link.title == "Café"
    (from_text,) = feed_links_in_html(html, "https://x.example/")
    assert from_text.title == "Café"


@pytest.mark.parametrize("html", [b"", "   ", b"\x00\x01\x02\x03" * 300])
def test_nothing_to_find(html: bytes | str) -> None:
    assert feed_links_in_html(html, "https://x.example/") == ()


def test_link_header() -> None:
    header = (
        '<https://a.example/feed>; rel="alternate"; type="application/rss+xml"; '
        'title="News, daily", '
        '</comments.xml>; rel=alternate; type=application/rss+xml; title="Comments", '
        '</atom.xml>; rel="alternate nofollow"; type="application/atom+xml"; '
        "title*=UTF-8''caf%C3%A9; title=\"cafe\", "
        '<https://a.example/>; rel="canonical", '
        '</page.de.html>; rel="alternate"; type="text/html"; hreflang="de"'
    )
    links = feed_links_in_header(header, "https://a.example/blog/post")
    assert links == (
        FeedLink("https://a.example/feed", "News, daily", "application/rss+xml", "link-header"),
        FeedLink("https://a.example/atom.xml", "café", "application/atom+xml", "link-header"),
        FeedLink(
            "https://a.example/comments.xml", "Comments", "application/rss+xml", "link-header"
        ),
    )


@pytest.mark.parametrize("header", ["", "garbage", "<>; rel=alternate", '<x>; rel="next"'])
def test_link_header_without_feeds(header: str) -> None:
    assert feed_links_in_header(header, "https://a.example/") == ()


def test_guessed_links_are_on_the_site_root() -> None:
    links = guessed_feed_links("https://blog.example.com/2024/05/post.html?x=1#top")
    assert [link.url for link in links] == [
        f"https://blog.example.com{path}" for path in COMMON_FEED_PATHS
    ]
    assert "https://blog.example.com/index.xml" in [link.url for link in links]
    assert "https://blog.example.com/?feed=rss2" in [link.url for link in links]
    assert {link.source for link in links} == {"guess"}
    assert guessed_feed_links("not a url") == ()


@pytest.mark.parametrize(
    "name",
    ["rss20_content.xml", "rss091.xml", "rdf10.rdf", "atom_xmlbase.xml", "jsonfeed11.json"],
)
def test_fixture_feeds_look_like_feeds(name: str) -> None:
    assert looks_like_feed((FEEDS / name).read_bytes(), None)
    assert looks_like_feed((FEEDS / name).read_bytes(), "text/plain")


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        (
            b"\xef\xbb\xbf<?xml version='1.0'?>\n<!-- c --><?xml-stylesheet href='s'?><rss>",
            None,
            True,
        ),
        ('<?xml version="1.0" encoding="UTF-16"?><feed xmlns="x">'.encode("utf-16"), None, True),
        ("<feed>".encode("utf-16-le"), "text/xml", True),
        (b'<!DOCTYPE rss SYSTEM "x"><rss version="0.91">', None, True),
        (b'{"items": [], "version": "https:\\/\\/jsonfeed.org\\/version\\/1.1"}', None, True),
        (b"<anything/>", "application/rss+xml", True),
        (b"<!doctype html><html><head></head></html>", "text/html", False),
        (b"<html><body><rss>quoted</rss></body></html>", "text/xml", False),
        (b'{"version": "2.0", "items": []}', "application/json", False),
        (b"<urlset/>", "application/xml", False),
        (b"", "application/rss+xml", False),
        (b"plain text", None, False),
    ],
)
def test_looks_like_feed(body: bytes, content_type: str | None, expected: bool) -> None:
    assert looks_like_feed(body, content_type) is expected


def test_discovered_feed_parses() -> None:
    """The chain a caller runs: page -> link -> body -> sniff -> parse."""
    (link, *_) = feed_links_in_html((FEEDS / "page.html").read_bytes(), PAGE_URL)
    body = (FEEDS / "rss20_content.xml").read_bytes()
    assert looks_like_feed(body, "application/xml")
    assert parse_feed(body, link.url).title == "Lighthouse Notes"
    json_body = json.dumps({"version": "https://jsonfeed.org/version/1", "items": []}).encode()
    assert looks_like_feed(json_body, "application/json")

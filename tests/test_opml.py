"""OPML subscription lists: nested folders, odd exporters, hostile files, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from feedsift.acquisition.opml import Subscription, read_opml, write_opml
from feedsift.errors import FeedError

FEEDS = Path(__file__).parent / "fixtures" / "feeds"


def test_nested_folders_become_categories() -> None:
    subscriptions = read_opml((FEEDS / "subscriptions.opml").read_bytes())
    assert subscriptions == (
        Subscription(
            xml_url="https://top.example.com/feed.xml",
            title="Top-level feed",
            html_url="https://top.example.com/",
        ),
        Subscription(
            xml_url="https://snakes.example.org/rss",
            title="Snake Weekly",
            html_url="https://snakes.example.org/",
            category="Tech/Python",
        ),
        # url= on a type="rss" outline (an old exporter); the type="link" url= is no feed
        Subscription(
            "https://legacy.example.org/atom.xml", "Old reader export", None, "Tech/Python"
        ),
        # xmlurl in lower case
        Subscription("https://lighthouse.example.org/feed.xml", "Lighthouse Notes", None, "Tech"),
        # title preferred over text; the repeated snakes feed is dropped
        Subscription("https://wire.example.net/feed", "Wire", None, "News"),
    )


def test_round_trip() -> None:
    original = read_opml((FEEDS / "subscriptions.opml").read_bytes())
    written = write_opml(original)
    assert read_opml(written, "written.opml") == original
    assert write_opml(original) == written  # no dateCreated: the same list, the same bytes
    root = etree.fromstring(written)
    assert root.get("version") == "2.0"
    assert root.findtext("head/title") == "feedsift subscriptions"
    assert b"dateCreated" not in written
    assert written.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    tech = root.find("body/outline[@text='Tech']")
    assert tech is not None and tech.find("outline[@text='Python']/outline") is not None


def test_write_groups_and_deduplicates() -> None:
    written = write_opml(
        [
            Subscription("https://a.example/feed", category="B/C"),
            Subscription("https://b.example/feed", "Bee & <Co>", "https://b.example/", "B"),
            Subscription("https://a.example/feed", "duplicate", category="Z"),
            Subscription("https://c.example/feed", category=" B / C "),
        ],
        title="Mine",
    )
    assert read_opml(written) == (
        Subscription("https://a.example/feed", None, None, "B/C"),
        Subscription("https://c.example/feed", None, None, "B/C"),
        Subscription("https://b.example/feed", "Bee & <Co>", "https://b.example/", "B"),
    )
    assert etree.fromstring(written).findtext("head/title") == "Mine"


def test_empty_list() -> None:
    assert read_opml(write_opml([])) == ()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "my.opml: not well-formed OPML"),
        (b"<opml><body><outline xmlUrl='x'></body></opml>", "my.opml: not well-formed OPML"),
        (b"<rss version='2.0'><channel/></rss>", r"my.opml: not an OPML file \(no <opml>"),
        (b"<opml version='2.0'><head/></opml>", r"my.opml: not an OPML file \(no <body>"),
        (
            b'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<opml><body><outline text="&x;" xmlUrl="https://x.example/&x;"/></body></opml>',
            "my.opml: not well-formed OPML",
        ),
    ],
    ids=["empty", "mismatched", "not-opml", "no-body", "external-entity"],
)
def test_bad_files_name_their_source(data: bytes, reason: str) -> None:
    with pytest.raises(FeedError, match=reason) as caught:
        read_opml(data, "my.opml")
    assert "\n" not in str(caught.value)


def test_billion_laughs_is_not_expanded() -> None:
    levels = "".join(
        f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' if n else '<!ENTITY l0 "lol">' for n in range(10)
    )
    data = (
        f'<?xml version="1.0"?><!DOCTYPE opml [{levels}]>'
        '<opml><body><outline text="&l9;" xmlUrl="https://x.example/&l9;"/></body></opml>'
    ).encode()
    with pytest.raises(FeedError, match="not well-formed OPML"):
        read_opml(data)


def test_entity_in_text_is_left_alone() -> None:
    data = (
        b'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY e "expanded">]>'
        b"<opml><body><outline text='t' xmlUrl='https://x.example/feed'>&e;</outline>"
        b"</body></opml>"
    )
    assert read_opml(data) == (Subscription("https://x.example/feed", "t"),)

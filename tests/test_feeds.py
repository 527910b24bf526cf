"""Feed reading: RSS 0.91/1.0/2.0, Atom, JSON Feed, broken and hostile bodies, real feeds."""

from __future__ import annotations

import codecs
import gzip
import json
import socket
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from feedsift.acquisition.feeds import MAX_FEED_BYTES, FeedEntry, ParsedFeed, parse_feed
from feedsift.errors import FeedError

FEEDS = Path(__file__).parent / "fixtures" / "feeds"
SSG = Path(__file__).resolve().parents[2] / "shared" / "sites" / "ssg"
ENTITY_REFUSAL = "refused: the feed declares XML entities"


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing is pure: any connection attempt (a DTD, an external entity) fails the test."""

    def refuse(*args: object) -> None:
        raise AssertionError(f"feed parsing tried to connect to {args[1:]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)


def read(name: str, url: str, content_type: str | None = None) -> ParsedFeed:
    return parse_feed((FEEDS / name).read_bytes(), url, content_type)


def test_rss20_with_content_encoded_and_dc_creator() -> None:
    feed = read("rss20_content.xml", "https://lighthouse.example.org/feed.xml")
    assert (feed.format, feed.title) == ("rss", "Lighthouse Notes")
    assert feed.site_url == "https://lighthouse.example.org/"
    first, second, third = feed.entries
    assert first.url == "https://lighthouse.example.org/2024/03/keepers-log-books/"
    assert first.title == "Keepers & their log books"
    assert first.description == "The keepers kept a log book <em>every</em> night."
    assert first.content is not None and "wrote the time the lamp was lit" in first.content
    assert first.authors == ("Ada Keeper", "Ben Lamp")
    assert first.tags == ("history", "Lighthouses")
    assert first.guid == "post-1042"
    assert first.published == datetime(2024, 3, 5, 8, 30, tzinfo=UTC)
    assert first.updated is None
    # The guid is a permalink (no isPermaLink="false"): it is the link.
    assert second.url == "https://lighthouse.example.org/2024/02/fog-signals/"
    assert second.published is None  # "not a date at all" is no error
    # isPermaLink="false" and no <link>: no address is invented.
    assert third.url is None and third.guid == "https://lighthouse.example.org/?p=77"
    assert feed.warnings == ("1 of 3 entries have no absolute http(s) link",)
    assert feed.full_content


def test_html_in_entries_is_sanitised_and_absolute() -> None:
    content = (
        read("rss20_content.xml", "https://lighthouse.example.org/feed.xml").entries[0].content
    )
    assert content is not None
    assert "<script" not in content and "tracker" not in content
    assert 'src="https://lighthouse.example.org/img/log.jpg"' in content
    assert 'href="https://lighthouse.example.org/older/"' in content


def test_rss091_with_netscape_doctype_reads_without_network() -> None:
    feed = read("rss091.xml", "http://oldwire.example.com/rss.xml", "text/xml")
    assert (feed.format, feed.title, len(feed.entries)) == ("rss", "Old Wire", 2)
    assert feed.entries[1].url == "http://oldwire.example.com/stories/portals.html"
    assert feed.entries[1].content is None
    assert feed.warnings == ()
    assert not feed.full_content


def test_rss10_rdf() -> None:
    feed = read("rdf10.rdf", "https://journal.example.net/index.rdf")
    assert (feed.format, feed.title) == ("rdf", "Field Journal")
    wrens = feed.entries[0]
    assert wrens.url == "https://journal.example.net/entries/wrens"
    assert wrens.authors == ("Cora Finch",) and wrens.tags == ("birds",)
    assert wrens.updated == datetime(2023, 12, 1, 12, 15, tzinfo=UTC)  # dc:date, to UTC


def test_atom_relative_links_and_xml_base() -> None:
    feed = read("atom_xmlbase.xml", "https://bells.example.com/blog/atom.xml")
    assert (feed.format, feed.title) == ("atom", "Bells & Whistles")
    assert feed.site_url == "https://bells.example.com/blog/"
    first, mirrored, only_id = feed.entries
    # The alternate link, not the replies or enclosure ones, resolved against xml:base.
    assert first.url == "https://bells.example.com/blog/posts/first-bells.html"
    assert first.title == "The first bicycle bells"
    assert first.published == datetime(2024, 5, 1, 6, 0, tzinfo=UTC)
    assert first.updated == datetime(2024, 5, 2, 10, 0, tzinfo=UTC)
    assert first.tags == ("History of cycling", "bells")
    assert first.authors == ("Dora Bell",)  # inherited from the feed, as Atom says
    assert first.content is not None
    assert 'href="https://bells.example.com/blog/other-bells.html"' in first.content
    assert 'src="https://bells.example.com/img/bell.png"' in first.content
    assert mirrored.url == "https://mirror.example.net/archive/mirrored.html"
    assert mirrored.authors == ("Eli Horn",)
    assert mirrored.description == ""  # Atom content only: no summary was given
    assert mirrored.content == "<p>A post whose base differs from the feed's.</p>"
    # No <link>: an id that is a web address is the permalink; a tag: id never is.
    assert only_id.url == "https://bells.example.com/blog/posts/only-id.html"
    assert only_id.content is None and only_id.published is None
    assert first.guid == "tag:bells.example.com,2024:first-bells"


def test_json_feed_1_1() -> None:
    feed = read("jsonfeed11.json", "https://kettle.example.org/feed.json", "application/feed+json")
    assert (feed.format, feed.title) == ("json", "Kettle Log")
    assert feed.site_url == "https://kettle.example.org/"
    limescale, whistle = feed.entries
    assert limescale.url == "https://kettle.example.org/posts/limescale"
    assert limescale.title == "Limescale & you"
    assert limescale.description == "Why kettles fur up."
    # Sanitised and made absolute against the item's URL, as in RSS and Atom.
    assert limescale.content == (
        '<p>Why kettles fur up, and what <a href="https://kettle.example.org/vinegar">vinegar</a>'
        " does about it.</p>"
    )
    assert limescale.published == datetime(2024, 1, 10, 7, 0, tzinfo=UTC)
    assert limescale.updated == datetime(2024, 1, 11, 9, 30, tzinfo=UTC)
    assert limescale.authors == ("Fay Kettle",)  # the feed's authors
    assert limescale.tags == ("kitchen", "chemistry")
    assert whistle.guid == "2" and whistle.content == "A plain-text post about whistling kettles."
    assert whistle.published is None and whistle.authors == ("Gus Steam",)
    assert feed.warnings == ("JSON Feed: 1 of 3 items are not objects; skipped",)
    assert feed.full_content


def test_json_feed_1_0_found_by_its_version_whatever_the_content_type() -> None:
    body = json.dumps(
        {
            "version": "https://jsonfeed.org/version/1",
            "title": "One",
            "author": {"name": "Old Style"},
            "items": [{"id": "a", "url": "a.html", "content_text": "x", "title": "A"}],
        }
    ).encode()
    feed = parse_feed(body, "https://one.example/feeds/feed.json", "text/plain")
    assert feed.format == "json"
    assert feed.entries[0].url == "https://one.example/feeds/a.html"
    assert feed.entries[0].authors == ("Old Style",)


def test_excerpt_only_feed_has_no_content() -> None:
    feed = read("excerpt_only.xml", "https://teasers.example.com/rss")
    assert all(entry.content is None for entry in feed.entries)
    assert feed.entries[0].description == "<p>The beginning of the first story&hellip;</p>"
    assert not feed.full_content


def test_not_well_formed_feed_is_read_with_a_warning() -> None:
    feed = read("broken.xml", "https://broken.example.com/feed")
    assert [entry.title for entry in feed.entries] == ["Salt & pepper", "Second post"]
    assert feed.entries[0].url == "https://broken.example.com/salt-and-pepper"
    (warning,) = feed.warnings
    assert warning.startswith("not well-formed XML at line 7: ")
    assert warning.endswith("; read with the lenient parser")


def test_warning_lines_count_from_the_body_as_given() -> None:
    # Two blank lines and no XML declaration (feedparser adds one): lines still count from
    # the body as given.
    body = b"\n\n" + (FEEDS / "broken.xml").read_bytes().split(b"\n", 1)[1]
    line = body.split(b"\n").index(b"      <title>Salt & pepper</title>") + 1
    (warning,) = parse_feed(body, "https://broken.example.com/feed").warnings
    assert warning.startswith(f"not well-formed XML at line {line}: ")


@pytest.mark.parametrize("content_type", [None, "text/xml", "application/rss+xml"])
def test_iso_8859_1_feed_with_declared_encoding(content_type: str | None) -> None:
    feed = read("latin1.xml", "https://cafe.example.fr/rss", content_type)
    assert feed.title == "Café de la Gare"
    entry = feed.entries[0]
    assert entry.title == "La crème brûlée du gérant"
    assert entry.authors == ("François Müller",)
    assert entry.published == datetime(2024, 5, 12, 12, 0, tzinfo=UTC)


def test_charset_of_the_content_type_is_used() -> None:
    body = (FEEDS / "latin1.xml").read_bytes().replace(b'encoding="ISO-8859-1"', b"")
    # Undeclared, the bytes are not UTF-8 as XML presumes: read as windows-1252 (a superset
    # of ISO-8859-1's printable characters), with a warning.
    guessed = parse_feed(body, "https://cafe.example.fr/rss")
    assert guessed.title == "Café de la Gare"
    assert guessed.warnings == ("encoding: document declared as utf-8, but parsed as windows-1252",)
    declared = parse_feed(body, "https://cafe.example.fr/rss", "text/xml; charset=ISO-8859-1")
    assert declared.title == "Café de la Gare" and declared.warnings == ()


def test_utf16_feed() -> None:
    text = (FEEDS / "rss091.xml").read_text("latin-1").replace("ISO-8859-1", "UTF-16")
    feed = parse_feed(text.encode("utf-16"), "http://oldwire.example.com/rss.xml")
    assert feed.title == "Old Wire" and len(feed.entries) == 2


#: An Atom feed whose entry title holds ``{title}`` (bytes), then an element with a long attribute.
ATOM_TITLE = (
    b'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t'
    b'</title><entry><title>{title}<div class="{attribute}">t</div></title>'
    b'<link href="https://uvm.example.com/1"/></entry></feed>'
)


def _atom_with_title(title: bytes, attribute_length: int) -> bytes:
    return ATOM_TITLE.replace(b"{title}", title).replace(b"{attribute}", b"a" * attribute_length)


def test_a_broken_utf8_sequence_is_decoded_before_feedparser() -> None:
    # At 20 kB this body took feedparser over 20 s (chardet's word filter is quadratic in a
    # run of ASCII letters, and feedparser asks chardet when the declared encoding fails); a
    # valid body took 0.00 s. The bound is a guard against that, ten thousand times wider
    # than what the body takes now (about a millisecond).
    broken = _atom_with_title(b"UVM RAl\xe7\x9a", 20_000)
    started = time.perf_counter()
    feed = parse_feed(broken, "https://uvm.example.com/feed")
    assert time.perf_counter() - started < 5.0
    assert feed.entries[0].title.startswith("UVM RAl")
    assert feed.warnings == ("encoding: document declared as utf-8, but parsed as windows-1252",)


def test_a_cut_character_in_a_utf8_feed_is_replaced_not_reread() -> None:
    body = _atom_with_title("Caf\u00e9 \u00e0 l\u2019heure ".encode() + b"\xe7\x9a", 10)
    feed = parse_feed(body, "https://uvm.example.com/feed")
    assert feed.entries[0].title.startswith("Caf\u00e9 \u00e0 l\u2019heure \ufffd")
    assert feed.warnings == ("encoding: 1 invalid utf-8 sequence replaced",)


def test_a_broken_body_in_a_declared_legacy_encoding_keeps_it() -> None:
    head = "<rss version='2.0'><channel><title>ニュース</title><item><title>記事</title>"
    tail = b"<link>https://jp.example/1</link></item></channel></rss>"
    broken = head.encode("shift_jis") + b"\x81" + tail
    feed = parse_feed(broken, "https://jp.example/rss", "application/rss+xml; charset=shift_jis")
    assert feed.title == "ニュース"
    assert feed.warnings[0] == "encoding: 1 invalid shift_jis sequence replaced"


def test_json_nested_too_deeply_is_not_a_feed() -> None:
    with pytest.raises(FeedError, match=r"^not a feed: JSON nested too deeply to read$"):
        parse_feed(b"[" * 100_000 + b"]" * 100_000, "https://deep.example.com/feed.json")
    nested = b'{"version": "https://jsonfeed.org/version/1.1", "items": [' + b"[" * 100_000
    with pytest.raises(FeedError, match="nested too deeply"):
        parse_feed(nested + b"]" * 100_001 + b"}", "https://deep.example.com/feed.json")


def test_billion_laughs_is_refused() -> None:
    with pytest.raises(FeedError, match=ENTITY_REFUSAL):
        read("billion_laughs.xml", "https://laughs.example.com/feed")


def test_external_entity_is_refused() -> None:
    with pytest.raises(FeedError, match=ENTITY_REFUSAL):
        read("xxe.xml", "https://leak.example.com/feed")


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
        lambda text: text.replace("utf-8", "UTF-16").encode("utf-16"),
        lambda text: text.encode("utf-16"),  # a BOM that contradicts the declaration
        lambda text: text.encode("utf-16-le"),  # no BOM at all
        lambda text: text.replace("utf-8", "UTF-32").encode("utf-32"),
        lambda text: text.replace("utf-8", "cp037").encode("cp037"),  # EBCDIC
        lambda text: text.replace(
            "<!DOCTYPE rss [", '<!-- <rss> --><!DOCTYPE rss SYSTEM "<rss>" ['
        ).encode(),
    ],
    ids=["utf8-bom", "utf16", "utf16-bom-only", "utf16le-no-bom", "utf32", "ebcdic", "decoys"],
)
def test_entity_declarations_are_found_in_any_encoding(encode: object) -> None:
    text = (FEEDS / "billion_laughs.xml").read_text("utf-8")
    assert callable(encode)
    with pytest.raises(FeedError, match=ENTITY_REFUSAL):
        parse_feed(encode(text), "https://laughs.example.com/feed")


def test_entity_in_content_is_not_a_declaration() -> None:
    body = (
        (FEEDS / "excerpt_only.xml")
        .read_bytes()
        .replace(
            b"The beginning of the second story...",
            b'<![CDATA[Beware of <!ENTITY x "y"> in posts about XML]]>',
        )
    )
    feed = parse_feed(body, "https://teasers.example.com/rss")
    assert 'ENTITY x "y"' in feed.entries[1].description


def test_size_cap() -> None:
    body = b"<rss>" + b" " * MAX_FEED_BYTES
    with pytest.raises(FeedError, match=r"^refused: the feed is \d+ bytes"):
        parse_feed(body, "https://big.example.com/feed")


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        ((FEEDS / "page.html").read_bytes(), "text/html", "not a feed: looks like an HTML page"),
        (b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"/>', None, "HTML"),
        (b"", None, "not a feed: the body is empty"),
        (b" \r\n ", None, "not a feed: the body is empty"),
        (gzip.compress(b"<rss/>"), None, "gzip-compressed"),
        (b"\x89PNG\r\n\x1a\n" + bytes(64), None, "a PNG image"),
        (bytes(range(256)) * 4, None, "not a feed: the body is binary data"),
        (b'{"name": "x"}', "application/json", "JSON without a https://jsonfeed.org/version/"),
        (b'{"version": ', "application/json", r"not a feed: JSON not valid \(Expecting value"),
        (b"[1, 2]", None, "not a feed: JSON whose top level is not an object"),
        (
            b'<?xml version="1.0"?>\n<urlset><url><loc>https://x/</loc></url></urlset>',
            "application/xml",
            r"not a feed: the root element is <urlset>",
        ),
        (
            b'<?xml version="1.0"?>\n<rss version="2.0">\n<channel><foo></bar>',
            None,
            r"not a feed: XML not well-formed \(mismatched tag at line 3\)",
        ),
        (b"just some words", "text/plain", "not a feed: XML not well-formed"),
    ],
    ids=[
        "html",
        "xhtml",
        "empty",
        "blank",
        "gzip",
        "png",
        "binary",
        "json",
        "bad-json",
        "json-list",
        "sitemap",
        "broken-empty",
        "text",
    ],
)
def test_not_a_feed(body: bytes, content_type: str | None, reason: str) -> None:
    with pytest.raises(FeedError, match=reason) as caught:
        parse_feed(body, "https://x.example/feed", content_type)
    assert "\n" not in str(caught.value)


def test_empty_but_valid_feed_is_a_feed() -> None:
    feed = parse_feed(
        b'<rss version="2.0"><channel><title>Quiet</title></channel></rss>', "https://q/"
    )
    assert (feed.title, feed.entries, feed.warnings) == ("Quiet", (), ())
    assert not feed.full_content


def test_placeholder_dates_are_none() -> None:
    body = (
        (FEEDS / "excerpt_only.xml")
        .read_bytes()
        .replace(b"Wed, 01 May 2024 12:00:00 GMT", b"Mon, 01 Jan 0001 00:00:00 +0000")
    )
    assert parse_feed(body, "https://teasers.example.com/rss").entries[0].published is None


def test_local_links_are_reported() -> None:
    body = (
        (FEEDS / "excerpt_only.xml")
        .read_bytes()
        .replace(b"https://teasers.example.com/first", b"http://localhost:4000/first")
    )
    feed = parse_feed(body, "https://teasers.example.com/rss")
    assert feed.entries[0].url == "http://localhost:4000/first"
    assert any("point to a local host" in warning for warning in feed.warnings)
    # Fetched from the developer's machine itself: nothing to say.
    assert parse_feed(body, "http://localhost:4000/rss").warnings == ()


def test_records_are_frozen() -> None:
    entry = read("rss091.xml", "http://oldwire.example.com/rss.xml").entries[0]
    assert isinstance(entry, FeedEntry)
    with pytest.raises(AttributeError):
        entry.title = "changed"  # type: ignore[misc]


# --- the 24 real feeds of ../shared/sites/ssg ------------------------------------------------

#: All 24 feeds give linked, titled entries, but six only literally: 0b00101111, 0x27, 0xRick,
#: 0xb120, 610611108 and Authing were built on the author's machine, so their links (and
#: site.json's site URL) are http://localhost:PORT/...; no other address is in those feeds.
#:
#: Sites whose feed.xml is not well-formed XML: read by the lenient parser, with a warning.
#: 0x27: a raw "&" in a title ("spies C&C infrastructure", line 223; the lenient parser
#: reads it as "C&C;").
EXPECTED_WARNINGS = {"0x27__0x27.github.io"}
#: Where full_content (content longer than the description) and site.json disagree. The
#: first six put the whole post in <description>/<summary> and have no content element, so
#: by our definition they carry no content; Authing puts a ~900-character excerpt in Atom
#: <content> and no <summary>, so its excerpt counts as content.
FULL_CONTENT_DISAGREEMENTS = {
    "0b00101111__flow",
    "3-24__3-24.github.io",
    "610611108__Helen-Liu-blog",
    "DankoDmitry__blog",
    "X-Wei__x-wei.github.com",
    "avelino__avelino.run",
    "Authing__blog",
}


def real_feed_url(site: dict[str, object], folder: Path) -> str:
    """Where the feed is served: the site URL plus the feed's path in the build directory.

    avelino's site.json has the site URL "/" (Pelican without SITEURL, so its feed links
    are relative too): a stand-in host under .invalid resolves them.
    """
    feed_path = str(site["feed_path"]).removeprefix(str(site.get("build_dir") or ""))
    site_url = str(site["site_url"])
    if urlsplit(site_url).scheme not in ("http", "https"):
        site_url = f"https://{folder.name.lower().replace('_', '-')}.invalid/"
    return urljoin(site_url, feed_path)


RealFeeds = list[tuple[str, dict[str, object], ParsedFeed]]


@pytest.fixture(scope="module")
def real_feeds() -> RealFeeds:
    """Every real feed parsed once (about 8 s): site folder name, site.json, parsed feed."""
    if not SSG.is_dir():
        pytest.skip(f"the real feeds are missing: {SSG} (the shared data folder) not found")
    feeds = []
    for feed_file in sorted(SSG.glob("*/feed.xml")):
        site = json.loads((feed_file.parent / "site.json").read_text("utf-8"))
        url = real_feed_url(site, feed_file.parent)
        feeds.append((feed_file.parent.name, site, parse_feed(feed_file.read_bytes(), url)))
    return feeds


def test_every_real_feed_gives_linked_titled_entries(real_feeds: RealFeeds) -> None:
    assert len(real_feeds) == 24
    for name, site, feed in real_feeds:
        good = [
            entry
            for entry in feed.entries
            if entry.title and entry.url and urlsplit(entry.url).scheme in ("http", "https")
        ]
        assert good, f"{name}: no entry with an absolute link and a title"
        assert len(feed.entries) == site["n_feed_items"], name
        assert feed.format == ("rss" if site["feed_format"] == "rss20" else "atom"), name
        warned = any(warning.startswith("not well-formed XML") for warning in feed.warnings)
        assert warned == (name in EXPECTED_WARNINGS), (name, feed.warnings)
        dated = [entry for entry in feed.entries if entry.published or entry.updated]
        assert all(
            moment.tzinfo is UTC
            for entry in dated
            for moment in (entry.published, entry.updated)
            if moment
        )


def test_full_content_against_site_json(real_feeds: RealFeeds) -> None:
    disagreements = {
        name
        for name, site, feed in real_feeds
        if feed.full_content != site["feed_has_full_content"]
    }
    assert disagreements == FULL_CONTENT_DISAGREEMENTS


def test_a_namespace_uri_with_a_no_break_space_is_a_feed_error_not_a_crash() -> None:
    """feedparser's strict parser splits a namespaced name on any whitespace and raised
    ValueError on this feed; the user gets a FeedError with a one-line reason."""
    body = ('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
            'xmlns:content="http://purl.org/rss/1.0/modules/c\u00a0ntent/"><channel>'
            "<title>Notes</title><item><title>One</title><link>https://a.example/1</link>"
            "<content:encoded>x</content:encoded></item></channel></rss>").encode()  # fmt: skip
    with pytest.raises(FeedError, match="could not be read") as caught:
        parse_feed(body, "https://a.example/feed.xml")
    assert "\n" not in str(caught.value)

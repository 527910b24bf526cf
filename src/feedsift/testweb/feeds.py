"""Feed documents as real generators write them: RSS 2.0, Atom 1.0 and JSON Feed 1.1.

The XML is built with lxml, so titles and texts are escaped exactly as the standards want;
the feeds' dates are the newest item's date, so a feed's bytes (and hence its ETag) change
only when its items do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime

from lxml import etree

from feedsift.testweb.posts import BASE_DATE

__all__ = [
    "ATOM_TYPE",
    "JSON_FEED_TYPE",
    "RSS_TYPE",
    "FeedInfo",
    "FeedItem",
    "atom",
    "json_feed",
    "rss",
]

RSS_TYPE = "application/rss+xml; charset=UTF-8"
ATOM_TYPE = "application/atom+xml; charset=UTF-8"
JSON_FEED_TYPE = "application/feed+json; charset=UTF-8"
#: Namespaces a WordPress RSS feed declares.
RSS_NAMESPACES = {
    "content": "http://purl.org/rss/1.0/modules/content/",
    "dc": "http://purl.org/dc/elements/1.1/",
    "atom": "http://www.w3.org/2005/Atom",
    "wfw": "http://wellformedweb.org/CommentAPI/",
    "slash": "http://purl.org/rss/1.0/modules/slash/",
}
ATOM_NS = "http://www.w3.org/2005/Atom"


@dataclass(frozen=True, slots=True)
class FeedInfo:
    """The channel: title, the site's home page, the feed's own URL, a description."""

    title: str
    home: str
    url: str
    description: str
    generator: str


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One item; ``content_html`` is the full post (None: the feed carries ``summary`` only)."""

    title: str
    link: str
    guid: str
    published: datetime
    author: str
    categories: tuple[str, ...]
    summary: str
    content_html: str | None = None
    comments: int | None = None  #: comment count (RSS ``slash:comments``)


def _newest(items: Sequence[FeedItem]) -> datetime:
    return max((item.published for item in items), default=BASE_DATE)


def _add(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    element = etree.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def _rss_item(channel: etree._Element, item: FeedItem) -> None:
    ns = RSS_NAMESPACES
    entry = _add(channel, "item")
    _add(entry, "title", item.title)
    _add(entry, "link", item.link)
    if item.comments is not None:
        _add(entry, "comments", item.link.split("?")[0] + "#comments")
    _add(entry, f"{{{ns['dc']}}}creator").text = etree.CDATA(item.author)
    _add(entry, "pubDate", format_datetime(item.published))
    for category in item.categories:
        _add(entry, "category").text = etree.CDATA(category)
    _add(entry, "guid", item.guid, isPermaLink="true" if item.guid == item.link else "false")
    _add(entry, "description").text = etree.CDATA(item.summary)
    if item.content_html is not None:
        _add(entry, f"{{{ns['content']}}}encoded").text = etree.CDATA(item.content_html)
    if item.comments is not None:
        _add(entry, f"{{{ns['slash']}}}comments", str(item.comments))


def rss(info: FeedInfo, items: Sequence[FeedItem]) -> bytes:
    """An RSS 2.0 document in WordPress's shape (``content:encoded``, ``dc:creator``)."""
    root = etree.Element("rss", nsmap=RSS_NAMESPACES, version="2.0")
    channel = _add(root, "channel")
    _add(channel, "title", info.title)
    _add(channel, f"{{{ATOM_NS}}}link", href=info.url, rel="self", type="application/rss+xml")
    _add(channel, "link", info.home)
    _add(channel, "description", info.description)
    _add(channel, "lastBuildDate", format_datetime(_newest(items)))
    _add(channel, "language", "en-GB")
    _add(channel, "generator", info.generator)
    for item in items:
        _rss_item(channel, item)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _atom_add(
    parent: etree._Element, tag: str, text: str | None = None, **attrs: str
) -> etree._Element:
    return _add(parent, f"{{{ATOM_NS}}}{tag}", text, **attrs)


def _atom_entry(root: etree._Element, item: FeedItem) -> None:
    entry = _atom_add(root, "entry")
    _atom_add(entry, "title", item.title, type="text")
    _atom_add(entry, "link", href=item.link, rel="alternate", type="text/html")
    _atom_add(entry, "id", item.guid)
    _atom_add(entry, "published", item.published.isoformat())
    _atom_add(entry, "updated", item.published.isoformat())
    _atom_add(_atom_add(entry, "author"), "name", item.author)
    for category in item.categories:
        _atom_add(entry, "category", term=category)
    _atom_add(entry, "summary", item.summary, type="text")
    if item.content_html is not None:
        _atom_add(entry, "content", item.content_html, type="html")


def atom(info: FeedInfo, items: Sequence[FeedItem]) -> bytes:
    """An Atom 1.0 document with excerpts (``summary``) or full ``content``."""
    root = etree.Element(f"{{{ATOM_NS}}}feed", nsmap={None: ATOM_NS})  # type: ignore[dict-item]
    _atom_add(root, "title", info.title)
    _atom_add(root, "subtitle", info.description)
    _atom_add(root, "link", href=info.home, rel="alternate", type="text/html")
    _atom_add(root, "link", href=info.url, rel="self", type="application/atom+xml")
    _atom_add(root, "id", info.home.rstrip("/") + "/")
    _atom_add(root, "updated", _newest(items).isoformat())
    _atom_add(root, "generator", info.generator)
    for item in items:
        _atom_entry(root, item)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def json_feed(info: FeedInfo, items: Sequence[FeedItem]) -> bytes:
    """A JSON Feed 1.1 document."""
    document = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": info.title,
        "home_page_url": info.home,
        "feed_url": info.url,
        "description": info.description,
        "language": "en-GB",
        "items": [_json_item(item) for item in items],
    }
    return json.dumps(document, ensure_ascii=False, indent=2).encode()


def _json_item(item: FeedItem) -> dict[str, object]:
    found: dict[str, object] = {
        "id": item.guid,
        "url": item.link,
        "title": item.title,
        "summary": item.summary,
        "date_published": item.published.isoformat(),
        "authors": [{"name": item.author}],
        "tags": list(item.categories),
    }
    if item.content_html is not None:
        found["content_html"] = item.content_html
    else:
        found["content_text"] = item.summary
    return found

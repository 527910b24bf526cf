"""OPML subscription lists: read the files feed readers export, write one they import.

:func:`read_opml` takes outlines at any depth that carry a feed address; the titles of the
folders around an outline become its ``category`` ("Tech/Python"). :func:`write_opml` writes
OPML 2.0 grouped by category, without ``dateCreated`` so the same list gives the same bytes.
The XML parser resolves no entities, reads nothing from the network and keeps libxml2's
limits on huge documents, so a hostile file costs an error, never memory or a request.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

from feedsift.errors import FeedError

__all__ = ["CATEGORY_SEPARATOR", "FEED_URL_ATTRIBUTES", "Subscription", "read_opml", "write_opml"]

#: Joins the folder titles of a category, as feed readers show nested folders.
CATEGORY_SEPARATOR = "/"
#: Attributes (lower-cased) holding a feed address: OPML's ``xmlUrl``; ``url`` is what some
#: exporters write instead, and counts only on ``type="rss"`` outlines (elsewhere it is a link).
FEED_URL_ATTRIBUTES = ("xmlurl",)
RSS_URL_ATTRIBUTE = "url"
#: Attributes (lower-cased) holding the site's address.
HTML_URL_ATTRIBUTES = ("htmlurl",)
#: Attributes (lower-cased) naming an outline, best first (OPML requires ``text``).
TITLE_ATTRIBUTES = ("title", "text")

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True
)


@dataclass(frozen=True, slots=True)
class Subscription:
    """One feed of a subscription list, with the folders it sits in as ``category``."""

    xml_url: str
    title: str | None = None
    html_url: str | None = None
    category: str | None = None


def read_opml(data: bytes, source: str = "<opml>") -> tuple[Subscription, ...]:
    """The feeds of an OPML file, first occurrence of each address kept, in document order."""
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as error:
        raise FeedError(f"{source}: not well-formed OPML ({error.msg})") from error
    if root is None or etree.QName(root).localname.lower() != "opml":
        raise FeedError(f"{source}: not an OPML file (no <opml> root element)")
    body = next((child for child in root if _local_name(child) == "body"), None)
    if body is None:
        raise FeedError(f"{source}: not an OPML file (no <body> element)")
    unique: dict[str, Subscription] = {}
    for subscription in _walk(body, ()):
        unique.setdefault(subscription.xml_url, subscription)
    return tuple(unique.values())


def write_opml(
    subscriptions: Iterable[Subscription], title: str = "feedsift subscriptions"
) -> bytes:
    """OPML 2.0 in UTF-8, one folder outline per category level, in first-seen order."""
    root = etree.Element("opml", version="2.0")
    head = etree.SubElement(root, "head")
    etree.SubElement(head, "title").text = title
    body = etree.SubElement(root, "body")
    folders: dict[tuple[str, ...], etree._Element] = {(): body}
    seen: set[str] = set()
    for subscription in subscriptions:
        if subscription.xml_url in seen:
            continue
        seen.add(subscription.xml_url)
        parent = _folder(folders, _category_path(subscription.category))
        etree.SubElement(parent, "outline", _feed_attributes(subscription))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _walk(element: etree._Element, folders: tuple[str, ...]) -> Iterator[Subscription]:
    """Feeds under ``element``, depth first; every outline around them is a folder."""
    for outline in element:
        if _local_name(outline) != "outline":
            continue
        attributes = {str(key).lower(): str(value).strip() for key, value in outline.items()}
        title = next((attributes[a] for a in TITLE_ATTRIBUTES if attributes.get(a)), None)
        xml_url = _feed_url(attributes)
        if xml_url:
            yield Subscription(
                xml_url=xml_url,
                # A title that only repeats the address is what writers put when there is none.
                title=title if title != xml_url else None,
                html_url=next(
                    (attributes[a] for a in HTML_URL_ATTRIBUTES if attributes.get(a)), None
                ),
                category=CATEGORY_SEPARATOR.join(folders) or None,
            )
        yield from _walk(outline, (*folders, title) if title else folders)


def _feed_url(attributes: dict[str, str]) -> str | None:
    for name in FEED_URL_ATTRIBUTES:
        if attributes.get(name):
            return attributes[name]
    if attributes.get("type", "").lower() == "rss" and attributes.get(RSS_URL_ATTRIBUTE):
        return attributes[RSS_URL_ATTRIBUTE]
    return None


def _local_name(element: etree._Element) -> str:
    """Lower-cased local name of an element; comments and PIs have none."""
    if not isinstance(element.tag, str):
        return ""
    return etree.QName(element).localname.lower()


def _category_path(category: str | None) -> tuple[str, ...]:
    parts = (category or "").split(CATEGORY_SEPARATOR)
    return tuple(part.strip() for part in parts if part.strip())


def _folder(
    folders: dict[tuple[str, ...], etree._Element], path: tuple[str, ...]
) -> etree._Element:
    """The folder outline for ``path``, made (with its parents) on first use."""
    if path not in folders:
        parent = _folder(folders, path[:-1])
        folders[path] = etree.SubElement(parent, "outline", text=path[-1], title=path[-1])
    return folders[path]


def _feed_attributes(subscription: Subscription) -> dict[str, str]:
    attributes = {
        "type": "rss",
        "text": subscription.title or subscription.xml_url,
        "xmlUrl": subscription.xml_url,
    }
    if subscription.title:
        attributes["title"] = subscription.title
    if subscription.html_url:
        attributes["htmlUrl"] = subscription.html_url
    return attributes

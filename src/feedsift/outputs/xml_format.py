"""Articles as XML shaped like trafilatura's: a ``<doc>`` with metadata attributes and a
``<main>`` body of ``<head>``, ``<p>``, ``<list>``, ``<quote>``, ``<code>`` and ``<table>``.

Code that reads trafilatura's XML output finds the same elements here: ``<head rend="h2">``
for headings, ``<list rend="ul">`` of ``<item>``, ``<lb/>`` for line breaks inside a
paragraph, ``<table>`` of ``<row>`` of ``<cell>`` (``role="head"`` in header rows) and a
``<comments>`` section. Listing pages add a ``<posts>`` section. Several documents in one
stream are the children of one ``<docs>`` root.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from datetime import datetime
from urllib.parse import urlsplit

from lxml import etree

from feedsift.outputs.origin import Origin
from feedsift.records import Article, BodyPart, Comment, Teaser

__all__ = ["XML_DECLARATION", "render_xml", "xml_document"]

XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'
#: How a list of names is written in one attribute, as trafilatura writes authors and tags.
LIST_SEPARATOR = "; "
#: Element and ``rend`` of each part kind that is not a heading, an item, code or a table.
PART_ELEMENTS: Mapping[str, tuple[str, str | None]] = {
    "paragraph": ("p", None), "quote": ("quote", None), "caption": ("p", "caption"),
    "cell": ("p", "cell"),
}  # fmt: skip

#: Characters XML 1.0 cannot hold (controls but tab and line breaks, lone surrogates, ...).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("", text)


def render_xml(article: Article, origin: Origin | None = None) -> str:
    """One standalone XML document (declaration and ``<doc>``)."""
    return XML_DECLARATION + xml_document(article, origin)


def xml_document(article: Article, origin: Origin | None = None) -> str:
    """The ``<doc>`` element of ``article``, pretty-printed, ending with a newline; the
    origin's fields (``input``, ``warc_record_id``, ``warc_date``) are attributes."""
    doc = etree.Element("doc", _doc_attributes(article, origin or Origin()))
    main = etree.SubElement(doc, "main")
    for element in _body(article.body):
        main.append(element)
    if article.posts:
        posts = etree.SubElement(doc, "posts")
        posts.extend(_post(post) for post in article.posts)
    if article.comments:
        comments = etree.SubElement(doc, "comments")
        comments.extend(_comment(comment) for comment in article.comments)
    return etree.tostring(doc, encoding="unicode", pretty_print=True)


def _doc_attributes(article: Article, origin: Origin) -> dict[str, str]:
    url = article.canonical_url or article.url
    values = {
        **{name: str(value) for name, value in origin.fields().items() if value is not None},
        "sitename": article.site_name,
        "title": article.title,
        "author": LIST_SEPARATOR.join(article.authors),
        "date": _day(article.published),
        "published": article.published.isoformat() if article.published else None,
        "url": url,
        "hostname": urlsplit(url).hostname if url else None,
        "description": article.description,
        "tags": LIST_SEPARATOR.join(article.tags),
        "image": article.image,
        "language": article.language,
        "pagetype": str(article.kind),
    }
    return {name: _clean(value) for name, value in values.items() if value}


def _day(moment: datetime | None) -> str | None:
    return moment.date().isoformat() if moment else None


def _body(body: tuple[BodyPart, ...]) -> Iterator[etree._Element]:
    for is_item, run in itertools.groupby(body, key=lambda part: part.kind == "item"):
        if is_item:
            items = etree.Element("list", rend="ul")
            items.extend(_lines("item", part.text) for part in run)
            yield items
        else:
            yield from (_part(part) for part in run)


def _part(part: BodyPart) -> etree._Element:
    if part.kind == "heading":
        return _lines("head", part.text, f"h{part.level or 2}")
    if part.kind == "code":
        code = etree.Element("code")
        code.text = _clean(part.text)
        return code
    if part.kind == "table" and part.rows:
        return _table(part)
    tag, rend = PART_ELEMENTS.get(part.kind, ("p", None))
    return _lines(tag, part.text, rend)


def _lines(tag: str, text: str, rend: str | None = None) -> etree._Element:
    """An element holding ``text``, its line breaks as ``<lb/>`` elements."""
    element = etree.Element(tag, rend=rend) if rend else etree.Element(tag)
    first, *rest = _clean(text).split("\n")
    element.text = first
    for line in rest:
        etree.SubElement(element, "lb").tail = line
    return element


def _table(part: BodyPart) -> etree._Element:
    table = etree.Element("table")
    for number, cells in enumerate(part.rows):
        row = etree.SubElement(table, "row", span=str(len(cells)))
        for text in cells:
            cell = etree.SubElement(row, "cell", role="head") if number < part.head_rows else (
                etree.SubElement(row, "cell")
            )  # fmt: skip
            cell.text = _clean(text)
    return table


def _post(post: Teaser) -> etree._Element:
    values = {"title": post.title, "url": post.url, "date": _day(post.published)}
    element = etree.Element("post", {k: _clean(v) for k, v in values.items() if v})
    element.text = _clean(post.text)
    return element


def _comment(comment: Comment) -> etree._Element:
    element = _lines("p", comment.text)
    if comment.author:
        element.set("author", _clean(comment.author))
    return element

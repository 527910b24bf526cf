"""One quick walk over the document for every element metadata lives in.

``<meta>``, ``<link>``, ``<base>``, ``<title>``, ``<h1>``, ``<time>`` (and ``<abbr>`` that
keeps an ISO date in its ``title``), ``rel=author`` /
``rel=tag`` anchors (and every anchor, for the front-page links) are gathered by one
``iter`` over those tags (the walk runs in C) and each kind goes to its bucket, in document
order, so no reader walks the tree again.
Microdata (``itemprop`` on any element) needs a second walk, so it has its own function,
called only when the cheaper sources leave a field empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from feedsift.metadata.dates import ISO_DATE_START
from feedsift.parsing.blocks import INLINE_TAGS
from feedsift.parsing.xpath import select_elements
from feedsift.text.tokens import normalize_space

__all__ = [
    "MarkupIndex", "elements", "microdata_elements", "scan_markup", "spaced_text_of", "text_of",
]

#: Tags the metadata readers look at, found by one walk of the tree in C (``iter``).
SCANNED_TAGS = ("meta", "link", "base", "title", "h1", "time", "abbr", "a")
#: Microdata elements: an attribute test is cheapest from the attribute axis.
_ITEMPROP = etree.XPath("//@itemprop/..")

#: Anchors' ``rel`` tokens that mark the linked text as an author name or a tag.
REL_AUTHOR = "author"
REL_TAGS = frozenset({"tag", "category"})


@dataclass(frozen=True, slots=True)
class MarkupIndex:
    """The metadata-bearing elements of one document, each bucket in document order."""

    metas: tuple[etree._Element, ...]
    links: tuple[etree._Element, ...]
    base_href: str | None
    title: etree._Element | None  #: the first ``<title>``
    h1s: tuple[etree._Element, ...]
    times: tuple[etree._Element, ...]  #: ``<time>``, and ``<abbr>`` with an ISO ``title``
    author_links: tuple[etree._Element, ...]  #: ``<a rel=author>``
    tag_links: tuple[etree._Element, ...]  #: ``<a rel=tag>`` and ``<a rel=category>``
    anchors: tuple[etree._Element, ...]  #: every ``<a>`` (front-page links are among them)


def scan_markup(root: etree._Element) -> MarkupIndex:
    """Find and bucket the metadata-bearing elements of ``root``."""
    buckets: dict[str, list[etree._Element]] = {
        "meta": [], "link": [], "base": [], "title": [], "h1": [], "time": [],
        "author": [], "tag": [], "a": [],
    }  # fmt: skip
    for element in root.iter(*SCANNED_TAGS):
        tag = str(element.tag)
        if tag == "a":
            _bucket_anchor(element, buckets)
        elif tag == "abbr":  # microformats' "abbr design pattern" (hAtom's abbr.published):
            if ISO_DATE_START.match(element.get("title") or ""):  # a <time> of older themes
                buckets["time"].append(element)
        else:
            buckets[tag].append(element)
    base = buckets["base"][0].get("href") if buckets["base"] else None
    return MarkupIndex(
        metas=tuple(buckets["meta"]),
        links=tuple(buckets["link"]),
        base_href=base.strip() if base else None,
        title=buckets["title"][0] if buckets["title"] else None,
        h1s=tuple(buckets["h1"]),
        times=tuple(buckets["time"]),
        author_links=tuple(buckets["author"]),
        tag_links=tuple(buckets["tag"]),
        anchors=tuple(buckets["a"]),
    )


def _bucket_anchor(element: etree._Element, buckets: dict[str, list[etree._Element]]) -> None:
    buckets["a"].append(element)
    value = element.get("rel")
    if not value:
        return
    rel = value.lower().split()
    if REL_AUTHOR in rel:
        buckets["author"].append(element)
    elif REL_TAGS.intersection(rel):
        buckets["tag"].append(element)


def microdata_elements(root: etree._Element) -> list[etree._Element]:
    """Elements other than ``<meta>`` that carry an ``itemprop`` (``<meta>`` are scanned)."""
    return [e for e in elements(_ITEMPROP, root) if e.tag != "meta"]


elements = select_elements


def text_of(element: etree._Element) -> str:
    """The element's whole text, whitespace-normalised, its text nodes joined as they are
    (what the title options are made of: the bundled ranker was trained on these)."""
    return normalize_space("".join(str(t) for t in element.itertext()))


def spaced_text_of(element: etree._Element) -> str:
    """The element's text as a reader sees it: a ``<br>`` or a block-level child separates
    words ("Ian Lynam<br><span>October 8</span>": "Ian Lynam October 8"), inline ones do not
    (``Pack<em>aging</em>``)."""
    if not len(element):
        return normalize_space(element.text or "")
    parts: list[str] = []  # (iterwalk skips comments; parse_html has dropped them anyway)
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if node.tag not in INLINE_TAGS and node is not element:
            parts.append(" ")
        if event == "start":
            parts.append(node.text or "")
        elif node is not element:
            parts.append(node.tail or "")
    return normalize_space("".join(parts))

"""Clues from ``<meta>`` tags (OpenGraph, Twitter, Dublin Core, vendor keys), ``<link>`` tags
and schema.org microdata (``itemprop``).

A ``<meta>`` is keyed by its ``property``, ``name``, ``http-equiv`` (lower-cased) and
``itemprop`` (as ``itemprop:<name>``); the vocabularies below say which keys speak for which
field, best key first, so clues come out in priority order rather than document order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lxml import etree

from feedsift.metadata.record import Clue, ClueSource, Field
from feedsift.metadata.scan import MarkupIndex, elements, spaced_text_of, text_of

__all__ = ["MICRODATA_PROPS", "OPENGRAPH_KEYS", "link_clues", "meta_clues", "microdata_clues"]

#: OpenGraph and its ``article:`` namespace (Facebook's spec; ``og:`` variants some CMSs emit).
OPENGRAPH_KEYS: dict[str, Field] = {
    "og:title": "title",
    "article:published_time": "published",
    "og:article:published_time": "published",
    "article:published": "published",
    "og:published_time": "published",
    "article:modified_time": "updated",
    "og:article:modified_time": "updated",
    "og:updated_time": "updated",
    "article:modified": "updated",
    "article:author": "authors",
    "og:article:author": "authors",
    "article:tag": "tags",
    "og:article:tag": "tags",
    "article:section": "tags",
    "og:locale": "language",
    "og:url": "canonical_url",
    "og:site_name": "site_name",
    "og:image": "image",
    "og:image:url": "image",
    "og:image:secure_url": "image",
    "og:description": "description",
}

#: Other ``<meta>`` keys: Twitter cards, Dublin Core, citation (Highwire), Parse.ly,
#: Sailthru and common CMS keys. Order within a field is priority order.
META_KEYS: dict[str, Field] = {
    "twitter:title": "title",
    "dc.title": "title",
    "dcterms.title": "title",
    "citation_title": "title",
    "parsely-title": "title",
    "sailthru.title": "title",
    "title": "title",
    "itemprop:headline": "title",
    "itemprop:name": "title",
    "author": "authors",
    "parsely-author": "authors",
    "sailthru.author": "authors",
    "dc.creator": "authors",
    "dcterms.creator": "authors",
    "citation_author": "authors",
    "byl": "authors",
    "article:author_name": "authors",
    "itemprop:author": "authors",
    "itemprop:datepublished": "published",
    "citation_publication_date": "published",
    "citation_date": "published",
    "citation_online_date": "published",
    "parsely-pub-date": "published",
    "sailthru.date": "published",
    "dc.date.issued": "published",
    "dcterms.issued": "published",
    "dcterms.created": "published",
    "dc.date.created": "published",
    "dc.date": "published",
    "dcterms.date": "published",
    "pubdate": "published",
    "publishdate": "published",
    "publish-date": "published",
    "publish_date": "published",
    "published-date": "published",
    "published_time": "published",
    "published": "published",  # Adobe Experience Manager sites (splunk.com)
    "publication_date": "published",
    "article.published": "published",
    "article_date_original": "published",
    "original-publish-date": "published",
    "date": "published",
    "itemprop:datecreated": "published",
    "itemprop:datemodified": "updated",
    "dc.date.modified": "updated",
    "dcterms.modified": "updated",
    "article.updated": "updated",
    "lastmod": "updated",
    "last-modified": "updated",
    "parsely-tags": "tags",
    "sailthru.tags": "tags",
    "itemprop:keywords": "tags",
    "news_keywords": "tags",
    "keywords": "tags",
    "content-language": "language",
    "dc.language": "language",
    "language": "language",
    "itemprop:inlanguage": "language",
    "twitter:image": "image",
    "twitter:image:src": "image",
    "itemprop:image": "image",
    "thumbnail": "image",
    "application-name": "site_name",
    "apple-mobile-web-app-title": "site_name",
    "dc.publisher": "site_name",
    "description": "description",
    "twitter:description": "description",
    "dc.description": "description",
    "itemprop:description": "description",
}

#: RDFa spellings of the Dublin Core prefixes (``dc:title``), mapped to the dotted HTML ones.
DUBLIN_CORE_PREFIXES = {"dc": "dc", "dcterm": "dcterms", "dcterms": "dcterms"}

#: Microdata ``itemprop`` names read from ordinary elements (schema.org CreativeWork).
MICRODATA_PROPS: dict[str, Field] = {
    "headline": "title",
    "author": "authors",
    "creator": "authors",
    "datepublished": "published",
    "datecreated": "published",
    "datemodified": "updated",
    "keywords": "tags",
    "inlanguage": "language",
}

#: ``<link rel>`` values that give a field, with the attribute holding the value.
LINK_RELS: dict[str, Field] = {"canonical": "canonical_url", "image_src": "image"}

#: Attributes holding a microdata element's machine-readable value, before its text.
VALUE_ATTRIBUTES = ("content", "datetime", "src", "href")

_AUTHOR_NAME = etree.XPath(".//*[@itemprop='name']")


def meta_clues(index: MarkupIndex) -> list[Clue]:
    """Clues of every known ``<meta>`` key, OpenGraph first, each vocabulary in its order."""
    found: dict[str, list[str]] = {}
    for meta in index.metas:
        content = meta.get("content")
        if content and content.strip():
            for key in _meta_keys(meta):
                found.setdefault(key, []).append(content)
    clues = list(_vocabulary_clues(found, OPENGRAPH_KEYS, "opengraph"))
    clues.extend(_vocabulary_clues(found, META_KEYS, "meta"))
    return clues


def _meta_keys(meta: etree._Element) -> Iterator[str]:
    """Every key a ``<meta>`` speaks for: ``property`` and ``name`` may list several,
    space-separated (RDFa, ``property="og:title twitter:title"``)."""
    for attribute in ("property", "name", "http-equiv"):
        for key in (meta.get(attribute) or "").lower().split():
            yield _canonical_key(key)
    prop = meta.get("itemprop")
    if prop:
        yield from ("itemprop:" + p for p in prop.lower().split())


def _canonical_key(key: str) -> str:
    """``dc:title`` and ``dcterm:title`` are spelt ``dc.title`` and ``dcterms.title`` here."""
    prefix, colon, rest = key.partition(":")
    if colon and prefix in DUBLIN_CORE_PREFIXES:
        return f"{DUBLIN_CORE_PREFIXES[prefix]}.{rest}"
    return key


def _vocabulary_clues(
    found: dict[str, list[str]], vocabulary: dict[str, Field], source: ClueSource
) -> Iterator[Clue]:
    for key, field in vocabulary.items():
        for value in found.get(key, ()):
            yield Clue(field, value, source, key)


def link_clues(index: MarkupIndex) -> list[Clue]:
    """``<link rel=canonical>`` and ``<link rel=image_src>``, as the page wrote them."""
    clues = []
    for link in index.links:
        href = link.get("href")
        for rel in (link.get("rel") or "").lower().split():
            if href and rel in LINK_RELS:
                clues.append(Clue(LINK_RELS[rel], href.strip(), "meta", f"link[rel={rel}]"))
    return clues


def microdata_clues(items: Iterable[etree._Element]) -> list[Clue]:
    """Microdata values of ordinary elements (``<time itemprop=datePublished>`` ...).

    Only properties of the first item that has each property are read: a page's teasers
    are items too, and their authors and dates are not the article's.
    """
    clues = []
    scopes: dict[str, etree._Element | None] = {}
    for element in items:
        for prop in (element.get("itemprop") or "").lower().split():
            field = MICRODATA_PROPS.get(prop)
            if field is None:
                continue
            item = _item(element)
            if scopes.setdefault(prop, item) is not item:
                continue
            value = _microdata_value(element, field)
            if value:
                clues.append(Clue(field, value, "dom", f"itemprop:{prop}"))
    return clues


def _item(element: etree._Element) -> etree._Element | None:
    """The item ``element`` is a property of: its nearest ``itemscope`` ancestor."""
    return next((a for a in element.iterancestors() if a.get("itemscope") is not None), None)


def _microdata_value(element: etree._Element, field: Field) -> str | None:
    for attribute in VALUE_ATTRIBUTES:
        value = element.get(attribute)
        if value and value.strip() and not (field == "authors" and attribute == "href"):
            return value.strip()
    if field == "authors":
        names = elements(_AUTHOR_NAME, element)
        if names:
            element = names[0]
        return spaced_text_of(element) or None
    return text_of(element) or None

"""A template applied to a page: is it a post, and its properties.

The paper's section III-E: a page is a post when its key-path (the content path) finds a
node; each property is the *first non-empty* node its path finds. Choices made here:

* **One body, not several.** A listing page shows several posts, often in the very
  containers a post page uses; a page whose key-path finds more than one node holding
  text is not a post (:data:`MAX_KEY_MATCHES`).
* **The body** is the page's text blocks inside the content node, without the blocks of the
  title, byline, date and tag nodes (when those sit inside it) and a block repeating the
  title; blocks come from :mod:`feedsift.parsing.blocks`, so the body reads like every
  other extractor's.
* **Fallbacks.** A property whose path finds nothing comes from the page's metadata
  (JSON-LD, OpenGraph, ``<meta>``), recorded as such in the article's sources.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from datetime import datetime

from lxml import etree

from feedsift.extractors.body import assemble_body
from feedsift.metadata.dates import parse_datetime
from feedsift.metadata.read import read_metadata
from feedsift.parsing.blocks import TextBlock, text_blocks
from feedsift.parsing.page import ParsedPage
from feedsift.records import Article, FieldSource, PageKind, Provenance
from feedsift.templates.paths import KeyPath, find
from feedsift.text.tokens import normalize_space, tokenize

__all__ = [
    "BYLINE_WORDS",
    "MAX_KEY_MATCHES",
    "MIN_BODY_WORDS",
    "WORD_CHAR",
    "Found",
    "TemplatePaths",
    "apply_paths",
    "count_found",
    "found_nodes",
    "head_title_text",
    "is_post",
    "key_nodes",
    "link_share",
]

#: Where a title read from the ``<title>`` comes from, as its provenance says.
HEAD_TITLE_PATH = "|html|head|title"
#: A key-path finding more text-holding nodes than this is on a listing, not a post (unless
#: it found more on the feed's own posts: then their count is the bound).
MAX_KEY_MATCHES = 1
#: A content node with fewer words is an empty shell (a page of the same layout, no post).
MIN_BODY_WORDS = 5
#: Words bylines put before a name ("By Jane Doe", "Posted by Jane", "Author: Jane").
BYLINE_WORDS = re.compile(r"^(?:(?:posted|written|published)\s+by|by|author|von|par|por)\b[:\s]*",
                          re.IGNORECASE)  # fmt: skip
#: One word character: a text holds a token (:func:`~feedsift.text.tokens.tokenize`) iff it
#: holds one of these, which is found without cutting a whole body into tokens.
WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class TemplatePaths:
    """The promoted path of each property (``None``: the feed never gave it)."""

    title: KeyPath | None
    content: KeyPath | None
    author: KeyPath | None
    date: KeyPath | None
    tags: KeyPath | None
    title_in_head: bool = False  #: the title's value is the ``<title>`` (see the learner)


@dataclass(frozen=True, slots=True)
class Found:
    """The nodes a template's paths found in one page."""

    content: etree._Element | None
    title: etree._Element | None
    author: etree._Element | None
    date: etree._Element | None
    tags: tuple[etree._Element, ...]


def key_nodes(page: ParsedPage, key: KeyPath) -> list[etree._Element]:
    """The nodes the key-path finds that hold some text."""
    return [node for node in find(page.root, key) if _has_words(node)]


def count_found(page: ParsedPage, path: KeyPath) -> int:
    """How many nodes holding text ``path`` finds in ``page``."""
    return sum(1 for node in find(page.root, path) if _has_words(node))


def link_share(page: ParsedPage, key: KeyPath) -> float:
    """Share of the key node's words that are link text (0 when it finds nothing)."""
    nodes = key_nodes(page, key)
    if not nodes:
        return 0.0
    total = _words(nodes[0])
    linked = sum(_words(a) for a in nodes[0].iter("a"))
    return min(1.0, linked / total) if total else 0.0


def is_post(page: ParsedPage, key: KeyPath, most: int = MAX_KEY_MATCHES) -> bool:
    """Whether the key-path finds a body: at most ``most`` text nodes, the first not empty."""
    nodes = key_nodes(page, key)
    return 0 < len(nodes) <= most and _words(nodes[0]) >= MIN_BODY_WORDS


def apply_paths(page: ParsedPage, paths: TemplatePaths, method: str) -> Article:
    """The article the paths find in ``page`` (metadata fills what they do not)."""
    found = found_nodes(page, paths)
    title = _text(found.title)
    head_title = head_title_text(page) if paths.title_in_head else None
    body = assemble_body(_body_blocks(page, found, title))
    title = head_title or title
    meta = read_metadata(page, date_search=False)
    authors = _author(found.author)
    published = _date(found.date)
    tags = tuple(dict.fromkeys(t for t in (_text(n) for n in found.tags) if t))
    title_path = HEAD_TITLE_PATH if head_title else paths.title
    sources = [FieldSource(name, "template", str(path)) for name, path, value in
               (("title", title_path, title), ("authors", paths.author, authors),
                ("published", paths.date, published), ("tags", paths.tags, tags))
               if path is not None and value]  # fmt: skip
    return Article(
        body=body, title=title or meta.title, url=page.url,
        kind=PageKind.ARTICLE if body else PageKind.EMPTY,
        provenance=Provenance(method, "template", 1.0 if found.content is not None else 0.0),
        authors=authors or meta.authors, published=published or meta.published,
        updated=meta.updated, tags=tags or meta.tags, language=meta.language,
        canonical_url=meta.canonical_url, site_name=meta.site_name, image=meta.image,
        description=meta.description,
        sources=tuple(sources) + tuple(m for m in meta.sources if m.field not in _named(sources)),
    )  # fmt: skip


def _named(sources: list[FieldSource]) -> set[str]:
    return {source.field for source in sources}


def found_nodes(page: ParsedPage, paths: TemplatePaths) -> Found:
    """The first text-holding node each of the paths finds in ``page`` (all for tags)."""

    def first(path: KeyPath | None) -> etree._Element | None:
        if path is None:
            return None
        return next((node for node in find(page.root, path) if _has_words(node)), None)

    tags = tuple(find(page.root, paths.tags)) if paths.tags is not None else ()
    return Found(first(paths.content), first(paths.title), first(paths.author),
                 first(paths.date), tags)  # fmt: skip


def _body_blocks(page: ParsedPage, found: Found, title: str | None) -> list[TextBlock]:
    """The text blocks of a copy of the content node without the property nodes inside it
    (a byline or a date inline in the first paragraph goes too, not only whole blocks)."""
    if found.content is None:
        return []
    body = copy.deepcopy(found.content)
    body.tail = None  # the copy keeps the text after the node; it is not the node's
    tree = found.content.getroottree()
    base = tree.getpath(found.content)
    twins = [body.find("." + tree.getpath(node)[len(base) :])
             for node in (found.title, found.author, found.date, *found.tags)
             if node is not None and found.content in node.iterancestors()]  # fmt: skip
    for twin in twins:  # all found before any is dropped: dropping renumbers siblings
        if twin is not None:
            _drop(twin)
    blocks = text_blocks(body).blocks
    return [b for b in blocks if not title or normalize_space(b.text) != title]


def _drop(node: etree._Element) -> None:
    """Remove ``node``, keeping the text that follows it."""
    parent = node.getparent()
    if parent is None:
        return
    previous, tail = node.getprevious(), node.tail or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(node)


def _words(node: etree._Element) -> int:
    """Words of the node's text (one per CJK character, as the measures count them)."""
    return len(tokenize(" ".join(str(t) for t in node.itertext())))


def _has_words(node: etree._Element) -> bool:
    """Whether the node's text has a word (``_words(node) > 0``, without tokenizing it all:
    a token is a run of word characters, so one word character makes one)."""
    return any(WORD_CHAR.search(str(text)) for text in node.itertext())


def head_title_text(page: ParsedPage) -> str | None:
    """The text of the page's ``<title>`` (``None`` when it has none)."""
    return _text(page.root.find("head/title"))


def _text(node: etree._Element | None) -> str | None:
    if node is None:
        return None
    return normalize_space(" ".join(str(t) for t in node.itertext())) or None


def _author(node: etree._Element | None) -> tuple[str, ...]:
    text = _text(node)
    if not text:
        return ()
    name = BYLINE_WORDS.sub("", text).strip(" ,;|·-–—")
    return (name,) if name else ()


def _date(node: etree._Element | None) -> datetime | None:
    if node is None:
        return None
    for element in (node, *node.iter("time")):
        stamp = element.get("datetime")
        if stamp and (moment := parse_datetime(stamp)) is not None:
            return moment
    return parse_datetime(_text(node) or "")

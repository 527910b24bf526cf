"""Frozen records passed between feedsift's stages and returned by the public API."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Literal

__all__ = [
    "Article",
    "BodyPart",
    "Comment",
    "FeedItem",
    "FeedSample",
    "FieldSource",
    "PageKind",
    "PartKind",
    "Provenance",
    "SourceKind",
    "Teaser",
]


class PageKind(StrEnum):
    """What a page is, as far as the extractor can tell."""

    ARTICLE = "article"  #: one post or news article: ``text`` is its body
    FORUM = "forum"  #: a discussion thread: ``text`` is its posts in order, see ``thread``
    PRODUCT = "product"  #: a product page: its name, description and specifications
    SERVICE = "service"  #: a company's page about what it offers
    DOCUMENTATION = "documentation"  #: a manual or reference page, code blocks kept
    LISTING = "listing"  #: home, archive, tag or category page: see ``posts``
    COLLECTION = "collection"  #: a shop's or catalogue's list of items: see ``posts``
    EMPTY = "empty"  #: nothing that looks like content was found

    @property
    def lists_items(self) -> bool:
        """Whether the page announces other pages (its ``posts``) rather than being one."""
        return self in (PageKind.LISTING, PageKind.COLLECTION)


PartKind = Literal["paragraph", "heading", "item", "quote", "code", "cell", "caption", "table"]

#: How a table part's ``text`` separates its cells and its rows.
CELL_SEPARATOR, ROW_SEPARATOR = "\t", "\n"


@dataclass(frozen=True, slots=True)
class BodyPart:
    """One paragraph-like piece of the body, in reading order.

    A ``code`` part's text is the ``<pre>`` text as written (line breaks and indentation
    kept). A ``table`` part holds its ``rows`` of cell texts, the first ``head_rows`` of
    them header rows; its ``text`` is one row per line, cells separated by tabs. A ``cell``
    is a table cell on its own (a layout table's, or a data table's lone kept cell).
    """

    kind: PartKind
    text: str
    level: int = 0  #: heading level 1-6 for headings, else 0
    rows: tuple[tuple[str, ...], ...] = ()  #: a table's rows of cells, else empty
    head_rows: int = 0  #: how many leading ``rows`` are header rows

    @classmethod
    def table(cls, rows: tuple[tuple[str, ...], ...], head_rows: int = 0) -> BodyPart:
        """A table part; cell texts must hold no tab or line break (they are collapsed)."""
        text = ROW_SEPARATOR.join(CELL_SEPARATOR.join(row) for row in rows)
        return cls("table", text, rows=rows, head_rows=head_rows)


#: The mechanisms a metadata field can come from; ``browser``: the ``layout`` source of a
#: page laid out in a headless browser (``--render``).
SourceKind = Literal[
    "json-ld", "opengraph", "meta", "dom", "htmldate", "model", "url", "title-tag", "template",
    "browser",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class FieldSource:
    """Where one metadata field came from: ``source`` names the mechanism, ``detail`` the key."""

    field: str
    source: SourceKind
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Provenance:
    """Which method produced an article, with which model, and how sure it is (0..1)."""

    method: str
    model_version: str
    confidence: float
    kind_confidence: float = 0.0  #: the kind classifier's probability of ``Article.kind``


@dataclass(frozen=True, slots=True)
class Teaser:
    """One post announced on a listing page."""

    title: str
    url: str | None
    text: str
    published: datetime | None = None


@dataclass(frozen=True, slots=True)
class Comment:
    """One reader comment, kept apart from the body."""

    text: str
    author: str | None = None
    published: datetime | None = None


@dataclass(frozen=True, slots=True)
class Article:
    """The result of extracting one page.

    ``text`` is the body as plain text, paragraphs separated by blank lines; for a listing
    it is the items' titles and teasers in order (``posts`` holds them as records), for a
    forum thread its posts in order (``thread`` holds them as records).
    """

    body: tuple[BodyPart, ...]
    title: str | None
    provenance: Provenance
    kind: PageKind = PageKind.ARTICLE
    url: str | None = None
    authors: tuple[str, ...] = ()
    published: datetime | None = None
    updated: datetime | None = None
    tags: tuple[str, ...] = ()
    language: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    image: str | None = None
    description: str | None = None
    posts: tuple[Teaser, ...] = ()
    comments: tuple[Comment, ...] = ()
    thread: tuple[Comment, ...] = ()  #: a forum thread's posts, the opening one first
    sources: tuple[FieldSource, ...] = field(default=())
    #: why the page was cut before extraction (over the parsing limits), ``None`` if whole
    truncated: str | None = None

    @property
    def text(self) -> str:
        """The body as plain text, paragraphs separated by blank lines."""
        return "\n\n".join(part.text for part in self.body)

    def source_of(self, name: str) -> FieldSource | None:
        """Where the metadata field ``name`` came from, if it was found."""
        return next((s for s in self.sources if s.field == name), None)


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One feed item's values as the feed states them (markup may remain in the texts).

    The site's own word on a post's title, date, authors, tags and often its content: what
    the feed template learns from and what the site-level methods are checked against.
    """

    url: str | None
    title: str
    description: str = ""  #: the summary or excerpt
    content: str | None = None  #: the full content, when the feed carries it
    published: datetime | None = None
    authors: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FeedSample:
    """A feed's items at one poll, newest first, with the feed's own address and title.

    A records-level view of a feed, so learners need not know the feed parser's types
    (acquisition's ``ParsedFeed.sample()`` makes one).
    """

    url: str
    title: str | None
    items: tuple[FeedItem, ...]

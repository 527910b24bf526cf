"""Records of the metadata stage: what one page says about itself, and where it says it.

Every reader (JSON-LD, meta tags, DOM) turns its part of the page into :class:`Clue` records,
raw strings tagged with the field they speak for and where they were found. ``read_metadata``
then picks, per field, the first clue that survives cleaning, in a fixed priority order, and
returns a :class:`PageMetadata`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from feedsift.records import FieldSource

__all__ = ["Clue", "ClueSource", "Field", "PageMetadata", "TitleCandidate"]

#: The mechanisms a clue can come from (the ``FieldSource.source`` literals readers use).
ClueSource = Literal["json-ld", "opengraph", "meta", "dom", "title-tag", "htmldate", "url"]

#: The metadata fields a clue can speak for.
Field = Literal[
    "title",
    "authors",
    "published",
    "updated",
    "tags",
    "language",
    "canonical_url",
    "site_name",
    "image",
    "description",
]


@dataclass(frozen=True, slots=True)
class Clue:
    """One raw value found in the page for one field, before cleaning and choosing."""

    field: Field
    value: str
    source: ClueSource
    detail: str  #: the key it was found under: ``og:title``, ``headline``, ``h1`` ...


@dataclass(frozen=True, slots=True)
class TitleCandidate:
    """One title-like string of the page, kept for a downstream title ranker."""

    text: str  #: whitespace-normalised
    source: ClueSource
    detail: str  #: ``og:title``, ``headline``, ``twitter:title``, ``h1``, ``title-part:0`` ...


@dataclass(frozen=True, slots=True)
class PageMetadata:
    """What a page says about itself; ``sources`` tells where each found field came from."""

    title: str | None
    title_candidates: tuple[TitleCandidate, ...]
    authors: tuple[str, ...]
    published: datetime | None  #: timezone-aware (UTC when the page gives no offset)
    updated: datetime | None  #: timezone-aware
    tags: tuple[str, ...]
    language: str | None  #: lowercase BCP-47-like tag: ``en``, ``pt-br``
    canonical_url: str | None
    site_name: str | None
    image: str | None
    description: str | None
    sources: tuple[FieldSource, ...]
    #: what the page's links to its own front page say (a logo's name, "Daily Intel"): the
    #: site's or a section's name, whatever else the page calls it
    home_links: tuple[str, ...] = ()
    #: the ``<h1>`` texts that are wholly a link to another page (a logo, a teaser): title
    #: strings for training labels, but no title option of the page's own
    linked_headings: tuple[str, ...] = ()

    def source_of(self, name: str) -> FieldSource | None:
        """Where the field ``name`` came from, if it was found."""
        return next((s for s in self.sources if s.field == name), None)

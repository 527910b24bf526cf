"""``read_metadata``: every reader's clues, one choice per field, provenance recorded.

Cheap readers run on every page: JSON-LD, and one walk over the ``<meta>``, ``<link>``,
``<title>``, ``<h1>``, ``<time>`` and ``rel`` anchors. The rest costs more and runs only when
needed: microdata when JSON-LD and meta tags leave the title, author or date unsaid, the
byline search when no source names an author, htmldate when no source gives a date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from feedsift.metadata.authors import author_names, looks_like_name, split_authors
from feedsift.metadata.choose import Choice, choose_list, choose_one, ranked
from feedsift.metadata.dates import date_from_url, htmldate_published, parse_datetime
from feedsift.metadata.dom import (
    byline_clues,
    document_clues,
    front_page_names,
    home_link_clues,
    linked_headings,
    time_clues,
)
from feedsift.metadata.jsonld import jsonld_clues
from feedsift.metadata.meta_tags import link_clues, meta_clues, microdata_clues
from feedsift.metadata.record import Clue, Field, PageMetadata
from feedsift.metadata.scan import microdata_elements, scan_markup, text_of
from feedsift.metadata.textdates import find_text_date
from feedsift.metadata.titles import best_title, distinct, title_candidates
from feedsift.metadata.values import (
    base_url,
    clean_text,
    distinct_casefold,
    normalize_language,
    resolve_url,
    split_tags,
)
from feedsift.parsing.page import ParsedPage
from feedsift.records import FieldSource

__all__ = ["read_metadata"]

#: Fields holding one string, with the cleaner that turns a clue into the value.
TEXT_FIELDS: tuple[tuple[Field, Callable[[str], str | None]], ...] = (
    ("language", normalize_language),
    ("site_name", clean_text),
    ("description", clean_text),
)
#: Sources written for machines; when they say the fields below, microdata is not read.
MACHINE_SOURCES = frozenset({"json-ld", "opengraph", "meta"})
MICRODATA_FIELDS = frozenset({"title", "authors", "published"})
#: Names kept of the links to the front page (a logo, a name, a section's home).
MAX_HOME_LINKS = 8
#: Fields holding an URL, resolved against the page's base URL.
URL_FIELDS: tuple[Field, ...] = ("canonical_url", "image")


def read_metadata(page: ParsedPage, *, date_search: bool = True) -> PageMetadata:
    """Title candidates, authors, dates, tags, language, URLs and names of one page.

    A publication date the page does not declare is looked for in its URL and then, when
    ``date_search`` is on, with htmldate's markup search (a few milliseconds: callers that
    can look elsewhere first turn it off and call :func:`htmldate_published` themselves).
    """
    index = scan_markup(page.root)
    page_title = text_of(index.title) if index.title is not None else None
    clues = [
        *jsonld_clues(page.json_ld, page_title),
        *meta_clues(index),
        *link_clues(index),
        *document_clues(page.root, index),
        *time_clues(page.root, index),
    ]
    home = tuple(dict.fromkeys(front_page_names(index, page.url)))
    if not any(clue.field == "site_name" for clue in clues):  # the last resort
        clues.extend(home_link_clues(index, home))
    if _needs_microdata(clues):
        clues.extend(microdata_clues(microdata_elements(page.root)))
    chosen: dict[Field, Choice[Any]] = {}
    _choose_people_and_dates(page, clues, chosen, date_search)
    base = base_url(page.url, index.base_href)
    for field in URL_FIELDS:
        _keep(chosen, field, choose_one(ranked(clues, field), lambda v: resolve_url(v, base)))
    for field, clean in TEXT_FIELDS:
        _keep(chosen, field, choose_one(ranked(clues, field), clean))
    _keep(chosen, "tags", choose_list(ranked(clues, "tags"), _tags))
    return replace(_assemble(clues, chosen), home_links=home[:MAX_HOME_LINKS],
                   linked_headings=linked_headings(index, page.url))  # fmt: skip


def _needs_microdata(clues: list[Clue]) -> bool:
    """Whether JSON-LD and meta tags leave the author, the date or the title unsaid."""
    said = {c.field for c in clues if c.source in MACHINE_SOURCES}
    return not said >= MICRODATA_FIELDS


def _choose_people_and_dates(
    page: ParsedPage, clues: list[Clue], chosen: dict[Field, Choice[Any]], date_search: bool
) -> None:
    _keep(chosen, "authors", _choose_authors(page, clues))
    _keep(chosen, "updated", choose_one(ranked(clues, "updated"), parse_date_value))
    published = choose_one(ranked(clues, "published"), parse_date_value)
    if published is not None:
        published = _in_local_time(published, ranked(clues, "published"))
    _keep(chosen, "published", published or _fallback_date(page, date_search))


#: Two declared times this close are the same moment written in two time zones.
SAME_MOMENT = timedelta(minutes=1)


def _in_local_time(choice: Choice[datetime], clues: Iterable[Clue]) -> Choice[datetime]:
    """The publication time in the publisher's own zone when the page also writes it so:
    ``og`` says ``2025-12-19T03:05+00:00``, the byline's ``<time>`` ``2025-12-18T19:05-08:00``;
    the day the post was published is the 18th where it was written."""
    if choice.value.utcoffset() != timedelta(0):
        return choice
    for clue in clues:
        value = parse_datetime(clue.value)
        offset = value.utcoffset() if value else None
        if value and offset and abs(value - choice.value) <= SAME_MOMENT:
            return Choice(value, clue)
    return choice


def parse_date_value(text: str) -> datetime | None:
    """A declared date: machine formats first, else as people write it (a microdata
    ``<span itemprop="datePublished">11-29-2024, 09:03 AM</span>`` declares its date in
    visible text)."""
    return parse_datetime(text) or find_text_date(text)


def _fallback_date(page: ParsedPage, date_search: bool) -> Choice[datetime] | None:
    """A date the page does not declare: from its URL, else htmldate's markup search."""
    found = date_from_url(page.url)
    if found is not None:
        return Choice(found, Clue("published", found.isoformat(), "url", "path"))
    if not date_search:
        return None
    found = htmldate_published(page.decoded.text, page.url)
    if found is not None:
        return Choice(found, Clue("published", found.isoformat(), "htmldate", "find_date"))
    return None


def _choose_authors(page: ParsedPage, clues: list[Clue]) -> Choice[tuple[str, ...]] | None:
    """Authors from structured sources, else from the page's bylines."""
    found = choose_list(ranked(clues, "authors"), author_names)
    return found or choose_list(byline_clues(page.body, _byline_accepted), author_names)


def _byline_accepted(text: str) -> bool:
    return any(looks_like_name(name) for name in split_authors(text))


def _keep(chosen: dict[Field, Choice[Any]], field: Field, choice: Choice[Any] | None) -> None:
    if choice is not None:
        chosen[field] = choice


def _tags(values: Iterable[str]) -> tuple[str, ...]:
    return distinct_casefold(tag for value in values for tag in split_tags(value))


def _assemble(clues: list[Clue], chosen: dict[Field, Choice[Any]]) -> PageMetadata:
    candidates = title_candidates(c for c in clues if c.field == "title")
    title = best_title(candidates, (c.value for c in clues if c.field == "site_name"))
    sources = [FieldSource("title", title.source, title.detail)] if title else []
    sources.extend(FieldSource(f, c.clue.source, c.clue.detail) for f, c in chosen.items())

    def value(field: Field) -> Any:
        return chosen[field].value if field in chosen else None

    return PageMetadata(
        title=title.text if title else None,
        title_candidates=distinct(candidates),
        authors=value("authors") or (),
        published=value("published"),
        updated=value("updated"),
        tags=value("tags") or (),
        language=value("language"),
        canonical_url=value("canonical_url"),
        site_name=value("site_name"),
        image=value("image"),
        description=value("description"),
        sources=tuple(sources),
    )

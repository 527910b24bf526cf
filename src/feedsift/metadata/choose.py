"""Choosing each field's value among its clues, by a fixed source priority.

A priority entry names a source (``"meta"``) or one key of a source (``"meta/keywords"``);
a clue ranks at the first entry it matches and clues matching none are not used. A scalar
field takes the first clue that cleans to a value; a list field (authors, tags) takes every
value of the first key that gives any, so names from two sources are never mixed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from feedsift.metadata.record import Clue, Field

__all__ = ["FIELD_PRIORITY", "Choice", "choose_list", "choose_one", "ranked"]

T = TypeVar("T")

#: Per field, the sources to trust, best first (JSON-LD and OpenGraph are written for
#: machines by the CMS; DOM clues are guesses).
FIELD_PRIORITY: dict[Field, tuple[str, ...]] = {
    "authors": (
        "json-ld", "meta/author", "meta/parsely-author", "meta/sailthru.author",
        "meta/citation_author", "meta/dc.creator", "meta", "dom/itemprop:author",
        "opengraph", "dom/a[rel=author]", "dom",
    ),
    # A creation or upload date (JSON-LD ``dateCreated``) yields to any publication date.
    "published": (
        "json-ld/datePublished", "opengraph", "meta", "dom/itemprop:datepublished", "json-ld",
        "dom",
    ),
    "updated": ("json-ld", "opengraph", "meta", "dom"),
    "tags": (
        "opengraph/article:tag", "json-ld/keywords", "meta/parsely-tags", "meta/sailthru.tags",
        "dom/a[rel=tag]", "dom/itemprop:keywords", "opengraph", "json-ld", "meta",
    ),
    "language": ("dom/html[lang]", "opengraph", "meta", "json-ld", "dom"),
    "canonical_url": ("meta/link[rel=canonical]", "opengraph", "json-ld"),
    # A front-page link's text counts only when the ``<title>`` confirms it (dom.py).
    "site_name": ("opengraph", "json-ld", "meta", "dom/home-link"),
    "image": ("opengraph", "meta", "json-ld"),
    "description": ("opengraph", "meta/description", "meta", "json-ld"),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Choice(Generic[T]):
    """A field's chosen value and the clue it came from."""

    value: T
    clue: Clue


def ranked(clues: Iterable[Clue], field: Field) -> list[Clue]:
    """The clues of ``field`` that its priority trusts, best first (stable within a rank)."""
    priority = FIELD_PRIORITY[field]
    scored = []
    for clue in clues:
        if clue.field == field:
            rank = _rank(clue, priority)
            if rank < len(priority):
                scored.append((rank, clue))
    scored.sort(key=lambda pair: pair[0])
    return [clue for _, clue in scored]


def _rank(clue: Clue, priority: tuple[str, ...]) -> int:
    keys = (f"{clue.source}/{clue.detail}", clue.source)
    return next((i for i, entry in enumerate(priority) if entry in keys), len(priority))


def choose_one(clues: Iterable[Clue], clean: Callable[[str], T | None]) -> Choice[T] | None:
    """The first clue whose value ``clean`` accepts."""
    for clue in clues:
        value = clean(clue.value)
        if value is not None:
            return Choice(value, clue)
    return None


def choose_list(
    clues: Iterable[Clue], clean: Callable[[Iterable[str]], tuple[str, ...]]
) -> Choice[tuple[str, ...]] | None:
    """Every value of the first ``source/detail`` group whose values ``clean`` keeps any of."""
    groups: dict[tuple[str, str], list[Clue]] = {}
    for clue in clues:
        groups.setdefault((clue.source, clue.detail), []).append(clue)
    for group in groups.values():
        values = clean(clue.value for clue in group)
        if values:
            return Choice(values, group[0])
    return None

"""An :class:`~feedsift.records.Article` back from the JSON-safe data of :mod:`.serialize`.

The store keeps each article as that JSON; ``feedsift export`` reads it back with
:func:`article_from_dict` and renders it with the same writers as ``feedsift extract``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, cast

from feedsift.records import (
    Article,
    BodyPart,
    Comment,
    FieldSource,
    PageKind,
    PartKind,
    Provenance,
    SourceKind,
    Teaser,
)

__all__ = ["article_from_dict"]


def article_from_dict(data: Mapping[str, Any]) -> Article:
    """The article whose :func:`~feedsift.outputs.article_to_dict` is ``data``."""
    return Article(
        body=tuple(_part(part) for part in data.get("body", ())),
        title=data.get("title"),
        provenance=_provenance(data["provenance"]),
        kind=PageKind(data.get("kind", PageKind.ARTICLE)),
        url=data.get("url"),
        authors=tuple(data.get("authors", ())),
        published=_moment(data.get("published")),
        updated=_moment(data.get("updated")),
        tags=tuple(data.get("tags", ())),
        language=data.get("language"),
        canonical_url=data.get("canonical_url"),
        site_name=data.get("site_name"),
        image=data.get("image"),
        description=data.get("description"),
        posts=tuple(_teaser(post) for post in data.get("posts", ())),
        comments=tuple(_comment(c) for c in data.get("comments", ())),
        thread=tuple(_comment(c) for c in data.get("thread", ())),
        sources=tuple(_source(source) for source in data.get("sources", ())),
        truncated=data.get("truncated"),
    )


def _part(data: Mapping[str, Any]) -> BodyPart:
    rows = tuple(tuple(str(cell) for cell in row) for row in data.get("rows", ()))
    return BodyPart(
        cast(PartKind, data["kind"]), data["text"], int(data.get("level", 0)),
        rows=rows, head_rows=int(data.get("head_rows", 0)),
    )  # fmt: skip


def _provenance(data: Mapping[str, Any]) -> Provenance:
    return Provenance(data["method"], data["model_version"], float(data["confidence"]),
                      float(data.get("kind_confidence", 0.0)))  # fmt: skip


def _comment(data: Mapping[str, Any]) -> Comment:
    return Comment(data["text"], data.get("author"), _moment(data.get("published")))


def _teaser(data: Mapping[str, Any]) -> Teaser:
    return Teaser(data["title"], data.get("url"), data["text"], _moment(data.get("published")))


def _source(data: Mapping[str, Any]) -> FieldSource:
    return FieldSource(data["field"], cast(SourceKind, data["source"]), data.get("detail", ""))


def _moment(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)

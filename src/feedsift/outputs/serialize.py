"""An :class:`~feedsift.records.Article` as plain JSON-safe data.

Every field of the record is kept (new fields appear without changes here): nested records
become objects, tuples lists, enums their value, datetimes ISO 8601 strings, non-finite
floats ``null``. The body's plain ``text`` is added, since most users want only that. The
table-only fields of a body part (``rows``, ``head_rows``) appear on table parts only.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from datetime import date
from enum import Enum
from typing import TypeAlias, cast

from feedsift.records import Article, BodyPart

__all__ = ["FIRST_KEYS", "JsonValue", "article_to_dict", "to_json"]

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None

#: Keys put first so a pretty-printed object reads top-down: identity, metadata, text, then
#: the structured body, listing posts, comments and provenance in record order.
FIRST_KEYS = (
    "kind", "url", "canonical_url", "title", "authors", "published", "updated", "tags",
    "language", "site_name", "description", "image", "text",
)  # fmt: skip
#: Fields left out of a record's JSON while they hold their default: a body part's table
#: fields, which every paragraph would otherwise carry empty.
SPARSE_FIELDS: Mapping[type, frozenset[str]] = {BodyPart: frozenset({"rows", "head_rows"})}
#: Types whose values are JSON as they are (exact types: an enum member or a subclass of one
#: of them takes the general path).
_AS_THEY_ARE = frozenset({str, int, bool, type(None)})


def article_to_dict(article: Article) -> dict[str, JsonValue]:
    """Every field of ``article`` plus ``text``, as JSON-safe values."""
    values: dict[str, JsonValue] = {
        f.name: to_json(getattr(article, f.name)) for f in dataclasses.fields(article)
    }
    values["text"] = article.text
    ordered = {key: values.pop(key) for key in FIRST_KEYS if key in values}
    ordered.update(values)
    return ordered


def to_json(value: object) -> JsonValue:
    """``value`` (a record, tuple, enum, datetime or scalar) as JSON-safe data."""
    kind = type(value)
    if kind in _AS_THEY_ARE:  # most values of a record: taken first, by their exact type
        return cast(JsonValue, value)
    if kind is tuple:
        return [to_json(item) for item in cast(tuple[object, ...], value)]
    return _converted(value)


def _converted(value: object) -> JsonValue:
    """:func:`to_json` of a value that is not JSON as it is."""
    if isinstance(value, Enum):
        return to_json(value.value)
    if value is None or isinstance(value, bool | int | float | str | date):
        return _scalar(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _record(value)
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


def _record(value: object) -> dict[str, JsonValue]:
    """A dataclass instance as an object, without its sparse fields at their default."""
    sparse = SPARSE_FIELDS.get(type(value), frozenset())
    values: dict[str, JsonValue] = {}
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        item = getattr(value, f.name)
        if f.name not in sparse or item != f.default:
            values[f.name] = to_json(item)
    return values


def _scalar(value: bool | int | float | str | date | None) -> JsonValue:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value.isoformat() if isinstance(value, date) else value

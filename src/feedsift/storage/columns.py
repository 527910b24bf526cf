"""How Python values are kept in SQLite columns, in one place.

Datetimes are UTC ISO 8601 text (so they sort as text), JSON goes in text columns, raw
page bodies are zlib-compressed, and the unsigned 64-bit SimHash is stored as the signed
integer SQLite can hold.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime

__all__ = [
    "BODY_COMPRESSION_LEVEL",
    "compress_body",
    "decompress_body",
    "from_json_list",
    "moment_from_db",
    "moment_to_db",
    "signed64",
    "to_json_text",
    "unsigned64",
]

#: zlib level for stored pages: level 6 is within 3% of level 9's size at a third of its time.
BODY_COMPRESSION_LEVEL = 6
_TWO_63 = 1 << 63
_TWO_64 = 1 << 64


def moment_to_db(moment: datetime | None) -> str | None:
    """``moment`` as UTC ISO 8601 text; a naive datetime is taken to be UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def moment_from_db(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def to_json_text(values: object) -> str:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def from_json_list(text: str | None) -> Sequence[str]:
    return () if not text else tuple(json.loads(text))


def compress_body(body: bytes) -> bytes:
    return zlib.compress(body, BODY_COMPRESSION_LEVEL)


def decompress_body(blob: bytes) -> bytes:
    return zlib.decompress(blob)


def signed64(value: int) -> int:
    """An unsigned 64-bit integer as the signed one SQLite stores."""
    return value - _TWO_64 if value >= _TWO_63 else value


def unsigned64(value: int) -> int:
    return value + _TWO_64 if value < 0 else value

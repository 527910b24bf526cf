"""The feed reader's item identity: a hash of an item's title, description and date.

The URL Tree paper's RSS readers (Section 2) remember every item by a hash of its title,
description and publication date as given in the feed, so that an item seen again in a later
poll (or in a second feed of the same site) is not downloaded twice.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from feedsift.text.tokens import normalize_space

__all__ = ["HISTORY_KEY_HEX_DIGITS", "history_key"]

#: 128 bits of SHA-256: collisions are out of reach for any feed history, and the key stays
#: the size of the paper's 128-bit hashes.
HISTORY_KEY_HEX_DIGITS = 32


def history_key(title: str | None, description: str | None, published: datetime | None) -> str:
    """The item's history key: 32 hex digits of SHA-256 over the three normalised values.

    Title and description have their whitespace runs collapsed to one space and their ends
    stripped (a re-indented feed is the same feed); a missing value counts as empty. The date
    is written as UTC ISO-8601 (a naive date is taken as UTC) or "" when missing. The three
    values are serialised as a JSON list, so no choice of values can run into another.
    """
    values = [normalize_space(title or ""), normalize_space(description or ""), _date(published)]
    data = json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:HISTORY_KEY_HEX_DIGITS]


def _date(published: datetime | None) -> str:
    if published is None:
        return ""
    if published.tzinfo is None:
        published = published.replace(tzinfo=UTC)
    try:
        return published.astimezone(UTC).isoformat()
    except OverflowError:  # year 1 or 9999 shifted out of range: keep the offset as given
        return published.isoformat()

"""When a "since" filter starts: ``2026-11-01``, ``2026-11-01T08:00+01:00`` or an age such
as ``24h``, ``7d``, ``2w`` (what ``feedsift export --since``, ``feedsift search --since`` and
the server's ``since=`` take), as an aware time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from feedsift.errors import InputError

__all__ = ["AGE_UNIT_SECONDS", "since_moment"]

#: An age: a number and its unit (minutes, hours, days, weeks).
_AGE = re.compile(r"^(\d+(?:\.\d+)?)\s*([mhdw])$")
#: Seconds in each unit of an age.
AGE_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}


def since_moment(text: str, now: datetime | None = None) -> datetime:
    """The moment ``text`` names (UTC unless it says); an age counts back from ``now``, and
    one past year 1 means since the beginning. :class:`InputError` when it is neither."""
    match = _AGE.match(text.strip().lower())
    if match:
        seconds = float(match.group(1)) * AGE_UNIT_SECONDS[match.group(2)]
        try:
            return (now or datetime.now(UTC)) - timedelta(seconds=seconds)
        except OverflowError:  # 99999999d, or so long it overflows a float
            return datetime.min.replace(tzinfo=UTC)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError(
            f"not a date, time or age: {text!r} (try 2026-11-01, 2026-11-01T08:00 or 24h)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

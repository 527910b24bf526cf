"""When to poll each feed next: hourly by default, adapted to how often it publishes.

The DiffPost study polled blogs at several frequencies and found hourly polling best: new
posts arrive before their comments pile up, and pages of one site fetched in the same
hour make good comparison pages. feedsift starts every feed at one hour and then aims at
about one new item per poll, estimated from the publication times the feed itself lists,
within bounds. A feed that fails backs off exponentially, on its own, and a server's
``Retry-After`` is honoured, so one broken feed never slows the others.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

__all__ = [
    "DEFAULT_INTERVAL",
    "ERROR_BACKOFF_BASE",
    "MAX_INTERVAL",
    "MIN_INTERVAL",
    "RATE_WINDOW",
    "Schedule",
]

#: Seconds between polls of a feed we know nothing about: DiffPost's best frequency.
DEFAULT_INTERVAL = 3600.0
#: Fastest polling of a busy feed: faster gains minutes and costs the site a request each time.
MIN_INTERVAL = 900.0
#: Slowest polling of a quiet feed: a dormant blog is still checked every day.
MAX_INTERVAL = 86400.0
#: First wait after a failed poll; it doubles with each further failure, up to MAX_INTERVAL.
ERROR_BACKOFF_BASE = 300.0
#: Newest publication times used for the rate: recent enough to follow a change of pace.
RATE_WINDOW = 10


@dataclass(frozen=True, slots=True)
class Schedule:
    """The polling bounds; ``fixed`` (seconds) turns adaptation off, as tests and demos want."""

    default: float = DEFAULT_INTERVAL
    minimum: float = MIN_INTERVAL
    maximum: float = MAX_INTERVAL
    error_base: float = ERROR_BACKOFF_BASE
    fixed: float | None = None

    def interval(self, published: Sequence[datetime | None]) -> float:
        """Seconds until the next poll of a feed listing items published at ``published``."""
        if self.fixed is not None:
            return self.fixed
        gap = typical_gap(published)
        if gap is None:
            return self.default
        return min(self.maximum, max(self.minimum, gap))

    def after_error(self, errors: int, retry_after: float | None = None) -> float:
        """Seconds to wait after the ``errors``-th failure in a row (1 for the first)."""
        wait = self.fixed if self.fixed is not None else self.error_base
        wait *= 2.0 ** max(0, errors - 1)
        wait = min(wait, self.maximum)
        return max(wait, retry_after or 0.0)

    def next_time(self, now: datetime, seconds: float) -> datetime:
        return now + timedelta(seconds=seconds)


def typical_gap(published: Sequence[datetime | None]) -> float | None:
    """Median seconds between consecutive items of the newest :data:`RATE_WINDOW`, if known."""
    moments = sorted((moment for moment in published if moment is not None), reverse=True)
    moments = moments[:RATE_WINDOW]
    if len(moments) < 2:
        return None
    gaps = [(newer - older).total_seconds() for newer, older in pairwise(moments)]
    gap = float(statistics.median(gaps))
    return gap if gap > 0 else None

"""Politeness per host: how many requests at once, and how far apart they start.

A :class:`HostGate` belongs to one origin (scheme, host and port). A request takes a turn
at the gate: it waits for one of ``per_host`` slots, then for the host's next allowed start
time, which it pushes ``delay`` seconds further for whoever comes next; it keeps the slot
until its body is read. ``delay`` is the policy's ``min_delay``, raised by the site's
robots.txt ``Crawl-delay`` (capped), and a ``Retry-After`` defers the host's next start.
Different origins have different gates, so they never slow each other down.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

__all__ = ["MAX_CRAWL_DELAY", "HostGate", "HostStats", "Politeness"]

#: Longest robots.txt Crawl-delay obeyed: a feed poller still needs a page a minute per site.
MAX_CRAWL_DELAY = 60.0


@dataclass(frozen=True, slots=True)
class HostStats:
    """What one origin cost: exchanges sent, how many failed, seconds spent waiting."""

    requests: int  #: HTTP exchanges, robots.txt, redirect hops and retries included
    errors: int  #: exchanges that ended in a network error, a timeout, a 5xx or a 429
    waited: float  #: seconds requests waited for a slot, the delay, or a retry


class HostGate:
    """The politeness state of one origin; see the module docstring."""

    def __init__(self, per_host: int, min_delay: float) -> None:
        self._slots = asyncio.Semaphore(max(1, per_host))
        self._min_delay = min_delay
        self._next_start = 0.0
        self.delay = min_delay
        self._requests = 0
        self._errors = 0
        self._waited = 0.0

    def obey_crawl_delay(self, crawl_delay: float | None) -> None:
        """Space requests by the site's wish, never less than ``min_delay``, capped."""
        wished = min(crawl_delay or 0.0, MAX_CRAWL_DELAY)
        delay = max(self._min_delay, wished)
        self._next_start += max(0.0, delay - self.delay)  # the turn already handed out, too
        self.delay = delay

    def defer(self, seconds: float) -> None:
        """Start nothing on this host for ``seconds`` (the server asked us to wait)."""
        self._next_start = max(self._next_start, time.monotonic() + seconds)

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[float]:
        """Hold a slot from the allowed start until the exchange ends; yield seconds waited."""
        began = time.monotonic()
        async with self._slots:
            now = time.monotonic()
            start = max(now, self._next_start)
            self._next_start = start + self.delay
            if start > now:
                await asyncio.sleep(start - now)
            waited = time.monotonic() - began
            self._requests += 1
            self._waited += waited
            yield waited

    def record_error(self) -> None:
        self._errors += 1

    def record_wait(self, seconds: float) -> None:
        """Count a wait outside :meth:`turn` (a retry's backoff)."""
        self._waited += seconds

    def stats(self) -> HostStats:
        return HostStats(self._requests, self._errors, self._waited)


class Politeness:
    """The gates of one crawl, one per origin, made on first use."""

    def __init__(self, per_host: int, min_delay: float) -> None:
        self._per_host = per_host
        self._min_delay = min_delay
        self._gates: dict[str, HostGate] = {}

    def gate(self, origin: str) -> HostGate:
        if origin not in self._gates:
            self._gates[origin] = HostGate(self._per_host, self._min_delay)
        return self._gates[origin]

    def stats(self) -> dict[str, HostStats]:
        return {origin: gate.stats() for origin, gate in self._gates.items()}

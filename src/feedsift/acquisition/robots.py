"""robots.txt as RFC 9309 reads it, parsed by protego, fetched once per origin per crawl.

The fetcher downloads ``/robots.txt`` politely (it is a request to the host like any other)
and hands the outcome here: a 2xx body is parsed (its first :data:`ROBOTS_MAX_BYTES` only);
a 4xx means there are no rules; a 5xx, a 429 or a network failure means the site cannot tell
us what is allowed, so nothing is, for the rest of the crawl (:attr:`RobotsRules.unavailable`
records why). A host that cannot be connected to at all never gets here: the fetcher reports
it as unreachable, and asks again on the next fetch. :class:`RobotsCache` makes concurrent
fetches to one origin share one download.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from protego import Protego

from feedsift.errors import FetchError, HttpStatusError, RobotsDisallowedError

__all__ = [
    "ROBOTS_MAX_BYTES",
    "ROBOTS_MAX_REDIRECTS",
    "UNREACHABLE_CLIENT_ERRORS",
    "RobotsCache",
    "RobotsRules",
    "robots_url",
]

#: Part of robots.txt read: RFC 9309 asks for at least 500 KiB; rules after it are ignored.
ROBOTS_MAX_BYTES = 500 * 1024
#: Redirect hops followed for robots.txt: RFC 9309 asks for at least five.
ROBOTS_MAX_REDIRECTS = 5
#: 4xx answers that mean "busy", not "no rules": a 429 is a server asking us to slow down.
UNREACHABLE_CLIENT_ERRORS = frozenset({429})


def robots_url(origin: str) -> str:
    """``https://example.org`` -> ``https://example.org/robots.txt``."""
    return f"{origin}/robots.txt"


@dataclass(frozen=True, slots=True)
class RobotsRules:
    """The rules of one origin; no parser means allow everything unless ``unavailable``."""

    origin: str
    parser: Protego | None = field(default=None, compare=False)
    unavailable: str | None = None  #: why the whole origin is off limits for this crawl

    @classmethod
    def parse(cls, origin: str, body: bytes) -> RobotsRules:
        """Rules from a robots.txt body (a 2xx answer), cut at :data:`ROBOTS_MAX_BYTES`."""
        text = body[:ROBOTS_MAX_BYTES].decode("utf-8", errors="replace")
        return cls(origin, Protego.parse(text))

    @classmethod
    def after_error(cls, origin: str, error: FetchError) -> RobotsRules:
        """Rules when robots.txt could not be read: allow all after a 4xx, else nothing."""
        if isinstance(error, HttpStatusError):
            if 400 <= error.status < 500 and error.status not in UNREACHABLE_CLIENT_ERRORS:
                return cls(origin)
            return cls(origin, unavailable=f"HTTP {error.status}")
        return cls(origin, unavailable=str(error))

    def crawl_delay(self, user_agent: str) -> float | None:
        """The ``Crawl-delay`` of the group that applies to ``user_agent``, if any."""
        return None if self.parser is None else self.parser.crawl_delay(user_agent)

    def check(self, url: str, user_agent: str) -> None:
        """Raise :class:`RobotsDisallowedError` unless ``user_agent`` may fetch ``url``."""
        where = robots_url(self.origin)
        if self.unavailable is not None:
            raise RobotsDisallowedError(f"disallowed: {where} unavailable ({self.unavailable})")
        if self.parser is not None and not self.parser.can_fetch(url, user_agent):
            raise RobotsDisallowedError(f"disallowed by {where}")


class RobotsCache:
    """The rules of every origin met in one crawl, each loaded once."""

    def __init__(self) -> None:
        self._rules: dict[str, RobotsRules] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def get(self, origin: str, load: Callable[[str], Awaitable[RobotsRules]]) -> RobotsRules:
        """The rules of ``origin``, loaded with ``load`` by the first caller only.

        When ``load`` raises, nothing is stored and the next caller tries again.
        """
        if origin not in self._rules:
            lock = self._locks.setdefault(origin, asyncio.Lock())
            async with lock:
                if origin not in self._rules:
                    self._rules[origin] = await load(origin)
        return self._rules[origin]

    def unavailable(self) -> dict[str, str]:
        """The origins whose robots.txt could not be read in this crawl, and why."""
        return {o: r.unavailable for o, r in self._rules.items() if r.unavailable is not None}

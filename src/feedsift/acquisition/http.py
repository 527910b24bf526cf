"""A single polite GET: what ``feedsift extract URL`` needs, and nothing more.

``fetch_page`` runs a one-shot :class:`~feedsift.acquisition.fetcher.Fetcher` (no delay
before the page, no retries) and keeps its answer in a :class:`FetchedPage`: it identifies
itself, asks the host's ``robots.txt`` first, refuses private and local addresses unless
``allow_private``, follows a bounded number of redirects (naming a loop when it sees one),
refuses bodies that are not HTML and stops reading a body, counted after decompression, as
soon as it passes the size cap. Every failure is a :class:`~feedsift.errors.FetchError`
with a one-line reason.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from feedsift.acquisition.fetcher import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    HTML_MEDIA_TYPES,
    MAX_REDIRECTS,
    USER_AGENT,
    Fetcher,
    FetchPolicy,
    FetchResult,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "HTML_MEDIA_TYPES",
    "MAX_REDIRECTS",
    "USER_AGENT",
    "FetchedPage",
    "fetch_page",
]


@dataclass(frozen=True, slots=True)
class FetchedPage:
    """One fetched page: the URL asked for, where redirects ended, and the decoded body."""

    url: str
    final_url: str
    status: int
    content_type: str | None
    body: bytes
    headers: tuple[tuple[str, str], ...]

    def header(self, name: str) -> str | None:
        """The first value of the response header ``name`` (case-insensitive), if present."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


def fetch_page(
    url: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    user_agent: str = USER_AGENT,
    check_robots: bool = True,
    allow_private: bool = False,
) -> FetchedPage:
    """GET one HTML page politely; raise :class:`FetchError` with the reason on any failure.

    ``timeout`` bounds the network time of the page (redirects and body included) and,
    separately, of its ``robots.txt``; ``max_bytes`` bounds the decompressed body. With
    ``check_robots`` the host's ``robots.txt`` must allow the URL (and every redirect
    target) for ``user_agent``. Call it from synchronous code only (it runs an event loop).
    """
    policy = FetchPolicy(
        user_agent=user_agent,
        timeout=timeout,
        max_bytes=max_bytes,
        min_delay=0.0,
        retries=0,
        robots=check_robots,
        allow_private=allow_private,
    )
    result = asyncio.run(_fetch_once(url, policy))
    return FetchedPage(
        url=url,
        final_url=result.response_url,
        status=result.status,
        content_type=result.content_type,
        body=result.body,
        headers=result.headers,
    )


async def _fetch_once(url: str, policy: FetchPolicy) -> FetchResult:
    async with Fetcher(policy) as fetcher:
        return await fetcher.fetch(url, kinds=HTML_MEDIA_TYPES)

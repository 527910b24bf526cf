"""Fetches the server makes for a request: one page to extract, a site or feed to subscribe.

They go through feedsift's own fetcher as ``feedsift extract URL`` does: an identifying
User-Agent, robots.txt, a bounded number of redirects, a size cap, no retries, and the SSRF
guard, which refuses private, loopback and link-local addresses (each redirect hop and the
address actually connected included) unless the server was started with
``--allow-private``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from feedsift.acquisition.fetcher import HTML_MEDIA_TYPES, Fetcher, FetchPolicy, FetchResult
from feedsift.server.errors import ApiError
from feedsift.server.options import ServerOptions

__all__ = ["fetch_html", "fetch_policy", "requested_url"]

#: The schemes a URL to fetch may have.
URL_SCHEMES = ("http", "https")


def fetch_policy(options: ServerOptions) -> FetchPolicy:
    """One polite attempt, at once: a user is waiting for the answer."""
    return FetchPolicy(
        timeout=options.fetch_timeout, min_delay=0.0, retries=0,
        allow_private=options.allow_private_addresses,
    )  # fmt: skip


def requested_url(body: dict[str, object], *, scheme_required: bool = True) -> str:
    """The ``url`` of a JSON body, else :class:`ApiError` 400; with ``scheme_required`` an
    absolute http(s) URL (subscribing also takes a bare ``blog.example.org``)."""
    url = body.get("url")
    if not isinstance(url, str) or not url.strip():
        raise ApiError(400, 'the JSON body needs "url": the address of a page')
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ApiError(400, f"invalid URL {url!r}: {exc}") from exc
    if scheme_required and (parts.scheme.lower() not in URL_SCHEMES or not parts.netloc):
        raise ApiError(400, f"not an http or https URL: {url!r}")
    return url


async def fetch_html(url: str, options: ServerOptions) -> FetchResult:
    """GET one HTML page; :class:`~feedsift.errors.FetchError` with the reason on failure."""
    async with Fetcher(fetch_policy(options)) as fetcher:
        return await fetcher.fetch(url, kinds=HTML_MEDIA_TYPES)

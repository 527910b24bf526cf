"""The site a URL belongs to: the unit of item history, de-duplication and templates.

The URL Tree paper runs one RSS reader per Web site; feedsift names a site by its host
(lower case, without a leading ``www.``) and its port when one is given, so that two test
sites on one loopback address stay apart.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from feedsift.errors import InputError

__all__ = ["SAME_SITE_PREFIXES", "site_of"]

#: Host prefixes that name the same site as the bare host.
SAME_SITE_PREFIXES = ("www.",)


def site_of(url: str) -> str:
    """``host[:port]`` of ``url`` in lower case, without ``www.``; InputError if it has none."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise InputError(f"invalid URL {url!r}: {exc}") from exc
    if not host:
        raise InputError(f"URL has no host: {url!r}")
    for prefix in SAME_SITE_PREFIXES:
        if host.startswith(prefix):
            host = host[len(prefix) :]
    return host if port is None else f"{host}:{port}"

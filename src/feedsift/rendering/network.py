"""The renderer's network rule: what a request of a rendered page is answered with.

A rendered page reaches no network of its own. Every request is decided here:

- the page's own document URL (a main-frame navigation) gets the HTML being rendered;
- a URL the page's :class:`ResourceResolver` knows gets the resolver's bytes (a site's saved
  stylesheets, or the crawl's stylesheets fetched by its own fetcher); a
  :class:`KindResolver` is told what the request is for, and may answer some kinds only;
- a URL on a loopback host (``127.0.0.1``, ``::1``, ``localhost``) goes to the network when
  the renderer allows loopback (a test server, the local test web);
- everything else is aborted and recorded in the render's blocked list.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Protocol, runtime_checkable
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from feedsift.acquisition.safety import is_loopback_host

__all__ = [
    "DirectoryResources",
    "KindResolver",
    "Resource",
    "ResourceKind",
    "ResourceResolver",
    "Verdict",
    "browser_url",
    "decide",
    "is_loopback_url",
    "resolve_request",
]

#: Content type of a saved file whose suffix says nothing.
DEFAULT_CONTENT_TYPE = "application/octet-stream"
#: File served for a URL path ending in ``/`` (a static site's directory index).
INDEX_FILE = "index.html"
#: Characters a browser leaves unescaped in a path or query (``%`` keeps escapes as they are).
URL_SAFE = "/%:@!$&'()*+,;=?~"


@dataclass(frozen=True, slots=True)
class Resource:
    """A response body the page gets without any network."""

    body: bytes
    content_type: str


#: What a request is for, in Playwright's words (``Request.resource_type``): ``document``,
#: ``stylesheet``, ``image``, ``font``, ``script``, ``fetch``, ``media``, ``other`` ...
ResourceKind = str


class ResourceResolver(Protocol):
    """Answers a subresource URL with its bytes, or ``None`` when it does not know it."""

    def resolve(self, url: str) -> Resource | None: ...


@runtime_checkable
class KindResolver(Protocol):
    """A resolver that is told what each request is for, so that it can answer some kinds
    only (the crawl's fetched stylesheets: CSS, never images, fonts or scripts)."""

    def resolve(self, url: str) -> Resource | None: ...

    def resolve_kind(self, url: str, kind: ResourceKind) -> Resource | None: ...


def resolve_request(resources: ResourceResolver, url: str, kind: ResourceKind) -> Resource | None:
    """What ``resources`` answers a request of ``kind`` for ``url`` with (a
    :class:`KindResolver` is told the kind; any other resolver is asked by URL alone)."""
    if isinstance(resources, KindResolver):
        return resources.resolve_kind(url, kind)
    return resources.resolve(url)


class DirectoryResources:
    """Serves URL paths from files under a folder (a site's saved ``assets/``).

    ``hosts`` limits the hosts served (the site's own host and any MANIFEST
    ``absolute_self_hosts``); ``None`` serves a matching path on any host. A path that
    leaves the folder (``..``) or names no file is not known.
    """

    def __init__(self, folder: str | Path, hosts: frozenset[str] | None = None) -> None:
        self._folder = Path(folder).resolve()
        self._hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    def resolve(self, url: str) -> Resource | None:
        parts = urlsplit(url)
        if self._hosts is not None and (parts.hostname or "") not in self._hosts:
            return None
        path = unquote(parts.path or "/")
        if path.endswith("/"):
            path += INDEX_FILE
        relative = PurePosixPath(path.lstrip("/"))
        if ".." in relative.parts:
            return None
        file = self._folder.joinpath(*relative.parts)
        if not file.is_file():
            return None
        kind = mimetypes.guess_type(file.name)[0] or DEFAULT_CONTENT_TYPE
        return Resource(file.read_bytes(), kind)


def is_loopback_url(url: str) -> bool:
    """Whether the URL's host is this machine (a loopback name or address)."""
    return is_loopback_host(urlsplit(url).hostname or "")


class Verdict(Enum):
    """What a request gets."""

    DOCUMENT = "document"  #: the HTML being rendered
    RESOURCE = "resource"  #: the resolver's answer
    NETWORK = "network"  #: passed on (loopback only)
    BLOCK = "block"  #: aborted and recorded


def decide(
    url: str,
    document_url: str,
    navigation: bool,
    found: Resource | None,
    allow_loopback: bool,
) -> Verdict:
    """The verdict for one request (``found``: what the resolver gave for ``url``)."""
    if navigation and _same_document(url, document_url):
        return Verdict.DOCUMENT
    if found is not None:
        return Verdict.RESOURCE
    scheme = urlsplit(url).scheme.lower()
    if allow_loopback and scheme in ("http", "https", "ws", "wss") and is_loopback_url(url):
        return Verdict.NETWORK
    return Verdict.BLOCK


def browser_url(url: str) -> str:
    """The URL as the browser will request it: a lower-case scheme and IDNA host, a path of
    at least ``/`` and a percent-encoded path and query (a page at ``/2019/09/05/搭建/`` is
    requested as ``/2019/09/05/%E6%90%AD...``, one at ``https://Alignof.github.io/blog/`` as
    ``https://alignof.github.io/blog/``)."""
    parts = urlsplit(url)
    netloc = parts.netloc.lower() if parts.netloc.isascii() else parts.netloc
    if not netloc.isascii():
        try:
            host = (parts.hostname or "").encode("idna").decode("ascii")
        except UnicodeError:
            host = quote(parts.hostname or "", safe="")
        netloc = host + (f":{parts.port}" if parts.port else "")
    path, query = quote(parts.path or "/", safe=URL_SAFE), quote(parts.query, safe=URL_SAFE)
    return urlunsplit((parts.scheme.lower(), netloc, path, query, parts.fragment))


def _same_document(url: str, document_url: str) -> bool:
    """Same URL up to the fragment (never sent) and percent-escapes."""
    return unquote(url.split("#", 1)[0]) == unquote(document_url.split("#", 1)[0])

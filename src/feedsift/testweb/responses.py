"""What a test-web site receives and answers: request and response records, routing.

Sites are plain objects with ``respond(request) -> Response``; the HTTP plumbing lives in
:mod:`feedsift.testweb.server`. A response that carries validators (ETag, Last-Modified)
is answered with ``304 Not Modified`` when the request's conditional headers match.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import format_datetime, parsedate_to_datetime
from typing import Protocol
from urllib.parse import parse_qsl

__all__ = [
    "HTML",
    "Handler",
    "Request",
    "Responder",
    "Response",
    "Router",
    "Stream",
    "cached",
    "http_date",
    "is_not_modified",
    "not_found",
    "redirect",
]

#: Content type of every HTML page the test web writes.
HTML = "text/html; charset=UTF-8"


@dataclass(frozen=True, slots=True)
class Request:
    """One request as a site sees it (header names lower-cased)."""

    method: str
    path: str  #: percent-encoded, as received, without the query
    query: tuple[tuple[str, str], ...]
    headers: tuple[tuple[str, str], ...]

    @classmethod
    def parse(cls, method: str, target: str, headers: Sequence[tuple[str, str]]) -> Request:
        path, _, query = target.partition("?")
        pairs = tuple(parse_qsl(query, keep_blank_values=True))
        return cls(method, path or "/", pairs, tuple((k.lower(), v) for k, v in headers))

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k == name.lower()), None)

    def param(self, name: str) -> str | None:
        return next((v for k, v in self.query if k == name), None)


@dataclass(frozen=True, slots=True)
class Stream:
    """A body produced lazily, chunk by chunk (for bodies too large to build at once)."""

    chunks: Callable[[], Iterator[bytes]]
    length: int | None  #: the Content-Length to announce; None ends the body by closing


@dataclass(frozen=True, slots=True)
class Response:
    """What to answer. ``delay`` waits before answering; ``reset`` aborts the connection."""

    status: int = 200
    body: bytes = b""
    content_type: str | None = HTML
    headers: tuple[tuple[str, str], ...] = ()
    etag: str | None = None
    last_modified: datetime | None = None
    delay: float = 0.0
    stream: Stream | None = None
    reset: bool = False

    def all_headers(self) -> list[tuple[str, str]]:
        """Content-Type, validators and the extra headers, in that order."""
        found = [("Content-Type", self.content_type)] if self.content_type else []
        if self.etag:
            found.append(("ETag", self.etag))
        if self.last_modified:
            found.append(("Last-Modified", http_date(self.last_modified)))
        return found + list(self.headers)


class Responder(Protocol):
    """Anything that answers requests: a site, the faults site, the control server."""

    def respond(self, request: Request) -> Response: ...


Handler = Callable[[Request, "re.Match[str]"], Response]


@dataclass(frozen=True, slots=True)
class Router:
    """Paths (full-match regular expressions) to handlers, tried in order."""

    routes: tuple[tuple[re.Pattern[str], Handler], ...] = field(default=())

    @classmethod
    def of(cls, *routes: tuple[str, Handler]) -> Router:
        return cls(tuple((re.compile(pattern), handler) for pattern, handler in routes))

    def dispatch(self, request: Request) -> Response:
        for pattern, handler in self.routes:
            match = pattern.fullmatch(request.path)
            if match:
                return handler(request, match)
        return not_found()


def http_date(moment: datetime) -> str:
    """An HTTP date (RFC 9110 IMF-fixdate)."""
    return format_datetime(moment, usegmt=True)


def cached(body: bytes, content_type: str, last_modified: datetime | None = None) -> Response:
    """A 200 whose ETag is a hash of the body, so it changes exactly when the body does."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Response(body=body, content_type=content_type, etag=etag, last_modified=last_modified)


def redirect(location: str, status: int = 301) -> Response:
    """A redirect with a short HTML body, as real servers send."""
    body = f'<html><body><a href="{location}">Moved</a></body></html>'.encode()
    return Response(status=status, body=body, headers=(("Location", location),))


def not_found() -> Response:
    body = b"<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Not found</h1>"
    return Response(status=404, body=body + b"<p>Nothing lives at this address.</p></body></html>")


def _etag_matches(header: str, etag: str) -> bool:
    wanted = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in wanted or etag.removeprefix("W/") in wanted


def is_not_modified(request: Request, response: Response) -> bool:
    """Whether a 200 ``response`` may be answered with 304 (RFC 9110 section 13.2.2)."""
    if response.status != 200 or request.method not in ("GET", "HEAD"):
        return False
    if_none_match = request.header("if-none-match")
    if if_none_match is not None:
        return response.etag is not None and _etag_matches(if_none_match, response.etag)
    since = request.header("if-modified-since")
    if since is None or response.last_modified is None:
        return False
    try:
        return response.last_modified.replace(microsecond=0) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False

"""The request guard: who may write, and which Host names the server answers to.

With a token, every write (POST, PUT, PATCH, DELETE) must carry ``Authorization: Bearer
<token>`` (compared in constant time), else 401; reads stay open. A server listening on
loopback also refuses requests whose ``Host`` is not a loopback name or the address it
listens on: a web page the user visits cannot then reach it through a DNS name rebound to
127.0.0.1. (Cross-site forms cannot write either: the endpoints that store or fetch take
JSON or HTML bodies with their own media types, which browsers do not send across sites
unasked; the inspector's form, ``POST /inspect``, takes a form body, but it only extracts
the page it is given and stores and fetches nothing.)
"""

from __future__ import annotations

import hmac
from collections.abc import Collection

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from feedsift.server.errors import error_response
from feedsift.server.options import LOOPBACK_NAMES, ServerOptions, is_loopback

__all__ = ["WRITE_METHODS", "RequestGuard", "allowed_hosts", "host_name"]

#: Methods that change something, so need the token when there is one.
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Loopback addresses a client on this machine may name in its Host header.
LOOPBACK_ADDRESSES = ("127.0.0.1", "::1")


def allowed_hosts(options: ServerOptions) -> frozenset[str] | None:
    """The Host names answered: loopback's and the listening address's when listening on
    loopback; None (any) otherwise, where the token guards the writes."""
    if not is_loopback(options.host):
        return None
    return frozenset({*LOOPBACK_NAMES, *LOOPBACK_ADDRESSES, host_name(options.host)})


def host_name(host: str) -> str:
    """A Host header's name without its port or IPv6 brackets, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class RequestGuard:
    """ASGI middleware that answers 400 to an unknown Host and 401 to an unsigned write."""

    def __init__(self, app: ASGIApp, token: str | None, hosts: Collection[str] | None) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> ASGIApp | None:
        headers = Headers(scope=scope)
        if self.hosts is not None and host_name(headers.get("host", "")) not in self.hosts:
            return error_response(400, "unknown Host header: this server answers to its "
                                  "loopback address only")  # fmt: skip
        if self.token and scope["method"] in WRITE_METHODS and not self._signed(headers):
            return error_response(
                401, "this write needs the server's token: Authorization: Bearer <token>",
                {"WWW-Authenticate": 'Bearer realm="feedsift"'},
            )  # fmt: skip
        return None

    def _signed(self, headers: Headers) -> bool:
        scheme, _, given = headers.get("authorization", "").partition(" ")
        expected = (self.token or "").encode()
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), expected)

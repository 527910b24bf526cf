"""The ASGI app of ``feedsift serve``, built by :func:`build_app` from a
:class:`~feedsift.server.options.ServerOptions`: its routes, its request guard and its
error handlers; the store and the extractor open with the app's lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from feedsift._version import __version__
from feedsift.server.articles_api import get_article, list_articles
from feedsift.server.errors import exception_handlers
from feedsift.server.extract_api import extract_article
from feedsift.server.feeds_api import add_feed, list_feeds, remove_feed
from feedsift.server.html import wants_html
from feedsift.server.inspect_api import inspect_page
from feedsift.server.inspector_pages import inspect_form, inspect_posted, inspect_stored
from feedsift.server.openapi import openapi_json
from feedsift.server.options import ServerOptions, check_options
from feedsift.server.pages import article_page, articles_page, home_page
from feedsift.server.security import RequestGuard, allowed_hosts
from feedsift.server.services import SERVICES_KEY, open_services
from feedsift.server.site_pages import (
    feed_added,
    feed_removed,
    feeds_page,
    site_page,
    sites_page,
)
from feedsift.server.sites_api import get_site

__all__ = ["OPENAPI_PATH", "build_app"]

#: Where the OpenAPI description is served.
OPENAPI_PATH = "/openapi.json"


def build_app(options: ServerOptions) -> Starlette:
    """The app serving ``options.db``; :class:`~feedsift.errors.ConfigError` for options it
    must not run with (another host than loopback without a token)."""
    check_options(options)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        async with open_services(options) as services:
            yield {SERVICES_KEY: services}

    guard = Middleware(RequestGuard, token=options.token, hosts=allowed_hosts(options))
    return Starlette(routes=routes(), middleware=[guard],
                     exception_handlers=exception_handlers(), lifespan=lifespan)  # fmt: skip


def routes() -> list[Route]:
    """Every endpoint."""
    return [
        Route("/", index, methods=["GET"]),
        Route("/api/extract", extract_article, methods=["POST"]),
        Route("/api/inspect", inspect_page, methods=["POST"]),
        Route("/api/articles", list_articles, methods=["GET"]),
        Route("/api/articles/{id}", get_article, methods=["GET"]),
        Route("/api/feeds", list_feeds, methods=["GET"]),
        Route("/api/feeds", add_feed, methods=["POST"]),
        Route("/api/feeds/{id}", remove_feed, methods=["DELETE"]),
        Route("/api/sites/{site}", get_site, methods=["GET"]),
        Route(OPENAPI_PATH, openapi_json, methods=["GET"], include_in_schema=False),
        *pages(),
    ]


def pages() -> list[Route]:
    """The HTML pages, for a browser (not in the OpenAPI description)."""
    return [
        Route("/articles", articles_page, methods=["GET"], include_in_schema=False),
        Route("/articles/{id}", article_page, methods=["GET"], include_in_schema=False),
        Route("/articles/{id}/inspect", inspect_stored, methods=["GET"],
              include_in_schema=False),
        Route("/feeds", feeds_page, methods=["GET"], include_in_schema=False),
        Route("/feeds", feed_added, methods=["POST"], include_in_schema=False),
        Route("/feeds/{id}/remove", feed_removed, methods=["POST"], include_in_schema=False),
        Route("/sites", sites_page, methods=["GET"], include_in_schema=False),
        Route("/sites/{site}", site_page, methods=["GET"], include_in_schema=False),
        Route("/inspect", inspect_form, methods=["GET"], include_in_schema=False),
        Route("/inspect", inspect_posted, methods=["POST"], include_in_schema=False),
    ]  # fmt: skip


async def index(request: Request) -> Response:
    """What this server is, and where its API is described."""
    if wants_html(request.headers.get("accept", "")):
        return await home_page(request)
    return JSONResponse({
        "service": "feedsift", "version": __version__, "openapi": OPENAPI_PATH,
        "endpoints": [f"{method} {path}" for path, method in _endpoints(request)],
    })  # fmt: skip


def _endpoints(request: Request) -> list[tuple[str, str]]:
    routes = [route for route in request.app.routes if isinstance(route, Route)]
    return [(route.path, method) for route in routes
            for method in sorted(route.methods or ()) if method != "HEAD"]  # fmt: skip

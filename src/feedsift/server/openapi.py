"""``GET /openapi.json``: an OpenAPI 3.1 description of the routes, made from the routes
themselves (each endpoint's docstring: its first line the summary, the rest the
description) and the tables below (query parameters, request bodies)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.schemas import BaseSchemaGenerator, EndpointInfo

from feedsift._version import __version__
from feedsift.server.articles_api import ARTICLES_PARAMETERS, MAX_PAGE
from feedsift.server.extract_api import EXTRACT_PARAMETERS, FORMATS, PAGE_MEDIA_TYPES
from feedsift.server.inspect_api import INSPECT_PARAMETERS

__all__ = ["OPENAPI_VERSION", "OpenApiSchema", "openapi_json"]

#: The OpenAPI version of the description.
OPENAPI_VERSION = "3.1.0"
#: A path's parameters: ``{id}`` and the like.
_PATH_PARAMETER = re.compile(r"{(\w+)}")
#: Path parameters that are whole numbers (the others are text).
INTEGER_PATH_PARAMETERS = frozenset({"id"})
_STRING: dict[str, Any] = {"type": "string"}
_BOOLEAN: dict[str, Any] = {"type": "boolean"}
#: What each query parameter is.
PARAMETER_DOCS: Mapping[str, tuple[dict[str, Any], str]] = {
    "url": (_STRING, "the page's address when its HTML is the body (links resolve against it)"),
    "format": ({"type": "string", "enum": list(FORMATS)}, "the answer's format (default json)"),
    "comments": (_BOOLEAN, "also extract the reader comments (default false)"),
    "metadata": (_BOOLEAN, "read title, authors, dates and tags (default true)"),
    "site": (_STRING, "only articles of this site (a host name)"),
    "since": (_STRING, "only articles stored since: a date, an ISO time, or an age as 24h"),
    "kind": (_STRING, "only pages of this kind: article, listing, forum, product..."),
    "method": (_STRING, "only articles this extraction method made: page, hybrid-diffpost..."),
    "q": (_STRING, "a full-text query, as feedsift search takes it; best match first"),
    "limit": ({"type": "integer", "minimum": 1, "maximum": MAX_PAGE}, "articles in the page"),
    "offset": ({"type": "integer", "minimum": 0}, "articles skipped before the page"),
    "duplicates": (_BOOLEAN, "also the duplicates found on arrival (default false)"),
}
#: The query parameters of each endpoint (by its function's name).
QUERY_PARAMETERS: Mapping[str, tuple[str, ...]] = {
    "extract_article": EXTRACT_PARAMETERS,
    "inspect_page": INSPECT_PARAMETERS,
    "list_articles": ARTICLES_PARAMETERS,
}
_URL_BODY: dict[str, Any] = {
    "type": "object", "required": ["url"],
    "properties": {"url": {"type": "string", "description": "the address to fetch"}},
}  # fmt: skip
#: A page sent as the body, or a JSON object naming one to fetch.
_PAGE_BODY: dict[str, Any] = {
    **{kind: {"schema": {"type": "string"}} for kind in sorted(PAGE_MEDIA_TYPES)},
    "application/json": {"schema": _URL_BODY},
}
#: The request body of each endpoint that takes one.
REQUEST_BODIES: Mapping[str, dict[str, Any]] = {
    "extract_article": _PAGE_BODY,
    "inspect_page": _PAGE_BODY,
    "add_feed": {"application/json": {"schema": {
        **_URL_BODY, "properties": {**_URL_BODY["properties"], "as_is": _BOOLEAN},
    }}},
}  # fmt: skip
_ERROR: dict[str, Any] = {
    "description": 'the request failed: {"error": "<one-line reason>"}',
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


class OpenApiSchema(BaseSchemaGenerator):
    """The description of every route in the schema."""

    def get_schema(self, routes: list[BaseRoute]) -> dict[str, Any]:
        paths: dict[str, dict[str, Any]] = {}
        for endpoint in self.get_endpoints(routes):
            paths.setdefault(endpoint.path, {})[endpoint.http_method] = _operation(endpoint)
        return {
            "openapi": OPENAPI_VERSION,
            "info": {"title": "feedsift", "version": __version__,
                     "description": "Clean articles from blogs and news sites, as a service."},
            "paths": paths,
            "components": {"schemas": {"Error": {
                "type": "object", "required": ["error"],
                "properties": {"error": {"type": "string"}},
            }}},
        }  # fmt: skip


def _operation(endpoint: EndpointInfo) -> dict[str, Any]:
    name = endpoint.func.__name__
    summary, _, description = (inspect.getdoc(endpoint.func) or name).partition("\n")
    operation: dict[str, Any] = {
        "operationId": name, "summary": summary.strip(),
        "description": " ".join(description.split()),
        "parameters": _parameters(endpoint.path, QUERY_PARAMETERS.get(name, ())),
        "responses": {"200": {"description": "done", "content": {"application/json": {}}},
                      "4XX": _ERROR},
    }  # fmt: skip
    if name in REQUEST_BODIES:
        operation["requestBody"] = {"required": True, "content": REQUEST_BODIES[name]}
    return operation


def _parameters(path: str, query: tuple[str, ...]) -> list[dict[str, Any]]:
    found = [{"name": name, "in": "path", "required": True,
              "schema": {"type": "integer" if name in INTEGER_PATH_PARAMETERS else "string"}}
             for name in _PATH_PARAMETER.findall(path)]  # fmt: skip
    for name in query:
        schema, description = PARAMETER_DOCS[name]
        found.append({"name": name, "in": "query", "schema": schema, "description": description})
    return found


async def openapi_json(request: Request) -> Response:
    """The OpenAPI description of this server's API."""
    return JSONResponse(OpenApiSchema().get_schema(request.app.routes))

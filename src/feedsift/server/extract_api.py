"""``POST /api/extract``: the article of one page, sent in the body or fetched by URL."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.api import extract
from feedsift.errors import InputError
from feedsift.outputs.formats import render
from feedsift.outputs.serialize import article_to_dict
from feedsift.parsing.charset import sniff_binary
from feedsift.records import Article
from feedsift.server.errors import ApiError
from feedsift.server.fetching import fetch_html, requested_url
from feedsift.server.limits import media_type, read_body, read_json
from feedsift.server.params import check_known, choice, flag, text
from feedsift.server.services import Services, services_of

__all__ = [
    "EXTRACT_PARAMETERS",
    "FORMATS",
    "PAGE_MEDIA_TYPES",
    "SentPage",
    "extract_article",
    "read_page",
]

#: Media types of a page sent as the body. Others are refused (415): among them the ones a
#: web page may send to another site unasked (text/plain, forms).
PAGE_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/octet-stream"})
#: What the article may be answered as, and the media type of each.
FORMATS: Mapping[str, str] = {
    "json": "application/json",
    "txt": "text/plain; charset=utf-8",
    "markdown": "text/markdown; charset=utf-8",
}
#: The query parameters of the endpoint.
EXTRACT_PARAMETERS = ("url", "format", "comments", "metadata")


@dataclass(frozen=True, slots=True)
class SentPage:
    """A page to extract: its bytes, its address and the Content-Type it came with."""

    body: bytes
    url: str | None
    content_type: str | None


async def extract_article(request: Request) -> Response:
    """Extract the article of one page.

    The page is the request body (Content-Type text/html, application/xhtml+xml or
    application/octet-stream; ?url= gives its address), or a JSON object {"url": "..."}
    naming a page to fetch politely (robots.txt, size cap, private addresses refused).
    Answers the article as JSON (?format=txt or markdown for text); nothing is stored.
    """
    params = request.query_params
    check_known(params, EXTRACT_PARAMETERS)
    fmt = choice(params, "format", FORMATS, "json")
    comments, metadata = flag(params, "comments", False), flag(params, "metadata", True)
    services = services_of(request)
    page = await read_page(request, services)
    work = partial(extract, page.body, page.url, content_type=page.content_type,
                   extractor=services.extractor, include_comments=comments,
                   with_metadata=metadata)  # fmt: skip
    try:
        article = await services.in_extractor(work)
    except InputError as exc:  # empty, binary or unparsable
        raise ApiError(415 if sniff_binary(page.body) else 400, str(exc)) from exc
    return _answer(article, fmt)


async def read_page(request: Request, services: Services) -> SentPage:
    """The body's page, or the page its JSON names, fetched."""
    kind = media_type(request)
    if kind == "application/json":
        if "url" in request.query_params:
            raise ApiError(400, "give the URL to fetch in the JSON body only, not also as ?url=")
        url = requested_url(await read_json(request))
        fetched = await fetch_html(url, services.options)
        return SentPage(fetched.body, fetched.response_url, fetched.content_type)
    if kind not in PAGE_MEDIA_TYPES:
        raise ApiError(415, f"Content-Type {kind or '(none)'} is not a page: send text/html, "
                       'or application/json with {"url": "..."} to fetch one')  # fmt: skip
    body = await read_body(request, services.options.max_body_bytes)
    declared = None if kind == "application/octet-stream" else request.headers["content-type"]
    return SentPage(body, text(request.query_params, "url"), declared)


def _answer(article: Article, fmt: str) -> Response:
    if fmt == "json":
        return JSONResponse(article_to_dict(article))
    rendered = render(article, "markdown" if fmt == "markdown" else "txt")
    return Response(rendered, media_type=FORMATS[fmt])

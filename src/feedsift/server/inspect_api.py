"""``POST /api/inspect``: why each text block of a page is in its article or not."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.api import bundled_extractor
from feedsift.errors import InputError
from feedsift.extractors.base import ExtractOptions, PageExtractor
from feedsift.extractors.explain import PageExplanation, explain_page, explanation_to_dict
from feedsift.extractors.page import LearnedPageExtractor
from feedsift.parsing.charset import sniff_binary
from feedsift.parsing.page import parse_page
from feedsift.server.errors import ApiError
from feedsift.server.extract_api import SentPage, read_page
from feedsift.server.page_view import marked_page
from feedsift.server.params import check_known, flag
from feedsift.server.services import Services, services_of

__all__ = ["INSPECT_PARAMETERS", "Inspection", "explain_sent", "inspect_page", "inspect_sent"]

#: The query parameters of the endpoint.
INSPECT_PARAMETERS = ("url", "comments", "metadata")


@dataclass(frozen=True, slots=True)
class Inspection:
    """A page's explanation, and the page itself marked block by block (for the pages)."""

    explanation: PageExplanation
    marked: str  #: an inert HTML document: :func:`~feedsift.server.page_view.marked_page`


async def inspect_page(request: Request) -> Response:
    """Explain the page-level extractor's decision on every text block of one page.

    The page comes as for POST /api/extract: the request body (text/html,
    application/xhtml+xml or application/octet-stream; ?url= gives its address), or a JSON
    object {"url": "..."} naming a page to fetch. Answers JSON: the page's kind, title
    block and body subtree, the article, and each block in document order with kept,
    role, stage (the step that decided), score, threshold and reason; nothing is stored.
    """
    params = request.query_params
    check_known(params, INSPECT_PARAMETERS)
    options = ExtractOptions(include_comments=flag(params, "comments", False),
                             with_metadata=flag(params, "metadata", True))  # fmt: skip
    services = services_of(request)
    page = await read_page(request, services)
    return JSONResponse(explanation_to_dict(await explain_sent(services, page, options)))


async def explain_sent(
    services: Services, page: SentPage, options: ExtractOptions | None = None
) -> PageExplanation:
    """The explanation of ``page`` by the server's extractor, in a worker thread; 415 for
    a binary body, 400 for an empty or unparsable one."""
    return (await _run(services, page, options or ExtractOptions(), marked=False)).explanation


async def inspect_sent(services: Services, page: SentPage) -> Inspection:
    """As :func:`explain_sent`, with the page marked by the decisions."""
    return await _run(services, page, ExtractOptions(), marked=True)


async def _run(
    services: Services, page: SentPage, options: ExtractOptions, *, marked: bool
) -> Inspection:
    work = partial(_inspect, page, _learned(services.extractor), options, marked=marked)
    try:
        return await services.in_extractor(work)
    except InputError as exc:  # empty, binary or unparsable
        raise ApiError(415 if sniff_binary(page.body) else 400, str(exc)) from exc


def _learned(extractor: PageExtractor) -> LearnedPageExtractor:
    """The server's extractor when it is the page-level one (else the bundled model)."""
    return extractor if isinstance(extractor, LearnedPageExtractor) else bundled_extractor()


def _inspect(
    page: SentPage, extractor: LearnedPageExtractor, options: ExtractOptions, *, marked: bool
) -> Inspection:
    parsed = parse_page(page.body, page.url, page.content_type)
    explanation = explain_page(extractor, parsed, options)
    return Inspection(explanation, marked_page(parsed, explanation) if marked else "")

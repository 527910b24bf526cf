"""``POST /api/inspect``: why each text block of a page is in its article or not: the
page level's decision on each block and, on a site the store has learned, what its URL
Tree, DiffPost and feed template say of it (:mod:`feedsift.sitelevel.trace`)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.api import bundled_extractor
from feedsift.dedup.site import site_of
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
from feedsift.sitelevel.models import SavedSite
from feedsift.sitelevel.trace import SiteEvidence, SiteTrace, site_trace
from feedsift.storage import Store

__all__ = [
    "INSPECT_PARAMETERS",
    "Inspection",
    "evidence_for",
    "explain_sent",
    "inspect_page",
    "inspect_sent",
    "site_evidence",
]

#: The query parameters of the endpoint.
INSPECT_PARAMETERS = ("url", "comments", "metadata")


@dataclass(frozen=True, slots=True)
class Inspection:
    """A page's explanation, the page itself marked block by block (for the pages; "" when
    not asked), and what the site's learned methods say of each block (None: no site)."""

    explanation: PageExplanation
    marked: str  #: an inert HTML document: :func:`~feedsift.server.page_view.marked_page`
    site: SiteTrace | None = None


@dataclass(frozen=True, slots=True)
class _Work:
    """One inspection to run in a worker thread."""

    page: SentPage
    options: ExtractOptions
    marked: bool
    evidence: SiteEvidence | None = None
    seen_at: datetime | None = None


async def inspect_page(request: Request) -> Response:
    """Explain the page-level extractor's decision on every text block of one page.

    The page comes as for POST /api/extract: the request body (text/html,
    application/xhtml+xml or application/octet-stream; ?url= gives its address), or a JSON
    object {"url": "..."} naming a page to fetch. Answers JSON: the page's kind, title
    block and body subtree, the article, and each block in document order with kept,
    role, stage (the step that decided), score, threshold and reason; when the store has
    learned the page's site, "site_level" too: the methods consulted and a note per block
    (URL Tree, DiffPost, feed template). Nothing is stored.
    """
    params = request.query_params
    check_known(params, INSPECT_PARAMETERS)
    options = ExtractOptions(include_comments=flag(params, "comments", False),
                             with_metadata=flag(params, "metadata", True))  # fmt: skip
    services = services_of(request)
    page = await read_page(request, services)
    evidence = await evidence_for(services, page.url)
    inspection = await _run(services, _Work(page, options, False, evidence))
    answer = explanation_to_dict(inspection.explanation)
    if inspection.site is not None:
        answer["site_level"] = {"site": inspection.site.site,
                                "consulted": list(inspection.site.consulted),
                                "notes": list(inspection.site.notes)}  # fmt: skip
    return JSONResponse(answer)


async def explain_sent(
    services: Services, page: SentPage, options: ExtractOptions | None = None
) -> PageExplanation:
    """The explanation of ``page`` by the server's extractor, in a worker thread; 415 for
    a binary body, 400 for an empty or unparsable one."""
    return (await _run(services, _Work(page, options or ExtractOptions(), False))).explanation


async def inspect_sent(
    services: Services, page: SentPage, evidence: SiteEvidence | None = None,
    seen_at: datetime | None = None,
) -> Inspection:  # fmt: skip
    """As :func:`explain_sent`, with the page marked by the decisions, and the site's
    methods' notes when ``evidence`` is given (``seen_at``: when the page was fetched)."""
    return await _run(services, _Work(page, ExtractOptions(), True, evidence, seen_at))


async def evidence_for(services: Services, url: str | None) -> SiteEvidence | None:
    """What the store holds of the site of ``url`` (None without a URL or a site)."""
    site = None
    if url:
        with suppress(InputError):
            site = site_of(url)
    if site is None:
        return None
    return await services.in_store(lambda store: site_evidence(store, site))


def site_evidence(store: Store, site: str) -> SiteEvidence | None:
    """The site's saved learner state and newest feed template (None when neither)."""
    saved = store.site_models.get(site)
    templates = sorted(store.templates.of_site(site), key=lambda t: (t.learned_at, t.version))
    if saved is None and not templates:
        return None
    state = None if saved is None else SavedSite(saved.site, saved.state, saved.documents,
                                                 saved.last_document)  # fmt: skip
    if not templates:
        return SiteEvidence(site, state, None)
    newest = templates[-1]
    feed = next((f.url for f in store.feeds.all() if f.id == newest.feed_id), "its feed")
    return SiteEvidence(site, state, newest.state, f"template v{newest.version} of {feed}")


async def _run(services: Services, work: _Work) -> Inspection:
    job = partial(_inspect, work, _learned(services.extractor))
    try:
        return await services.in_extractor(job)
    except InputError as exc:  # empty, binary or unparsable
        raise ApiError(415 if sniff_binary(work.page.body) else 400, str(exc)) from exc


def _learned(extractor: PageExtractor) -> LearnedPageExtractor:
    """The server's extractor when it is the page-level one (else the bundled model)."""
    return extractor if isinstance(extractor, LearnedPageExtractor) else bundled_extractor()


def _inspect(work: _Work, extractor: LearnedPageExtractor) -> Inspection:
    page = work.page
    parsed = parse_page(page.body, page.url, page.content_type)
    explanation = explain_page(extractor, parsed, work.options)
    marked = marked_page(parsed, explanation) if work.marked else ""
    trace = None if work.evidence is None else site_trace(parsed, work.evidence, extractor,
                                                          work.seen_at)  # fmt: skip
    return Inspection(explanation, marked, trace)

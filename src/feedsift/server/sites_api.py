"""``GET /api/sites/{site}``: what the store knows of one site (:mod:`.site_report`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.server.errors import ApiError
from feedsift.server.params import check_known
from feedsift.server.services import services_of
from feedsift.server.site_report import site_name, site_report

__all__ = ["get_site"]


async def get_site(request: Request) -> Response:
    """What the store knows of a site (a host name such as blog.example.org).

    Its documents, articles, duplicates and timings; the articles of each extraction
    method; its feeds; the templates learned from them, version by version, with the paths
    per property and, where the crawl checked them on the feed's items, the method chosen
    for each field with its score against the page level's; the site-level learners'
    state; its latest errors.
    """
    check_known(request.query_params, ())
    site = site_name(request.path_params["site"])
    report = await services_of(request).in_store(lambda store: site_report(store, site))
    if report is None:
        raise ApiError(404, f"the store knows nothing of the site {site}")
    return JSONResponse(report)

"""``GET``/``POST /api/feeds`` and ``DELETE /api/feeds/{id}``: the subscriptions, as
``feedsift feeds list``, ``add`` and ``remove`` manage them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from feedsift.acquisition.schedule import Schedule
from feedsift.crawl.crawler import utc_now
from feedsift.crawl.subscribe import FoundFeed, candidate_urls, discover, subscribe
from feedsift.dedup.site import site_of
from feedsift.outputs.serialize import to_json
from feedsift.server.errors import ApiError
from feedsift.server.fetching import fetch_policy, requested_url
from feedsift.server.limits import read_json
from feedsift.server.params import check_known, path_id
from feedsift.server.services import Services, services_of
from feedsift.storage import FeedRecord, Store

__all__ = ["add_feed", "find_feed", "list_feeds", "remove_feed", "remove_subscription",
           "subscribe_found"]


async def list_feeds(request: Request) -> Response:
    """The subscribed feeds, by site: their state, schedule and last error."""
    check_known(request.query_params, ())
    feeds = await services_of(request).in_store(lambda store: store.feeds.all())
    return JSONResponse({"feeds": [to_json(feed) for feed in feeds]})


async def add_feed(request: Request) -> Response:
    """Subscribe to a feed, or to the feed of a site or page.

    JSON body {"url": "..."}: a feed (RSS, Atom, JSON Feed) is taken as it is; a page is
    searched for its feed as feed readers do (<link rel="alternate">, the Link header,
    common feed paths; https, then http, for an address without a scheme). With
    "as_is": true the URL is subscribed without being fetched. Answers 201 with the feed,
    or 200 when it was subscribed already.
    """
    check_known(request.query_params, ())
    body = await read_json(request)
    url = requested_url(body, scheme_required=False)
    as_is = body.get("as_is", False)
    if not isinstance(as_is, bool):
        raise ApiError(400, '"as_is" must be true or false')
    services = services_of(request)
    found = await find_feed(url, services, as_is=as_is)
    site_of(found.url)  # an address without a host is refused here (400), before storing
    added, record = await services.in_store(lambda store: subscribe_found(store, found))
    answer = {"added": added, "found_by": found.how, "feed": to_json(record)}
    return JSONResponse(answer, 201 if added else 200)


async def remove_feed(request: Request) -> Response:
    """Unsubscribe from a feed (its stored articles are kept)."""
    check_known(request.query_params, ())
    feed_id = path_id(request, "subscribed feed")
    removed = await services_of(request).in_store(lambda store: remove_subscription(store, feed_id))
    if removed is None:
        raise ApiError(404, f"no subscribed feed has the id {feed_id}")
    return JSONResponse({"removed": to_json(removed)})


async def find_feed(url: str, services: Services, *, as_is: bool) -> FoundFeed:
    """The feed ``url`` is or leads to (fetched with the server's policy); ``url`` itself
    with ``as_is``."""
    if as_is:
        return FoundFeed(url, candidate_urls(url)[0], None, "feed")
    return await discover(url, fetch_policy(services.options), services.parsers)


def subscribe_found(store: Store, found: FoundFeed) -> tuple[bool, FeedRecord]:
    """Subscribe to ``found``: whether it is new, and its stored record."""
    added = subscribe(store, found, utc_now(), Schedule())
    record = store.feeds.get(found.url)
    assert record is not None  # just stored, or there already
    return added, record


def remove_subscription(store: Store, feed_id: int) -> FeedRecord | None:
    """Remove the feed ``feed_id``; the removed feed, or None when there is none."""
    with store.transaction():
        record = next((feed for feed in store.feeds.all() if feed.id == feed_id), None)
        if record is not None:
            store.feeds.remove(record.url)
    return record

"""What the store knows of one site, as JSON-safe data: counts, extraction methods, the
templates learned from its feeds (paths with their support, and the per-field choice with
its scores where the crawl checked them), the site-level learners' state, recent errors.

It reads what ``feedsift stats`` and ``feedsift templates show`` read, through the same
functions; nothing here knows HTTP.
"""

from __future__ import annotations

from contextlib import suppress

from feedsift.dedup.site import site_of
from feedsift.errors import InputError, ModelError
from feedsift.outputs.serialize import JsonValue, to_json
from feedsift.storage import (
    ErrorRecord,
    FeedRecord,
    SiteStats,
    Store,
    StoredTemplate,
    method_stats,
    site_stats,
)

__all__ = ["ERROR_SCAN", "RECENT_ERRORS", "site_name", "site_report"]

#: Errors of the site shown, newest first.
RECENT_ERRORS = 20
#: Latest errors of the whole store searched for the site's (page and extraction errors
#: name a URL, not a feed): enough for days of a crawl, bounded for a big store.
ERROR_SCAN = 2000


def site_name(given: str) -> str:
    """A site as the store keys it (``host[:port]``, lower case, no ``www.``), from a host
    name or a URL; :class:`InputError` when it has no host."""
    given = given.strip()
    return site_of(given if "://" in given else f"//{given}")


def site_report(store: Store, site: str) -> dict[str, JsonValue] | None:
    """Everything stored about ``site``; None when the store knows nothing of it."""
    feeds = [feed for feed in store.feeds.all() if feed.site == site]
    stats = next((s for s in site_stats(store.connection) if s.site == site), None)
    templates = store.templates.of_site(site)
    model = store.site_models.get(site)
    if stats is None and not feeds and not templates and model is None:
        return None
    methods = {m.method: m.articles for m in method_stats(store.connection) if m.site == site}
    feed_urls = {feed.id: feed.url for feed in feeds}
    learned = None if model is None else {
        "documents": model.documents, "saved_at": to_json(model.saved_at),
    }  # fmt: skip
    return {
        "site": site,
        "stats": _stats(stats),
        "methods": to_json(methods),
        "feeds": [_feed(feed) for feed in feeds],
        "templates": [template_view(t, feed_urls.get(t.feed_id)) for t in templates],
        "site_model": learned,
        "errors": [to_json(error) for error in site_errors(store, site, feed_urls)],
    }


def _stats(stats: SiteStats | None) -> JsonValue:
    """The site's counts without its name (said once above); empty when it has no page."""
    values = to_json(stats) if stats is not None else {}
    assert isinstance(values, dict)
    values.pop("site", None)
    return values


def _feed(feed: FeedRecord) -> JsonValue:
    return {"id": feed.id, "url": feed.url, "title": feed.title, "polls": feed.polls,
            "error_count": feed.error_count, "last_error": feed.last_error}  # fmt: skip


def template_view(template: StoredTemplate, feed_url: str | None) -> dict[str, JsonValue]:
    """One version of a feed's template: when, from what, its key-path, the paths per
    property with their support, and the per-field choice when it was checked."""
    view: dict[str, JsonValue] = {
        "feed_id": template.feed_id, "feed_url": feed_url, "version": template.version,
        "valid_from": to_json(template.valid_from), "learned_at": to_json(template.learned_at),
        "items": template.items, "key_path": template.key_path,
    }  # fmt: skip
    view.update(_paths(template.state))
    view["fields"] = None if template.checks is None else _choices(template.checks)
    return view


def _paths(state: bytes) -> dict[str, JsonValue]:
    """``paths``: per property, the merged paths best supported first (with the learner's
    reading of ``<title>``), or ``paths_error`` when the state cannot be read."""
    from feedsift.templates.learner import PROPERTIES, FeedTemplate  # heavy to import

    try:
        learned = FeedTemplate.from_bytes(state)
    except ModelError as exc:
        return {"paths": None, "paths_error": str(exc)}
    names = [*PROPERTIES, *(name for name in learned.clusters_ if name not in PROPERTIES)]
    paths: dict[str, JsonValue] = {
        name: [{"path": str(c.path), "support": c.support} for c in learned.clusters_.get(name, [])]
        for name in names
    }
    return {"paths": paths, "title_in_head": learned.title_in_head_}


def _choices(checks: bytes) -> JsonValue:
    """Per field, the method chosen on the feed's own items, its score and the page
    level's, how many items checked it and why; or the reason the checks cannot be read."""
    from feedsift.sitelevel.combiner import saved_choices  # the combiner is heavy to import

    try:
        page, choices = saved_choices(checks)
    except ModelError as exc:
        return {"error": str(exc)}
    return {"page_level": page, "choices": {name: to_json(c) for name, c in choices.items()}}


def site_errors(store: Store, site: str, feed_urls: dict[int, str]) -> list[ErrorRecord]:
    """The site's latest errors, newest first: those of its feeds, and those whose URL is
    on the site, among the store's latest :data:`ERROR_SCAN`."""
    errors = store.errors.recent(ERROR_SCAN)
    mine = [e for e in errors if e.feed_id in feed_urls or _url_site(e.url) == site]
    return mine[:RECENT_ERRORS]


def _url_site(url: str | None) -> str | None:
    with suppress(InputError):
        return site_of(url) if url else None
    return None

"""The HTML pages of the feeds and sites: the subscriptions (with forms to add and remove
one, as ``POST /api/feeds`` and ``DELETE /api/feeds/{id}`` do), the sites the store knows,
and one site: its counts, methods, feeds, learned templates with the per-field choice and
its scores, and its latest errors (what ``GET /api/sites/{site}`` answers, as tables)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from feedsift.outputs.serialize import JsonValue
from feedsift.server.errors import ApiError
from feedsift.server.feeds_api import find_feed, remove_subscription, subscribe_found
from feedsift.server.forms import FORM_TYPE, read_form, require_same_origin
from feedsift.server.html import esc, html_page, link, outside_link, table
from feedsift.server.params import path_id
from feedsift.server.services import Services, services_of
from feedsift.server.site_report import site_name, site_report
from feedsift.storage import FeedRecord, SiteStats, site_stats

__all__ = ["feed_added", "feed_removed", "feeds_page", "site_page", "sites_page"]

#: The counts of a site shown, in this order, with their labels.
STAT_LABELS = (
    ("documents", "pages stored"), ("articles", "articles"), ("listings", "listing pages"),
    ("exact_duplicates", "exact duplicates"), ("near_duplicates", "near duplicates"),
    ("mean_fetch_seconds", "mean fetch (s)"), ("mean_extract_seconds", "mean extraction (s)"),
    ("errors", "errors"),
)  # fmt: skip
#: Columns of a template's per-field choice table, keys of a saved choice.
CHOICE_COLUMNS = ("field", "method", "score", "page_score", "checks", "reason")


def site_href(site: str) -> str:
    """The path of a site's page (a site may hold a port: ``localhost:8080``)."""
    return "/sites/" + quote(site, safe="")


async def feeds_page(request: Request) -> Response:
    """The subscribed feeds, and a form to subscribe to another."""
    services = services_of(request)
    feeds = await services.in_store(lambda store: store.feeds.all())
    return _feeds_answer(services, feeds, "")


async def feed_added(request: Request) -> Response:
    """Subscribe to the form's ``url`` (fetched to find its feed unless ``as_is``)."""
    require_same_origin(request)
    fields = await read_form(request)
    url = fields.get("url", "").strip()
    if not url:
        raise ApiError(400, "give the address of a feed, a site or one of its pages")
    services = services_of(request)
    found = await find_feed(url, services, as_is=fields.get("as_is") == "on")
    site_name(found.url)  # an address without a host is refused here (400), before storing
    added, record = await services.in_store(lambda store: subscribe_found(store, found))
    feeds = await services.in_store(lambda store: store.feeds.all())
    said = "Subscribed to" if added else "Already subscribed to"
    return _feeds_answer(services, feeds, f"{said} {record.url} (found by {found.how}).",
                         201 if added else 200)  # fmt: skip


async def feed_removed(request: Request) -> Response:
    """Unsubscribe from the feed of the path (its articles are kept)."""
    require_same_origin(request)
    feed_id = path_id(request, "subscribed feed")
    services = services_of(request)
    removed = await services.in_store(lambda store: remove_subscription(store, feed_id))
    if removed is None:
        raise ApiError(404, f"no subscribed feed has the id {feed_id}")
    feeds = await services.in_store(lambda store: store.feeds.all())
    notice = f"Unsubscribed from {removed.url}; its stored articles are kept."
    return _feeds_answer(services, feeds, notice)


async def sites_page(request: Request) -> Response:
    """Every site the store holds pages of, with its counts."""
    stats = await services_of(request).in_store(lambda store: site_stats(store.connection))
    headers = ("site", "pages stored", "articles", "listing pages", "errors")
    rows = [("", _site_cells(s)) for s in stats]
    markup = f"<p>{len(rows)} sites.</p>" + table(headers, rows) if rows else (
        '<p class="muted">No page is stored yet: subscribe to a feed and run '
        "<code>feedsift watch</code>, or run <code>feedsift demo</code>.</p>"
    )  # fmt: skip
    return html_page("Sites", markup)


async def site_page(request: Request) -> Response:
    """What the store knows of one site, as ``GET /api/sites/{site}`` says it."""
    site = site_name(request.path_params["site"])
    report = await services_of(request).in_store(lambda store: site_report(store, site))
    if report is None:
        raise ApiError(404, f"the store knows nothing of the site {site}")
    api = link(f"/api/sites/{quote(site, safe='')}", "JSON")
    articles = link("/articles", "its articles", {"site": site})
    markup = (f"<p>{articles} · {api}</p>" + _site_stats(report.get("stats"))
              + _methods(report.get("methods")) + _site_feeds(report.get("feeds"))
              + _templates(report.get("templates")) + _errors(report.get("errors")))  # fmt: skip
    return html_page(f"Site {site}", markup)


# --- feeds ---------------------------------------------------------------------------------


def _feeds_answer(
    services: Services, feeds: list[FeedRecord], notice: str, status: int = 200
) -> Response:
    said = f'<p class="notice">{esc(notice)}</p>' if notice else ""
    writable = services.options.token is None
    headers = ("site", "feed", "title", "polls", "last polled", "errors", "last error", "")
    rows = [("", _feed_cells(feed, writable)) for feed in feeds]
    listed = table(headers, rows) if rows else '<p class="muted">No feed is subscribed.</p>'
    return html_page("Feeds", said + listed + _add_form(writable), status)


def _feed_cells(feed: FeedRecord, writable: bool) -> list[str]:
    remove = (
        f'<form class="inline" method="post" action="/feeds/{feed.id}/remove" '
        f'enctype="{FORM_TYPE}"><button type="submit">remove</button></form>'
    ) if writable else ""  # fmt: skip
    cells = (link(site_href(feed.site), feed.site), outside_link(feed.url), esc(feed.title),
             esc(feed.polls), esc(feed.last_polled_at), esc(feed.error_count),
             esc(feed.last_error), remove)  # fmt: skip
    return [f"<td>{cell}</td>" for cell in cells]


def _add_form(writable: bool) -> str:
    if not writable:
        return ('<p class="muted">This server asks a token for writes: subscribe with '
                "<code>POST /api/feeds</code> and <code>Authorization: Bearer</code>.</p>")
    return (
        f'<h2>Subscribe</h2><form method="post" action="/feeds" enctype="{FORM_TYPE}">'
        '<p><label>Feed, site or page <input type="text" name="url" required '
        'placeholder="blog.example.org"></label> <label><input type="checkbox" name="as_is"> '
        "as is (do not fetch it to look for its feed)</label> "
        '<button type="submit">subscribe</button></p></form>'
    )


# --- sites ---------------------------------------------------------------------------------


def _site_cells(stats: SiteStats) -> list[str]:
    cells = (link(site_href(stats.site), stats.site), esc(stats.documents), esc(stats.articles),
             esc(stats.listings), esc(stats.errors))  # fmt: skip
    return [f"<td>{cell}</td>" for cell in cells]


def _site_stats(stats: JsonValue) -> str:
    if not isinstance(stats, Mapping) or not stats:
        return '<p class="muted">No page of this site is stored yet.</p>'
    rows = "".join(f"<tr><th>{esc(label)}</th><td>{esc(stats.get(key))}</td></tr>"
                   for key, label in STAT_LABELS)  # fmt: skip
    return f'<table class="meta">{rows}</table>'


def _methods(methods: JsonValue) -> str:
    if not isinstance(methods, Mapping) or not methods:
        return ""
    rows = [("", [f"<td>{esc(name)}</td>", f"<td>{esc(count)}</td>"])
            for name, count in methods.items()]  # fmt: skip
    return "<h2>Articles by extraction method</h2>" + table(("method", "articles"), rows)


def _site_feeds(feeds: JsonValue) -> str:
    if not isinstance(feeds, list) or not feeds:
        return ""
    keys = ("url", "title", "polls", "error_count", "last_error")
    rows = [("", [f"<td>{_cell(key, feed)}</td>" for key in keys])
            for feed in feeds if isinstance(feed, Mapping)]  # fmt: skip
    return "<h2>Feeds</h2>" + table(("feed", "title", "polls", "errors", "last error"), rows)


def _templates(templates: JsonValue) -> str:
    if not isinstance(templates, list) or not templates:
        return '<h2>Templates</h2><p class="muted">No template learned from a feed yet.</p>'
    return "<h2>Templates learned from the feeds</h2>" + "".join(
        _template(t) for t in templates if isinstance(t, Mapping)
    )


def _template(template: Mapping[str, JsonValue]) -> str:
    head = (f"<h3>{esc(template.get('feed_url'))}, version {esc(template.get('version'))}</h3>"
            f"<p>Learned {esc(template.get('learned_at'))} from {esc(template.get('items'))} "
            f"feed items; key-path <code>{esc(template.get('key_path'))}</code>.</p>")  # fmt: skip
    return head + _paths(template.get("paths"), template.get("paths_error")) + _choices(
        template.get("fields")
    )


def _paths(paths: JsonValue, error: JsonValue) -> str:
    if not isinstance(paths, Mapping):
        return f'<p class="error">Its paths cannot be read: {esc(error)}</p>'
    rows = [("", [f"<td>{esc(name)}</td>", f"<td><code>{esc(p.get('path'))}</code></td>",
                  f"<td>{esc(p.get('support'))}</td>"])
            for name, found in paths.items() if isinstance(found, list)
            for p in found if isinstance(p, Mapping)]  # fmt: skip
    return table(("property", "path", "support"), rows)


def _choices(fields: JsonValue) -> str:
    if not isinstance(fields, Mapping):
        return '<p class="muted">Not checked on the feed\'s items yet.</p>'
    choices = fields.get("choices")
    if not isinstance(choices, Mapping):
        return f'<p class="error">Its checks cannot be read: {esc(fields.get("error"))}</p>'
    rows = [("", [f"<td>{_cell(key, choice)}</td>" for key in CHOICE_COLUMNS])
            for choice in choices.values() if isinstance(choice, Mapping)]  # fmt: skip
    return ("<p>Per field, the method chosen on the feed's own items (page level: "
            f"{esc(fields.get('page_level'))}):</p>" + table(CHOICE_COLUMNS, rows))


def _errors(errors: JsonValue) -> str:
    if not isinstance(errors, list) or not errors:
        return ""
    keys = ("at", "stage", "url", "reason")
    rows = [("", [f"<td>{_cell(key, error)}</td>" for key in keys])
            for error in errors if isinstance(error, Mapping)]  # fmt: skip
    return "<h2>Latest errors</h2>" + table(keys, rows)


def _cell(key: str, values: Mapping[str, JsonValue]) -> str:
    """One value of a report's record as a cell's markup: URLs as links, scores rounded."""
    value = values.get(key)
    if key == "url" and isinstance(value, str):
        return outside_link(value)
    if isinstance(value, float):
        return f"{value:.2f}"
    return esc(value)

"""The faults site's URL scheme: what each faulty (and each good) URL answers.

See :data:`feedsift.testweb.faults.FAULTS` for the list with the expected outcomes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from feedsift.testweb.faults import FAULTS, RATE_LIMITED_REQUESTS
from feedsift.testweb.feeds import RSS_TYPE, FeedItem
from feedsift.testweb.markup import document, esc
from feedsift.testweb.payloads import OVERSIZED_BYTES, billion_laughs, oversized_chunks
from feedsift.testweb.responses import (
    HTML,
    Request,
    Response,
    Router,
    Stream,
    cached,
    not_found,
    redirect,
)

if TYPE_CHECKING:
    from feedsift.testweb.fault_site import FaultsSite

__all__ = ["ITEMS_FEED", "fault_routes"]

#: The feed that lists every faulty page (and good posts).
ITEMS_FEED = "/feed.xml"
#: The channel description of the malformed feed, before and after breaking it.
MALFORMED = (
    b"<description>Faults on purpose</description>",
    b"<description>Faults on <b>purpose</description>",
)
#: What the oversized bodies start with (the rest is filler).
HUGE_PREFIX = {
    RSS_TYPE: b'<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Huge</title>\n',
    HTML: b"<!DOCTYPE html><html><head><title>Huge page</title></head><body>\n",
}


def fault_routes(site: FaultsSite) -> Router:
    """The router of the faults site."""
    return Router.of(
        (r"/robots.txt", lambda r, m: _text("User-agent: *\nDisallow: /private/\n")),
        (r"/", lambda r, m: _home(site)),
        (re.escape(ITEMS_FEED), lambda r, m: cached(_items_feed(site), RSS_TYPE)),
        (r"/good/([a-z0-9-]+)/", lambda r, m: _good(site, m[1])),
        (r"/slow/feed\.xml", lambda r, m: _slow(site, _good_feed(site, r.path))),
        (r"/slow/post/", lambda r, m: _slow(site, site.page(site.slow_post))),
        (r"/error/(?:feed\.xml|post/)", lambda r, m: _server_error()),
        (r"/ratelimit/feed\.xml", lambda r, m: _limited(site, r, _good_feed(site, r.path))),
        (r"/ratelimit/post/", lambda r, m: _limited(site, r, site.page(site.limited_post))),
        (r"/loop/a", lambda r, m: redirect(site.url("/loop/b"), 302)),
        (r"/loop/b", lambda r, m: redirect(site.url("/loop/a"), 302)),
        (r"/malformed/feed\.xml", lambda r, m: _malformed(site)),
        (r"/broken/feed\.xml", lambda r, m: Response(body=_not_a_feed(), content_type=RSS_TYPE)),
        (r"/laughs/feed\.xml", lambda r, m: Response(body=billion_laughs(), content_type=RSS_TYPE)),
        (r"/reset/(?:feed\.xml|post/)", lambda r, m: Response(reset=True)),
        (r"/huge/feed\.xml", lambda r, m: _huge(RSS_TYPE, announce=True)),
        (r"/huge/post/", lambda r, m: _huge(HTML, announce=True)),
        (r"/huge/stream/", lambda r, m: _huge(HTML, announce=False)),
        (r"/bomb/feed\.xml", lambda r, m: _bomb(site, RSS_TYPE)),
        (r"/bomb/post/", lambda r, m: _bomb(site, HTML)),
        (r"/charset/post/", lambda r, m: site.page(site.charset_post, charset="ISO-8859-1")),
        (r"/private/secret-post/", lambda r, m: _secret()),
        (r"/gone/post/", lambda r, m: not_found()),
    )


def _text(text: str) -> Response:
    return Response(body=text.encode(), content_type="text/plain; charset=utf-8")


def _home(site: FaultsSite) -> Response:
    links = "".join(f'<li><a href="{site.good_path(p)}">{esc(p.title)}</a></li>' for p in site.good)
    body = f'<h1>Fault Line</h1><ul class="posts">{links}</ul><a href="/feed.xml">RSS</a>'
    return cached(document("en", "<title>Fault Line</title>", "home", body), HTML)


def _good(site: FaultsSite, slug: str) -> Response:
    post = next((p for p in site.good if p.slug == slug), None)
    return site.page(post) if post else not_found()


def _items_feed(site: FaultsSite) -> bytes:
    """One item per faulty page (real posts where the page is one), plus the first good post."""
    anchor = site.good[0]
    special = {"rate-limited-page": site.limited_post, "wrong-charset-page": site.charset_post}
    items = []
    for fault in (f for f in FAULTS if f.target == "page"):
        post = special.get(fault.name)
        if post is not None:
            items.append(site.item(post, site.url(fault.path)))
        else:
            link = site.url(fault.path)
            items.append(
                FeedItem(
                    f"Fault: {fault.name}",
                    link,
                    link,
                    anchor.published,
                    anchor.author,
                    ("faults",),
                    fault.expect,
                )
            )
    return site.feed(ITEMS_FEED, (anchor,), tuple(items))


def _good_feed(site: FaultsSite, path: str) -> Response:
    return cached(site.feed(path, site.good[:1]), RSS_TYPE)


def _slow(site: FaultsSite, response: Response) -> Response:
    return Response(
        status=response.status,
        body=response.body,
        content_type=response.content_type,
        delay=site.slow_seconds,
    )


def _server_error() -> Response:
    body = b"<html><head><title>500 Internal Server Error</title></head><body>"
    return Response(status=500, body=body + b"<h1>Internal Server Error</h1></body></html>")


def _limited(site: FaultsSite, request: Request, response: Response) -> Response:
    if site.count(request.path) > RATE_LIMITED_REQUESTS:
        return response
    return Response(
        status=429,
        body=b"Too Many Requests\n",
        content_type="text/plain",
        headers=(("Retry-After", "1"),),
    )


def _malformed(site: FaultsSite) -> Response:
    good = site.feed("/malformed/feed.xml", site.good[1:])
    return Response(body=good.replace(*MALFORMED, 1), content_type=RSS_TYPE)


def _not_a_feed() -> bytes:
    body = "<h1>Welcome to Fault Line</h1><p>This is a web page, not a feed.</p>"
    return document("en", "<title>Fault Line</title>", "home", body)


def _huge(content_type: str, *, announce: bool) -> Response:
    prefix = HUGE_PREFIX[content_type]
    stream = Stream(
        lambda: oversized_chunks(OVERSIZED_BYTES, prefix), OVERSIZED_BYTES if announce else None
    )
    return Response(content_type=content_type, stream=stream)


def _bomb(site: FaultsSite, content_type: str) -> Response:
    return Response(
        body=site.bomb(), content_type=content_type, headers=(("Content-Encoding", "gzip"),)
    )


def _secret() -> Response:
    body = (
        "<article><h1>A private post</h1><p>This page is behind a robots.txt rule; a polite "
        "crawler never reads it.</p></article>"
    )
    return Response(body=document("en", "<title>Private</title>", "private", body))

"""``feedsift serve``: extraction and the stored articles, feeds and sites as a JSON API."""

from __future__ import annotations

import argparse
import os

from feedsift.acquisition.fetcher import DEFAULT_TIMEOUT
from feedsift.cli import EXIT_FAILED, EXIT_OK, Subparsers, report
from feedsift.cli.numbers import whole_number
from feedsift.cli.render_args import add_render_arguments
from feedsift.cli.store_args import add_db_argument
from feedsift.errors import RenderError
from feedsift.rendering.browser import check_renderer
from feedsift.server import (
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PORT,
    SERVE_EXTRA,
    TOKEN_ENV,
    ServerOptions,
    check_options,
)

__all__ = ["register", "run"]

#: The modules the server needs, from the ``serve`` extra.
SERVER_MODULES = ("starlette", "uvicorn")

DESCRIPTION = f"""\
Serve feedsift over HTTP as a JSON API: extract the article of a page sent or named, and
read the database the crawl fills (articles, with full-text search; feeds; what is known
of each site). Every answer is JSON; every error is {{"error": "<one-line reason>"}} with
its status (400 bad input, 401 no token, 404 unknown, 413 body too large, 415 not a
page, 502 the site could not be fetched).

endpoints:
  POST   /api/extract         the article of the HTML body (?url= its address), or of the
                              page {{"url": ...}} names, fetched; ?format=json|txt|markdown,
                              ?comments=1, ?metadata=0; nothing is stored
  GET    /api/articles        stored articles, newest first: ?site= ?since= (24h, a date)
                              ?kind= ?method= ?limit= ?offset=; ?q= searches (best first)
  GET    /api/articles/ID     one stored article, whole
  GET    /api/feeds           the subscribed feeds and their state
  POST   /api/feeds           subscribe: {{"url": ...}} a feed, or a site whose feed is found
  DELETE /api/feeds/ID        unsubscribe (stored articles are kept)
  GET    /api/sites/SITE      a site's counts, methods, learned templates with the per-field
                              choice and scores, and latest errors
  GET    /openapi.json        the OpenAPI 3 description of all this

safety: it listens on {DEFAULT_HOST} unless --host says otherwise, and refuses another
address without a token (--token or ${TOKEN_ENV}); with a token, every write (POST,
DELETE) must send "Authorization: Bearer TOKEN". Bodies over --max-body bytes are refused
while they arrive. Fetched URLs go through robots.txt and the SSRF guard: private,
loopback and link-local addresses are refused unless --allow-private.

rendering (--render): by default the boxes, fonts and positions of the text blocks the
model reads are estimated from the markup. With --render the server lays every page it
extracts (/api/extract, /api/inspect, the inspector page) out in one headless Chromium,
started with the server and closed when it stops (needs playwright and Debian's
chromium; without them the server does not start). A page renders with its stylesheets,
fetched under the same rules as the pages (address guard, --allow-private, robots.txt,
--timeout); images, fonts and scripts are not fetched, and the browser itself reaches no
network. It costs about 0.2-0.6 s a page (against tens of ms); the browser renders two
pages at once and further requests wait. The shipped model was trained on the markup
estimate, so for now it changes few articles (docs/rendering.md). A rendered article says
so in its sources ({{"field": "layout", "source": "browser"}}); a page not rendered within
--render-timeout gets the markup estimate and no such entry."""

EXAMPLES = f"""\
examples:
  feedsift demo --db demo.db && feedsift serve --db demo.db    the demo's articles, served
  curl -s 'localhost:{DEFAULT_PORT}/api/articles?q=lighthouse&limit=5'
  curl -s -X POST -H 'Content-Type: text/html' --data-binary @page.html \\
       'localhost:{DEFAULT_PORT}/api/extract?url=https://example.org/post'
  curl -s -X POST -H 'Content-Type: application/json' \\
       -d '{{"url": "https://example.org/post"}}' localhost:{DEFAULT_PORT}/api/extract
  curl -s -X POST -H 'Content-Type: application/json' \\
       -d '{{"url": "blog.example.org"}}' localhost:{DEFAULT_PORT}/api/feeds
  FEEDSIFT_TOKEN=s3cret feedsift serve --host 0.0.0.0    reachable from the network
  feedsift serve --render --render-timeout 5000   pages laid out in a headless Chromium
"""


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="a JSON API over HTTP: extract pages; the stored articles, feeds, sites",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "--host", default=DEFAULT_HOST,
        help="address to listen on (default: %(default)s; another needs a token)",
    )  # fmt: skip
    parser.add_argument(
        "--port", type=whole_number(1), default=DEFAULT_PORT,
        help="port to listen on (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--token", default=None, metavar="TOKEN",
        help=f"the token writes must carry (default: ${TOKEN_ENV}; required off loopback)",
    )  # fmt: skip
    parser.add_argument(
        "--max-body", type=whole_number(1), default=DEFAULT_MAX_BODY_BYTES, metavar="BYTES",
        help="largest request body accepted (default: %(default)s, 10 MiB)",
    )  # fmt: skip
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
        help="give up on a fetched URL after this long (default: %(default)g)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-private", action="store_true",
        help="fetch private, loopback and link-local addresses too (refused by default)",
    )  # fmt: skip
    add_render_arguments(
        parser, "rendering (see above)",
        "lay the pages extracted out in a headless Chromium with their stylesheets "
        "(about 0.2-0.6 s a page; the shipped model was trained on the markup estimate); "
        "needs playwright and Chromium",
    )  # fmt: skip
    add_db_argument(parser, "the database served (created if missing)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C; a missing ``serve`` extra, or Chromium or playwright missing
    with ``--render``, is one line (status 1) before anything is served."""
    options = ServerOptions(
        db=args.db, host=args.host, port=args.port,
        token=args.token or os.environ.get(TOKEN_ENV) or None, max_body_bytes=args.max_body,
        allow_private_addresses=args.allow_private, fetch_timeout=args.timeout,
        render=args.render, render_timeout_ms=args.render_timeout,
    )  # fmt: skip
    check_options(options)
    if options.render:
        try:  # now, not on the first page a user sends
            check_renderer()
        except RenderError as exc:
            report(None, f"--render: {exc}")
            return EXIT_FAILED
    try:
        from feedsift.server.runner import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in SERVER_MODULES:
            raise
        report(None, f"feedsift serve needs Starlette and uvicorn: {SERVE_EXTRA}")
        return EXIT_FAILED
    serve(options)
    return EXIT_OK

"""The HTML of ``feedsift serve``'s pages: a page layout and the few pieces they are made
of, as strings. Every value that comes from a page, the store or a request goes through
:func:`esc` (``html.escape``, quotes too); a function's ``markup`` arguments are HTML built
by these functions already, never raw input. No script is ever sent, and the pages carry a
Content-Security-Policy that would refuse one."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from starlette.responses import HTMLResponse

__all__ = [
    "HEADERS",
    "esc",
    "html_page",
    "link",
    "outside_link",
    "table",
    "wants_html",
]

#: Sent with every page: no script, no plugin, no framing; styles inline only; forms post
#: back here only; no Referer to the sites linked ("same-origin", not "no-referrer", which
#: makes browsers send ``Origin: null`` with the pages' own form posts).
HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
#: The links of the navigation bar.
NAV = (("/", "home"), ("/articles", "articles"), ("/feeds", "feeds"), ("/sites", "sites"),
       ("/inspect", "inspect"), ("/openapi.json", "API (OpenAPI)"))  # fmt: skip
STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 0 1rem;
  color: #222; }
nav { padding: .6rem 0; border-bottom: 1px solid #ccc; margin-bottom: 1rem; }
nav a { margin-right: 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .25rem .4rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr.kept td { background: #e6f6e6; }
tr.title td { background: #e6eefb; }
tr.removed td { background: #f6f6f6; color: #777; }
tr.removed td.decision { color: #a33; }
td.text { white-space: pre-wrap; word-break: break-word; }
td.stage { white-space: nowrap; }
td.reason { min-width: 18rem; }
mark { background: #fff2a8; }
textarea { width: 100%; min-height: 16rem; font-family: monospace; }
input[type=text] { min-width: 12rem; }
.meta th { width: 10rem; }
.muted { color: #777; }
.error { color: #a33; font-weight: bold; }
.notice { background: #eef4ff; padding: .4rem .6rem; }
form.inline { display: inline; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
iframe.page { width: 100%; height: 36rem; border: 1px solid #ccc; }
span.kept { background: #e6f6e6; } span.title { background: #e6eefb; }
span.removed { color: #999; text-decoration: line-through; }
"""


def esc(value: object) -> str:
    """``value`` as HTML text (None as the empty string), quotes escaped too."""
    return html.escape("" if value is None else str(value), quote=True)


def html_page(title: str, markup: str, status: int = 200) -> HTMLResponse:
    """A whole page: the layout around ``markup``, with the :data:`HEADERS`."""
    nav = "".join(link(href, text) for href, text in NAV)
    document = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · feedsift</title><style>{STYLE}</style></head>"
        f"<body><nav>{nav}</nav><main><h1>{esc(title)}</h1>\n{markup}\n</main></body></html>\n"
    )
    return HTMLResponse(document, status, dict(HEADERS))


def link(href: str, text: str, query: Mapping[str, object] | None = None) -> str:
    """A link to one of this server's paths (``href`` is ours, not input)."""
    target = href + ("?" + urlencode(query) if query else "")
    return f'<a href="{esc(target)}">{esc(text)}</a>'


def outside_link(url: str | None, text: str | None = None) -> str:
    """A link to another site for an http(s) URL; any other URL (``javascript:``...) is
    shown as text only."""
    if not url:
        return ""
    if not url.lower().startswith(("http://", "https://")):
        return esc(text or url)
    return f'<a href="{esc(url)}" rel="noopener noreferrer nofollow">{esc(text or url)}</a>'


def table(headers: Iterable[str], rows: Iterable[tuple[str, Iterable[str]]]) -> str:
    """A table: ``headers`` are text; each row is (its class, its cells as markup)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join(f'<tr class="{esc(cls)}">{"".join(cells)}</tr>' for cls, cells in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def wants_html(accept: str) -> bool:
    """Whether an Accept header asks for HTML by name (a browser's does; ``*/*`` does not)."""
    return any(part.split(";", 1)[0].strip().lower() in ("text/html", "application/xhtml+xml")
               for part in accept.split(","))  # fmt: skip

"""The HTML pages of ``feedsift serve``, for a browser: the home page, the stored articles
(searched and paged as ``GET /api/articles``) and one article. They read through the same
helpers as the JSON endpoints. The inspector is :mod:`.inspector_pages`; the feeds and
sites pages are :mod:`.site_pages`."""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response

from feedsift._version import __version__
from feedsift.outputs.serialize import JsonValue
from feedsift.server.article_html import article_text, field_sources
from feedsift.server.articles_api import KINDS, article_filter, find_articles, read_article
from feedsift.server.html import esc, html_page, link, outside_link, table
from feedsift.server.services import services_of

__all__ = [
    "article_page",
    "articles_page",
    "home_page",
]

#: A matched word of a search snippet (the store's default marks, ``**word**``).
SNIPPET_MARK = re.compile(r"\*\*(.+?)\*\*")
#: The filters of the search form, in its order.
SEARCH_FIELDS = ("q", "site", "kind", "method", "since")


async def home_page(request: Request) -> Response:
    """What this server is, with links to its pages and its API."""
    items = (link("/articles", "Stored articles"), link("/feeds", "Subscribed feeds"),
             link("/sites", "Sites and what was learned of them"),
             link("/inspect", "Inspect a page"),
             link("/openapi.json", "The JSON API (OpenAPI)"))  # fmt: skip
    listed = "".join(f"<li>{item}</li>" for item in items)
    markup = (f"<p>feedsift {esc(__version__)}: clean articles from blogs and news sites."
              f"</p><ul>{listed}</ul>")  # fmt: skip
    return html_page("feedsift", markup)


async def articles_page(request: Request) -> Response:
    """The stored articles, newest first (best match first with q), a page at a time."""
    wanted, query = article_filter(request.query_params)
    articles, total = await find_articles(services_of(request), wanted, query)
    rows = [("", _summary_cells(a)) for a in articles if isinstance(a, dict)]
    last = "match" if query is not None else "method"  # search hits have a snippet instead
    headers = ("title", "site", "kind", last, "published")
    shown = f"{wanted.offset + 1}–{wanted.offset + len(rows)}" if rows else "none"
    markup = (_search_form(request) + f"<p>{esc(total)} found; showing {esc(shown)}.</p>"
              + table(headers, rows) + _paging(request, wanted.offset, wanted.limit, total))
    return html_page("Stored articles", markup)


async def article_page(request: Request) -> Response:
    """One stored article: its title, metadata (and where each came from) and text."""
    stored = await read_article(request)
    article = stored.article
    meta = (("site", esc(stored.site)), ("url", outside_link(stored.url)),
            ("authors", esc(", ".join(article.authors))), ("published", esc(article.published)),
            ("kind", esc(article.kind.value)), ("method", esc(article.provenance.method)),
            ("stored", esc(stored.extracted_at)))  # fmt: skip
    rows = "".join(f"<tr><th>{esc(name)}</th><td>{value}</td></tr>" for name, value in meta)
    inspect = link(f"/articles/{stored.id}/inspect", "inspect")
    markup = (f'<p>{inspect} · {link(f"/api/articles/{stored.id}", "JSON")}</p>'
              f'<table class="meta">{rows}</table>{field_sources(article)}'
              f"<h2>Text</h2>{article_text(article)}")  # fmt: skip
    return html_page(article.title or f"Article {stored.id}", markup)


# --- the list ------------------------------------------------------------------------------


def _summary_cells(summary: Mapping[str, JsonValue]) -> list[str]:
    title = link(f"/articles/{summary.get('id')}", str(summary.get("title") or "(no title)"))
    snippet = summary.get("snippet")
    last = _marked(str(snippet)) if snippet is not None else esc(summary.get("method"))
    return [f"<td>{cell}</td>" for cell in (
        title, esc(summary.get("site")), esc(summary.get("kind")), last,
        esc(summary.get("published")),
    )]  # fmt: skip


def _marked(snippet: str) -> str:
    """A search hit's snippet, escaped, its matched words (between ``**``) in ``<mark>``."""
    return SNIPPET_MARK.sub(r"<mark>\1</mark>", esc(snippet))


def _search_form(request: Request) -> str:
    params = request.query_params
    kinds = "".join(f'<option value="{esc(k)}"{" selected" if params.get("kind") == k else ""}>'
                    f"{esc(k or 'any kind')}</option>" for k in ("", *sorted(KINDS)))  # fmt: skip
    inputs = "".join(
        f'<label>{esc(name)} <input type="text" name="{esc(name)}" '
        f'value="{esc(params.get(name, ""))}"></label> '
        for name in SEARCH_FIELDS if name != "kind"
    )  # fmt: skip
    return (f'<form method="get" action="/articles">{inputs}<label>kind <select name="kind">'
            f'{kinds}</select></label> <button type="submit">search</button></form>')  # fmt: skip


def _paging(request: Request, offset: int, limit: int, total: int) -> str:
    kept = {name: value for name, value in request.query_params.items()
            if name != "offset" and value.strip()}  # fmt: skip
    links = []
    if offset > 0:
        links.append(link("/articles", "« newer", {**kept, "offset": max(0, offset - limit)}))
    if offset + limit < total:
        links.append(link("/articles", "older »", {**kept, "offset": offset + limit}))
    return f"<p>{' · '.join(links)}</p>" if links else ""

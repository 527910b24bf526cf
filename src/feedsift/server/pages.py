"""The HTML pages of ``feedsift serve``, for a browser: the home page, the stored articles
(searched and paged as ``GET /api/articles``), one article, and the inspector (why each text
block of a page is in its article or not, as ``POST /api/inspect``). The pages read through
the same helpers as the JSON endpoints; their errors are the API's JSON errors. No stored
page's HTML is ever served: the inspector shows its blocks' text, escaped."""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response

from feedsift._version import __version__
from feedsift.extractors.explain import BlockExplanation, PageExplanation
from feedsift.outputs.formats import html_body
from feedsift.outputs.serialize import JsonValue
from feedsift.records import Article
from feedsift.server.articles_api import KINDS, article_filter, find_articles, read_article
from feedsift.server.errors import ApiError
from feedsift.server.extract_api import SentPage
from feedsift.server.forms import FORM_TYPE, read_form
from feedsift.server.html import esc, html_page, link, outside_link, table
from feedsift.server.inspect_api import explain_sent
from feedsift.server.params import path_id
from feedsift.server.services import services_of
from feedsift.storage import Store
from feedsift.storage.api_queries import article_document_id

__all__ = [
    "article_page",
    "articles_page",
    "home_page",
    "inspect_form",
    "inspect_posted",
    "inspect_stored",
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
              f'<table class="meta">{rows}</table>{_sources(article)}'
              f"<h2>Text</h2>{_paragraphs(article)}")  # fmt: skip
    return html_page(article.title or f"Article {stored.id}", markup)


async def inspect_form(request: Request) -> Response:
    """A form to paste a page's HTML (and its URL) into, to inspect it."""
    return html_page("Inspect a page", _inspect_form())


async def inspect_posted(request: Request) -> Response:
    """The inspection of the page the form posted (form-encoded: html, url)."""
    services = services_of(request)
    fields = await read_form(request)
    url = fields.get("url", "").strip() or None
    page = SentPage(fields.get("html", "").encode(), url, "text/html; charset=utf-8")
    explanation = await explain_sent(services, page)
    return html_page("Inspection", _inspect_form(url or "") + _explained(explanation))


async def inspect_stored(request: Request) -> Response:
    """The inspection of the stored page a stored article was extracted from."""
    article_id = path_id(request, "stored article")
    services = services_of(request)
    page = await services.in_store(lambda store: _stored_page(store, article_id))
    if page is None:
        raise ApiError(404, f"no stored article with a stored page has the id {article_id}")
    explanation = await explain_sent(services, page)
    back = link(f"/articles/{article_id}", "the stored article")
    return html_page(f"Inspection of article {article_id}", f"<p>Back to {back}.</p>"
                     + _explained(explanation))  # fmt: skip


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


# --- one article ---------------------------------------------------------------------------


def _sources(article: Article) -> str:
    if not article.sources:
        return ""
    rows = [("", [f"<td>{esc(s.field)}</td>", f"<td>{esc(s.source)}</td>",
                  f"<td>{esc(s.detail)}</td>"]) for s in article.sources]  # fmt: skip
    return "<h2>Where each field came from</h2>" + table(("field", "source", "detail"), rows)


def _paragraphs(article: Article) -> str:
    """The body as the html output format writes it (escaped; tables and lists kept)."""
    return "\n".join(html_body(article.body)) or '<p class="muted">(no text)</p>'


# --- the inspector -------------------------------------------------------------------------


def _inspect_form(url: str = "") -> str:
    return (
        f'<form method="post" action="/inspect" enctype="{FORM_TYPE}">'
        f'<p><label>URL (optional: links resolve against it) <input type="text" name="url" '
        f'value="{esc(url)}"></label></p><p><textarea name="html" required '
        'placeholder="paste a page\'s HTML here"></textarea></p>'
        '<p><button type="submit">inspect</button></p></form>'
    )


def _stored_page(store: Store, article_id: int) -> SentPage | None:
    document_id = article_document_id(store.connection, article_id)
    record = None if document_id is None else store.documents.get(document_id)
    if record is None:
        return None
    document = record.document
    return SentPage(document.body, document.response_url, document.header("content-type"))


def _explained(explanation: PageExplanation) -> str:
    article = explanation.article
    title_source = article.source_of("title")
    kept = sum(block.kept for block in explanation.blocks)
    facts = (
        ("kind", f"{article.kind.value} (classifier: {explanation.kind}, "
                 f"confidence {explanation.kind_confidence:.2f})"),
        ("title", f"{article.title or '-'} (from "
                  f"{title_source.source if title_source else 'no source'})"),
        ("blocks", f"{kept} kept of {len(explanation.blocks)}"),
        ("threshold", f"{explanation.threshold:.2f}"),
        ("url", article.url or "-"),
    )  # fmt: skip
    rows = "".join(f"<tr><th>{esc(name)}</th><td>{esc(value)}</td></tr>" for name, value in facts)
    headers = ("#", "decision", "stage", "score", "role", "reason", "text")
    blocks = table(headers, [_block_row(block) for block in explanation.blocks])
    return (f'<table class="meta">{rows}</table><h2>Blocks</h2>{blocks}'
            f"<h2>Extracted text</h2>{_paragraphs(article)}")  # fmt: skip


def _block_row(block: BlockExplanation) -> tuple[str, list[str]]:
    cells = (
        f"<td>{esc(block.index)}</td>", f'<td class="decision">{block.decision}</td>',
        f'<td class="stage">{esc(block.stage)}</td>', f"<td>{block.score:.2f}</td>",
        f"<td>{esc(block.role)}</td>", f'<td class="reason">{esc(block.reason)}</td>',
        f'<td class="text">{esc(block.text)}</td>',
    )  # fmt: skip
    return block.decision.lower(), list(cells)

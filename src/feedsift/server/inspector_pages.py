"""The inspector's pages: why each text block of a page is in its article or not.

A page comes pasted into the form or uploaded as a file (with its URL, which links resolve
against), fetched by
URL (the form with the URL alone: through the fetcher and its SSRF guard, like ``POST
/api/extract``), or as the stored page of a stored article. The answer shows the page's
kind, title and fields with their sources; the page itself, marked block by block
(:mod:`.page_view`, in a sandboxed frame), beside the extracted text; then every block
with its decision, the stage that made it, the score and the reason (``POST
/api/inspect``'s data). Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from starlette.requests import Request
from starlette.responses import Response

from feedsift.extractors.explain import BlockExplanation
from feedsift.server.article_html import article_text, field_sources
from feedsift.server.errors import ApiError
from feedsift.server.extract_api import SentPage
from feedsift.server.fetching import fetch_html, requested_url
from feedsift.server.forms import MULTIPART_TYPE, Upload, read_upload_form, require_same_origin
from feedsift.server.html import esc, html_page, link, table
from feedsift.server.inspect_api import Inspection, evidence_for, inspect_sent, site_evidence
from feedsift.server.params import path_id
from feedsift.server.services import Services, services_of
from feedsift.sitelevel.trace import SiteEvidence
from feedsift.storage import Store
from feedsift.storage.api_queries import article_document_id

__all__ = ["inspect_form", "inspect_posted", "inspect_stored"]

#: The media type the form's pasted HTML is read as.
PASTED_TYPE = "text/html; charset=utf-8"
#: Types of an uploaded file taken as given; any other (a browser says
#: application/octet-stream for a file it does not know) is sniffed from the bytes.
UPLOADED_PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml"})


async def inspect_form(request: Request) -> Response:
    """A form to paste a page's HTML (and its URL) into, or to give a URL to fetch."""
    return html_page("Inspect a page", _inspect_form())


async def inspect_posted(request: Request) -> Response:
    """The inspection of the page the form posted (form-encoded: html, url), or of the
    page at the URL when no HTML was pasted."""
    services = services_of(request)
    form = await read_upload_form(request)
    url = form.fields.get("url", "").strip() or None
    pasted = form.fields.get("html", "")
    upload = form.files.get("file")
    if upload is not None and upload.data:
        page = SentPage(upload.data, url, _uploaded_type(upload))
    elif pasted.strip() or url is None:
        page = SentPage(pasted.encode(), url, PASTED_TYPE)
    else:
        require_same_origin(request)  # a fetch: another site must not make us fetch
        page = await _fetched(services, url)
    inspection = await inspect_sent(services, page, await evidence_for(services, page.url))
    return html_page("Inspection", _inspect_form(page.url or "") + _inspected(inspection))


async def inspect_stored(request: Request) -> Response:
    """The inspection of the stored page a stored article was extracted from."""
    article_id = path_id(request, "stored article")
    services = services_of(request)
    stored = await services.in_store(lambda store: _stored_page(store, article_id))
    if stored is None:
        raise ApiError(404, f"no stored article with a stored page has the id {article_id}")
    inspection = await inspect_sent(services, stored.page, stored.evidence, stored.fetched_at)
    back = link(f"/articles/{article_id}", "the stored article")
    return html_page(f"Inspection of article {article_id}", f"<p>Back to {back}.</p>"
                     + _inspected(inspection))  # fmt: skip


def _uploaded_type(upload: Upload) -> str | None:
    """The type a browser gave an uploaded page, when it names a page type; else None (the
    bytes are sniffed, as a fetched page's are)."""
    given = (upload.content_type or "").split(";", 1)[0].strip().lower()
    return upload.content_type if given in UPLOADED_PAGE_TYPES else None


async def _fetched(services: Services, url: str) -> SentPage:
    fetched = await fetch_html(requested_url({"url": url}), services.options)
    return SentPage(fetched.body, fetched.response_url, fetched.content_type)


def _inspect_form(url: str = "") -> str:
    return (
        f'<form method="post" action="/inspect" enctype="{MULTIPART_TYPE}">'
        '<p><label>URL (alone: the page is fetched; with pasted HTML: links resolve against '
        f'it) <input type="text" name="url" value="{esc(url)}"></label></p>'
        '<p><textarea name="html" placeholder="paste a page\'s HTML here, or leave this '
        'empty to fetch the URL"></textarea></p>'
        '<p><label>or upload a saved page <input type="file" name="file" '
        'accept=".html,.htm,.xhtml,text/html"></label></p>'
        '<p><button type="submit">inspect</button></p></form>'
    )


@dataclass(frozen=True, slots=True)
class _StoredPage:
    """A stored article's page, when it was fetched, and what the store knows of its site."""

    page: SentPage
    fetched_at: datetime
    evidence: SiteEvidence | None


def _stored_page(store: Store, article_id: int) -> _StoredPage | None:
    document_id = article_document_id(store.connection, article_id)
    record = None if document_id is None else store.documents.get(document_id)
    if record is None:
        return None
    document = record.document
    page = SentPage(document.body, document.response_url, document.header("content-type"))
    return _StoredPage(page, document.fetched_at, site_evidence(store, document.site))


def _inspected(inspection: Inspection) -> str:
    explanation = inspection.explanation
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
    site = inspection.site
    if site is not None:
        said = "<br>".join(esc(line) for line in site.consulted)
        rows += f"<tr><th>site level ({esc(site.site)})</th><td>{said}</td></tr>"
    notes = site.notes if site is not None else None
    headers = ("#", "decision", "stage", "score", "role", "reason",
               *(("site level",) if notes is not None else ()), "text")  # fmt: skip
    blocks = table(headers, [_block_row(block, notes) for block in explanation.blocks])
    return (f'<table class="meta">{rows}</table>{field_sources(article)}'
            f"{_side_by_side(inspection)}<h2>Blocks</h2>{blocks}")  # fmt: skip


def _side_by_side(inspection: Inspection) -> str:
    """The marked page (sandboxed: no script, form or navigation) beside the text."""
    frame = (f'<iframe class="page" sandbox="" title="the page, marked" '
             f'srcdoc="{esc(inspection.marked)}"></iframe>')  # fmt: skip
    legend = ('<p class="muted">Marked: <span class="kept">kept</span> · '
              '<span class="title">title</span> · <span class="removed">removed</span> '
              "(hover a block for its decision and reason).</p>")  # fmt: skip
    return (f'<div class="sides"><section><h2>The page</h2>{legend}{frame}</section>'
            f"<section><h2>Extracted text</h2>{article_text(inspection.explanation.article)}"
            "</section></div>")  # fmt: skip


def _block_row(
    block: BlockExplanation, notes: tuple[str, ...] | None
) -> tuple[str, list[str]]:
    """A block's row; with the site's ``notes``, its note in a column of its own."""
    cells = [
        f"<td>{esc(block.index)}</td>", f'<td class="decision">{block.decision}</td>',
        f'<td class="stage">{esc(block.stage)}</td>', f"<td>{block.score:.2f}</td>",
        f"<td>{esc(block.role)}</td>", f'<td class="reason">{esc(block.reason)}</td>',
    ]  # fmt: skip
    if notes is not None:
        note = notes[block.index] if block.index < len(notes) else ""
        cells.append(f'<td class="site">{esc(note)}</td>')
    cells.append(f'<td class="text">{esc(block.text)}</td>')
    return block.decision.lower(), cells

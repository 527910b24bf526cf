"""An article's parts as page markup, shared by the article page and the inspector: its
text as the html output format writes it, and where each of its fields came from."""

from __future__ import annotations

from feedsift.outputs.formats import html_body
from feedsift.records import Article
from feedsift.server.html import esc, table

__all__ = ["article_text", "field_sources"]


def field_sources(article: Article) -> str:
    """A table of the article's fields and their sources (empty when none is recorded)."""
    if not article.sources:
        return ""
    rows = [("", [f"<td>{esc(s.field)}</td>", f"<td>{esc(s.source)}</td>",
                  f"<td>{esc(s.detail)}</td>"]) for s in article.sources]  # fmt: skip
    return "<h2>Where each field came from</h2>" + table(("field", "source", "detail"), rows)


def article_text(article: Article) -> str:
    """The body as the html output format writes it (escaped; tables and lists kept)."""
    return "\n".join(html_body(article.body)) or '<p class="muted">(no text)</p>'

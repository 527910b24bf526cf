"""Articles as CSV: a header line, then one row per article (RFC 4180 quoting).

Fields holding commas, quotes or line breaks are quoted, quotes doubled, so the body text
keeps its paragraphs inside one field. Lists (authors, tags) are joined with ``; ``. Pages
read from WARC files add two last columns, ``warc_record_id`` and ``warc_date``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from feedsift.outputs.origin import WARC_FIELDS, Origin
from feedsift.records import Article

__all__ = ["CSV_COLUMNS", "csv_header", "csv_row", "render_csv"]

#: The columns, in order: where the row came from, who and when, then the text.
CSV_COLUMNS = (
    "input", "url", "title", "authors", "date", "kind", "site_name", "language", "tags",
    "description", "text", "comments",
)  # fmt: skip
#: How a list of names is written in one field.
LIST_SEPARATOR = "; "
#: Between two comments in the ``comments`` field, as between paragraphs of the text.
COMMENT_SEPARATOR = "\n\n"


def _line(values: Sequence[str]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(values)
    return out.getvalue()


def csv_header(*, warc: bool = False) -> str:
    """The header line (with the WARC columns when ``warc``)."""
    return _line(CSV_COLUMNS + WARC_FIELDS if warc else CSV_COLUMNS)


def csv_row(article: Article, origin: Origin | None = None, *, warc: bool = False) -> str:
    """The line of one article (``input`` empty when not given; the WARC columns when
    ``warc``, empty for a page that is no WARC record)."""
    origin = origin or Origin()
    values = {
        "input": origin.input or "",
        "url": article.canonical_url or article.url or "",
        "title": article.title or "",
        "authors": LIST_SEPARATOR.join(article.authors),
        "date": article.published.isoformat() if article.published else "",
        "kind": str(article.kind),
        "site_name": article.site_name or "",
        "language": article.language or "",
        "tags": LIST_SEPARATOR.join(article.tags),
        "description": article.description or "",
        "text": article.text,
        "comments": COMMENT_SEPARATOR.join(comment.text for comment in article.comments),
    }
    row = [values[column] for column in CSV_COLUMNS]
    if warc:
        fields = origin.fields()
        row.extend(str(fields.get(name) or "") for name in WARC_FIELDS)
    return _line(row)


def render_csv(article: Article, origin: Origin | None = None) -> str:
    """A header line and the article's line (with the WARC columns for a WARC record)."""
    warc = origin is not None and origin.is_warc
    return csv_header(warc=warc) + csv_row(article, origin, warc=warc)

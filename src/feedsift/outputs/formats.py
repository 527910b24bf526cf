"""Articles rendered for people and programs: txt, json, jsonl, markdown, html, xml, csv.

``render`` gives one standalone document per article. ``DocumentStream`` writes the
articles of several inputs into one text stream: txt separates them with a
``==> input <==`` header line, json collects them in an array, jsonl writes one line each,
markdown separates them with a rule, html puts each in its ``<article>`` of one page, xml
puts each ``<doc>`` in one ``<docs>`` root, csv writes one header line and a row each.
Each document shows its :class:`~feedsift.outputs.origin.Origin`: the input's name, and
for a page of a WARC file the record's id and date.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal, TextIO, get_args

from feedsift._version import __version__
from feedsift.outputs.csv_format import csv_header, csv_row, render_csv
from feedsift.outputs.origin import Origin
from feedsift.outputs.serialize import JsonValue, article_to_dict
from feedsift.outputs.xml_format import XML_DECLARATION, render_xml, xml_document
from feedsift.records import Article, BodyPart, Comment, Teaser

__all__ = [
    "DOCUMENT_FORMATS",
    "FILE_SUFFIXES",
    "OUTPUT_FORMATS",
    "DocumentStream",
    "OutputFormat",
    "html_body",
    "render",
]

OutputFormat = Literal["txt", "json", "jsonl", "markdown", "html", "xml", "csv"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = get_args(OutputFormat)
#: File name suffix of each format, for one-file-per-input output.
FILE_SUFFIXES: Mapping[OutputFormat, str] = {
    "txt": ".txt", "json": ".json", "jsonl": ".jsonl", "markdown": ".md", "html": ".html",
    "xml": ".xml", "csv": ".csv",
}  # fmt: skip
#: Formats meant to be read one document at a time (several inputs go to one file each);
#: json, jsonl and csv are records, several inputs collect naturally in one file.
DOCUMENT_FORMATS: frozenset[OutputFormat] = frozenset({"txt", "markdown", "html", "xml"})
#: Link schemes rendered as links; anything else (``javascript:``, ``data:``) stays text.
SAFE_LINK_SCHEMES = ("http://", "https://")
#: Markdown heading depth of body headings: ``#`` is the title, so body headings start at 2.
MIN_BODY_HEADING = 2
#: Readable defaults for the html output: a text column, nothing else.
HTML_STYLE = (
    "body{max-width:42rem;margin:2rem auto;padding:0 1rem;font:1.05rem/1.6 Georgia,serif}"
    ".byline,.source,.tags{color:#555;font-size:.9rem}pre{overflow-x:auto}"
)

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")
_MD_BLOCK_START = re.compile(r"^([#>+=~-]|\d+(?=[.)]))", re.MULTILINE)
_WHITESPACE = re.compile(r"\s+")


def render(
    article: Article,
    fmt: OutputFormat,
    *,
    input_name: str | None = None,
    origin: Origin | None = None,
) -> str:
    """``article`` as one standalone document in ``fmt`` (ends with a newline unless empty).

    ``origin`` says where it came from (``input_name`` alone is ``Origin(input_name)``).
    """
    return _RENDERERS[fmt](article, origin or Origin(input_name))


# --- txt ---------------------------------------------------------------------------------


def render_txt(article: Article, origin: Origin | None = None) -> str:
    """Title line, blank line, body text; then the posts of a listing and any comments."""
    blocks = [article.title] if article.title else []
    if article.body:
        blocks.append(article.text)
    blocks.extend(_txt_post(number, post) for number, post in enumerate(article.posts, 1))
    if article.comments:
        blocks.append(f"Comments ({len(article.comments)})")
        blocks.extend(_txt_comment(comment) for comment in article.comments)
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _txt_post(number: int, post: Teaser) -> str:
    lines = [f"{number}. {post.title}"]
    lines.extend(value for value in (post.url, _human_date(post.published)) if value)
    lines.extend(post.text.splitlines())
    return "\n   ".join(lines)


def _txt_comment(comment: Comment) -> str:
    return f"{comment.author or 'Anonymous'} wrote:\n{comment.text}"


# --- json / jsonl ------------------------------------------------------------------------


def _record(article: Article, origin: Origin | None) -> dict[str, JsonValue]:
    record = origin.fields() if origin is not None else {}
    record.update(article_to_dict(article))
    return record


def render_json(article: Article, origin: Origin | None = None) -> str:
    """One pretty-printed JSON object (with the origin's fields first when given)."""
    return json.dumps(_record(article, origin), ensure_ascii=False, indent=2) + "\n"


def render_jsonl(article: Article, origin: Origin | None = None) -> str:
    """One JSON object on one line (with the origin's fields first when given)."""
    return json.dumps(_record(article, origin), ensure_ascii=False) + "\n"


# --- markdown ----------------------------------------------------------------------------


def render_markdown(article: Article, origin: Origin | None = None) -> str:
    """``# title``, metadata lines, the body by part kind, posts and comments."""
    blocks = [f"# {_md_inline(article.title)}"] if article.title else []
    blocks.extend(_md_metadata(article))
    blocks.extend(_md_body(article.body))
    for post in article.posts:
        blocks.extend(_md_post(post))
    if article.comments:
        blocks.append("## Comments")
        blocks.extend(_md_comment(comment) for comment in article.comments)
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _md_metadata(article: Article) -> list[str]:
    byline = [f"By {', '.join(article.authors)}" if article.authors else ""]
    byline += [_human_date(article.published), article.site_name or ""]
    lines = [f"*{_md_inline(' · '.join(p for p in byline if p))}*"] if any(byline) else []
    source = article.canonical_url or article.url
    if source:
        lines.append(f"Source: {_md_autolink(source)}")
    if article.tags:
        lines.append(f"Tags: {_md_inline(', '.join(article.tags))}")
    return lines


def _md_body(body: tuple[BodyPart, ...]) -> Iterator[str]:
    for is_item, run in itertools.groupby(body, key=lambda part: part.kind == "item"):
        if is_item:
            yield "\n".join(f"- {_md_inline(part.text)}" for part in run)
        else:
            yield from (_md_part(part) for part in run)


def _md_part(part: BodyPart) -> str:
    if part.kind == "heading":
        return "#" * min(6, max(MIN_BODY_HEADING, part.level)) + " " + _md_inline(part.text)
    if part.kind == "quote":
        return "\n".join(f"> {line}".rstrip() for line in _md_escape(part.text).splitlines())
    if part.kind == "code":
        longest = max((len(run) for run in re.findall(r"`+", part.text)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"{fence}\n{part.text}\n{fence}"
    if part.kind == "caption":
        return f"*{_md_inline(part.text)}*"
    if part.kind == "table" and part.rows:
        return _md_table(part.rows)
    return _md_escape(part.text)


def _md_table(rows: tuple[tuple[str, ...], ...]) -> str:
    """A pipe table; Markdown needs a header, so the first row is one (as in trafilatura)."""
    width = max(len(row) for row in rows)
    cells = [[_md_inline(text) for text in row] + [""] * (width - len(row)) for row in rows]
    lines = [cells[0], ["---"] * width, *cells[1:]]
    return "\n".join("| " + " | ".join(line) + " |" for line in lines)


def _md_post(post: Teaser) -> list[str]:
    title = _md_inline(post.title)
    blocks = [f"## {_md_link(post.url, title) if post.url else title}"]
    if post.published:
        blocks.append(f"*{_human_date(post.published)}*")
    if post.text:
        blocks.append(_md_escape(post.text))
    return blocks


def _md_comment(comment: Comment) -> str:
    quoted = "\n".join(f"> {line}".rstrip() for line in _md_escape(comment.text).splitlines())
    return f"**{_md_inline(comment.author or 'Anonymous')}** wrote:\n\n{quoted}"


def _md_escape(text: str) -> str:
    """Escape inline markup and line-leading block markers; strip indentation (no code)."""
    lines = "\n".join(line.strip() for line in text.strip().splitlines())
    return _MD_BLOCK_START.sub(r"\\\1", _MD_SPECIAL.sub(r"\\\1", lines))


def _md_inline(text: str) -> str:
    """One line of escaped text (headings, list items, emphasis)."""
    return _md_escape(_WHITESPACE.sub(" ", text))


def _md_linkable(url: str) -> bool:
    return url.startswith(SAFE_LINK_SCHEMES) and not any(c in url for c in " <>\n")


def _md_link(url: str, label: str) -> str:
    """``label`` (already escaped) linked to ``url``; the label alone for unsafe URLs."""
    return f"[{label}](<{url}>)" if _md_linkable(url) else label


def _md_autolink(url: str) -> str:
    return f"<{url}>" if _md_linkable(url) else _md_inline(url)


# --- html --------------------------------------------------------------------------------


def render_html(article: Article, origin: Origin | None = None) -> str:
    """A minimal standalone HTML5 document; every text and attribute is escaped."""
    title = article.title or (origin.input if origin else None) or "Untitled page"
    head = _html_head(title, article.language, article.canonical_url or article.url)
    return head + _html_article(article, None) + _HTML_TAIL


_HTML_TAIL = "</body>\n</html>\n"


def _html_head(title: str, language: str | None, canonical: str | None) -> str:
    lang = f' lang="{_esc(language)}"' if language else ""
    link = (
        f'<link rel="canonical" href="{_esc(canonical)}">\n'
        if canonical and canonical.startswith(SAFE_LINK_SCHEMES)
        else ""
    )
    return (
        f'<!DOCTYPE html>\n<html{lang}>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="feedsift {__version__}">\n'
        f"<title>{_esc(title)}</title>\n{link}<style>{HTML_STYLE}</style>\n</head>\n<body>\n"
    )


def _html_article(article: Article, origin: Origin | None) -> str:
    attrs = "".join(
        f' data-{name.replace("_", "-")}="{_esc(str(value))}"'
        for name, value in (origin.fields() if origin else {}).items()
        if value is not None
    )
    if article.language:
        attrs += f' lang="{_esc(article.language)}"'
    parts = [f"<article{attrs}>", _html_header(article), *html_body(article.body)]
    if article.posts:
        parts.append('<section class="posts">')
        parts.extend(_html_post(post) for post in article.posts)
        parts.append("</section>")
    if article.comments:
        parts.append('<section class="comments">\n<h2>Comments</h2>')
        parts.extend(_html_comment(comment) for comment in article.comments)
        parts.append("</section>")
    parts.append("</article>\n")
    return "\n".join(part for part in parts if part)


def _html_header(article: Article) -> str:
    lines = [f"<h1>{_esc(article.title)}</h1>"] if article.title else []
    authors = ", ".join(f'<span class="author">{_esc(a)}</span>' for a in article.authors)
    site = f'<span class="site">{_esc(article.site_name)}</span>' if article.site_name else ""
    byline = [f"By {authors}" if authors else "", _html_time(article.published), site]
    if any(byline):
        lines.append(f'<p class="byline">{" · ".join(p for p in byline if p)}</p>')
    source = article.canonical_url or article.url
    if source:
        lines.append(f'<p class="source">{_html_link(source, source)}</p>')
    if article.tags:
        lines.append(f'<p class="tags">Tags: {_esc(", ".join(article.tags))}</p>')
    return "<header>\n" + "\n".join(lines) + "\n</header>" if lines else ""


def html_body(body: tuple[BodyPart, ...]) -> Iterator[str]:
    """The body's parts as escaped HTML elements (headings, lists, quotes, code, tables)."""
    for is_item, run in itertools.groupby(body, key=lambda part: part.kind == "item"):
        if is_item:
            items = "\n".join(f"<li>{_esc(part.text)}</li>" for part in run)
            yield f"<ul>\n{items}\n</ul>"
        else:
            yield from (_html_part(part) for part in run)


def _html_part(part: BodyPart) -> str:
    text = _esc(part.text)
    if part.kind == "heading":
        level = min(6, max(MIN_BODY_HEADING, part.level))
        return f"<h{level}>{text}</h{level}>"
    if part.kind == "quote":
        return f"<blockquote><p>{text}</p></blockquote>"
    if part.kind == "code":
        return f"<pre><code>{text}</code></pre>"
    if part.kind == "caption":
        return f'<p class="caption">{text}</p>'
    if part.kind == "table" and part.rows:
        return _html_table(part)
    return f"<p>{text}</p>"


def _html_table(part: BodyPart) -> str:
    lines = ["<table>"]
    for section, tag, rows in (
        ("thead", "th", part.rows[: part.head_rows]),
        ("tbody", "td", part.rows[part.head_rows :]),
    ):
        if rows:
            lines += [f"<{section}>", *(_html_row(row, tag) for row in rows), f"</{section}>"]
    lines.append("</table>")
    return "\n".join(lines)


def _html_row(cells: tuple[str, ...], tag: str) -> str:
    return "<tr>" + "".join(f"<{tag}>{_esc(text)}</{tag}>" for text in cells) + "</tr>"


def _html_post(post: Teaser) -> str:
    title = _html_link(post.url, post.title) if post.url else _esc(post.title)
    lines = ['<article class="post">', f"<h2>{title}</h2>"]
    if post.published:
        lines.append(f"<p>{_html_time(post.published)}</p>")
    if post.text:
        lines.append(f"<p>{_esc(post.text)}</p>")
    lines.append("</article>")
    return "\n".join(lines)


def _html_comment(comment: Comment) -> str:
    author = _esc(comment.author or "Anonymous")
    return (
        f'<article class="comment">\n<p class="author">{author}</p>\n'
        f"<p>{_esc(comment.text)}</p>\n</article>"
    )


def _html_time(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return f'<time datetime="{_esc(moment.isoformat())}">{_esc(_human_date(moment))}</time>'


def _html_link(url: str, text: str) -> str:
    if not url.startswith(SAFE_LINK_SCHEMES):
        return _esc(text)
    return f'<a href="{_esc(url)}">{_esc(text)}</a>'


def _esc(text: str | None) -> str:
    return html.escape(text or "", quote=True)


# --- shared ------------------------------------------------------------------------------


def _human_date(moment: datetime | None) -> str:
    """``2024-03-02`` at midnight, else ``2024-03-02 09:15+01:00``; empty for ``None``."""
    if moment is None:
        return ""
    if (moment.hour, moment.minute, moment.second) == (0, 0, 0):
        return moment.date().isoformat()
    return moment.isoformat(sep=" ", timespec="minutes")


_RENDERERS: Mapping[OutputFormat, Callable[[Article, Origin], str]] = {
    "txt": render_txt,
    "json": render_json,
    "jsonl": render_jsonl,
    "markdown": render_markdown,
    "html": render_html,
    "xml": render_xml,
    "csv": render_csv,
}


# --- several documents in one stream -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Frame:
    """How a format wraps several documents: text before all, between two, after all."""

    head: str
    item: Callable[[Article, Origin], str]
    separator: str
    tail: str
    empty_tail: str | None = None  #: the tail when no document was written, if different


def _txt_item(article: Article, origin: Origin) -> str:
    return f"==> {origin.heading(article.url)} <==\n{render_txt(article)}"


def _json_item(article: Article, origin: Origin) -> str:
    return textwrap.indent(render_json(article, origin).rstrip("\n"), "  ")


def _markdown_item(article: Article, origin: Origin) -> str:
    fields = [f"input: {origin.heading(article.url)}"]
    if origin.is_warc:
        fields.append(f"warc_record_id: {origin.warc_record_id}")
    safe = "; ".join(fields).replace("--", "- -")
    return f"<!-- {safe} -->\n\n{render_markdown(article)}"


_FRAMES: Mapping[OutputFormat, _Frame] = {
    "txt": _Frame("", _txt_item, "\n", ""),
    "json": _Frame("[\n", _json_item, ",\n", "\n]\n", empty_tail="]\n"),
    "jsonl": _Frame("", render_jsonl, "", ""),
    "markdown": _Frame("", _markdown_item, "\n---\n\n", ""),
    "html": _Frame(
        _html_head("feedsift: extracted pages", None, None), _html_article, "", _HTML_TAIL
    ),
    "xml": _Frame(XML_DECLARATION + "<docs>\n", xml_document, "", "</docs>\n"),
    "csv": _Frame(csv_header(), csv_row, "", ""),
}


def _csv_frame(warc: bool) -> _Frame:
    """csv with or without the WARC columns: the header is written before any row."""
    frame = _FRAMES["csv"]
    if not warc:
        return frame
    return replace(frame, head=csv_header(warc=True), item=_csv_warc_row)


def _csv_warc_row(article: Article, origin: Origin) -> str:
    return csv_row(article, origin, warc=True)


class DocumentStream:
    """Writes the articles of several inputs, in order, into one text stream.

    ``warc`` adds the WARC columns to csv (other formats show them per document). Call
    :meth:`close` once at the end (it writes the closing part of json and html).
    """

    def __init__(self, out: TextIO, fmt: OutputFormat, *, warc: bool = False) -> None:
        self._out = out
        self._frame = _csv_frame(warc) if fmt == "csv" else _FRAMES[fmt]
        self._count = 0
        out.write(self._frame.head)

    def write(self, article: Article, origin: Origin | str) -> None:
        """Append the document of one input (``origin``: where it came from, or its name)."""
        if isinstance(origin, str):
            origin = Origin(origin)
        text = self._frame.item(article, origin)
        # one write: a run stopped between separator and document would leave bad json
        self._out.write(self._frame.separator + text if self._count else text)
        self._count += 1

    def close(self) -> None:
        """Finish the stream; an empty json stream is ``[]``."""
        empty = self._frame.empty_tail
        self._out.write(empty if empty is not None and not self._count else self._frame.tail)
        self._out.flush()

"""Small HTML-writing helpers shared by the site templates (escaping, inline markup, dates)."""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import datetime

__all__ = [
    "attrs",
    "body_html",
    "document",
    "esc",
    "rich_paragraph",
    "short_date",
    "tag_list",
    "us_date",
]


def esc(text: str) -> str:
    """Text escaped for HTML content and attribute values."""
    return html.escape(text, quote=True)


def attrs(**values: str) -> str:
    """``key="value"`` pairs (``class_`` stands for ``class``; underscores become dashes)."""
    return " ".join(f'{k.rstrip("_").replace("_", "-")}="{esc(v)}"' for k, v in values.items())


def _plain(word: str) -> bool:
    return word.isalpha() and len(word) > 3


def rich_paragraph(text: str, index: int, link: str | None = None) -> str:
    """One ``<p>`` whose text is exactly ``text``, with the inline markup real posts have.

    Every other paragraph emphasises a word; with ``link`` one two-word phrase links out.
    The visible text never changes, only the tags around some words.
    """
    words = [esc(word) for word in text.split(" ")]
    middle = len(words) // 2
    if index % 2 == 0 and _plain(words[middle]):
        words[middle] = f"<em>{words[middle]}</em>"
    quarter = len(words) // 4
    if link and quarter + 1 < middle and _plain(words[quarter]) and _plain(words[quarter + 1]):
        words[quarter] = f'<a href="{esc(link)}">{words[quarter]}'
        words[quarter + 1] = f"{words[quarter + 1]}</a>"
    return f"<p>{' '.join(words)}</p>"


def body_html(blocks: Iterable[tuple[str, str]], links: dict[int, str] | None = None) -> str:
    """Body blocks (``("p" | "h2", text)``) as HTML; ``links`` maps block index to a link."""
    parts = []
    for index, (tag, text) in enumerate(blocks):
        if tag == "p":
            parts.append(rich_paragraph(text, index, (links or {}).get(index)))
        else:
            parts.append(f"<{tag}>{esc(text)}</{tag}>")
    return "\n".join(parts)


def tag_list(items: Iterable[tuple[str, str]], class_: str) -> str:
    """``<ul>`` of links from ``(href, text)`` pairs."""
    rows = "".join(f'<li><a href="{esc(href)}">{esc(text)}</a></li>' for href, text in items)
    return f'<ul class="{class_}">{rows}</ul>'


def document(
    lang: str, head: str, body_class: str, body: str, *, meta_charset: bool = True
) -> bytes:
    """A whole HTML5 document, UTF-8 encoded (``meta_charset=False``: no ``<meta charset>``)."""
    meta = '<meta charset="UTF-8">\n' if meta_charset else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{meta}'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'{head}\n</head>\n<body class="{body_class}">\n{body}\n</body>\n</html>\n'
    ).encode()


def us_date(moment: datetime) -> str:
    """Dates as WordPress shows them by default: "October 3, 2026"."""
    return f"{moment:%B} {moment.day}, {moment.year}"


def short_date(moment: datetime) -> str:
    """Dates as Ghost and many news sites show them: "3 Oct 2026"."""
    return f"{moment.day} {moment:%b %Y}"

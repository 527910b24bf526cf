"""One parsed page: the record every extractor receives.

``parse_page`` runs the parsing stage once: decode, cut a huge page to its limits
(:mod:`feedsift.parsing.limits`), parse, keep the JSON-LD scripts (the
cleaner drops scripts), clean, cut into text blocks. Extractors and metadata readers all
read this record, so no page is parsed twice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from feedsift.errors import InputError
from feedsift.parsing.blocks import BlockView, text_blocks
from feedsift.parsing.charset import DecodedHtml, decode_html
from feedsift.parsing.dom import clean_dom, parse_html
from feedsift.parsing.invisible import without_invisible
from feedsift.parsing.limits import PageLimits, cut_text

__all__ = ["ParsedPage", "parse_page"]

#: The ``type`` of a JSON-LD script, lower-cased.
JSON_LD_TYPE = "ld+json"


@dataclass(frozen=True, slots=True, weakref_slot=True)  # caches may refer to a page weakly
class ParsedPage:
    """A page after the parsing stage.

    ``root`` is the cleaned document (``<head>`` kept for metadata), ``body`` its cleaned
    body and ``view`` the text blocks of the body. ``truncated`` says why a page over its
    :class:`~feedsift.parsing.limits.PageLimits` was cut (``decoded.text`` is then the part
    kept), ``None`` for a whole page.
    """

    url: str | None
    decoded: DecodedHtml
    root: etree._Element
    body: etree._Element
    view: BlockView
    json_ld: tuple[str, ...]
    truncated: str | None = None


def parse_page(
    html: str | bytes,
    url: str | None = None,
    content_type: str | None = None,
    limits: PageLimits | None = None,
) -> ParsedPage:
    """Decode (when bytes), parse and cut a page into text blocks.

    A page over ``limits`` (default :class:`~feedsift.parsing.limits.PageLimits`) is cut
    first and :attr:`ParsedPage.truncated` says so.

    Raises :class:`~feedsift.errors.InputError` for empty, binary or unparsable input.
    """
    if isinstance(html, bytes):
        decoded = decode_html(html, content_type)
    else:
        if not html.strip():
            raise InputError("empty document")
        decoded = DecodedHtml(html, "unicode", "utf-8")
    limits = limits or PageLimits()
    text, truncated = cut_text(decoded.text, limits)
    if truncated is not None:  # the whole text is not kept alive beside the tree
        decoded = replace(decoded, text=text)
    root = parse_html(without_invisible(text), limits.max_chars)
    scripts = _json_ld_scripts(root)
    body = clean_dom(root)
    return ParsedPage(url, decoded, root, body, text_blocks(body), scripts, truncated)


def _json_ld_scripts(root: etree._Element) -> tuple[str, ...]:
    """The texts of the JSON-LD scripts, in document order (``iter`` with a tag is a C-level
    walk: a third cheaper than the XPath that does the same, measured)."""
    return tuple(
        script.text
        for script in root.iter("script")
        if script.text and JSON_LD_TYPE in (script.get("type") or "").lower()
    )

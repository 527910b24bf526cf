"""Text to an lxml DOM, and the cleaning every extractor relies on.

``parse_html`` keeps the whole document (metadata readers need ``<head>`` and JSON-LD
scripts); ``clean_dom`` then drops what is never visible text: scripts, styles,
templates, form controls, embedded objects and elements hidden by ``hidden``,
``type=hidden`` or an inline ``display:none`` / ``visibility:hidden``, except the hidden
markup that holds what a reader sees once a script or a click runs
(:mod:`feedsift.parsing.revealed`). ``<head>`` stays: the metadata lives there.
"""

from __future__ import annotations

from lxml import etree

from feedsift.errors import InputError
from feedsift.parsing.nesting import flatten_nesting
from feedsift.parsing.revealed import Reveals, text_chars, unwrap_swallowing_buttons
from feedsift.parsing.xpath import select_elements

__all__ = [
    "DROPPED_TAGS",
    "HIDDEN_XPATH",
    "MAX_HTML_CHARS",
    "NOSCRIPT_CONTENT_CHARS",
    "NOSCRIPT_CONTENT_SHARE",
    "clean_dom",
    "parse_html",
]

#: Elements whose content is never part of an article's visible text.
DROPPED_TAGS = (
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object",
    "embed", "applet", "select", "option", "optgroup", "datalist", "textarea", "button",
    "input", "audio", "video", "source", "track", "map", "area", "dialog",
)  # fmt: skip

#: Elements that may be hidden by markup; their ``style`` is checked in Python (cheaper
#: than string functions in the XPath, measured). Reached through the attribute axis: on
#: the test pages that is 0.35 ms a page against 0.57 ms for ``//*[@hidden or ...]``,
#: which tests every element of the page; the union keeps document order.
HIDDEN_XPATH = etree.XPath("//@style/.. | //@hidden/.. | //@type[. = 'hidden']/..")
#: Inline styles that hide an element (compared without spaces, lower-cased).
HIDDEN_STYLES = ("display:none", "visibility:hidden")

#: ``<noscript>`` content is the page's content served to readers without JavaScript
#: (Discourse forums, some single-page apps) when it holds at least this much text ...
NOSCRIPT_CONTENT_CHARS = 500
#: ... and at least this share of the body's text: a page whose visible text lives
#: elsewhere keeps its noscript fallbacks out (Blogger's archive widget, "enable JavaScript").
NOSCRIPT_CONTENT_SHARE = 0.5
#: Elements whose text is code, never shown: left out of the body's text share above.
SCRIPT_TAGS = ("script", "style", "template")

#: Text of a permalink anchor that documentation generators (Sphinx, MkDocs, Docusaurus)
#: and Markdown renderers put beside each heading: a link to the heading itself, which
#: shows as a sign on hover and is no word of the page ("Tasks¶").
PERMALINK_SIGNS = frozenset({"¶", "#", "§", "🔗", "⚓", "⚓︎", "#️⃣"})
#: In-page links, the only ones that can be a heading's permalink.
FRAGMENT_LINKS_XPATH = etree.XPath("//a[starts-with(@href, '#')]")

#: Pages longer than this are cut (an 8 MB HTML page is an error page or a data dump; the
#: largest page of the benchmarks has 3.4 million characters; 8 million characters of
#: prose cost about 380 MB to extract).
MAX_HTML_CHARS = 8_000_000

#: What libxml2 says when it stops at its depth limit (``nesting.PARSER_DEPTH``).
_DEPTH_ERROR = "Excessive depth in document"

_PARSER = etree.HTMLParser(
    encoding="utf-8",
    remove_comments=True,
    remove_pis=True,
    no_network=True,
    recover=True,
    huge_tree=True,
    collect_ids=False,  # no id() lookups here; the ID table costs 5% of parsing
)


def parse_html(text: str, max_chars: int = MAX_HTML_CHARS) -> etree._Element:
    """Parse page text (its first ``max_chars`` characters) into an lxml tree (the
    ``<html>`` root element).

    A page nested deeper than the parser reads is parsed again flattened
    (:mod:`feedsift.parsing.nesting`), so its deep text and the rest of it are kept.
    Raises :class:`InputError` when nothing parsable remains.
    """
    text = text[:max_chars]
    root = _parse(text)
    if _stopped_too_deep():
        root = _parse(flatten_nesting(text))
    return root


def _parse(text: str) -> etree._Element:
    try:
        root = etree.fromstring(text.encode("utf-8", errors="replace"), _PARSER)
    except (etree.ParserError, ValueError) as exc:
        raise InputError(f"unparsable HTML: {exc}") from exc
    if root is None:
        raise InputError("unparsable HTML: no elements")
    return root


def _stopped_too_deep() -> bool:
    """Whether the last parse stopped at the parser's depth limit (the rest unread)."""
    return any(_DEPTH_ERROR in error.message for error in _PARSER.error_log)


def clean_dom(root: etree._Element) -> etree._Element:
    """Drop invisible parts in place and return the ``<body>`` (an empty one is added to a
    document that has none, such as a redirect stub with a ``<head>`` only)."""
    _unwrap_content_noscripts(root)
    unwrap_swallowing_buttons(root)
    reveals = Reveals(root)  # read before the buttons that name the panels are dropped
    etree.strip_elements(root, *DROPPED_TAGS, etree.Comment, etree.PI, with_tail=False)
    for element in select_elements(HIDDEN_XPATH, root):
        parent = element.getparent()
        if parent is not None and _hidden(element) and not reveals.keeps(element):
            _remove_keep_tail(element, parent)
    _drop_permalink_signs(root)
    body = root.find("body")
    if body is None:  # a page with a head only (a redirect stub): nothing visible
        body = etree.SubElement(root, "body")
    return body


def _drop_permalink_signs(root: etree._Element) -> None:
    """Remove headings' permalink anchors (``<a class="headerlink" href="#x">¶</a>``)."""
    for anchor in select_elements(FRAGMENT_LINKS_XPATH, root):
        parent = anchor.getparent()
        if parent is not None and "".join(map(str, anchor.itertext())).strip() in PERMALINK_SIGNS:
            _remove_keep_tail(anchor, parent)


def _unwrap_content_noscripts(root: etree._Element) -> None:
    """Turn ``<noscript>`` elements into ``<div>`` where they hold the page's content."""
    body = root.find("body")
    if body is None:
        return
    sizes = {element: text_chars(element) for element in body.iter("noscript")}
    inside = sum(sizes.values())
    if inside < NOSCRIPT_CONTENT_CHARS or inside < NOSCRIPT_CONTENT_SHARE * _shown_chars(body):
        return
    for element, size in sizes.items():
        if size >= NOSCRIPT_CONTENT_CHARS:
            element.tag = "div"


def _shown_chars(body: etree._Element) -> int:
    """Characters of the body's text outside scripts and styles (a Discourse page's
    preloaded JSON would otherwise outweigh the posts in its ``<noscript>``)."""
    code = sum(text_chars(element) for element in body.iter(*SCRIPT_TAGS))
    return text_chars(body) - code


def _hidden(element: etree._Element) -> bool:
    if element.get("hidden") is not None or element.get("type") == "hidden":
        return True
    style = "".join((element.get("style") or "").split()).lower()
    return any(marker in style for marker in HIDDEN_STYLES)


def _remove_keep_tail(element: etree._Element, parent: etree._Element) -> None:
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)

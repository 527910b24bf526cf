"""The inspected page itself, marked: each text block's element coloured by its decision
(kept, the title, removed), with the decision and reason as its tooltip, for the
inspector to show in a sandboxed frame beside the extracted text.

The markup is the parsed page's *cleaned* body (scripts, styles, frames, objects and forms'
controls are gone at parsing), copied, then stripped to inert markup: every attribute goes
but for a few harmless ones, images become their alt text, and the few elements that
could still act (links to stylesheets, ``<base>``, ``<meta>`` refreshes, forms) are
unwrapped or dropped. The frame that shows it is ``sandbox``-ed (no script, no form, no
navigation of the top page) and inherits the pages' Content-Security-Policy, which loads
nothing: three locks where one would do.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from lxml import etree

from feedsift.extractors.explain import BlockExplanation, PageExplanation
from feedsift.parsing.page import ParsedPage

__all__ = ["KEPT_ATTRIBUTES", "MARKS", "marked_page"]

#: Attributes kept on the copy: table shape and language only; everything else could act
#: (on* handlers, href, src, style, formaction...) or is noise for a reader.
KEPT_ATTRIBUTES = frozenset({"colspan", "rowspan", "lang", "dir"})
#: Elements dropped with their content from the copy: they show no text and could act.
DROPPED = ("link", "meta", "base", "head", "frame", "frameset", "img", "picture")
#: Elements unwrapped (their text kept): interactive or embedding containers; a ``<form>``
#: too, since some platforms (ASP.NET) wrap the whole page in one.
UNWRAPPED = ("a", "label", "fieldset", "details", "summary", "form")
#: The attribute that carries a block element's decision, read by :data:`MARKS`.
DECISION = "data-fs"
#: Which decision an element shows when its blocks disagree: the one a reader looks for.
PRECEDENCE = {"kept": 0, "title": 1, "removed": 2}
#: The frame's own stylesheet: one look per decision.
MARKS = """
body { font-family: system-ui, sans-serif; margin: .5rem; color: #222; line-height: 1.35; }
[data-fs=kept] { background: #e6f6e6; outline: 1px solid #8c8; }
[data-fs=title] { background: #e6eefb; outline: 2px solid #69c; }
[data-fs=removed] { color: #999; text-decoration: line-through; }
"""


def marked_page(parsed: ParsedPage, explanation: PageExplanation) -> str:
    """The page's body as an inert HTML document, each block's element marked."""
    body = copy.deepcopy(parsed.body)
    decisions = _decisions(explanation.blocks)
    for path, (decision, tooltip) in decisions.items():
        found = body.getroottree().xpath(_relative(path, parsed.body))
        for element in found if isinstance(found, list) else ():
            if isinstance(element, etree._Element):
                element.set(DECISION, decision)
                element.set("title", tooltip)
    _inert(body)
    markup = etree.tostring(body, method="html", encoding="unicode")
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{MARKS}</style>'
            f"</head>{markup}</html>")  # fmt: skip


def _decisions(blocks: tuple[BlockExplanation, ...]) -> Mapping[str, tuple[str, str]]:
    """Per owner element's path: the decision it shows and its tooltip (its blocks' lines)."""
    shown: dict[str, tuple[str, list[str]]] = {}
    for block in blocks:
        decision = block.decision.lower()
        line = f"#{block.index} {block.stage}: {block.reason}"
        previous, lines = shown.get(block.path, (decision, []))
        if PRECEDENCE[decision] < PRECEDENCE[previous]:
            previous = decision
        shown[block.path] = (previous, [*lines, line])
    return {path: (decision, "\n".join(lines)) for path, (decision, lines) in shown.items()}


def _relative(path: str, body: etree._Element) -> str:
    """A block's absolute path as a path in the copy of the body (the copy is its own
    tree, rooted at the body)."""
    body_path = str(body.getroottree().getpath(body))
    rest = path[len(body_path):] if path.startswith(body_path) else None
    return "/*" + rest if rest is not None else "/.."  # outside the body: matches nothing


def _inert(body: etree._Element) -> None:
    """Strip the copy to markup that can neither act nor load anything."""
    for image in body.iter("img"):
        alt = (image.get("alt") or "").strip()
        if alt:
            image.tail = f"[{alt}]" + (image.tail or "")
    etree.strip_elements(body, *DROPPED, with_tail=False)
    etree.strip_tags(body, *UNWRAPPED)
    for element in body.iter():
        if not isinstance(element.tag, str):
            continue
        for name in list(element.attrib):
            if name not in KEPT_ATTRIBUTES and name not in (DECISION, "title"):
                del element.attrib[name]

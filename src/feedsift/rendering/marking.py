"""The HTML a renderer loads: the page with each block's owner element marked.

Every owner element gets ``data-fs-b="i j k"``, the indices of the blocks it owns (text
cut by ``<br>`` or a nested block gives an owner several). The caller's tree is never
changed: the marks go on a copy.

A :class:`~feedsift.parsing.blocks.BlockView` lives in the *cleaned* tree, which has lost
its ``<style>`` and ``<script>`` elements; rendered as it is, a page would lose its
stylesheets. So when the page's source text is at hand (``ParsedPage.decoded.text``),
:func:`marked_source` parses it again, numbers every element, cleans a copy and cuts it
into blocks exactly as :func:`~feedsift.parsing.page.parse_page` did, and marks the
owners in the whole, uncleaned document. :func:`marked_tree` marks the view's own tree
for a view without a source (inline styles and ``<link>`` stylesheets still apply).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy

from lxml import etree

from feedsift.errors import RenderError
from feedsift.parsing.blocks import BlockView, text_blocks
from feedsift.parsing.dom import clean_dom, parse_html

__all__ = ["MARK_ATTR", "marked_source", "marked_tree"]

#: Attribute naming the blocks an element owns (read by the page-side script).
MARK_ATTR = "data-fs-b"
#: Attribute numbering the elements of the source while it is matched to the view.
_NUMBER_ATTR = "data-fs-n"


def marked_source(view: BlockView, source: str) -> str:
    """The whole document parsed from ``source`` with the view's owners marked.

    Raises :class:`RenderError` when ``source`` does not give the view's blocks (it is
    not the text the view was parsed from).
    """
    root = parse_html(source, max(1, len(source)))
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    for number, element in enumerate(elements):
        element.set(_NUMBER_ATTR, str(number))
    shadow = text_blocks(clean_dom(deepcopy(root)))
    if [b.text for b in shadow.blocks] != [b.text for b in view.blocks]:
        raise RenderError(
            f"the source gives {len(shadow.blocks)} blocks, not the view's {len(view.blocks)}"
        )
    owners = [elements[int(b.element.get(_NUMBER_ATTR, "-1"))] for b in shadow.blocks]
    for element in elements:
        del element.attrib[_NUMBER_ATTR]
    _mark(owners)
    return _serialise(root, root)


def marked_tree(view: BlockView) -> str:
    """A copy of the view's own tree with the owners marked (no source needed)."""
    if not view.blocks:
        return "<!DOCTYPE html><html><body></body></html>"
    root = view.blocks[0].element.getroottree().getroot()
    position = {element: i for i, element in enumerate(root.iter())}
    copy = deepcopy(root)
    copied = list(copy.iter())
    _mark([copied[position[b.element]] for b in view.blocks])
    return _serialise(copy, root)


def _mark(owners: Sequence[etree._Element]) -> None:
    """Write each owner's block indices (blocks come in order, so indices ascend)."""
    for index, owner in enumerate(owners):
        known = owner.get(MARK_ATTR)
        owner.set(MARK_ATTR, f"{known} {index}" if known else str(index))


def _serialise(root: etree._Element, original: etree._Element) -> str:
    """HTML text of ``root`` with the original document's doctype, if it had one (the
    doctype decides between standards and quirks mode, which changes sizes)."""
    doctype = original.getroottree().docinfo.doctype  # type: ignore[attr-defined]
    if doctype:
        return str(etree.tostring(root, method="html", encoding="unicode", doctype=doctype))
    return str(etree.tostring(root, method="html", encoding="unicode"))

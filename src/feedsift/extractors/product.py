"""Product pages: the specification table belongs to the product's text, the customers'
reviews do not.

A shop prints a product's specifications as a key-value table (``<th>Weight</th><td>1.2
kg</td>``) or a definition list next to its description. The block classifier, trained on
few product pages, keeps the prose and drops the short cells. On a page the kind classifier
calls a product page, key-value tables and definition lists inside the region that holds
the kept description (the body subtree's parent) are kept, with the heading that
introduces them. Tables of other products ("Customers also bought") are cards, not
key-value rows, and lie outside that region.

Customers' reviews are a product's comments: readers' words, not the shop's. On a product
page, the blocks inside an element whose class or id names reviews ("reviews",
"product-review", ``ReviewList``) leave the text, unless that element holds the
description itself (the body subtree).
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from feedsift.extractors.boxes import REVIEW_WORDS, named_box_blocks
from feedsift.parsing.blocks import BlockView

__all__ = ["MAX_CELL_WORDS", "MIN_ROWS", "review_blocks", "specification_blocks"]

#: A key-value table has at least this many rows ...
MIN_ROWS = 2
#: ... and no cell longer than this (a table of prose is a layout table).
MAX_CELL_WORDS = 30
#: Cells of a key-value row and of a definition list.
KEY_VALUE_TAGS = frozenset({"th", "td", "dt", "dd"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _key_value(container: etree._Element) -> bool:
    """Whether a ``table`` or ``dl`` holds key-value rows."""
    if container.tag == "dl":
        return len(container.findall("dt")) >= MIN_ROWS
    rows = [r for r in container.iter("tr") if len(r) == 2]
    return len(rows) >= MIN_ROWS


def _container(element: etree._Element) -> etree._Element | None:
    for above in (element, *element.iterancestors()):
        if above.tag in ("table", "dl"):
            return above
    return None


def specification_blocks(view: BlockView, body_subtree: int) -> np.ndarray:
    """The blocks of key-value tables inside the body subtree's parent, and the headings
    right before them."""
    mask = np.zeros(len(view.blocks), dtype=bool)
    if body_subtree < 0:
        return mask
    parent = view.subtrees[body_subtree].parent
    region = view.subtrees[parent if parent >= 0 else body_subtree]
    checked: dict[etree._Element, bool] = {}
    for i in range(region.first_block, region.last_block + 1):
        block = view.blocks[i]
        if block.tag not in KEY_VALUE_TAGS or block.n_words > MAX_CELL_WORDS:
            continue
        container = _container(block.element)
        if container is None:
            continue
        if container not in checked:
            checked[container] = _key_value(container)
        if checked[container]:
            mask[i] = True
            if i > 0 and not mask[i - 1] and view.blocks[i - 1].tag in _HEADINGS:
                mask[i - 1] = True
    return mask


def review_blocks(view: BlockView, body_subtree: int) -> np.ndarray:
    """The blocks inside boxes of customers' reviews, but for a box that holds the body
    subtree (a review site's review is its article)."""
    return named_box_blocks(view, body_subtree, REVIEW_WORDS)

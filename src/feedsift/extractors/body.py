"""Body assembly: selected text blocks back into paragraphs, headings, items and quotes."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from feedsift.parsing.blocks import TextBlock
from feedsift.records import BodyPart, PartKind

__all__ = ["assemble_body", "part_kind"]

#: Owner tags and the body part they make.
TAG_KINDS: dict[str, PartKind] = {
    "li": "item", "dd": "item", "dt": "item",
    "pre": "code", "code": "code",
    "td": "cell", "th": "cell",
    "figcaption": "caption", "caption": "caption",
    "blockquote": "quote",
}  # fmt: skip
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: Ancestors that make any paragraph inside them a quotation.
QUOTE_ANCESTORS = frozenset({"blockquote", "q"})
#: How far up the tree a quotation ancestor is looked for.
QUOTE_SEARCH_DEPTH = 4


def _in_quote(block: TextBlock) -> bool:
    element: etree._Element | None = block.element
    for _ in range(QUOTE_SEARCH_DEPTH):
        if element is None:
            return False
        if element.tag in QUOTE_ANCESTORS:
            return True
        element = element.getparent()
    return False


def part_kind(block: TextBlock) -> tuple[PartKind, int]:
    """The kind of body part a block makes, and its heading level."""
    level = _HEADINGS.get(block.tag)
    if level:
        return "heading", level
    kind = TAG_KINDS.get(block.tag)
    if kind:
        return kind, 0
    return ("quote", 0) if _in_quote(block) else ("paragraph", 0)


def assemble_body(blocks: Sequence[TextBlock]) -> tuple[BodyPart, ...]:
    """Turn selected blocks (in document order) into body parts.

    A block cut from the previous one by a ``<br>`` in the same element continues the
    same part on a new line, so addresses and verses keep their shape.
    """
    parts: list[BodyPart] = []
    previous: TextBlock | None = None
    for block in blocks:
        kind, level = part_kind(block)
        joins = (
            previous is not None
            and block.boundary == "line"
            and block.element is previous.element
            and parts
            and parts[-1].kind == kind
        )
        if joins:
            parts[-1] = BodyPart(kind, f"{parts[-1].text}\n{block.text}", level)
        else:
            parts.append(BodyPart(kind, block.text, level))
        previous = block
    return tuple(parts)

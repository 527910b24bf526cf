"""Text blocks: the one view of a page that every extractor reads.

A text block is a chunk of text delimited by at least one opening or closing HTML tag;
inline tags (``a``, ``em``, ``strong``, ``span``, ``font`` ...) do not delimit blocks
(URL Tree paper, section 2). ``<br>`` does delimit one, but the block remembers that it was
cut by a line break rather than by a block element, so paragraphs can be rebuilt.

Besides the blocks, the walk records every element that holds at least one block as a
:class:`Subtree`: its word, link-word and punctuation totals and the range of blocks it
spans. The template-independent paper's title and body *subtree candidates* are these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lxml import etree

from feedsift.text.tokens import normalize_space, tokenize

__all__ = [
    "INLINE_TAGS",
    "BlockView",
    "Subtree",
    "TextBlock",
    "text_blocks",
]

#: Tags that do not split text into blocks (phrasing content of HTML5 plus legacy ones).
INLINE_TAGS = frozenset(
    "a abbr acronym b bdi bdo big cite code data del dfn em font i img ins kbd label mark "
    "nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr".split()
)
#: Tags that split blocks but only as a line break inside a paragraph.
LINE_BREAK_TAGS = frozenset({"br"})

#: Sentence punctuation, the paper's "MarksNum" (Latin and CJK marks).
_PUNCT_RE = re.compile(r"[.,;:!?\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u2026]")

Boundary = Literal["block", "line"]


@dataclass(frozen=True, slots=True)
class TextBlock:
    """One text block with the counts every extractor needs."""

    index: int
    text: str
    element: etree._Element  #: nearest non-inline ancestor (the block's owner)
    tag: str  #: the owner's tag
    subtree: int  #: index of the owner in :attr:`BlockView.subtrees`
    n_words: int
    n_punct: int
    link_share: float  #: share of the block's characters inside ``<a>`` (markup spaces aside)
    boundary: Boundary  #: what ended the previous block: a block tag or a ``<br>``
    tokens: tuple[str, ...]  #: the word tokens of ``text`` (see :mod:`feedsift.text.tokens`)

    def dom_path(self) -> str:
        """The owner's absolute XPath in its tree (``/html/body/div[2]/p[3]``)."""
        return str(self.element.getroottree().getpath(self.element))


@dataclass(frozen=True, slots=True)
class Subtree:
    """An element that holds text blocks, with totals over its whole subtree."""

    index: int
    element: etree._Element
    tag: str
    parent: int  #: index of the parent subtree, -1 for the walk's root
    depth: int
    first_block: int
    last_block: int  #: inclusive
    n_words: int
    n_link_words: float
    n_punct: int


@dataclass(frozen=True, slots=True)
class BlockView:
    """The blocks of a page in document order and the subtrees that hold them."""

    blocks: tuple[TextBlock, ...]
    subtrees: tuple[Subtree, ...]

    @property
    def n_words(self) -> int:
        return sum(b.n_words for b in self.blocks)


class _Open:
    """Accumulator of an element whose end tag has not been reached yet."""

    __slots__ = ("depth", "element", "first", "index", "link", "parent", "punct", "tag", "words")

    def __init__(self, element: etree._Element, tag: str, parent: int, depth: int) -> None:
        self.element, self.tag, self.parent, self.depth = element, tag, parent, depth
        self.index = -1
        self.first = -1
        self.words = 0
        self.link = 0.0
        self.punct = 0


class _Walker:
    """One pass over the DOM collecting blocks and subtree totals.

    Totals are added to the owner only and handed up to the parent when an element ends,
    so the cost per block does not grow with the depth of the tree.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.has_text = False
        self.link_chars = 0
        self.link_depth = 0
        self.boundary: Boundary = "block"
        self.stack: list[_Open] = []
        self.blocks: list[TextBlock] = []
        self.done: list[_Open] = []
        self.last: list[int] = []

    def add_text(self, text: str | None) -> None:
        if text:
            self.parts.append(text)
            if not self.has_text and not text.isspace():
                self.has_text = True
            if self.link_depth:
                self.link_chars += len(text.strip())

    def flush(self, boundary: Boundary) -> None:
        if self.has_text:
            self._emit(normalize_space("".join(self.parts)))
            self.boundary = boundary
            self.has_text = False
        elif boundary == "block":
            self.boundary = "block"
        if self.parts:
            self.parts = []
            self.link_chars = 0

    def _emit(self, text: str) -> None:
        tokens = tuple(tokenize(text))
        words = len(tokens)
        if not words:
            return
        owner = self.stack[-1]
        self._register(owner)
        share = 0.0
        if self.link_chars:
            share = min(1.0, self.link_chars / sum(len(p.strip()) for p in self.parts))
        punct = len(_PUNCT_RE.findall(text))
        index = len(self.blocks)
        self.blocks.append(
            TextBlock(index, text, owner.element, owner.tag, owner.index, words, punct, share,
                      self.boundary, tokens)
        )
        if owner.first < 0:
            owner.first = index
        owner.words += words
        owner.link += words * share
        owner.punct += punct

    def _register(self, node: _Open) -> None:
        """Give ``node`` and its open ancestors subtree indices, outermost first."""
        if node.index >= 0:
            return
        parent = -1
        for ancestor in self.stack:
            if ancestor.index < 0:
                ancestor.index = len(self.done)
                ancestor.parent = parent
                self.done.append(ancestor)
                self.last.append(-1)
            parent = ancestor.index

    def start(self, element: etree._Element, tag: str) -> None:
        """A block-level (or line-break) element starts."""
        if tag in LINE_BREAK_TAGS:
            self.flush("line")
        else:
            self.flush("block")
            depth = self.stack[-1].depth + 1 if self.stack else 0
            self.stack.append(_Open(element, tag, -1, depth))
            self.add_text(element.text)

    def end(self, element: etree._Element, tag: str) -> None:
        """A block-level (or line-break) element ends."""
        if tag not in LINE_BREAK_TAGS:
            self.flush("block")
            self._close(self.stack.pop())
        if self.stack:
            self.add_text(element.tail)

    def _close(self, node: _Open) -> None:
        if node.index < 0:
            return
        self.last[node.index] = len(self.blocks) - 1
        if self.stack:
            parent = self.stack[-1]
            if parent.first < 0 or node.first < parent.first:
                parent.first = node.first
            parent.words += node.words
            parent.link += node.link
            parent.punct += node.punct

    def view(self) -> BlockView:
        self.flush("block")
        while self.stack:
            self._close(self.stack.pop())
        subtrees = tuple(
            Subtree(n.index, n.element, n.tag, n.parent, n.depth, n.first, self.last[n.index],
                    n.words, n.link, n.punct)
            for n in self.done
        )
        return BlockView(tuple(self.blocks), subtrees)


def text_blocks(body: etree._Element) -> BlockView:
    """Split a cleaned DOM (usually ``<body>``) into text blocks and subtrees.

    Inline elements are by far the most frequent events, so they are handled here without
    a method call; block-level elements go through the walker.
    """
    walker = _Walker()
    add_text, start, end = walker.add_text, walker.start, walker.end
    for event, element in etree.iterwalk(body, events=("start", "end")):
        tag = element.tag
        if tag not in INLINE_TAGS:
            if isinstance(tag, str):
                (start if event == "start" else end)(element, tag)
        elif event == "start":
            if tag == "a":
                walker.link_depth += 1
            text = element.text
            if text:
                add_text(text)
        else:
            if tag == "a":
                walker.link_depth -= 1
            text = element.tail
            if text:
                add_text(text)
    return walker.view()

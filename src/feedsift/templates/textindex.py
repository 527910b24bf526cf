"""A page's text as one token sequence, each element covering a span of it.

Feed values are found in a page by their words, not their characters: a feed strips the
markup, re-encodes entities and re-flows whitespace, but keeps the words in order. The
page's ``<body>`` is walked once in document order; every element records the span
``[start, end)`` of the tokens of its text content. A value is *in* an element when its
tokens occur, contiguous, inside the element's span, so the deepest such element is the
smallest one that holds the value, found without computing any element's text.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from lxml import etree

from feedsift.text.tokens import tokenize_lower

__all__ = ["SEPARATOR", "PageText", "value_tokens"]

#: A column of integers.
Ints = npt.NDArray[np.int64]
#: Joins tokens into one searchable string; no token contains it (tokens are \w runs).
SEPARATOR = "\x1f"


def value_tokens(text: str) -> tuple[str, ...]:
    """The tokens a value is matched by (lower-cased words, one per CJK character)."""
    return tuple(tokenize_lower(text))


def _add_tokens(tokens: list[str], text: str | None) -> None:
    """``tokens`` extended with the value tokens of a text or tail (markup indentation,
    whitespace only, has none: half the texts of a page)."""
    if text and not text.isspace():
        tokens.extend(tokenize_lower(text))


@dataclass(frozen=True, slots=True)
class Span:
    """The tokens of one element's text content: ``tokens[start:end]``."""

    element: etree._Element
    start: int
    end: int
    depth: int


class PageText:
    """The token sequence of a subtree (usually ``<body>``) and every element's span.

    The spans are kept as columns (element, start, end, depth in document order of their
    ends) and a :class:`Span` is made only for the elements asked about: a page has
    thousands of elements and a search looks at a few dozen."""

    def __init__(self, root: etree._Element) -> None:
        self.tokens: list[str] = []
        self._elements: list[etree._Element] = []
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._depths: list[int] = []
        self._walk(root)
        self._joined = SEPARATOR + SEPARATOR.join(self.tokens) + SEPARATOR
        # character offset of token i in _joined, for mapping a find() back to a token index
        self._offsets = list(itertools.accumulate((len(t) + 1 for t in self.tokens), initial=1))
        self._offsets.pop()
        self._index = {id(element): i for i, element in enumerate(self._elements)}
        self._columns: tuple[Ints, ...] | None = None  #: starts, ends, depths as arrays

    def _walk(self, root: etree._Element) -> None:
        starts: list[tuple[etree._Element, int, int]] = []
        tokens = self.tokens
        for event, element in etree.iterwalk(root, events=("start", "end")):
            if not isinstance(element.tag, str):  # a comment: only its tail is text
                if event == "end" and element is not root:
                    _add_tokens(tokens, element.tail)
                continue
            if event == "start":
                starts.append((element, len(tokens), len(starts)))
                _add_tokens(tokens, element.text)
                continue
            node, start, depth = starts.pop()
            self._elements.append(node)
            self._starts.append(start)
            self._ends.append(len(tokens))
            self._depths.append(depth)
            if node is not root:
                _add_tokens(tokens, node.tail)

    def _span(self, i: int) -> Span:
        return Span(self._elements[i], self._starts[i], self._ends[i], self._depths[i])

    @property
    def spans(self) -> list[Span]:
        """Every element's span, in the document order of the elements' ends."""
        return [self._span(i) for i in range(len(self._elements))]

    def span_of(self, element: etree._Element) -> Span | None:
        i = self._index.get(id(element))
        return None if i is None else self._span(i)

    def occurrences(self, tokens: tuple[str, ...], limit: int = 50) -> list[int]:
        """Token positions where ``tokens`` occur contiguously (at most ``limit``)."""
        if not tokens:
            return []
        needle = SEPARATOR + SEPARATOR.join(tokens) + SEPARATOR
        found: list[int] = []
        at = self._joined.find(needle)
        while at >= 0 and len(found) < limit:
            found.append(bisect.bisect_left(self._offsets, at + 1))
            at = self._joined.find(needle, at + 1)
        return found

    def longest_prefix(self, tokens: tuple[str, ...], least: int) -> int:
        """The most leading tokens of ``tokens`` that occur in the page (0 if < ``least``)."""
        if len(tokens) < least or not self.occurrences(tokens[:least], 1):
            return 0
        low, high = least, len(tokens)
        while low < high:  # occurring is monotone: a prefix of an occurring prefix occurs
            middle = (low + high + 1) // 2
            if self.occurrences(tokens[:middle], 1):
                low = middle
            else:
                high = middle - 1
        return low

    def holders(self, position: int, length: int) -> list[Span]:
        """The spans holding tokens ``[position, position + length)``, deepest first."""
        held, depths = self._holding(position, length)
        return [self._span(int(i)) for i in held[np.argsort(-depths, kind="stable")]]

    def deepest(self, position: int, length: int) -> Span | None:
        held, depths = self._holding(position, length)
        return self._span(int(held[np.argmax(depths)])) if len(held) else None  # first deepest

    def _holding(self, position: int, length: int) -> tuple[npt.NDArray[np.intp], Ints]:
        """Indexes (in span order) and depths of the spans holding tokens
        ``[position, position + length)``."""
        if self._columns is None:  # made on the first search: a page is searched often
            columns = (self._starts, self._ends, self._depths)
            self._columns = tuple(np.asarray(column, dtype=np.int64) for column in columns)
        starts, ends, depths = self._columns
        held = np.flatnonzero((starts <= position) & (ends >= position + length))
        return held, depths[held]

    def covers(self, element: etree._Element, tokens: tuple[str, ...]) -> bool:
        """Whether ``tokens`` occur contiguously inside ``element``'s text."""
        span = self.span_of(element)
        if span is None or not tokens:
            return False
        return any(span.start <= p and p + len(tokens) <= span.end
                   for p in self.occurrences(tokens))  # fmt: skip

    def text_of(self, element: etree._Element) -> tuple[str, ...]:
        span = self.span_of(element)
        return () if span is None else tuple(self.tokens[span.start : span.end])

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
from dataclasses import dataclass

from lxml import etree

from feedsift.text.tokens import tokenize_lower

__all__ = ["SEPARATOR", "PageText", "value_tokens"]

#: Joins tokens into one searchable string; no token contains it (tokens are \w runs).
SEPARATOR = "\x1f"


def value_tokens(text: str) -> tuple[str, ...]:
    """The tokens a value is matched by (lower-cased words, one per CJK character)."""
    return tuple(tokenize_lower(text))


@dataclass(frozen=True, slots=True)
class Span:
    """The tokens of one element's text content: ``tokens[start:end]``."""

    element: etree._Element
    start: int
    end: int
    depth: int


class PageText:
    """The token sequence of a subtree (usually ``<body>``) and every element's span."""

    def __init__(self, root: etree._Element) -> None:
        self.tokens: list[str] = []
        self.spans: list[Span] = []
        self._walk(root)
        self._joined = SEPARATOR + SEPARATOR.join(self.tokens) + SEPARATOR
        # character offset of token i in _joined, for mapping a find() back to a token index
        self._offsets: list[int] = []
        offset = 1
        for token in self.tokens:
            self._offsets.append(offset)
            offset += len(token) + 1
        self._by_element = {id(span.element): span for span in self.spans}

    def _walk(self, root: etree._Element) -> None:
        starts: list[tuple[etree._Element, int, int]] = []
        for event, element in etree.iterwalk(root, events=("start", "end")):
            if not isinstance(element.tag, str):  # a comment: only its tail is text
                if event == "end" and element is not root:
                    self.tokens.extend(tokenize_lower(element.tail or ""))
                continue
            if event == "start":
                starts.append((element, len(self.tokens), len(starts)))
                self.tokens.extend(tokenize_lower(element.text or ""))
                continue
            node, start, depth = starts.pop()
            self.spans.append(Span(node, start, len(self.tokens), depth))
            if node is not root:
                self.tokens.extend(tokenize_lower(node.tail or ""))

    def span_of(self, element: etree._Element) -> Span | None:
        return self._by_element.get(id(element))

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
        holding = [s for s in self.spans if s.start <= position and s.end >= position + length]
        return sorted(holding, key=lambda span: -span.depth)

    def deepest(self, position: int, length: int) -> Span | None:
        holding = self.holders(position, length)
        return holding[0] if holding else None

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

"""Nesting deeper than libxml2 reads: flattened before parsing, so that no text is lost.

libxml2's HTML parser stops at :data:`PARSER_DEPTH` open elements ("Excessive depth in
document", a fatal error) and keeps only what it read before: a page nested 3,000 ``<div>``
deep lost its deep text and everything after it, silently. When the parser says so,
:func:`~feedsift.parsing.dom.parse_html` parses the page again after
:func:`flatten_nesting`: start tags deeper than :data:`MAX_DEPTH` and their end tags become
a space, so their text joins their deepest kept ancestor (one text block) and the rest of
the page follows as it was. Pages the parser reads whole are never rewritten.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEPTH", "PARSER_DEPTH", "flatten_nesting"]

#: Open elements libxml2's HTML parser accepts with ``huge_tree`` (256 without it).
PARSER_DEPTH = 2048
#: Depth kept when a page is flattened: half of the parser's limit, since the depth counted
#: here from the source may differ from the parser's (it closes some elements implicitly).
MAX_DEPTH = PARSER_DEPTH // 2

#: Elements without content: they open nothing.
_VOID = frozenset(
    "area base basefont br col embed frame hr img input isindex keygen link meta param "
    "source track wbr".split()
)
#: Elements a start tag of their own name closes when it is the innermost open one.
_SELF_CLOSING = frozenset("p li dt dd option tr td th".split())
#: A comment, a raw-text element with its content (skipped whole), or a tag: ``/`` in
#: group 2 for an end tag, the name in group 3, ``/`` in group 4 for ``<x/>``.
_TOKEN_RE = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|xmp)\b[^>]*>.*?(?:</\1\s*>|\Z)"
    r"|<(/?)([A-Za-z][^\s/>]*)[^>]*?(/?)>",
    re.DOTALL | re.IGNORECASE,
)


class _OpenElements:
    """The elements open at a point of the source, innermost last, each marked dropped or
    kept; names are counted so that a stray end tag costs no search."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        self.stack: list[tuple[str, bool]] = []
        self.counts: dict[str, int] = {}

    def open(self, name: str) -> bool:
        """Open ``name``; True when it is past the depth kept (its tag is dropped)."""
        if name in _SELF_CLOSING and self.stack and self.stack[-1][0] == name:
            self._pop_to(len(self.stack) - 1)
        dropped = len(self.stack) >= self.max_depth
        self.stack.append((name, dropped))
        self.counts[name] = self.counts.get(name, 0) + 1
        return dropped

    def close(self, name: str) -> bool:
        """Close the innermost open ``name`` and what is open inside it; True when its start
        tag was dropped (so is the end tag). A stray end tag is left to the parser."""
        if not self.counts.get(name):
            return False
        index = len(self.stack) - 1
        while self.stack[index][0] != name:
            index -= 1
        dropped = self.stack[index][1]
        self._pop_to(index)
        return dropped

    def _pop_to(self, index: int) -> None:
        for name, _ in self.stack[index:]:
            self.counts[name] -= 1
        del self.stack[index:]


def flatten_nesting(text: str, max_depth: int = MAX_DEPTH) -> str:
    """``text`` with the tags of elements nested deeper than ``max_depth`` replaced by a
    space (their text kept); comments, scripts and styles are left as they are."""
    elements = _OpenElements(max_depth)
    pieces: list[str] = []
    kept_until = 0
    for match in _TOKEN_RE.finditer(text):
        end_tag, name, empty = match.group(2, 3, 4)
        if name is None:
            continue  # a comment or a raw-text element: no tags inside
        name = name.lower()
        if end_tag:
            dropped = elements.close(name)
        elif name in _VOID or empty:
            continue
        else:
            dropped = elements.open(name)
        if dropped:
            pieces += (text[kept_until : match.start()], " ")
            kept_until = match.end()
    pieces.append(text[kept_until:])
    return "".join(pieces)

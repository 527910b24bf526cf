"""Align gold text to a page's text blocks, to label blocks as content or boilerplate.

The gold text of a benchmark page is the main content as a human (or a reference tool)
saw it; the page is a sequence of text blocks. Both become lower-cased word tokens and are
aligned monotonically with :class:`difflib.SequenceMatcher` (longest common runs first).
A token of a block counts as matched when it lies in a run that is

* at least :data:`MIN_RUN` tokens long, or
* shorter, but made of whole blocks *and* whole lines of the gold (a heading, a list
  item, a one-word paragraph): a lone word that merely recurs in the gold does not count.

A block's label is the share of its tokens matched. Snippet gold (``with``/``without``
lists) labels only the blocks a snippet falls in; the rest stay unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from feedsift.text.tokens import tokenize_lower

__all__ = [
    "CONTENT_SHARE",
    "MIN_RUN",
    "Alignment",
    "align_blocks",
    "label_from_snippets",
]

#: Shortest run of consecutive matching tokens accepted anywhere.
MIN_RUN = 3
#: A block is content when at least this share of its tokens is matched.
CONTENT_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Alignment:
    """Per-block matched shares and how much of the gold the page covers."""

    shares: tuple[float, ...]  #: matched share of each block's tokens, 0..1
    gold_tokens: int
    matched_gold_tokens: int

    @property
    def labels(self) -> tuple[bool, ...]:
        return tuple(share >= CONTENT_SHARE for share in self.shares)

    @property
    def coverage(self) -> float:
        """Share of gold tokens found in the page's blocks (an upper bound on recall)."""
        return self.matched_gold_tokens / self.gold_tokens if self.gold_tokens else 0.0


def _gold_lines(gold: str) -> tuple[list[str], list[int]]:
    tokens: list[str] = []
    line_of: list[int] = []
    for number, line in enumerate(gold.splitlines()):
        words = tokenize_lower(line)
        tokens.extend(words)
        line_of.extend([number] * len(words))
    return tokens, line_of


def _whole_lines(line_of: Sequence[int], start: int, size: int) -> bool:
    """Whether gold tokens ``start .. start+size-1`` begin and end on line boundaries."""
    end = start + size - 1
    before = start == 0 or line_of[start - 1] != line_of[start]
    after = end == len(line_of) - 1 or line_of[end + 1] != line_of[end]
    return before and after


@dataclass(frozen=True, slots=True)
class _PageTokens:
    """The page's blocks as one token sequence: owner block of each token, block starts."""

    tokens: list[str]
    owner: list[int]
    starts: list[int]
    sizes: list[int]


def _page_tokens(block_texts: Sequence[str]) -> _PageTokens:
    tokens: list[str] = []
    owner: list[int] = []
    starts: list[int] = []
    sizes: list[int] = []
    for number, text in enumerate(block_texts):
        words = tokenize_lower(text)
        starts.append(len(tokens))
        sizes.append(len(words))
        tokens.extend(words)
        owner.extend([number] * len(words))
    return _PageTokens(tokens, owner, starts, sizes)


def _short_run_ok(page: _PageTokens, a: int, b: int, size: int, line_of: Sequence[int]) -> bool:
    """A run shorter than MIN_RUN counts only as whole blocks matching whole gold lines."""
    first, last = page.owner[a], page.owner[a + size - 1]
    whole_blocks = page.starts[first] == a and page.starts[last] + page.sizes[last] == a + size
    return whole_blocks and _whole_lines(line_of, b, size)


def align_blocks(block_texts: Sequence[str], gold: str) -> Alignment:
    """Align ``gold`` to the blocks and return each block's matched share."""
    page = _page_tokens(block_texts)
    gold_tokens, line_of = _gold_lines(gold)
    matched = [0] * len(block_texts)
    total = 0
    matcher = SequenceMatcher(None, page.tokens, gold_tokens, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        if not size or (size < MIN_RUN and not _short_run_ok(page, a, b, size, line_of)):
            continue
        total += size
        for k in range(a, a + size):
            matched[page.owner[k]] += 1
    shares = tuple(m / s if s else 0.0 for m, s in zip(matched, page.sizes, strict=True))
    return Alignment(shares, len(gold_tokens), total)


def label_from_snippets(
    block_texts: Sequence[str], with_: Sequence[str], without: Sequence[str]
) -> tuple[bool | None, ...]:
    """Labels from snippet gold: content where a ``with`` snippet lies, boilerplate where a
    ``without`` snippet lies, ``None`` (unknown) elsewhere."""
    labels: list[bool | None] = [None] * len(block_texts)
    for snippet in without:
        for i in _containing(block_texts, snippet):
            labels[i] = False
    for snippet in with_:
        for i in _containing(block_texts, snippet):
            labels[i] = True
    return tuple(labels)


def _containing(block_texts: Sequence[str], snippet: str) -> list[int]:
    needle = " ".join(snippet.split())
    if not needle:
        return []
    direct = [i for i, text in enumerate(block_texts) if needle in text]
    if direct or len(needle) < 12:
        return direct
    return _spanning(block_texts, needle)


def _spanning(block_texts: Sequence[str], needle: str) -> list[int]:
    """Blocks of a snippet that crosses block boundaries (joined with one space)."""
    joined = " ".join(block_texts)
    at = joined.find(needle)
    if at < 0:
        return []
    found, offset = [], 0
    for i, text in enumerate(block_texts):
        end = offset + len(text)
        if end > at and offset < at + len(needle):
            found.append(i)
        offset = end + 1
    return found

"""Per-block signals: the numbers every page-level model reads, computed once per page.

Text-derived counts (stopword, capitalised, numeric shares, how the block ends, post-end
phrases, repeats), structure (owner tag, depth, role masks) and layout (font size, weight,
vertical position, width) end up as parallel numpy arrays, one entry per text block.
Prefix sums over document order make any subtree's totals an O(1) lookup, because the
blocks of a subtree are contiguous.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from feedsift.extractors.roles import ClassRoleCache, RoleMasks, role_masks
from feedsift.extractors.vocabulary import POST_END_PHRASES, STOPWORDS
from feedsift.parsing.blocks import BlockView, TextBlock
from feedsift.parsing.layout import Layout
from feedsift.text.tokens import CJK_RANGES

__all__ = ["OWNER_TAGS", "TEXT_COLUMNS", "PageSignals", "is_marker", "page_signals"]

#: Owner tags with a column of their own; every other tag falls in the last group.
OWNER_TAGS: tuple[tuple[str, ...], ...] = (
    ("p",), ("div",), ("li",), ("td", "th"), ("h1",), ("h2",), ("h3", "h4", "h5", "h6"),
    ("pre", "code"), ("blockquote",), ("dd", "dt"), ("figcaption", "caption"),
    ("article", "section", "main"), ("span", "font", "center"), ("a",),
    ("header", "footer", "nav", "aside"), ("body",),
)  # fmt: skip
_TAG_GROUP = {tag: i for i, group in enumerate(OWNER_TAGS) for tag in group}

#: Longest block (in words) that can be a post-end marker such as "Leave a comment".
MARKER_MAX_WORDS = 6

_CJK_RE = re.compile(f"[{CJK_RANGES}]")
_MARKER_STRIP_RE = re.compile(r"[\s\d:()\[\]|»«>·•\-–—.,!?]+")
_SENTENCE_END = tuple(".!?。！？\"'”’)»")


@dataclass(frozen=True, slots=True)
class PageSignals:
    """Parallel per-block arrays (length = number of blocks) plus per-subtree role masks."""

    words: np.ndarray
    link: np.ndarray
    punct: np.ndarray
    text: np.ndarray  #: (n, 9) text-derived columns, see :data:`TEXT_COLUMNS`
    tag_group: np.ndarray
    depth: np.ndarray
    line_break: np.ndarray
    marker: np.ndarray  #: short block that reads like a post-end phrase
    repeats: np.ndarray  #: how often the same text occurs on the page
    layout: np.ndarray  #: (n, 4): font size, bold, y, width
    roles: RoleMasks  #: per subtree
    owner: np.ndarray  #: owner subtree index of each block

    @property
    def n(self) -> int:
        return len(self.words)


#: Names of the columns of :attr:`PageSignals.text`.
TEXT_COLUMNS = (
    "stop_share", "upper_share", "digit_share", "avg_word_len", "ends_sentence",
    "ends_ellipsis", "ends_colon", "cjk_share", "starts_upper",
)  # fmt: skip


def _token_shares(blocks: Sequence[TextBlock]) -> np.ndarray:
    """Per block: shares of stopwords, capitalised and numeric tokens, mean token length.

    All tokens of the page are tested in one flat pass (C-level ``map``), then summed back
    per block: much cheaper than a Python loop per block.
    """
    lengths = np.fromiter((len(b.tokens) for b in blocks), dtype=np.int64, count=len(blocks))
    tokens = [token for b in blocks for token in b.tokens]
    owner = np.repeat(np.arange(len(blocks)), lengths)
    count = len(tokens)
    columns = (
        np.fromiter(map(STOPWORDS.__contains__, map(str.lower, tokens)), bool, count=count),
        np.fromiter(map(str.isupper, map(itemgetter(0), tokens)), bool, count=count),
        np.fromiter(map(str.isdigit, tokens), bool, count=count),
        np.fromiter(map(len, tokens), np.int64, count=count),
    )
    size = np.maximum(lengths, 1)
    sums = [np.bincount(owner, weights=c, minlength=len(blocks)) for c in columns]
    return np.column_stack([total / size for total in sums])


def _ending_row(text: str, n_tokens: int) -> tuple[float, ...]:
    return (
        float(text.endswith(_SENTENCE_END)),
        float(text.endswith(("…", "..."))),
        float(text[-1:] in (":", ";")),
        len(_CJK_RE.findall(text)) / max(1, n_tokens) if not text.isascii() else 0.0,
        float(text[:1].isupper()),
    )


def _text_matrix(blocks: Sequence[TextBlock]) -> np.ndarray:
    """The :data:`TEXT_COLUMNS` of every block."""
    if not blocks:
        return np.zeros((0, len(TEXT_COLUMNS)))
    endings = np.array([_ending_row(b.text, len(b.tokens)) for b in blocks], dtype=np.float64)
    return np.hstack([_token_shares(blocks), endings])


def is_marker(text: str, n_words: int) -> bool:
    """Whether a short block is a post-end phrase ("Comments (3)", "Leave a Reply")."""
    if n_words > MARKER_MAX_WORDS:
        return False
    key = _MARKER_STRIP_RE.sub(" ", text.lower()).strip()
    return key in POST_END_PHRASES


def page_signals(
    view: BlockView, layout: Layout, roles: ClassRoleCache | None = None
) -> PageSignals:
    """Compute every per-block signal of a page (``roles`` caches class-name roles)."""
    blocks = view.blocks
    counts = Counter(b.text for b in blocks)
    n = len(blocks)
    subtrees = view.subtrees
    other = len(OWNER_TAGS)
    numbers = np.array(
        [
            (b.n_words, b.link_share, b.n_punct, _TAG_GROUP.get(b.tag, other),
             subtrees[b.subtree].depth, b.boundary == "line", is_marker(b.text, b.n_words),
             counts[b.text], b.subtree)
            for b in blocks
        ],
        dtype=np.float64,
    ).reshape(n, 9)  # fmt: skip
    return PageSignals(
        words=numbers[:, 0],
        link=numbers[:, 1],
        punct=numbers[:, 2],
        text=_text_matrix(blocks),
        tag_group=numbers[:, 3].astype(np.int64),
        depth=numbers[:, 4],
        line_break=numbers[:, 5],
        marker=numbers[:, 6],
        repeats=numbers[:, 7],
        layout=np.column_stack([layout.font_size, layout.bold, layout.y, layout.width]),
        roles=role_masks(view, roles),
        owner=numbers[:, 8].astype(np.int64),
    )

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

from feedsift.extractors.roles import RoleMasks, role_masks
from feedsift.extractors.vocabulary import POST_END_PHRASES, STOPWORDS
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.layout import Box
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


def _text_row(text: str, words: tuple[str, ...]) -> list[float]:
    n = max(1, len(words))
    stop = sum(map(STOPWORDS.__contains__, map(str.lower, words)))
    upper = sum(map(str.isupper, map(itemgetter(0), words)))
    digits = sum(map(str.isdigit, words))
    chars = sum(map(len, words))
    end = text.rstrip()[-1:]
    return [
        stop / n,
        upper / n,
        digits / n,
        chars / n,
        float(text.endswith(_SENTENCE_END)),
        float(text.endswith(("…", "..."))),
        float(end in ":;"),
        len(_CJK_RE.findall(text)) / n if not text.isascii() else 0.0,
        float(text[:1].isupper()),
    ]


def is_marker(text: str, n_words: int) -> bool:
    """Whether a short block is a post-end phrase ("Comments (3)", "Leave a Reply")."""
    if n_words > MARKER_MAX_WORDS:
        return False
    key = _MARKER_STRIP_RE.sub(" ", text.lower()).strip()
    return key in POST_END_PHRASES


def page_signals(view: BlockView, boxes: Sequence[Box]) -> PageSignals:
    """Compute every per-block signal of a page."""
    blocks = view.blocks
    texts = [b.text for b in blocks]
    counts = Counter(texts)
    n = len(blocks)
    subtrees = view.subtrees
    owner = np.fromiter((b.subtree for b in blocks), dtype=np.int64, count=n)
    return PageSignals(
        words=np.fromiter((b.n_words for b in blocks), dtype=np.float64, count=n),
        link=np.fromiter((b.link_share for b in blocks), dtype=np.float64, count=n),
        punct=np.fromiter((b.n_punct for b in blocks), dtype=np.float64, count=n),
        text=np.array([_text_row(b.text, b.tokens) for b in blocks],
                      dtype=np.float64).reshape(n, 9),
        tag_group=np.fromiter(
            (_TAG_GROUP.get(b.tag, len(OWNER_TAGS)) for b in blocks), dtype=np.int64, count=n
        ),
        depth=np.fromiter((subtrees[b.subtree].depth for b in blocks), dtype=np.float64, count=n),
        line_break=np.fromiter((b.boundary == "line" for b in blocks), dtype=np.float64, count=n),
        marker=np.fromiter((is_marker(b.text, b.n_words) for b in blocks), dtype=np.float64,
                           count=n),
        repeats=np.fromiter((counts[t] for t in texts), dtype=np.float64, count=n),
        layout=np.array([(x.font_size, x.bold, x.y, x.width) for x in boxes],
                        dtype=np.float64).reshape(n, 4),
        roles=role_masks(view),
        owner=owner,
    )

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

import numpy as np

from feedsift.extractors.roles import ClassRoleCache, RoleMasks, role_masks
from feedsift.extractors.token_classes import TokenClassCache, token_shares
from feedsift.extractors.vocabulary import POST_END_PHRASES
from feedsift.parsing.blocks import BlockView, TextBlock
from feedsift.parsing.layout import Layout
from feedsift.text.tokens import CJK_CHAR

__all__ = ["OWNER_TAGS", "TEXT_COLUMNS", "PageSignals", "is_marker", "page_signals"]

#: Owner tags with a column of their own; every other tag falls in the last group.
OWNER_TAGS: tuple[tuple[str, ...], ...] = (
    ("p",), ("div",), ("li",), ("td", "th"), ("h1",), ("h2",), ("h3", "h4", "h5", "h6"),
    ("pre", "code"), ("blockquote",), ("dd", "dt"), ("figcaption", "caption"),
    ("article", "section", "main"), ("span", "font", "center"), ("a",),
    ("header", "footer", "nav", "aside"), ("body",),
)  # fmt: skip
_TAG_GROUP = {tag: i for i, group in enumerate(OWNER_TAGS) for tag in group}

#: Words a CJK character (or Hangul syllable) counts for in the word signals: the tokenizer
#: makes each one a token, but a word of Chinese or Japanese averages about two characters
#: (and a Korean word two to three syllables), so a 40-character linked headline is not prose.
CJK_WORD_WEIGHT = 0.5

#: Longest block (in words) that can be a post-end marker such as "Leave a comment".
MARKER_MAX_WORDS = 6

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


def _ending_row(text: str, n_tokens: int) -> tuple[float, ...]:
    return (
        float(text.endswith(_SENTENCE_END)),
        float(text.endswith(("…", "..."))),
        float(text[-1:] in (":", ";")),
        len(CJK_CHAR.findall(text)) / max(1, n_tokens) if not text.isascii() else 0.0,
        float(text[:1].isupper()),
    )


def _text_matrix(blocks: Sequence[TextBlock], cache: TokenClassCache | None) -> np.ndarray:
    """The :data:`TEXT_COLUMNS` of every block."""
    if not blocks:
        return np.zeros((0, len(TEXT_COLUMNS)))
    endings = np.array([_ending_row(b.text, len(b.tokens)) for b in blocks], dtype=np.float64)
    return np.hstack([token_shares(blocks, cache), endings])


def _word_weights(tokens: np.ndarray, text: np.ndarray) -> np.ndarray:
    """Each block's tokens with its CJK characters counted at :data:`CJK_WORD_WEIGHT`."""
    if not len(tokens):
        return tokens
    cjk = text[:, TEXT_COLUMNS.index("cjk_share")]
    return tokens * (1.0 - cjk * (1.0 - CJK_WORD_WEIGHT))


def is_marker(text: str, n_words: int) -> bool:
    """Whether a short block is a post-end phrase ("Comments (3)", "Leave a Reply")."""
    if n_words > MARKER_MAX_WORDS:
        return False
    key = _MARKER_STRIP_RE.sub(" ", text.lower()).strip()
    return key in POST_END_PHRASES


def page_signals(
    view: BlockView, layout: Layout, roles: ClassRoleCache | None = None,
    token_classes: TokenClassCache | None = None,
) -> PageSignals:  # fmt: skip
    """Compute every per-block signal of a page (``roles`` caches class-name roles,
    ``token_classes`` the word classes of tokens)."""
    blocks = view.blocks
    # the blocks' fields as columns, transposed in C (a tuple of values per field)
    _, texts, _, tags, owners, words, punct, share, boundary, _ = (
        zip(*blocks, strict=True) if blocks else ((),) * len(TextBlock._fields)
    )
    counts = Counter(texts)
    other = len(OWNER_TAGS)
    owner = np.array(owners, dtype=np.int64)
    depths = np.array([sub.depth for sub in view.subtrees], dtype=np.float64)
    text = _text_matrix(blocks, token_classes)
    return PageSignals(
        words=_word_weights(np.array(words, dtype=np.float64), text),
        link=np.array(share, dtype=np.float64),
        punct=np.array(punct, dtype=np.float64),
        text=text,
        tag_group=np.array([_TAG_GROUP.get(tag, other) for tag in tags], dtype=np.int64),
        depth=depths[owner],
        line_break=np.array([kind == "line" for kind in boundary], dtype=np.float64),
        marker=np.array(list(map(is_marker, texts, words)), dtype=np.float64),
        repeats=np.array(list(map(counts.__getitem__, texts)), dtype=np.float64),
        layout=np.column_stack([layout.font_size, layout.bold, layout.y, layout.width]),
        roles=role_masks(view, roles),
        owner=owner,
    )

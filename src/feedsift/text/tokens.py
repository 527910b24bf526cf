"""Word tokens: Unicode ``\\w+`` runs, with one token per CJK character.

This is the tokenisation the benchmarks' LCS measure uses (URL Tree paper) and the one the
aligner, the features and the URL Tree block normaliser share, so scores and labels agree.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

__all__ = [
    "CJK_CHAR",
    "CJK_RANGES",
    "INVISIBLE_CHARACTERS",
    "cjk_spacing_folded",
    "lenient_title",
    "lenient_titles",
    "lower_visible",
    "normalize_space",
    "same_title_lenient",
    "token_f1",
    "tokenize",
    "tokenize_lower",
]

#: Scripts written without spaces between words: every character is a token of its own.
#: Han (basic, extension A and compatibility, supplementary planes), kana and Hangul syllables.
CJK_RANGES = (
    "\u3040-\u30ff"  # Hiragana and Katakana
    "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0002fa1f"  # supplementary ideographs
)

#: Characters drawn as nothing and joining nothing, so no word boundary either: soft hyphen,
#: zero-width space, word joiner, zero-width no-break space (a byte-order mark in the text).
#: The zero-width joiner and non-joiner are not among them: they shape emoji and Persian words.
INVISIBLE_CHARACTERS = "\u00ad\u200b\u2060\ufeff"

_TOKEN_RE = re.compile(f"(?=\\w)[{CJK_RANGES}]|[^\\W{CJK_RANGES}]+")
#: The same tokens for text without CJK characters, found faster.
_WORD_RE = re.compile(r"\w+")
#: The same tokens for ASCII text: on ASCII, Unicode ``\w`` is ``[A-Za-z0-9_]``, and the
#: ASCII class is tested from a table instead of Unicode lookups (a third faster).
_ASCII_WORD_RE = re.compile(r"\w+", re.ASCII)
#: One CJK character.
CJK_CHAR = re.compile(f"[{CJK_RANGES}]")


def tokenize(text: str) -> list[str]:
    """Split ``text`` into word tokens, case kept.

    >>> tokenize("Hello, world! 你好")
    ['Hello', 'world', '你', '好']
    """
    if text.isascii():
        return _ASCII_WORD_RE.findall(text)
    if CJK_CHAR.search(text) is None:
        return _WORD_RE.findall(text)
    return _TOKEN_RE.findall(text)


def tokenize_lower(text: str) -> list[str]:
    """Tokens of the lower-cased text (the LCS measure is case-insensitive), the
    :data:`INVISIBLE_CHARACTERS` ignored: a gold text that keeps them reads as the page
    shows it."""
    return tokenize(lower_visible(text))


def lower_visible(text: str) -> str:
    """``text`` lower-cased and without its :data:`INVISIBLE_CHARACTERS`: what
    :func:`tokenize_lower` cuts into tokens."""
    text = text.lower()
    if not text.isascii():
        for character in INVISIBLE_CHARACTERS:
            if character in text:
                text = text.replace(character, "")
    return text


def normalize_space(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends."""
    return " ".join(text.split())


def token_f1(a: Sequence[str], b: Sequence[str]) -> float:
    """Bag-of-tokens F1 of two token lists (0.0 when either is empty)."""
    if not a or not b:
        return 0.0
    common = sum((Counter(a) & Counter(b)).values())
    return 2 * common / (len(a) + len(b))


#: Typographic variants that the lenient title match folds: quotes, dashes, spaces.
_TITLE_FOLDS = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ",
}  # fmt: skip
#: What :func:`lenient_title` strips from both ends once the rest is folded.
_TITLE_TRIM = " .:;!?-|"


def _fold_marks(text: str) -> str:
    """``text`` with :data:`_TITLE_FOLDS` applied. A scan and a replace per variant
    present: ``str.translate`` looks every character up in a dictionary, five times the
    cost on a page's blocks (no variant maps to another, so the order does not matter)."""
    for mark, plain in _TITLE_FOLDS.items():
        if mark in text:
            text = text.replace(mark, plain)
    return text


def lenient_title(value: str) -> str:
    """A title with case, quote styles, dashes and surrounding punctuation folded."""
    return normalize_space(_fold_marks(value)).casefold().strip(_TITLE_TRIM)


def lenient_titles(texts: Sequence[str]) -> list[str]:
    """:func:`lenient_title` of each of ``texts`` whose whitespace is already collapsed
    (text blocks' texts: single spaces, no line break), in order.

    The folds and case-folding map characters one by one and add no whitespace, so they
    run once over the texts joined by line breaks (a page's blocks in a few C calls).
    """
    if not texts:
        return []
    joined = _fold_marks("\n".join(texts)).casefold()
    return [text.strip(_TITLE_TRIM) for text in joined.split("\n")]


#: Spaces beside a CJK character: Chinese and Japanese writers put them between a CJK and a
#: Latin word or leave them out ("即日起支持 PHP", "即日起支持PHP"), the same words either way.
_CJK_SPACING = re.compile(f"\\s+(?=[{CJK_RANGES}])|(?<=[{CJK_RANGES}])\\s+")


def cjk_spacing_folded(text: str) -> str:
    """``text`` without the spaces beside its CJK characters (unchanged without any)."""
    return _CJK_SPACING.sub("", text)


def same_title_lenient(predicted: str | None, gold: str) -> bool:
    """Title match up to case, quote styles, dashes and a trailing full stop."""
    return predicted is not None and lenient_title(predicted) == lenient_title(gold)

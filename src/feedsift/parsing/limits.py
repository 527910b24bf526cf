"""Size limits of the parsing stage: a huge page is cut before it is parsed.

Parsing and extraction cost memory in proportion to a page's elements and words (about
160 bytes a word token, CJK characters being one each): a 45 MB page peaked at 1.2 GB and
a page of a million links at 2.7 GB. Above :data:`~feedsift.parsing.dom.MAX_HTML_CHARS`
characters, :data:`MAX_WORDS` words or :data:`MAX_ELEMENTS` elements the decoded text is
cut, at the element limit just before the first start tag past it and at the word limit
just before the last ``<`` ahead of the first word past it, so the parser sees a shorter
prefix and closes what is left open. The cut is reported in ``ParsedPage.truncated`` and
:attr:`~feedsift.records.Article.truncated`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from feedsift.parsing.dom import MAX_HTML_CHARS
from feedsift.text.tokens import CJK_RANGES

__all__ = ["MAX_ELEMENTS", "MAX_WORDS", "PageLimits", "cut_text"]

#: Elements (start tags in the source) a page may have before it is cut: 3.5 times the
#: largest page of the benchmarks (14,396 tags, a wceb2026 IMDb page), and about 150 MB
#: of parsing and extraction at the most.
MAX_ELEMENTS = 50_000

#: Word tokens (markup included) a page may have before it is cut: 2.3 times the largest
#: count of the benchmarks (516,610, the same IMDb page), about 200 MB of extraction. Only
#: counted on pages longer than this many characters (a page has fewer words than that).
MAX_WORDS = 1_200_000

#: A start tag: ``<`` and a letter (end tags, comments and doctypes do not count).
_START_TAG_RE = re.compile(r"<[A-Za-z]")
#: A word token as :func:`feedsift.text.tokens.tokenize` counts them (a CJK character is one).
_WORD_RE = re.compile(f"(?=\\w)[{CJK_RANGES}]|[^\\W{CJK_RANGES}]+")
#: Bytes of UTF-8 text mapped to ``a`` (an ASCII word character: ``\\w``) or a space.
_ASCII_WORD_BYTES = bytes(
    ord("a") if byte < 128 and (chr(byte).isalnum() or chr(byte) == "_") else ord(" ")
    for byte in range(256)
)
#: The bytes of a non-ASCII character in UTF-8 (lead and continuation bytes).
_NON_ASCII_BYTES = bytes(range(128, 256))


@dataclass(frozen=True, slots=True)
class PageLimits:
    """How much of a page the parsing stage reads; the rest is cut and reported."""

    max_chars: int = MAX_HTML_CHARS  #: decoded characters
    max_elements: int = MAX_ELEMENTS  #: start tags in the source
    max_words: int = MAX_WORDS  #: word tokens in the source, markup included

    def __post_init__(self) -> None:
        if min(self.max_chars, self.max_elements, self.max_words) < 1:
            raise ValueError("page limits must be positive")


def cut_text(text: str, limits: PageLimits) -> tuple[str, str | None]:
    """``text`` within ``limits``, and why it was cut (``None`` when it was not)."""
    reasons = []
    if len(text) > limits.max_chars:
        reasons.append(f"longer than {limits.max_chars:,} characters ({len(text):,})")
        text = text[: limits.max_chars]
    end = _before_word(text, limits.max_words) if _may_exceed(text, limits.max_words) else None
    if end is not None:
        reasons.append(f"more than {limits.max_words:,} words")
        text = text[:end]
    crowded = text.count("<") > limits.max_elements  # a fast bound before the regex scan
    end = _nth_match(_START_TAG_RE, text, limits.max_elements) if crowded else None
    if end is not None:
        reasons.append(f"more than {limits.max_elements:,} elements")
        text = text[:end]
    if not reasons:
        return text, None
    return text, f"page cut at {len(text):,} characters: {' and '.join(reasons)}"


def _may_exceed(text: str, max_words: int) -> bool:
    """Whether ``text`` may hold more than ``max_words`` words, by a bound that is twenty
    times cheaper than counting them (measured on a 3 MB page: 20 ms against 470 ms)."""
    if len(text) <= max_words:
        return False
    return _word_bound(text) > max_words


def _word_bound(text: str) -> int:
    """At least the number of word tokens of ``text``: the runs of ASCII word characters,
    plus one for every other character (one may be a word of its own, a CJK character,
    or start one; a separator only ends runs, which the run count already did). Counted on
    the UTF-8 bytes with C-level byte calls, no regex and no match objects."""
    raw = text.encode("utf-8", "surrogatepass")
    runs = raw.translate(_ASCII_WORD_BYTES)
    ascii_chars = len(raw.translate(None, _NON_ASCII_BYTES))
    return runs.count(b" a") + runs.startswith(b"a") + len(text) - ascii_chars


def _nth_match(pattern: re.Pattern[str], text: str, index: int) -> int | None:
    """Where match number ``index`` (from 0) begins, ``None`` if there are fewer."""
    match = next(itertools.islice(pattern.finditer(text), index, None), None)
    return None if match is None else match.start()


def _before_word(text: str, index: int) -> int | None:
    """Where to cut to keep ``index`` words: before the last ``<`` ahead of the next word
    (so no tag is cut), or before the word itself in a text without one."""
    start = _nth_match(_WORD_RE, text, index)
    if start is None:
        return None
    tag = text.rfind("<", 0, start)
    return tag if tag > 0 else start

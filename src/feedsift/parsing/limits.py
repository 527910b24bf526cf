"""Size limits of the parsing stage: a huge page is cut before it is parsed.

Parsing and extraction cost memory in proportion to a page's elements: a 45 MB page
peaked at 1.4 GB and a page of a million links at 2.7 GB. Above :data:`MAX_ELEMENTS`
elements or :data:`~feedsift.parsing.dom.MAX_HTML_CHARS` characters the decoded text is
cut just before the first start tag past the limit (never inside a tag), so the parser
sees a shorter but well-formed prefix and closes what is left open. The cut is reported
in :attr:`ParsedPage.truncated` and :attr:`~feedsift.records.Article.truncated`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from feedsift.parsing.dom import MAX_HTML_CHARS

__all__ = ["MAX_ELEMENTS", "PageLimits", "cut_text"]

#: Elements (start tags in the source) a page may have before it is cut: 3.5 times the
#: largest page of the benchmarks (14,396 tags, a wceb2026 IMDb page), and about 150 MB
#: of parsing and extraction at the most.
MAX_ELEMENTS = 50_000

#: A start tag: ``<`` and a letter (end tags, comments and doctypes do not count).
_START_TAG_RE = re.compile(r"<[A-Za-z]")


@dataclass(frozen=True, slots=True)
class PageLimits:
    """How much of a page the parsing stage reads; the rest is cut and reported."""

    max_chars: int = MAX_HTML_CHARS  #: decoded characters
    max_elements: int = MAX_ELEMENTS  #: start tags in the source

    def __post_init__(self) -> None:
        if self.max_chars < 1 or self.max_elements < 1:
            raise ValueError("page limits must be positive")


def cut_text(text: str, limits: PageLimits) -> tuple[str, str | None]:
    """``text`` within ``limits``, and why it was cut (``None`` when it was not)."""
    reasons = []
    if len(text) > limits.max_chars:
        reasons.append(f"longer than {limits.max_chars:,} characters ({len(text):,})")
        text = text[: limits.max_chars]
    end = _start_of_tag(text, limits.max_elements)
    if end is not None:
        reasons.append(f"more than {limits.max_elements:,} elements")
        text = text[:end]
    if not reasons:
        return text, None
    return text, f"page cut at {len(text):,} characters: {' and '.join(reasons)}"


def _start_of_tag(text: str, index: int) -> int | None:
    """Where the start tag number ``index`` (from 0) begins, ``None`` if there are fewer."""
    match = next(itertools.islice(_START_TAG_RE.finditer(text), index, None), None)
    return None if match is None else match.start()

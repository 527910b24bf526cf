"""The publication date shown next to the title, for pages that declare none.

Most pages without machine-readable dates still print one in the byline or the post's
meta line ("Posted on 18 February 2024 by ...", "Von Jonas Weber · 12. September 2023").
Those lines are short blocks near the title, marked as meta/date/byline by their class or
shaped like a byline; the first one that parses as a plausible date is the date. This is
what htmldate's markup search does, read from blocks the extractor has already built.
"""

from __future__ import annotations

from datetime import datetime

from feedsift.extractors.cleanup import BYLINE_START
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.metadata.textdates import find_text_date
from feedsift.parsing.blocks import BlockView, TextBlock

__all__ = ["date_near_title"]

#: Blocks looked at before the title block ...
BEFORE_TITLE = 5
#: ... and after it.
AFTER_TITLE = 15
#: Without a title block, the date is looked for in this leading share of the blocks.
LEADING_SHARE = 0.3
#: Longest block (in words) read as a date line.
MAX_WORDS = 20
_META = 1 << Role.META
#: Dates inside these are another post's (a related-post card) or a reader's (a comment).
_ELSEWHERE = (1 << Role.RELATED) | (1 << Role.COMMENT)
#: Tags whose text is a date line by markup (``<time>`` without ``datetime``).
DATE_TAGS = frozenset({"time"})


def _window(signals: PageSignals, title: int) -> range:
    if title < 0:
        return range(0, min(signals.n, max(1, int(signals.n * LEADING_SHARE))))
    return range(max(0, title - BEFORE_TITLE), min(signals.n, title + AFTER_TITLE + 1))


def _date_line(block: TextBlock, roles: int) -> bool:
    """Whether a short block is a date or byline line: marked meta, in ``<time>``, shaped
    like a byline, or a few words only."""
    if roles & _META or block.tag in DATE_TAGS or block.element.tag in DATE_TAGS:
        return True
    return bool(BYLINE_START.match(block.text)) or block.n_words <= 6


def date_near_title(view: BlockView, signals: PageSignals, title: int) -> datetime | None:
    """The first plausible date of a short date or byline line around the title block,
    never one inside a related-posts box or a comment."""
    near, inherited = signals.roles.near, signals.roles.inherited
    for i in _window(signals, title):
        block = view.blocks[i]
        if block.n_words > MAX_WORDS or inherited[block.subtree] & _ELSEWHERE:
            continue
        if _date_line(block, int(near[block.subtree])):
            found = find_text_date(block.text)
            if found is not None:
                return found
    return None

"""The publication date shown next to the title, for pages that declare none.

Most pages without machine-readable dates still print one in the byline or the post's
meta line ("Posted on 18 February 2024 by ...", "Von Jonas Weber · 12. September 2023").
Those lines are short blocks near the title, marked as meta/date/byline by their class or
shaped like a byline; the first one that parses as a plausible date is the date. This is
what htmldate's markup search does, read from blocks the extractor has already built.
"""

from __future__ import annotations

from datetime import datetime

from feedsift.extractors.cleanup import BYLINE_START, DATE_TEXT
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.metadata.dates import parse_datetime
from feedsift.parsing.blocks import BlockView

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


def _window(signals: PageSignals, title: int) -> range:
    if title < 0:
        return range(0, min(signals.n, max(1, int(signals.n * LEADING_SHARE))))
    return range(max(0, title - BEFORE_TITLE), min(signals.n, title + AFTER_TITLE + 1))


def date_near_title(view: BlockView, signals: PageSignals, title: int) -> datetime | None:
    """The first plausible date of a short date or byline line around the title block."""
    near = signals.roles.near
    for i in _window(signals, title):
        block = view.blocks[i]
        match = DATE_TEXT.search(block.text) if block.n_words <= MAX_WORDS else None
        if match is None:
            continue
        if near[block.subtree] & _META or BYLINE_START.match(block.text) or block.n_words <= 6:
            found = parse_datetime(match.group(0))
            if found is not None:
                return found
    return None

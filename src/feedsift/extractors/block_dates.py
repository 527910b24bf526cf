"""The publication date shown next to the title, for pages that declare none.

Most pages without machine-readable dates still print one in the byline or the post's
meta line ("Posted on 18 February 2024 by ...", "Von Jonas Weber · 12. September 2023").
Those lines are short blocks near the title, marked as meta/date/byline by their class,
shaped like a byline or opening with a date word, or longer blocks that open with a date or
show it in a ``<time>``; the first one that parses as a plausible publication date is the
date (an update date, "Last updated on ...", only when no other is found). This is what
htmldate's markup search does, read from blocks the extractor has already built.
"Near the title" is around the title block, then around the body's first block and the
page's first ``<h1>``; when nothing is found there, a line just under the body that says
what its date is ("Posted on the 15/12/2025 at 19:00 by ...", "Last updated on 17 December
2025"), or a marked date line inside the post's own container, is read, else a date in the
block after a label that names it ("Published", then "Feb 2, 2023") anywhere on the page.
Dates in related posts, comments, a sidebar's list of posts or the previous/next links are
never read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import islice

from lxml import etree

from feedsift.extractors.cleanup import BYLINE_START
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.metadata.dates import ISO_DATE_START, parse_datetime, same_day_loosely
from feedsift.metadata.dom import OtherPosts
from feedsift.metadata.scan import spaced_text_of
from feedsift.metadata.textdates import (
    INTRO_CHARS,
    dated,
    find_text_date,
    introduces_update,
    opens_with_date_word,
    written_dates,
)
from feedsift.parsing.blocks import INLINE_TAGS, BlockView, TextBlock

__all__ = ["DateAnchors", "date_near_title", "shown_date_line", "writes_day"]

#: Blocks looked at before the title block (else the body's first block) ...
BEFORE_TITLE = 5
#: ... and after it.
AFTER_TITLE = 15
#: Without a title block or a body, the date is looked for in this leading share of the blocks.
LEADING_SHARE = 0.3
#: Blocks looked at after the body's last block, for the line under a post ("Posted on the
#: 15/12/2025 at 19:00 by ...", "Last updated on 17 December 2025").
AFTER_BODY = 8
#: ... and the body's own last blocks, for such a line the body kept.
BODY_TAIL = 3
#: Longest block (in words) read as a date line ...
MAX_WORDS = 20
#: ... unless it opens with a date, within this many characters (a weekday or "Posted:"
#: before it): "July 15, 2021 · 12 min read · 2500 words · Tags: ..." at any length.
OPENING_CHARS = 16
#: Longest label, in words, read as the name of the date in the block after it
#: ("Published", "Posted on"; "Last updated" says it is no publication date).
LABEL_MAX_WORDS = 3
#: ``<time>`` elements read in one block (a line shows one or two).
MAX_TIMES = 3
_META = 1 << Role.META
#: Dates inside these are another post's (a related-post card) or a reader's (a comment),
#: unless the element holds the post itself (a theme's ``related-content`` wrapper); boxes
#: of other posts the roles do not name are found by :class:`~feedsift.metadata.dom.OtherPosts`.
_ELSEWHERE = (1 << Role.RELATED) | (1 << Role.COMMENT)
#: Containers that hold the whole page, not one post.
PAGE_BOX_TAGS = frozenset({"html", "body", "main"})
#: Table cells hold data (a table of monthly prices dated 1/1/2013, 2/1/2013, ...), not the
#: post's date line: a date shown there never overrides a declared one.
DATA_CELL_TAGS = frozenset({"td", "th"})
#: Tags whose text is a date line by markup (``<time>`` without ``datetime``).
DATE_TAGS = frozenset({"time"})
#: How a date line under a post begins: the next post's card prints a bare date there, so
#: below the body only a line that says what the date is counts.
POSTED_LINE = re.compile(
    r"^\s*(?:posted|published|updated|last updated|last modified|written|publié|mis à jour|"
    r"veröffentlicht|aktualisiert|publicado|actualizado|pubblicato|aggiornato)\b",
    re.IGNORECASE,
)
#: Attributes in which a line that reads "3 hours ago" keeps its exact time (Hacker News'
#: and Stack Exchange's ``title``, GitHub's ``<relative-time datetime>``) ...
TIME_ATTRIBUTES = ("datetime", "title")
#: ... read only when they hold an ISO date (a ``title`` is mostly a tooltip in words:
#: :data:`~feedsift.metadata.dates.ISO_DATE_START`) ...
#: ... on the first elements of the line's owner (a short line's owner is small).
ATTRIBUTE_ELEMENTS = 12


#: Reads a block's date (with whether it is an update) given its role mask.
_LineReader = Callable[[TextBlock, int], "tuple[datetime, bool] | None"]


@dataclass(frozen=True, slots=True)
class DateAnchors:
    """Where the post is on the page: its title block and its body's first and last blocks
    (-1 when unknown)."""

    title: int
    first: int = -1
    last: int = -1

    @property
    def start(self) -> int:
        return self.title if self.title >= 0 else self.first


def _window(signals: PageSignals, start: int) -> range:
    if start < 0:
        return range(0, min(signals.n, max(1, int(signals.n * LEADING_SHARE))))
    return range(max(0, start - BEFORE_TITLE), min(signals.n, start + AFTER_TITLE + 1))


def _windows(view: BlockView, signals: PageSignals, anchors: DateAnchors) -> list[int]:
    """The blocks around the title block, then those around the body's first block and
    around the page's first ``<h1>`` not seen yet (a title taken from a heading inside the
    body leaves the date line above it, under the page's own heading)."""
    order = list(_window(signals, anchors.start))
    seen = set(order)
    heading = next((i for i, block in enumerate(view.blocks) if block.tag == "h1"), -1)
    for anchor in (anchors.first if anchors.title >= 0 else -1, heading):
        if anchor >= 0:
            order += [i for i in _window(signals, anchor) if i not in seen]
            seen.update(order)
    return order


def _date_line(block: TextBlock, roles: int) -> bool:
    """Whether a short block is a date or byline line: marked meta, in ``<time>``, shaped
    like a byline, or a few words only."""
    if _marked_date_line(block, roles):
        return True
    text = block.text
    return bool(BYLINE_START.match(text)) or opens_with_date_word(text) or block.n_words <= 6


def _elsewhere(
    view: BlockView, signals: PageSignals, others: OtherPosts, block: TextBlock, at: int
) -> bool:
    """Whether ``block`` sits in a related-posts box or a comment that does not also hold
    the post's block ``at``, or in another box of other posts (``others``)."""
    inherited = signals.roles.inherited
    shared = int(inherited[view.blocks[at].subtree]) if at >= 0 else 0
    return bool(int(inherited[block.subtree]) & _ELSEWHERE & ~shared) or others.hold(
        block.element
    )


def _other_posts(view: BlockView, anchors: DateAnchors) -> OtherPosts:
    """The boxes of other posts, short of those holding the title or the body."""
    held = (anchors.title, anchors.first, anchors.last)
    posts = [view.blocks[i].element for i in held if i >= 0]
    root = view.blocks[0].element.getroottree().getroot() if view.blocks else None
    return OtherPosts.around(root, posts)


def date_near_title(view: BlockView, signals: PageSignals, anchors: DateAnchors) -> datetime | None:
    """The first plausible date of a short date or byline line around the title block (or
    the body's start), else of a "Posted on ..." line just under the body, else an update
    date near the title ("Last updated on ..." yields to a publication date); never one
    inside a related-posts box, a comment or another box of other posts."""
    others = _other_posts(view, anchors)
    update = None
    for found, is_update in _dates_near_title(view, signals, anchors, _line_date, others):
        if not is_update:
            return found
        update = update or found
    under = _date_under_body(view, signals, anchors, others)
    return under or _labelled_date(view, signals, others, anchors.start) or update


def _labelled_date(
    view: BlockView, signals: PageSignals, others: OtherPosts, at: int
) -> datetime | None:
    """The date in the block just after a label block that says what it is ("Published"
    then "Feb 2, 2023": a sidebar's or a ``<dl>``'s pair of lines), anywhere on the page
    but in other posts and comments; a label that says "Updated" does not count."""
    blocks = view.blocks
    for i in range(len(blocks) - 1):
        label = blocks[i]
        if label.n_words > LABEL_MAX_WORDS or not opens_with_date_word(label.text):
            continue
        value = blocks[i + 1]
        if value.n_words > MAX_WORDS or introduces_update(label.text) or dated(label.text):
            continue
        found = dated(value.text, OPENING_CHARS)
        if found is not None and not _elsewhere(view, signals, others, value, at):
            return found[0]
    return None


def shown_date_line(
    view: BlockView, signals: PageSignals, anchors: DateAnchors
) -> datetime | None:
    """The first publication date written in the text of a date line near the title (the
    date a reader sees under the headline): not an update, not a time kept only in an
    attribute behind "3 hours ago", not a table cell, not another post's or a comment's."""
    dates = _dates_near_title(view, signals, anchors, _written_outside_cells)
    return next((found for found, is_update in dates if not is_update), None)


def _dates_near_title(
    view: BlockView, signals: PageSignals, anchors: DateAnchors, read: _LineReader,
    others: OtherPosts | None = None,
) -> Iterator[tuple[datetime, bool]]:  # fmt: skip
    """The dates ``read`` finds in the blocks around the title, in :func:`_windows` order,
    with whether each is an update; none in other posts or comments (whose boxes are found
    only once a line shows a date, when ``others`` is not given: most lines show none)."""
    near = signals.roles.near
    for i in _windows(view, signals, anchors):
        block = view.blocks[i]
        found = read(block, int(near[block.subtree]))
        if found is None:
            continue
        if others is None:
            others = _other_posts(view, anchors)
        if not _elsewhere(view, signals, others, block, anchors.start):
            yield found


def writes_day(view: BlockView, moment: datetime) -> bool:
    """Whether any block of the page writes the calendar day of ``moment`` (give or take
    a time zone's day or a day/month swap: :func:`~feedsift.metadata.dates.same_day_loosely`)."""
    years = tuple(str(moment.year + step) for step in (-1, 0, 1))  # every date writes one
    return any(
        same_day_loosely(moment, found)
        for block in view.blocks
        if any(year in block.text for year in years)
        for found in written_dates(block.text)
    )


def _line_date(block: TextBlock, roles: int) -> tuple[datetime, bool] | None:
    """A date line's date (written, else kept in an attribute), or the date a longer block
    opens with or shows in a ``<time>``; with whether the line says it is an update."""
    found = _written_date(block, roles)
    if found is None:
        kept = _attribute_date(block)
        found = (kept, introduces_update(block.text)) if kept is not None else None
    return found


def _written_outside_cells(block: TextBlock, roles: int) -> tuple[datetime, bool] | None:
    """:func:`_written_date`, except in a table cell (:data:`DATA_CELL_TAGS`)."""
    return None if block.tag in DATA_CELL_TAGS else _written_date(block, roles)


def _written_date(block: TextBlock, roles: int) -> tuple[datetime, bool] | None:
    """The date a date line writes, or the date a longer block opens with or shows in a
    ``<time>``; with whether the line says it is an update."""
    if block.n_words > MAX_WORDS:
        return dated(block.text, OPENING_CHARS) or _time_text_date(block)
    if _date_line(block, roles):
        return dated(block.text)
    return dated(block.text, OPENING_CHARS) or _time_text_date(block)


def _time_text_date(block: TextBlock) -> tuple[datetime, bool] | None:
    """The date written in a ``<time>`` of the block's own line (not of a block inside it)."""
    for time in islice(block.element.iter(*DATE_TAGS), MAX_TIMES):
        if time is block.element or not _inline_in(time, block.element):
            continue
        shown = spaced_text_of(time)
        found = dated(shown)
        if found is not None:
            at = max(0, block.text.find(shown))
            before = block.text[max(0, at - INTRO_CHARS) : at]
            return found[0], found[1] or introduces_update(before)
    return None


def _inline_in(element: etree._Element, block: etree._Element) -> bool:
    """Whether only inline elements stand between ``element`` and its ``block``."""
    for holder in element.iterancestors():
        if holder is block:
            return True
        if holder.tag not in INLINE_TAGS:
            return False
    return False


def _attribute_date(block: TextBlock) -> datetime | None:
    """The exact time a date line keeps in an attribute of its elements ("3 hours ago"
    shown, ``title="2023-12-26T23:14:12"`` kept)."""
    for element in islice(block.element.iter(), ATTRIBUTE_ELEMENTS):
        for name in TIME_ATTRIBUTES:
            value = element.get(name)
            if value and ISO_DATE_START.match(value):
                found = parse_datetime(value)
                if found is not None:
                    return found
    return None


def _date_under_body(
    view: BlockView, signals: PageSignals, anchors: DateAnchors, others: OtherPosts
) -> datetime | None:
    """The date of a "Posted on ..." line just under the body, or of a date line marked as
    such (a ``<time>``, a meta class) inside the post's own container."""
    if anchors.last < 0:
        return None
    post = _post_container(view, anchors)
    start = max(anchors.start + 1, anchors.last - BODY_TAIL + 1)
    for i in range(start, min(signals.n, anchors.last + AFTER_BODY + 1)):
        block = view.blocks[i]
        if block.n_words > MAX_WORDS or _elsewhere(view, signals, others, block, anchors.last):
            continue
        found = _under_body_date(block, int(signals.roles.near[block.subtree]), post)
        if found is not None:
            return found
    return None


def _under_body_date(
    block: TextBlock, roles: int, post: etree._Element | None
) -> datetime | None:
    """A line under the body that says what its date is, or, inside the post's container,
    a marked date line or a line that shows its date in a ``<time>``."""
    if POSTED_LINE.match(block.text):
        return find_text_date(block.text)
    if not _inside(block.element, post):
        return None
    if _marked_date_line(block, roles):
        return find_text_date(block.text)
    shown = _time_text_date(block)
    return shown[0] if shown is not None else None


def _marked_date_line(block: TextBlock, roles: int) -> bool:
    return bool(roles & _META) or block.tag in DATE_TAGS or block.element.tag in DATE_TAGS


def _post_container(view: BlockView, anchors: DateAnchors) -> etree._Element | None:
    """The innermost element holding both the post's title (or first) block and its last
    block, unless that is the whole page (``<body>``, ``<main>``): the post's own box, whose
    footer carries its date, where the next post's card does not."""
    top = anchors.start if anchors.start >= 0 else anchors.first
    if top < 0 or anchors.last < 0:
        return None
    above = set(view.blocks[top].element.iterancestors())
    for holder in view.blocks[anchors.last].element.iterancestors():
        if holder in above:
            return None if holder.tag in PAGE_BOX_TAGS else holder
    return None


def _inside(element: etree._Element, box: etree._Element | None) -> bool:
    return box is not None and any(holder is box for holder in element.iterancestors())

"""Feed item values made ready to be looked for in their page.

The paper cleans every property value first ("removing any HTML construct which might be
left in the feed"); dates are rendered in the formats pages write (its future work);
title and content packed into one property are told apart; comment feeds are recognised
and left out (their items point to posts, but their values are comments).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime

import lxml.html
from lxml import etree

from feedsift.records import FeedItem, FeedSample
from feedsift.text.tokens import normalize_space

__all__ = [
    "COMMENT_FEED_MARKERS",
    "ELLIPSES",
    "ItemValues",
    "clean_value",
    "date_renderings",
    "has_values",
    "is_comment_feed",
    "item_values",
]

#: What feeds end a truncated excerpt with: removed before matching (the page has no such).
ELLIPSES = ("[…]", "[...]", "…", "...", "(more…)", "Read more", "Continue reading")
#: Feed and item title starts that mark a comment feed (WordPress, Blogger, Disqus wording).
COMMENT_FEED_MARKERS = ("comments on", "comments for", "comment on", "comments:", "kommentare zu")
#: Share of a comment feed's items whose title must start with a marker (or "By:").
COMMENT_ITEM_SHARE = 0.5

_MONTHS = ("January February March April May June July August September October November "
           "December").split()  # fmt: skip


@dataclass(frozen=True, slots=True)
class ItemValues:
    """One feed item's property values as plain text, ready to be found in its page."""

    url: str
    title: str
    content: str  #: content:encoded when the feed has it, else the description
    truncated: bool  #: the content is an excerpt (shorter than the page's body)
    authors: tuple[str, ...]
    published: datetime | None
    tags: tuple[str, ...]
    ellipsis: bool = False  #: the feed's text ended in one of :data:`ELLIPSES` (cut off)


def clean_value(value: str | None) -> str:
    """``value`` without markup, entities decoded, whitespace collapsed."""
    if not value:
        return ""
    if "<" not in value or ">" not in value:
        return normalize_space(html.unescape(value))
    try:
        fragment = lxml.html.fragment_fromstring(value, create_parent="div")
        etree.strip_elements(fragment, "script", "style", with_tail=False)
        value = " ".join(fragment.itertext())
    except (etree.ParserError, ValueError):
        value = html.unescape(re.sub(r"<[^>]*>", " ", value))
    return normalize_space(value)


def _strip_ellipsis(text: str) -> tuple[str, bool]:
    for marker in ELLIPSES:
        if text.endswith(marker):
            return text[: -len(marker)].rstrip(), True
    return text, False


def item_values(entry: FeedItem) -> ItemValues | None:
    """The item's values, or ``None`` when it has no link or no title and no content."""
    if not entry.url:
        return None
    title = clean_value(entry.title)
    content, cut = _strip_ellipsis(clean_value(entry.content or entry.description))
    if title and content.startswith(title) and len(content) > len(title):
        content = content[len(title) :].lstrip(" :-–—|")  # title and content packed together
    if not title and not content:
        return None
    return ItemValues(entry.url, title, content, cut or not entry.content, entry.authors,
                      entry.published, tuple(clean_value(t) for t in entry.tags if t),
                      ellipsis=cut)  # fmt: skip


def has_values(entry: FeedItem) -> bool:
    """Whether :func:`item_values` gives the item values (not ``None``), its content cleaned
    only when its title is empty: the cleaning parses the content's markup."""
    if not entry.url:
        return False
    if clean_value(entry.title):
        return True
    return bool(_strip_ellipsis(clean_value(entry.content or entry.description))[0])


def date_renderings(moment: datetime) -> tuple[str, ...]:
    """``moment``'s calendar day the ways pages write it (ISO first)."""
    day, month, year = moment.day, moment.month, moment.year
    name = _MONTHS[month - 1]
    nth = f"{day}{_ordinal(day)}"
    return (
        f"{name} {nth}, {year}", f"{name[:3]} {nth}, {year}", f"{nth} {name} {year}",
        f"{nth} of {name} {year}",
        f"{year:04d}-{month:02d}-{day:02d}", f"{name} {day}, {year}", f"{name[:3]} {day}, {year}",
        f"{day} {name} {year}", f"{day:02d} {name[:3]} {year}", f"{day} {name[:3]} {year}",
        f"{year}/{month:02d}/{day:02d}", f"{day:02d}.{month:02d}.{year}", f"{day}.{month}.{year}",
        f"{month:02d}/{day:02d}/{year}", f"{year}年{month}月{day}日", f"{year}. {month}. {day}.",
        f"{year}-{month}-{day}", f"{name} {day:02d}, {year}", f"{year}年{month:02d}月{day:02d}日",
        f"{year}.{month:02d}.{day:02d}",
    )  # fmt: skip


def _ordinal(day: int) -> str:
    if day in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def is_comment_feed(feed: FeedSample) -> bool:
    """A feed of comments: its title says so, or most item titles do."""
    title = (feed.title or "").casefold()
    if title.startswith(COMMENT_FEED_MARKERS) or "/comments/" in feed.url:
        return True
    titles = [e.title.casefold().strip() for e in feed.items]
    marked = sum(t.startswith(COMMENT_FEED_MARKERS) or t.startswith("by:") for t in titles)
    return bool(titles) and marked / len(titles) >= COMMENT_ITEM_SHARE

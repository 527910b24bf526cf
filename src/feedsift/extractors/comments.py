"""Reader comments, kept apart from the body.

Comment blocks are those the block classifier left out that sit inside an element whose
class, id or tag says "comment" (``#comments``, ``.comment-list``, ``#disqus_thread`` ...),
minus the comment form and the short link-only controls ("Reply", "Permalink"). A comment
is the comment-marked element that repeats among its siblings (``li.comment`` in
``ol.comment-list``: same tag, same first class word or id stem); a line that counts the
comments ("{ 2 comments... read them below or add one }") is none. The author is the text of the
comment's name element (``.fn``, ``cite``, ``.comment-author``), its date the ``<time>``
or date element in it; the short header lines that carry them are not text. Themes that
write a comment as two siblings, a header of name and date and then the text (Thesis:
``dt.comment`` and ``dd.comment``), give one comment: a header without text lends its
author and date to the text after it. Blogger's older templates write a
``dt.comment-author`` header ("Ann said..."), a ``dd.comment-body`` and a
``dd.comment-footer`` of date: the body takes the name from the header before it; the
newer ones date a comment in ``span.datetime``. Older themes write the list without class
words inside an element named for it (TrekMovie's ``div#comments`` > ``dl`` of
``dt``/``dd``): the items of such a list are the comments, a ``dt`` line "1. William Kirk -
August 8, 2012" their header.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from itertools import islice

import numpy as np
from lxml import etree

from feedsift.extractors.roles import class_roles
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import TAXONOMY_CLASS, Role
from feedsift.metadata.dates import parse_datetime
from feedsift.metadata.textdates import find_text_date
from feedsift.parsing.blocks import BlockView
from feedsift.parsing.xpath import select_elements
from feedsift.records import Comment
from feedsift.text.tokens import normalize_space

__all__ = ["comment_list_blocks", "find_comments"]

_COMMENT = 1 << Role.COMMENT
_FORM = 1 << Role.FORM
#: Blocks at most this long that are mostly link text are controls, not comment text.
CONTROL_MAX_WORDS = 4
#: Longest name (in words) taken as a comment's author.
AUTHOR_MAX_WORDS = 5
#: Longest header line ("Ann on 3 May 2024 at 10:02") dropped with the author's name.
HEADER_MAX_WORDS = 14
#: Where comment templates put the commenter's name (``comment_author`` in older themes),
#: the comment element itself included when it is the name's header (Blogger's
#: ``dt.comment-author``; a class word, so WordPress' ``li.comment-author-admin`` is not).
AUTHOR_HEADER_XPATH = etree.XPath(
    "self::*[contains(concat(' ', normalize-space(@class), ' '), ' comment-author ')]"
)
AUTHOR_XPATH = etree.XPath(
    f"{AUTHOR_HEADER_XPATH.path} | .//*[contains(concat(' ', normalize-space(@class), ' '), ' fn ')"
    " or contains(translate(@class, '_', '-'), 'comment-author')"
    " or contains(@class, 'author-name') or self::cite]"
)
#: What themes write after the name ("Ann says:", "Ann said...").
AUTHOR_SUFFIX = re.compile(r"\s+(?:says|said|wrote|sagt|schreibt|dit)\W*$", re.IGNORECASE)
#: Where they put its date: a ``<time>`` first, else an element named for the date.
TIME_XPATH = etree.XPath(".//time")
DATE_XPATH = etree.XPath(
    ".//*[contains(translate(@class, '_', '-'), 'comment-time')"
    " or contains(translate(@class, '_', '-'), 'comment-date')"
    " or contains(translate(@class, '_', '-'), 'comment-meta')"
    " or contains(@class, 'commentmetadata')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' datetime ')]"  # Blogger's
)
#: A line that counts the comments ("2 comments", "{ 2 comments... read them below }",
#: "One response to ...", "12 thoughts on ..."): a header, never a comment.
COUNT_LINE = re.compile(
    r"^\W*(?:\d+|no|one|two|three)\s+(?:comments?|responses?|replies|reply|thoughts?"
    r"|kommentare?|commentaires?|comentarios?)\b",
    re.IGNORECASE,
)
#: A numeric date ("07.21.12", "21/07/2012"), read only when one of the first two numbers
#: can only be the day (above 12); an ambiguous one ("03.04.12") is left unread.
NUMERIC_DATE = re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})\b")
#: Two-digit years are this century's (the comments of the data are from 2000 on).
CENTURY = 2000
#: Ids and class words that name a whole list of comments: only such an element holds a
#: list whose items carry no class words (a word inside a longer name, XenForo's
#: ``js-replyNewMessageContainer`` around a forum thread's posts, is no such name).
COMMENT_LIST_NAMES = frozenset({
    "comments", "commentlist", "comment-list", "comments-list", "commentslist", "comments-area",
})  # fmt: skip
#: Tags of the items of a list of comments written without class words (Thesis' ``dl`` of
#: ``dt``/``dd`` pairs, a bare ``ol`` of ``li``) ...
LIST_ITEM_TAGS = ("li", "dt", "dd", "article")
#: ... of which a comment-marked element holds at least this many under one parent ...
MIN_LISTED = 2
#: ... among its first items of those tags (a list of 500 comments is known by its first).
LIST_ITEMS_READ = 8
#: The line of a bare list's ``dt``: a number, the commenter's name, a dash and the date.
BARE_HEADER = re.compile(r"^\W*\d*\.?\s*(?P<name>[^-–—|·]+?)\s+[-–—|·]\s+(?P<date>.+)$")
#: Digits in an id: ``comment-203747`` and ``comment-203755`` share the stem ``comment-``.
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class _Draft:
    """One comment element's text lines, author and date, before headers are joined."""

    lines: tuple[str, ...]
    author: str | None
    published: datetime | None


def _sibling_key(element: etree._Element) -> tuple[str, str]:
    """Tag and first class word (else id without digits): what repeated comments share."""
    classes = (element.get("class") or "").split()
    stem = classes[0] if classes else _DIGITS.sub("", element.get("id") or "")
    return str(element.tag), stem


class _CommentItems:
    """The comment element of each subtree of one page, found once: a page of 500 comments
    asked every block's ancestors whether they repeat among 500 siblings (8 ms a Dragnet
    page); sibling keys are now counted once per parent and each subtree's answer kept."""

    def __init__(self, view: BlockView, signals: PageSignals) -> None:
        self.view, self.signals = view, signals
        self._siblings: dict[etree._Element, Counter[tuple[str, str]]] = {}
        self._items: dict[int, int] = {}
        self._lists: dict[etree._Element, bool] = {}
        self._listed: set[int] = set()

    def repeats(self, element: etree._Element) -> bool:
        """Whether a sibling has the same tag and class word (one of a list of comments)."""
        parent = element.getparent()
        if parent is None:
            return False
        counts = self._siblings.get(parent)  # the key keeps the parent's proxy alive
        if counts is None:
            counts = self._siblings[parent] = Counter(map(_sibling_key, parent))
        key = _sibling_key(element)
        return bool(key[1]) and counts[key] > 1

    def holds_list(self, element: etree._Element) -> bool:
        """Whether a comment-marked element that does not repeat is named a list of comments
        (:data:`COMMENT_LIST_NAMES`) and holds one written without class words
        (``div#comments`` > ``dl`` of ``dt``/``dd`` pairs, a bare ``ol`` of ``li``), unless
        it also holds the page's ``<h1>`` (then it is the post)."""
        found = self._lists.get(element)
        if found is None:
            found = self._lists[element] = _holds_list(element)
        return found

    def item_of(self, block: int) -> int:
        """The comment a block belongs to: the innermost repeated comment element, else the
        innermost comment element (-1 when none)."""
        start = self.view.blocks[block].subtree
        found = self._items.get(start)
        if found is None:
            found = self._items[start] = self._walk_up(start)
        return found

    def listed(self, item: int) -> bool:
        """Whether ``item`` is an item of a list named a list of comments (:meth:`holds_list`)."""
        return item in self._listed

    def _walk_up(self, current: int) -> int:
        first, listed = -1, -1
        while current >= 0:
            element = self.view.subtrees[current].element
            if self.signals.roles.own[current] & _COMMENT and _named_comment(element):
                if self.repeats(element):
                    return current
                if listed >= 0 and self.holds_list(element):
                    self._listed.add(listed)
                    return listed
                first = current if first < 0 else first
            elif element.tag in LIST_ITEM_TAGS:
                listed = current  # the outermost list item under the comments so far
            current = self.view.subtrees[current].parent
        return first


def _named_comment(element: etree._Element) -> bool:
    """Whether an element's comment role outlasts its taxonomy class names
    (:data:`~feedsift.extractors.vocabulary.TAXONOMY_CLASS`): a post classed
    ``category-kommentar`` is a commentary column, not a comment, and Elementor's layout
    repeats its class word among the page's sections as a list of comments would."""
    classes = element.get("class") or ""
    if TAXONOMY_CLASS.search(classes) is None:
        return True
    left = TAXONOMY_CLASS.sub(" ", classes)
    return bool(class_roles(f"{left} {element.get('id') or ''}") & _COMMENT)


def _holds_list(element: etree._Element) -> bool:
    names = {element.get("id") or "", *(element.get("class") or "").split()}
    if not names & COMMENT_LIST_NAMES or next(element.iter("h1"), None) is not None:
        return False
    for item in islice(element.iter(*LIST_ITEM_TAGS), LIST_ITEMS_READ):
        parent = item.getparent()
        if parent is not None and sum(1 for _ in parent.iterchildren(item.tag)) >= MIN_LISTED:
            return True
    return False


def _is_comment_text(view: BlockView, signals: PageSignals, block: int) -> bool:
    if signals.marker[block] or COUNT_LINE.match(view.blocks[block].text):
        return False
    return not (signals.words[block] <= CONTROL_MAX_WORDS and signals.link[block] >= 0.5)


def comment_list_blocks(view: BlockView, signals: PageSignals) -> np.ndarray:
    """The blocks inside a list of comments: a comment-marked element that repeats among
    its siblings (``li.comment`` in ``ol.comment-list``), as a mask over the blocks. On an
    article they are comments whatever the block classifier said: a single element with a
    comment class word (a ``div.commentary`` around a column) is not a list and stays."""
    mask = np.zeros(signals.n, dtype=bool)
    if not signals.n:
        return mask
    inherited = signals.roles.inherited[signals.owner]
    items = _CommentItems(view, signals)
    for block in np.flatnonzero((inherited & _COMMENT) > 0):
        item = items.item_of(int(block))
        if item >= 0:
            element = view.subtrees[item].element
            mask[block] = (items.listed(item) or items.repeats(element)
                           or items.holds_list(element))  # fmt: skip
    return mask


def find_comments(
    view: BlockView, signals: PageSignals, kept: np.ndarray, title: int
) -> tuple[Comment, ...]:
    """The comments of a page, in document order."""
    inherited = signals.roles.inherited[signals.owner]
    candidate = ((inherited & _COMMENT) > 0) & ((inherited & _FORM) == 0) & ~kept
    groups: dict[int, list[int]] = {}
    items = _CommentItems(view, signals)
    for block in (int(b) for b in np.flatnonzero(candidate)):
        if block != title and _is_comment_text(view, signals, block):
            item = items.item_of(block)
            if item >= 0:  # else its comment role came from a post's category alone
                groups.setdefault(item, []).append(block)
    return _joined([_draft(view, item, blocks) for item, blocks in groups.items()])


def _joined(drafts: list[_Draft]) -> tuple[Comment, ...]:
    """Comments from drafts. A draft of header lines only is no comment: with a name it
    heads the next comment (Thesis' ``dt``); a date alone closes the previous one when that
    has none (Blogger's footer), else it heads the next."""
    comments: list[Comment] = []
    header: _Draft | None = None
    for draft in drafts:
        if draft.lines:
            if header is not None:
                draft = replace(draft, author=draft.author or header.author,
                                published=draft.published or header.published)  # fmt: skip
            comments.append(Comment("\n".join(draft.lines), draft.author, draft.published))
            header = None
        elif draft.author is None and comments and comments[-1].published is None:
            comments[-1] = replace(comments[-1], published=draft.published)
        elif draft.author or draft.published:
            header = draft
    return tuple(comments)


def _author(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    for node in select_elements(AUTHOR_XPATH, element):
        name = AUTHOR_SUFFIX.sub("", normalize_space("".join(str(t) for t in node.itertext())))
        if name and len(name.split()) <= AUTHOR_MAX_WORDS:
            return name
    return None


def _header_author(element: etree._Element | None) -> str | None:
    """The name in the author header just before a comment that names no one (Blogger's
    ``dt.comment-author`` before its ``dd.comment-body``: a name-and-link line such as
    "MangoWhirl said..." reads as a control, so the header often has no block of its own)."""
    header = None if element is None else element.getprevious()
    if header is None or not AUTHOR_HEADER_XPATH(header):
        return None
    return _author(header)


def _published(element: etree._Element | None) -> tuple[datetime | None, str | None]:
    """The comment's date and the text that writes it (``None``s when it shows none)."""
    if element is None:
        return None, None
    for node in select_elements(TIME_XPATH, element) + select_elements(DATE_XPATH, element):
        text = normalize_space("".join(str(t) for t in node.itertext()))
        attribute = node.get("datetime") or node.get("title") or ""
        found = parse_datetime(attribute) if attribute else None
        found = found or (find_text_date(text) if text else None) or _numeric_date(text)
        if found is not None or (text and len(text.split()) <= HEADER_MAX_WORDS):
            return found, text or None
    return None, None


def _numeric_date(text: str) -> datetime | None:
    """A day written in numbers whose order only one reading allows (see NUMERIC_DATE)."""
    match = NUMERIC_DATE.search(text)
    if match is None:
        return None
    first, second, year = (int(group) for group in match.groups())
    if (first > 12) == (second > 12):
        return None  # ambiguous, or no date at all
    month, day = (second, first) if first > 12 else (first, second)
    try:
        return datetime(year + CENTURY if year < 100 else year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def _draft(view: BlockView, item: int, blocks: list[int]) -> _Draft:
    element = view.subtrees[item].element if item >= 0 else None
    author = _author(element) or _header_author(element)
    published, written = _published(element)
    header = _bare_header(element) if author is None and written is None else None
    if header is not None:
        return header
    lines = tuple(
        view.blocks[b].text for b in blocks
        if not _header_line(view.blocks[b].text, view.blocks[b].n_words, author, written)
    )  # fmt: skip
    return _Draft(lines, author, published)


def _bare_header(element: etree._Element | None) -> _Draft | None:
    """The name and date of a bare list's ``dt`` ("1. William Kirk - August 8, 2012"), a
    header that lends them to the ``dd`` after it."""
    if element is None or element.tag != "dt":
        return None
    text = normalize_space("".join(str(t) for t in element.itertext()))
    match = BARE_HEADER.match(text)
    if match is None or len(text.split()) > HEADER_MAX_WORDS:
        return None
    name = match.group("name")
    author = name if len(name.split()) <= AUTHOR_MAX_WORDS else None
    return _Draft((), author, find_text_date(match.group("date")))


def _header_line(text: str, words: int, author: str | None, written: str | None) -> bool:
    """A short line that starts with the author's name or is the comment's date."""
    if words > HEADER_MAX_WORDS:
        return False
    return bool(author and text.startswith(author)) or bool(written and text == written)

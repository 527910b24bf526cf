"""Path finding: where each property of a feed item is in the page the item links to.

The paper's section III-D, with the choices it leaves open made here:

* **Matching by words.** Values and page are compared as token sequences
  (:mod:`~feedsift.templates.textindex`), only inside ``<body>`` (the ``<title>`` in the
  head repeats the post title: the paper's blog heuristic). Whether the ``<title>`` says
  the item's title word for word is recorded apart: when it does on every item, the
  ``<title>`` is the feed's own title field (the learner reads titles from it).
* **Shrinking.** The content value is shortened word by word from its end until it occurs
  in the page (a binary search: occurring is monotone in the prefix length), down to
  :data:`MIN_CONTENT_TOKENS`; titles down to :data:`MIN_TITLE_SHARE` of their words.
* **Multiple matches.** Content: the occurrence whose container holds the most text (a
  sidebar teaser of the same post holds little). Title, author, date: the candidate whose
  path shares the longest prefix with the content path (dependency resolution), headings
  first for titles.
* **Generalising.** The content node is lifted above inline and paragraph-level elements
  (:data:`LIFTED_TAGS`, the paper's ``p`` and ``section`` and their kin) to the container
  that holds the whole body. A title's node is the smallest element holding the whole
  title, so a title split over a heading and a subtitle ends at their header group.
* **Dates** are looked for as a ``<time datetime>`` of the item's day first, then as the
  day written in the usual formats (the paper's future work), the day before and after
  too (feeds write UTC, pages local time).
* **Not another post's date**: a date inside a related-posts box or a comment (by the
  class and id words of its ancestors) is taken only when no other candidate exists, for
  the item's day or the days around it.
* **Avoided paths**: the learner may name paths that find the same values on every page
  of the site (a menu, a footer); their nodes are no candidates.
* **Tags**: one path per tag (an element whose whole text is the tag: a mention inside a
  paragraph is not one), then the paths of the tags that share an element-name sequence
  merged (the paper's future work: separate paths merged, stray matches left out).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from lxml import etree

from feedsift.extractors.roles import class_roles
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.page import ParsedPage
from feedsift.templates.apply import head_title_text
from feedsift.templates.feedvalues import ItemValues, date_renderings
from feedsift.templates.paths import KeyPath, PathNode, find, merge, path_of, shared_prefix
from feedsift.templates.textindex import PageText, Span, value_tokens

__all__ = [
    "HEADING_TAGS",
    "LIFTED_TAGS",
    "MIN_CONTENT_TOKENS",
    "MIN_TITLE_SHARE",
    "ItemPaths",
    "find_item_paths",
]

#: A content prefix shorter than this occurs in pages by chance ("in this post we").
MIN_CONTENT_TOKENS = 6
#: Least share of a title's leading words that must be found in order (a feed may add a
#: suffix, such as the site's name; a prefix is not looked for).
MIN_TITLE_SHARE = 0.7
#: Elements a content match is lifted above: parts of a body, never the body's container.
LIFTED_TAGS = frozenset(
    "p section span em strong b i u a font small big sup sub mark code pre kbd samp q cite "
    "blockquote li ul ol dl dt dd figure figcaption img picture h1 h2 h3 h4 h5 h6 hr br "
    "table thead tbody tfoot tr td th caption details summary abbr time".split()
)
#: Title candidates in these elements win ties (the post title is a heading).
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
#: Elements whose attributes a path does not keep (page-specific classes live there).
LOOSE_TAGS = frozenset({"html", "body"})
#: Tokens of a written date ("December 11th 2023"), for judging date candidates.
DATE_TOKENS = 3
#: A candidate node is *tight* when its text is at most this many times the value's.
TIGHT = 3
#: Most occurrences of a short value looked at (an author's name may be everywhere).
MAX_CANDIDATES = 40
#: Class/id roles of boxes whose dates belong to another post (a related-post card) or to
#: a reader (a comment): a date there is the item's only when nothing else is.
ELSEWHERE_ROLES = (1 << Role.RELATED) | (1 << Role.COMMENT)
#: Class/id roles of navigation (menus, breadcrumbs): its links lose a tie for the tags.
NAVIGATION_ROLES = 1 << Role.NAV


@dataclass(frozen=True, slots=True)
class ItemPaths:
    """The paths of one item's properties in its page (``None``: not found)."""

    url: str
    title: KeyPath | None
    content: KeyPath | None
    author: KeyPath | None
    date: KeyPath | None
    tags: KeyPath | None
    title_in_head: bool = False  #: the page's ``<title>`` says exactly the item's title

    def get(self, name: str) -> KeyPath | None:
        value: KeyPath | None = getattr(self, name)
        return value


@dataclass(frozen=True, slots=True)
class _Context:
    """One page being searched: its text index and the content found so far."""

    page: ParsedPage
    text: PageText
    content: etree._Element | None
    content_path: KeyPath | None
    avoided: frozenset[etree._Element] = frozenset()  #: nodes of the avoided paths


def find_item_paths(
    values: ItemValues,
    page: ParsedPage,
    avoid: tuple[KeyPath, ...] = (),
    *,
    text: PageText | None = None,
) -> ItemPaths:
    """Every property of ``values`` located in ``page`` as a path; nodes the ``avoid``
    paths find (and what they hold) are no candidates for title, author, date or tags.
    ``text``: the page's text index (``PageText(page.body)``) when the caller has it, so
    that a second search of the same page does not build it again."""
    text = text if text is not None else PageText(page.body)
    content = _find_content(text, values.content)
    avoided = frozenset(node for path in avoid for node in find(page.root, path))
    context = _Context(page, text, content, _path(content), avoided)
    title = _find_title(context, values.title)
    author = _find_short(context, values.authors[0]) if values.authors else None
    date = _find_date(context, values)
    return ItemPaths(values.url, _path(title), context.content_path, _path(author),
                     _path(date), _find_tags(context, values.tags),
                     _head_title_is(page, values.title))  # fmt: skip


def _head_title_is(page: ParsedPage, value: str) -> bool:
    """Whether the ``<title>`` holds the feed's title word for word (no site name added)."""
    tokens = value_tokens(value)
    return bool(tokens) and value_tokens(head_title_text(page) or "") == tokens


def _path(element: etree._Element | None) -> KeyPath | None:
    """The element's path, without the attributes of ``html`` and ``body``: themes put
    per-page classes there (``postid-123``, ``layout--single wide``), which would make the
    path miss the site's other posts."""
    if element is None:
        return None
    path = path_of(element)
    nodes = tuple(PathNode(node.tag) if node.tag in LOOSE_TAGS else node for node in path.nodes)
    return KeyPath(nodes, path.absolute)


# -- content -------------------------------------------------------------------------------


def _find_content(text: PageText, value: str) -> etree._Element | None:
    tokens = value_tokens(value)
    length = text.longest_prefix(tokens, MIN_CONTENT_TOKENS)
    if not length:
        return None
    holders = [text.deepest(p, length) for p in text.occurrences(tokens[:length], MAX_CANDIDATES)]
    lifted = [_lift(span.element) for span in holders if span is not None]
    if not lifted:
        return None
    return max(lifted, key=lambda element: _size(text, element))


def _lift(element: etree._Element) -> etree._Element:
    """Up from a paragraph-level match to the container of the whole body: above the
    :data:`LIFTED_TAGS`, and above a ``div`` with no id or class (a path to it tells a
    post's body from the page's other such divs by nothing; the property nodes found in
    the container are taken out of the body when it is extracted)."""
    while element.tag in LIFTED_TAGS or _anonymous_div(element):
        parent = element.getparent()
        if parent is None or parent.tag == "body":
            break
        element = parent
    return element


def _anonymous_div(element: etree._Element) -> bool:
    return element.tag == "div" and not element.get("id") and not element.get("class")


def _size(text: PageText, element: etree._Element) -> int:
    span = text.span_of(element)
    return 0 if span is None else span.end - span.start


# -- title, author ------------------------------------------------------------------------


def _find_title(context: _Context, value: str) -> etree._Element | None:
    tokens = value_tokens(value)
    if not tokens:
        return None
    least = max(1, math.ceil(len(tokens) * MIN_TITLE_SHARE))
    length = context.text.longest_prefix(tokens, least)
    if not length:
        return None
    spans = _holders(context, tokens[:length])
    return _closest(context, spans, length, prefer=HEADING_TAGS)


def _find_short(context: _Context, value: str) -> etree._Element | None:
    """A short value (an author's name) found whole."""
    tokens = value_tokens(value)
    if not tokens:
        return None
    return _closest(context, _holders(context, tokens), len(tokens))


def _holders(context: _Context, tokens: tuple[str, ...]) -> list[Span]:
    spans = []
    for position in context.text.occurrences(tokens, MAX_CANDIDATES):
        span = context.text.deepest(position, len(tokens))
        if span is not None and not _avoided(context, span.element):
            spans.append(span)
    return spans


def _avoided(context: _Context, element: etree._Element) -> bool:
    """Whether ``element`` is or is inside a node of an avoided path."""
    if not context.avoided:
        return False
    return element in context.avoided or any(
        parent in context.avoided for parent in element.iterancestors()
    )


def _closest(
    context: _Context,
    spans: Iterable[Span],
    length: int,
    prefer: tuple[str, ...] = (),
    tight: bool = True,
) -> etree._Element | None:
    """The best candidate node that does not hold the content node, by in order: in a
    ``prefer``red tag; outside the content (a body may repeat its title as a heading);
    holding little else than the value (:data:`TIGHT`, unless ``tight`` is off: a date
    line often carries a reading time too, while a heading in the body may be a date);
    sharing most of the content path (dependency resolution); first in the document."""
    best, best_key = None, None
    for span in spans:
        if _holds_content(context, span.element):
            continue  # a property's node never holds the whole body
        key = (span.element.tag in prefer, not _inside_content(context, span.element),
               tight and _tight(span, length), _shared(context, span.element),
               -span.start)  # fmt: skip
        if best_key is None or key > best_key:
            best, best_key = span.element, key
    return best


def _holds_content(context: _Context, element: etree._Element) -> bool:
    content = context.content
    return content is not None and (element is content or element in content.iterancestors())


def _inside_content(context: _Context, element: etree._Element) -> bool:
    content = context.content
    return content is not None and content in element.iterancestors()


def _tight(span: Span, length: int) -> bool:
    """Whether the node's text is mostly the value (a byline, not a paragraph naming it)."""
    return span.end - span.start <= TIGHT * max(1, length)


def _shared(context: _Context, element: etree._Element) -> int:
    if context.content_path is None:
        return 0
    return shared_prefix(path_of(element), context.content_path)  # tags only: attrs ignored


# -- dates --------------------------------------------------------------------------------


def _find_date(context: _Context, values: ItemValues) -> etree._Element | None:
    """The item's day (or the day before or after) as a ``<time datetime>``, else written
    out; a candidate in a related-posts box or a comment only when there is no other."""
    if values.published is None:
        return None
    fallback = None
    for shift in (0, -1, 1):
        day = values.published + timedelta(days=shift)
        for finder in (_time_spans, _written_spans):
            candidates = finder(context, day)
            own = [span for span in candidates if not _elsewhere(span.element)]
            found = _closest(context, own, DATE_TOKENS, tight=False)
            if found is not None:
                return found
            if fallback is None:
                fallback = _closest(context, candidates, DATE_TOKENS, tight=False)
    return fallback


def _time_spans(context: _Context, day: datetime) -> list[Span]:
    """``<time>`` elements whose ``datetime`` is on ``day``."""
    iso_day, spans = day.strftime("%Y-%m-%d"), []
    for element in context.page.body.iter("time"):
        if (element.get("datetime") or "").startswith(iso_day) and not _avoided(context, element):
            span = context.text.span_of(element)
            if span is not None:
                spans.append(span)
    return spans


def _written_spans(context: _Context, day: datetime) -> list[Span]:
    """Nodes that write ``day`` out in one of the usual formats."""
    return [s for r in date_renderings(day) for s in _holders(context, value_tokens(r))]


def _elsewhere(element: etree._Element) -> bool:
    """Whether ``element`` sits in a related-posts box or a comment (class and id words;
    not those of ``html`` and ``body``, where themes write ``comments-open``)."""
    for node in (element, *element.iterancestors()):
        if node.tag in LOOSE_TAGS:
            break
        if _roles(node) & ELSEWHERE_ROLES:
            return True
    return False


# -- tags ---------------------------------------------------------------------------------


def _find_tags(context: _Context, tags: tuple[str, ...]) -> KeyPath | None:
    """One merged path over the elements that hold exactly one of the tags: those of the
    shape most tags have, a shape outside navigation first on a tie (a breadcrumb shows
    the post's first category too)."""
    found: list[tuple[KeyPath, etree._Element]] = []
    for tag in tags:
        tokens = value_tokens(tag)
        exact = [s for s in _holders(context, tokens) if s.end - s.start == len(tokens)]
        found.extend((p, s.element) for s in exact[:3] if (p := _path(s.element)) is not None)
    if not found:
        return None
    shapes = Counter(_shape(path) for path, _ in found)
    navigation = {_shape(path) for path, element in found if _in_navigation(element)}
    shape = max(shapes, key=lambda shape: (shapes[shape], shape not in navigation))
    merged: KeyPath | None = None
    for path in (p for p, _ in found if _shape(p) == shape):
        merged = path if merged is None else merge(merged, path) or merged
    return merged


def _in_navigation(element: etree._Element) -> bool:
    """Whether an ancestor is a ``<nav>`` or named for navigation (``breadcrumb``, ``menu``)."""
    for node in element.iterancestors():
        if node.tag in LOOSE_TAGS:
            break
        if node.tag == "nav" or _roles(node) & NAVIGATION_ROLES:
            return True
    return False


def _roles(node: etree._Element) -> int:
    classes, ident = node.get("class"), node.get("id")
    return class_roles(f"{classes or ''} {ident or ''}") if classes or ident else 0


def _shape(path: KeyPath) -> tuple[str, ...]:
    return tuple(node.tag for node in path.nodes)

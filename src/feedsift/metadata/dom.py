"""Clues from the document itself: ``<title>``, ``<h1>``, ``<html lang>``, ``<time>``,
``rel=author`` / ``rel=tag`` anchors, bylines found by their class or id, and the site's
name from a link to its front page that the ``<title>`` confirms.

The byline search walks the body once more, so ``read_metadata`` runs it only when no
structured source named an author.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from urllib.parse import urljoin, urlsplit

from lxml import etree

from feedsift.extractors.vocabulary import CLASS_VOCABULARY, Role
from feedsift.metadata.record import Clue
from feedsift.metadata.scan import MarkupIndex, elements, spaced_text_of, text_of
from feedsift.metadata.textdates import INTRO_CHARS, find_text_date, introduces_update
from feedsift.metadata.titles import TITLE_SEPARATORS
from feedsift.metadata.values import base_url, resolve_url, site_host

__all__ = [
    "BYLINE_MARKS",
    "HOME_HREF",
    "HOME_MENU_WORDS",
    "MAX_H1",
    "NAME_MARKS",
    "OtherPosts",
    "byline_clues",
    "document_clues",
    "front_page_names",
    "home_link_clues",
    "linked_headings",
    "time_clues",
]

#: The first few ``<h1>`` are title candidates; later ones are teasers and widgets.
MAX_H1 = 3

#: An ``href`` that points at a site's front page: ``/``, ``./``, ``/index.html``, a bare
#: ``scheme://host/`` (hosts are compared with the page's), a language's front page
#: (``/en/``), or an ``index.html`` up the folders (``../index.html``, ``../../index.html``: the
#: documentation root of a static site, whose generators write every link relative).
HOME_HREF = re.compile(
    r"(?:(?:https?:)?//[^/?#\s]+)?/(?:[a-z]{2}(?:[-_][a-z]{2,4})?/)?(?:index\.html?)?"
    r"|\./|(?:https?:)?//[^/?#\s]+|(?:\.\./)+index\.html?",
    re.IGNORECASE,
)

#: A front page's path: the root, a language's root (``/en/``), their ``index.html``. A
#: relative ``./`` points at the front page only from a page in such a folder: on a docs
#: page (``/latest/concepts/models/``) it is the page itself, not the site's home.
FRONT_PATH = re.compile(r"/(?:[a-z]{2}(?:[-_][a-z]{2,4})?/)?(?:index\.html?)?", re.IGNORECASE)

#: Front-page link texts that are menu entries, never a site's name (a front page titled
#: "Home | Retypeset" must not be named "Home").
HOME_MENU_WORDS = frozenset({
    "home", "homepage", "start", "startseite", "accueil", "inicio", "início", "home page",
    "blog", "index", "首页", "主页", "首頁", "ホーム", "トップ", "홈",
})  # fmt: skip

#: ``<time>`` class/id words that mark a publication or an update date.
PUBLISHED_TIME_WORDS = ("publish", "posted", "created", "pubdate", "date-pub")
UPDATED_TIME_WORDS = ("update", "modif", "edited")
#: Class/id words of a comment's container (the block stage's vocabulary): a time inside
#: one is a reader's, not the post's (``<abbr class="date" title="...">`` on every reply of a
#: comment thread). Whole lower-cased words only: split at camelCase, a forum's
#: ``compositionConsumerAndRepliesContainer`` around its opening post would name replies.
COMMENT_WORDS = CLASS_VOCABULARY[Role.COMMENT]
#: Class/id words of a box that lists other posts (related posts, a "Recent posts" list, the
#: previous/next links): a date inside one is another post's. Only words that say so: the
#: looser ones of the related and navigation roles ("more", "also", "featured", "toc")
#: turn up in utility classes around a post's own date line.
OTHER_POSTS_WORDS = frozenset({
    "related", "recommend", "recommended", "recommendations", "similar", "yarpp",
    "recirculation", "popular", "trending", "mostread", "recent", "blogroll", "prev",
    "previous", "next", "pagination", "pager", "paging", "nav", "navigation", "postnav",
})  # fmt: skip
#: Sidebar words: a sidebar may be the post's own meta column (``single-post-sidebar``), so it
#: is a box of other posts only when it shows several dates.
SIDEBAR_WORDS = frozenset({"sidebar", "sidebar1", "sidebar2", "aside"})
#: Dates a sidebar shows when it lists posts.
SIDEBAR_DATES = 2
_WORDS = re.compile(r"[a-z]+")
#: A box of other posts holds less than this share of the page's text: a marked element that
#: holds more is a layout wrapper around the post (``has-sidebar``, ``page-has-toc``).
MAX_OTHER_POSTS_SHARE = 0.5
#: Containers whose classes are not read for it (a body class says what the page allows:
#: WordPress writes ``comments-open`` there).
_PAGE_TAGS = frozenset({"html", "body"})
#: ... nor for a box of other posts (the page's ``<main>`` holds its post).
_NOT_BOX_TAGS = _PAGE_TAGS | {"main"}

#: hCard names (``.vcard .fn``): the last resort. The ``vcard`` classes are found through
#: the attribute axis (0.29 against 0.48 ms a page for a test on every element).
_VCARD_NAMES = etree.XPath(
    "descendant::*/@class[contains(concat(' ', ., ' '), ' vcard ')]/../descendant::*[@class='fn']"
)

#: Class/id words naming the author's name itself: tier 1, the most specific.
NAME_MARKS = (
    "author-name", "authorname", "author__name", "author_name", "byline__name",
    "byline-name", "byline__author", "byline-author", "author-link", "author__link",
)  # fmt: skip
#: Class/id words of a byline or author box (tier 2; a name child inside is preferred).
BYLINE_MARKS = ("byline", "author", "writer", "autor")
#: Any of the byline words (a Python scan of class/id beats XPath ``contains`` here).
_BYLINE_WORD = re.compile("|".join(BYLINE_MARKS))

#: Class/id words of author-ish boxes that are not a byline (bios, avatars, comment authors).
NOT_BYLINE_WORDS = ("comment", "bio", "avatar", "image", "img", "photo", "description", "about")

#: Bylines longer than this are author boxes or paragraphs, not a byline.
MAX_BYLINE_CHARS = 120

#: Children of a byline box holding the name itself.
_NAME_CHILD = etree.XPath(
    ".//*[@rel='author' or @itemprop='name' or contains(@class, 'name') or contains(@class, 'fn')]"
)


def document_clues(root: etree._Element, index: MarkupIndex) -> list[Clue]:
    """Title, headings, language, ``rel=author`` and ``rel=tag`` from the document."""
    clues = []
    if index.title is not None:
        text = text_of(index.title)
        if text:
            clues.append(Clue("title", text, "title-tag", "title"))
    for h1 in index.h1s[:MAX_H1]:
        text = spaced_text_of(h1)  # "Cosmetic Packaging<br>Design": two words, not one
        if text:
            clues.append(Clue("title", text, "dom", "h1"))
    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    if lang:
        clues.append(Clue("language", lang, "dom", "html[lang]"))
    clues.extend(_anchor_clues(index))
    return clues


def linked_headings(index: MarkupIndex, page_url: str | None) -> tuple[str, ...]:
    """The texts of the title-candidate ``<h1>`` that are wholly a link to another page than
    ``page_url``: a site's logo or another post's teaser, not this page's headline (none
    when the address is unknown)."""
    if not page_url:
        return ()
    base = base_url(page_url, index.base_href)
    found = (spaced_text_of(h1) for h1 in index.h1s[:MAX_H1]
             if _links_elsewhere(h1, page_url, base))  # fmt: skip
    return tuple(text for text in found if text)


def _links_elsewhere(h1: etree._Element, page_url: str, base: str | None) -> bool:
    """Whether the heading is wholly a link (inside one, or holding one with all its text)
    to a web page other than ``page_url`` (host and path compared; a fragment is this page)."""
    anchor = next(h1.iterancestors("a"), None)
    if anchor is None:
        text = text_of(h1)
        anchor = next((a for a in h1.iter("a") if text and text_of(a) == text), None)
    target = resolve_url(anchor.get("href") or "", base) if anchor is not None else None
    return target is not None and _page_key(target) != _page_key(page_url)


def _page_key(url: str) -> tuple[str, str]:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ("", url)
    return (site_host(url), parts.path.rstrip("/"))


def home_link_clues(index: MarkupIndex, names: Sequence[str]) -> list[Clue]:
    """The site's name from a link to its front page, when the ``<title>`` confirms it.

    A logo or name link (``<a href="/">Retypeset</a>``) names the site; the name is kept
    only when the ``<title>`` begins or ends with it at a separator ("Post | Retypeset"),
    so menu links ("Home") never count. ``names`` are :func:`front_page_names`' ones, read
    once per page by the caller (the title ranker reads them too).
    """
    if index.title is None:
        return []
    parts = TITLE_SEPARATORS.split(text_of(index.title))
    if len(parts) < 2:
        return []
    ends = {parts[0].strip().casefold(), parts[-1].strip().casefold()}
    for name in names:
        if name.casefold() in ends:
            return [Clue("site_name", name, "dom", "home-link")]
    return []


def front_page_names(index: MarkupIndex, page_url: str | None) -> Iterator[str]:
    """What the page's links to its own front page say (their text, their logo's ``alt``),
    menu words ("Home") left out. An absolute link to the front page of a host other than
    the page's (or its ``<base>``'s) is not this site's."""
    own = {site_host(url) for url in (page_url, index.base_href)} - {""}
    here_is_front = _in_front_folder(index.base_href or page_url)
    for anchor, href in _home_links(index.anchors):
        host = site_host(href)
        if (host and own and host not in own) or (href.startswith("./") and not here_is_front):
            continue
        for name in _anchor_names(anchor):
            if name.casefold() not in HOME_MENU_WORDS:
                yield name


def _in_front_folder(url: str | None) -> bool:
    """Whether ``./`` from ``url`` is a front page (``True`` when the address is unknown)."""
    if not url:
        return True
    try:
        return FRONT_PATH.fullmatch(urlsplit(urljoin(url, "./")).path or "/") is not None
    except ValueError:
        return False


def _home_links(anchors: tuple[etree._Element, ...]) -> Iterator[tuple[etree._Element, str]]:
    for anchor in anchors:
        href = (anchor.get("href") or "").strip()
        if href and HOME_HREF.fullmatch(href):
            yield anchor, href


def _anchor_names(anchor: etree._Element) -> Iterator[str]:
    """What a link says: its text, then the ``alt`` of its images (a logo)."""
    text = text_of(anchor)
    if text:
        yield text
    for image in anchor.iter("img"):
        alt = (image.get("alt") or "").strip()
        if alt:
            yield alt


def _anchor_clues(index: MarkupIndex) -> Iterator[Clue]:
    for anchor in index.author_links:
        text = text_of(anchor)
        if text:
            yield Clue("authors", text, "dom", "a[rel=author]")
    for anchor in index.tag_links:
        text = text_of(anchor)
        if text:
            yield Clue("tags", text, "dom", "a[rel=tag]")


def time_clues(root: etree._Element, index: MarkupIndex) -> list[Clue]:
    """``<time datetime>`` values (and ``<abbr title>`` dates): marked publication times
    first, then the first time; never a comment's or one in a box of other posts. A time
    whose words say it is an update ("Updated <time>") is an update, and the publication
    time only when the page has no other."""
    marked: list[Clue] = []
    plain: list[Clue] = []
    said_updated: list[Clue] = []
    others = OtherPosts.around(root, index.h1s[:1])
    for time in index.times:
        value = (time.get("datetime") or time.get("pubdate") or "").strip()
        if time.tag == "abbr":
            value = (time.get("title") or "").strip()
        if not value or _in_comment(time) or others.hold(time):
            continue
        kind = _time_kind(time)
        if kind == "plain":
            plain.append(Clue("published", value, "dom", "time"))
            continue
        if kind == "pubdate":
            marked.append(Clue("published", value, "dom", "time[pubdate]"))
            continue
        marked.append(Clue("updated", value, "dom", "time[updated]"))
        if kind == "said":
            said_updated.append(Clue("published", value, "dom", "time"))
    return marked + (plain + said_updated)[:1]


def _time_kind(time: etree._Element) -> str:
    """``pubdate`` (marked as the publication), ``updated`` (marked as an update), ``said``
    (the words before it say it is an update) or ``plain``."""
    parent = time.getparent()
    parent_class = parent.get("class", "") if parent is not None else ""
    words = f"{time.get('class', '')} {time.get('id', '')} {parent_class}".lower()
    if time.get("pubdate") is not None or any(w in words for w in PUBLISHED_TIME_WORDS):
        return "pubdate"
    if any(w in words for w in UPDATED_TIME_WORDS):
        return "updated"
    return "said" if _said_updated(time) else "plain"


def _said_updated(time: etree._Element) -> bool:
    """Whether the words just before a time, or its own text, say it is an update
    ("Updated <time>", ``<span>Last modified:</span> <time>``)."""
    parent = time.getparent()
    if parent is None:
        return introduces_update(time.text or "")
    before = [parent.text or ""]
    for sibling in parent:
        if sibling is time:
            break
        before.extend((*map(str, sibling.itertext()), sibling.tail or ""))
    before.append(time.text or "")
    return introduces_update("".join(before)[-INTRO_CHARS:])


def _in_comment(element: etree._Element) -> bool:
    """Whether ``element`` sits in an element whose class or id names a comment."""
    for holder in element.iterancestors():
        if holder.tag in _PAGE_TAGS:
            return False
        if not COMMENT_WORDS.isdisjoint(_class_words(holder)):
            return True
    return False


def _class_words(element: etree._Element) -> set[str]:
    marks = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
    return set(_WORDS.findall(marks)) if marks.strip() else set()


class OtherPosts:
    """The boxes of other posts on one page (:data:`OTHER_POSTS_WORDS`, a ``<nav>``, a
    sidebar that shows dates), short of the page's ``<main>``, of the elements that hold the
    post itself and of the layout wrappers that hold most of the page's text."""

    def __init__(self, root: etree._Element | None, post: Iterable[etree._Element]) -> None:
        self._root = root
        self._post = frozenset(post)
        self._page_chars = -1
        self._boxes: dict[etree._Element, bool] = {}

    @classmethod
    def around(
        cls, root: etree._Element | None, anchors: Iterable[etree._Element]
    ) -> OtherPosts:
        """The boxes of a page whose post holds the ``anchors`` (its title, its body)."""
        return cls(root, (e for anchor in anchors for e in anchor.iterancestors()))

    def hold(self, element: etree._Element) -> bool:
        """Whether ``element`` is or sits in a box of other posts."""
        for holder in itertools.chain((element,), element.iterancestors()):
            if holder.tag in _NOT_BOX_TAGS or holder in self._post:
                return False
            if self._is_box(holder):
                return True
        return False

    def _is_box(self, holder: etree._Element) -> bool:
        known = self._boxes.get(holder)
        if known is None:
            known = _marked_box(holder) and _chars(holder) < MAX_OTHER_POSTS_SHARE * self._page()
            self._boxes[holder] = known
        return known

    def _page(self) -> int:
        if self._page_chars < 0:
            self._page_chars = _chars(self._root) if self._root is not None else 0
        return self._page_chars


def _marked_box(holder: etree._Element) -> bool:
    """Whether ``holder``'s tag or class/id words say it lists other posts."""
    words = _class_words(holder)
    if holder.tag == "nav" or not OTHER_POSTS_WORDS.isdisjoint(words):
        return True
    return not SIDEBAR_WORDS.isdisjoint(words) and _shows_dates(holder, SIDEBAR_DATES)


def _shows_dates(holder: etree._Element, enough: int) -> bool:
    """Whether ``holder`` shows at least ``enough`` dates (``<time>`` or written dates)."""
    found = 0
    for element in holder.iter():
        text = element.text or ""
        if element.tag == "time" or (text.strip() and find_text_date(text) is not None):
            found += 1
            if found >= enough:
                return True
    return False


def _chars(element: etree._Element) -> int:
    return sum(len(text.strip()) for text in element.itertext())


def byline_clues(body: etree._Element, accept: Callable[[str], bool]) -> list[Clue]:
    """Author names from the first accepted byline of the most specific tier that has one.

    Tier 1 marks the name itself, tier 2 a byline box, tier 3 an hCard name. Other bylines
    of the winning tier that share the first one's parent or grandparent (several authors
    in one byline) are kept too; bylines elsewhere belong to other articles.
    """
    for number, found in enumerate(_byline_tiers(body), 1):
        names = _first_byline(found, accept)
        if names:
            return [Clue("authors", name, "dom", f"byline:{number}") for name in names]
    return []


def _first_byline(found: list[etree._Element], accept: Callable[[str], bool]) -> list[str]:
    """Texts of the first accepted byline and of the later ones beside it."""
    for number, element in enumerate(found):
        text = _byline_text(element)
        if text and accept(text):
            homes = _homes(element)
            beside = (e for e in found[number + 1 :] if _homes(e) & homes)
            return [text, *(t for e in beside if (t := _byline_text(e)) and accept(t))]
    return []


def _byline_tiers(body: etree._Element) -> Iterator[list[etree._Element]]:
    """Elements marked as a name, then as a byline box (one walk), then hCard names.

    The walk is ``iter()`` with attribute reads in Python: a third cheaper than an XPath
    selecting the elements with a class or an id (0.36 against 0.50 ms a page, measured).
    """
    names: list[etree._Element] = []
    boxes: list[etree._Element] = []
    for element in itertools.islice(body.iter(), 1, None):  # the descendants
        classes, ident = element.get("class"), element.get("id")
        if classes is None and ident is None:
            continue
        marks = f" {classes or ''} {ident or ''} ".lower()
        if _BYLINE_WORD.search(marks) is None or any(w in marks for w in NOT_BYLINE_WORDS):
            continue
        is_name = " author " in marks or any(word in marks for word in NAME_MARKS)
        (names if is_name else boxes).append(element)
    yield names
    yield boxes
    yield elements(_VCARD_NAMES, body)


def _homes(element: etree._Element) -> set[etree._Element]:
    parent = element.getparent()
    grandparent = parent.getparent() if parent is not None else None
    return {e for e in (parent, grandparent) if e is not None}


def _byline_text(element: etree._Element) -> str | None:
    names = [n for n in elements(_NAME_CHILD, element) if n is not element]
    text = spaced_text_of(names[0] if names else element)
    return text if 0 < len(text) <= MAX_BYLINE_CHARS else None

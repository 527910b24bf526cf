"""Listing pages: home, archive, tag and category pages that announce several posts.

The template-independent paper extracts pages with several posts by finding titles that
share one style, with bodies sandwiched between them. Here a *teaser title* is a short,
mostly-linked block pointing to another page of the same site, outside navigation,
headers, footers and sidebars; teaser titles are grouped by their style signature (owner
tag and class, parent tag and class). Each teaser's *item* is the child of the group's
common ancestor that holds it, so items are siblings of one list.

A page is a listing when one group has enough distinct, title-length members and the
text the block classifier kept lies mostly inside the items: an article with a list of
"related posts" keeps its body outside the list, a listing keeps only teasers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urljoin

import numpy as np
from lxml import etree

from feedsift.extractors.kinds import ListingEvidence
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.blocks import BlockView, TextBlock
from feedsift.parsing.xpath import select_elements
from feedsift.records import Teaser

__all__ = [
    "STRICT_RULES",
    "URL_RULES",
    "Listing",
    "ListingRules",
    "PageFindings",
    "TeaserList",
    "find_listing",
    "listing_rules",
    "teaser_list",
    "url_says_listing",
]

#: URL paths of listing pages on blog platforms (WordPress, Blogger, Hugo, Jekyll, Hexo,
#: Pelican, Ghost): tag, category, archive, topic and label pages and paginated lists.
LISTING_PATH = re.compile(
    r"(?:^|/)(?:tags?|categor(?:y|ies)|topics?|labels?|series)(?:/[^/]+)?/?(?:index\.html?)?$"
    r"|(?:^|/)archives?(?:/\d{4}(?:/\d{1,2})?)?(?:/|/index\.html?|\.html?)?$"
    r"|(?:^|/)(?:posts|blog|articles|notes|writings?)/?(?:index\.html?)?$"
    r"|/page/?\d+/?(?:index\.html?)?$|[?&](?:page|paged|tag|cat)=",
    re.IGNORECASE,
)
#: Link targets that are files or feeds, never posts.
NOT_A_POST = re.compile(
    r"\.(?:xml|rss|atom|json|pdf|zip|gz|png|jpe?g|gif|svg|webp|mp3|mp4)(?:[?#].*)?$"
    r"|/(?:feed|rss|atom)/?(?:[?#].*)?$",
    re.IGNORECASE,
)
#: Path and query of an URL (RFC 3986, appendix B; what ``urlsplit`` gives, a regex faster).
_URL_PARTS = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?(?://[^/?#]*)?([^?#]*)(?:\?([^#]*))?")
#: Paths of a site's home page (the newest posts).
HOME_PATH = re.compile(r"^/?(?:[a-z]{2}(?:-[a-z]{2})?/?)?(?:index\.html?)?$", re.IGNORECASE)
#: Share of a teaser title block's text that must be link text.
TITLE_MIN_LINK_SHARE = 0.6
#: Teaser titles have at most this many words.
TITLE_MAX_WORDS = 40
#: Class/id roles near a title (its element and two ancestors) that mark site furniture.
#: Menus are never lists of posts, whatever the URL says.
MENU_ROLES = 1 << Role.NAV
MENU_TAGS = frozenset({"nav", "menu"})
FURNITURE_ROLES = (
    MENU_ROLES
    | (1 << Role.FOOTER)
    | (1 << Role.SIDEBAR)
    | (1 << Role.RELATED)
    | (1 << Role.COMMENT)
    | (1 << Role.AD)
)
#: Tags above a title that mark site furniture (``header`` and ``footer`` are not among
#: them: themes wrap post titles in ``<header>`` and post meta in ``<footer>``) ...
FURNITURE_TAGS = frozenset({"nav", "aside", "menu"})
#: ... unless an element of content comes first (``article > header > h2`` is a post title).
CONTENT_TAGS = frozenset({"article", "main"})
#: Kept text inside the teaser items must reach this share of all kept text ...
MIN_KEPT_SHARE_IN_ITEMS = 0.5
#: ... unless the kept text outside the items is at most this many words (an intro).
MAX_INTRO_WORDS = 120
#: The teaser items must hold this share of the words of the best body subtree (or of
#: the list, when the body subtree lies inside it): the list *is* the page's main content.
MIN_ITEMS_SHARE_OF_BODY = 0.5
#: How far up from a block an enclosing link (a card wrapped in ``<a>``) is looked for.
CARD_LINK_DEPTH = 4
#: Headings that can be the title of a card linked by an empty overlay ``<a>``.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4"})
_EMPTY_LINKS = etree.XPath(".//a[@href][not(normalize-space())]")
#: Without a listing URL, a list is taken for the page's content only when the kept text
#: before its first item is at most this long: articles open with their text, listings
#: with their list.
MAX_KEPT_WORDS_BEFORE_LIST = 30
#: Without a listing URL, at least this share of the items must hold more than a title.
MIN_RICH_ITEM_SHARE = 0.5
#: An item with more words than this multiple of the median item is a page section that
#: happens to start with a link, not a teaser.
MAX_ITEM_TO_MEDIAN = 4.0
#: A teaser title opens its item: at most this many blocks (date, category) come before it.
MAX_BLOCKS_BEFORE_TITLE = 3
#: A lone teaser's item never grows into these page-level containers.
ITEM_STOP_TAGS = frozenset({"body", "main", "html"})


@dataclass(frozen=True, slots=True)
class ListingRules:
    """How much evidence a list of links needs to be taken for a listing of posts."""

    min_teasers: int  #: distinct teaser links
    min_title_words: int  #: words of each teaser title
    min_mean_title_words: float  #: below it a group of links is a menu
    list_is_body: bool  #: the items must weigh like the best body subtree
    post_like: bool  #: the list must open the content and items carry more than a title
    furniture_allowed: bool  #: lists in sidebars count (ranked after the others)


#: Without a word from the URL: three teasers (two could be an article and its "next
#: post"), real titles, the list is the content and looks like posts.
STRICT_RULES = ListingRules(3, 2, 4.0, list_is_body=True, post_like=True, furniture_allowed=False)
#: When the URL is a home, tag, category, archive or page-N address: a tag page may list a
#: single post with a one-word title, next to a larger tag description.
#: Some themes even put the newest post in an ``<aside id="featured">``.
URL_RULES = ListingRules(1, 1, 1.0, list_is_body=False, post_like=False, furniture_allowed=True)


@dataclass(frozen=True, slots=True)
class Listing:
    """The teasers of a listing page and the blocks their items span."""

    teasers: tuple[Teaser, ...]
    item_blocks: np.ndarray  #: boolean mask of blocks inside the teaser items
    teaser_blocks: np.ndarray  #: boolean mask of the items' titles and teaser texts

    def text_blocks(self, kept: np.ndarray) -> np.ndarray:
        """The blocks of the listing's text: what the block stage kept outside the items
        (an introduction) and each item's title and teaser, in document order."""
        shown: np.ndarray = (kept & ~self.item_blocks) | self.teaser_blocks
        return shown


def _href(block: TextBlock) -> str | None:
    """The target of the link that makes up the block (inside it, or wrapping it)."""
    element: etree._Element | None = block.element
    for anchor in block.element.iter("a"):  # the owner is never an ``a`` itself
        href = anchor.get("href")
        if href is not None:
            return href
    for _ in range(CARD_LINK_DEPTH):
        if element is None:
            return None
        if element.tag == "a" and element.get("href"):
            return element.get("href")
        element = element.getparent()
    return None


def _host(url: str) -> str:
    """The host part of an absolute or protocol-relative URL ("" for a relative one)."""
    if "//" not in url:
        return ""
    return url.split("//", 1)[1].split("/", 1)[0].rpartition("@")[2].lower()


class _Overlays:
    """The empty overlay links of a page (``<a href>`` without text), found once: for each
    element above one, the first such link below it in document order."""

    def __init__(self, root: etree._Element) -> None:
        self._first: dict[etree._Element, str | None] = {}
        for anchor in select_elements(_EMPTY_LINKS, root):
            for above in anchor.iterancestors():
                self._first.setdefault(above, anchor.get("href"))

    def href(self, block: TextBlock) -> str | None:
        """The target of a card whose link is an empty overlay ``<a>`` next to its heading
        (Hugo PaperMod and other themes link the whole card, not the title)."""
        element: etree._Element | None = block.element.getparent()
        for _ in range(CARD_LINK_DEPTH):
            if element is None or element.tag in ("body", "main"):
                return None
            if element in self._first:
                return self._first[element]
            element = element.getparent()
        return None


class _Targets:
    """Where a page's links lead, each ``href`` resolved once (pages repeat their links)."""

    def __init__(self, page_url: str | None) -> None:
        self.page_url = page_url
        self.page_host = _host(page_url or "")
        self.page_key = (page_url or "").split("#")[0].rstrip("/")
        self._seen: dict[str, tuple[str | None, bool]] = {}

    def target(self, href: str | None) -> tuple[str | None, bool]:
        """The absolute same-site URL a teaser links to (``None`` for anything else), and
        whether that URL is itself a listing's."""
        if not href:
            return None, False
        found = self._seen.get(href)
        if found is None:
            url = self._resolve(href)
            found = self._seen[href] = (url, url_says_listing(url))
        return found

    def _resolve(self, href: str) -> str | None:
        if href.startswith(("#", "javascript:", "mailto:")) or NOT_A_POST.search(href):
            return None
        host, page_url = _host(href), self.page_url
        if host and page_url and host != self.page_host:
            return None  # another site (or, for a host-less page address, surely not this one)
        try:
            url = urljoin(page_url, href) if page_url else href
        except ValueError:
            return None
        if page_url and url.split("#")[0].rstrip("/") == self.page_key:
            return None
        return url


def _menu(block: TextBlock, near_roles: int) -> bool:
    if near_roles & MENU_ROLES:
        return True
    return any(a.tag in MENU_TAGS for a in block.element.iterancestors())


def _furniture(block: TextBlock, near_roles: int) -> bool:
    if near_roles & FURNITURE_ROLES:
        return True
    element: etree._Element | None = block.element
    while element is not None:
        if element.tag in CONTENT_TAGS:
            return False
        if element.tag in FURNITURE_TAGS:
            return True
        element = element.getparent()
    return False


def _signature(block: TextBlock) -> tuple[str, ...]:
    element = block.element
    parent = element.getparent()
    parent_sig = (parent.tag, parent.get("class") or "") if parent is not None else ("", "")
    return (str(element.tag), element.get("class") or "", *map(str, parent_sig))


@dataclass(frozen=True, slots=True)
class _Title:
    block: int
    url: str
    to_listing: bool  #: the link leads to another listing (a tag page), not to a post
    furniture: bool  #: in navigation, a sidebar, a footer, a related-links box


def _candidate_groups(view: BlockView, rules: ListingRules) -> list[list[TextBlock]]:
    """Title-length blocks that are mostly link text or headings, by style signature, in
    groups that could still hold ``rules.min_teasers`` distinct links."""
    groups: dict[tuple[str, ...], list[TextBlock]] = {}
    for block in view.blocks:
        if not (rules.min_title_words <= block.n_words <= TITLE_MAX_WORDS):
            continue
        if block.link_share >= TITLE_MIN_LINK_SHARE or block.tag in HEADING_TAGS:
            groups.setdefault(_signature(block), []).append(block)
    return [g for g in groups.values() if len(g) >= rules.min_teasers]


def _title_groups(
    view: BlockView, near_roles: np.ndarray, page_url: str | None, rules: ListingRules
) -> list[list[_Title]]:
    """The teaser titles of each style group. Links are looked at only in groups large
    enough to qualify: resolving them is the costly part and most groups are small."""
    groups: list[list[_Title]] = []
    targets = _Targets(page_url)
    overlays: _Overlays | None = None
    for members in _candidate_groups(view, rules):
        titles = []
        for block in members:
            if block.link_share >= TITLE_MIN_LINK_SHARE:
                href = _href(block)
            else:
                overlays = overlays or _Overlays(block.element.getroottree().getroot())
                href = overlays.href(block)
            if href is None:
                continue
            roles = int(near_roles[block.subtree])
            furniture = _furniture(block, roles)
            if furniture and (not rules.furniture_allowed or _menu(block, roles)):
                continue
            url, to_listing = targets.target(href)
            if url is not None:
                titles.append(_Title(block.index, url, to_listing, furniture))
        groups.append(titles)
    return groups


def url_says_listing(url: str | None) -> bool:
    """Whether a page URL has the shape of a blog's home, archive, tag or category page."""
    parts = _URL_PARTS.match(url or "")
    if not url or parts is None:
        return False
    path, query = parts.group(1), parts.group(2)
    full = path + (f"?{query}" if query else "")
    home = HOME_PATH.match(path) and not query  # "/?p=123" is a WordPress post
    return bool(LISTING_PATH.search(full) or home)


def _qualifies(view: BlockView, titles: list[_Title], rules: ListingRules) -> bool:
    if len({t.url for t in titles}) < rules.min_teasers:
        return False
    mean_words = sum(view.blocks[t.block].n_words for t in titles) / len(titles)
    return mean_words >= rules.min_mean_title_words


def _best_group(view: BlockView, groups: list[list[_Title]], rules: ListingRules) -> list[_Title]:
    usable = [g for g in groups if g and _qualifies(view, g, rules)]
    return max(usable, key=_group_rank, default=[])


def _group_rank(titles: list[_Title]) -> tuple[int, int, int, int]:
    """Lists outside the furniture first, then links to posts (a tag page's post list
    beats its tag cloud), then size."""
    posts = [t for t in titles if not t.to_listing]
    in_content = sum(not t.furniture for t in posts)
    return in_content, len(posts), len(titles), -titles[0].block


def _ancestors(view: BlockView, subtree: int) -> list[int]:
    """``subtree`` and its ancestors, innermost first."""
    chain = []
    while subtree >= 0:
        chain.append(subtree)
        subtree = view.subtrees[subtree].parent
    return chain


def _single_item(view: BlockView, member: int) -> int:
    """The item of a lone teaser: its highest ancestor that still opens with the title."""
    chain = _ancestors(view, view.blocks[member].subtree)
    item = chain[0]
    for parent in chain[1:]:
        sub = view.subtrees[parent]
        if sub.tag in ITEM_STOP_TAGS or member - sub.first_block > MAX_BLOCKS_BEFORE_TITLE:
            break
        item = parent
    return item


def _item_subtrees(view: BlockView, members: Sequence[int]) -> list[int]:
    """Each teaser's item: the child of the members' common ancestor that holds it."""
    if len(members) == 1:
        return [_single_item(view, members[0])]
    chains = [_ancestors(view, view.blocks[m].subtree) for m in members]
    common = set(chains[0]).intersection(*chains[1:])
    items = []
    for chain in chains:
        below = [s for s in chain if s not in common]
        items.append(below[-1] if below else chain[0])
    return items


def _teaser_texts(view: BlockView, title: _Title, item: int) -> list[TextBlock]:
    """The blocks of an item that are its teaser: not the title, not mostly links."""
    sub = view.subtrees[item]
    return [
        b
        for b in view.blocks[sub.first_block : sub.last_block + 1]
        if b.index != title.block and b.link_share < TITLE_MIN_LINK_SHARE
    ]


def _teaser(view: BlockView, title: _Title, texts: list[TextBlock]) -> Teaser:
    text = "\n".join(b.text for b in texts)
    return Teaser(title=view.blocks[title.block].text, url=title.url, text=text)


def _looks_like_posts(
    view: BlockView, titles: list[_Title], items: list[int], kept_before: float
) -> bool:
    """Without a listing URL: the list opens the content, and most items carry more than
    their title (a date, a teaser): a bare column of links is a menu or a sidebar."""
    if kept_before > MAX_KEPT_WORDS_BEFORE_LIST:
        return False
    richer = sum(view.subtrees[item].last_block > view.subtrees[item].first_block for item in items)
    return richer >= MIN_RICH_ITEM_SHARE * len(titles)


def _mostly_inside(inside: np.ndarray, kept: np.ndarray, words: np.ndarray) -> bool:
    kept_words = float((words * kept).sum())
    outside = float((words * (kept & ~inside)).sum())
    if outside <= MAX_INTRO_WORDS:
        return True
    return (kept_words - outside) / kept_words >= MIN_KEPT_SHARE_IN_ITEMS


def _consistent_items(
    view: BlockView, titles: list[_Title], items: list[int]
) -> tuple[list[_Title], list[int]]:
    """Keep the teasers whose items hold them alone, look alike (one tag and class, no
    giant among them) and open with the title."""

    def signature(item: int) -> tuple[str, str]:
        element = view.subtrees[item].element
        return str(element.tag), element.get("class") or ""

    opening = [
        (t, i)
        for t, i in zip(titles, items, strict=True)
        if t.block - view.subtrees[i].first_block <= MAX_BLOCKS_BEFORE_TITLE
    ]
    if not opening:
        return [], []
    counts: dict[tuple[str, str], int] = {}
    for _, item in opening:
        counts[signature(item)] = counts.get(signature(item), 0) + 1
    common = max(counts, key=lambda k: counts[k])
    kept = [(t, i) for t, i in opening if signature(i) == common]
    median = float(np.median([view.subtrees[i].n_words for _, i in kept]))
    kept = [(t, i) for t, i in kept if view.subtrees[i].n_words <= MAX_ITEM_TO_MEDIAN * median]
    return [t for t, _ in kept], [i for _, i in kept]


def _list_is_body(view: BlockView, items: list[int], body: int) -> bool:
    """Whether the teaser items weigh as much as the best body subtree (or hold it).

    On a listing page the body subtree model, trained on articles, often picks one teaser
    or a header: what matters is that the list is not a minor part next to a real body.
    """
    if body < 0:
        return True
    best = view.subtrees[body]
    item_words = sum(view.subtrees[i].n_words for i in items)
    return item_words >= MIN_ITEMS_SHARE_OF_BODY * best.n_words


@dataclass(frozen=True, slots=True)
class PageFindings:
    """What the learned stages found, as the listing check needs it."""

    near_roles: np.ndarray  #: role masks of each subtree and its two ancestors
    kept: np.ndarray  #: blocks the block classifier kept
    words: np.ndarray  #: words per block
    body_subtree: int  #: the best body subtree candidate (-1 when none)


def listing_rules(url: str | None) -> ListingRules:
    """The rules for a page: lenient when its URL says it lists posts."""
    return URL_RULES if url_says_listing(url) else STRICT_RULES


@dataclass(frozen=True, slots=True)
class TeaserList:
    """The best group of teaser titles of a page and their items (empty when none)."""

    titles: tuple[_Title, ...] = ()
    items: tuple[int, ...] = ()  #: subtree of each title's item

    def evidence(self, view: BlockView) -> ListingEvidence:
        """How many teasers the list has and what share of the page's words they hold."""
        words = sum(view.subtrees[i].n_words for i in self.items)
        return ListingEvidence(len(self.titles), words / max(view.n_words, 1))


def teaser_list(view: BlockView, near_roles: np.ndarray, url: str | None) -> TeaserList:
    """The best group of teaser titles and their items under the page's rules."""
    rules = listing_rules(url)
    titles = _best_group(view, _title_groups(view, near_roles, url, rules), rules)
    if not titles:
        return TeaserList()
    titles, items = _consistent_items(view, titles, _item_subtrees(view, [t.block for t in titles]))
    if len({t.url for t in titles}) < rules.min_teasers:
        return TeaserList()
    return TeaserList(tuple(titles), tuple(items))


def _is_listing(
    view: BlockView, findings: PageFindings, teasers: tuple[list[_Title], list[int]],
    inside: np.ndarray, rules: ListingRules,
) -> bool:  # fmt: skip
    titles, items = teasers
    kept, words = findings.kept, findings.words
    if rules.list_is_body and not _list_is_body(view, items, findings.body_subtree):
        return False
    if not _mostly_inside(inside, kept, words):
        return False
    first = int(np.argmax(inside))
    kept_before = float((words[:first] * kept[:first]).sum())
    return not rules.post_like or _looks_like_posts(view, titles, items, kept_before)


def find_listing(
    view: BlockView, findings: PageFindings, url: str | None, found: TeaserList | None = None
) -> Listing | None:
    """The listing structure of a page, or ``None`` when the page is not a listing;
    ``found`` is the page's :func:`teaser_list` when the caller has it already."""
    rules = listing_rules(url)
    if found is None:
        found = teaser_list(view, findings.near_roles, url)
    titles, items = list(found.titles), list(found.items)
    if not titles:
        return None
    inside = np.zeros(len(view.blocks), dtype=bool)
    for item in items:
        sub = view.subtrees[item]
        inside[sub.first_block : sub.last_block + 1] = True
    if not _is_listing(view, findings, (titles, items), inside, rules):
        return None
    teasers, teaser_blocks = [], np.zeros(len(view.blocks), dtype=bool)
    for title, item in zip(titles, items, strict=True):
        texts = _teaser_texts(view, title, item)  # each item's teaser blocks, found once
        teaser_blocks[[title.block, *(b.index for b in texts)]] = True
        teasers.append(_teaser(view, title, texts))
    return Listing(tuple(teasers), inside, teaser_blocks)

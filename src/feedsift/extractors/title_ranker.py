"""The title string: a learned choice among every title-like string of the page.

The title block (title-finding paper) is one candidate; the metadata stage supplies the
others: JSON-LD headline, OpenGraph and Twitter titles, ``<h1>`` texts, the ``<title>``
and its parts around site separators. Candidates with the same text are merged; each gets
features saying where it was found, how many sources agree on it, whether it is the title
block, how it relates to the ``<title>`` and the site name. A classifier scores them and
the best one is the title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.model import Predictor
from feedsift.metadata import PageMetadata
from feedsift.metadata.titles import STRUCTURED_TITLES, TITLE_SEPARATORS
from feedsift.metadata.values import site_host
from feedsift.text.tokens import (
    cjk_spacing_folded,
    lenient_title,
    lenient_titles,
    normalize_space,
    token_f1,
    tokenize_lower,
)

__all__ = [
    "RankerPage",
    "TitleOption",
    "VisibleTitles",
    "choose_title_text",
    "has_structured_title",
    "host_spelled",
    "option_features",
    "title_options",
    "vetoed_titles",
    "visible_titles",
]

#: Where a title string can come from; one indicator column each.
ORIGINS = (
    "json-ld/headline", "json-ld/name", "opengraph/og:title", "meta/twitter:title",
    "meta/dc.title", "meta/dcterms.title", "meta/title", "meta/other", "dom/h1",
    "dom/itemprop:headline", "dom/other", "title-tag/title", "block",
)  # fmt: skip
#: Separators that join a story title to a site or section name.
SEPARATOR = re.compile(r"\s(?:\||-|--|–|—|::|»|·|/)\s|:\s")
_TRAILING_SEPARATOR = re.compile(rf"(?:{SEPARATOR.pattern})$")
_PART = re.compile(r"-part:(\d+)$")
#: Longest title in words the ranker considers (longer strings are descriptions).
MAX_WORDS = 60
#: Quotation marks at which a badly escaped attribute value is cut short.
QUOTE_MARKS = frozenset('"\'')
#: Host labels that say nothing about the site (``www.golem.de`` is "golem").
GENERIC_HOST_LABELS = frozenset({"www", "m", "amp", "mobile", "co", "com", "org", "net"})
#: Host labels of hosting platforms: ``someone.github.io`` is not GitHub's site, so its
#: label says nothing of the site's name (the title vetoes read no name from it).
HOSTING_LABELS = frozenset({
    "github", "gitlab", "blogspot", "wordpress", "netlify", "vercel", "substack", "tumblr",
    "medium", "pages", "herokuapp", "wixsite", "weebly", "ghost", "bearblog", "neocities",
})  # fmt: skip
#: Words a site's name may carry that its host leaves out ("The Guardian" is guardian.com).
HOST_SKIPPED_WORDS = frozenset({"the", "of", "and", "&", "a", "on", "la", "le", "die", "der"})
_WORD = re.compile(r"[^\W_]+")
#: Names of navigation items, never a page's title (a ``<title>`` that starts "Home - ..."
#: is cut into a "Home" part; a menu heading is an ``<h2>``), in the web's main languages.
MENU_NAMES = frozenset({
    "home", "homepage", "home page", "menu", "main menu", "navigation", "main navigation",
    "skip to content", "search", "log in", "login", "sign in", "sign up", "cart",
    "startseite", "accueil", "inicio", "início", "首页", "主页", "ホーム",
})  # fmt: skip
#: Headings of cookie and privacy consent dialogs ("Your choice regarding cookies on this
#: site", "We value your privacy"): an overlay's ``<h1>``, never the page's title. Phrases,
#: not the word "cookies" alone, so a recipe for cookies keeps its title.
CONSENT_TITLE = re.compile(
    r"\b(?:we use cookies|(?:site|website) uses cookies|cookies? (?:consent|settings|"
    r"preferences|choices)|(?:choice|choices|consent) (?:regarding|about|on|to) cookies|"
    r"we value your privacy|privacy preference center|manage (?:your )?(?:cookie|privacy|"
    r"consent) (?:preferences|settings|choices))\b"
)
#: Longest block, in words, compared with the title options: a headline is one line.
MAX_VISIBLE_WORDS = 40
#: Link share from which a block is a link (a menu item, a section's name, a teaser).
LINKED_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class VisibleTitles:
    """The page's short blocks as a reader sees them (folded as titles are compared, and
    without spaces beside CJK characters):
    a headline is printed on the page, mostly not as a link; a section's or site's name is
    printed as a link in the menu or the logo."""

    plain: frozenset[str]
    linked: frozenset[str]


def visible_titles(texts: Sequence[str], link: np.ndarray) -> VisibleTitles:
    """The short blocks of a page, split by whether they are links; ``texts`` are the
    blocks' texts (whitespace collapsed, so a block has one more word than spaces)."""
    plain: list[str] = []
    linked: list[str] = []
    for text, share in zip(texts, link.tolist(), strict=True):
        if text.count(" ") < MAX_VISIBLE_WORDS:
            (linked if share >= LINKED_SHARE else plain).append(text)
    return VisibleTitles(frozenset(map(cjk_spacing_folded, lenient_titles(plain))),
                         frozenset(map(cjk_spacing_folded, lenient_titles(linked))))  # fmt: skip


@dataclass(frozen=True, slots=True)
class RankerPage:
    """What the ranker reads of the page besides its metadata."""

    block_title: str | None  #: the title block's text
    block_score: float  #: the title stage's score for it
    url: str | None
    visible: VisibleTitles = VisibleTitles(frozenset(), frozenset())


@dataclass(frozen=True, slots=True)
class TitleOption:
    """One distinct title string with everything the ranker reads about it."""

    text: str
    origins: frozenset[str]
    parts: tuple[int, ...]  #: part indices when it is a piece of a longer string
    rank: int  #: position of its first sighting in the metadata stage's priority order
    first: str  #: ``source/detail`` of its first sighting (``block/`` for the title block)


def _origin(source: str, detail: str) -> str:
    base = _PART.sub("", detail).removesuffix("-after-kicker")
    key = f"{source}/{base}"
    if key in ORIGINS:
        return key
    return f"{source}/other" if f"{source}/other" in ORIGINS else "dom/other"


def title_options(meta: PageMetadata, block_title: str | None) -> list[TitleOption]:
    """Distinct title strings of a page, in the metadata stage's priority order."""
    merged: dict[str, tuple[set[str], list[int], int, str]] = {}
    sightings: list[tuple[str, str, str]] = [
        (c.text, c.source, c.detail) for c in meta.title_candidates
    ]
    if block_title:
        sightings.append((normalize_space(block_title), "block", ""))
    for rank, (text, source, detail) in enumerate(sightings):
        if not text or len(text.split()) > MAX_WORDS:
            continue
        origins, parts, _, _ = merged.setdefault(text, (set(), [], rank, f"{source}/{detail}"))
        origins.add("block" if source == "block" else _origin(source, detail))
        match = _PART.search(detail)
        if match or "kicker" in detail:
            parts.append(int(match.group(1)) if match else 1)
    _mend_truncated(merged)
    options = [TitleOption(t, frozenset(o), tuple(p), r, f) for t, (o, p, r, f) in merged.items()]
    return _without_site_name(_without_linked_headings(options, meta), meta.site_name)


#: Where an option comes from when it is only an ``<h1>`` (whole or a part of it).
_HEADING_ONLY = frozenset({"dom/h1"})


def _without_linked_headings(options: list[TitleOption], meta: PageMetadata) -> list[TitleOption]:
    """Drop options found only in an ``<h1>`` that is wholly a link to another page (a
    blog's logo heading, another post's teaser) when anything else is left: of the pages
    with gold titles, such headings were the title 6 times in 558, headings linking to the
    page itself 106 times in 113."""
    if not meta.linked_headings:
        return options
    kept = [o for o in options
            if not (o.origins <= _HEADING_ONLY and _of_linked_heading(o, meta.linked_headings))]
    return kept or options


def _of_linked_heading(option: TitleOption, linked: tuple[str, ...]) -> bool:
    """Whether the option is a linked heading, or a part of one (cut at a separator)."""
    return option.text in linked or (bool(option.parts) and any(option.text in h for h in linked))


def _without_site_name(options: list[TitleOption], site_name: str | None) -> list[TitleOption]:
    """Drop the site's own name (a logo ``<h1>``, a ``<title>`` part) when anything else is
    left: it is a post's title on 1 of 468 gold pages (a front page) and 0 of 1,373 blog
    posts, and a blog whose header is ``<h1><a href="/">Name</a></h1>`` would otherwise
    be titled by it."""
    if not site_name:
        return options
    name = normalize_space(site_name).casefold()
    kept = [o for o in options if o.text.casefold() != name]
    return kept or options


def vetoed_titles(
    options: Sequence[TitleOption], meta: PageMetadata, url: str | None
) -> set[str]:
    """Options the ranker may score but that never title the page while another is left:
    menu items' names (:data:`MENU_NAMES`), consent dialogs' headings
    (:data:`CONSENT_TITLE`), the parts of the ``<title>`` after the site's name (a tagline:
    :func:`_after_site_name`), the site's bare name (all its words spell the
    host), and the last part of a title cut at separators when its first words spell the
    host ("Backpacking Packs | REI Co-op" on rei.com: the site's name), and a whole title
    that ends with that name when the title without it is an option too. The ranker is
    trained with them among the options (they are negatives there), so its features are
    the same at training and extraction."""
    after = _after_site_name(meta)
    menus = {o.text for o in options if lenient_title(o.text) in MENU_NAMES
             or CONSENT_TITLE.search(lenient_title(o.text)) or o.text in after}  # fmt: skip
    host = _host_label(url or meta.canonical_url)
    if not host or host in HOSTING_LABELS:
        return menus
    names = {o.text for o in options if _bare_name(host, o.text)}
    named = {t for t in _tail_parts(meta) if _spelled(host, t)}
    return menus | names | (named & {o.text for o in options}) | _with_name(options, named)


def _with_name(options: Sequence[TitleOption], names: set[str]) -> set[str]:
    """The options that are another option followed by a separator and the site's name
    ("Hiking Boots: Shop Boots | REI Co-op" beside "Hiking Boots: Shop Boots"): a title is
    wanted without the site's name, and a reader's headline never carries it."""
    texts = {o.text for o in options}
    return {o.text for o in options for name in names if _head_before(o.text, name) in texts}


def _head_before(text: str, name: str) -> str | None:
    """``text`` without its trailing separator and ``name`` (``None`` unless it ends so)."""
    head = text.removesuffix(name)
    found = _TRAILING_SEPARATOR.search(head) if head != text else None
    return head[: found.start()].strip() if found is not None else None


def _after_site_name(meta: PageMetadata) -> set[str]:
    """The parts of the ``<title>`` that follow the site's name when the name is not its
    first part: "Perl Deparse | Site name - Tagline" ends with the site's tagline. The
    name is a link to the home page or ``og:site_name``; "Site name | Post" vetoes nothing."""
    names = {lenient_title(n) for n in (*meta.home_links, meta.site_name) if n}
    after: set[str] = set()
    for candidate in meta.title_candidates:
        if (candidate.source, candidate.detail) != ("title-tag", "title"):
            continue
        parts = [p for p in map(normalize_space, TITLE_SEPARATORS.split(candidate.text)) if p]
        at = next((i for i, p in enumerate(parts) if i and lenient_title(p) in names), None)
        if at is not None:
            after.update(parts[at + 1 :])
    return after


def _words(text: str) -> list[str]:
    return _WORD.findall(lenient_title(text))


def _spelled(host: str, text: str) -> int:
    """How many of the first words of ``text`` spell ``host`` (:func:`host_spelled`)."""
    return host_spelled(host, _words(text))


def _bare_name(host: str, text: str) -> bool:
    """Whether ``text`` is the site's name and nothing more: all its words spell the host,
    with few letters beside ("Stefan Laser" on stefanlaser.net, not "GitHub2Hexo setup")."""
    words = _words(text)
    letters = sum(map(len, words))
    return bool(words) and _spelled(host, text) == len(words) and letters <= 2 * len(host)


def _tail_parts(meta: PageMetadata) -> set[str]:
    """The last part of every title string that was cut at separators."""
    last: dict[tuple[str, str], tuple[int, str]] = {}
    for candidate in meta.title_candidates:
        match = _PART.search(candidate.detail)
        if match is None:
            continue
        key = (candidate.source, candidate.detail[: match.start()])
        number = int(match.group(1))
        if number >= last.get(key, (-1, ""))[0]:
            last[key] = (number, candidate.text)
    return {text for number, text in last.values() if number > 0}


def _mend_truncated(merged: dict[str, tuple[set[str], list[int], int, str]]) -> None:
    """Fold a string cut at an unescaped quote into the whole one it begins.

    ``<meta content="... diciamo "go Donald go"»">`` ends at the inner quote for every HTML
    parser; the ``<h1>`` or JSON-LD says the whole title, which is what the cut one meant.
    """
    texts = list(merged)
    for short in texts:
        whole = next((t for t in texts if t != short and t.startswith(short)
                      and t[len(short):].lstrip()[:1] in QUOTE_MARKS), None)  # fmt: skip
        if whole is not None and whole in merged:
            origins, parts, _, _ = merged.pop(short)
            merged[whole][0].update(origins)
            merged[whole][1].extend(parts)


def has_structured_title(meta: PageMetadata) -> bool:
    """Whether the page declares a title for machines (JSON-LD headline, ``og:title`` ...):
    where it does, the gold sets follow it; where it does not, the headline is the part of
    the ``<title>`` that the page also prints."""
    declared = {(c.source, c.detail) for c in meta.title_candidates}
    return any(key in declared for key in STRUCTURED_TITLES)


def _title_tag(meta: PageMetadata) -> str:
    return next((c.text for c in meta.title_candidates if c.source == "title-tag"), "")


@dataclass(frozen=True, slots=True)
class _PageTitles:
    """What every option of a page is compared with."""

    tag: str  #: the ``<title>``, case-folded
    tag_tokens: list[str]
    site: str  #: the site name, case-folded ("" when unknown)
    host: str  #: the distinctive label of the page's host ("golem" for www.golem.de)
    texts: tuple[str, ...]  #: every option's text, case-folded
    block_score: float
    visible: VisibleTitles
    longest_part: str  #: the ``<title>``'s longest part, folded ("" for a one-part title)
    structured: bool  #: the page declares a title for machines (JSON-LD, OpenGraph ...)
    home: frozenset[str]  #: what links to the site's front page say, folded


def _host_label(url: str | None) -> str:
    labels = [x for x in site_host(url).split(".") if x and x not in GENERIC_HOST_LABELS]
    return labels[-2] if len(labels) >= 2 else (labels[0] if labels else "")


def host_spelled(host: str, words: Sequence[str]) -> int:
    """How many leading ``words`` spell ``host`` by their prefixes, in order ("New York
    Magazine" spells nymag with 3, "FOXNews.com" foxnews with 1, "BBC News Technology" bbc
    with 1); 0 when none do. A name written in its site's host is the site's name."""
    if not host:
        return 0
    reach: set[int] = {0}  # host letters covered after the words read so far
    for count, word in enumerate(words, start=1):
        grown = {i + n for i in reach for n in range(1, len(word) + 1)
                 if host.startswith(word[:n], i)}  # fmt: skip
        if word in HOST_SKIPPED_WORDS:
            grown |= reach
        if len(host) in grown:
            return count
        if not grown:
            return 0
        reach = grown
    return 0


def _ends_with_site(folded: str, page: _PageTitles) -> bool:
    """Whether the string ends with a separator and the site's name or host."""
    parts = SEPARATOR.split(folded)
    if len(parts) < 2:
        parts = TITLE_SEPARATORS.split(folded)  # CJK separators, written without spaces
    if len(parts) < 2:
        return False
    tail = parts[-1].replace(" ", "")
    return bool((page.site and page.site.replace(" ", "") in tail)
                or (page.host and page.host in tail))  # fmt: skip


def _longest_part(tag: str) -> str:
    """The longest piece of a ``<title>`` cut at site separators ("" when it is one piece):
    the story's headline is most often the longest part, its site and section short."""
    parts = [p.strip() for p in SEPARATOR.split(tag)]
    if len(parts) < 2:
        return ""
    return lenient_title(max(parts, key=lambda p: len(tokenize_lower(p))))


def _visibility(option: TitleOption, page: _PageTitles) -> list[float]:
    folded = lenient_title(option.text)
    shown = cjk_spacing_folded(folded)  # as the page's blocks are folded
    words = _words(option.text)
    spelled = host_spelled(page.host, words)
    return [float(shown in page.visible.plain), float(shown in page.visible.linked),
            float(bool(page.longest_part) and folded == page.longest_part),
            float(page.structured), float(spelled > 0 and spelled == len(words)),
            float(0 < spelled < len(words)), float(folded in page.home)]  # fmt: skip


def _row(option: TitleOption, page: _PageTitles) -> list[float]:
    words = tokenize_lower(option.text)
    folded, tag_folded, site = option.text.casefold(), page.tag, page.site
    longer = [t for t in page.texts if t != folded and t.startswith(folded)]
    shorter = [t for t in page.texts if t != folded and folded.startswith(t)]
    return [
        *_visibility(option, page),
        float(_ends_with_site(folded, page)), float(bool(longer)), float(bool(shorter)),
        *(float(origin in option.origins) for origin in ORIGINS),
        float(len(option.origins)), float(bool(option.parts)),
        float(min(option.parts, default=-1)), float(option.rank),
        page.block_score if "block" in option.origins else 0.0,
        np.log1p(len(words)), float(bool(SEPARATOR.search(option.text))),
        token_f1(words, page.tag_tokens) if tag_folded else 0.0,
        float(bool(tag_folded) and tag_folded.startswith(folded)),
        float(bool(tag_folded) and tag_folded.endswith(folded)),
        float(bool(site) and site in folded), float(folded == site),
    ]


def option_features(
    options: Sequence[TitleOption], meta: PageMetadata, ranked: RankerPage
) -> np.ndarray:
    """One feature row per option."""
    tag = _title_tag(meta).casefold()
    page = _PageTitles(
        tag=tag, tag_tokens=tokenize_lower(tag), site=(meta.site_name or "").casefold(),
        host=_host_label(ranked.url or meta.canonical_url),
        texts=tuple(o.text.casefold() for o in options),
        block_score=ranked.block_score, visible=ranked.visible, longest_part=_longest_part(tag),
        structured=has_structured_title(meta),
        home=frozenset(lenient_title(name) for name in meta.home_links),
    )  # fmt: skip
    rows = [_row(option, page) for option in options]
    return np.array(rows, dtype=np.float64).reshape(len(options), -1)


def choose_title_text(
    meta: PageMetadata, ranked: RankerPage, model: Predictor
) -> TitleOption | None:
    """The best-scoring title option, or ``None`` when the page offers none."""
    options = title_options(meta, ranked.block_title)
    if not options:
        return None
    scores = model.predict(option_features(options, meta, ranked))
    vetoed = vetoed_titles(options, meta, ranked.url)
    allowed = [i for i, option in enumerate(options) if option.text not in vetoed]
    return options[max(allowed or range(len(options)), key=lambda i: scores[i])]

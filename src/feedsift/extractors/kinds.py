"""What kind of page this is: article, forum thread, listing, collection, product page,
service page or documentation.

The kind decides what the main content is (a thread's posts, a listing's items), so it is
read from signals that do not depend on a site's class names: the page's own structured
data (JSON-LD and microdata types, ``og:type``), words of its URL, the shape of its text
(repeated sibling containers of prose, lists, tables, code, prices) and a few words that
kinds of pages print (``Reply``, ``Add to cart``, ``Edit this page``). A one-against-the-rest
classifier per kind (trained by ``feedsift train`` on the ``page_type`` labels of
``wceb2026`` and the non-post pages of real blogs) turns them into probabilities.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from feedsift.extractors.model import EnsembleStack, Predictor
from feedsift.extractors.signals import PageSignals
from feedsift.extractors.vocabulary import Role
from feedsift.parsing.page import ParsedPage

__all__ = [
    "KIND_FEATURE_NAMES",
    "KIND_LABELS",
    "KindGuess",
    "KindModels",
    "ListingEvidence",
    "guess_kind",
    "kind_features",
    "kind_label",
    "kind_vector",
]

#: The kinds the classifier tells apart, in the order of its probability vector.
KIND_LABELS = ("article", "forum", "listing", "collection", "product", "service", "documentation")
#: Gold labels folded into one of :data:`KIND_LABELS` (a blog post is an article).
LABEL_ALIASES = {"blog": "article", "post": "article", "thread": "forum"}

#: Schema.org types (JSON-LD ``@type`` or microdata ``itemtype``) that say a kind.
SCHEMA_TYPES: dict[str, re.Pattern[str]] = {
    "article": re.compile(r"\b(?:\w*Article|BlogPosting|Report|Review)\b"),
    "forum": re.compile(r"\b(?:DiscussionForumPosting|QAPage|Question|Answer|Comment)\b"),
    "listing": re.compile(r"\b(?:ItemList|CollectionPage|SearchResultsPage|Blog)\b"),
    "product": re.compile(r"\b(?:Product|ProductGroup|Offer|AggregateOffer|IndividualProduct)\b"),
    "service": re.compile(r"\b(?:Service|LocalBusiness|Organization|FAQPage|ContactPage)\b"),
    "documentation": re.compile(r"\b(?:TechArticle|APIReference|SoftwareSourceCode|HowTo)\b"),
}
#: Words of a URL's path (and query) that say a kind, as publishing platforms spell them.
URL_WORDS: dict[str, re.Pattern[str]] = {
    "forum": re.compile(
        r"/(?:t|threads?|topics?|forums?|boards?|viewtopic|showthread|questions|discussions?|"
        r"community|comments|item)(?:[/.?=]|$)", re.I),
    "listing": re.compile(
        r"/(?:tags?|categor(?:y|ies)|archives?|page|search|blog|news|topics)(?:/|$)|[?&](?:page|q|s)=",
        re.I),
    "product": re.compile(r"/(?:dp|products?|p|item|shop|store|buy|sku)(?:[/.?=-]|$)", re.I),
    "collection": re.compile(r"/(?:collections?|c|b|browse|department|zgbs|best-?sellers)(?:/|$)",
                             re.I),
    "documentation": re.compile(
        r"/(?:docs?|documentation|api|reference|manual|guides?|tutorials?|learn|kb|help|wiki|"
        r"handbook|howto)(?:[/.?=-]|$)", re.I),
    "service": re.compile(r"/(?:services?|solutions?|pricing|contact|about|features?|plans?)"
                          r"(?:[/.?=-]|$)", re.I),
}  # fmt: skip
#: First words of the short labels forum software prints around posts (buttons, the
#: author's card), in the main languages of the gold sets.
FORUM_LABEL_WORDS = frozenset({
    "reply", "replies", "quote", "report", "like", "likes", "joined", "posts", "post",
    "messages", "message", "member", "registered", "permalink", "share", "antworten",
    "zitieren", "beiträge", "répondre", "citer", "responder", "citar", "rispondi", "cita",
})  # fmt: skip
#: Forum labels that are numbers: a post's number, reply and view counts.
FORUM_COUNTS = re.compile(r"#\d+$|\d[\d,.]*k? (?:replies|posts|views|messages|likes)$")
#: Whole short blocks that documentation pages print around their text.
DOC_LABELS = frozenset({
    "on this page", "edit this page", "table of contents", "contents", "parameters",
    "returns", "example", "examples", "syntax", "see also", "next", "previous",
    "was this page helpful", "was this helpful", "in this article", "prerequisites",
})  # fmt: skip
#: Shop words (lower case) that product pages print next to their price.
PRODUCT_WORDS = re.compile(
    r"\b(?:add to (?:cart|basket|bag)|buy now|in stock|out of stock|free shipping|"
    r"in den warenkorb|ajouter au panier|añadir al carrito|sku|specifications|"
    r"technische daten|caractéristiques)\b"
)
#: A price: a currency sign or code next to a number (matched against lower-cased text).
_CURRENCY_SIGNS = frozenset("$€£¥₹")
_CURRENCY_CODES = ("usd", "eur", "gbp")
_CURRENCY = r"(?:[$€£¥₹]|\b(?:usd|eur|gbp)\b)"
PRICE = re.compile(rf"{_CURRENCY}\s?\d|\d(?:[.,]\d\d)?\s?{_CURRENCY}")
#: A sibling container holds a post or an item of a page's repeated content from this many
#: words on (a forum reply, a product card); smaller ones are menu entries and buttons.
REPEATED_MIN_WORDS = 12
#: Blocks longer than this are prose, not the short labels counted as kind phrases.
PHRASE_MAX_WORDS = 6
#: A JSON-LD ``@type`` value, a string or a list of them.
_JSONLD_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')
#: A microdata type attribute's value. Read from the page's text, found with ``str.find``
#: (0.05 ms a page; an XPath over every element costs 0.5 ms, a case-blind regex 1.3 ms).
_ITEMTYPE = re.compile(r"""itemtype\s*=\s*["']?([^"'\s>]+)""")
_CODE_TAGS = frozenset({"pre", "code"})
_CELL_TAGS = frozenset({"td", "th"})
_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


@dataclass(frozen=True, slots=True)
class ListingEvidence:
    """The teaser list the listing check found on the page, before it judged whether the
    list is the page's content (zeros when there is no list)."""

    teasers: int = 0
    item_share: float = 0.0  #: share of the page's words inside the teaser items


@dataclass(frozen=True, slots=True)
class KindGuess:
    """The classifier's kind and its probability among the kinds (0..1)."""

    kind: str
    confidence: float
    scores: Mapping[str, float]


def kind_label(value: str | None) -> str | None:
    """A gold ``page_type`` as one of :data:`KIND_LABELS` (``None`` when unknown)."""
    if not value:
        return None
    value = LABEL_ALIASES.get(value.lower(), value.lower())
    return value if value in KIND_LABELS else None


def _itemtypes(text: str) -> list[str]:
    found = []
    at = text.find("itemtype")
    while at >= 0:
        match = _ITEMTYPE.match(text, at)
        if match:
            found.append(match.group(1))
        at = text.find("itemtype", at + 8)
    return found


def _schema_flags(page: ParsedPage) -> list[float]:
    text = " ".join(m.group(1) for script in page.json_ld for m in _JSONLD_TYPE.finditer(script))
    types = " ".join(_itemtypes(page.decoded.text))
    og = ""
    head = page.root.find("head")
    if head is not None:
        for meta in head.iter("meta"):
            if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
                og = (meta.get("content") or "").lower()
    flags = [float(bool(p.search(text) or p.search(types))) for p in SCHEMA_TYPES.values()]
    return [*flags, float(og == "article"), float("product" in og), float(og == "website")]


def _url_flags(url: str | None) -> list[float]:
    path = (url or "").split("//", 1)[-1].partition("/")[2]
    path = "/" + path.split("#")[0]
    depth = len([p for p in path.split("?")[0].split("/") if p])
    flags = [float(bool(p.search(path))) for p in URL_WORDS.values()]
    return [*flags, float(depth), float("?" in path), float(bool(re.search(r"\d{4,}", path)))]


def _repeated_containers(page: ParsedPage) -> tuple[float, float]:
    """The largest group of sibling elements of one tag and class that each hold at least
    :data:`REPEATED_MIN_WORDS` words: its member count and its share of the page's words."""
    groups: dict[tuple[int, str, str], list[int]] = {}
    for sub in page.view.subtrees:
        if sub.n_words >= REPEATED_MIN_WORDS and sub.parent >= 0:
            key = (sub.parent, sub.tag, sub.element.get("class") or "")
            groups.setdefault(key, []).append(sub.n_words)
    total = max(page.view.n_words, 1)
    best = max(groups.values(), key=sum, default=[])
    return float(len(best)), sum(best) / total


def _text_shares(page: ParsedPage, signals: PageSignals) -> list[float]:
    words = signals.words.astype(float)
    total = max(float(words.sum()), 1.0)
    tags = [b.tag for b in page.view.blocks]
    counts = words.tolist()  # Python floats: a numpy scalar per item costs four times more

    def share(chosen: frozenset[str]) -> float:
        return float(sum(w for w, t in zip(counts, tags, strict=True) if t in chosen))

    roles = signals.roles.inherited[signals.owner] if signals.n else np.zeros(0, dtype=np.int64)
    comment = float((words * ((roles >> Role.COMMENT) & 1)).sum())
    return [
        share(_CODE_TAGS) / total, share(_CELL_TAGS) / total, share(frozenset({"li"})) / total,
        sum(t in _HEADING_TAGS for t in tags) / max(len(tags), 1),
        float((signals.link * words).sum()) / total, comment / total,
        float(np.log1p(total)), float(np.log1p(len(tags))),
    ]  # fmt: skip


def forum_label(text: str) -> bool:
    """Whether a short block is a forum button or author-card label ("Reply", "#3")."""
    return _lowered_forum_label(text.lower())


def _lowered_forum_label(lowered: str) -> bool:
    """:func:`forum_label` of a lower-cased text (lower-casing is idempotent)."""
    lowered = lowered.strip()
    if not lowered:
        return False
    if lowered[0] == "#" or lowered[0].isdigit():
        return bool(FORUM_COUNTS.match(lowered))
    return lowered.split(maxsplit=1)[0].rstrip(":") in FORUM_LABEL_WORDS


def _might_have_price(lowered: str) -> bool:
    """Whether the text holds a currency sign or code (a price needs one)."""
    return not _CURRENCY_SIGNS.isdisjoint(lowered) or any(c in lowered for c in _CURRENCY_CODES)


def _has_price(lowered: str) -> bool:
    if not _might_have_price(lowered):
        return False  # the regex below costs ten times these checks
    return PRICE.search(lowered) is not None


def _phrase_counts(page: ParsedPage) -> list[float]:
    short = [b.text.lower() for b in page.view.blocks if b.n_words <= PHRASE_MAX_WORDS]
    # Shop words and prices are rare: one search of all short blocks at once (joined by a
    # line break, which none of them can match across) rules them out for most pages.
    joined = "\n".join(short)
    shop = PRODUCT_WORDS.search(joined) is not None
    priced = _might_have_price(joined)
    forum = product = docs = prices = 0
    for lowered in short:
        forum += _lowered_forum_label(lowered)
        product += shop and PRODUCT_WORDS.search(lowered) is not None
        docs += lowered.strip(" ?:") in DOC_LABELS
        prices += priced and _has_price(lowered)
    times = page.decoded.text.count("<time")
    return [float(np.log1p(v)) for v in (forum, product, docs, prices, times)]


#: Names of the columns of :func:`kind_features`, for reports and tests.
KIND_FEATURE_NAMES = (
    *(f"schema_{k}" for k in SCHEMA_TYPES), "og_article", "og_product", "og_website",
    *(f"url_{k}" for k in URL_WORDS), "url_depth", "url_query", "url_number",
    "repeated_count", "repeated_share",
    "code_share", "cell_share", "item_share", "heading_rate", "link_share", "comment_share",
    "log_words", "log_blocks",
    "phrases_forum", "phrases_product", "phrases_documentation", "prices", "times",
    "teasers", "teaser_share",
)  # fmt: skip


def kind_features(page: ParsedPage, signals: PageSignals, listing: ListingEvidence) -> np.ndarray:
    """One row of page-level features for the kind classifier."""
    row = [
        *_schema_flags(page), *_url_flags(page.url), *_repeated_containers(page),
        *_text_shares(page, signals), *_phrase_counts(page),
        float(np.log1p(listing.teasers)), listing.item_share,
    ]  # fmt: skip
    return np.asarray(row, dtype=np.float64)


def kind_vector(guess: KindGuess) -> np.ndarray:
    """The guess's probabilities in :data:`KIND_LABELS` order (zeros where unknown)."""
    return np.array([guess.scores.get(k, 0.0) for k in KIND_LABELS])


@dataclass(frozen=True, slots=True)
class KindModels:
    """The one-against-the-rest models by kind name, walked as one stack when they can be."""

    labels: tuple[str, ...]
    models: Mapping[str, Predictor]
    stack: EnsembleStack | None

    @classmethod
    def of(cls, models: Mapping[str, Predictor]) -> KindModels:
        labels = tuple(k for k in KIND_LABELS if k in models)
        chosen = [models[k] for k in labels]
        stack = EnsembleStack.of(chosen) if EnsembleStack.fits(chosen) else None  # type: ignore[arg-type]
        return cls(labels, models, stack)

    def probabilities(self, row: np.ndarray) -> dict[str, float]:
        """Each kind's own probability for the feature ``row``."""
        if self.stack is not None:
            return dict(zip(self.labels, self.stack.predict(row[None, :])[0].tolist(), strict=True))
        return {k: float(self.models[k].predict(row[None, :])[0]) for k in self.labels}


def guess_kind(row: np.ndarray, models: KindModels | Mapping[str, Predictor]) -> KindGuess:
    """The most probable kind under the one-against-the-rest ``models`` (by kind name)."""
    known = models if isinstance(models, KindModels) else KindModels.of(models)
    raw = known.probabilities(row)
    if not raw:
        return KindGuess("article", 0.0, {})
    total = sum(raw.values()) or 1.0
    scores = {k: v / total for k, v in raw.items()}
    best = max(scores, key=lambda k: scores[k])
    return KindGuess(best, scores[best], scores)

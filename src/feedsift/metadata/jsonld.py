"""Clues from JSON-LD (schema.org) scripts.

The scripts were saved by the parsing stage before cleaning (``ParsedPage.json_ld``). Each
is parsed with :func:`json.loads`; broken ones (trailing commas, control characters, HTML
comment or CDATA wrappers) get one lenient repair and are skipped when that fails too.

Every object is collected, including ``@graph`` arrays, nested lists and ``mainEntity``.
The objects that describe the page's content (articles first, then web pages) are ranked
and read; ``@id`` references (WordPress/Yoast puts authors and publishers in the graph and
only refers to them) are resolved through the graph.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from feedsift.metadata.record import Clue, Field
from feedsift.text.tokens import normalize_space, token_f1, tokenize_lower

__all__ = ["jsonld_clues", "load_json_ld"]

JsonNode = dict[str, Any]

#: Keys whose value is more content objects worth reading (the rest, e.g. ``itemListElement``
#: or ``relatedLink``, describe other pages).
CONTAINER_KEYS = ("@graph", "mainEntity")

#: ``@type`` suffixes of objects that are the article itself (``NewsArticle``,
#: ``BlogPosting``, ``ReportageNewsArticle``, ``LiveBlogPosting`` ...).
ARTICLE_TYPE_SUFFIXES = ("article", "posting")
#: Article-like types whose names do not end like one.
ARTICLE_TYPES = frozenset({"report", "review", "recipe", "howto", "creativework"})
#: ``@type`` suffix of page objects (``WebPage``, ``ItemPage``, ``MedicalWebPage`` ...):
#: second choice, they often carry the dates and the name of the page.
PAGE_TYPE_SUFFIX = "page"
#: Types whose ``name`` is the site's name (a last resort for ``site_name``).
SITE_TYPES = frozenset({"website", "organization", "newsmediaorganization"})

#: Scalar fields read from content objects: field, then schema.org keys in priority order.
SCALAR_KEYS: tuple[tuple[Field, tuple[str, ...]], ...] = (
    ("title", ("headline", "name", "alternativeHeadline")),
    ("published", ("datePublished", "dateCreated", "uploadDate")),
    ("updated", ("dateModified",)),
    ("language", ("inLanguage",)),
    ("canonical_url", ("url", "mainEntityOfPage")),
    ("image", ("image", "thumbnailUrl")),
    ("description", ("description",)),
    ("site_name", ("publisher", "sourceOrganization")),
)
#: List fields: read from the first content object that has them, so lists are not merged.
LIST_KEYS: tuple[tuple[Field, tuple[str, ...]], ...] = (
    ("authors", ("author", "creator")),
    ("tags", ("keywords",)),
    ("tags", ("articleSection",)),
)
#: Keys of a nested object that hold its text value, by preference: a Person's or an
#: Organization's ``name``; for URL fields an ImageObject's ``url``, a WebPage's ``@id``;
#: for the language a Language's ``alternateName`` code before its English ``name``.
VALUE_KEYS = ("name", "url", "@id")
FIELD_VALUE_KEYS: dict[Field, tuple[str, ...]] = {
    "canonical_url": ("url", "@id"),
    "image": ("url", "contentUrl", "@id"),
    "language": ("alternateName", "name"),
}

#: Detail of a title string read as secondary (see :func:`_unlike_title`).
DEMOTED_KEY = "alternativeHeadline"
#: How much closer (token F1 with the ``<title>``) one of ``headline`` and ``name`` must be
#: for the other to be demoted; near ties keep schema.org's order (headline first).
MIN_TITLE_LIKENESS_GAP = 0.2

#: Deepest nesting followed when resolving values (guards against reference cycles).
MAX_DEPTH = 4

_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_WRAPPER = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)|(?://\s*)?(?:-->|\]\]>)\s*$")


def load_json_ld(text: str) -> Any:
    """The parsed script, repaired once when broken; ``None`` when it cannot be read."""
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    repaired = _TRAILING_COMMA.sub(r"\1", _CONTROL.sub(" ", _WRAPPER.sub("", text.strip())))
    try:
        return json.loads(repaired, strict=False)
    except ValueError:
        return None


def jsonld_clues(scripts: Sequence[str], page_title: str | None = None) -> list[Clue]:
    """Clues of every content object in ``scripts``, best object first.

    ``page_title`` (the ``<title>``) settles an object whose ``headline`` and ``name``
    differ: the one less like it is read as an ``alternativeHeadline``.
    """
    nodes = [node for text in scripts for node in _walk(load_json_ld(text), 0)]
    if not nodes:
        return []
    ids = {str(n["@id"]): n for n in nodes if "@id" in n and len(n) > 2}
    content = sorted((n for n in nodes if _rank(n) < len(_RANKS)), key=_rank)
    reference = tokenize_lower(page_title or "")
    clues = [c for node in content for c in _scalar_clues(node, ids, reference)]
    clues.extend(_list_clues(content, ids))
    clues.extend(_site_clues(nodes))
    return clues


def _walk(data: Any, depth: int) -> Iterator[JsonNode]:
    if depth > MAX_DEPTH:
        return
    if isinstance(data, list):
        for item in data:
            yield from _walk(item, depth + 1)
    elif isinstance(data, dict):
        if "@type" in data:
            yield data
        for key in CONTAINER_KEYS:
            if key in data:
                yield from _walk(data[key], depth + 1)


def _types(node: JsonNode) -> list[str]:
    value = node.get("@type")
    names = value if isinstance(value, list) else [value]
    return [str(n).rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for n in names if n]


def _is_article(kind: str) -> bool:
    return kind.endswith(ARTICLE_TYPE_SUFFIXES) or kind in ARTICLE_TYPES


def _is_page(kind: str) -> bool:
    return kind.endswith(PAGE_TYPE_SUFFIX)


_RANKS = (_is_article, _is_page)


def _rank(node: JsonNode) -> int:
    """0 for articles, 1 for web pages, ``len(_RANKS)`` for objects that are not content."""
    kinds = _types(node)
    return next((i for i, test in enumerate(_RANKS) if any(map(test, kinds))), len(_RANKS))


def _scalar_clues(
    node: JsonNode, ids: dict[str, JsonNode], reference: list[str]
) -> Iterator[Clue]:
    demoted = _unlike_title(node, reference)
    for field, keys in SCALAR_KEYS:
        for key in keys:
            for text in _texts(node.get(key), ids, FIELD_VALUE_KEYS.get(field, VALUE_KEYS))[:1]:
                yield Clue(field, text, "json-ld", DEMOTED_KEY if key == demoted else key)


def _unlike_title(node: JsonNode, reference: list[str]) -> str | None:
    """``"headline"`` or ``"name"`` when both are strings, they differ, and that one is less
    like the ``<title>`` than the other (Readability's rule: Wikipedia's ``headline`` is the
    article's one-line description, its ``name`` the title)."""
    headline, name = node.get("headline"), node.get("name")
    if not (isinstance(headline, str) and isinstance(name, str)) or not reference:
        return None
    if normalize_space(headline) == normalize_space(name):
        return None
    like_headline = token_f1(tokenize_lower(headline), reference)
    like_name = token_f1(tokenize_lower(name), reference)
    if abs(like_headline - like_name) < MIN_TITLE_LIKENESS_GAP:
        return None
    return "headline" if like_headline < like_name else "name"


def _list_clues(content: list[JsonNode], ids: dict[str, JsonNode]) -> Iterator[Clue]:
    for field, keys in LIST_KEYS:
        for key in keys:
            node = next((n for n in content if n.get(key)), None)
            if node is not None:
                for text in _texts(node[key], ids, VALUE_KEYS):
                    yield Clue(field, text, "json-ld", key)


def _site_clues(nodes: list[JsonNode]) -> Iterator[Clue]:
    for node in nodes:
        kinds = SITE_TYPES.intersection(_types(node))
        if kinds and isinstance(node.get("name"), str):
            yield Clue("site_name", node["name"], "json-ld", f"{min(kinds)}.name")


def _texts(
    value: Any, ids: dict[str, JsonNode], keys: tuple[str, ...], depth: int = 0
) -> list[str]:
    """The text values of a JSON-LD value: strings, objects by their first of ``keys``,
    lists flattened."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    if depth > MAX_DEPTH:
        return []
    if isinstance(value, list):
        return [t for item in value for t in _texts(item, ids, keys, depth + 1)]
    if isinstance(value, dict):
        if set(value) <= {"@id", "@type"} and str(value.get("@id")) in ids:
            value = ids[str(value["@id"])]
        for key in keys:
            found = _texts(value.get(key), ids, keys, depth + 1)
            if found:
                return found
    return []

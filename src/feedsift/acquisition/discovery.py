"""Feed discovery: where a site's feeds are, from its HTML, its ``Link`` header or a guess.

Pure functions, no network: :func:`feed_links_in_html` reads ``<link rel="alternate">``
tags, :func:`feed_links_in_header` the HTTP ``Link`` header (RFC 8288), and
:func:`guessed_feed_links` names the usual feed paths of blog engines. The caller fetches
the candidates in order and keeps the first body :func:`looks_like_feed` accepts. Comment
feeds ("Comments Feed") are kept but ordered after the feeds of the posts.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urljoin, urlsplit

from lxml import etree

from feedsift.acquisition.feeds import JSON_FEED_VERSION_PREFIX, MAX_FEED_BYTES, xml_root_name
from feedsift.errors import InputError
from feedsift.parsing.charset import decode_html
from feedsift.parsing.dom import parse_html

__all__ = [
    "COMMENT_FEED_WORDS",
    "COMMON_FEED_PATHS",
    "FEED_MEDIA_TYPES",
    "FEED_ROOT_ELEMENTS",
    "NOT_FEED_PATH_PARTS",
    "FeedLink",
    "FeedLinkSource",
    "feed_links_in_header",
    "feed_links_in_html",
    "guessed_feed_links",
    "looks_like_feed",
]

FeedLinkSource = Literal["link-tag", "link-header", "guess"]

#: Media types that announce a feed in ``<link rel="alternate">`` and in ``Link`` headers
#: (``application/json`` and ``text/xml`` only count there, next to rel="alternate").
FEED_MEDIA_TYPES = frozenset(
    {
        "application/rss+xml",
        "application/atom+xml",
        "application/feed+json",
        "application/json",
        "application/rdf+xml",
        "text/xml",
    }
)
#: Media types that are feeds whatever the body looks like (the generic XML/JSON ones are not).
FEED_ONLY_MEDIA_TYPES = frozenset(
    {"application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml"}
)
#: Root elements of RSS 0.9x/2.0, Atom and RSS 1.0 (RDF) documents.
FEED_ROOT_ELEMENTS = frozenset({"rss", "feed", "rdf:RDF"})
#: Path parts of ``rel="alternate" type="application/json"`` links that are APIs, not JSON
#: Feeds: WordPress (5.5+) announces its REST API so on every page.
NOT_FEED_PATH_PARTS = ("/wp-json/",)
#: Words that mark a comment feed in a link title, in the languages WordPress ships most.
COMMENT_FEED_WORDS = (
    "comment",  # en "Comments Feed", fr "commentaires", it "commenti"
    "coment",  # es "comentarios", pt "comentários"
    "kommentar",  # de, sv, da, no
    "reactie",  # nl
    "komentarz",  # pl
    "コメント",  # ja
    "评论",  # zh (simplified)
    "評論",  # zh (traditional)
    "댓글",  # ko
)
#: Where blog engines put their feed when a page does not say (tried in this order).
COMMON_FEED_PATHS = (
    "/feed",  # WordPress (pretty links), Ghost, Substack
    "/feed/",  # WordPress's canonical form of the same (some servers do not redirect)
    "/rss",  # Ghost, Tumblr, many custom sites
    "/rss.xml",  # Gatsby, Astro, Pelican's RSS, Next.js blog starters
    "/atom.xml",  # Jekyll (jekyll-feed older setups), Hexo, Octopress
    "/feed.xml",  # Jekyll (jekyll-feed), Eleventy
    "/index.xml",  # Hugo
    "/feeds/posts/default",  # Blogger
    "/?feed=rss2",  # WordPress without pretty links
    "/blog/feed",  # WordPress installed under /blog
    "/feed.json",  # JSON Feed (micro.blog, Eleventy and Hugo JSON outputs)
)
#: Bytes of a body read to find its root element: prologs (declaration, stylesheet,
#: comments) take a few hundred bytes; 64 KiB leaves room for a licence comment.
SNIFF_BYTES = 64 * 1024
#: Schemes of feed addresses we keep; ``feed:`` is rewritten to the http(s) it wraps.
FEED_SCHEMES = ("http", "https")

_JSON_FEED_VERSION = re.compile(
    rb'"version"\s*:\s*"' + re.escape(JSON_FEED_VERSION_PREFIX.encode()).replace(rb"/", rb"\\?/")
)
_LINK_VALUE = re.compile(r"\s*<([^>]*)>")
_LINK_PARAM = re.compile(
    r"""\s*;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?"""
)


@dataclass(frozen=True, slots=True)
class FeedLink:
    """A candidate feed: its absolute URL, announced title and type, and where we found it."""

    url: str
    title: str | None
    media_type: str | None
    source: FeedLinkSource


def feed_links_in_html(html: bytes | str, base_url: str) -> tuple[FeedLink, ...]:
    """Feeds announced by ``<link rel="alternate" type="...">`` tags, comment feeds last."""
    root = _html_root(html)
    if root is None:
        return ()
    base = _document_base(root, base_url)
    links = []
    for element in root.iter("link"):
        rel = str(element.get("rel") or "")
        media_type = _media_type(element.get("type"))
        url = _feed_url(element.get("href"), base)
        if _is_feed_link(rel, media_type) and url and not _is_api(url):
            title = " ".join(str(element.get("title") or "").split()) or None
            links.append(FeedLink(url, title, media_type, "link-tag"))
    return _ordered(links)


def feed_links_in_header(link_header: str, base_url: str) -> tuple[FeedLink, ...]:
    """Feeds announced by an HTTP ``Link`` header (RFC 8288), comment feeds last."""
    links = []
    for target, params in _header_links(link_header):
        media_type = _media_type(params.get("type"))
        url = _feed_url(target, base_url)
        if _is_feed_link(params.get("rel", ""), media_type) and url and not _is_api(url):
            links.append(FeedLink(url, _header_title(params), media_type, "link-header"))
    return _ordered(links)


def guessed_feed_links(site_url: str) -> tuple[FeedLink, ...]:
    """:data:`COMMON_FEED_PATHS` on the site's root, for sites that announce no feed."""
    parts = urlsplit(site_url)
    if parts.scheme not in FEED_SCHEMES or not parts.netloc:
        return ()
    root = f"{parts.scheme}://{parts.netloc}/"
    return tuple(FeedLink(urljoin(root, path), None, None, "guess") for path in COMMON_FEED_PATHS)


def looks_like_feed(body: bytes, content_type: str | None) -> bool:
    """A cheap sniff: a feed media type, a feed root element, or a JSON Feed version."""
    if not body.strip():
        return False
    if _media_type(content_type) in FEED_ONLY_MEDIA_TYPES:
        return True
    head = _decoded_head(body)
    if head.lstrip().startswith("{"):
        return _JSON_FEED_VERSION.search(body, 0, MAX_FEED_BYTES) is not None
    return xml_root_name(head) in FEED_ROOT_ELEMENTS


# --- HTML ------------------------------------------------------------------------------------


def _html_root(html: bytes | str) -> etree._Element | None:
    """The page parsed by the project's HTML path (charset evidence, lxml's HTML parser)."""
    try:
        text = html if isinstance(html, str) else decode_html(html).text
        return parse_html(text)
    except InputError:
        return None


def _document_base(root: etree._Element, base_url: str) -> str:
    """``<base href>`` resolved against the page URL, else the page URL."""
    for element in root.iter("base"):
        href = str(element.get("href") or "").strip()
        if href:
            return urljoin(base_url, href)
    return base_url


def _is_feed_link(rel: str, media_type: str | None) -> bool:
    return "alternate" in rel.lower().split() and media_type in FEED_MEDIA_TYPES


def _is_api(url: str) -> bool:
    path = urlsplit(url).path
    return any(part in path for part in NOT_FEED_PATH_PARTS)


def _media_type(value: str | None) -> str | None:
    """``type="Application/RSS+XML; charset=utf-8"`` -> ``application/rss+xml``."""
    media_type = (value or "").split(";")[0].strip().lower()
    return media_type or None


def _feed_url(href: str | None, base: str) -> str | None:
    """``href`` absolute against ``base``; ``feed:`` unwrapped; None unless http(s)."""
    href = (href or "").strip()
    if href.lower().startswith("feed:"):
        inner = href[len("feed:") :].removeprefix("//")
        href = inner if inner.lower().startswith(FEED_SCHEMES) else f"http://{inner}"
    if not href:
        return None
    try:
        url = urljoin(base, href)
        parts = urlsplit(url)
    except ValueError:
        return None
    return url if parts.scheme in FEED_SCHEMES and parts.netloc else None


def _ordered(links: Iterable[FeedLink]) -> tuple[FeedLink, ...]:
    """De-duplicated by URL (first kept), comment feeds after the others, else in order."""
    unique: dict[str, FeedLink] = {}
    for link in links:
        unique.setdefault(link.url, link)
    return tuple(sorted(unique.values(), key=_is_comment_feed))


def _is_comment_feed(link: FeedLink) -> bool:
    title = (link.title or "").lower()
    path = urlsplit(link.url).path.lower()
    return any(word in title for word in COMMENT_FEED_WORDS) or "/comments/" in path + "/"


# --- Link header -----------------------------------------------------------------------------


def _header_links(header: str) -> list[tuple[str, dict[str, str]]]:
    """``<url>; rel="a b"; type=...`` values of a ``Link`` header, parameters lower-cased."""
    links = []
    pos = 0
    while (value := _LINK_VALUE.match(header, pos)) is not None:
        params: dict[str, str] = {}
        pos = value.end()
        while (param := _LINK_PARAM.match(header, pos)) is not None:
            name = param.group(1).lower()
            params.setdefault(name, _unquote_param(param.group(2) or ""))
            pos = param.end()
        links.append((value.group(1), params))
        comma = header.find(",", pos)
        if comma < 0:
            break
        pos = comma + 1
    return links


def _unquote_param(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def _header_title(params: dict[str, str]) -> str | None:
    """``title*`` (RFC 8187, ``UTF-8''caf%C3%A9``) preferred over ``title``."""
    extended = params.get("title*", "")
    charset, _, rest = extended.partition("'")
    _, _, encoded = rest.partition("'")
    if encoded:
        try:
            codecs.lookup(charset)
            return unquote(encoded, encoding=charset, errors="replace").strip() or None
        except LookupError:
            pass
    return params.get("title", "").strip() or None


# --- sniffing --------------------------------------------------------------------------------


def _decoded_head(body: bytes) -> str:
    """The first :data:`SNIFF_BYTES` as text: BOM or UTF-16/32 pattern, else ASCII-compatible."""
    head = body[:SNIFF_BYTES]
    for bom, codec in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if head.startswith(bom):
            return head.decode(codec, "replace")
    if head[:2] in (b"<\x00", b"\x00<"):
        return head.decode("utf-16-le" if head[0] == 0x3C else "utf-16-be", "replace")
    return head.decode("latin-1")

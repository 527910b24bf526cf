"""A page's links worth following on its own site: archive, tag, pagination and post pages.

Used by the harvest (:mod:`feedsift.crawl.harvest`): every ``<a href>`` resolved against the
page's URL (and its ``<base>``), fragments dropped, kept when it is an http(s) URL of the same
site (:func:`~feedsift.dedup.site.site_of`) that does not name a file of a kind that is never
a page (images, styles, scripts, archives, feeds).
"""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import etree

from feedsift.dedup.site import site_of
from feedsift.errors import InputError

__all__ = ["NOT_PAGES", "canonical_link", "page_links", "same_site_link"]

#: File endings of links that never lead to a page (checked on the path, lower-cased).
NOT_PAGES = (
    ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp", ".ico", ".bmp", ".avif",
    ".css", ".js", ".mjs", ".map", ".json", ".xml", ".rss", ".atom", ".txt",
    ".pdf", ".zip", ".gz", ".tgz", ".rar", ".7z", ".tar", ".dmg", ".exe",
    ".mp3", ".mp4", ".webm", ".ogg", ".wav", ".mov", ".woff", ".woff2", ".ttf", ".eot",
)  # fmt: skip


def same_site_link(href: str, base: str, site: str) -> str | None:
    """``href`` resolved on ``base`` when it is a page of ``site``, else ``None``."""
    href = href.strip()
    if not href or href.startswith(("#", "mailto:", "javascript:", "tel:", "data:")):
        return None
    try:
        url, _ = urldefrag(urljoin(base, href))
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or site_of(url) != site:
            return None
    except (ValueError, InputError):
        return None
    if parts.path.lower().endswith(NOT_PAGES):
        return None
    return url


def page_links(root: etree._Element, url: str) -> tuple[str, ...]:
    """The distinct same-site page links of a document, in document order."""
    try:
        site = site_of(url)
    except InputError:
        return ()
    base = next((str(b.get("href")) for b in root.iter("base") if b.get("href")), url)
    base = urljoin(url, base)
    found = (same_site_link(str(a.get("href")), base, site) for a in root.iter("a")
             if a.get("href"))  # fmt: skip
    return tuple(dict.fromkeys(link for link in found if link))


def canonical_link(root: etree._Element, url: str) -> str | None:
    """The document's ``<link rel="canonical">`` on its own site, resolved on ``url``."""
    try:
        site = site_of(url)
    except InputError:
        return None
    for link in root.iter("link"):
        if (link.get("rel") or "").strip().lower() == "canonical" and link.get("href"):
            return same_site_link(str(link.get("href")), url, site)
    return None

"""Real blogs on loopback: the static-site-generator blogs of ``../shared/sites/ssg``.

One origin per blog. The blog's real ``feed.xml`` is served at its real path with its bytes
unchanged except that the blog's real origin (scheme and host, from the gold URLs, else
``site.json``) is rewritten to the loopback origin; post pages (``pages/<id>.html.gz``) are
served at the path of their gold ``url``, other pages (``other/``) at theirs, their absolute
links to the real origin rewritten the same way (as a mirror would), so a crawler that
follows a blog's links stays on loopback. The truth
lists the posts the feed links, with their gold title and text.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar, cast
from urllib.parse import quote, unquote, urljoin, urlsplit

from lxml import etree

from feedsift.testweb.responses import HTML, Request, Response, cached, not_found
from feedsift.testweb.truth import FeedFormat, TruthFeed, TruthPost, TruthSite

__all__ = ["SsgSite", "ssg_folders"]

#: Folder of a blog's saved stylesheets, served at their URL paths.
ASSETS = "assets"
#: The only saved assets served: stylesheets (what a rendering crawl fetches).
STYLESHEET_SUFFIX = ".css"
#: Content type of a served stylesheet.
CSS = "text/css"
#: Content types by ``site.json``'s ``feed_format``.
FEED_TYPES = {"rss20": "application/rss+xml", "atom": "application/atom+xml"}
#: Characters left alone when a raw (Unicode) path is percent-encoded.
PATH_SAFE = "/%:@!$&'()*+,;=-._~"
#: What may follow an origin in a feed (so that ``https://a.b`` never matches ``https://a.bc``).
ORIGIN_END = r"""(?=[/"'<>\s?#&]|$)"""
#: Feed item links: RSS ``item/link`` text and Atom ``entry/link`` (alternate) hrefs.
ITEM_LINKS = etree.XPath(
    "//*[local-name()='item']/*[local-name()='link']/text()"
    " | //*[local-name()='entry']/*[local-name()='link'][not(@rel) or @rel='alternate']/@href"
)


@dataclass(frozen=True, slots=True)
class _Page:
    file: Path
    gold: dict[str, Any] | None  #: the gold record of a post; None for other pages


def ssg_folders(root: Path) -> list[Path]:
    """The blog folders under ``root`` (those with a ``site.json``), sorted by name."""
    return sorted(p.parent for p in root.glob("*/site.json"))


def _key(path: str) -> str:
    """How paths are compared: decoded, without ``index.html`` or a trailing slash."""
    decoded = unquote(path).removesuffix("index.html")
    return decoded.rstrip("/") or "/"


def _origin(gold: list[dict[str, Any]], site_url: str) -> str | None:
    found = Counter(
        f"{parts.scheme}://{parts.netloc}".lower()
        for parts in (urlsplit(row.get("url") or "") for row in gold)
        if parts.scheme and parts.netloc
    )
    if found:
        return found.most_common(1)[0][0]
    parts = urlsplit(site_url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.netloc else None


def _date(value: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


class SsgSite:
    """One real blog served from its folder."""

    template: ClassVar[str] = "ssg"

    def __init__(self, folder: Path, base_url: str) -> None:
        self.folder, self.base_url, self.name = folder, base_url, folder.name
        self.meta: dict[str, Any] = json.loads((folder / "site.json").read_text(encoding="utf-8"))
        self.gold = _read_jsonl(folder / "gold.jsonl")
        self.prefix = urlsplit(self.meta.get("site_url") or "/").path or "/"
        self.origin = _origin(self.gold, self.meta.get("site_url") or "")
        build = self.meta.get("build_dir") or ""
        self.feed_path = self.prefix.rstrip("/") + "/" + self.meta["feed_path"].removeprefix(build)
        self.feed = self._rewrite((folder / "feed.xml").read_bytes())
        self.pages = self._pages()

    def _rewrite(self, data: bytes) -> bytes:
        if self.origin is None:
            return data
        host = re.escape(urlsplit(self.origin).netloc)
        pattern = re.compile(rf"https?://{host}{ORIGIN_END}".encode(), re.IGNORECASE)
        return pattern.sub(self.base_url.encode(), data)

    def _pages(self) -> dict[str, _Page]:
        pages: dict[str, _Page] = {}
        for row in _read_jsonl(self.folder / "other.jsonl"):
            page = _Page(self.folder / "other" / f"{row['id']}.html.gz", None)
            pages[_key(self.prefix.rstrip("/") + row["path"])] = page
        for row in self.gold:
            page = _Page(self.folder / "pages" / f"{row['id']}.html.gz", row)
            pages.setdefault(_key(self.prefix.rstrip("/") + row["path"]), page)
            pages[_key(urlsplit(row["url"]).path)] = page
        return pages

    def post_url(self, row: dict[str, Any]) -> str:
        return self.base_url + quote(urlsplit(row["url"]).path, safe=PATH_SAFE)

    def respond(self, request: Request) -> Response:
        if request.path == "/robots.txt":
            return Response(body=b"User-agent: *\nAllow: /\n", content_type="text/plain")
        if _key(request.path) == _key(self.feed_path):
            content_type = FEED_TYPES.get(self.meta.get("feed_format", ""), "application/xml")
            return cached(self.feed, content_type)
        page = self.pages.get(_key(request.path))
        if page is None or not page.file.exists():
            return self._stylesheet(request.path)
        return cached(self._rewrite(gzip.decompress(page.file.read_bytes())), HTML)

    def _stylesheet(self, path: str) -> Response:
        """A stylesheet the blog saved in ``assets/`` (at its URL path), else a 404: the
        blog's theme for a crawl that renders (``crawl --render``)."""
        relative = PurePosixPath(unquote(path).lstrip("/"))
        if relative.suffix != STYLESHEET_SUFFIX or ".." in relative.parts:
            return not_found()
        file = self.folder.joinpath(ASSETS, *relative.parts)
        return cached(file.read_bytes(), CSS) if file.is_file() else not_found()

    def feed_url(self) -> str:
        return self.base_url + quote(self.feed_path, safe=PATH_SAFE)

    def unserved(self) -> tuple[str, ...]:
        """Item links of the feed that this server has no page for."""
        root = etree.fromstring(self.feed, etree.XMLParser(recover=True, resolve_entities=False))
        found = ITEM_LINKS(root) if root is not None else []
        links = [urljoin(self.feed_url(), str(link).strip()) for link in cast(list[str], found)]
        return tuple(link for link in links if _key(urlsplit(link).path) not in self.pages)

    def truth(self) -> TruthSite:
        feed_format: FeedFormat = "atom" if self.meta.get("feed_format") == "atom" else "rss"
        feed = TruthFeed(self.feed_url(), "good", feed_format)
        posts = tuple(self._truth_post(row) for row in self.gold if row.get("in_feed"))
        title = str(self.meta.get("feed_title") or self.name)
        return TruthSite(
            self.name, title, self.base_url, self.template, (feed,), posts, unserved=self.unserved()
        )

    def _truth_post(self, row: dict[str, Any]) -> TruthPost:
        url = self.post_url(row)
        return TruthPost(
            post_id=f"{self.name}/{row['id']}",
            site=self.name,
            url=url,
            variants=(url,),
            title=row.get("title") or "",
            text=row.get("text") or "",
            author=row.get("author") or None,
            published=_date(row.get("date")),
            tags=tuple(row.get("tags") or ()),
            feeds=(self.feed_url(),),
            round=1,
        )

"""The faults site: its own origin, serving the faults of :mod:`feedsift.testweb.faults`."""

from __future__ import annotations

import random
import threading
from typing import ClassVar

from feedsift.testweb.content import ProseWriter
from feedsift.testweb.fault_responses import ITEMS_FEED, fault_routes
from feedsift.testweb.faults import CHARSET_SENTENCES, CHARSET_TITLE, FAULTS
from feedsift.testweb.feeds import FeedInfo, FeedItem, rss
from feedsift.testweb.markup import body_html, document, esc, us_date
from feedsift.testweb.payloads import gzip_bomb
from feedsift.testweb.posts import Blueprint, Post, plan_posts
from feedsift.testweb.responses import Request, Response, cached
from feedsift.testweb.truth import TruthFault, TruthFeed, TruthPost, TruthSite

__all__ = ["FaultsSite"]

#: Good posts: the first is listed by every feed, the next two by the malformed feed only.
GOOD_POSTS = 3
#: Which planned post the rate-limited page shows, which the slow page (never seen in time).
LIMITED_POST, SLOW_POST = 3, 4


class FaultsSite:
    """The faults origin. ``slow_seconds`` is how long the slow URLs wait."""

    name: ClassVar[str] = "faults"
    title: ClassVar[str] = "Fault Line"

    def __init__(self, base_url: str, seed: int, slow_seconds: float) -> None:
        self.base_url = base_url
        self.slow_seconds = slow_seconds
        planned = plan_posts(Blueprint("faults", "field", ("notes",), 1, 0.0), seed, 1)
        self.good = planned[:GOOD_POSTS]
        self.limited_post, self.slow_post = planned[LIMITED_POST], planned[SLOW_POST]
        self.charset_post = _charset_post(seed, planned[-1])
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._bomb: bytes | None = None
        self.router = fault_routes(self)

    def url(self, path: str) -> str:
        return self.base_url + path

    def good_path(self, post: Post) -> str:
        return f"/good/{post.slug}/"

    def respond(self, request: Request) -> Response:
        return self.router.dispatch(request)

    def count(self, path: str) -> int:
        """How many times ``path`` was asked for, this request included."""
        with self._lock:
            self._counts[path] = self._counts.get(path, 0) + 1
            return self._counts[path]

    def bomb(self) -> bytes:
        """The gzip bomb, built on first use (about 1 MiB, 0.1 s)."""
        with self._lock:
            if self._bomb is None:
                self._bomb = gzip_bomb()
            return self._bomb

    def page(self, post: Post, *, charset: str = "UTF-8") -> Response:
        """A plain static-blog page for ``post``; another ``charset`` drops the ``<meta>``."""
        head = f"<title>{esc(post.title)} - Fault Line</title>"
        body = (
            '<header class="site"><a href="/">Fault Line</a><nav><a href="/">Home</a> '
            '<a href="/feed.xml">RSS</a></nav></header><main><article class="post">'
            f'<h1 class="post-title">{esc(post.title)}</h1><p class="post-meta">'
            f'<time datetime="{post.published.isoformat()}">{us_date(post.published)}</time> '
            f"&middot; {esc(post.author)}</p>"
            f'<div class="post-body">{body_html(post.blocks)}</div></article></main>'
            "<footer><p>Fault Line is a test site. Nothing here is news.</p></footer>"
        )
        html = document("en", head, "post", body, meta_charset=charset == "UTF-8")
        return cached(html, f"text/html; charset={charset}")

    def feed(self, path: str, posts: tuple[Post, ...], extra: tuple[FeedItem, ...] = ()) -> bytes:
        items = [self.item(p) for p in posts] + list(extra)
        info = FeedInfo(
            f"Fault Line {path}", self.url("/"), self.url(path), "Faults on purpose", "hand-written"
        )
        return rss(info, items)

    def item(self, post: Post, link: str | None = None) -> FeedItem:
        url = link or self.url(self.good_path(post))
        return FeedItem(
            post.title, url, url, post.published, post.author, ("notes",), post.excerpt(30)
        )

    def truth(self) -> TruthSite:
        feeds = [TruthFeed(self.url(ITEMS_FEED), "faulty", "rss", "faulty-items")]
        feeds += [
            TruthFeed(self.url(f.path), "faulty", "rss", f.name)
            for f in FAULTS
            if f.target == "feed"
        ]
        faults = tuple(
            TruthFault(
                f.name,
                self.url(f.path),
                f.expect.replace("{slow}", f"{self.slow_seconds:g}"),
                f.target,
            )
            for f in FAULTS
        )
        return TruthSite(
            self.name,
            self.title,
            self.base_url,
            "faults",
            tuple(feeds),
            self._truth_posts(),
            faults,
        )

    def _truth_posts(self) -> tuple[TruthPost, ...]:
        every = [ITEMS_FEED, "/slow/feed.xml", "/ratelimit/feed.xml"]
        listed = [
            (self.good[0], self.good_path(self.good[0]), every),
            *((p, self.good_path(p), ["/malformed/feed.xml"]) for p in self.good[1:]),
            (self.limited_post, "/ratelimit/post/", [ITEMS_FEED]),
            (self.charset_post, "/charset/post/", [ITEMS_FEED]),
        ]
        return tuple(
            TruthPost(
                post_id=post.post_id,
                site=self.name,
                url=self.url(path),
                variants=(self.url(path),),
                title=post.title,
                text=post.text,
                author=post.author,
                published=post.published,
                tags=post.tags,
                feeds=tuple(self.url(feed) for feed in feeds),
                round=1,
            )
            for post, path, feeds in listed
        )


def _charset_post(seed: int, base: Post) -> Post:
    """A post whose paragraphs open with non-ASCII sentences (served with a wrong charset)."""
    writer = ProseWriter(random.Random(f"{seed}/faults/charset"), "essay")
    topic = writer.topic()
    paragraphs = tuple(
        f"{sentence} {writer.paragraph(topic, topic.nouns[0], [])}"
        for sentence in CHARSET_SENTENCES
    )
    return Post(
        "faults-charset",
        base.number,
        "cafe-notes",
        CHARSET_TITLE,
        paragraphs,
        None,
        base.author,
        base.published,
        ("notes",),
        ("notes",),
        1,
    )

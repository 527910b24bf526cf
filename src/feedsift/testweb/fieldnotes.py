"""Field Notes: a Ghost blog (Casper-like markup) with an excerpt-only Atom feed.

URL scheme:

* ``/slug/`` the canonical post page (any query is ignored);
* ``/atom.xml`` Atom 1.0 whose ``<summary>`` is an excerpt; every second item links
  ``/slug/?utm_source=feed&utm_medium=atom``, every third goes through ``/r/<id>``, a
  302 to the canonical page (a newsletter-style click-tracking redirect);
* ``/``, ``/page/N/``, ``/tag/<t>/``, ``/author/<a>/`` listings; ``/about/`` a page.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import ClassVar

from feedsift.testweb.feeds import ATOM_TYPE, FeedInfo, FeedItem, atom
from feedsift.testweb.markup import attrs, body_html, document, esc, short_date, tag_list
from feedsift.testweb.posts import Blueprint, Post
from feedsift.testweb.responses import HTML, Request, Response, Router, cached, redirect
from feedsift.testweb.sites import FeedSpec, GeneratedSite

__all__ = ["FieldNotes"]

TAGS = ("birds", "weather", "shore", "woodland")
UTM = "?utm_source=feed&utm_medium=atom"
#: Every n-th feed item carries the tracking parameters ...
TRACKED_EVERY = 2
#: ... and every m-th goes through the click-tracking redirect (it wins over the first).
REDIRECTED_EVERY = 3
#: Posts per listing page (Casper's default is 25; fewer shows the pagination).
PER_PAGE = 8
#: Words per minute for Casper's "N min read".
READING_SPEED = 275
DESCRIPTION = "Weekly notes from saltmarshes, woods and weather stations."


class FieldNotes(GeneratedSite):
    name: ClassVar[str] = "fieldnotes"
    title: ClassVar[str] = "Field Notes"
    template: ClassVar[str] = "ghost"
    blueprint: ClassVar[Blueprint] = Blueprint("fieldnotes", "field", TAGS, 3, 0.0)
    feed_specs: ClassVar[tuple[FeedSpec, ...]] = (FeedSpec("/atom.xml", "atom"),)

    def routes(self) -> Router:
        return Router.of(
            (r"/", lambda r, m: self._listing(self.live(), 1, "home-template", None)),
            (r"/page/(\d+)/", lambda r, m: self._listing(self.live(), int(m[1]), "paged", None)),
            (r"/atom.xml", lambda r, m: self._feed()),
            (r"/r/([0-9a-f]{8})", self._click),
            (r"/tag/([a-z-]+)/", self._tag),
            (r"/author/([a-z-]+)/", self._author),
            (r"/robots.txt", lambda r, m: _robots(self.base_url)),
            (r"/about/", lambda r, m: self._about()),
            (r"/([a-z0-9-]+)/", self._post),
        )

    def tags(self, post: Post) -> tuple[str, ...]:
        """Sections are what this template shows as tags."""
        return tuple(section.title() for section in post.sections)

    def canonical(self, post: Post) -> str:
        return self.url(f"/{post.slug}/")

    def click_id(self, post: Post) -> str:
        return hashlib.sha256(f"{self.seed}/{post.slug}".encode()).hexdigest()[:8]

    def variants(self, post: Post) -> tuple[str, ...]:
        canonical = self.canonical(post)
        return (canonical, canonical + UTM, self.url(f"/r/{self.click_id(post)}"))

    def feed_link(self, post: Post) -> str:
        if post.number % REDIRECTED_EVERY == 0:
            return self.url(f"/r/{self.click_id(post)}")
        if post.number % TRACKED_EVERY == 0:
            return self.canonical(post) + UTM
        return self.canonical(post)

    # -- pages ------------------------------------------------------------------------

    def _click(self, request: Request, match: re.Match[str]) -> Response:
        post = next((p for p in self.live() if self.click_id(p) == match[1]), None)
        return redirect(self.canonical(post), 302) if post else self._missing()

    def _post(self, request: Request, match: re.Match[str]) -> Response:
        post = self.find(match[1])
        if post is None:
            return self._missing()
        head = self._head(post.title, self.canonical(post), _post_meta(post, self.canonical(post)))
        main = f"{self._article(post)}{_subscribe_cta()}{self._read_more(post)}"
        return self._respond(head, f"post-template tag-{post.sections[0]}", main)

    def _tag(self, request: Request, match: re.Match[str]) -> Response:
        posts = tuple(p for p in self.live() if match[1] in p.sections)
        if match[1] not in TAGS:
            return self._missing()
        return self._listing(posts, 1, f"tag-template tag-{match[1]}", match[1].title())

    def _author(self, request: Request, match: re.Match[str]) -> Response:
        posts = tuple(p for p in self.live() if _slug(p.author) == match[1])
        if not posts:
            return self._missing()
        return self._listing(posts, 1, "author-template", posts[0].author)

    def _about(self) -> Response:
        article = (
            '<article class="article page"><header class="article-header gh-canvas">'
            '<h1 class="article-title">About</h1></header><section class="gh-content gh-canvas">'
            f"<p>{esc(DESCRIPTION)} Written by volunteers who count things for a living.</p>"
            "</section></article>"
        )
        return self._respond(self._head("About", self.url("/about/"), ""), "page-template", article)

    def _missing(self) -> Response:
        main = (
            '<section class="outer error-content"><div class="inner">'
            '<h1 class="error-code">404</h1><p class="error-description">Page not found</p>'
            '<a class="error-link" href="/">Go to the front page &rarr;</a></div></section>'
        )
        page = self._respond(self._head("404", self.url("/"), ""), "error-template", main)
        return Response(status=404, body=page.body)

    def _respond(self, head: str, body_class: str, main: str) -> Response:
        layout = (
            f'<div class="viewport">{self._gh_head()}<div class="site-content">'
            f'<main id="site-main" class="site-main">{main}</main></div>{_site_footer()}</div>'
            '<script src="/assets/built/casper.js?v=1f2e3d"></script>'
        )
        return cached(document("en", head, body_class, layout), HTML)

    def _head(self, heading: str, canonical: str, extra: str) -> str:
        return (
            f"<title>{esc(heading)}</title>\n"
            '<link rel="stylesheet" type="text/css" href="/assets/built/screen.css?v=1f2e3d">\n'
            f'<link rel="canonical" href="{esc(canonical)}">\n'
            '<meta name="referrer" content="no-referrer-when-downgrade">\n'
            f"{extra}\n"
            '<meta name="generator" content="Ghost 5.96">\n'
            '<link rel="alternate" type="application/atom+xml" title="Field Notes" '
            f'href="{self.url("/atom.xml")}">'
        )

    def _gh_head(self) -> str:
        menu = [("/", "Home")] + [(f"/tag/{t}/", t.title()) for t in TAGS] + [("/about/", "About")]
        return (
            '<header id="gh-head" class="gh-head outer"><div class="gh-head-inner inner">'
            '<div class="gh-head-brand"><a class="gh-head-logo no-image" href="/">Field Notes</a>'
            '<button class="gh-burger" aria-label="Menu"></button></div>'
            f'<nav class="gh-head-menu">{tag_list(menu, "nav")}</nav>'
            '<div class="gh-head-actions"><a class="gh-head-link" href="#/portal/signin">Sign in'
            '</a><a class="gh-head-button" href="#/portal/signup">Subscribe</a></div></div>'
            "</header>"
        )

    def _article(self, post: Post) -> str:
        words = len(post.text.split())
        return (
            f'<article class="article post tag-{post.sections[0]}">'
            '<header class="article-header gh-canvas"><section class="article-tag post-card-tags">'
            f'<span class="post-card-primary-tag"><a href="/tag/{post.sections[0]}/">'
            f"{post.sections[0].title()}</a></span></section>"
            f'<h1 class="article-title">{esc(post.title)}</h1>'
            f"{_byline(post, max(1, round(words / READING_SPEED)))}"
            f'<figure class="article-image"><img src="/content/images/{post.slug}.jpg" '
            f'alt="{esc(post.title)}"></figure></header>'
            f'<section class="gh-content gh-canvas">{body_html(post.blocks)}</section>'
            "</article>"
        )

    def _read_more(self, post: Post) -> str:
        others = [p for p in self.live() if p.post_id != post.post_id][:3]
        cards = "".join(self._card(p) for p in others)
        return (
            '<aside class="read-more-wrap outer"><div class="read-more inner">'
            f'<div class="post-card-header"><h2>Read more</h2></div>{cards}</div></aside>'
        )

    def _card(self, post: Post) -> str:
        return (
            f'<article class="post-card post tag-{post.sections[0]}">'
            f'<a class="post-card-image-link" href="/{post.slug}/"><img class="post-card-image" '
            f'src="/content/images/size/w600/{post.slug}.jpg" alt="{esc(post.title)}"></a>'
            '<div class="post-card-content">'
            f'<a class="post-card-content-link" href="/{post.slug}/">'
            f'<header class="post-card-header"><div class="post-card-tags">'
            f'<span class="post-card-primary-tag">{post.sections[0].title()}</span></div>'
            f'<h2 class="post-card-title">{esc(post.title)}</h2></header>'
            f'<div class="post-card-excerpt">{esc(post.excerpt(30))}</div></a>'
            f'<footer class="post-card-meta"><time class="post-card-meta-date" '
            f'datetime="{post.published:%Y-%m-%d}">{short_date(post.published)}</time>'
            "</footer></div></article>"
        )

    def _listing(
        self, posts: tuple[Post, ...], page: int, body_class: str, heading: str | None
    ) -> Response:
        shown = posts[(page - 1) * PER_PAGE : page * PER_PAGE]
        if not shown:
            return self._missing()
        header = (
            (
                f'<section class="outer"><div class="inner posts"><header class="tag-header">'
                f"<h1>{esc(heading)}</h1></header></div></section>"
            )
            if heading
            else ""
        )
        feed = "".join(self._card(p) for p in shown)
        more = ""
        if len(posts) > page * PER_PAGE:
            more = (
                f'<nav class="pagination"><a class="older-posts" href="/page/{page + 1}/">'
                "Older Posts &rarr;</a></nav>"
            )
        main = f'{header}<div class="inner posts"><div class="post-feed">{feed}</div>{more}</div>'
        return self._respond(
            self._head(heading or "Field Notes", self.url("/"), ""), body_class, main
        )

    # -- feed -------------------------------------------------------------------------

    def _feed(self) -> Response:
        spec = self.feed_specs[0]
        items = [
            FeedItem(
                p.title,
                self.feed_link(p),
                f"tag:fieldnotes,2026:{self.click_id(p)}",
                p.published,
                p.author,
                (p.sections[0].title(),),
                p.excerpt(45),
            )
            for p in self.feed_posts(spec)
        ]
        info = FeedInfo(
            "Field Notes", self.url("/"), self.url(spec.path), DESCRIPTION, "Ghost 5.96"
        )
        newest = max((i.published for i in items), default=None)
        return cached(atom(info, items), ATOM_TYPE, newest)


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def _robots(base_url: str) -> Response:
    text = (
        f"User-agent: *\nSitemap: {base_url}/sitemap.xml\nDisallow: /ghost/\n"
        "Disallow: /email/\nDisallow: /members/api/comments/counts/\n"
    )
    return Response(body=text.encode(), content_type="text/plain; charset=utf-8")


def _post_meta(post: Post, canonical: str) -> str:
    metas = [
        ("og:site_name", "Field Notes"),
        ("og:type", "article"),
        ("og:title", post.title),
        ("og:description", post.excerpt(30)),
        ("og:url", canonical),
        ("article:published_time", post.published.isoformat()),
        *(("article:tag", section.title()) for section in post.sections),
    ]
    ld = {
        "@context": "https://schema.org",
        "@type": "Article",
        "publisher": {"@type": "Organization", "name": "Field Notes"},
        "author": {"@type": "Person", "name": post.author, "url": f"/author/{_slug(post.author)}/"},
        "headline": post.title,
        "url": canonical,
        "datePublished": post.published.isoformat(),
        "keywords": ", ".join(s.title() for s in post.sections),
        "description": post.excerpt(30),
    }
    return (
        f'<meta name="description" content="{esc(post.excerpt(30))}">\n'
        + "\n".join(f"<meta {attrs(property=k, content=v)}>" for k, v in metas)
        + f'\n<script type="application/ld+json">{json.dumps(ld, indent=4)}</script>'
    )


def _byline(post: Post, minutes: int) -> str:
    slug = _slug(post.author)
    return (
        '<div class="article-byline"><section class="article-byline-content">'
        f'<ul class="author-list"><li class="author-list-item"><a href="/author/{slug}/" '
        f'class="author-avatar"><img class="author-profile-image" src="/content/images/{slug}.png"'
        f' alt="{esc(post.author)}"></a></li></ul><div class="article-byline-meta">'
        f'<h4 class="author-name"><a href="/author/{slug}/">{esc(post.author)}</a></h4>'
        f'<div class="byline-meta-content"><time class="byline-meta-date" '
        f'datetime="{post.published:%Y-%m-%d}">{short_date(post.published)}</time>'
        f'<span class="byline-reading-time"><span class="bull">&bull;</span> {minutes} min read'
        "</span></div></div></section></div>"
    )


def _subscribe_cta() -> str:
    return (
        '<section class="footer-cta outer"><div class="inner">'
        '<h2 class="footer-cta-title">Sign up for more like this.</h2>'
        '<a class="footer-cta-button" href="#/portal"><div class="footer-cta-input">'
        "Enter your email</div><span>Subscribe</span></a></div></section>"
    )


def _site_footer() -> str:
    links = [("/about/", "About"), ("/privacy/", "Privacy"), ("/atom.xml", "Feed")]
    return (
        '<footer class="site-footer outer"><div class="inner"><section class="copyright">'
        '<a href="/">Field Notes</a> &copy; 2026</section>'
        f'<nav class="site-footer-nav">{tag_list(links, "nav")}</nav>'
        '<div class="gh-powered-by"><a href="https://ghost.org/" target="_blank" '
        'rel="noopener">Powered by Ghost</a></div></div></footer>'
    )

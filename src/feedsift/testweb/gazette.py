"""The Harbour Gazette: a news site with section RSS feeds and a JSON Feed.

URL scheme:

* ``/<section>/YYYY/mon/DD/slug`` the canonical story page (section of first filing);
  a story filed in a second section also answers at that section's path with a 301 to the
  canonical page;
* ``/rss/world.xml``, ``/rss/business.xml``, ``/rss/local.xml``: RSS 2.0 with summaries;
  their links carry ``?ref=rss`` (world, local) or ``?at_medium=RSS&at_campaign=business``
  and use the feed's own section path, so a cross-filed story is linked via its redirect;
* ``/feed.json`` a JSON Feed of every section, full content, canonical links;
* ``/``, ``/<section>/`` fronts and ``/profile/<name>`` author pages.

Story pages have a cookie banner, a byline and date, ad slots, an inline "Read more" box,
a "Most read" list and a newsletter sign-up.
"""

from __future__ import annotations

import json
import re
from typing import ClassVar

from feedsift.testweb.feeds import JSON_FEED_TYPE, RSS_TYPE, FeedInfo, FeedItem, json_feed, rss
from feedsift.testweb.markup import attrs, body_html, document, esc, tag_list
from feedsift.testweb.posts import Blueprint, Post
from feedsift.testweb.responses import HTML, Request, Response, Router, cached, redirect
from feedsift.testweb.sites import FeedSpec, GeneratedSite

__all__ = ["Gazette"]

SECTIONS = ("world", "business", "local")
#: Tracking parameters each section feed appends to its links.
FEED_TRACKING = {
    "world": "?ref=rss",
    "business": "?at_medium=RSS&at_campaign=business",
    "local": "?ref=rss",
}
#: Reporter titles by section.
ROLES = {
    "world": "World affairs correspondent",
    "business": "Business reporter",
    "local": "Local democracy reporter",
}
#: The inline "Read more" box comes after this many paragraphs.
READ_MORE_AFTER = 3
#: Stories in the "Most read" box and on a section front.
MOST_READ, FRONT_SIZE = 5, 12
_STORY = r"/([a-z]+)/(\d{4})/([a-z]{3})/(\d{2})/([a-z0-9-]+)"


class Gazette(GeneratedSite):
    name: ClassVar[str] = "gazette"
    title: ClassVar[str] = "The Harbour Gazette"
    template: ClassVar[str] = "news"
    blueprint: ClassVar[Blueprint] = Blueprint("gazette", "news", SECTIONS, 6, 0.2)
    feed_specs: ClassVar[tuple[FeedSpec, ...]] = (
        *(FeedSpec(f"/rss/{s}.xml", "rss", s) for s in SECTIONS),
        FeedSpec("/feed.json", "json"),
    )

    def routes(self) -> Router:
        return Router.of(
            (r"/", lambda r, m: self._front(None)),
            (r"/(world|business|local)/?", lambda r, m: self._front(m[1])),
            (_STORY, self._story),
            (r"/rss/([a-z]+)\.xml", lambda r, m: self._rss(m[1])),
            (r"/feed\.json", lambda r, m: self._json()),
            (r"/profile/([a-z-]+)", self._profile),
            (r"/robots.txt", lambda r, m: _robots(self.base_url)),
        )

    def story_path(self, post: Post, section: str) -> str:
        day = post.published
        return f"/{section}/{day:%Y}/{day:%b}/{day:%d}/{post.slug}".lower()

    def tags(self, post: Post) -> tuple[str, ...]:
        """Sections are what this template shows as tags."""
        return tuple(section.title() for section in post.sections)

    def canonical(self, post: Post) -> str:
        return self.url(self.story_path(post, post.sections[0]))

    def feed_link(self, post: Post, section: str) -> str:
        return self.url(self.story_path(post, section)) + FEED_TRACKING[section]

    def variants(self, post: Post) -> tuple[str, ...]:
        found = [self.canonical(post)]
        for section in post.sections[1:]:
            found.append(self.url(self.story_path(post, section)))
        found += [self.feed_link(post, section) for section in post.sections]
        return tuple(dict.fromkeys(found))

    # -- pages ------------------------------------------------------------------------

    def _story(self, request: Request, match: re.Match[str]) -> Response:
        post = self.find(match[5])
        if post is None or match[1] not in post.sections:
            return self._missing()
        if self.story_path(post, match[1]) != request.path:
            return self._missing()
        if match[1] != post.sections[0]:
            return redirect(self.canonical(post))
        head = self._head(
            f"{post.title} | {post.sections[0].title()}",
            self.canonical(post),
            _story_meta(post, self.canonical(post)),
        )
        main = f'<div class="layout">{self._article(post)}{self._sidebar()}</div>'
        return self._respond(head, f"article-page section-{post.sections[0]}", main)

    def _front(self, section: str | None) -> Response:
        posts = [p for p in self.live() if section is None or section in p.sections]
        cards = "".join(self._card(p) for p in posts[:FRONT_SIZE])
        heading = section.title() if section else "Top stories"
        main = (
            f'<div class="layout"><section class="front"><h1 class="front-title">'
            f'{heading}</h1><div class="cards">{cards}</div></section>'
            f"{self._sidebar()}</div>"
        )
        return self._respond(
            self._head(heading, self.url(f"/{section or ''}"), ""),
            f"front section-{section or 'home'}",
            main,
        )

    def _profile(self, request: Request, match: re.Match[str]) -> Response:
        posts = [p for p in self.live() if _slug(p.author) == match[1]]
        if not posts:
            return self._missing()
        cards = "".join(self._card(p) for p in posts)
        main = (
            f'<section class="profile"><h1>{esc(posts[0].author)}</h1>'
            f'<p class="role">{ROLES[posts[0].sections[0]]}</p>{cards}</section>'
        )
        return self._respond(
            self._head(posts[0].author, self.url(request.path), ""), "profile", main
        )

    def _missing(self) -> Response:
        main = (
            '<section class="error"><h1>Sorry, we can&rsquo;t find that page</h1>'
            "<p>It may have been moved or deleted.</p></section>"
        )
        page = self._respond(self._head("Page not found", self.url("/"), ""), "error", main)
        return Response(status=404, body=page.body)

    def _respond(self, head: str, body_class: str, main: str) -> Response:
        layout = (
            f"{_cookie_banner()}{_masthead(self._edition_date())}"
            '<div class="ad-slot ad-leaderboard" data-ad-slot="top" aria-hidden="true">'
            '<span class="ad-label">Advertisement</span></div>'
            f'<main class="page-content">{main}</main>{_footer()}'
        )
        page = document("en-GB", head, body_class, layout)
        return cached(page, HTML, max((p.published for p in self.live()), default=None))

    def _edition_date(self) -> str:
        newest = self.live()[0].published if self.live() else None
        return f"{newest:%A} {newest.day} {newest:%B %Y}" if newest else ""

    def _head(self, heading: str, canonical: str, extra: str) -> str:
        feeds = "".join(
            f'<link rel="alternate" type="application/rss+xml" title="{s.title()}" '
            f'href="{self.url(f"/rss/{s}.xml")}">'
            for s in SECTIONS
        )
        return (
            f"<title>{esc(heading)} | The Harbour Gazette</title>\n"
            f'<link rel="canonical" href="{esc(canonical)}">\n{extra}\n{feeds}\n'
            '<link rel="alternate" type="application/feed+json" href="/feed.json">\n'
            '<link rel="stylesheet" href="/static/css/gazette.4f1c.css">'
        )

    def _article(self, post: Post) -> str:
        blocks = body_html(post.blocks).split("\n")
        blocks.insert(min(2, len(blocks)), _ad("inline-1"))
        blocks.insert(min(READ_MORE_AFTER + 1, len(blocks)), self._read_more(post))
        section = post.sections[0]
        return (
            '<article class="story" itemscope itemtype="https://schema.org/NewsArticle">'
            f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li>'
            f'<li><a href="/{section}/">{section.title()}</a></li></ol></nav>'
            f'<header class="story-header"><h1 class="headline" itemprop="headline">'
            f"{esc(post.title)}</h1>{_byline(post)}{_share_tools()}</header>"
            f'<figure class="lead-image"><img src="/img/{post.slug}.jpg" alt="" width="940" '
            'height="560"></figure>'
            f'<div class="story-body" itemprop="articleBody">{"".join(blocks)}</div>'
            f'<footer class="story-footer"><ul class="topic-tags">'
            + "".join(f'<li><a href="/{s}/">{s.title()}</a></li>' for s in post.sections)
            + "</ul></footer></article>"
        )

    def _read_more(self, post: Post) -> str:
        others = [p for p in self.live() if p.post_id != post.post_id][:3]
        links = [(self.canonical(p), p.title) for p in others]
        return (
            '<aside class="read-more" aria-label="Read more"><h2 class="read-more-title">'
            f"Read more</h2>{tag_list(links, 'read-more-list')}</aside>"
        )

    def _sidebar(self) -> str:
        ranked = sorted(self.live(), key=lambda p: (p.number * 7919) % 31)[:MOST_READ]
        rows = "".join(
            f'<li><span class="rank">{n}</span>'
            f'<a href="{self.canonical(p)}">{esc(p.title)}</a></li>'
            for n, p in enumerate(ranked, 1)
        )
        return (
            '<aside class="sidebar"><section class="most-read"><h2>Most read</h2>'
            f"<ol>{rows}</ol></section>{_ad('mpu-1')}{_newsletter()}</aside>"
        )

    def _card(self, post: Post) -> str:
        return (
            f'<div class="card"><a class="card-link" href="{self.canonical(post)}">'
            f'<h3 class="card-headline">{esc(post.title)}</h3></a>'
            f'<p class="card-standfirst">{esc(post.excerpt(24))}</p>'
            f'<span class="card-meta">{post.sections[0].title()} &middot; '
            f'<time datetime="{post.published.isoformat()}">{_news_date(post)}</time></span></div>'
        )

    # -- feeds ------------------------------------------------------------------------

    def _rss(self, section: str) -> Response:
        spec = next((s for s in self.feed_specs if s.section == section), None)
        if spec is None:
            return self._missing()
        items = [
            FeedItem(
                p.title,
                self.feed_link(p, section),
                self.canonical(p),
                p.published,
                p.author,
                (section.title(),),
                p.excerpt(35),
            )
            for p in self.feed_posts(spec)
        ]
        info = FeedInfo(
            f"{section.title()} | The Harbour Gazette",
            self.url(f"/{section}/"),
            self.url(spec.path),
            f"{section.title()} news from the Gazette",
            "gazette-cms 4.2",
        )
        newest = max((i.published for i in items), default=None)
        return cached(rss(info, items), RSS_TYPE, newest)

    def _json(self) -> Response:
        spec = next(s for s in self.feed_specs if s.format == "json")
        items = [
            FeedItem(
                p.title,
                self.canonical(p),
                self.canonical(p),
                p.published,
                p.author,
                tuple(s.title() for s in p.sections),
                p.excerpt(35),
                body_html(p.blocks),
            )
            for p in self.feed_posts(spec)
        ]
        info = FeedInfo(
            "The Harbour Gazette",
            self.url("/"),
            self.url(spec.path),
            "News from Port Evering and beyond",
            "gazette-cms 4.2",
        )
        newest = max((i.published for i in items), default=None)
        return cached(json_feed(info, items), JSON_FEED_TYPE, newest)


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def _news_date(post: Post) -> str:
    moment = post.published
    return f"{moment:%a} {moment.day} {moment:%b %Y %H.%M} GMT"


def _robots(base_url: str) -> Response:
    text = (
        "User-agent: *\nDisallow: /search\nDisallow: /preview/\n\n"
        f"Sitemap: {base_url}/sitemap.xml\n"
    )
    return Response(body=text.encode(), content_type="text/plain; charset=utf-8")


def _story_meta(post: Post, canonical: str) -> str:
    metas = [
        ("og:type", "article"),
        ("og:title", post.title),
        ("og:url", canonical),
        ("og:site_name", "The Harbour Gazette"),
        ("article:section", post.sections[0].title()),
        ("article:published_time", post.published.isoformat()),
    ]
    ld = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": post.title,
        "datePublished": post.published.isoformat(),
        "mainEntityOfPage": canonical,
        "author": [{"@type": "Person", "name": post.author}],
        "publisher": {"@type": "NewsMediaOrganization", "name": "The Harbour Gazette"},
    }
    return (
        f'<meta name="author" content="{esc(post.author)}">\n'
        + "\n".join(f"<meta {attrs(property=k, content=v)}>" for k, v in metas)
        + f'\n<script type="application/ld+json">{json.dumps(ld)}</script>'
    )


def _byline(post: Post) -> str:
    return (
        f'<div class="byline"><span class="byline-author" itemprop="author">By '
        f'<a href="/profile/{_slug(post.author)}" rel="author">{esc(post.author)}</a></span>'
        f'<span class="byline-role">{ROLES[post.sections[0]]}</span></div>'
        f'<div class="dateline"><time datetime="{post.published.isoformat()}" '
        f'itemprop="datePublished">{_news_date(post)}</time></div>'
    )


def _share_tools() -> str:
    items = "".join(
        f'<li><a class="share-{s.lower()}" href="#share">{s}</a></li>'
        for s in ("Facebook", "X", "WhatsApp", "Email")
    )
    return f'<ul class="share-tools" aria-label="Share this story">{items}</ul>'


def _ad(slot: str) -> str:
    return (
        f'<div class="ad-slot ad-{slot.split("-")[0]}" data-ad-slot="{slot}" aria-hidden="true">'
        '<span class="ad-label">Advertisement</span></div>'
    )


def _cookie_banner() -> str:
    return (
        '<div id="cookie-banner" class="cookie-consent" role="dialog" aria-label="Cookie consent">'
        "<p>We use cookies to personalise content and ads, to provide social media features and "
        "to analyse our traffic. You can change your choices at any time in the Privacy Centre."
        '</p><button class="cookie-accept">Accept all</button>'
        '<button class="cookie-manage">Manage preferences</button></div>'
    )


def _masthead(edition_date: str) -> str:
    sections = [("/", "Home")] + [(f"/{s}/", s.title()) for s in SECTIONS]
    extra = [("/opinion/", "Opinion"), ("/sport/", "Sport"), ("/weather/", "Weather")]
    return (
        '<header class="masthead"><div class="masthead-top"><span class="edition">'
        f'{esc(edition_date)}</span><a class="subscribe-link" href="/subscribe">Support us</a>'
        '<a class="signin" href="/signin">Sign in</a></div>'
        '<a class="logo" href="/">The Harbour Gazette</a>'
        f'<nav class="sections-nav" aria-label="Sections">{tag_list(sections + extra, "nav")}'
        "</nav></header>"
    )


def _newsletter() -> str:
    return (
        '<section class="newsletter-signup"><h2>The Harbour Briefing</h2>'
        "<p>Sign up to our free morning newsletter and get the day&rsquo;s most important local "
        'stories in your inbox.</p><form action="/newsletters/subscribe" method="post">'
        '<input type="email" name="email" placeholder="Your email address">'
        '<button type="submit">Sign up</button></form>'
        '<p class="small-print">By signing up you agree to our privacy policy.</p></section>'
    )


def _footer() -> str:
    links = [
        ("/about", "About us"),
        ("/contact", "Contact"),
        ("/complaints", "Complaints"),
        ("/terms", "Terms of use"),
        ("/privacy", "Privacy policy"),
        ("/cookies", "Cookie settings"),
    ]
    return (
        f'<footer class="site-footer">{tag_list(links, "footer-links")}'
        '<p class="copyright">&copy; 2026 Harbour Gazette Media Ltd. All rights reserved.</p>'
        "</footer>"
    )

"""Marginalia: a WordPress blog (classic theme markup, Jetpack-style extras, comments).

URL scheme (what WordPress does with "Month and name" permalinks):

* ``/YYYY/MM/slug/`` the canonical post page; any query is ignored, e.g. the
  ``?utm_source=rss&utm_medium=rss&utm_campaign=slug`` links of the category feeds;
* ``/?p=ID`` the shortlink, answered with a 301 to the canonical URL; the main feed
  links every third post this way;
* ``/feed/`` RSS 2.0 with full ``content:encoded``; ``/category/<c>/feed/`` per category
  (a post in two categories is in two category feeds);
* ``/``, ``/page/N/``, ``/category/<c>/``, ``/tag/<t>/`` listings; ``/about/`` a page.

Post pages carry a comment section, a "Related" block, share buttons, a sidebar of
widgets and ad blocks whose text changes on every request (so pages have no ETag).
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import ClassVar

from feedsift.testweb.content import ProseWriter
from feedsift.testweb.feeds import RSS_TYPE, FeedInfo, FeedItem, rss
from feedsift.testweb.markup import attrs, body_html, document, esc, tag_list, us_date
from feedsift.testweb.posts import Blueprint, Post
from feedsift.testweb.responses import HTML, Request, Response, Router, cached, redirect
from feedsift.testweb.sites import FeedSpec, GeneratedSite

__all__ = ["ADS", "Marginalia"]

#: WordPress post ids are not contiguous (revisions and attachments take ids too).
FIRST_ID, ID_STEP = 1180, 13
#: Every n-th post is linked by its ``?p=`` shortlink in the main feed.
SHORTLINK_EVERY = 3
#: Posts per listing page.
PER_PAGE = 6
#: Comments per post (inclusive bounds).
COMMENTS = (2, 5)
#: Rotating ad copy; the request counter picks one and numbers the offer code.
ADS = (
    "Hand-forged garden tools, made in Sheffield since 1921. Free delivery this week",
    "Learn bookbinding in a weekend: small classes, all materials included",
    "The Repair Almanac 2027 is out now, with forty new projects for the workbench",
    "Seed potatoes, onion sets and garlic: order before the first frost",
    "Join 40,000 readers of The Slow Kitchen newsletter, free every Friday",
)
CATEGORIES = ("garden", "repair", "books", "kitchen")
UTM = "?utm_source=rss&utm_medium=rss&utm_campaign="
TAGLINE = "Notes from the workbench, the garden and the reading chair"
ABOUT = (
    "Marginalia is a small personal blog about mending things, growing things and "
    "reading about both. It has been written at the kitchen table since 2011."
)


class Marginalia(GeneratedSite):
    name: ClassVar[str] = "marginalia"
    title: ClassVar[str] = "Marginalia"
    template: ClassVar[str] = "wordpress"
    blueprint: ClassVar[Blueprint] = Blueprint("marginalia", "essay", CATEGORIES, 2, 0.3)
    feed_specs: ClassVar[tuple[FeedSpec, ...]] = (
        FeedSpec("/feed/", "rss"),
        *(FeedSpec(f"/category/{c}/feed/", "rss", c) for c in CATEGORIES),
    )

    def routes(self) -> Router:
        return Router.of(
            (r"/", self._home),
            (r"/page/(\d+)/", self._home),
            (r"/(\d{4})/(\d{2})/([a-z0-9-]+)/", self._post),
            (r"/(\d{4})/(\d{2})/", self._month),
            (r"/feed/", lambda r, m: self._feed(None)),
            (r"/category/([a-z]+)/feed/", lambda r, m: self._feed(m[1])),
            (r"/category/([a-z]+)/", self._category),
            (r"/tag/([a-z0-9-]+)/", self._tag),
            (r"/about/", lambda r, m: self._page("About", f"<p>{esc(ABOUT)}</p>", "page")),
            (r"/robots.txt", lambda r, m: _robots(self.base_url)),
        )

    def post_id(self, post: Post) -> int:
        return FIRST_ID + ID_STEP * post.number

    def canonical(self, post: Post) -> str:
        return self.url(f"/{post.published:%Y/%m}/{post.slug}/")

    def shortlink(self, post: Post) -> str:
        return self.url(f"/?p={self.post_id(post)}")

    def variants(self, post: Post) -> tuple[str, ...]:
        canonical = self.canonical(post)
        return (canonical, self.shortlink(post), canonical + UTM + post.slug)

    # -- pages ------------------------------------------------------------------------

    def _home(self, request: Request, match: re.Match[str]) -> Response:
        wanted = request.param("p")
        if wanted is not None:
            post = next((p for p in self.live() if str(self.post_id(p)) == wanted), None)
            return redirect(self.canonical(post)) if post else self._missing()
        page = int(match[1]) if match.groups() else 1
        return self._listing(self.live(), page, "home blog", None)

    def _month(self, request: Request, match: re.Match[str]) -> Response:
        posts = tuple(p for p in self.live() if f"{p.published:%Y/%m}" == f"{match[1]}/{match[2]}")
        if not posts:
            return self._missing()
        heading = _month_name(f"{match[1]}/{match[2]}")
        return self._listing(posts, 1, "archive date", heading)

    def _category(self, request: Request, match: re.Match[str]) -> Response:
        posts = tuple(p for p in self.live() if match[1] in p.sections)
        if match[1] not in CATEGORIES:
            return self._missing()
        return self._listing(posts, 1, f"archive category category-{match[1]}", match[1])

    def _tag(self, request: Request, match: re.Match[str]) -> Response:
        posts = tuple(p for p in self.live() if match[1] in (t.replace(" ", "-") for t in p.tags))
        if not posts:
            return self._missing()
        return self._listing(posts, 1, f"archive tag tag-{match[1]}", match[1])

    def _post(self, request: Request, match: re.Match[str]) -> Response:
        post = self.find(match[3])
        if post is None or f"{post.published:%Y/%m}" != f"{match[1]}/{match[2]}":
            return self._missing()
        head = self._head(post.title, self.canonical(post), _post_meta(post, self.canonical(post)))
        body_class = f"post-template-default single single-post postid-{self.post_id(post)}"
        main = (
            self._article(post)
            + self._ad_block("after-content")
            + self._post_nav(post)
            + self._comments(post)
        )
        return self._respond(head, body_class, main)

    def _page(self, heading: str, content: str, kind: str) -> Response:
        article = (
            f'<article class="{kind} type-{kind} status-publish hentry">'
            f'<header class="entry-header"><h1 class="entry-title">{esc(heading)}</h1></header>'
            f'<div class="entry-content">{content}</div></article>'
        )
        return self._respond(self._head(heading, self.url("/about/"), ""), f"{kind}", article)

    def _missing(self) -> Response:
        content = "<p>It looks like nothing was found at this location. Maybe try a search?</p>"
        page = self._page("Oops! That page can&rsquo;t be found.", content, "error-404")
        return Response(status=404, body=page.body)

    def _respond(self, head: str, body_class: str, main: str) -> Response:
        layout = (
            '<div id="page" class="site"><a class="skip-link screen-reader-text" '
            'href="#content">Skip to content</a>'
            f"{self._masthead()}"
            '<div id="content" class="site-content"><div id="primary" class="content-area">'
            f'<main id="main" class="site-main">{main}</main></div>{self._sidebar()}</div>'
            f"{_colophon()}</div>"
        )
        return Response(
            body=document("en-GB", head, body_class, layout),
            content_type=HTML,
            headers=(
                ("Cache-Control", "no-cache, must-revalidate, max-age=0"),
                ("Link", f'<{self.url("/wp-json/")}>; rel="https://api.w.org/"'),
            ),
        )

    def _head(self, heading: str, canonical: str, extra: str) -> str:
        return (
            f"<title>{esc(heading)} &#8211; Marginalia</title>\n"
            f'<link rel="canonical" href="{esc(canonical)}">\n'
            '<link rel="alternate" type="application/rss+xml" title="Marginalia &raquo; Feed" '
            f'href="{self.url("/feed/")}">\n'
            '<meta name="generator" content="WordPress 6.6.2">\n'
            "<link rel='stylesheet' id='wp-block-library-css' "
            "href='/wp-includes/css/dist/block-library/style.min.css?ver=6.6.2' media='all'>\n"
            f"{extra}"
        )

    def _masthead(self) -> str:
        menu = [("/", "Home")] + [(f"/category/{c}/", c.title()) for c in CATEGORIES]
        return (
            '<header id="masthead" class="site-header" role="banner"><div class="site-branding">'
            '<p class="site-title"><a href="/" rel="home">Marginalia</a></p>'
            f'<p class="site-description">{TAGLINE}</p></div>'
            '<nav id="site-navigation" class="main-navigation" aria-label="Primary menu">'
            '<button class="menu-toggle" aria-controls="primary-menu">Menu</button>'
            f"{tag_list([*menu, ('/about/', 'About')], 'menu nav-menu')}</nav></header>"
        )

    def _article(self, post: Post) -> str:
        cats = "".join(f" category-{c}" for c in post.sections)
        links = {0: self.url(f"/category/{post.sections[0]}/")}
        content = body_html(post.blocks, links)
        paragraphs = content.split("\n")
        paragraphs.insert(min(2, len(paragraphs)), _adsense_block())
        return (
            f'<article id="post-{self.post_id(post)}" class="post-{self.post_id(post)} post '
            f'type-post status-publish format-standard hentry{cats}">'
            f'<header class="entry-header"><h1 class="entry-title">{esc(post.title)}</h1>'
            f"{_entry_meta(post)}</header>"
            f'<div class="entry-content">{"".join(paragraphs)}'
            f"{_sharing()}{self._related(post)}</div>"
            f"{_entry_footer(post)}</article>"
        )

    def _ad_block(self, place: str) -> str:
        hit = self.hit()
        text = ADS[hit % len(ADS)]
        return (
            f'<div class="code-block code-block-{place} ad-slot" style="margin:8px auto">'
            f'<span class="ad-label">Advertisement</span>'
            f'<p class="ad-copy">{esc(text)}. Offer code MARG{hit:05d}.</p></div>'
        )

    def _related(self, post: Post) -> str:
        others = [p for p in self.live() if p.post_id != post.post_id][:3]
        items = "".join(
            f'<div class="jp-relatedposts-post"><h4 class="jp-relatedposts-post-title">'
            f'<a class="jp-relatedposts-post-a" href="{self.canonical(p)}">{esc(p.title)}</a>'
            f'</h4><p class="jp-relatedposts-post-date">{us_date(p.published)}</p>'
            f'<p class="jp-relatedposts-post-context">In &quot;{p.sections[0].title()}&quot;</p>'
            "</div>"
            for p in others
        )
        return (
            '<div id="jp-relatedposts" class="jp-relatedposts">'
            '<h3 class="jp-relatedposts-headline"><em>Related</em></h3>'
            f'<div class="jp-relatedposts-items">{items}</div></div>'
        )

    def _post_nav(self, post: Post) -> str:
        live = sorted(self.live(), key=lambda p: p.number)
        at = live.index(post)
        parts = []
        if at > 0:
            parts.append(
                _nav_link(
                    "nav-previous", "Previous", self.canonical(live[at - 1]), live[at - 1].title
                )
            )
        if at + 1 < len(live):
            parts.append(
                _nav_link("nav-next", "Next", self.canonical(live[at + 1]), live[at + 1].title)
            )
        return (
            '<nav class="navigation post-navigation" aria-label="Posts">'
            f'<h2 class="screen-reader-text">Post navigation</h2>'
            f'<div class="nav-links">{"".join(parts)}</div></nav>'
        )

    def _comments(self, post: Post) -> str:
        rng = random.Random(f"{self.seed}/{self.name}/comments/{post.number}")
        writer = ProseWriter(rng, "essay")
        count = rng.randint(*COMMENTS)
        items = "".join(_comment(writer, post, n) for n in range(count))
        return (
            '<div id="comments" class="comments-area">'
            f'<h2 class="comments-title">{count} thoughts on &ldquo;{esc(post.title)}&rdquo;</h2>'
            f'<ol class="comment-list">{items}</ol>{_comment_form()}</div>'
        )

    def _sidebar(self) -> str:
        recent = [(self.canonical(p), p.title) for p in self.live()[:5]]
        months = sorted({p.published.strftime("%Y/%m") for p in self.live()}, reverse=True)
        archive = [(f"/{m}/", f"{_month_name(m)}") for m in months]
        cats = [(f"/category/{c}/", c.title()) for c in CATEGORIES]
        return (
            '<aside id="secondary" class="widget-area" role="complementary">'
            '<section id="search-2" class="widget widget_search"><form role="search" '
            'method="get" class="search-form" action="/"><label><span class="screen-reader-text">'
            'Search for:</span><input type="search" class="search-field" name="s"></label>'
            '<input type="submit" class="search-submit" value="Search"></form></section>'
            '<section id="recent-posts-2" class="widget widget_recent_entries">'
            f'<h2 class="widget-title">Recent Posts</h2>{tag_list(recent, "recent")}</section>'
            '<section id="text-3" class="widget widget_text"><h2 class="widget-title">About'
            f'</h2><div class="textwidget"><p>{esc(ABOUT)}</p></div></section>'
            '<section id="custom_html-2" class="widget_text widget widget_custom_html">'
            f"{self._ad_block('sidebar')}</section>"
            '<section id="archives-2" class="widget widget_archive"><h2 class="widget-title">'
            f"Archives</h2>{tag_list(archive, 'archives')}</section>"
            '<section id="categories-2" class="widget widget_categories"><h2 class="widget-title">'
            f"Categories</h2>{tag_list(cats, 'categories')}</section></aside>"
        )

    def _listing(
        self, posts: tuple[Post, ...], page: int, body_class: str, heading: str | None
    ) -> Response:
        shown = posts[(page - 1) * PER_PAGE : page * PER_PAGE]
        if not shown and page > 1:
            return self._missing()
        title = f"{heading.replace('-', ' ').title()}" if heading else "Marginalia"
        header = (
            (f'<header class="page-header"><h1 class="page-title">{esc(title)}</h1></header>')
            if heading
            else ""
        )
        teasers = "".join(self._teaser(p) for p in shown)
        older = ""
        if len(posts) > page * PER_PAGE:
            older = (
                f'<nav class="navigation pagination"><div class="nav-links">'
                f'<a class="next page-numbers" href="/page/{page + 1}/">Older posts</a>'
                "</div></nav>"
            )
        head = self._head(title, self.url("/"), "")
        return self._respond(head, body_class, header + teasers + older)

    def _teaser(self, post: Post) -> str:
        link = self.canonical(post)
        return (
            f'<article id="post-{self.post_id(post)}" class="post type-post hentry">'
            f'<header class="entry-header"><h2 class="entry-title"><a href="{link}" '
            f'rel="bookmark">{esc(post.title)}</a></h2>{_entry_meta(post)}</header>'
            f'<div class="entry-summary"><p>{esc(post.excerpt(55))}</p>'
            f'<a class="more-link" href="{link}">Continue reading<span class="screen-reader-text">'
            f" &ldquo;{esc(post.title)}&rdquo;</span></a></div></article>"
        )

    # -- feeds ------------------------------------------------------------------------

    def _feed(self, category: str | None) -> Response:
        path = f"/category/{category}/feed/" if category else "/feed/"
        spec = next((s for s in self.feed_specs if s.path == path), None)
        if spec is None:
            return self._missing()
        items = [self._feed_item(p, category) for p in self.feed_posts(spec)]
        name = f"Marginalia &raquo; {category.title()}" if category else "Marginalia"
        info = FeedInfo(
            name.replace("&raquo;", "»"),
            self.url("/"),
            self.url(path),
            TAGLINE,
            "https://wordpress.org/?v=6.6.2",
        )
        newest = max((i.published for i in items), default=None)
        return cached(rss(info, items), RSS_TYPE, newest)

    def _feed_item(self, post: Post, category: str | None) -> FeedItem:
        if category:
            link = self.canonical(post) + UTM + post.slug
        elif post.number % SHORTLINK_EVERY == 0:
            link = self.shortlink(post)
        else:
            link = self.canonical(post)
        content = body_html(post.blocks)
        summary = f"{post.excerpt(55).removesuffix('…')} [&#8230;]"
        comments = random.Random(f"{self.seed}/{self.name}/comments/{post.number}").randint(
            *COMMENTS
        )
        return FeedItem(
            post.title,
            link,
            self.shortlink(post),
            post.published,
            post.author,
            tuple(c.title() for c in post.sections) + post.tags,
            summary,
            content,
            comments,
        )


def _robots(base_url: str) -> Response:
    text = (
        "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\n"
        f"Sitemap: {base_url}/wp-sitemap.xml\n"
    )
    return Response(body=text.encode(), content_type="text/plain; charset=utf-8")


def _post_meta(post: Post, canonical: str) -> str:
    return "\n".join(
        f"<meta {attrs(property=k, content=v)}>"
        for k, v in (
            ("og:type", "article"),
            ("og:title", post.title),
            ("og:url", canonical),
            ("og:site_name", "Marginalia"),
            ("article:published_time", post.published.isoformat()),
            ("article:author", post.author),
        )
    )


def _entry_meta(post: Post) -> str:
    slug = post.author.lower().replace(" ", "-")
    return (
        '<div class="entry-meta"><span class="posted-on">Posted on <a href="#" rel="bookmark">'
        f'<time class="entry-date published" datetime="{post.published.isoformat()}">'
        f'{us_date(post.published)}</time></a></span><span class="byline"> by '
        f'<span class="author vcard"><a class="url fn n" href="/author/{slug}/">'
        f"{esc(post.author)}</a></span></span></div>"
    )


def _entry_footer(post: Post) -> str:
    cats = ", ".join(
        f'<a href="/category/{c}/" rel="category tag">{c.title()}</a>' for c in post.sections
    )
    tags = ", ".join(
        f'<a href="/tag/{t.replace(" ", "-")}/" rel="tag">{esc(t)}</a>' for t in post.tags
    )
    return (
        f'<footer class="entry-footer"><span class="cat-links">Posted in {cats}</span>'
        f'<span class="tags-links">Tagged {tags}</span>'
        '<span class="comments-link"><a href="#comments">Leave a comment</a></span></footer>'
    )


def _adsense_block() -> str:
    return (
        '<div class="code-block code-block-2" style="margin:8px auto;text-align:center">'
        '<ins class="adsbygoogle" style="display:block" data-ad-client="ca-pub-0000000000000000"'
        ' data-ad-slot="4815162342" data-ad-format="auto"></ins>'
        "<script>(adsbygoogle = window.adsbygoogle || []).push({});</script></div>"
    )


def _sharing() -> str:
    services = ("Facebook", "X", "Email", "Print")
    items = "".join(
        f'<li class="share-{s.lower()}"><a class="share-{s.lower()} sd-button" '
        f'href="#share-{s.lower()}" title="Click to share on {s}"><span>{s}</span></a></li>'
        for s in services
    )
    return (
        '<div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block '
        'sd-social sd-social-icon-text sd-sharing"><h3 class="sd-title">Share this:</h3>'
        f'<div class="sd-content"><ul>{items}</ul></div></div></div>'
    )


def _nav_link(css: str, label: str, href: str, title: str) -> str:
    return (
        f'<div class="{css}"><a href="{href}" rel="{label.lower()}">'
        f'<span class="meta-nav">{label} post</span> <span class="post-title">{esc(title)}'
        "</span></a></div>"
    )


def _comment(writer: ProseWriter, post: Post, number: int) -> str:
    author = writer.person_name()
    when = post.published + timedelta(hours=3 + 11 * number)
    ident = post.number * 100 + number
    text = " ".join(writer.comment() for _ in range(writer.rng.randint(1, 2)))
    return (
        f'<li id="comment-{ident}" class="comment depth-1"><article id="div-comment-{ident}" '
        'class="comment-body"><footer class="comment-meta"><div class="comment-author vcard">'
        f'<img alt="" src="/avatar/{ident}.png" class="avatar avatar-60" height="60" width="60">'
        f'<b class="fn">{esc(author)}</b> <span class="says">says:</span></div>'
        f'<div class="comment-metadata"><a href="#comment-{ident}"><time datetime="'
        f'{when.isoformat()}">{us_date(when)} at {when:%H:%M}</time></a></div></footer>'
        f'<div class="comment-content"><p>{esc(text)}</p></div><div class="reply">'
        f'<a rel="nofollow" class="comment-reply-link" href="#comment-{ident}">Reply</a>'
        "</div></article></li>"
    )


def _comment_form() -> str:
    return (
        '<div id="respond" class="comment-respond"><h3 id="reply-title" '
        'class="comment-reply-title">Leave a Reply</h3><form action="/wp-comments-post.php" '
        'method="post" id="commentform" class="comment-form"><p class="comment-notes">Your '
        "email address will not be published. Required fields are marked *</p>"
        '<p class="comment-form-comment"><label for="comment">Comment *</label>'
        '<textarea id="comment" name="comment" cols="45" rows="8"></textarea></p>'
        '<p class="comment-form-author"><label for="author">Name *</label>'
        '<input id="author" name="author" type="text"></p><p class="form-submit">'
        '<input name="submit" type="submit" id="submit" class="submit" value="Post Comment">'
        "</p></form></div>"
    )


def _colophon() -> str:
    return (
        '<footer id="colophon" class="site-footer"><div class="site-info">'
        '<a class="site-name" href="/" rel="home">Marginalia</a><span class="sep"> | </span>'
        'Proudly powered by <a href="https://wordpress.org/">WordPress</a>.</div></footer>'
    )


def _month_name(year_month: str) -> str:
    year, month = year_month.split("/")
    names = (
        "January February March April May June July August September October November December"
    ).split()
    return f"{names[int(month) - 1]} {year}"

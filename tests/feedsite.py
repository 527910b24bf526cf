"""A small generated blog for the site-level tests: post pages and a feed sample of them.

Every post has its own title, day, author, tags and three paragraphs of its own words, so
each field can be checked against the feed. :class:`Layout` changes how the pages show
them: a promotion in the heading the posts normally keep their title in, or a site-wide
``<title>`` and ``og:title`` (the page's head says nothing about the post).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import FeedItem, FeedSample

SITE = "https://notes.example"
FEED_URL = f"{SITE}/feed/"
SITE_NAME = "Harbour notes"
AUTHORS = ("Jane Roe", "John Doe")
WORDS = (
    "river harbour council ferry bridge market school garden library station museum village "
    "forest coast island valley meadow orchard quarry mill lantern engine painter signal "
    "kitchen printer bicycle tower teacher winter"
).split()
DAY0 = datetime(2024, 3, 1, 9, 30, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Layout:
    """How a post page shows its fields."""

    promo: bool = False  #: the heading that holds the title holds a promotion; h1 the title
    site_head: bool = False  #: ``<title>`` and ``og:title`` are the site's, not the post's


def _word(n: int, k: int) -> str:
    return WORDS[(n * 7 + k * 3) % len(WORDS)]


@dataclass(frozen=True, slots=True)
class Post:
    """One generated post (``number`` from 1)."""

    number: int

    @property
    def title(self) -> str:
        return f"The {_word(self.number, 0)} and the {_word(self.number, 1)}, part {self.number}"

    @property
    def url(self) -> str:
        return f"{SITE}/posts/{self.number}/"

    @property
    def day(self) -> datetime:
        return DAY0 + timedelta(days=3 * self.number)

    @property
    def author(self) -> str:
        return AUTHORS[self.number % 2]

    @property
    def tags(self) -> tuple[str, ...]:
        return (_word(self.number, 2), _word(self.number, 5))

    @property
    def paragraphs(self) -> tuple[str, ...]:
        n = self.number
        return tuple(
            f"Paragraph {k} of post {n} is about the {_word(n, k)} by the {_word(n, k + 4)}: "
            f"we walked past the {_word(n, k + 8)} and the {_word(n, k + 11)} at dawn, wrote "
            f"down what the {_word(n, k + 13)} looked like, and came back the next week."
            for k in range(1, 4)
        )


def post_html(post: Post, layout: Layout = Layout()) -> str:
    """The page of ``post`` in ``layout``."""
    title = html.escape(post.title)
    head = SITE_NAME if layout.site_head else f"{title} | {SITE_NAME}"
    og = SITE_NAME if layout.site_head else title
    headline = f"Editor's pick: the {_word(post.number + 9, 0)} issue" if layout.promo else title
    heading = f"<h1>{title}</h1>" if layout.promo else ""
    paragraphs = "".join(f"<p>{text}</p>" for text in post.paragraphs)
    tags = "".join(f'<a rel="tag" href="/tag/{t}/">{t}</a>' for t in post.tags)
    recent = "".join(f'<li><a href="/posts/{n}/">Post number {n}</a></li>' for n in range(1, 6))
    return (
        f'<html><head><title>{head}</title><meta property="og:title" content="{og}"></head>'
        f'<body><div id="header"><a class="logo" href="/">{SITE_NAME}</a>'
        '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/about/">About</a></li>'
        '</ul></div><div id="main"><div class="post">'
        f'<h2 class="headline">{headline}</h2>{heading}'
        f'<time datetime="{post.day:%Y-%m-%d}">{post.day:%B} {post.day.day}, {post.day.year}'
        f'</time><span class="author">By {post.author}</span>'
        f'<div class="entry">{paragraphs}</div><div class="tags">{tags}</div></div></div>'
        f'<div id="sidebar"><h3>Recent posts</h3><ul>{recent}</ul></div>'
        f'<div id="footer"><p>Copyright {SITE_NAME} 2024, all rights reserved.</p></div>'
        "</body></html>"
    )


def post_page(post: Post, layout: Layout = Layout()) -> ParsedPage:
    return parse_page(post_html(post, layout), post.url)


def feed_item(post: Post, full_content: bool = True) -> FeedItem:
    """The feed's item of ``post``: full content, or only an excerpt."""
    content = "".join(f"<p>{html.escape(p)}</p>" for p in post.paragraphs)
    return FeedItem(
        post.url, post.title, description=post.paragraphs[0][:80] + " [...]",
        content=content if full_content else None, published=post.day,
        authors=(post.author,), tags=post.tags,
    )  # fmt: skip


def feed_sample(posts: list[Post], full_content: bool = True) -> FeedSample:
    """A feed listing ``posts`` (newest first, as feeds do)."""
    items = tuple(feed_item(p, full_content) for p in sorted(posts, key=lambda p: -p.number))
    return FeedSample(FEED_URL, SITE_NAME, items)


def pages_of(posts: list[Post], layout: Layout = Layout()) -> dict[str, ParsedPage]:
    return {post.url: post_page(post, layout) for post in posts}


def feed_xml(posts: list[Post]) -> bytes:
    """An RSS feed of ``posts`` with their full content (newest first), as a site serves it."""
    items = "".join(
        f"<item><title>{html.escape(p.title)}</title><link>{p.url}</link>"
        f"<pubDate>{format_datetime(p.day)}</pubDate><content:encoded><![CDATA["
        + "".join(f"<p>{text}</p>" for text in p.paragraphs) + "]]></content:encoded></item>"
        for p in sorted(posts, key=lambda p: -p.number)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>'
        f"<title>{SITE_NAME}</title><link>{SITE}/</link><description>Notes</description>"
        f"{items}</channel></rss>"
    ).encode()

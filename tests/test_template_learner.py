"""FeedTemplate (feed-template paper III-C..E) on a small generated blog, and apply.py."""

from __future__ import annotations

import gzip
import html
import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from feedsift.acquisition.feeds import ParsedFeed, parse_feed
from feedsift.errors import ModelError, NotFittedError
from feedsift.parsing.page import ParsedPage, parse_page
from feedsift.records import PageKind
from feedsift.templates.apply import (
    TemplatePaths,
    apply_paths,
    count_found,
    is_post,
    key_nodes,
    link_share,
)
from feedsift.templates.learner import PROPERTIES, FeedTemplate, PathCluster
from feedsift.templates.paths import KeyPath, parse_path
from feedsift.text.tokens import tokenize

SITE = "https://fieldnotes.example"
FEED_URL = f"{SITE}/feed/"
AUTHORS = ("Jane Roe", "John Doe")


class Post:
    """One generated post: its number (1-based), title, opening sentence, tags, day."""

    def __init__(self, number: int, title: str, opening: str, tags: tuple[str, ...]) -> None:
        self.number, self.title, self.opening, self.tags = number, title, opening, tags
        self.day = datetime(2024, 3, 1 + 5 * number, 9, 30, tzinfo=UTC)
        self.author = AUTHORS[number % 2]
        self.url = f"{SITE}/p/{number}/"

    @property
    def paragraphs(self) -> tuple[str, ...]:
        return (
            f"{self.opening} We tried it for a whole season and wrote down each week.",
            f"The second part of post {self.number} explains the details, the costs and "
            "the mistakes we made along the way.",
            "In the end we would do it again, with a few changes the last paragraph lists.",
        )


POSTS = tuple(
    Post(number, title, opening, tags)
    for number, (title, opening, tags) in enumerate(
        [
            ("Why static sites came back",
             "Static sites are back in fashion because they are cheap to host and fast.",
             ("python", "web")),
            ("Keeping bees on a city roof",
             "Bees on a city roof need water close by and shelter from the strong winds.",
             ("bees", "garden")),
            ("Repairing an old bicycle bell",
             "The old bicycle bell rang again after a drop of oil and a new little spring.",
             ("bicycle", "repair")),
            ("A winter walk along the river",
             "The winter walk along the river began at the ferry and ended at the mill.",
             ("walks", "winter")),
            ("Printing a small zine at home",
             "A small zine printed at home costs little more than paper, ink and patience.",
             ("zines", "print")),
            ("Notes from the harbour market",
             "The harbour market opens at dawn when the fishing boats bring in the catch.",
             ("market", "food")),
        ],
        start=1,
    )
)  # fmt: skip
#: The feed lists the four newest posts; posts 1 and 2 are only on the site.
IN_FEED = POSTS[2:][::-1]
NOT_IN_FEED = POSTS[:2]


def _chrome(title: str, main: str) -> str:
    nav = "".join(f'<li><a href="/{n.lower()}/">{n}</a></li>' for n in ("Home", "About", "Tags"))
    recent = "".join(f'<li><a href="{p.url}">{p.title}</a></li>' for p in POSTS)
    return (
        f"<html><head><title>{title} | Field notes</title></head><body>"
        f'<div id="header"><a class="logo" href="/">Field notes</a><ul class="nav">{nav}</ul></div>'
        f'<div id="main">{main}</div>'
        f'<div id="sidebar"><h3>Recent posts</h3><ul>{recent}</ul></div>'
        '<div id="footer"><p>Copyright Field notes 2024, all rights reserved.</p></div>'
        "</body></html>"
    )


def post_html(post: Post) -> str:
    paragraphs = "".join(f"<p>{text}</p>" for text in post.paragraphs)
    tags = "".join(f'<a href="/tag/{tag}/">{tag}</a>' for tag in post.tags)
    return _chrome(
        post.title,
        f'<div id="post-{post.number}" class="post"><h1>{post.title}</h1>'
        f'<time datetime="{post.day:%Y-%m-%d}">{post.day:%B} {post.day.day}, {post.day.year}'
        f'</time><span class="author">By {post.author}</span>'
        f'<div class="entry">{paragraphs}</div><div class="tags">{tags}</div></div>',
    )


def listing_html() -> str:
    teasers = "".join(
        f'<div id="post-{p.number}" class="post"><h1><a href="{p.url}">{p.title}</a></h1>'
        f'<time datetime="{p.day:%Y-%m-%d}">{p.day:%B} {p.day.day}, {p.day.year}</time>'
        f'<div class="entry"><p>{p.paragraphs[0]}</p></div></div>'
        for p in POSTS[1:]
    )
    return _chrome("Field notes", teasers)


def tag_index_html() -> str:
    """All tags, as links only, in the posts' own container."""
    links = "".join(f'<li><a href="/tag/{t}/">{t} posts</a></li>' for p in POSTS for t in p.tags)
    return _chrome(
        "Tags",
        '<div id="post-0" class="post"><h1>All tags</h1>'
        f'<div class="entry"><ul>{links}</ul></div></div>',
    )


def rss(posts: tuple[Post, ...], title: str = "Field notes", by: str = "dc:creator") -> bytes:
    items = "".join(
        f"<item><title>{html.escape(p.title)}</title><link>{p.url}</link><guid>{p.url}</guid>"
        f"<description>{html.escape(p.opening)} [&#8230;]</description>"
        f"<pubDate>{p.day:%a, %d %b %Y %H:%M:%S} +0000</pubDate>"
        + "".join(f"<category>{tag}</category>" for tag in p.tags)
        + f"<{by}>{p.author}</{by}></item>"
        for p in posts
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
        f"<title>{title}</title><link>{SITE}/</link><description>A blog</description>"
        f"{items}</channel></rss>"
    ).encode()


@pytest.fixture(scope="module")
def feed() -> ParsedFeed:
    return parse_feed(rss(IN_FEED), FEED_URL)


@pytest.fixture(scope="module")
def pages() -> dict[str, ParsedPage]:
    return {post.url: parse_page(post_html(post), post.url) for post in POSTS}


@pytest.fixture(scope="module")
def template(feed: ParsedFeed, pages: dict[str, ParsedPage]) -> FeedTemplate:
    own = {post.url: pages[post.url] for post in IN_FEED}
    return FeedTemplate().fit(feed.sample(), own)


@pytest.fixture(scope="module")
def listing() -> ParsedPage:
    return parse_page(listing_html(), f"{SITE}/")


@pytest.fixture(scope="module")
def tag_index() -> ParsedPage:
    return parse_page(tag_index_html(), f"{SITE}/tags/")


# -- fitting ------------------------------------------------------------------------------


def test_fit_returns_self_and_learns_from_every_item(
    feed: ParsedFeed, pages: dict[str, ParsedPage]
) -> None:
    learner = FeedTemplate()
    assert learner.fit(feed.sample(), pages) is learner
    assert learner.is_fitted
    assert learner.items_learned_ == len(IN_FEED)
    assert learner.feed_url_ == FEED_URL


def test_the_key_path_merges_the_post_ids(template: FeedTemplate) -> None:
    post = "|html|body|div[@id=main]|div[@class=post, @id=post-*]"
    assert str(template.key_path) == f"{post}|div[@class=entry]"
    assert template.key_path == template.paths.content
    assert str(template.paths.title) == f"{post}|h1"
    assert str(template.paths.author) == f"{post}|span[@class=author]"
    assert str(template.paths.date) == f"{post}|time"
    assert str(template.paths.tags) == f"{post}|div[@class=tags]|a"
    for name in PROPERTIES:  # every item agreed: one cluster per property
        assert template.clusters_[name] == [PathCluster(getattr(template.paths, name), 4)]


def test_is_post_on_the_posts_the_feed_does_not_list(
    template: FeedTemplate, pages: dict[str, ParsedPage]
) -> None:
    assert [template.is_post(pages[p.url]) for p in NOT_IN_FEED] == [True, True]
    assert all(template.is_post(pages[p.url]) for p in IN_FEED)


def test_is_post_is_false_on_the_listing_and_the_tag_index(
    template: FeedTemplate, listing: ParsedPage, tag_index: ParsedPage
) -> None:
    assert not template.is_post(listing)  # five bodies in the posts' containers
    assert not template.is_post(tag_index)  # one container, but nothing but links
    assert template.key_path is not None
    assert link_share(tag_index, template.key_path) > 0.9


def test_extract_a_post_the_feed_does_not_list(
    template: FeedTemplate, pages: dict[str, ParsedPage]
) -> None:
    post = NOT_IN_FEED[1]
    article = template.extract(pages[post.url])
    assert article.title == post.title
    assert article.text == "\n\n".join(post.paragraphs)
    for boilerplate in ("Home", "Recent posts", "Copyright", post.title, "garden", "By "):
        assert boilerplate not in article.text
    assert article.published is not None and article.published.tzinfo is not None
    assert article.published.date() == post.day.date()
    assert article.authors == (post.author,)
    assert article.tags == post.tags
    assert article.kind is PageKind.ARTICLE
    assert article.provenance.method == "template"
    assert article.provenance.confidence == 1.0
    assert article.url == post.url


def test_an_rss_author_element_works_like_dc_creator(pages: dict[str, ParsedPage]) -> None:
    feed = parse_feed(rss(IN_FEED, by="author"), FEED_URL)
    learner = FeedTemplate().fit(feed.sample(), pages)
    assert str(learner.paths.author).endswith("|span[@class=author]")


def test_max_items_limits_the_items_learned(feed: ParsedFeed, pages: dict[str, ParsedPage]) -> None:
    learner = FeedTemplate(max_items=2).fit(feed.sample(), pages)
    assert learner.items_learned_ == 2
    assert learner.clusters_["content"][0].support == 2


def test_items_without_a_page_are_skipped(feed: ParsedFeed, pages: dict[str, ParsedPage]) -> None:
    two = {post.url: pages[post.url] for post in IN_FEED[:2]}
    learner = FeedTemplate().fit(feed.sample(), two)
    assert learner.items_learned_ == 2
    assert "@id=post-*" in str(learner.key_path)  # two ids are enough to merge
    assert all(learner.is_post(pages[post.url]) for post in POSTS)


def test_one_item_gives_a_literal_key_path(feed: ParsedFeed, pages: dict[str, ParsedPage]) -> None:
    learner = FeedTemplate().fit(feed.sample(), {IN_FEED[0].url: pages[IN_FEED[0].url]})
    assert f"@id=post-{IN_FEED[0].number}]" in str(learner.key_path)
    assert learner.is_post(pages[IN_FEED[0].url])
    assert not learner.is_post(pages[NOT_IN_FEED[0].url])


def test_partial_fit_learns_a_second_poll_like_one_fit_of_both(
    feed: ParsedFeed, pages: dict[str, ParsedPage]
) -> None:
    sample = feed.sample()
    first, second = replace(sample, items=sample.items[:2]), replace(sample, items=sample.items[2:])
    whole = FeedTemplate().fit(sample, pages)
    polled = FeedTemplate().fit(first, pages).partial_fit(second, pages)
    assert polled.items_learned_ == whole.items_learned_ == len(IN_FEED)
    assert polled.paths == whole.paths
    assert polled.counts_ == whole.counts_
    assert [polled.is_post(p) for p in pages.values()] == [whole.is_post(p) for p in pages.values()]


# -- not fitted ---------------------------------------------------------------------------


def test_a_template_that_was_not_fitted_refuses_to_work(pages: dict[str, ParsedPage]) -> None:
    learner = FeedTemplate()
    assert not learner.is_fitted
    assert learner.key_path is None
    page = pages[POSTS[0].url]
    for call in (lambda: learner.is_post(page), lambda: learner.extract(page),
                 lambda: learner.paths, learner.to_bytes):  # fmt: skip
        with pytest.raises(NotFittedError, match="fit"):
            call()


def test_a_comment_feed_learns_nothing(pages: dict[str, ParsedPage]) -> None:
    comments = parse_feed(rss(IN_FEED, title="Comments on: Field notes"), f"{SITE}/comments/feed/")
    learner = FeedTemplate().fit(comments.sample(), pages)
    assert learner.comment_feed_ and learner.items_learned_ == 0
    with pytest.raises(NotFittedError, match="comment feed"):
        learner.is_post(pages[POSTS[0].url])


def test_a_feed_whose_values_are_not_on_the_pages_learns_no_key_path(
    pages: dict[str, ParsedPage],
) -> None:
    strangers = parse_feed(rss(IN_FEED), FEED_URL)
    empty = "<html><body><div class='post'><p>Nothing here, sorry.</p></div></body></html>"
    other = {url: parse_page(empty, url) for url in pages}
    learner = FeedTemplate().fit(strangers.sample(), other)
    assert not learner.is_fitted
    with pytest.raises(NotFittedError):
        learner.extract(other[POSTS[0].url])


# -- state --------------------------------------------------------------------------------


def test_a_saved_template_judges_and_extracts_the_same(
    template: FeedTemplate,
    pages: dict[str, ParsedPage],
    listing: ParsedPage,
    tag_index: ParsedPage,
) -> None:
    loaded = FeedTemplate.from_bytes(template.to_bytes())
    assert loaded.paths == template.paths
    assert loaded.get_state() == template.get_state()
    for page in (*pages.values(), listing, tag_index):
        assert loaded.is_post(page) == template.is_post(page)
        assert loaded.extract(page) == template.extract(page)


def _saved(template: FeedTemplate) -> dict[str, Any]:
    saved: dict[str, Any] = json.loads(gzip.decompress(template.to_bytes()))
    return saved


def _pack(payload: object) -> bytes:
    return gzip.compress(json.dumps(payload).encode())


def test_the_state_names_learner_and_schema(template: FeedTemplate) -> None:
    saved = _saved(template)
    assert saved["learner"] == "template"
    assert saved["schema"] == FeedTemplate.schema_version
    assert saved["state"]["items"] == len(IN_FEED)


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda saved: b"",
        lambda saved: b"not gzip at all",
        lambda saved: gzip.compress(b"{not json"),
        lambda saved: _pack(saved)[:-12],
        lambda saved: _pack({**saved, "schema": 99}),
        lambda saved: _pack({**saved, "learner": "urltree"}),
        lambda saved: _pack({k: v for k, v in saved.items() if k != "state"}),
        lambda saved: _pack({**saved, "state": {**saved["state"], "counts": {"key": [1]}}}),
        lambda saved: _pack({**saved, "state": {**saved["state"], "clusters": {"title": 3}}}),
        lambda saved: _pack({**saved, "state": None}),
    ],
    ids=[
        "empty",
        "garbage",
        "not-json",
        "cut",
        "schema",
        "learner",
        "no-state",
        "counts",
        "clusters",
        "null-state",
    ],
)
def test_a_corrupted_state_raises_model_error(template: FeedTemplate, corrupt: Any) -> None:
    with pytest.raises(ModelError):
        FeedTemplate.from_bytes(corrupt(_saved(template)))


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda saved: _pack([]),
        lambda saved: _pack({**saved, "state": {**saved["state"], "clusters": None}}),
        lambda saved: _pack(
            {**saved, "state": {**saved["state"], "clusters": {"content": [["|html|[", 1]]}}}
        ),
    ],
    ids=["list-payload", "null-clusters", "bad-path"],
)
def test_a_corrupted_state_of_the_wrong_shape_raises_model_error(
    template: FeedTemplate, corrupt: Any
) -> None:
    with pytest.raises(ModelError):
        FeedTemplate.from_bytes(corrupt(_saved(template)))


# -- apply.py -----------------------------------------------------------------------------

KEY = parse_path("|html|body|div[@class=post]|div[@class=entry]")
PATHS = TemplatePaths(
    title=parse_path("|html|body|div[@class=post]|h1"),
    content=KEY,
    author=parse_path("|html|body|div[@class=post]|p[@class=byline]"),
    date=parse_path("|html|body|div[@class=post]|p[@class=date]"),
    tags=parse_path("|html|body|div[@class=post]|ul[@class=tags]|li"),
)
BODY = "The ferry left at dawn and came back at noon with the mail."


def _post(entry: str, head: str = "", post_extra: str = "") -> ParsedPage:
    return parse_page(
        f"<html><head><title>Head title</title>{head}</head><body>"
        f'<div class="post"><h1>The ferry</h1><p class="byline">Posted by Ann Lee</p>'
        f'<p class="date">11 December 2023</p>{post_extra}'
        f'<div class="entry">{entry}</div>'
        '<ul class="tags"><li>boats</li><li>mail</li><li>boats</li></ul></div>'
        "</body></html>",
        f"{SITE}/ferry/",
    )


def test_is_post_needs_one_text_node_with_enough_words() -> None:
    assert is_post(_post(f"<p>{BODY}</p>"), KEY)
    assert not is_post(_post("<p>Too short here.</p>"), KEY)  # an empty shell
    assert not is_post(parse_page("<html><body><p>No template.</p></body></html>"), KEY)
    twice = _post(f"<p>{BODY}</p>", post_extra=f'<div class="entry"><p>{BODY}</p></div>')
    assert not is_post(twice, KEY)  # two bodies: a listing
    assert is_post(twice, KEY, most=2)
    assert count_found(twice, KEY) == 2
    assert len(key_nodes(twice, KEY)) == 2


def test_key_nodes_and_counts_skip_empty_nodes() -> None:
    page = _post(f"<p>{BODY}</p>", post_extra='<div class="entry"> </div>')
    assert count_found(page, KEY) == 1
    assert [node.get("class") for node in key_nodes(page, KEY)] == ["entry"]
    assert is_post(page, KEY)


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        (" — … · ", False),
        ("<!-- words --> , ", False),
        ("_", True),
        ("。你", True),
        ("<b>!</b> x", True),
        ("İ", True),
    ],
)
def test_a_node_holds_text_when_it_has_a_word(text: str, holds: bool) -> None:
    """count_found and key_nodes count a node when its text has a token (a word
    character), as the word count says, punctuation and comments not counting."""
    page = _post(f"<p>{BODY}</p>", post_extra=f'<div class="entry">{text}</div>')
    assert count_found(page, KEY) == 1 + holds
    assert len(key_nodes(page, KEY)) == 1 + holds
    assert (len(tokenize(text.replace("<!-- words -->", ""))) > 0) is holds


def test_link_share_is_the_linked_share_of_the_key_nodes_words() -> None:
    assert link_share(_post(f"<p>{BODY}</p>"), KEY) == 0.0
    half = _post('<p>one two three <a href="/x">four five six</a></p>')
    assert link_share(half, KEY) == pytest.approx(0.5)
    assert link_share(parse_page("<html><body><p>x</p></body></html>"), KEY) == 0.0


def test_apply_paths_reads_every_property_and_cleans_the_body() -> None:
    page = _post(f"<h2>The ferry</h2><p>{BODY}</p><p>Second paragraph of the ferry story.</p>")
    article = apply_paths(page, PATHS, "template")
    assert article.title == "The ferry"
    assert article.text == f"{BODY}\n\nSecond paragraph of the ferry story."  # title block gone
    assert article.authors == ("Ann Lee",)  # "Posted by" dropped
    assert article.published is not None and article.published.date().isoformat() == "2023-12-11"
    assert article.tags == ("boats", "mail")  # deduplicated, in order
    assert article.source_of("title") is not None
    assert article.source_of("title").source == "template"  # type: ignore[union-attr]


def _inside(tail: str) -> KeyPath:
    return parse_path(f"|html|body|div[@class=post]|div[@class=entry]|{tail}")


def test_apply_paths_takes_out_property_blocks_inside_the_content() -> None:
    paths = TemplatePaths(_inside("h1"), KEY, _inside("p[@class=author]"),
                          _inside("div[@class=date]"), _inside("ul[@class=tags]|li"))  # fmt: skip
    page = _post(
        '<h1>Inner title</h1><div class="date"><time datetime="2023-12-11T08:00:00+01:00">'
        'Monday</time></div><p class="author">Author: Bo Ek</p>'
        f'<p>{BODY}</p><ul class="tags"><li>boats</li><li>mail</li></ul>'
    )
    article = apply_paths(page, paths, "template")
    assert article.text == BODY
    assert article.title == "Inner title"
    assert article.authors == ("Bo Ek",)
    assert article.published == datetime(2023, 12, 11, 7, 0, tzinfo=UTC)
    assert article.tags == ("boats", "mail")


def test_apply_paths_takes_out_inline_property_nodes_inside_the_content() -> None:
    paths = TemplatePaths(None, KEY, _inside("span[@class=author]"), None, None)
    page = _post(f'<span class="author">By Bo Ek</span><p>{BODY}</p>')
    article = apply_paths(page, paths, "template")
    assert article.authors == ("Bo Ek",)
    assert article.text == BODY  # actually "By Bo Ek\n\n" + BODY


def test_a_template_whose_body_container_is_the_post_keeps_metadata_out_of_the_body() -> None:
    def anonymous(post: Post) -> ParsedPage:
        return parse_page(post_html(post).replace('<div class="entry">', "<div>"), post.url)

    pages = {post.url: anonymous(post) for post in POSTS}
    learner = FeedTemplate().fit(parse_feed(rss(IN_FEED), FEED_URL).sample(), pages)
    post = NOT_IN_FEED[0]
    assert str(learner.key_path).endswith("|div[@class=post, @id=post-*]")
    article = learner.extract(pages[post.url])
    assert article.authors == (post.author,)
    assert article.text == "\n\n".join(post.paragraphs)


def test_apply_paths_falls_back_to_metadata_and_reports_nothing_found() -> None:
    page = parse_page(
        '<html><head><title>Head title</title><meta property="og:title" content="OG title">'
        '<meta name="author" content="Meta Author"></head><body><p>Nothing of the template.</p>'
        "</body></html>",
        f"{SITE}/about/",
    )
    article = apply_paths(page, PATHS, "template")
    assert article.title == "OG title"
    assert article.authors == ("Meta Author",)
    assert article.body == ()
    assert article.kind is PageKind.EMPTY
    assert article.provenance.confidence == 0.0


def test_a_metadata_fallback_is_recorded_as_such() -> None:
    page = parse_page(
        '<html><head><meta property="og:title" content="OG title"></head><body>'
        "<p>Nothing of the template.</p></body></html>",
        f"{SITE}/about/",
    )
    article = apply_paths(page, PATHS, "template")
    assert article.title == "OG title"
    assert article.source_of("title").source == "opengraph"  # type: ignore[union-attr]
    assert article.source_of("published") is None


def _plain_title(post: Post, heading: str) -> str:
    """The post with a ``<title>`` that is the feed's title word for word, and ``heading``
    shown as the page's heading."""
    page = post_html(post).replace(f"<title>{post.title} | Field notes</title>",
                                   f"<title>{post.title}</title>")  # fmt: skip
    return page.replace(f"<h1>{post.title}</h1>", f"<h1>{heading}</h1>")


def test_titles_are_read_from_the_title_tag_when_it_is_the_feeds_title_field(
    feed: ParsedFeed, template: FeedTemplate
) -> None:
    own = {p.url: parse_page(_plain_title(p, p.title), p.url) for p in IN_FEED}
    learned = FeedTemplate().fit(feed.sample(), own)
    assert learned.title_in_head_ and learned.paths.title_in_head
    other = NOT_IN_FEED[0]
    article = learned.extract(parse_page(_plain_title(other, "Another heading"), other.url))
    assert article.title == other.title
    source = article.source_of("title")
    assert source is not None and source.detail == "|html|head|title"
    assert FeedTemplate.from_bytes(learned.to_bytes()).title_in_head_
    assert not template.title_in_head_  # "Title | Field notes" is not the feed's field


# -- site-wide paths ----------------------------------------------------------------------

#: Every tag of the site, in a header menu on every page: each item's tags are found there.
MENU = "".join(f'<li><a href="/tag/{t}/">{t}</a></li>' for p in POSTS for t in p.tags)


def _with_menu(post: Post) -> str:
    return post_html(post).replace('<div id="main">', f'<ul class="tag-menu">{MENU}</ul>'
                                   '<div id="main">')  # fmt: skip


def test_a_tags_menu_on_every_page_is_not_the_tags_path() -> None:
    feed = parse_feed(rss(IN_FEED), f"{SITE}/feed/")
    pages = {p.url: parse_page(_with_menu(p), p.url) for p in IN_FEED}
    tags = FeedTemplate().fit(feed.sample(), pages).paths.tags
    assert str(tags).endswith("|div[@class=tags]|a")


def test_a_byline_on_every_page_stays_when_the_feed_has_one_author() -> None:
    posts = tuple(Post(p.number, p.title, p.opening, p.tags) for p in IN_FEED)
    for post in posts:
        post.author = "Jane Roe"
    feed = parse_feed(rss(posts), f"{SITE}/feed/")
    pages = {p.url: parse_page(post_html(p), p.url) for p in posts}
    learned = FeedTemplate().fit(feed.sample(), pages)
    assert str(learned.paths.author).endswith("|span[@class=author]")

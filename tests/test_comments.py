"""Reader comments: one record per comment element, author and date read from inside it,
the comment-count header no comment, the body unchanged."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

import feedsift
from feedsift.api import bundled_extractor
from feedsift.evaluation.comments import comment_text
from feedsift.extractors.comments import comment_list_blocks, find_comments
from feedsift.parsing.page import parse_page
from feedsift.records import Comment

BODY = "".join(
    f"<p>Paragraph {n} of the post explains how the binomial coefficient trick works, "
    "why the generating function gives it at once, and what the sums look like when "
    f"you write them out by hand for small values of n and k ({n}).</p>"
    for n in range(1, 9)
)


def _page(comments: str) -> str:
    return (
        "<html><head><title>Binomial coefficient trick</title></head><body>"
        '<div id="header"><a href="/">The Endeavour</a></div>'
        f'<div class="post"><h1>Binomial coefficient trick</h1><div class="entry">{BODY}</div>'
        f'</div><div id="comments">{comments}</div></body></html>'
    )


#: Thesis (dragnet page 103): a count header, then each comment as a dt of name and date
#: and a dd of text.
THESIS = _page(
    '<div class="comments_intro"><p><span class="bracket">{</span> <span>2</span> '
    'comments&#8230; read them below or <a href="#respond">add one</a> '
    '<span class="bracket">}</span></p></div><dl id="comment_list">'
    '<dt class="comment" id="comment-1"><span class="comment_num"><a href="#c1">1</a></span>'
    '<p><span class="comment_author">DKB @ NYU</span> '
    '<span class="comment_time">07.21.12 at 17:46</span></p></dt>'
    '<dd class="comment"><p>You might like Wilf\u2019s book on generating functions.</p></dd>'
    '<dt class="comment alt author_comment" id="comment-2"><span class="comment_num">'
    '<a href="#c2">2</a></span><p><span class="comment_author">John</span> '
    '<span class="comment_time">07.21.12 at 18:35</span></p></dt>'
    '<dd class="comment alt author_comment"><p>Thanks. I really like Wilf\u2019s book.</p></dd>'
    "</dl>"
)

#: WordPress: li.comment items with a vcard ("Ann says:") and a <time datetime>.
WORDPRESS = _page(
    '<h2 class="comments-title">3 thoughts on \u201cBinomial coefficient trick\u201d</h2>'
    '<ol class="comment-list">'
    + "".join(
        f'<li class="comment even depth-1" id="comment-{n}"><article class="comment-body">'
        f'<footer class="comment-meta"><div class="comment-author vcard">'
        f'<b class="fn">{name}</b> <span class="says">says:</span></div>'
        f'<div class="comment-metadata"><time datetime="2024-05-0{n}T10:02:00+00:00">'
        f"May {n}, 2024 at 10:02 am</time></div></footer>"
        f'<div class="comment-content"><p>{text}</p></div></article></li>'
        for n, name, text in [
            (1, "Ann Lee", "Lovely trick, I used it in my class this week."),
            (2, "Bo Chen", "The sum in the third paragraph has a typo, I think."),
            (3, "Cy Diaz", "Is there a version for multinomial coefficients?"),
        ]
    )
    + "</ol>"
)

#: Comments of Blogger's older templates (dragnet R101, R87): a dt.comment-author of avatar,
#: name and "said...", a dd.comment-body of text, a dd.comment-footer of date. A name
#: longer than "said..." makes the header a link-heavy line, read as a control.
BLOGGER_OLD = _page(
    '<h4>3 comments:</h4><dl class="avatar-comment-indent" id="comments-block">'
    + "".join(
        f"<dt class='comment-author ' id='c{n}'><a name='c{n}'></a>"
        '<div class="avatar-image-container vcard"><span dir="ltr"><a href="https://www.'
        f'blogger.com/profile/{n}" rel="nofollow" class="avatar-hovercard"><img src="x.gif" '
        f'width="35" height="35" alt="" title="{name}"></a></span></div>{link} said...</dt>'
        f"<dd class='comment-body ' id='Blog1_cmt-{n}'><p>{text}</p></dd>"
        "<dd class='comment-footer'><span class='comment-timestamp'><a href='https://"
        f"b.example.com/2012/09/post.html?showComment=134726673170{n}#c{n}' "
        f"title='comment permalink'>September 1{n}, 2012 4:45 AM</a></span></dd>"
        for n, name, link, text in [
            (1, "MangoWhirl", "<a href='https://www.blogger.com/profile/1' rel='nofollow'>"
             "MangoWhirl</a>", "Ohmygosh, you are back! Hope you are well."),
            (2, "Anonymous", "Anonymous", "Wowza! That is really cool!"),
            (3, "Amie", "<a href='https://www.blogger.com/profile/3'>Amie</a>",
             "Thank you. Really having a rough moment now."),
        ]
    )
    + "</dl>"
)  # fmt: skip

#: Blogger's newer threaded comments (dragnet R660): li.comment with a div.comment-header of
#: cite.user and span.datetime, then p.comment-content.
BLOGGER_NEW = _page(
    '<h4>2 comments:</h4><div class="comments-content"><div class="comment-thread">'
    '<ol id="top-ra">'
    + "".join(
        f'<li class="comment" id="c{n}"><div class="avatar-image-container"><img src="a.gif">'
        '</div><div class="comment-block"><div class="comment-header"><cite class="user">'
        f'<a href="https://www.blogger.com/profile/{n}" rel="nofollow">{name}</a></cite>'
        '<span class="icon user"></span><span class="datetime secondary-text"><a rel="nofollow" '
        f'href="https://b.example.com/p.html?showComment=1{n}#c{n}">{when}</a></span></div>'
        f'<p class="comment-content">{text}</p><span class="comment-actions secondary-text">'
        '<a href="javascript:;">Reply</a><span class="item-control blog-admin">'
        '<a href="https://www.blogger.com/delete-comment.g">Delete</a></span></span></div>'
        '<div class="comment-replies"></div></li>'
        for n, name, when, text in [
            (1, "Sumit Singh", "9/25/12 12:10 AM", "Your blog is nice and the song is fun."),
            (2, "Ryan McClintock", "September 27, 2012 at 10:44 AM",
             "I applaud your courage in posting the video."),
        ]
    )
    + "</ol></div></div>"
)  # fmt: skip


def _comments(html: str) -> tuple[Comment, ...]:
    return feedsift.extract(html, include_comments=True).comments


def test_a_thesis_comment_is_its_dt_and_dd_with_author_and_date() -> None:
    comments = _comments(THESIS)
    assert [c.author for c in comments] == ["DKB @ NYU", "John"]
    assert [c.text for c in comments] == [
        "You might like Wilf\u2019s book on generating functions.",
        "Thanks. I really like Wilf\u2019s book.",
    ]
    assert all(c.published == datetime(2012, 7, 21, tzinfo=UTC) for c in comments)


def test_wordpress_comments_name_their_authors_and_dates() -> None:
    comments = _comments(WORDPRESS)
    assert [c.author for c in comments] == ["Ann Lee", "Bo Chen", "Cy Diaz"]
    assert [c.published.day if c.published else None for c in comments] == [1, 2, 3]
    assert comments[0].text == "Lovely trick, I used it in my class this week."
    assert not any("thoughts on" in c.text or "says" in c.text for c in comments)


def test_comments_leave_the_body_as_it_was() -> None:
    for html in (THESIS, WORDPRESS):
        plain = feedsift.extract(html)
        assert feedsift.extract(html, include_comments=True).text == plain.text
        assert "Wilf" not in plain.text and "Lovely trick" not in plain.text


def test_the_measure_reads_comments_as_a_page_shows_them() -> None:
    comments = (Comment("Nice.", "Ann"), Comment("Thanks!"))
    assert comment_text(comments) == "Ann\nNice.\n\nThanks!"


def test_blogger_comments_name_their_authors_in_old_and_new_templates() -> None:
    old = _comments(BLOGGER_OLD)
    assert [(c.author, c.text) for c in old] == [
        ("MangoWhirl", "Ohmygosh, you are back! Hope you are well."),
        ("Anonymous", "Wowza! That is really cool!"),
        ("Amie", "Thank you. Really having a rough moment now."),
    ]
    assert [c.published.day if c.published else None for c in old] == [11, 12, 13]
    new = _comments(BLOGGER_NEW)
    assert [(c.author, c.text) for c in new] == [
        ("Sumit Singh", "Your blog is nice and the song is fun."),
        ("Ryan McClintock", "I applaud your courage in posting the video."),
    ]
    assert [c.published for c in new] == [datetime(2012, 9, 25, tzinfo=UTC),
                                          datetime(2012, 9, 27, tzinfo=UTC)]  # fmt: skip
    for html in (BLOGGER_OLD, BLOGGER_NEW):
        assert "comments:" not in feedsift.extract(html).text


#: Long prose comments, as readers write them under a post: a block classifier trained on
#: sets whose gold keeps comments takes them for the body.
_LONG = (
    "I have been using this trick for years in my combinatorics course, and the students "
    "always ask why the generating function gives the answer so quickly; your explanation "
    "of the sums written out by hand is the clearest one I have read so far ({n})."
)
#: Readers 1 to 5, each with two long paragraphs.
READERS = range(1, 6)
LONG_COMMENTS = _page(
    '<ol class="comment-list">'
    + "".join(
        f'<li class="comment" id="comment-{n}"><div class="comment-author"><b class="fn">'
        f'Reader {n}</b></div><div class="comment-content"><p>{_LONG.format(n=n)}</p>'
        f"<p>{_LONG.format(n=n + 10)}</p></div></li>"
        for n in READERS
    )
    + "</ol>"
)
#: The same comments written without class words inside ``div#comments`` (TrekMovie,
#: dragnet page T13): a ``dl`` of numbered ``dt`` headers and ``dd`` texts.
BARE_LIST = _page(
    "<h2>Comments</h2><dl>"
    + "".join(
        f'<dt class=""><a href="#c{n}">{n}.</a> Reader {n} - August 8, 2012</dt>'
        f'<dd class=""><p>{_LONG.format(n=n)}</p><p>{_LONG.format(n=n + 10)}</p></dd>'
        for n in READERS
    )
    + "</dl>"
)


@pytest.mark.parametrize("html", [LONG_COMMENTS, BARE_LIST], ids=["classed", "bare"])
def test_a_list_of_comments_under_an_article_is_never_its_body(html: str) -> None:
    article = feedsift.extract(html, include_comments=True)
    assert article.kind is feedsift.PageKind.ARTICLE
    assert "Paragraph 8 of the post" in article.text
    assert "combinatorics course" not in article.text
    assert [c.author for c in article.comments] == [f"Reader {n}" for n in READERS]


def test_a_bare_lists_dt_dates_the_comment_after_it() -> None:
    comments = feedsift.extract(BARE_LIST, include_comments=True).comments
    assert {c.published for c in comments} == {datetime(2012, 8, 8, tzinfo=UTC)}


def test_one_element_with_a_comment_class_word_is_not_a_list_of_comments() -> None:
    html = LONG_COMMENTS.replace('<div class="entry">', '<div class="entry commentary">')
    assert "Paragraph 8 of the post" in feedsift.extract(html).text


def test_only_an_element_named_a_list_of_comments_holds_one_without_class_words() -> None:
    # A forum's posts inside XenForo's ``js-replyNewMessageContainer`` ("reply" marks it
    # comment-like) are the page's posts, not a list of comments under it.
    for holder, listed in (('<div id="comments">', True),
                           ('<div class="js-replyNewMessageContainer">', False)):  # fmt: skip
        page = parse_page(BARE_LIST.replace('<div id="comments">', holder))
        signals = bundled_extractor().decide(page).analysis.signals
        mask = comment_list_blocks(page.view, signals)
        texts = [b.text for b, kept in zip(page.view.blocks, mask, strict=True) if kept]
        assert any("combinatorics course" in t for t in texts) is listed


#: Movable Type (dragnet pages R187, T2): a heading "Comments" and then each comment as a
#: bare sibling, its text in ``div#c<n>`` and its byline after it, no element around them.
MOVABLE_TYPE = (
    "<html><head><title>Binomial coefficient trick</title></head><body>"
    '<div id="header"><a href="/">The Endeavour</a></div>'
    f'<div class="content"><h1>Binomial coefficient trick</h1>{BODY}'
    '<p class="posted">Posted by John at September 10, 2012 9:01 AM</p>'
    '<h2 id="comments">Comments</h2>'
    + "".join(
        f'<div id="c{n}"><p>{_LONG.format(n=n)}</p></div>'
        f'<p class="posted">Posted by: Reader {n} at September 10, 2012 11:4{n} AM</p>'
        for n in READERS
    )
    + "</div></body></html>"
)


def test_comments_after_a_comments_heading_are_no_body() -> None:
    text = feedsift.extract(MOVABLE_TYPE).text
    assert "Paragraph 8 of the post" in text
    assert "combinatorics course" not in text and "Reader 3" not in text


def test_a_heading_that_only_starts_with_comment_opens_no_comments() -> None:
    # French "Comment ..." (how) is a headline, not the comments: the text after it stays.
    french = MOVABLE_TYPE.replace("<h2 id=\"comments\">Comments</h2>",
                                  "<h2>Comment les lecteurs ont répondu</h2>")  # fmt: skip
    listed = []
    for html in (MOVABLE_TYPE, french):
        page = parse_page(html)
        signals = bundled_extractor().decide(page).analysis.signals
        mask = comment_list_blocks(page.view, signals)
        listed.append({b.text for b, m in zip(page.view.blocks, mask, strict=True) if m})
    assert any("combinatorics course" in t for t in listed[0])  # the real heading lists them
    assert listed[1] == set()


#: An Elementor page (trafilatura set, jungefreiheit.de): the post, the header and the footer
#: are ``div.elementor`` siblings, and the post's category ``kommentar`` (a commentary
#: column) is written as its class name ``category-kommentar``.
ELEMENTOR = (
    "<html><head><title>Binomial coefficient trick</title></head><body>"
    '<div class="elementor elementor-location-header"><a href="/">The Endeavour</a></div>'
    '<div class="elementor elementor-location-single post type-post hentry '
    'category-kommentar tag-social"><h1>Binomial coefficient trick</h1>'
    f'<div class="elementor-widget-container">{BODY}</div></div>'
    '<div class="elementor elementor-location-footer"><p>Impressum</p></div></body></html>'
)


def test_a_posts_category_or_tag_class_does_not_make_it_a_comment() -> None:
    page = parse_page(ELEMENTOR)
    signals = bundled_extractor().decide(page).analysis.signals
    assert not comment_list_blocks(page.view, signals).any()
    article = feedsift.extract(ELEMENTOR, include_comments=True)
    assert "Paragraph 8 of the post" in article.text and article.comments == ()
    nothing_kept = np.zeros(len(page.view.blocks), dtype=bool)  # the post's lines are no comment
    assert find_comments(page.view, signals, nothing_kept, -1) == ()
    # the same layout with a class that names the element a comment is a list of them
    named = ELEMENTOR.replace("category-kommentar tag-social", "comment")
    page = parse_page(named)
    signals = bundled_extractor().decide(page).analysis.signals
    assert comment_list_blocks(page.view, signals).any()

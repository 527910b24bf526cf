"""Visible-text dates: many languages and formats, never a related post's or a comment's."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

import feedsift
from feedsift.metadata.textdates import (
    MONTH_NAMES,
    dated,
    find_text_date,
    opens_with_date_word,
)

JULY_15 = date(2021, 7, 15)


@pytest.mark.parametrize(
    "text",
    [
        "15 July, 2021", "15. Juli 2021", "15 juillet 2021", "15 de julio de 2021",
        "15 luglio 2021", "15 de julho de 2021", "15 juli 2021", "July 15th, 2021",
        "Jul 15 2021", "2021年7月15日", "2021년 7월 15일", "15.07.2021", "2021/07/15",
        "07/15/2021", "15-07-2021", "07-15-2021, 09:03 AM", "Posted on 15 July, 2021 by Ann",
        "15th of July, 2021", "15-Jul-2021", "15/Jul/2021", "15 de juliol de 2021",
        "15 iulie 2021", "15 Juli 2021", "15 Julai 2021", "15 Temmuz 2021",
        "15. heinäkuuta 2021", "2021. július 15.", "15 lipca 2021 r.", "15. července 2021",
        "15 июля 2021 г.", "15 липня 2021", "15 tháng 7, 2021", "ngày 15 tháng 7 năm 2021",
        "Do 15.07.21 | 14:07 Uhr | Von Eva", "Stand: 15.07.21.",
    ],
)  # fmt: skip
def test_written_dates_in_many_languages(text: str) -> None:
    found = find_text_date(text)
    assert found is not None and found.date() == JULY_15 and found.tzinfo is UTC


@pytest.mark.parametrize(
    "text",
    ["", "Chapter 15 of 2021", "31 February 2021", "3 March 1850", "version 2.4.1",
     "15 July 2999", "macOS 12 2021", "la liste des 12 2021", "in 2021 we had 12 July events",
     "Python 3.10.12", "v15.07.21.1", "15.7.21", "15.07.99", "1.15.07.21"],
)  # fmt: skip
def test_no_date_where_none_is_written(text: str) -> None:
    assert find_text_date(text) is None


@given(
    st.dates(min_value=date(1990, 1, 1), max_value=date(2025, 12, 31)),
    st.sampled_from(["{d} {m} {y}", "{d}. {m} {y}", "{m} {d}, {y}", "{d} de {m} de {y}"]),
    st.integers(min_value=0, max_value=20),
)
def test_any_day_in_any_month_name_reads_back(day: date, shape: str, pick: int) -> None:
    names = MONTH_NAMES[day.month]
    text = shape.format(d=day.day, m=names[pick % len(names)].capitalize(), y=day.year)
    found = find_text_date(text)
    assert found is not None and found.date() == day


def test_page_date_from_a_time_element_without_datetime_not_from_a_related_card() -> None:
    prose = "We went to Oslo and it was lovely. " * 30
    html = f"""<html><head><title>My trip to Oslo | Blog</title></head><body>
    <header><a href="/">Blog</a></header><article><h1>My trip to Oslo</h1>
    <div class="post-meta"><time>15 July, 2021</time></div><p>{prose}</p></article>
    <aside class="related-posts"><h3>Related</h3><div class="card"><a href="/p2">Another
    post</a> <time>3 March, 2019</time></div></aside></body></html>"""
    article = feedsift.extract(html, url="https://blog.example.org/oslo/")
    assert article.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_a_date_only_in_a_related_card_is_not_the_pages() -> None:
    prose = "We went to Oslo and it was lovely. " * 30
    html = f"""<html><head><title>My trip to Oslo | Blog</title></head><body>
    <article><h1>My trip to Oslo</h1><p>{prose}</p></article>
    <aside class="related-posts"><div class="card"><a href="/p2">Another post</a>
    <time>3 March, 2019</time></div></aside></body></html>"""
    article = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert article.published is None


_PROSE = "We went to Oslo and it was lovely, the fjord was calm and the bread was warm. " * 25
_MENU = "".join(f'<li><a href="/topic/{n}">Topic number {n}</a></li>' for n in range(60))


def _oslo(body: str) -> str:
    return (
        "<html><head><title>My trip to Oslo | Blog</title></head><body>"
        f'<nav><ul class="menu">{_MENU}</ul></nav>{body}</body></html>'
    )


def test_a_date_line_under_the_post_is_read_but_not_a_bare_date_there() -> None:
    posted = _oslo(
        f"<article><h1>My trip to Oslo</h1>{f'<p>{_PROSE}</p>' * 20}"  # past the top's window
        "<p>Posted on the 15/07/2021 at 19:00 by Ann</p></article>"
    )
    found = feedsift.extract(posted, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)
    bare = posted.replace("Posted on the 15/07/2021 at 19:00 by Ann", "15/07/2021")
    found = feedsift.extract(bare, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published is None


def test_the_date_of_a_post_inside_a_related_named_wrapper_is_the_pages() -> None:
    html = _oslo(
        '<div class="related-content-wrapper"><article><h1>My trip to Oslo</h1>'
        f'<div class="post-meta">Published on July 15, 2021</div><p>{_PROSE}</p>'
        "</article></div>"
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_a_meta_tag_named_published_is_the_date() -> None:
    html = _oslo(f"<article><h1>My trip to Oslo</h1><p>{_PROSE}</p></article>").replace(
        "</head>", '<meta name="published" content="July 15, 2021"></head>'
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_a_line_that_reads_hours_ago_gives_the_time_its_attribute_keeps() -> None:
    html = _oslo(
        '<article><h1>My trip to Oslo</h1><div class="subline">by ann '
        '<span class="age" title="2021-07-15T10:00:00">3 years ago</span> | 45 comments</div>'
        f"<p>{_PROSE}</p></article>"
    )
    found = feedsift.extract(html, url="https://news.example.org/item?id=1", htmldate=False)
    assert found.published is not None and found.published.date() == JULY_15


def test_a_microdata_date_written_in_visible_text_is_read() -> None:
    html = _oslo(
        '<article><h1>My trip to Oslo</h1><span itemprop="datePublished">07-15-2021, '
        f"09:03 AM</span><p>{_PROSE}</p></article>"
    )
    found = feedsift.extract(html, url="https://forum.example.org/t/1", htmldate=False)
    assert found.published is not None and found.published.date() == JULY_15


def test_the_publication_day_is_the_publishers_when_the_page_writes_its_zone() -> None:
    html = _oslo(
        '<article><h1>My trip to Oslo</h1><time datetime="2021-07-15T19:05:00-08:00">'
        f"July 15, 2021</time><p>{_PROSE}</p></article>"
    ).replace("</head>", '<meta property="article:published_time" '
              'content="2021-07-16T03:05:00+00:00"></head>')  # fmt: skip
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published is not None and found.published.date() == JULY_15
    assert found.published.utcoffset() is not None and found.published.utcoffset().days == -1


def test_a_date_line_is_read_past_boxes_of_other_posts_around_the_post() -> None:
    recent = "".join(
        f'<li><a href="/p{n}">Post {n}</a> <time datetime="2019-03-0{n}">March {n}, 2019</time>'
        "</li>" for n in range(1, 4)
    )  # fmt: skip
    html = _oslo(
        f'<div class="sidebar"><h3>Recent posts</h3><ul>{recent}</ul></div>'
        f"<article><h1>My trip to Oslo</h1><p>15 July 2021</p><p>{_PROSE}</p>"
        '<div class="post-navigation"><a href="/prev">Bergen <time datetime="2019-03-03">'
        "3 March 2019</time></a></div></article>"
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_no_date_line_comes_from_a_sidebar_that_lists_posts() -> None:
    recent = "".join(
        f'<li><a href="/p{n}">Post {n}</a> <span>{n} March 2019</span></li>' for n in range(1, 4)
    )
    html = _oslo(
        f"<article><h1>My trip to Oslo</h1><p>{_PROSE}</p></article>"
        f'<div id="sidebar"><h3>Recent posts</h3><ul>{recent}</ul></div>'
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published is None


@pytest.mark.parametrize(
    "text",
    [
        "Last updated on Aug 20, 2021 · Published Jul 15, 2021",
        "Posted on 15 July 2021, last updated 20 Aug 2021",
        "Updated 2021-08-20 (first published 2021-07-15)",
        "更新日：2021/08/20 投稿日：2021/07/15",
        "Mis à jour le 20 août 2021, publié le 15 juillet 2021",
    ],
)
def test_a_publication_date_beats_an_update_written_before_it(text: str) -> None:
    assert dated(text) == (datetime(2021, 7, 15, tzinfo=UTC), False)


def test_an_update_alone_is_still_a_date_and_says_so() -> None:
    assert dated("Last modified: 20 August 2021") == (datetime(2021, 8, 20, tzinfo=UTC), True)
    assert find_text_date("Aktualisiert am 20. August 2021") == datetime(2021, 8, 20, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "opens"),
    [("发表于 2021-07-15 | 分类于 旅行", True), ("Last updated 20 Aug 2021", True),
     ("Posted in Travel on 15 July 2021", True), ("We went on 15 July 2021", False)],
)  # fmt: skip
def test_lines_that_open_with_a_date_word(text: str, opens: bool) -> None:
    assert opens_with_date_word(text) is opens


def test_an_update_line_near_the_title_yields_to_the_publication_line() -> None:
    html = _oslo(
        "<article><h1>My trip to Oslo</h1><p>Updated: 20 August 2021</p>"
        f"<p>Published: 15 July 2021</p><p>{_PROSE}</p></article>"
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)
    alone = html.replace("<p>Published: 15 July 2021</p>", "")
    found = feedsift.extract(alone, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 8, 20, tzinfo=UTC)


def test_a_long_line_that_opens_with_a_date_word_is_a_date_line() -> None:
    html = _oslo(
        "<article><h1>My trip to Oslo</h1><p>发表于 2021-07-15 | 分类于 旅行 | 阅读次数 1024</p>"
        f"<p>{_PROSE}</p></article>"
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


@pytest.mark.parametrize(
    "line",
    [
        "July 15, 2021 · 12 min read · 2500 words · Jane Doe · Tags: travel, norway, summer, "
        "fjords, food, bread, trains, boats, ferries",
        "Thu, Jul 15 2021 10:00 AM",
        "This post was written by Jane Doe, who lives in Bergen and likes trains, on "
        "<time>15 July, 2021</time> and filed under Travel, Norway and Summer",
    ],
)
def test_a_line_that_opens_with_a_date_or_shows_it_in_a_time_is_a_date_line(line: str) -> None:
    html = _oslo(f"<article><h1>My trip to Oslo</h1><div>{line}</div><p>{_PROSE}</p></article>")
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_a_date_further_into_a_long_line_is_not_a_date_line() -> None:
    line = "We took the night train from Bergen on 15 July 2021 and it was lovely " * 2
    html = _oslo(f"<article><h1>My trip to Oslo</h1><p>{line}</p><p>{_PROSE}</p></article>")
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published is None


def test_dated_within_reads_only_a_date_the_text_opens_with() -> None:
    assert dated("Thursday, 15 July 2021 · Jane", within=16) is not None
    assert dated("We took the night train on 15 July 2021", within=16) is None


_LONG = "".join(f"<p>Part {n}. {_PROSE[:300]}</p>" for n in range(30))  # past the top's window


@pytest.mark.parametrize(
    "footer",
    ['<footer class="post-footer"><time>15 July, 2021</time></footer>',
     '<p class="post-date">15 July 2021</p>'],
)  # fmt: skip
def test_a_marked_date_line_in_the_posts_own_footer_is_read(footer: str) -> None:
    html = _oslo(
        f"<main><article><h1>My trip to Oslo</h1>{_LONG}{footer}</article>"
        '<div class="card"><a href="/x">Older post</a> <time>3 March, 2019</time></div></main>'
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published == datetime(2021, 7, 15, tzinfo=UTC)


def test_a_marked_date_under_the_post_but_outside_its_box_is_not_read() -> None:
    html = _oslo(
        f"<main><article><h1>My trip to Oslo</h1>{_LONG}</article>"
        '<div class="card"><a href="/x">Older post</a> <time>3 March, 2019</time></div></main>'
    )
    found = feedsift.extract(html, url="https://blog.example.org/oslo/", htmldate=False)
    assert found.published is None

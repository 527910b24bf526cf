"""Date parsing, <time> elements, and the htmldate fallback (only when needed, no mutation)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from htmldate import find_date as real_find_date
from lxml import etree

from feedsift.metadata import read_metadata
from feedsift.metadata.dates import parse_datetime
from feedsift.parsing.page import parse_page
from feedsift.records import FieldSource

PLUS_TWO = timezone(timedelta(hours=2))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-10-15T21:01:17+02:00", datetime(2024, 10, 15, 21, 1, 17, tzinfo=PLUS_TWO)),
        ("2024-10-15T21:01:17.233Z", datetime(2024, 10, 15, 21, 1, 17, tzinfo=UTC)),
        (
            "2021-11-01T10:52:50+0100",
            datetime(2021, 11, 1, 10, 52, 50, tzinfo=timezone(timedelta(hours=1))),
        ),
        ("2017-11-03 03:01:00.000000", datetime(2017, 11, 3, 3, 1, tzinfo=UTC)),
        ("2018-04-05T06:00", datetime(2018, 4, 5, 6, 0, tzinfo=UTC)),
        ("2024-06-25", datetime(2024, 6, 25, tzinfo=UTC)),
        ("2024/06/25 14:30", datetime(2024, 6, 25, 14, 30, tzinfo=UTC)),
        ("20240415", datetime(2024, 4, 15, tzinfo=UTC)),
        ("Tue, 15 Oct 2024 21:01:17 +0200", datetime(2024, 10, 15, 21, 1, 17, tzinfo=PLUS_TWO)),
        ("1713586800", datetime(2024, 4, 20, 4, 20, tzinfo=UTC)),
        ("15.10.2024, 09:30", datetime(2024, 10, 15, 9, 30, tzinfo=UTC)),
        ("October 15, 2024", datetime(2024, 10, 15, tzinfo=UTC)),
        ("Posted 3rd Oct. 2019", datetime(2019, 10, 3, tzinfo=UTC)),
    ],
)
def test_parse_datetime_formats(text: str, expected: datetime) -> None:
    parsed = parse_datetime(text)
    assert parsed == expected
    assert parsed is not None and parsed.tzinfo is not None
    assert parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize(
    "text", ["", "yesterday", "1970-01-01T00:00:00Z", "2024-13-45", "3024-01-01", "not 12 a date"]
)
def test_parse_datetime_rejects_non_dates_and_implausible_years(text: str) -> None:
    assert parse_datetime(text) is None


def test_time_element_marked_as_publication_beats_a_plain_time() -> None:
    html = """<html><head></head><body><header><time datetime="2030-01-01">clock</time></header>
    <article><time class="entry-date published" datetime="2016-05-04T03:02:01-07:00">May 4</time>
    <time class="updated" datetime="2016-05-06T00:00:00Z">May 6</time><p>Story.</p></article>
    </body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.published == datetime(2016, 5, 4, 3, 2, 1, tzinfo=timezone(timedelta(hours=-7)))
    assert meta.source_of("published") == FieldSource("published", "dom", "time[pubdate]")
    assert meta.updated == datetime(2016, 5, 6, tzinfo=UTC)


def test_abbr_with_an_iso_title_is_a_time_element() -> None:
    html = """<html><head></head><body><article><p>Story.</p></article><aside>
    <abbr title="2021-06-04T21:40:00+03:00">Fri 04 June 2021</abbr>
    <abbr title="Hypertext Markup Language">HTML</abbr></aside></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.published == datetime(2021, 6, 4, 21, 40, tzinfo=timezone(timedelta(hours=3)))
    assert meta.source_of("published") == FieldSource("published", "dom", "time")


def test_times_in_comments_are_no_date_of_the_post() -> None:
    html = """<html><head></head><body class="comments-open"><article><p>Story.</p>
    <div id="comments"><ol class="comment-list"><li><footer class="comment-meta">
    <time datetime="2020-02-25T13:02:01+01:00">reply</time></footer></li></ol></div>
    <div class="replies"><abbr class="published" title="2020-02-26">Feb 26</abbr></div>
    </article><p class="meta"><time datetime="2020-02-20">Feb 20</time></p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.published == datetime(2020, 2, 20, tzinfo=UTC)


_STORY = "<p>" + "A story about a walk by the river, told at some length. " * 20 + "</p>"
_RECENT = "".join(
    f'<li><a href="/p{n}">Post {n}</a> <time datetime="2019-03-0{n}">March {n}</time></li>'
    for n in range(1, 4)
)


def test_times_in_boxes_of_other_posts_are_no_date_of_the_post() -> None:
    html = f"""<html><head></head><body><div class="sidebar"><h3>Recent</h3><ul>{_RECENT}</ul>
    </div><article><h1>A walk</h1>{_STORY}<div class="post-nav"><a href="/next">Next
    <time datetime="2019-04-01">April 1</time></a></div><div class="related-posts">
    <time datetime="2019-05-01">May 1</time></div></article>
    <p class="meta"><time datetime="2020-02-20">Feb 20</time></p></body></html>"""
    meta = read_metadata(parse_page(html), date_search=False)
    assert meta.published == datetime(2020, 2, 20, tzinfo=UTC)


def test_a_sidebar_with_one_date_or_a_layout_wrapper_holds_the_posts_own_time() -> None:
    own_column = f"""<html><head></head><body><h1>A walk</h1><div class="single-post-sidebar">
    <time datetime="2020-02-20">Feb 20</time></div><article>{_STORY}</article></body></html>"""
    meta = read_metadata(parse_page(own_column), date_search=False)
    assert meta.published == datetime(2020, 2, 20, tzinfo=UTC)
    wrapper = f"""<html><head></head><body><h1>A walk</h1><div class="has-sidebar next-gen">
    <time datetime="2020-02-20">Feb 20</time><article>{_STORY}</article></div></body></html>"""
    meta = read_metadata(parse_page(wrapper), date_search=False)
    assert meta.published == datetime(2020, 2, 20, tzinfo=UTC)


def test_a_related_named_box_that_holds_the_title_is_the_post() -> None:
    html = f"""<html><head></head><body><div class="related-content"><h1>A walk</h1>
    <time datetime="2020-02-20">Feb 20</time>{_STORY}</div></body></html>"""
    meta = read_metadata(parse_page(html), date_search=False)
    assert meta.published == datetime(2020, 2, 20, tzinfo=UTC)


def test_a_time_the_page_calls_an_update_is_not_the_publication() -> None:
    html = """<html><head></head><body><article><h1>A walk</h1><p><span>Last updated
    <time datetime="2021-08-20">Aug 20</time></span> · <span>Posted <time
    datetime="2021-07-15">Jul 15</time></span></p><p>Story.</p></article></body></html>"""
    meta = read_metadata(parse_page(html), date_search=False)
    assert meta.published == datetime(2021, 7, 15, tzinfo=UTC)
    assert meta.updated == datetime(2021, 8, 20, tzinfo=UTC)
    alone = html.replace('datetime="2021-07-15"', "")
    meta = read_metadata(parse_page(alone), date_search=False)
    assert meta.published == datetime(2021, 8, 20, tzinfo=UTC)


class _CountingFindDate:
    """Wraps htmldate's real ``find_date`` and counts the calls."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.real = real_find_date

    def __call__(self, html: str, **options: Any) -> str | None:
        self.calls.append(options)
        result: str | None = self.real(html, **options)
        return result


@pytest.fixture
def find_date(monkeypatch: pytest.MonkeyPatch) -> _CountingFindDate:
    counting = _CountingFindDate()
    monkeypatch.setattr("feedsift.metadata.dates.find_date", counting)
    return counting


UNSTRUCTURED = """<html><head><title>Old news</title></head><body>
<div class="post"><h1>Old news</h1><p class="meta">Posted on 2016-03-14 by the staff.</p>
<p>Some words of an article that carries its date only as text, nowhere in markup.</p></div>
</body></html>"""


def test_htmldate_is_the_fallback_when_no_structured_date_exists(
    find_date: _CountingFindDate,
) -> None:
    page = parse_page(UNSTRUCTURED)
    before = etree.tostring(page.root)
    meta = read_metadata(page)
    assert meta.published is not None
    assert meta.published.date().isoformat() == "2016-03-14"
    assert meta.published.tzinfo is not None
    assert meta.source_of("published") == FieldSource("published", "htmldate", "find_date")
    assert find_date.calls and find_date.calls[0]["extensive_search"] is False
    assert find_date.calls[0]["original_date"] is True
    assert etree.tostring(page.root) == before  # htmldate never touches the page's tree


def test_the_url_date_comes_before_htmldate(find_date: _CountingFindDate) -> None:
    page = parse_page("<html><body><p>No date in here at all.</p></body></html>",
                      url="https://ex.org/2019/02/03/some-story")  # fmt: skip
    meta = read_metadata(page)
    assert meta.published == datetime(2019, 2, 3, tzinfo=UTC)
    assert meta.source_of("published") == FieldSource("published", "url", "path")
    assert find_date.calls == []


def test_htmldate_is_not_called_when_a_structured_date_exists(find_date: _CountingFindDate) -> None:
    html = UNSTRUCTURED.replace(
        "<title>", '<meta property="article:published_time" content="2017-01-02"><title>'
    )
    meta = read_metadata(parse_page(html))
    assert meta.published == datetime(2017, 1, 2, tzinfo=UTC)
    assert find_date.calls == []


def test_no_date_anywhere_gives_none(find_date: _CountingFindDate) -> None:
    meta = read_metadata(parse_page("<html><body><p>Timeless words.</p></body></html>"))
    assert meta.published is None
    assert meta.source_of("published") is None
    assert [c["extensive_search"] for c in find_date.calls] == [False]  # markup search only

"""A declared publication date the page never shows yields to the date its date line shows."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

import feedsift
from feedsift.extractors.page import SHOWN_DATE_LINE
from feedsift.metadata.dates import same_day_loosely
from feedsift.metadata.textdates import written_dates

BODY = "".join(
    f"<p>Paragraph {n} of the guide explains what a traveller over sixty should check before "
    f"buying a policy, and why the fine print about pre-existing conditions matters.</p>"
    for n in range(8)
)


def _page(shown: str, extra: str = "", declared: str = "2019-08-11T18:59:51+00:00") -> bytes:
    """A guide whose JSON-LD keeps its first draft's date while the page shows ``shown``."""
    ld = f'{{"@context":"https://schema.org","@type":"Article","datePublished":"{declared}"}}'
    return f"""<html><head><title>Best Travel Insurance for Seniors</title>
<script type="application/ld+json">{ld}</script></head><body>
<nav><a href="/">Home</a> <a href="/insurance/">Insurance</a></nav>
<main><article><h1>Best Travel Insurance for Seniors</h1>
<div class="byline">By Jane Doe</div><div class="post-date">{shown}</div>
{BODY}{extra}</article></main></body></html>""".encode()


def _published(html: bytes) -> tuple[date | None, str | None]:
    article = feedsift.extract(html, "https://www.example.org/insurance/travel/best/")
    source = article.source_of("published")
    return (article.published.date() if article.published else None), (
        source.detail if source else None
    )


def test_the_date_under_the_headline_beats_a_declared_day_the_page_never_shows() -> None:
    assert _published(_page("November 21, 2025")) == (date(2025, 11, 21), SHOWN_DATE_LINE)


def test_a_declared_day_the_page_also_writes_stays() -> None:
    html = _page("November 21, 2025", "<p>First published on August 11, 2019.</p>")
    assert _published(html)[0] == date(2019, 8, 11)


def test_an_update_line_does_not_replace_the_publication() -> None:
    assert _published(_page("Updated November 21, 2025"))[0] == date(2019, 8, 11)


def test_a_day_off_or_day_and_month_swapped_is_the_declared_day() -> None:
    late = "2023-10-12T23:30:00-05:00"  # the 13th in UTC
    assert _published(_page("13/10/2023", declared=late))[0] == date(2023, 10, 12)
    assert _published(_page("10/12/2023", declared=late))[0] == date(2023, 10, 12)


def test_a_dated_table_under_the_title_is_not_a_date_line() -> None:
    table = "<table>" + "".join(f"<tr><td>{m}/1/2013</td></tr>" for m in range(1, 6)) + "</table>"
    html = _page("", declared="2025-02-12T10:00:00+00:00").replace(
        b'<div class="post-date"></div>', table.encode()
    )
    assert _published(html)[0] == date(2025, 2, 12)


@given(st.dates(date(1995, 1, 1), date(2030, 12, 31)), st.integers(-1, 1))
def test_a_day_either_side_is_loosely_the_same_day(day: date, shift: int) -> None:
    moment = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    assert same_day_loosely(moment, moment + timedelta(days=shift))


@given(st.dates(date(1995, 1, 1), date(2030, 12, 31)), st.integers(2, 4000))
def test_days_further_apart_are_not_unless_day_and_month_swap(day: date, gap: int) -> None:
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    other = moment + timedelta(days=gap)
    swapped = other.day <= 12 and (other.year, other.day, other.month) == (
        day.year, day.month, day.day
    )  # fmt: skip
    assert same_day_loosely(moment, other) == swapped


def test_written_dates_reads_every_date_of_a_text() -> None:
    found = {d.date() for d in written_dates("Posted 3 March 2021, updated on July 4, 2022.")}
    assert found == {date(2021, 3, 3), date(2022, 7, 4)}

"""Dates: strings from metadata to timezone-aware datetimes, and htmldate as the fallback.

Structured metadata writes ISO 8601 nearly always, sometimes RFC 2822, Unix timestamps,
``YYYYMMDD``, day-first dotted dates or English month names. Values without an offset are
taken as UTC, date-only values as midnight UTC, so every result is aware and its calendar
day is the one the page wrote.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from email.utils import parsedate_to_datetime

from htmldate import find_date
from lxml import etree

__all__ = [
    "ISO_DATE_START", "MAX_FUTURE", "MIN_YEAR", "htmldate_published", "parse_datetime",
    "same_day_loosely",
]  # fmt: skip

#: Earlier dates are placeholders (``1970-01-01``) or typos, not publication dates.
MIN_YEAR = 1990
#: Dates further ahead are scheduled events or typos; a little slack covers time zones.
MAX_FUTURE = timedelta(days=2)
#: A value that opens with an ISO date ("2021-06-04T21:40:00+03:00"): what a ``title`` or
#: ``datetime`` attribute holds when it keeps a date, where a tooltip holds words.
ISO_DATE_START = re.compile(r"\s*\d{4}-\d{2}-\d{2}")
#: Longer strings are sentences, not date values; only their start is looked at.
MAX_DATE_CHARS = 64
#: The format asked of htmldate: date and time, parsed back by :func:`parse_datetime`.
HTMLDATE_FORMAT = "%Y-%m-%dT%H:%M:%S"
#: htmldate passes (extensive_search off/on). Only the markup search runs: the extensive text
#: search costs ~50 ms a page on old pages (ten times a whole extraction) and mostly finds
#: copyright years.
HTMLDATE_PASSES: tuple[bool, ...] = (False,)

_ISO = re.compile(
    r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?)?"
    r"\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?"
)
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2})?)?$")
_EPOCH = re.compile(r"^\d{10}(?:\d{3})?$")
_DAY_FIRST = re.compile(r"(?<!\d)(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?:,?\s+(\d{1,2}):(\d{2}))?")
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_MONTH_FIRST = re.compile(_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.IGNORECASE)
_DAY_MONTH = re.compile(
    r"(\d{1,2})(?:st|nd|rd|th)?\.?\s+" + _MONTH + r",?\s+(\d{4})", re.IGNORECASE
)


def parse_datetime(text: str) -> datetime | None:
    """An aware datetime for ``text``, or ``None`` when no plausible date is found."""
    text = text.strip()[:MAX_DATE_CHARS]
    for parser in _PARSERS:
        try:
            value = parser(text)
        except (ValueError, OverflowError, TypeError, IndexError):
            continue
        if value is not None:
            value = value if value.tzinfo else value.replace(tzinfo=UTC)
            return value if _plausible(value) else None
    return None


def _plausible(value: datetime) -> bool:
    return value.year >= MIN_YEAR and value <= datetime.now(UTC) + MAX_FUTURE


def _iso(text: str) -> datetime | None:
    match = _ISO.search(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    value = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                     int(second or 0))  # fmt: skip
    return value.replace(tzinfo=_zone(zone)) if zone else value


def _zone(text: str) -> tzinfo:
    if text in ("Z", "UTC", "GMT"):
        return UTC
    digits = text[1:].replace(":", "")
    offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
    return timezone(-offset if text[0] == "-" else offset)


def _compact(text: str) -> datetime | None:
    match = _COMPACT.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = match.groups()
    return datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                    int(second or 0))  # fmt: skip


def _epoch(text: str) -> datetime | None:
    if not _EPOCH.match(text):
        return None
    seconds = int(text[:10])
    return datetime.fromtimestamp(seconds, UTC)


def _rfc2822(text: str) -> datetime | None:
    if not text[:1].isalpha():
        return None
    return parsedate_to_datetime(text)


def _day_first(text: str) -> datetime | None:
    match = _DAY_FIRST.search(text)
    if match is None:
        return None
    day, month, year, hour, minute = match.groups()
    return datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0))


def _month_name(text: str) -> datetime | None:
    match = _MONTH_FIRST.search(text)
    if match is not None:
        month, day, year = match.groups()
    elif (match := _DAY_MONTH.search(text)) is not None:
        day, month, year = match.groups()
    else:
        return None
    return datetime(int(year), _MONTHS[month.lower()[:3]], int(day))


_PARSERS: tuple[Callable[[str], datetime | None], ...] = (
    _compact, _epoch, _iso, _rfc2822, _day_first, _month_name,
)  # fmt: skip


#: A date in a URL path: ``/2024/05/17/slug`` or ``/2024-05-17-slug``.
URL_DATE = re.compile(
    r"/((?:19|20)\d\d)[/-](0?[1-9]|1[0-2])[/-](0?[1-9]|[12]\d|3[01])(?=[/\-_.]|$)"
)


def date_from_url(url: str | None) -> datetime | None:
    """The publication date written into a URL's path, at midnight UTC."""
    match = URL_DATE.search(url or "")
    if match is None:
        return None
    year, month, day = (int(g) for g in match.groups())
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:  # 2023/02/30
        return None


def htmldate_published(html: str, url: str | None) -> datetime | None:
    """The publication date htmldate finds in the page's text, markup search first.

    htmldate is given the decoded text, not the parsed tree: it only accepts ``lxml.html``
    trees, and from text it builds its own tree, so the page's tree is never touched.
    """
    if "<" not in html:
        return None  # htmldate fetches strings that look like a URL; a page has markup
    for extensive in HTMLDATE_PASSES:
        try:
            found = find_date(html, extensive_search=extensive, original_date=True,
                              outputformat=HTMLDATE_FORMAT, url=url)  # fmt: skip
        except (ValueError, TypeError, etree.LxmlError):
            return None  # htmldate gives up on markup it cannot parse; so do we
        value = parse_datetime(found) if found else None
        if value is not None and not (extensive and _year_only(value)):
            return value
    return None


def _year_only(value: datetime) -> bool:
    """Whether ``value`` is htmldate's stand-in for a bare year (a copyright line)."""
    return (value.month, value.day, value.hour, value.minute) == (1, 1, 0, 0)


#: A declared moment and a written date a day apart are one day seen from two time zones
#: (``2023-10-12T22:00Z`` is the 13th in Berlin).
ZONE_SLACK = timedelta(days=1)


def same_day_loosely(declared: datetime, written: datetime) -> bool:
    """Whether ``written`` names the day of ``declared`` within a time zone's day, or with
    day and month swapped (``10/09/2024`` read the other way round)."""
    day, other = declared.date(), written.date()
    if abs(day - other) <= ZONE_SLACK:
        return True
    swapped = (other.year, other.day, other.month)
    return other.day <= 12 and swapped == (day.year, day.month, day.day)

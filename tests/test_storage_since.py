"""since_moment: the start of a "since" filter, from a date, a time or an age."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedsift.errors import InputError
from feedsift.storage.since import AGE_UNIT_SECONDS, since_moment

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def test_dates_and_times_are_aware_utc_unless_they_say() -> None:
    assert since_moment("2026-11-01") == datetime(2026, 11, 1, tzinfo=UTC)
    paris = timezone(timedelta(hours=1))
    assert since_moment("2026-11-01T08:00+01:00") == datetime(2026, 11, 1, 8, tzinfo=paris)


@given(st.integers(0, 10**4), st.sampled_from(sorted(AGE_UNIT_SECONDS)))
def test_an_age_counts_back_from_now(amount: int, unit: str) -> None:
    expected = NOW - timedelta(seconds=amount * AGE_UNIT_SECONDS[unit])
    assert since_moment(f"{amount}{unit}", NOW) == expected


def test_an_age_past_year_one_is_the_beginning() -> None:
    assert since_moment("99999999d", NOW) == datetime.min.replace(tzinfo=UTC)
    assert since_moment("9" * 400 + "w", NOW) == datetime.min.replace(tzinfo=UTC)


@pytest.mark.parametrize("text", ["last tuesday", "", "24 hours", "-3d"])
def test_anything_else_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError, match="not a date, time or age"):
        since_moment(text)

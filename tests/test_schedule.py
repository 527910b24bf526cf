"""Polling schedules: hourly by default, adapted to the publishing rate, backing off on errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from feedsift.acquisition.schedule import (
    DEFAULT_INTERVAL,
    MAX_INTERVAL,
    MIN_INTERVAL,
    Schedule,
    typical_gap,
)

T0 = datetime(2026, 11, 22, tzinfo=UTC)


def _every(hours: float, count: int = 6) -> list[datetime | None]:
    return [T0 - timedelta(hours=hours * i) for i in range(count)]


def test_unknown_rate_polls_hourly() -> None:
    assert Schedule().interval([]) == DEFAULT_INTERVAL
    assert Schedule().interval([None, T0]) == DEFAULT_INTERVAL


def test_rate_is_followed_within_bounds() -> None:
    assert Schedule().interval(_every(3)) == 3 * 3600
    assert Schedule().interval(_every(0.01)) == MIN_INTERVAL
    assert Schedule().interval(_every(24 * 30)) == MAX_INTERVAL


def test_gap_uses_the_newest_items_and_ignores_order() -> None:
    moments = [*_every(2, 10)[::-1], T0 - timedelta(days=400)]
    assert typical_gap(moments) == 2 * 3600
    assert typical_gap([T0, T0, T0]) is None  # all at once: no rate


def test_errors_back_off_exponentially_and_honour_retry_after() -> None:
    schedule = Schedule()
    waits = [schedule.after_error(n) for n in (1, 2, 3)]
    assert waits == [300, 600, 1200]
    assert schedule.after_error(30) == MAX_INTERVAL
    assert schedule.after_error(1, retry_after=7200) == 7200


def test_fixed_interval_turns_adaptation_off() -> None:
    schedule = Schedule(fixed=5.0)
    assert schedule.interval(_every(3)) == 5.0
    assert schedule.after_error(1) == 5.0 and schedule.after_error(3) == 20.0

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.schedule.days import Calendar, DayError, weekly_tier, zone

LAUNCH = date(2026, 11, 23)
CALENDAR = Calendar(LAUNCH)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_numbers_count_days_from_the_launch() -> None:
    assert CALENDAR.number(LAUNCH) == 1
    assert CALENDAR.number(date(2026, 11, 29)) == 7
    assert CALENDAR.number(date(2026, 11, 22)) == 0
    assert all(CALENDAR.number(CALENDAR.day(n)) == n for n in range(1, 400))


def test_a_puzzle_opens_when_its_day_begins_at_utc_plus_14() -> None:
    # day #7 is 29 November: it begins at 10:00 UTC on the 28th in Kiribati
    assert CALENDAR.opens(7) == at("2026-11-28T10:00")
    assert not CALENDAR.is_open(7, at("2026-11-28T09:59:59"))
    assert CALENDAR.is_open(7, at("2026-11-28T10:00"))
    assert CALENDAR.is_future(7, at("2026-11-28T09:59:59"))
    assert not CALENDAR.is_future(7, at("2026-11-28T10:00"))


def test_a_puzzle_closes_when_its_day_ends_at_utc_minus_12() -> None:
    # 29 November ends at 12:00 UTC on the 30th on Baker Island
    assert CALENDAR.closes(7) == at("2026-11-30T12:00")
    assert CALENDAR.is_open(7, at("2026-11-30T11:59:59"))
    assert not CALENDAR.is_open(7, at("2026-11-30T12:00"))
    assert not CALENDAR.is_future(7, at("2026-11-30T12:00"))


def test_puzzles_before_the_launch_never_open() -> None:
    assert not CALENDAR.is_open(0, at("2026-11-22T12:00"))
    assert CALENDAR.is_future(0, at("2026-12-22T12:00"))


@given(
    number=st.integers(min_value=-3, max_value=12),
    now=st.datetimes(
        min_value=datetime(2026, 11, 20), max_value=datetime(2026, 12, 5), timezones=st.just(UTC)
    ),
)
def test_open_and_future_agree_with_the_opening_and_closing_times(number: int, now: datetime) -> None:
    """They compare numbers, never dates: the same answers as the times a puzzle opens and closes."""
    assert CALENDAR.is_open(number, now) == (
        number >= 1 and CALENDAR.opens(number) <= now < CALENDAR.closes(number)
    )
    assert CALENDAR.is_future(number, now) == (number < 1 or now < CALENDAR.opens(number))


@pytest.mark.parametrize("number", [3_000_000, 99_999_999_999, 10**40])
def test_a_number_beyond_every_date_is_not_out_yet(number: int) -> None:
    now = at("2026-11-29T12:00")
    assert CALENDAR.is_future(number, now)
    assert not CALENDAR.is_open(number, now)
    with pytest.raises(DayError, match=f"puzzle #{number} has no day"):
        CALENDAR.day(number)


@pytest.mark.parametrize(
    ("moment", "numbers"),
    [
        ("2026-11-29T00:00", [6, 7]),  # the 28th still runs at UTC-12
        ("2026-11-29T09:59", [6, 7]),
        ("2026-11-29T10:00", [6, 7, 8]),  # and now the 30th has begun at UTC+14
        ("2026-11-29T12:00", [7, 8]),
        ("2026-11-23T00:00", [1]),
        ("2026-11-23T10:00", [1, 2]),
    ],
)
def test_open_numbers_are_every_puzzle_playable_somewhere(moment: str, numbers: list[int]) -> None:
    now = at(moment)
    assert list(CALENDAR.open_numbers(now)) == numbers
    assert all(CALENDAR.is_open(n, now) for n in numbers)
    assert not CALENDAR.is_open(numbers[0] - 1, now)
    assert not CALENDAR.is_open(numbers[-1] + 1, now)


@pytest.mark.parametrize(
    ("moment", "tz", "number"),
    [
        # a minute before and after midnight UTC on the 29th
        ("2026-11-28T23:59", "UTC", 6),
        ("2026-11-29T00:00", "UTC", 7),
        # Rome is UTC+1 in November: its 29th starts at 23:00 UTC on the 28th
        ("2026-11-28T22:59", "Europe/Rome", 6),
        ("2026-11-28T23:00", "Europe/Rome", 7),
        # Los Angeles is UTC-8: its 29th starts at 08:00 UTC
        ("2026-11-29T07:59", "America/Los_Angeles", 6),
        ("2026-11-29T08:00", "America/Los_Angeles", 7),
        # the first and the last time zones on Earth
        ("2026-11-28T09:59", "Pacific/Kiritimati", 6),
        ("2026-11-28T10:00", "Pacific/Kiritimati", 7),
        ("2026-11-30T11:59", "Etc/GMT+12", 7),
        ("2026-11-30T12:00", "Etc/GMT+12", 8),
    ],
)
def test_the_players_day_is_their_local_date(moment: str, tz: str, number: int) -> None:
    now = at(moment)
    assert CALENDAR.today(now, zone(tz)) == number
    # whatever the zone, the player's own puzzle is open
    assert CALENDAR.is_open(number, now)


def test_the_next_puzzle_is_due_at_the_players_midnight() -> None:
    now = at("2026-11-29T12:00")
    assert CALENDAR.next_day_starts(now, zone("UTC")) == at("2026-11-30T00:00")
    assert CALENDAR.next_day_starts(now, zone("Europe/Rome")) == at("2026-11-29T23:00")
    assert CALENDAR.next_day_starts(now, zone("Pacific/Kiritimati")) == at("2026-11-30T10:00")


def test_the_week_ramps_from_easy_on_monday_to_master_on_sunday() -> None:
    week = [weekly_tier(LAUNCH + timedelta(days=i)) for i in range(7)]
    assert week == ["easy", "medium", "hard", "hard", "expert", "expert", "master"]


UNKNOWN_ZONES = ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "x" * 100, "Europe/", ".", "UTC\x00"]
NOT_ZONES = ["Europe", "America", "Etc", "Europe/Rome/x", "tzdata.zi"]
"""Folders and files of the time zone database that are no zone."""


@pytest.mark.parametrize("name", UNKNOWN_ZONES + NOT_ZONES)
def test_unknown_time_zones_are_refused_with_their_name(name: str) -> None:
    with pytest.raises(DayError, match="unknown time zone"):
        zone(name)


def test_no_time_zone_means_utc() -> None:
    assert zone(None).key == "UTC"
    assert zone("").key == "UTC"

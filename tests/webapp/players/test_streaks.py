"""Streak arithmetic: numbering gaps, time zones, the open window, hints and archive plays."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from webapp.players.streaks import DailyPlay, DayMark, Streak, calendar_cells, day_mark, marks, streak
from webapp.schedule.days import Calendar

LAUNCH = date(2026, 11, 23)
DATES = Calendar(LAUNCH)
NOON_7 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
"""Noon UTC on the day of #7: #7 and #8 are open somewhere, #6 closed at noon."""

C, S, M, U, OPEN = DayMark.CLEAN, DayMark.SOLVED, DayMark.MISSED, DayMark.UNPLAYED, DayMark.OPEN


def solved(number: int, at: datetime, hints: int = 0) -> DailyPlay:
    return DailyPlay(number, "solved", hints, at - timedelta(minutes=5), at)


def utc_noon(number: int) -> datetime:
    return datetime.combine(DATES.day(number), datetime.min.time(), UTC) + timedelta(hours=12)


def test_consecutive_solves_make_a_streak() -> None:
    assert streak({1: C, 2: S, 3: C}) == Streak(3, 3)
    assert streak({1: C, 2: M, 3: C, 4: C}) == Streak(2, 2)
    assert streak({1: C, 2: C, 3: C, 4: U, 5: C}) == Streak(1, 3)
    assert streak({}) == Streak(0, 0)


def test_a_missed_latest_puzzle_ends_the_current_streak() -> None:
    assert streak({1: C, 2: C, 3: U}) == Streak(0, 2)
    assert streak({1: C, 2: C, 3: M}) == Streak(0, 2)


def test_numbers_never_published_are_gaps_the_streak_steps_over() -> None:
    # the site was down on the days of #3 and #4: they are not in the record at all
    assert streak({1: C, 2: C, 5: C, 6: S}) == Streak(4, 4)


def test_an_open_puzzle_neither_extends_nor_breaks_the_streak() -> None:
    assert streak({1: C, 2: C, 3: OPEN}) == Streak(2, 2)
    # solved the next one early, from a time zone ahead, while yesterday's is still open
    assert streak({1: C, 2: C, 3: OPEN, 4: C}) == Streak(3, 3)
    # once it closes unsolved, the streak breaks there
    assert streak({1: C, 2: C, 3: U, 4: C}) == Streak(1, 2)


def test_hints_still_count_but_the_solve_is_not_clean() -> None:
    at = utc_noon(7)
    assert day_mark(7, solved(7, at, hints=0), DATES, at) is DayMark.CLEAN
    assert day_mark(7, solved(7, at, hints=2), DATES, at) is DayMark.SOLVED
    assert DayMark.SOLVED.counts and DayMark.CLEAN.counts and not DayMark.MISSED.counts


def test_a_solve_late_in_the_last_time_zone_still_counts() -> None:
    # #6 is 28 November; in UTC-11 (Pago Pago) it is still the 28th at 10:30 UTC on the 29th
    late = datetime(2026, 11, 29, 10, 30, tzinfo=UTC)
    assert DATES.is_open(6, late)
    assert day_mark(6, solved(6, late), DATES, NOON_7) is DayMark.CLEAN
    assert day_mark(6, solved(6, late + timedelta(hours=2)), DATES, NOON_7) is DayMark.UNPLAYED


def test_a_traveller_flying_west_then_east_keeps_the_streak() -> None:
    plays = [
        # #5 in Rome on the morning of the 27th
        solved(5, datetime(2026, 11, 27, 8, 0, tzinfo=UTC)),
        # #6 in Honolulu (UTC-10) late on the 28th: 09:30 UTC on the 29th
        solved(6, datetime(2026, 11, 29, 9, 30, tzinfo=UTC)),
        # #7 and #8 both in Auckland (UTC+13), a day ahead: the 30th's starts at 11:00 UTC on the 29th
        solved(7, datetime(2026, 11, 29, 10, 0, tzinfo=UTC)),
        solved(8, datetime(2026, 11, 29, 11, 30, tzinfo=UTC)),
    ]
    record = marks(range(1, 10), plays, DATES, NOON_7)
    assert [record[n] for n in (5, 6, 7, 8)] == [C, C, C, C]
    assert 9 not in record  # not open anywhere yet
    assert streak(record) == Streak(4, 4)


def test_the_open_window_decides_what_breaks() -> None:
    plays = [solved(n, utc_noon(n)) for n in (3, 4, 5, 6)]
    record = marks(range(1, 10), plays, DATES, NOON_7)
    assert record[7] is DayMark.OPEN and record[8] is DayMark.OPEN
    assert streak(record) == Streak(4, 4)
    # a day later #7 has closed unsolved (and #8, #9 are open): the streak is gone
    record = marks(range(1, 10), plays, DATES, NOON_7 + timedelta(days=1))
    assert record[7] is DayMark.UNPLAYED and record[8] is DayMark.OPEN
    assert streak(record) == Streak(0, 4)


def test_giving_up_an_open_puzzle_breaks_the_streak_at_once() -> None:
    plays = [solved(n, utc_noon(n)) for n in (5, 6)]
    gave_up = DailyPlay(7, "gave-up", 1, NOON_7 - timedelta(minutes=9), NOON_7 - timedelta(minutes=1))
    record = marks(range(1, 9), [*plays, gave_up], DATES, NOON_7)
    assert record[7] is DayMark.MISSED and record[8] is DayMark.OPEN
    assert streak(record) == Streak(0, 2)
    # still playing it: it may yet count
    playing = DailyPlay(7, "playing", 0, NOON_7 - timedelta(minutes=9), None)
    assert day_mark(7, playing, DATES, NOON_7) is DayMark.OPEN


def test_archive_plays_never_count() -> None:
    # #4 solved two days after it closed: an archive play
    later = DATES.closes(4) + timedelta(days=2)
    plays = [solved(3, utc_noon(3)), solved(4, later), solved(5, utc_noon(5))]
    record = marks(range(1, 6), plays, DATES, later)
    assert record[4] is DayMark.UNPLAYED
    assert streak(record) == Streak(1, 1)


def test_an_attempt_begun_while_open_and_finished_too_late_is_a_miss() -> None:
    started = DATES.closes(4) - timedelta(minutes=1)
    play = DailyPlay(4, "solved", 0, started, started + timedelta(minutes=3))
    assert day_mark(4, play, DATES, NOON_7) is DayMark.MISSED
    gave_up = DailyPlay(4, "gave-up", 0, started, started + timedelta(seconds=20))
    assert day_mark(4, gave_up, DATES, NOON_7) is DayMark.MISSED


def test_the_calendar_covers_whole_weeks_up_to_today() -> None:
    record = {5: C, 6: S, 7: OPEN}
    today = date(2026, 11, 29)  # a Sunday
    cells = calendar_cells(record, DATES, today, weeks=3)
    assert len(cells) == 21
    assert cells[0].day == date(2026, 11, 9) and (cells[0].column, cells[0].row) == (0, 0)
    assert cells[-1].day == today and (cells[-1].column, cells[-1].row) == (2, 6)
    assert {cell.number: cell.mark for cell in cells if cell.mark} == record
    assert cells[0].mark is None  # before the launch


def test_the_calendar_leaves_days_after_today_blank() -> None:
    today = date(2026, 11, 25)  # a Wednesday: #3
    cells = calendar_cells({1: C, 2: C, 3: OPEN, 4: OPEN}, DATES, today, weeks=1)
    assert [cell.mark for cell in cells] == [C, C, OPEN, None, None, None, None]

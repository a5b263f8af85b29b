"""Streaks and the calendar of daily puzzles: pure arithmetic over puzzle numbers, no Flask, no database.

A streak counts consecutive daily puzzles by number, not calendar days. A puzzle counts when it was
solved while still open (until its day has ended everywhere), so a player who flies across time
zones, or solves late in the evening of their own day, never loses one. Numbers that were never
published (no puzzle could be had for that day) are gaps the streak steps over; a day the site was
down is no gap, since the clock publishes a week ahead, but the puzzle stays open for two days
around the world, so a short outage costs nobody their streak. A puzzle still open
that is not solved yet neither extends nor breaks it. Archive plays start after the puzzle closed,
so they never count.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from webapp.models import Status
from webapp.schedule.days import Calendar


class DayMark(enum.Enum):
    """What one daily puzzle is in a player's record."""

    CLEAN = "clean"
    """Solved while open, without a hint or a slip."""
    SOLVED = "solved"
    """Solved while open, with hints or slips."""
    MISSED = "missed"
    """Played while open but not solved in time: missed, given up, timed out, left, or solved later."""
    UNPLAYED = "unplayed"
    """Closed, never tried while open."""
    OPEN = "open"
    """Still open somewhere, and not solved or given up yet: it may still count."""

    @property
    def counts(self) -> bool:
        return self in (DayMark.CLEAN, DayMark.SOLVED)


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """A player's attempt at a daily puzzle, as the streak needs it."""

    number: int
    status: Status
    hints: int
    started: datetime
    finished: datetime | None
    slips: int = 0


def day_mark(number: int, play: DailyPlay | None, dates: Calendar, now: datetime) -> DayMark:
    closes = dates.closes(number)
    if (
        play is not None
        and play.status == Status.SOLVED
        and play.finished is not None
        and play.finished < closes
    ):
        return DayMark.CLEAN if play.hints == 0 and play.slips == 0 else DayMark.SOLVED
    played_in_time = play is not None and play.started < closes
    if played_in_time and play is not None and play.status != Status.PLAYING:
        return DayMark.MISSED  # over without a solve in time: it can no longer count
    if dates.is_open(number, now):
        return DayMark.OPEN
    return DayMark.MISSED if played_in_time else DayMark.UNPLAYED


@dataclass(frozen=True, slots=True)
class Streak:
    current: int
    best: int


def streak(marks: Mapping[int, DayMark]) -> Streak:
    """The current and best streaks over the published puzzles' marks (numbers absent are gaps)."""
    run = best = 0
    for number in sorted(marks):
        mark = marks[number]
        if mark.counts:
            run += 1
            best = max(best, run)
        elif mark is not DayMark.OPEN:
            run = 0
    return Streak(run, best)


def marks(
    published: Iterable[int], plays: Iterable[DailyPlay], dates: Calendar, now: datetime
) -> dict[int, DayMark]:
    """The mark of every published puzzle that has opened, for one player."""
    by_number = {play.number: play for play in plays}
    return {
        number: day_mark(number, by_number.get(number), dates, now)
        for number in published
        if not dates.is_future(number, now)
    }


@dataclass(frozen=True, slots=True)
class CalendarCell:
    """One day of the calendar picture: its column (week) and row (Monday 0) and its mark."""

    column: int
    row: int
    day: date
    number: int
    mark: DayMark | None
    """None for a day with no puzzle: before the launch, not published, or not open yet."""


def calendar_cells(
    marks: Mapping[int, DayMark], dates: Calendar, today: date, weeks: int
) -> list[CalendarCell]:
    """The last `weeks` weeks up to the player's today, Monday to Sunday, oldest week first."""
    monday = today - timedelta(days=today.weekday()) - timedelta(weeks=weeks - 1)
    cells = []
    for offset in range(weeks * 7):
        day = monday + timedelta(days=offset)
        number = dates.number(day)
        mark = marks.get(number) if day <= today else None
        cells.append(CalendarCell(offset // 7, offset % 7, day, number, mark))
    return cells

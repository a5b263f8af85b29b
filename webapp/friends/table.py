"""What a member of a friends' table sees: each member's daily results for today and the week, each
puzzle's results only once the viewer has finished that puzzle themselves, so that nobody learns
anything of a puzzle from the table before playing it. Pure: the rows come from `groups`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from webapp.models import Status

WEEK = 7


class Mark(StrEnum):
    """How a member's daily puzzle went, as a cell of the week shows it."""

    CLEAN = "clean"
    """Solved without a hint or a slip."""
    SOLVED = "solved"
    MISSED = "missed"
    """Finished without the maximum: missed, given up or timed out."""
    PLAYING = "playing"
    """Begun, not finished."""
    NONE = "none"
    """Not played."""
    HIDDEN = "hidden"
    """Played, but the viewer has not finished this puzzle: how it went stays hidden from them."""


@dataclass(frozen=True, slots=True)
class Result:
    """A member's finished attempt at a daily puzzle, begun while it was open."""

    number: int
    status: Status
    placed: int
    of: int
    moves: int
    hints: int
    slips: int
    time: timedelta

    @property
    def solved(self) -> bool:
        return self.status == Status.SOLVED

    @property
    def mark(self) -> Mark:
        if self.status == Status.PLAYING:
            return Mark.PLAYING
        if not self.solved:
            return Mark.MISSED
        return Mark.CLEAN if self.hints == 0 and self.slips == 0 else Mark.SOLVED


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    you: bool
    streak: int
    results: dict[int, Result]
    """By daily number."""


@dataclass(frozen=True, slots=True)
class TodayRow:
    name: str
    you: bool
    result: Result | None
    """None while the member has not finished today's puzzle."""
    streak: int


@dataclass(frozen=True, slots=True)
class WeekRow:
    name: str
    you: bool
    marks: tuple[Mark, ...]
    solved: int
    """Puzzles of the week shown solved: hidden ones are not counted, so the total tells nothing."""


@dataclass(frozen=True, slots=True)
class Table:
    today: int
    open: bool
    """The viewer has finished today's puzzle, so today's results show."""
    rows: tuple[TodayRow, ...]
    """Today's results, best first; empty while they are hidden."""
    finished: int
    """How many members have finished today's puzzle: shown even while the results are hidden."""
    numbers: tuple[int, ...]
    """The week's daily numbers, oldest first."""
    week: tuple[WeekRow, ...]


def week_numbers(today: int, first: int = 1) -> tuple[int, ...]:
    """The daily numbers of the week to `today`: none before `first`, the site's first daily puzzle (a
    site started after Tavolo's launch day begins at a later number), as no one could play those."""
    return tuple(number for number in range(today - WEEK + 1, today + 1) if number >= max(first, 1))


def _done(result: Result | None) -> bool:
    return result is not None and result.status != Status.PLAYING


def _order(row: TodayRow) -> tuple[object, ...]:
    result = row.result
    if result is None:
        return (2, 0, 0, 0.0, row.name.casefold())
    return (
        0 if result.solved else 1,
        result.hints + result.slips if result.solved else -result.placed,
        result.moves,
        result.time.total_seconds(),
        row.name.casefold(),
    )


def table(members: list[Member], today: int, finished: set[int], first: int = 1) -> Table:
    """The table as the viewer sees it on the day of puzzle `today`, who has finished the daily
    puzzles `finished` (as the daily or from the archive: either way they have seen it); the week
    begins no earlier than `first`, the site's first daily puzzle."""
    numbers = week_numbers(today, first)
    seen = finished & set(numbers)
    is_open = today in seen
    rows = tuple(
        sorted(
            (
                TodayRow(
                    member.name,
                    member.you,
                    result if _done(result := member.results.get(today)) else None,
                    member.streak,
                )
                for member in members
            ),
            key=_order,
        )
    )
    week = []
    for member in members:
        # whether a member played shows; how it went, only once the viewer has finished it too
        marks = tuple(
            Mark.NONE
            if number not in member.results
            else (member.results[number].mark if number in seen else Mark.HIDDEN)
            for number in numbers
        )
        solved = sum(1 for mark in marks if mark in (Mark.CLEAN, Mark.SOLVED))
        week.append(WeekRow(member.name, member.you, marks, solved))
    return Table(
        today=today,
        open=is_open,
        rows=rows if is_open else (),
        finished=sum(1 for member in members if _done(member.results.get(today))),
        numbers=numbers,
        week=tuple(week),
    )


def time_face(span: timedelta) -> str:
    """`1:37`, `1:02:05`: how long a turn took."""
    seconds = max(int(span.total_seconds()), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"

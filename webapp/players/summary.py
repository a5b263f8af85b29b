"""A player's stats page in figures: counted in the database, a few grouped rows and the last ratings,
never by loading every attempt (3,000 attempts loaded as rows with their puzzles cost the page 250 ms
of CPU; their counts cost it a few). `records` keeps the rows it reads from; `charts` draws them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from webapp import models, rating_defaults
from webapp.models import Status
from webapp.players.charts import Bar, Line, moves_histogram, rating_over_time
from webapp.players.glicko import Rating
from webapp.players.records import FINISHED_ALONE, current_rating, day_marks, lapsed
from webapp.players.streaks import CalendarCell, Streak, calendar_cells, streak
from webapp.schedule.days import Calendar

CALENDAR_WEEKS = 10
RATING_HISTORY = 100
"""Points of the rating chart: the latest attempts rated."""


@dataclass(frozen=True, slots=True)
class Stats:
    """What the stats page shows."""

    played: int
    """Daily puzzles finished (as the daily or from the archive), and those left unfinished that can
    no longer be: begun while open and now closed, or a timed turn past its time."""
    solved: int
    clean: int
    """Solved without a hint or a slip."""
    slips: int
    """Slips in the daily puzzles finished: moves that took the table off track or to a dead end."""
    streak: Streak
    moves: list[Bar]
    calendar: list[CalendarCell]
    rating: Rating
    ratings: Line
    rated: int
    practice_played: int
    practice_solved: int

    @property
    def solve_rate(self) -> int:
        """Percent of the daily puzzles played that were solved."""
        return round(100 * self.solved / self.played) if self.played else 0


def stats(
    session: Session, player: str | None, dates: Calendar, now: datetime, today: date, zone: tzinfo = UTC
) -> Stats:
    """The player's stats (the rating chart's days in `zone`); a newcomer's are all zero, with an
    empty calendar."""
    rows: list[Any] = []
    record: dict[int, Any] = {}
    history: list[tuple[datetime, datetime | None, float | None]] = []
    left = rated = 0
    if player is not None:
        rows = _finished_counts(session, player)
        record = day_marks(session, player, dates, now)
        left = _left_unfinished(session, player, dates, now)
        history, rated = _latest_ratings(session, player)
    daily = [row for row in rows if row.daily]
    solved = [row for row in daily if row.status == Status.SOLVED]
    practice = [row for row in rows if not row.daily]
    return Stats(
        played=sum(row.count for row in daily) + left,
        solved=sum(row.count for row in solved),
        clean=sum(row.count for row in solved if row.clean),
        slips=sum(row.slips or 0 for row in daily),
        streak=streak(record),
        moves=moves_histogram([row.moves for row in solved for _ in range(row.count)]),
        calendar=calendar_cells(record, dates, today, CALENDAR_WEEKS),
        rating=Rating() if player is None else current_rating(session, player),
        ratings=rating_over_time(history, rating_defaults.DEFAULT_RATING, RATING_HISTORY, zone),
        rated=rated,
        practice_played=sum(row.count for row in practice),
        practice_solved=sum(row.count for row in practice if row.status == Status.SOLVED),
    )


def _finished_counts(session: Session, player: str) -> list[Any]:
    """The player's finished attempts outside runs, counted by daily or not, how they ended, clean
    or not and moves (rows: daily, status, clean, moves, count, slips)."""
    attempt = models.PlayerAttempt
    daily, clean = attempt.number.is_not(None), and_(attempt.hints == 0, attempt.slips == 0)
    keys = (daily, attempt.status, clean, attempt.moves)
    return list(
        session.execute(
            select(
                daily.label("daily"),
                attempt.status,
                clean.label("clean"),
                attempt.moves,
                func.count().label("count"),
                func.sum(attempt.slips).label("slips"),
            )
            .where(attempt.player_id == player, FINISHED_ALONE)
            .group_by(*keys)
        )
    )


def _latest_ratings(
    session: Session, player: str
) -> tuple[list[tuple[datetime, datetime | None, float | None]], int]:
    """The player's last `RATING_HISTORY` rated turns as (started, finished, rating after), oldest
    first, and how many attempts were rated."""
    attempt = models.PlayerAttempt
    rated = (attempt.player_id == player, FINISHED_ALONE, attempt.rating_after.is_not(None))
    latest = session.execute(
        select(attempt.started, attempt.finished, attempt.rating_after)
        .where(*rated)
        .order_by(attempt.finished.desc(), attempt.id.desc())
        .limit(RATING_HISTORY)
    )
    count = session.scalar(select(func.count()).select_from(attempt).where(*rated))
    return [(started, finished, rating) for started, finished, rating in reversed(list(latest))], int(
        count or 0
    )


def _left_unfinished(session: Session, player: str, dates: Calendar, now: datetime) -> int:
    """The daily puzzles the player started and can no longer finish (one attempt a day at most)."""
    unfinished = session.scalars(
        select(models.PlayerAttempt).where(
            models.PlayerAttempt.player_id == player,
            models.PlayerAttempt.status == Status.PLAYING,
            models.PlayerAttempt.number.is_not(None),
        )
    )
    return sum(1 for attempt in unfinished if lapsed(attempt, dates, now))

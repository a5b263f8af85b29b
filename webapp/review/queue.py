"""A player's review, read from their attempts: what waits now and later, and which round a review
page shows.

Read from an index, never by loading every turn: the latest turn at each puzzle in review holds the
moment it comes back (`PlayerAttempt.comes_back`, kept by the turns' writes: `due`), so what waits
is the player's turns that come back by now, counted and listed by the index (player, comes back),
and what comes back later the rest. Only the first `LISTED` of each list are read as rows, soonest
first, so the page costs the same whether a player has 30 attempts or 30,000.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.orm import Session

from webapp.models import Daily, PlayerAttempt, PoolPuzzle, Status
from webapp.review.spacing import ALWAYS, Turn, Waiting, round_to_show

LISTED = 50
"""Puzzles each list of the review page shows, soonest first; the page counts the rest."""


def turns(session: Session, player: str, puzzle_id: int | None = None) -> list[Turn]:
    query = select(
        PlayerAttempt.puzzle_id,
        PlayerAttempt.review,
        PlayerAttempt.status,
        PlayerAttempt.hints,
        PlayerAttempt.slips,
        PlayerAttempt.finished,
    )
    # a rush or streak run is a game of its own, against a clock or to the first miss: what it leaves
    # unsolved does not come back
    query = query.where(PlayerAttempt.player_id == player, PlayerAttempt.run_id.is_(None))
    if puzzle_id is not None:
        query = query.where(PlayerAttempt.puzzle_id == puzzle_id)
    return [Turn(*row) for row in session.execute(query)]


@dataclass(frozen=True, slots=True)
class Entry:
    """A puzzle in the player's review, with what names it in the list: a daily's number and day, or
    the day a practice puzzle was first played."""

    waiting: Waiting
    puzzle: PoolPuzzle
    number: int | None
    """The daily's number; None for a practice puzzle."""
    day: date
    """The daily's day, or the player's day of their first turn at a practice puzzle."""


@dataclass(frozen=True, slots=True)
class Review:
    """A player's review on a day: the first `LISTED` puzzles due (now) and coming back later, and
    how many there are in all."""

    due: list[Entry]
    later: list[Entry]
    due_count: int = 0
    later_count: int = 0


def review(session: Session, player: str | None, moment: datetime, zone: ZoneInfo) -> Review:
    if player is None:
        return Review([], [])
    due_count, later_count = _counts(session, player, moment)
    due = _soonest(session, player, PlayerAttempt.comes_back <= moment, zone)
    later = _soonest(session, player, PlayerAttempt.comes_back > moment, zone)
    ids = [item.puzzle_id for item in (*due, *later)]
    puzzles = {row.id: row for row in session.scalars(select(PoolPuzzle).where(PoolPuzzle.id.in_(ids)))}
    dailies = {
        puzzle_id: (number, day)
        for puzzle_id, number, day in session.execute(
            select(Daily.puzzle_id, Daily.number, Daily.day).where(Daily.puzzle_id.in_(ids))
        )
    }
    # found by the listed puzzles (one first turn each), the run told apart here: asked in the query,
    # the index of a round's turns by their end looked cheaper to SQLite, and read them all
    first_played = {
        puzzle_id: finished.astimezone(zone).date()
        for puzzle_id, finished, run_id in session.execute(
            select(PlayerAttempt.puzzle_id, PlayerAttempt.finished, PlayerAttempt.run_id).where(
                PlayerAttempt.player_id == player,
                PlayerAttempt.review == 0,
                PlayerAttempt.puzzle_id.in_([puzzle for puzzle in ids if puzzle not in dailies]),
            )
        )
        if finished is not None and run_id is None
    }
    today = moment.astimezone(zone).date()

    def entry(item: Waiting) -> Entry:
        number, day = dailies.get(item.puzzle_id, (None, first_played.get(item.puzzle_id, today)))
        return Entry(item, puzzles[item.puzzle_id], number, day)

    return Review([entry(item) for item in due], [entry(item) for item in later], due_count, later_count)


def _soonest(session: Session, player: str, which: ColumnElement[bool], zone: ZoneInfo) -> list[Waiting]:
    """The first `LISTED` of the player's puzzles in review of `which`, by the moment they come back
    (rounds being played first, by puzzle)."""
    rows = session.execute(
        select(PlayerAttempt.puzzle_id, PlayerAttempt.review, PlayerAttempt.status, PlayerAttempt.comes_back)
        .where(PlayerAttempt.player_id == player, which)
        .order_by(PlayerAttempt.comes_back, PlayerAttempt.puzzle_id)
        .limit(LISTED)
    )
    found = []
    for puzzle_id, review_round, status, at in rows:
        assert at is not None, "a turn in review comes back"
        if status == Status.PLAYING:
            found.append(Waiting(puzzle_id, review_round, date.min, ALWAYS, playing=True))
        else:
            found.append(Waiting(puzzle_id, review_round + 1, at.astimezone(zone).date(), at))
    return found


def _counts(session: Session, player: str, moment: datetime) -> tuple[int, int]:
    at = PlayerAttempt.comes_back
    found: Any = session.execute(
        select(
            func.coalesce(func.sum(case((at <= moment, 1), else_=0)), 0),
            func.coalesce(func.sum(case((at > moment, 1), else_=0)), 0),
        ).where(PlayerAttempt.player_id == player, at.is_not(None))
    ).one()
    return int(found[0]), int(found[1])


def counts(session: Session, player: str | None, moment: datetime, zone: ZoneInfo) -> tuple[int, int]:
    """How many puzzles wait for review now, and how many come back later."""
    if player is None:
        return 0, 0
    return _counts(session, player, moment)


def round_of(
    session: Session, player: str | None, puzzle_id: int, moment: datetime, zone: ZoneInfo
) -> int | None:
    """The review round the puzzle's review page shows this player; None when it has none. Only the
    latest turn decides (`spacing.round_to_show`), so only it is read."""
    if player is None:
        return None
    latest = session.execute(
        select(
            PlayerAttempt.puzzle_id,
            PlayerAttempt.review,
            PlayerAttempt.status,
            PlayerAttempt.hints,
            PlayerAttempt.slips,
            PlayerAttempt.finished,
        )
        .where(PlayerAttempt.player_id == player, PlayerAttempt.run_id.is_(None))
        .where(PlayerAttempt.puzzle_id == puzzle_id)
        .order_by(PlayerAttempt.review.desc())
        .limit(1)
    ).first()
    return None if latest is None else round_to_show([Turn(*latest)], puzzle_id, moment, zone)
